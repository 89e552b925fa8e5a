//! Fault injection for the crash and full-disk tests: with the
//! `failpoints` feature, every file system mutation the installer makes
//! ([`crate::root::Root`]) is counted, and the environment can ask for the
//! process to die at the n-th (`SKB_FAILPOINT_CRASH=n`: `abort`, which runs
//! no destructor, as `kill -9` would) or for the n-th to fail with `ENOSPC`
//! (`SKB_FAILPOINT_ENOSPC=n`, and every write after it: a full disk stays
//! full). `SKB_FAILPOINT_COUNT=<file>` writes the count
//! reached to a file at each counted call, so a test learns how many points
//! an operation has. `SKB_FAILPOINT_NOSYNC=1` skips the flushes to the disk
//! (a kill loses nothing the kernel holds; only a power cut would), so that
//! a thousand crash runs do not wait on the disk. Without the feature,
//! [`hit`] does nothing and compiles away.

use std::io;

/// The kind of mutation about to happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    /// A file or folder created or written.
    Write,
    /// A rename.
    Rename,
    /// A delete.
    Remove,
    /// A flush to the disk.
    Sync,
}

/// Called before each mutation; an `Err` is the injected failure.
#[cfg(not(feature = "failpoints"))]
#[inline(always)]
pub(crate) fn hit(_: Op) -> io::Result<()> {
    Ok(())
}

/// Whether flushes to the disk are made (always, without the feature).
#[cfg(not(feature = "failpoints"))]
#[inline(always)]
pub(crate) fn syncs() -> bool {
    true
}

#[cfg(feature = "failpoints")]
pub(crate) fn syncs() -> bool {
    std::env::var_os("SKB_FAILPOINT_NOSYNC").is_none()
}

#[cfg(feature = "failpoints")]
pub(crate) fn hit(op: Op) -> io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let n = COUNT.fetch_add(1, Ordering::SeqCst) + 1;
    let var = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    if let Ok(file) = std::env::var("SKB_FAILPOINT_COUNT") {
        let _ = std::fs::write(file, n.to_string());
    }
    if var("SKB_FAILPOINT_CRASH") == Some(n) {
        std::process::abort();
    }
    // A disk that fills stays full: every write from the n-th on fails; a
    // rename (which may have to grow a folder) fails at the n-th only, so
    // that undoing renames still works, as it does on a real full disk.
    let full = var("SKB_FAILPOINT_ENOSPC").is_some_and(|at| match op {
        Op::Write => n >= at,
        Op::Rename => n == at,
        Op::Remove | Op::Sync => false,
    });
    if full {
        return Err(io::Error::from_raw_os_error(28));
    }
    Ok(())
}

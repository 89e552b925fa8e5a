//! Running the `git` program: a fixed environment and configuration that
//! keep it from prompting, running hooks or helpers, or reading another
//! repository's settings; stdin closed; stdout kept up to a bound and the
//! end of stderr kept for messages; the whole run stopped at a deadline.

use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::GitOptions;

/// `-c` settings given to every git run (see the module doc of `git`).
const CONFIG: &[&str] = &[
    // No hook runs, whatever the user's global `core.hooksPath` says.
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "protocol.ext.allow=never",
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
    "advice.detachedHead=false",
    "init.defaultBranch=main",
    // The same bytes on every machine: no end-of-line conversion from the
    // user's settings (a repository's own `.gitattributes` still applies).
    "core.autocrlf=false",
    "core.eol=lf",
    // Refuse paths that are special on Windows or macOS on every system, so
    // a lock made on one restores on the others.
    "core.protectNTFS=true",
    "core.protectHFS=true",
    // No background `gc`/`maintenance` outliving the run.
    "maintenance.auto=false",
    "gc.auto=0",
];

/// Transports git may use, whatever `url.<base>.insteadOf` rewrites to.
const ALLOWED_PROTOCOLS: &str = "file:git:http:https:ssh";

/// Variables that would point git at another repository (set, for example,
/// when `skb` runs inside a git hook): `git rev-parse --local-env-vars`.
const LOCAL_ENV: &[&str] = &[
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_GRAFT_FILE",
    "GIT_INDEX_FILE",
    "GIT_NO_REPLACE_OBJECTS",
    "GIT_REPLACE_REF_BASE",
    "GIT_PREFIX",
    "GIT_SHALLOW_FILE",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
];

/// How much of stderr is kept (its end) for messages.
const STDERR_KEEP: usize = 4 * 1024;

/// What a finished git run left.
#[derive(Debug)]
pub(super) struct Output {
    pub(super) status: ExitStatus,
    /// The first `stdout_limit` bytes of stdout.
    pub(super) stdout: Vec<u8>,
    /// Whether stdout was longer than the limit (the rest was read and
    /// dropped, so git never blocks on a full pipe).
    pub(super) stdout_truncated: bool,
    /// The last lines of stderr, control characters removed, joined by `; `.
    pub(super) stderr: String,
}

/// Why a run did not finish.
#[derive(Debug)]
pub(super) enum RunError {
    /// The program does not exist.
    NotFound(PathBuf),
    /// The deadline passed; the child was killed.
    Timeout,
    /// Starting or waiting for the child failed otherwise.
    Io(io::Error),
}

/// Runs `git <CONFIG…> <args…>` and waits for it until `deadline`.
pub(super) fn run(
    opts: &GitOptions,
    args: &[&OsStr],
    deadline: Instant,
    stdout_limit: usize,
) -> Result<Output, RunError> {
    let mut cmd = Command::new(&opts.git);
    for setting in CONFIG {
        cmd.arg("-c").arg(setting);
    }
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for var in LOCAL_ENV {
        cmd.env_remove(var);
    }
    cmd.env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_ALLOW_PROTOCOL", ALLOWED_PROTOCOLS);
    // Git for Windows keeps its credential manager and CA bundle in the
    // system configuration: leaving it out there would break HTTPS.
    #[cfg(not(windows))]
    cmd.env("GIT_CONFIG_NOSYSTEM", "1");
    let mut child = cmd.spawn().map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => RunError::NotFound(opts.git.clone()),
        _ => RunError::Io(e),
    })?;
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().map(|out| {
        let tx = tx.clone();
        thread::spawn(move || {
            let kept = read_head(out, stdout_limit);
            let _ = tx.send(());
            kept
        })
    });
    let stderr = child.stderr.take().map(|err| {
        let tx = tx.clone();
        thread::spawn(move || {
            let kept = read_tail(err, STDERR_KEEP);
            let _ = tx.send(());
            kept
        })
    });
    drop(tx);
    let status = wait_until(&mut child, deadline)?;
    // A grandchild (ssh, a remote helper) may still hold the pipes: wait for
    // both readers only until the deadline.
    for _ in 0..2 {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(RunError::Timeout),
        }
    }
    let (stdout, stdout_truncated) = match stdout.map(thread::JoinHandle::join) {
        Some(Ok(Ok(kept))) => kept,
        Some(Ok(Err(e))) => return Err(RunError::Io(e)),
        _ => (Vec::new(), false),
    };
    let stderr = match stderr.map(thread::JoinHandle::join) {
        Some(Ok(Ok(tail))) => clean_tail(&tail),
        _ => String::new(),
    };
    Ok(Output {
        status,
        stdout,
        stdout_truncated,
        stderr,
    })
}

/// Polls the child until it exits, killing it at the deadline.
fn wait_until(child: &mut Child, deadline: Instant) -> Result<ExitStatus, RunError> {
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait().map_err(RunError::Io)? {
            return Ok(status);
        }
        let now = Instant::now();
        if now >= deadline {
            // Already exited between the two calls, or killed now: either
            // way, reap it so no zombie is left.
            let _ = child.kill();
            let _ = child.wait();
            return Err(RunError::Timeout);
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// The first `limit` bytes; the rest is read and dropped.
fn read_head(mut from: impl Read, limit: usize) -> io::Result<(Vec<u8>, bool)> {
    let mut kept = Vec::new();
    let mut truncated = false;
    let mut buf = [0u8; 8192];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return Ok((kept, truncated)),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let room = limit.saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..n.min(room)]);
        truncated |= n > room;
    }
}

/// The last `keep` bytes (roughly: up to twice that is held while reading).
fn read_tail(mut from: impl Read, keep: usize) -> io::Result<Vec<u8>> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > 2 * keep {
            kept.drain(..kept.len() - keep);
        }
    }
    if kept.len() > keep {
        kept.drain(..kept.len() - keep);
    }
    Ok(kept)
}

/// The last few non-empty lines of stderr, on one line: a server's text
/// loses its control characters (no terminal escapes reach the user), and
/// git's `hint:` lines are left out.
fn clean_tail(tail: &[u8]) -> String {
    let text = String::from_utf8_lossy(tail);
    let mut lines: Vec<String> = Vec::new();
    for line in text.split(['\n', '\r']) {
        let line: String = line.chars().filter(|c| !c.is_control()).collect();
        let line = line.trim();
        if line.is_empty() || line.starts_with("hint:") {
            continue;
        }
        // A sentence git wraps over two lines ("...access rights\nand the
        // repository exists.") is read back as one.
        match lines.last_mut() {
            Some(last) if line.starts_with(|c: char| c.is_lowercase()) && !line.contains(": ") => {
                last.push(' ');
                last.push_str(line);
            }
            _ => lines.push(line.to_owned()),
        }
    }
    let start = lines.len().saturating_sub(4);
    lines[start..].join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_keeps_the_start_and_reads_everything() {
        let data = vec![b'x'; 20_000];
        let (kept, truncated) = read_head(&data[..], 100).unwrap_or_default();
        assert_eq!((kept.len(), truncated), (100, true));
        let (kept, truncated) = read_head(&data[..10], 100).unwrap_or_default();
        assert_eq!((kept.len(), truncated), (10, false));
    }

    #[test]
    fn tail_keeps_the_end() {
        let mut data = vec![b'a'; 50_000];
        data.extend_from_slice(b"fatal: the end");
        let tail = read_tail(&data[..], 64).unwrap_or_default();
        assert_eq!(tail.len(), 64);
        assert!(tail.ends_with(b"fatal: the end"));
    }

    #[test]
    fn messages_lose_escapes_and_hints() {
        let raw = b"remote: \x1b[31mred\x1b[0m\r\nhint: do this\n\nfatal: one\nfatal: two\n";
        assert_eq!(
            clean_tail(raw),
            "remote: [31mred[0m; fatal: one; fatal: two"
        );
        let wrapped = b"fatal: gone\n\nPlease make sure you have the correct access rights\n\
                        and the repository exists.\n";
        assert_eq!(
            clean_tail(wrapped),
            "fatal: gone; Please make sure you have the correct access rights \
             and the repository exists."
        );
    }
}

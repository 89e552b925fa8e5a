//! Running the `git` program: a fixed environment and configuration that
//! keep it from prompting, running hooks or helpers, following redirects,
//! or reading another repository's settings; the transports it may use
//! given per run (`GIT_ALLOW_PROTOCOL`, see `transport.rs`); stdin closed;
//! stdout handed as it arrives to a reader that bounds it ([`Stdout`]) and
//! the end of stderr kept for messages; a watch called while git runs (on
//! what it writes to the disk) that may stop it; the whole run stopped at
//! a deadline.

use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::{GitError, GitOptions};
use crate::stop::stop;

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
    // The URL fetched is the URL given: a server cannot send git to another
    // host, or from `https://` to `http://` (git follows the first
    // request's redirects by default).
    "http.followRedirects=false",
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

/// The least time between two calls of a watch; a watch that takes long
/// (a large folder to measure) is called at most a fifth of the time.
const WATCH_EVERY: Duration = Duration::from_millis(100);

/// Where a run's stdout goes, as it arrives.
pub(super) trait Stdout: Send + 'static {
    /// Takes the next bytes; `false` stops reading: the pipe is closed, and
    /// git ends on the broken pipe when it next writes.
    fn take(&mut self, bytes: &[u8]) -> bool;
}

/// The first `limit` bytes of stdout; the rest is read and dropped, so git
/// never blocks on a full pipe.
#[derive(Debug)]
pub(super) struct Head {
    /// The bytes kept.
    pub(super) bytes: Vec<u8>,
    /// Whether stdout was longer than the limit.
    pub(super) truncated: bool,
    limit: usize,
}

impl Head {
    pub(super) fn new(limit: usize) -> Head {
        Head {
            bytes: Vec::new(),
            truncated: false,
            limit,
        }
    }
}

impl Stdout for Head {
    fn take(&mut self, bytes: &[u8]) -> bool {
        let room = self.limit.saturating_sub(self.bytes.len());
        self.bytes
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
        self.truncated |= bytes.len() > room;
        true
    }
}

/// What a finished git run left.
#[derive(Debug)]
pub(super) struct Output<S> {
    pub(super) status: ExitStatus,
    /// What stdout's reader made of it.
    pub(super) stdout: S,
    /// The last lines of stderr, control characters removed, joined by `; `.
    pub(super) stderr: String,
    /// The end of stderr as it came (at most [`STDERR_KEEP`] bytes): what
    /// `verify-commit --raw` reports is read from it.
    pub(super) stderr_raw: Vec<u8>,
}

/// Why a run did not finish.
#[derive(Debug)]
pub(super) enum RunError {
    /// The program does not exist.
    NotFound(PathBuf),
    /// The deadline passed; the child was killed.
    Timeout,
    /// The watch stopped the run (the child was killed), saying why.
    Stopped(GitError),
    /// Starting or waiting for the child failed otherwise.
    Io(io::Error),
}

/// Called while git runs, and once after it exits; an error stops it.
pub(super) type Watch<'w> = &'w mut dyn FnMut() -> Result<(), GitError>;

/// How the runs of one call are made.
pub(super) struct Runner<'a> {
    pub(super) opts: &'a GitOptions,
    /// When the call's time runs out (all its runs together).
    pub(super) deadline: Instant,
    /// `GIT_ALLOW_PROTOCOL`: the transports git may use (`transport.rs`).
    pub(super) protocols: &'static str,
}

impl Runner<'_> {
    /// Runs `git <CONFIG…> <args…>` and waits for it until the deadline,
    /// handing its stdout to `stdout` and calling `watch` while it runs.
    pub(super) fn run<S: Stdout>(
        &self,
        args: &[&OsStr],
        stdout: S,
        watch: Option<Watch<'_>>,
    ) -> Result<Output<S>, RunError> {
        self.run_env(args, stdout, watch, &[])
    }

    /// [`Runner::run`] with `env` set too (after the fixed variables, so it
    /// may override them).
    pub(super) fn run_env<S: Stdout>(
        &self,
        args: &[&OsStr],
        stdout: S,
        watch: Option<Watch<'_>>,
        env: &[(&str, &OsStr)],
    ) -> Result<Output<S>, RunError> {
        let mut cmd = Command::new(&self.opts.git);
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
            .env("GIT_ALLOW_PROTOCOL", self.protocols);
        // Git for Windows keeps its credential manager and CA bundle in the
        // system configuration: leaving it out there would break HTTPS.
        #[cfg(not(windows))]
        cmd.env("GIT_CONFIG_NOSYSTEM", "1");
        for (name, value) in env {
            cmd.env(name, value);
        }
        collect(cmd, &self.opts.git, stdout, watch, self.deadline)
    }
}

/// Runs `program` with `args` and `env` (stdin closed), as a git run is
/// run: stdout to `stdout`, the end of stderr kept, stopped at `deadline`.
pub(super) fn run_program<S: Stdout>(
    program: &std::path::Path,
    args: &[&OsStr],
    env: &[(&str, &OsStr)],
    stdout: S,
    deadline: Instant,
) -> Result<Output<S>, RunError> {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        cmd.env(name, value);
    }
    collect(cmd, program, stdout, None, deadline)
}

/// Starts `cmd` (`program`, for the error when it does not exist) and
/// collects what it writes until it exits or `deadline` passes.
fn collect<S: Stdout>(
    mut cmd: Command,
    program: &std::path::Path,
    stdout: S,
    watch: Option<Watch<'_>>,
    deadline: Instant,
) -> Result<Output<S>, RunError> {
    let mut child = cmd.spawn().map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => RunError::NotFound(program.to_path_buf()),
        _ => RunError::Io(e),
    })?;
    let (Some(out), Some(err)) = (child.stdout.take(), child.stderr.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(RunError::Io(io::Error::other("the output is not piped")));
    };
    let (tx, rx) = mpsc::channel();
    let stdout = {
        let tx = tx.clone();
        thread::spawn(move || {
            let kept = read_into(out, stdout);
            let _ = tx.send(());
            kept
        })
    };
    let stderr = thread::spawn(move || {
        let kept = read_tail(err, STDERR_KEEP);
        let _ = tx.send(());
        kept
    });
    let status = wait_until(&mut child, deadline, watch)?;
    // A grandchild (ssh, a remote helper) may still hold the pipes: wait
    // for both readers only until the deadline.
    for _ in 0..2 {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(RunError::Timeout),
        }
    }
    let stdout = match stdout.join() {
        Ok(Ok(kept)) => kept,
        Ok(Err(e)) => return Err(RunError::Io(e)),
        Err(_) => {
            return Err(RunError::Io(io::Error::other("reading the output failed")));
        }
    };
    let stderr_raw = match stderr.join() {
        Ok(Ok(tail)) => tail,
        _ => Vec::new(),
    };
    Ok(Output {
        status,
        stdout,
        stderr: clean_tail(&stderr_raw),
        stderr_raw,
    })
}

/// Polls the child until it exits, killing it at the deadline or when the
/// watch says so; the watch is called once more after the child exits.
fn wait_until(
    child: &mut Child,
    deadline: Instant,
    mut watch: Option<Watch<'_>>,
) -> Result<ExitStatus, RunError> {
    let mut pause = Duration::from_millis(1);
    let mut next_watch = Instant::now() + WATCH_EVERY;
    loop {
        if let Some(status) = child.try_wait().map_err(RunError::Io)? {
            if let Some(watch) = watch.as_mut() {
                watch().map_err(RunError::Stopped)?;
            }
            return Ok(status);
        }
        let now = Instant::now();
        if now >= deadline {
            stop(child);
            return Err(RunError::Timeout);
        }
        if let Some(watch) = watch.as_mut()
            && now >= next_watch
        {
            if let Err(why) = watch() {
                stop(child);
                return Err(RunError::Stopped(why));
            }
            next_watch = Instant::now() + WATCH_EVERY.max(now.elapsed() * 4);
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Hands everything `from` gives to `to` until the end or until `to` says
/// stop (then `from`, the pipe, is closed).
fn read_into<S: Stdout>(mut from: impl Read, mut to: S) -> io::Result<S> {
    let mut buf = [0u8; 8192];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return Ok(to),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if !to.take(&buf[..n]) {
            return Ok(to);
        }
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
        let head = read_into(&data[..], Head::new(100)).map(|h| (h.bytes.len(), h.truncated));
        assert_eq!(head.ok(), Some((100, true)));
        let head = read_into(&data[..10], Head::new(100)).map(|h| (h.bytes.len(), h.truncated));
        assert_eq!(head.ok(), Some((10, false)));
    }

    /// Stops taking after `n` calls.
    struct Count(usize);

    impl Stdout for Count {
        fn take(&mut self, _: &[u8]) -> bool {
            self.0 -= 1;
            self.0 > 0
        }
    }

    #[test]
    fn a_reader_that_says_stop_reads_no_more() {
        struct Chunks(usize);
        impl Read for Chunks {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                buf[0] = 1;
                Ok(1)
            }
        }
        let mut source = Chunks(0);
        let left = read_into(&mut source, Count(3)).map(|c| c.0);
        assert_eq!(left.ok(), Some(0));
        assert_eq!(source.0, 3);
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

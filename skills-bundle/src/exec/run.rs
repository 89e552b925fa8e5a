//! The default executor: a child process in its own process group, in the
//! skill's materialised directory, with a reduced environment, capped
//! output and a deadline.
//!
//! The child leads a new process group (`process_group(0)`), so every
//! process it starts can be killed at once. The leader's exit is detected
//! without reaping it (`waitid` with `WNOWAIT`), so its pid, which names the
//! group, cannot be reused while the group is signalled: at the timeout,
//! and also after a normal exit so that no background grandchild survives
//! the run. Then the leader is reaped. On Linux the wait sleeps in `poll` on
//! a pidfd, which wakes at the exit itself; elsewhere it checks at growing
//! intervals (1 ms, doubling to 20 ms). A process that leaves the group
//! (`setsid`) escapes this; only a cgroup or a sandbox would catch it.
//!
//! stdout and stderr are read on two threads, each keeping at most
//! `max_output` bytes and discarding the rest, so the child never blocks on
//! a full pipe and memory stays bounded; the pipes close when the group
//! dies. Should an escaped process still hold one open, the run returns
//! after a short grace with what was read so far.
//!
//! A script gets only its standard streams: before each spawn, every other
//! descriptor of this process is marked close-on-exec
//! (`close_inherited`), so a descriptor inherited from this process's own
//! parent, or opened without `O_CLOEXEC` by C code, never reaches a script.
//! This is a process-wide change (a descriptor meant for a child of the
//! embedder's own must have the flag cleared again at that spawn); a
//! descriptor another thread opens without `O_CLOEXEC` between the sweep
//! and the spawn can still slip through.
//!
//! A program without a `/` is looked up on the reduced environment's
//! `PATH` here, before spawning (absolute entries only), so the standard
//! library can start it with `posix_spawn` instead of a fork that tries
//! every `PATH` entry in turn.

use std::ffi::OsString;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use rustix::io::Errno;
use rustix::process::{Pid, Signal, WaitId, WaitIdOptions};

use super::command::{Command, Invocation, Output, ScriptExecutor};
use super::defaults::{DEFAULT_ENV_ALLOW, DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT, MAX_TIMEOUT};
use super::error::ExecError;
use super::materialise::{default_cache_root, materialise};
use crate::Skill;
use skills_core::path;

/// How long the output readers get to finish once the group is dead.
pub(super) const READER_GRACE: Duration = Duration::from_millis(500);

/// Runs commands as local child processes; see the module documentation.
///
/// A script starts with its standard streams only: before each spawn,
/// every other descriptor of this process is marked close-on-exec, a
/// process-wide change an embedder passing descriptors to children of its
/// own must know of.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LocalExecutor {
    /// Where skills are materialised ([`materialise`]).
    pub cache_root: PathBuf,
    /// When the process group is killed; at most [`MAX_TIMEOUT`].
    pub timeout: Duration,
    /// Bytes kept per output stream; the rest is read and discarded.
    pub max_output: usize,
    /// Variables passed on from this process's environment, when set; the
    /// child also gets `SKILL_NAME`, `SKILL_DIR` and
    /// `PYTHONDONTWRITEBYTECODE=1` (a `__pycache__` written into the skill
    /// directory would make its next run refused), and nothing else.
    pub env_allow: Vec<String>,
    /// Whether [`Invocation::Shell`] commands are run (`/bin/sh -c`). Off
    /// by default; turn it on only when the policy allows a shell tool.
    pub allow_shell: bool,
}

impl LocalExecutor {
    /// An executor with the defaults and `cache_root`.
    pub fn new(cache_root: impl Into<PathBuf>) -> LocalExecutor {
        LocalExecutor {
            cache_root: cache_root.into(),
            timeout: DEFAULT_TIMEOUT,
            max_output: DEFAULT_MAX_OUTPUT,
            env_allow: DEFAULT_ENV_ALLOW.iter().map(|s| s.to_string()).collect(),
            allow_shell: false,
        }
    }

    /// An executor with the defaults and [`default_cache_root`](super::default_cache_root).
    pub fn with_default_cache() -> Result<LocalExecutor, ExecError> {
        default_cache_root()
            .map(LocalExecutor::new)
            .ok_or(ExecError::NoCacheDir)
    }

    /// The process to start, before its environment and pipes are set.
    /// A program containing `/` is a normal relative path joined to `dir`;
    /// `argv[0]` is the program as written.
    fn program(&self, dir: &Path, invocation: &Invocation) -> Result<StdCommand, ExecError> {
        match invocation {
            Invocation::Shell(_) if !self.allow_shell => Err(ExecError::ShellNotAllowed),
            Invocation::Shell(line) => {
                let mut cmd = StdCommand::new("/bin/sh");
                cmd.arg("-c").arg(line);
                Ok(cmd)
            }
            Invocation::Argv(argv) => {
                let Some((program, args)) = argv.split_first() else {
                    return Err(ExecError::EmptyCommand);
                };
                if program.is_empty() {
                    return Err(ExecError::EmptyCommand);
                }
                let mut cmd = if program.contains('/') {
                    let rel = path::normalize(program).map_err(|reason| ExecError::BadPath {
                        path: program.clone(),
                        reason,
                    })?;
                    StdCommand::new(dir.join(rel))
                } else {
                    StdCommand::new(self.find_on_path(program).unwrap_or_else(|| program.into()))
                };
                // `argv[0]` as written, as a shell passes it: a program's
                // messages then name it as the skill does (`ls: ...`).
                cmd.arg0(program).args(args);
                Ok(cmd)
            }
        }
    }

    /// The first executable file called `program` in an absolute directory
    /// of the `PATH` the child gets; `None` leaves the lookup to the spawn
    /// (which then fails the same way).
    fn find_on_path(&self, program: &str) -> Option<PathBuf> {
        use std::os::unix::fs::PermissionsExt;
        if !self.env_allow.iter().any(|name| name == "PATH") {
            return None;
        }
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .filter(|dir| dir.is_absolute())
            .map(|dir| dir.join(program))
            .find(|candidate| {
                std::fs::metadata(candidate)
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            })
    }

    fn environment(&self, skill: &Skill<'_>, dir: &Path) -> Vec<(OsString, OsString)> {
        let mut env: Vec<(OsString, OsString)> = self
            .env_allow
            .iter()
            .filter(|name| {
                !matches!(
                    name.as_str(),
                    "SKILL_NAME" | "SKILL_DIR" | "PYTHONDONTWRITEBYTECODE"
                )
            })
            .filter_map(|name| std::env::var_os(name).map(|v| (name.into(), v)))
            .collect();
        env.push(("SKILL_NAME".into(), skill.name().into()));
        env.push(("SKILL_DIR".into(), dir.into()));
        env.push(("PYTHONDONTWRITEBYTECODE".into(), "1".into()));
        env
    }
}

impl LocalExecutor {
    /// The deadline of a run started at `start`; a timeout over
    /// [`MAX_TIMEOUT`] is refused, and the addition is checked, so no
    /// timeout can overflow the clock. Taken before spawning, so that a
    /// refusal leaves nothing running. Shared by the blocking and async runs.
    pub(super) fn deadline(&self, start: Instant) -> Result<Instant, ExecError> {
        let too_long = || ExecError::TimeoutTooLong {
            timeout: self.timeout,
        };
        if self.timeout > MAX_TIMEOUT {
            return Err(too_long());
        }
        start.checked_add(self.timeout).ok_or_else(too_long)
    }

    /// Materialises the skill and builds the process to spawn: its own
    /// process group, the skill directory as working directory, the reduced
    /// environment, piped output. Shared by the blocking and async runs.
    pub(super) fn prepare(
        &self,
        skill: &Skill<'_>,
        command: &Command,
    ) -> Result<StdCommand, ExecError> {
        let dir = materialise(skill, &self.cache_root)?.dir;
        let mut cmd = self.program(&dir, &command.invocation)?;
        close_inherited();
        cmd.current_dir(&dir)
            .env_clear()
            .envs(self.environment(skill, &dir))
            .stdin(if command.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        Ok(cmd)
    }
}

impl ScriptExecutor for LocalExecutor {
    fn run(&self, skill: &Skill<'_>, command: &Command) -> Result<Output, ExecError> {
        let mut cmd = self.prepare(skill, command)?;
        let start = Instant::now();
        let deadline = self.deadline(start)?;
        let mut child = spawn_retrying(&mut cmd).map_err(|source| spawn_error(&cmd, source))?;
        let pid = Pid::from_child(&child);
        // Fed on a thread so a child that does not read cannot block the
        // run; the write fails (EPIPE) once the group is dead.
        if let (Some(mut pipe), Some(bytes)) = (child.stdin.take(), command.stdin.clone()) {
            thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            });
        }
        let stdout = Reader::spawn(child.stdout.take(), self.max_output);
        let stderr = Reader::spawn(child.stderr.take(), self.max_output);
        let timed_out = !wait_for_exit(pid, deadline);
        // ESRCH when the leader was alone: nothing left to kill.
        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        let status = child
            .wait()
            .map_err(|e| ExecError::io("wait for", cmd.get_program(), e))?;
        let duration = start.elapsed();
        let grace = Instant::now() + READER_GRACE;
        Ok(Output::finished(
            status,
            stdout.finish(grace, self.max_output),
            stderr.finish(grace, self.max_output),
            timed_out,
            duration,
        ))
    }
}

impl Output {
    /// What a run gives, from the reaped status and each stream's capture
    /// (bytes kept, whether truncated): shared by the blocking and async runs.
    pub(super) fn finished(
        status: std::process::ExitStatus,
        (stdout, stdout_truncated): (Vec<u8>, bool),
        (stderr, stderr_truncated): (Vec<u8>, bool),
        timed_out: bool,
        duration: Duration,
    ) -> Output {
        Output {
            exit_code: status.code(),
            signal: status.signal(),
            stdout,
            stderr,
            stdout_truncated,
            stderr_truncated,
            timed_out,
            duration,
        }
    }
}

/// Marks every descriptor from 3 up close-on-exec (see the module
/// documentation): one `close_range(CLOSE_RANGE_CLOEXEC)` on Linux 5.11 and
/// later, else one `fcntl` per open descriptor.
fn close_inherited() {
    close_fds::set_fds_cloexec_threadsafe(3, &[]);
}

/// How often a spawn failing with `ETXTBSY` is tried again: a script just
/// written by [`materialise`] is "busy" while a process forked by another
/// thread still holds the (close-on-exec) descriptor it was written through,
/// until that process calls `exec`. The window is short; the pauses add up
/// to about 0.5 s.
pub(super) const BUSY_RETRIES: u32 = 9;

/// Whether a spawn error is that transient `ETXTBSY`.
pub(super) fn text_file_busy(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(Errno::TXTBSY.raw_os_error())
}

/// The pause before retry `attempt` (0-based): 1 ms, doubling.
pub(super) fn busy_pause(attempt: u32) -> Duration {
    Duration::from_millis(1 << attempt.min(9))
}

fn spawn_retrying(cmd: &mut StdCommand) -> std::io::Result<std::process::Child> {
    let mut attempt = 0;
    loop {
        match cmd.spawn() {
            Err(e) if text_file_busy(&e) && attempt < BUSY_RETRIES => {
                thread::sleep(busy_pause(attempt));
                attempt += 1;
            }
            result => return result,
        }
    }
}

pub(super) fn spawn_error(cmd: &StdCommand, source: std::io::Error) -> ExecError {
    ExecError::Spawn {
        program: cmd.get_program().to_string_lossy().into_owned(),
        source,
    }
}

/// Whether the leader has exited, leaving it unreaped so that its pid keeps
/// naming the group.
pub(super) fn has_exited(pid: Pid) -> bool {
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    loop {
        match rustix::process::waitid(WaitId::Pid(pid), options) {
            Ok(Some(_)) => return true,
            Ok(None) => return false,
            Err(Errno::INTR) => {}
            // Not waitable (cannot happen for our own child): stop waiting;
            // the caller kills the group and reaps.
            Err(_) => return true,
        }
    }
}

/// The pauses between checks for the leader's exit: 1 ms, doubling to 20.
pub(super) fn next_pause(pause: Duration) -> Duration {
    (pause * 2).min(Duration::from_millis(20))
}

/// Waits until the leader exits (true) or `deadline` passes (false),
/// leaving it unreaped.
fn wait_for_exit(pid: Pid, deadline: Instant) -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Ok(pidfd) = rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()) {
        use rustix::event::{PollFd, PollFlags, Timespec};
        loop {
            if has_exited(pid) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            let timeout = Timespec::try_from(left).unwrap_or(Timespec {
                tv_sec: i64::MAX,
                tv_nsec: 0,
            });
            let mut fds = [PollFd::new(&pidfd, PollFlags::IN)];
            match rustix::event::poll(&mut fds, Some(&timeout)) {
                Ok(_) | Err(Errno::INTR) => {}
                // poll itself failed: fall back to checking at intervals.
                Err(_) => break,
            }
        }
    }
    let mut pause = Duration::from_millis(1);
    loop {
        if has_exited(pid) {
            return true;
        }
        let now = Instant::now();
        if now >= deadline {
            return false;
        }
        thread::sleep(pause.min(deadline - now));
        pause = next_pause(pause);
    }
}

/// What a reader kept.
#[derive(Debug, Default)]
pub(super) struct Capture {
    bytes: Vec<u8>,
    truncated: bool,
}

impl Capture {
    /// Keeps what fits of `chunk` under `cap`, noting what does not.
    pub(super) fn push(&mut self, chunk: &[u8], cap: usize) {
        let keep = chunk.len().min(cap.saturating_sub(self.bytes.len()));
        self.bytes
            .extend_from_slice(chunk.get(..keep).unwrap_or_default());
        self.truncated |= keep < chunk.len();
    }

    /// The bytes kept, with a marker when truncated, and whether they were.
    pub(super) fn take(&mut self, cap: usize) -> (Vec<u8>, bool) {
        let mut bytes = std::mem::take(&mut self.bytes);
        if self.truncated {
            bytes.extend_from_slice(format!("\n[output truncated at {cap} bytes]\n").as_bytes());
        }
        (bytes, self.truncated)
    }
}

/// One output stream, read on its own thread.
struct Reader {
    capture: Arc<Mutex<Capture>>,
    /// Closed by the thread when the stream ends.
    done: Option<Receiver<()>>,
}

impl Reader {
    fn spawn(pipe: Option<impl Read + Send + 'static>, cap: usize) -> Reader {
        let capture = Arc::new(Mutex::new(Capture::default()));
        let done = pipe.map(|mut pipe| {
            let capture = Arc::clone(&capture);
            let (tx, rx) = mpsc::channel::<()>();
            thread::spawn(move || {
                // Dropped when the thread ends, however it ends: that wakes
                // `finish`.
                let _done = tx;
                let mut chunk = [0u8; 16 * 1024];
                loop {
                    let n = match pipe.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => n,
                        Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                        Err(_) => break,
                    };
                    capture
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(chunk.get(..n).unwrap_or_default(), cap);
                }
            });
            rx
        });
        Reader { capture, done }
    }

    /// The bytes kept (with a marker when truncated) and whether they were
    /// truncated, waiting for the stream's end until `grace` at most.
    fn finish(self, grace: Instant, cap: usize) -> (Vec<u8>, bool) {
        if let Some(done) = self.done {
            // Disconnected when the thread is done; a timeout leaves a
            // thread blocked on a pipe that an escaped process holds open.
            let _ = done.recv_timeout(grace.saturating_duration_since(Instant::now()));
        }
        self.capture
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take(cap)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::Bundle;
    use crate::exec::testing::{first_pid, gone, script};

    fn run(exec: &LocalExecutor, b: &Bundle, command: Command) -> Output {
        let skill = b.get("demo").expect("skill");
        exec.run(&skill, &command).expect("runs")
    }

    #[test]
    fn captures_both_streams_and_the_exit_code() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let exec = LocalExecutor::new(tmp.path());
        let b = script("echo out; echo err >&2; cat; exit 3");
        let out = run(
            &exec,
            &b,
            Command::argv(["scripts/t.sh"]).with_stdin("in\n"),
        );
        assert_eq!(out.exit_code, Some(3));
        assert_eq!(out.signal, None);
        assert_eq!(out.stdout, b"out\nin\n");
        assert_eq!(out.stderr, b"err\n");
        assert!(!out.timed_out && !out.stdout_truncated && !out.stderr_truncated);
        assert!(!out.success());
        // The working directory is the skill's, relative paths and all.
        let out = run(&exec, &b, Command::parse("cat ./SKILL.md").expect("parses"));
        assert!(out.success());
        assert!(out.stdout.starts_with(b"---\nname: demo\n"));
    }

    #[test]
    fn the_timeout_kills_the_whole_group() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut exec = LocalExecutor::new(tmp.path());
        exec.timeout = Duration::from_secs(1);
        let b = script("sleep 30 &\necho $!\nsleep 30");
        let out = run(&exec, &b, Command::argv(["scripts/t.sh"]));
        assert!(out.timed_out);
        assert_eq!(out.signal, Some(9));
        assert_eq!(out.exit_code, None);
        assert!(out.duration < Duration::from_secs(5), "{:?}", out.duration);
        assert!(gone(first_pid(&out.stdout)), "the grandchild survived");
    }

    #[test]
    fn a_timeout_past_the_maximum_is_refused_before_spawning() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let marker = tmp.path().join("ran");
        let b = script(&format!("touch {}", marker.display()));
        let skill = b.get("demo").expect("skill");
        let mut exec = LocalExecutor::new(tmp.path().join("cache"));
        for timeout in [
            Duration::MAX,
            Duration::from_secs(1 << 63),
            MAX_TIMEOUT + Duration::from_nanos(1),
        ] {
            exec.timeout = timeout;
            match exec.run(&skill, &Command::argv(["scripts/t.sh"])) {
                Err(ExecError::TimeoutTooLong { timeout: t }) => assert_eq!(t, timeout),
                other => panic!("{timeout:?}: {other:?}"),
            }
            assert!(!marker.exists(), "{timeout:?}: the script ran");
        }
        exec.timeout = MAX_TIMEOUT;
        let out = run(&exec, &b, Command::argv(["scripts/t.sh"]));
        assert!(out.success() && marker.exists());
    }

    #[test]
    fn no_background_process_outlives_a_normal_exit() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let exec = LocalExecutor::new(tmp.path());
        // The grandchild holds stdout open: without the group kill the run
        // would wait for it.
        let b = script("sleep 30 &\necho $!\nexit 0");
        let out = run(&exec, &b, Command::argv(["scripts/t.sh"]));
        assert!(out.success() && !out.timed_out);
        assert!(out.duration < Duration::from_secs(5), "{:?}", out.duration);
        assert!(gone(first_pid(&out.stdout)), "the grandchild survived");
    }

    /// The descriptors `ls` has open, but the directory it lists: its own
    /// numbers and where each leads.
    #[cfg(target_os = "linux")]
    pub(crate) fn inherited(out: &Output) -> Vec<(String, String)> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_once(" -> "))
            .filter_map(|(head, target)| {
                let fd = head.rsplit(' ').next()?.to_string();
                let own_dir = target.starts_with("/proc/") && target.ends_with("/fd");
                (!own_dir).then(|| (fd, target.to_string()))
            })
            .collect()
    }

    /// A descriptor without `O_CLOEXEC` in the caller, the list command, and
    /// what the script must see: its three standard streams only.
    #[cfg(target_os = "linux")]
    pub(crate) fn leaky_fd(dir: &Path) -> (std::fs::File, Command) {
        let file = std::fs::File::create(dir.join("leak")).expect("create");
        rustix::io::fcntl_setfd(&file, rustix::io::FdFlags::empty()).expect("fcntl");
        (file, Command::argv(["ls", "-l", "/proc/self/fd"]))
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn scripts_get_only_the_standard_streams() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let exec = LocalExecutor::new(tmp.path().join("cache"));
        let (_leak, command) = leaky_fd(tmp.path());
        let out = run(&exec, &script(""), command);
        assert!(out.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let fds: Vec<String> = inherited(&out).into_iter().map(|(fd, _)| fd).collect();
        assert_eq!(
            fds,
            ["0", "1", "2"],
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }

    #[test]
    fn a_flood_is_capped_with_a_marker() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let exec = LocalExecutor::new(tmp.path());
        let b = script("head -c 10485760 /dev/zero; head -c 3000000 /dev/zero >&2; echo done >&2");
        let out = run(&exec, &b, Command::argv(["scripts/t.sh"]));
        assert!(out.success());
        let marker = b"\n[output truncated at 1048576 bytes]\n";
        for (bytes, truncated) in [
            (&out.stdout, out.stdout_truncated),
            (&out.stderr, out.stderr_truncated),
        ] {
            assert!(truncated);
            assert_eq!(bytes.len(), DEFAULT_MAX_OUTPUT + marker.len());
            assert!(bytes.ends_with(marker));
            assert!(bytes.iter().take(DEFAULT_MAX_OUTPUT).all(|&b| b == 0));
        }
    }

    #[test]
    fn the_environment_is_the_allow_list_and_the_skill() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut exec = LocalExecutor::new(tmp.path());
        let b = script("");
        let keys = |out: &Output| -> BTreeSet<String> {
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.split_once('=').map(|(k, _)| k.to_string()))
                .collect()
        };
        let out = run(&exec, &b, Command::argv(["env"]));
        assert!(out.success());
        let allowed: BTreeSet<String> = DEFAULT_ENV_ALLOW
            .iter()
            .chain(&["SKILL_NAME", "SKILL_DIR", "PYTHONDONTWRITEBYTECODE"])
            .map(|s| s.to_string())
            .collect();
        assert!(keys(&out).is_subset(&allowed), "{:?}", keys(&out));

        exec.env_allow = vec!["PATH".into(), "SKILL_NAME".into()];
        let out = run(&exec, &b, Command::argv(["env"]));
        assert_eq!(
            keys(&out),
            ["PATH", "PYTHONDONTWRITEBYTECODE", "SKILL_DIR", "SKILL_NAME"]
                .map(String::from)
                .into()
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let dir = materialise(&b.get("demo").expect("skill"), tmp.path())
            .expect("cached")
            .dir;
        assert!(text.contains("SKILL_NAME=demo\n"));
        assert!(text.contains("PYTHONDONTWRITEBYTECODE=1\n"));
        assert!(text.contains(&format!("SKILL_DIR={}\n", dir.display())));
    }

    #[test]
    fn shells_only_when_allowed_and_programs_stay_inside() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut exec = LocalExecutor::new(tmp.path());
        let b = script("");
        let skill = b.get("demo").expect("skill");
        let err = |exec: &LocalExecutor, c: Command| match exec.run(&skill, &c) {
            Err(e) => e,
            Ok(out) => panic!("ran: {out:?}"),
        };
        assert!(matches!(
            err(&exec, Command::shell("echo a | tr a b")),
            ExecError::ShellNotAllowed
        ));
        assert!(matches!(
            err(&exec, Command::argv(["../t.sh"])),
            ExecError::BadPath { .. }
        ));
        assert!(matches!(
            err(&exec, Command::argv(["/bin/echo"])),
            ExecError::BadPath { .. }
        ));
        assert!(matches!(
            err(&exec, Command::argv(Vec::<String>::new())),
            ExecError::EmptyCommand
        ));
        assert!(matches!(
            err(&exec, Command::argv(["scripts/missing"])),
            ExecError::Spawn { .. }
        ));
        assert!(matches!(
            Command::parse("ls; rm -rf /"),
            Err(ExecError::Args(_))
        ));
        exec.allow_shell = true;
        let out = run(&exec, &b, Command::shell("echo a | tr a b"));
        assert_eq!(out.stdout, b"b\n");
    }
}

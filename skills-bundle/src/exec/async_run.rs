//! The default executor on tokio (feature `tokio`): the blocking run's
//! rules, awaited instead of blocked on.
//!
//! [`LocalExecutor::prepare`] builds the same process as the blocking run
//! (materialised directory, reduced environment, its own process group), and
//! the run keeps the same order: wait for the leader's exit without reaping
//! it, kill the group, reap, then give the output readers a short grace.
//! The waiting checks `waitid(.., WNOHANG | WNOWAIT)`, the same check as
//! the blocking run, so the leader's pid names the group until the group is
//! dead; between checks it awaits the leader's pidfd on Linux (readable at
//! the exit), elsewhere a timer (1 ms, doubling to 20 ms). The output readers are tokio tasks that keep at most
//! `max_output` bytes per stream.
//!
//! Dropping the future (a cancelled request, a `select!` that lost) kills
//! the process group: nothing started by a run outlives it.
//!
//! Materialising is file-system work done on the calling task. The first
//! run of a skill writes its files; later runs re-hash them (about the cost
//! of reading them), which is short enough not to move to a blocking thread.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rustix::process::{Pid, Signal};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::run::{
    BUSY_RETRIES, Capture, READER_GRACE, busy_pause, has_exited, next_pause, spawn_error,
    text_file_busy,
};
use super::{AsyncScriptExecutor, Command, ExecError, LocalExecutor, Output};
use crate::Skill;

impl AsyncScriptExecutor for LocalExecutor {
    async fn run_async(&self, skill: &Skill<'_>, command: &Command) -> Result<Output, ExecError> {
        let std_cmd = self.prepare(skill, command)?;
        let program = std_cmd.get_program().to_owned();
        let mut cmd = tokio::process::Command::from(std_cmd);
        let start = Instant::now();
        let deadline = Instant::from_std(self.deadline(start.into_std())?);
        let mut attempt = 0;
        let mut child = loop {
            match cmd.spawn() {
                Err(e) if text_file_busy(&e) && attempt < BUSY_RETRIES => {
                    tokio::time::sleep(busy_pause(attempt)).await;
                    attempt += 1;
                }
                result => break result.map_err(|source| spawn_error(cmd.as_std(), source))?,
            }
        };
        let Some(pid) = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .and_then(Pid::from_raw)
        else {
            // No pid: the child was already reaped, which cannot happen
            // before we wait for it.
            return Err(ExecError::io(
                "find the process of",
                program,
                std::io::Error::other("no process id"),
            ));
        };
        // From here on, leaving this function in any way kills the group.
        let mut group = GroupGuard(Some(pid));
        if let (Some(mut pipe), Some(bytes)) = (child.stdin.take(), command.stdin.clone()) {
            tokio::spawn(async move {
                let _ = pipe.write_all(&bytes).await;
            });
        }
        let stdout = Reader::spawn(child.stdout.take(), self.max_output);
        let stderr = Reader::spawn(child.stderr.take(), self.max_output);
        let timed_out = !wait_for_exit(pid, deadline).await;
        group.kill();
        let status = child
            .wait()
            .await
            .map_err(|e| ExecError::io("wait for", &program, e))?;
        let duration = start.elapsed();
        let grace = Instant::now() + READER_GRACE;
        Ok(Output::finished(
            status,
            stdout.finish(grace, self.max_output).await,
            stderr.finish(grace, self.max_output).await,
            timed_out,
            duration,
        ))
    }
}

/// Kills the process group when dropped, unless already killed. Armed only
/// while the leader is unreaped, so the pid still names our group.
struct GroupGuard(Option<Pid>);

impl GroupGuard {
    fn kill(&mut self) {
        if let Some(pid) = self.0.take() {
            // ESRCH when the leader was alone: nothing left to kill.
            let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Waits until the leader exits (true) or `deadline` passes (false),
/// leaving it unreaped.
async fn wait_for_exit(pid: Pid, deadline: Instant) -> bool {
    // `with_interest` is deprecated because a `T` that does not own its fd
    // could close it while registered; an `OwnedFd` moved into the `AsyncFd`
    // cannot. Its replacement is `unsafe`, which this crate forbids.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[allow(deprecated)]
    if let Ok(pidfd) = rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty())
        && let Ok(pidfd) =
            tokio::io::unix::AsyncFd::with_interest(pidfd, tokio::io::Interest::READABLE)
    {
        loop {
            if has_exited(pid) {
                return true;
            }
            match tokio::time::timeout_at(deadline, pidfd.readable()).await {
                Err(_) => return has_exited(pid),
                Ok(Ok(mut ready)) => ready.clear_ready(),
                // The reactor refused the fd: check at intervals instead.
                Ok(Err(_)) => break,
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
        tokio::time::sleep(pause.min(deadline - now)).await;
        pause = next_pause(pause);
    }
}

/// One output stream, read on its own task.
struct Reader {
    capture: Arc<Mutex<Capture>>,
    task: Option<JoinHandle<()>>,
}

impl Reader {
    fn spawn(pipe: Option<impl AsyncRead + Unpin + Send + 'static>, cap: usize) -> Reader {
        let capture = Arc::new(Mutex::new(Capture::default()));
        let task = pipe.map(|mut pipe| {
            let capture = Arc::clone(&capture);
            tokio::spawn(async move {
                let mut chunk = vec![0u8; 16 * 1024];
                // An error ends the stream like EOF does.
                while let Ok(n @ 1..) = pipe.read(&mut chunk).await {
                    capture
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(chunk.get(..n).unwrap_or_default(), cap);
                }
            })
        });
        Reader { capture, task }
    }

    /// What was kept, waiting for the task until `grace` at most.
    async fn finish(self, grace: Instant, cap: usize) -> (Vec<u8>, bool) {
        if let Some(mut task) = self.task
            && tokio::time::timeout_at(grace, &mut task).await.is_err()
        {
            // A process that left the group still holds the pipe.
            task.abort();
        }
        self.capture
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take(cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::ScriptExecutor;
    use crate::exec::testing::{first_pid, gone, script};

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(future)
    }

    #[test]
    fn gives_what_the_blocking_run_gives() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let exec = LocalExecutor::new(tmp.path());
        let b = script("echo out; echo err >&2; cat; echo \"$SKILL_NAME\"; exit 3");
        let skill = b.get("demo").expect("skill");
        let command = Command::argv(["scripts/t.sh"]).with_stdin("in\n");
        let sync = exec.run(&skill, &command).expect("runs");
        let out = block_on(exec.run_async(&skill, &command)).expect("runs");
        assert_eq!(out.exit_code, Some(3));
        assert_eq!(out.stdout, b"out\nin\ndemo\n");
        assert_eq!(out.stderr, b"err\n");
        assert_eq!(
            (out.exit_code, out.signal, &out.stdout, &out.stderr),
            (sync.exit_code, sync.signal, &sync.stdout, &sync.stderr)
        );
        let err = block_on(exec.run_async(&skill, &Command::shell("echo hi")));
        assert!(matches!(err, Err(ExecError::ShellNotAllowed)));
    }

    #[test]
    fn the_timeout_kills_the_whole_group() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut exec = LocalExecutor::new(tmp.path());
        exec.timeout = Duration::from_millis(500);
        let b = script("sleep 30 &\necho $!\nsleep 30");
        let skill = b.get("demo").expect("skill");
        let out = block_on(exec.run_async(&skill, &Command::argv(["scripts/t.sh"]))).expect("runs");
        assert!(out.timed_out);
        assert_eq!(out.signal, Some(9));
        assert!(gone(first_pid(&out.stdout)), "the grandchild survived");
        // After a normal exit too.
        let b = script("sleep 30 &\necho $!\nexit 0");
        let skill = b.get("demo").expect("skill");
        let out = block_on(exec.run_async(&skill, &Command::argv(["scripts/t.sh"]))).expect("runs");
        assert!(out.success());
        assert!(gone(first_pid(&out.stdout)), "the grandchild survived");
    }

    #[test]
    fn a_timeout_past_the_maximum_is_refused_before_spawning() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let marker = tmp.path().join("ran");
        let b = script(&format!("touch {}", marker.display()));
        let skill = b.get("demo").expect("skill");
        let mut exec = LocalExecutor::new(tmp.path().join("cache"));
        exec.timeout = Duration::MAX;
        let command = Command::argv(["scripts/t.sh"]);
        match block_on(exec.run_async(&skill, &command)) {
            Err(ExecError::TimeoutTooLong { timeout }) => assert_eq!(timeout, Duration::MAX),
            other => panic!("{other:?}"),
        }
        assert!(!marker.exists(), "the script ran");
        exec.timeout = crate::exec::MAX_TIMEOUT;
        let out = block_on(exec.run_async(&skill, &command)).expect("runs");
        assert!(out.success() && marker.exists());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn scripts_get_only_the_standard_streams() {
        use crate::exec::run::tests::{inherited, leaky_fd};
        let tmp = tempfile::tempdir().expect("tempdir");
        let exec = LocalExecutor::new(tmp.path().join("cache"));
        let (_leak, command) = leaky_fd(tmp.path());
        let b = script("");
        let skill = b.get("demo").expect("skill");
        let out = block_on(exec.run_async(&skill, &command)).expect("runs");
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
    fn a_flood_is_capped() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut exec = LocalExecutor::new(tmp.path());
        exec.max_output = 1000;
        let b = script("head -c 5000000 /dev/zero; echo done >&2");
        let skill = b.get("demo").expect("skill");
        let out = block_on(exec.run_async(&skill, &Command::argv(["scripts/t.sh"]))).expect("runs");
        assert!(out.success() && out.stdout_truncated && !out.stderr_truncated);
        assert_eq!(
            out.stdout.len(),
            1000 + "\n[output truncated at 1000 bytes]\n".len()
        );
        assert_eq!(out.stderr, b"done\n");
    }

    #[test]
    fn dropping_the_future_kills_the_group() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let exec = LocalExecutor::new(tmp.path());
        let pidfile = tmp.path().join("pid");
        let b = script(&format!(
            "sleep 30 &\necho $! > {}\nsleep 30",
            pidfile.display()
        ));
        let skill = b.get("demo").expect("skill");
        let command = Command::argv(["scripts/t.sh"]);
        block_on(async {
            let mut run = std::pin::pin!(exec.run_async(&skill, &command));
            // Polled in slices until the script has written the pid, then
            // dropped: a cancelled run.
            while std::fs::read_to_string(&pidfile).map_or(true, |s| !s.ends_with('\n')) {
                let slice = tokio::time::timeout(Duration::from_millis(5), &mut run).await;
                assert!(slice.is_err(), "the run finished");
            }
        });
        let pid = std::fs::read_to_string(&pidfile).expect("pid written");
        let pid: i32 = pid.trim().parse().expect("a pid");
        assert!(gone(pid), "the grandchild survived the cancelled run");
    }
}

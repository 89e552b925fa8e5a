//! What an executor is asked to run ([`Command`]), what it reports
//! ([`Output`]), and the executor traits.

use std::future::Future;
use std::time::Duration;

use super::error::ExecError;
use crate::Skill;
use crate::shell::split as split_args;

/// Runs commands inside a skill's directory.
pub trait ScriptExecutor {
    /// Runs `command` with the skill's files as its working directory.
    ///
    /// A command that ran, whatever its exit status, is `Ok`; `Err` means
    /// it could not be run at all.
    fn run(&self, skill: &Skill<'_>, command: &Command) -> Result<Output, ExecError>;
}

/// Runs commands inside a skill's directory without blocking: the async
/// twin of [`ScriptExecutor`], with the same contract.
///
/// The future is `Send`, so a session or agent loop using it can be
/// spawned on a multi-threaded runtime.
pub trait AsyncScriptExecutor {
    /// Runs `command` with the skill's files as its working directory.
    fn run_async(
        &self,
        skill: &Skill<'_>,
        command: &Command,
    ) -> impl Future<Output = Result<Output, ExecError>> + Send;
}

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invocation {
    /// A program and its arguments, run without a shell. A program with a
    /// `/` is a path relative to the skill directory; one without is looked
    /// up on the reduced environment's `PATH`.
    Argv(Vec<String>),
    /// A line run as `sh -c <line>`. The caller decides whether a shell is
    /// acceptable (for example when the skill's `allowed-tools` and the
    /// agent's policy allow a shell tool); an executor refuses it unless
    /// told otherwise ([`LocalExecutor::allow_shell`](super::LocalExecutor::allow_shell)).
    Shell(String),
}

/// A command to run in a skill's directory, with optional standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The program, or the shell line.
    pub invocation: Invocation,
    /// Bytes written to the standard input, which is closed afterwards;
    /// `None` connects it to `/dev/null`.
    pub stdin: Option<Vec<u8>>,
}

impl Command {
    /// A program and its arguments, without a shell.
    pub fn argv<S: Into<String>>(argv: impl IntoIterator<Item = S>) -> Command {
        Command {
            invocation: Invocation::Argv(argv.into_iter().map(Into::into).collect()),
            stdin: None,
        }
    }

    /// A command line split with [`split_args`] (no shell; shell syntax is
    /// refused).
    pub fn parse(line: &str) -> Result<Command, ExecError> {
        Ok(Command::argv(split_args(line)?))
    }

    /// A line for `sh -c`; see [`Invocation::Shell`].
    pub fn shell(line: impl Into<String>) -> Command {
        Command {
            invocation: Invocation::Shell(line.into()),
            stdin: None,
        }
    }

    /// Sets the standard input.
    pub fn with_stdin(mut self, bytes: impl Into<Vec<u8>>) -> Command {
        self.stdin = Some(bytes.into());
        self
    }
}

/// What a command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The exit code, when the process exited (not killed by a signal).
    pub exit_code: Option<i32>,
    /// The signal that killed the process, if one did.
    pub signal: Option<i32>,
    /// Standard output, at most the executor's cap plus a truncation marker.
    pub stdout: Vec<u8>,
    /// Standard error, likewise.
    pub stderr: Vec<u8>,
    /// Whether standard output went past the cap.
    pub stdout_truncated: bool,
    /// Whether standard error went past the cap.
    pub stderr_truncated: bool,
    /// Whether the timeout killed the process group.
    pub timed_out: bool,
    /// From spawn to reaping.
    pub duration: Duration,
}

impl Output {
    /// Whether the command exited with code 0 in time.
    pub fn success(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out
    }
}

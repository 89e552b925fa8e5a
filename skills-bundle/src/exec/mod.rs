//! Running a skill's scripts (level 3 execution), Unix only.
//!
//! A skill's files live in memory; a script needs them on disk. This module
//! owns that step and the run itself:
//!
//! - [`materialise`] writes a skill's files into a private, content-addressed
//!   cache directory (checked, written under a temporary name and renamed,
//!   verified again before each reuse);
//! - [`ScriptExecutor`] is what an agent calls, and [`LocalExecutor`] its
//!   default implementation: no shell unless the caller allows one, a
//!   reduced environment, no descriptor but stdin, stdout and stderr,
//!   stdout and stderr captured separately and capped,
//!   and the whole process group killed at a timeout and after the run;
//! - [`split_args`] ([`shell::split`](crate::shell::split), re-exported)
//!   turns a command line into arguments without a shell and refuses shell
//!   syntax it would silently get wrong.
//!
//! Both APIs: [`ScriptExecutor`] blocks the calling thread;
//! [`AsyncScriptExecutor`] returns a future, and [`LocalExecutor`]
//! implements it on tokio (feature `tokio`) with the same materialisation,
//! environment, caps and process-group handling.

#[cfg(feature = "tokio")]
mod async_run;
mod error;
mod materialise;
mod run;

pub use crate::shell::{SplitError, split as split_args};
pub use error::ExecError;
pub use materialise::{Materialised, Rebuilt, cache_dir_name, default_cache_root, materialise};
pub use run::{DEFAULT_ENV_ALLOW, DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT, LocalExecutor, MAX_TIMEOUT};

use std::future::Future;
use std::time::Duration;

use crate::Skill;

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
    /// told otherwise ([`LocalExecutor::allow_shell`]).
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

#[cfg(test)]
// Test helpers with `pub` items, on their way out of the crate.
#[allow(unreachable_pub)]
pub(crate) mod testing;

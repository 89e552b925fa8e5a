//! Why a command could not be run: one error type for materialising,
//! parsing and spawning, each variant naming the path or input at fault.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::defaults::MAX_TIMEOUT;
use crate::file::Corrupt;
use crate::shell::SplitError;
use skills_core::path::PathError;

/// Why a skill's command could not be run.
#[derive(Debug)]
#[non_exhaustive]
pub enum ExecError {
    /// A file-system operation failed.
    Io {
        /// What was being done, e.g. "create".
        action: &'static str,
        /// The path.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// No cache directory: neither `XDG_CACHE_HOME` nor `HOME` is set.
    NoCacheDir,
    /// The cache root or a skill directory could be changed by someone else
    /// (a symlink, another owner, group- or world-writable).
    UnsafeCache {
        /// The directory.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A materialised skill directory does not match the skill. A changed
    /// directory is rebuilt ([`materialise`](super::materialise)); this is
    /// returned when the copy another process has just written fails the
    /// same check.
    CacheTampered {
        /// The file or directory.
        path: PathBuf,
        /// What differs.
        reason: String,
    },
    /// An embedded file failed its check.
    Corrupt {
        /// The file's path in the skill.
        path: String,
        /// How.
        reason: Corrupt,
    },
    /// A file or program path that is not a normal path inside the skill.
    BadPath {
        /// The path as given.
        path: String,
        /// What is wrong.
        reason: PathError,
    },
    /// A command line with shell syntax or unbalanced quotes.
    Args(SplitError),
    /// No program given.
    EmptyCommand,
    /// A shell command, and the executor does not allow a shell.
    ShellNotAllowed,
    /// The executor's timeout is over [`MAX_TIMEOUT`]:
    /// refused before the program is started.
    TimeoutTooLong {
        /// The timeout set.
        timeout: std::time::Duration,
    },
    /// The program could not be started.
    Spawn {
        /// The program.
        program: String,
        /// The error.
        source: io::Error,
    },
}

impl ExecError {
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        ExecError::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Io {
                action,
                path,
                source,
            } => write!(f, "cannot {action} `{}`: {source}", path.display()),
            ExecError::NoCacheDir => f.write_str(
                "no cache directory: set `XDG_CACHE_HOME` or `HOME`, or give a cache root",
            ),
            ExecError::UnsafeCache { path, reason } => write!(
                f,
                "refusing the cache directory `{}`: {reason}",
                path.display()
            ),
            ExecError::CacheTampered { path, reason } => write!(
                f,
                "the cached skill file `{}` was changed ({reason}); delete its directory to have it written again",
                path.display()
            ),
            ExecError::Corrupt { path, reason } => write!(f, "cannot write `{path}`: {reason}"),
            ExecError::BadPath { path, reason } => write!(f, "bad path `{path}`: {reason}"),
            ExecError::Args(e) => e.fmt(f),
            ExecError::EmptyCommand => f.write_str("empty command: no program given"),
            ExecError::ShellNotAllowed => f.write_str(
                "a shell command was given and this executor does not allow a shell; pass the program and arguments instead",
            ),
            ExecError::TimeoutTooLong { timeout } => write!(
                f,
                "the timeout {timeout:?} is over the maximum of {} s (7 days); set at most that",
                MAX_TIMEOUT.as_secs()
            ),
            ExecError::Spawn { program, source } => write!(f, "cannot run `{program}`: {source}"),
        }
    }
}

impl std::error::Error for ExecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExecError::Io { source, .. } | ExecError::Spawn { source, .. } => Some(source),
            ExecError::Args(e) => Some(e),
            ExecError::BadPath { reason, .. } => Some(reason),
            _ => None,
        }
    }
}

impl From<SplitError> for ExecError {
    fn from(e: SplitError) -> Self {
        ExecError::Args(e)
    }
}

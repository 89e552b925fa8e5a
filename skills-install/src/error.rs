//! Why an installer operation stopped: the stage it stopped in, what kind of
//! failure it was (which decides a command's exit status), and a message
//! naming the source, the skill, the folder and the flag that overrides.
//!
//! Every operation checks everything it can before it writes anything, and
//! writes through a transaction (the commit stage): an error before the
//! commit stage leaves every folder and the lock as they were; an error in
//! it is rolled back, or finished by the next command.

use std::fmt;
use std::io;
use std::path::Path;

/// The stage an operation was in: resolve → fetch → verify → scan → stage
/// → commit, and the lock read before them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stage {
    /// Reading the project's lock, trust store and state.
    Lock,
    /// Reading what the source argument names.
    Resolve,
    /// Bringing the source onto the disk, against its pin.
    Fetch,
    /// Validating the skills and checking their signatures against the
    /// trust policy and the lock's record.
    Verify,
    /// The security scan of the bytes to be written.
    Scan,
    /// Comparing the target folders with the lock and writing the new
    /// copies beside them.
    Stage,
    /// Putting the staged copies and the new lock in place.
    Commit,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Lock => "lock",
            Stage::Resolve => "resolve",
            Stage::Fetch => "fetch",
            Stage::Verify => "verify",
            Stage::Scan => "scan",
            Stage::Stage => "stage",
            Stage::Commit => "commit",
        })
    }
}

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A skill does not validate; its diagnostics went to the observer
    /// ([`crate::Event::Checked`]).
    Invalid,
    /// Refused: the trust policy, the security gate, the lock's record, a
    /// folder with local edits or outside the project's boundary. The input
    /// is the problem, not the machine.
    Refused,
    /// Something named does not exist: a source, a skill, the lock.
    NotFound,
    /// The request cannot be carried out as asked (an ambiguous source, two
    /// skills for one folder, an unknown client).
    Usage,
    /// The machine failed: a file system or network error.
    Io,
}

/// Why an operation stopped.
#[derive(Debug)]
pub struct Error {
    stage: Stage,
    kind: ErrorKind,
    message: String,
    source: Option<io::Error>,
}

impl Error {
    /// An error of `kind` in `stage`.
    pub fn new(stage: Stage, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            stage,
            kind,
            message: message.into(),
            source: None,
        }
    }

    /// A refusal in `stage`.
    pub fn refused(stage: Stage, message: impl Into<String>) -> Error {
        Error::new(stage, ErrorKind::Refused, message)
    }

    /// An I/O failure at `path` in `stage`.
    pub fn io(stage: Stage, path: &Path, e: io::Error) -> Error {
        Error {
            stage,
            kind: kind_of(&e),
            message: format!("{}: {e}", path.display()),
            source: Some(e),
        }
    }

    /// A skill that does not validate (its diagnostics were observed).
    pub fn invalid(stage: Stage) -> Error {
        Error::new(
            stage,
            ErrorKind::Invalid,
            "a skill does not validate; nothing was written",
        )
    }

    /// The stage it stopped in.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// What kind of failure it is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, without the stage.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// `self` with `context` before its message (`` `acme/skills`: ``).
    pub fn context(mut self, context: &str) -> Error {
        self.message = format!("{context}: {}", self.message);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The kind an I/O error's own kind says: `InvalidData` is the input's
/// fault (a refusal), `NotFound` and `InvalidInput` are said as such, the
/// rest is the machine's.
fn kind_of(e: &io::Error) -> ErrorKind {
    match e.kind() {
        io::ErrorKind::InvalidData => ErrorKind::Refused,
        io::ErrorKind::NotFound => ErrorKind::NotFound,
        io::ErrorKind::InvalidInput => ErrorKind::Usage,
        _ => ErrorKind::Io,
    }
}

/// Attaches a stage to the I/O errors of the modules that speak
/// `io::Result` (the transports' adapters, the extractor).
pub(crate) trait At<T> {
    /// The error, as an [`Error`] of `stage`.
    fn at(self, stage: Stage) -> Result<T, Error>;
}

impl<T> At<T> for io::Result<T> {
    fn at(self, stage: Stage) -> Result<T, Error> {
        self.map_err(|e| Error {
            stage,
            kind: kind_of(&e),
            message: e.to_string(),
            source: Some(e),
        })
    }
}

/// An operation's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

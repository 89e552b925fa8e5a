//! Why a trust file could not be read or written, or changed.

use std::fmt;
use std::path::PathBuf;

use skills_core::fsread::FileError;

/// Why a trust file could not be read or written, or changed.
#[derive(Debug)]
#[non_exhaustive]
pub enum TrustError {
    /// The file exists and could not be read (or is too large).
    Read(FileError),
    /// The file is not JSON, or not in the trust file's shape.
    Syntax {
        /// The file.
        path: PathBuf,
        /// Where, 1-based.
        line: usize,
        /// Where, 1-based.
        column: usize,
        /// What `serde_json` says.
        message: String,
    },
    /// The file is JSON of the right shape with a wrong value in it.
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the publisher or key.
        message: String,
    },
    /// Writing the file failed.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A change asked for cannot be made (a bad name or key, an unknown
    /// publisher or key id).
    Argument(String),
}

impl fmt::Display for TrustError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrustError::Read(e) => write!(f, "{e}"),
            TrustError::Syntax {
                path,
                line,
                column,
                message,
            } => write!(
                f,
                "`{}`:{line}:{column}: not a trust file: {message}",
                path.display()
            ),
            TrustError::Invalid { path, message } => write!(f, "`{}`: {message}", path.display()),
            TrustError::Write { path, source } => {
                write!(f, "cannot write `{}`: {source}", path.display())
            }
            TrustError::Argument(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for TrustError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TrustError::Read(e) => Some(e),
            TrustError::Write { source, .. } => Some(source),
            _ => None,
        }
    }
}

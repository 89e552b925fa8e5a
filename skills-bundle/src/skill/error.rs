//! Why a file of a skill could not be read.

use std::fmt;

use crate::file::Corrupt;
use skills_core::path::PathError;

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadError {
    /// The path is not a normal relative path inside the skill.
    BadPath {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        reason: PathError,
    },
    /// The skill has no such file.
    NotFound {
        /// The path, normalised.
        path: String,
        /// Every file the skill has.
        available: Vec<String>,
    },
    /// The embedded bytes are damaged.
    Corrupt {
        /// The path.
        path: String,
        /// How.
        reason: Corrupt,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::BadPath { path, reason } => write!(f, "cannot read `{path}`: {reason}"),
            ReadError::NotFound { path, available } => write!(
                f,
                "no file `{path}` in this skill; available: {}",
                available.join(", ")
            ),
            ReadError::Corrupt { path, reason } => write!(f, "cannot read `{path}`: {reason}"),
        }
    }
}

impl std::error::Error for ReadError {}

//! Why a `skills-lock.json` or a skill folder could not be read.

use std::fmt;
use std::path::PathBuf;

use super::lock::LOCK_FILE;

/// Why a `skills-lock.json` or a skill folder could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum VercelError {
    /// The file or a file of the skill could not be read.
    Read(skills_core::fsread::FileError),
    /// A directory of the skill could not be listed.
    List {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The lock is not JSON.
    Json(serde_json::Error),
    /// An object of the lock holds a key twice (a skill, or a field of
    /// one): refused, since readers disagree on which one counts.
    Repeated {
        /// The key.
        key: String,
        /// Where the second one is: line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
    },
    /// The lock is JSON but not of the shape above.
    Shape(String),
    /// A file or directory name in the skill is not UTF-8 (the CLI cannot
    /// hash it either).
    NonUtf8 {
        /// The entry.
        path: PathBuf,
    },
    /// The collation data compiled into this crate could not be loaded.
    Collator(String),
    /// The skill is over one of the bounds [`computed_hash`](super::computed_hash) keeps.
    TooLarge {
        /// The skill's folder.
        path: PathBuf,
        /// Which bound, in words.
        what: String,
    },
}

impl fmt::Display for VercelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VercelError::Read(e) => write!(f, "{e}"),
            VercelError::List { path, source } => {
                write!(f, "cannot list `{}`: {source}", path.display())
            }
            VercelError::Json(e) => write!(f, "`{LOCK_FILE}` is not valid JSON: {e}"),
            VercelError::Repeated { key, line, column } => write!(
                f,
                "`{LOCK_FILE}`: `{key}` appears twice in one object (line {line}, column {column}); which one counts depends on the reader, so neither is used"
            ),
            VercelError::Shape(what) => write!(f, "`{LOCK_FILE}`: {what}"),
            VercelError::NonUtf8 { path } => write!(
                f,
                "`{}`: the name is not UTF-8, so Vercel's hash is not defined for it",
                path.display()
            ),
            VercelError::Collator(e) => write!(f, "cannot load ICU's root collation: {e}"),
            VercelError::TooLarge { path, what } => {
                write!(f, "`{}`: {what}", path.display())
            }
        }
    }
}

impl std::error::Error for VercelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VercelError::Read(e) => Some(e),
            VercelError::List { source, .. } => Some(source),
            VercelError::Json(e) => Some(e),
            _ => None,
        }
    }
}

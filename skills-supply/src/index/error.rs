//! Why an index could not be read, fetched or written.

use std::fmt;
use std::path::PathBuf;

use super::model::SCHEMA;
use crate::http::HttpError;

/// Why an index could not be read, fetched or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum IndexError {
    /// Not JSON, or not an object with a `skills` list.
    Json {
        /// What is wrong.
        message: String,
    },
    /// The `$schema` is missing or not [`SCHEMA`].
    Schema {
        /// The `$schema` found, if any.
        found: Option<String>,
    },
    /// The index is larger than [`MAX_INDEX_BYTES`](super::MAX_INDEX_BYTES) (or the download
    /// limit, when that is smaller).
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The index has more than [`MAX_ENTRIES`](super::MAX_ENTRIES) entries.
    TooManyEntries {
        /// The limit.
        limit: usize,
    },
    /// An entry breaks a rule of the schema.
    Entry {
        /// Its position in `skills`, from 0 (none for an entry given alone).
        position: Option<usize>,
        /// Its name, when it has a readable one.
        name: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// An entry's URL cannot be resolved, or to nothing we fetch.
    Url {
        /// The entry's name.
        name: String,
        /// The URL as written.
        url: String,
        /// What is wrong.
        reason: String,
    },
    /// The download failed.
    Http(HttpError),
    /// The index at a URL is not a valid index.
    At {
        /// The index's URL.
        url: String,
        /// What is wrong with it.
        source: Box<IndexError>,
    },
    /// The bytes downloaded are not the ones the index names.
    DigestMismatch {
        /// The entry's name.
        name: String,
        /// The URL downloaded.
        url: String,
        /// The index's digest.
        expected: String,
        /// The digest of what came.
        actual: String,
    },
    /// A skill to publish is not publishable as given.
    Publication {
        /// The skill's name as given.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// Publishing would change a file of a version already published.
    Immutable {
        /// The skill.
        name: String,
        /// The version.
        version: String,
        /// The file that differs.
        path: PathBuf,
    },
    /// Reading or writing the published folder failed.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Json { message } => write!(f, "not a skills index: {message}"),
            IndexError::TooLarge { limit } => write!(
                f,
                "the index is larger than {limit} bytes, the most a skills index may have"
            ),
            IndexError::TooManyEntries { limit } => write!(
                f,
                "the index has more than {limit} entries, the most a skills index may have"
            ),
            IndexError::Schema { found: None } => write!(
                f,
                "the index has no `$schema`: only the 0.2.0 index (`$schema` `{SCHEMA}`), \
                 whose entries carry digests, is read"
            ),
            IndexError::Schema { found: Some(s) } => {
                write!(f, "the index's `$schema` is `{s}`; only `{SCHEMA}` is read")
            }
            IndexError::Entry {
                position,
                name,
                message,
            } => match (position, name) {
                (Some(p), Some(n)) => write!(f, "index entry {p} (`{n}`): {message}"),
                (Some(p), None) => write!(f, "index entry {p}: {message}"),
                (None, Some(n)) => write!(f, "index entry `{n}`: {message}"),
                (None, None) => write!(f, "index entry: {message}"),
            },
            IndexError::Url { name, url, reason } => {
                write!(f, "index entry `{name}`: url `{url}`: {reason}")
            }
            IndexError::Http(e) => e.fmt(f),
            IndexError::At { url, source } => write!(f, "`{url}`: {source}"),
            IndexError::DigestMismatch {
                name,
                url,
                expected,
                actual,
            } => write!(
                f,
                "index entry `{name}`: `{url}` has digest `{actual}`, the index says `{expected}`: \
                 refused"
            ),
            IndexError::Publication { name, message } => {
                write!(f, "cannot publish `{name}`: {message}")
            }
            IndexError::Immutable {
                name,
                version,
                path,
            } => write!(
                f,
                "`{name}` {version} is already published with other content (`{}`): \
                 a published version never changes; publish a new version",
                path.display()
            ),
            IndexError::Io { path, source } => write!(f, "`{}`: {source}", path.display()),
        }
    }
}

impl std::error::Error for IndexError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IndexError::Http(e) => Some(e),
            IndexError::At { source, .. } => Some(source.as_ref()),
            IndexError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<HttpError> for IndexError {
    fn from(e: HttpError) -> Self {
        IndexError::Http(e)
    }
}

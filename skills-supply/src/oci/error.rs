//! What can go wrong talking to a registry, each case naming the reference
//! (and the URL, file or digest involved) and, where there is one, the fix.

use std::fmt;
use std::path::PathBuf;

use super::env::{ENV_HOST, ENV_PASSWORD, ENV_TOKEN, ENV_USERNAME};

/// Why a push, pull or resolve failed; each names the reference.
#[derive(Debug)]
#[non_exhaustive]
pub enum OciError {
    /// The reference does not follow the grammar.
    Reference {
        /// The reference as written.
        reference: String,
        /// What is wrong.
        why: String,
    },
    /// The Docker config could not be read.
    Credentials {
        /// The `config.json` read.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// skb's own credentials (`SKB_AUTH`, `credentials.json`) could not be read.
    HostCredentials(crate::credentials::CredentialsError),
    /// The registry could not be reached, or answered what HTTP does not allow.
    Transport {
        /// The reference.
        reference: String,
        /// The URL requested.
        url: String,
        /// What failed.
        why: String,
    },
    /// The registry refused the credentials, or there were none.
    Unauthorized {
        /// The reference.
        reference: String,
        /// `401` or `403`.
        status: u16,
        /// Whether credentials were sent.
        had_credentials: bool,
        /// Why credentials set in the environment were not sent to this
        /// registry, when some were.
        withheld: Option<String>,
    },
    /// The tag, digest or repository does not exist.
    NotFound {
        /// The reference.
        reference: String,
        /// What is missing, e.g. "tag `v2`".
        what: String,
    },
    /// The registry answered an unexpected status.
    Registry {
        /// The reference.
        reference: String,
        /// What was being done.
        action: String,
        /// The status and the registry's error codes.
        detail: String,
    },
    /// Something is larger than its bound.
    TooLarge {
        /// The reference.
        reference: String,
        /// What, and its size.
        what: String,
    },
    /// Bytes do not match the digest or size that names them.
    DigestMismatch {
        /// The reference.
        reference: String,
        /// What was checked.
        what: String,
        /// The digest (or size) expected.
        expected: String,
        /// The digest (or size) found.
        actual: String,
    },
    /// The manifest or a layer is not what a pack artifact holds.
    Invalid {
        /// The reference.
        reference: String,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for OciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OciError::Reference { reference, why } => {
                write!(f, "`{reference}` is not an OCI reference: {why}")
            }
            OciError::HostCredentials(e) => write!(f, "{e}"),
            OciError::Credentials { path, why } => {
                write!(
                    f,
                    "cannot use the Docker config `{}`: {why}",
                    path.display()
                )
            }
            OciError::Transport {
                reference,
                url,
                why,
            } => {
                write!(f, "`{reference}`: request to `{url}` failed: {why}")
            }
            OciError::Unauthorized {
                reference,
                status,
                had_credentials: true,
                withheld,
            } => {
                write!(
                    f,
                    "`{reference}`: the registry refused the credentials ({status}); check \
                     `docker login`/`oras login` or `{ENV_HOST}`, `{ENV_USERNAME}` and \
                     `{ENV_PASSWORD}`"
                )?;
                write_withheld(f, withheld.as_deref())
            }
            OciError::Unauthorized {
                reference,
                status,
                had_credentials: false,
                withheld,
            } => {
                write!(
                    f,
                    "`{reference}`: the registry requires credentials ({status} unauthorized); \
                     run `docker login` or `oras login`, or set `{ENV_HOST}` to the registry \
                     and `{ENV_USERNAME}` and `{ENV_PASSWORD}` (or `{ENV_TOKEN}`), or give \
                     an `{}` entry for it",
                    crate::credentials::ENV_AUTH
                )?;
                write_withheld(f, withheld.as_deref())
            }
            OciError::NotFound { reference, what } => {
                write!(f, "`{reference}`: {what} not found in the registry")
            }
            OciError::Registry {
                reference,
                action,
                detail,
            } => {
                write!(f, "`{reference}`: {action} failed: {detail}")
            }
            OciError::TooLarge { reference, what } => write!(f, "`{reference}`: {what}"),
            OciError::DigestMismatch {
                reference,
                what,
                expected,
                actual,
            } => write!(
                f,
                "`{reference}`: {what} does not match: expected {expected}, got {actual}; \
                 nothing was used"
            ),
            OciError::Invalid { reference, why } => {
                write!(f, "`{reference}` is not a skill pack artifact: {why}")
            }
        }
    }
}

impl std::error::Error for OciError {}

fn write_withheld(f: &mut fmt::Formatter<'_>, withheld: Option<&str>) -> fmt::Result {
    match withheld {
        Some(why) => write!(f, "; {why}"),
        None => Ok(()),
    }
}

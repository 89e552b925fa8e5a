//! Small constructors for the `io::Error`s the fetch stage's adapters and
//! the extractor speak, before [`crate::error::At`] gives them a stage.

use std::io;

/// An error of kind `InvalidData`: the input's fault (a refusal).
pub(crate) fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// `e` prefixed with the source as the user wrote it: an archive fetched
/// from a URL or a registry has no path of its own to name.
pub(crate) fn named(e: io::Error, source: &str) -> io::Error {
    io::Error::new(e.kind(), format!("`{source}`: {e}"))
}

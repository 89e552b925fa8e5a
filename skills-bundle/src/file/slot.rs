//! What a file's slot in a bundle caches: the checked bytes, or why the
//! check failed.

use std::fmt;

/// A checked file, or why it failed its check.
pub type Cached = Result<Checked, Corrupt>;

/// What a slot holds once its file passed the checks.
#[derive(Debug)]
pub enum Checked {
    /// The inflated bytes.
    Inflated(Box<[u8]>),
    /// The stored bytes themselves are the file, and match.
    Verified,
}

/// Embedded bytes that do not decompress to what the compiler recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Corrupt {
    /// The deflate stream is malformed or longer than the recorded size.
    Inflate,
    /// The output size differs from the recorded size.
    Size,
    /// The output's SHA-256 differs from the recorded one.
    Hash,
}

impl fmt::Display for Corrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Corrupt::Inflate => "the compressed data is malformed or larger than recorded",
            Corrupt::Size => "the data decompresses to a different size than recorded",
            Corrupt::Hash => "the data does not match its recorded SHA-256",
        })
    }
}

//! Why an inflate failed, shared by the decoder and its callers.

/// Why deflated bytes did not give the recorded size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InflateError {
    /// The stream ended after this many bytes, short of the size.
    Short(usize),
    /// The stream goes on past the size.
    TooMuch,
    /// Bytes follow the end of the stream.
    Trailing,
    /// Not a valid deflate stream.
    Corrupt,
}

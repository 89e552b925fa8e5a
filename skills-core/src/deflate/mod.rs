//! Raw deflate, the one codec of bundles, packs and `.skill` archives.
//!
//! One level and one storing rule for every writer (`skills_bundle!`,
//! `skills pack`), so a pack's entries are the bundle's compressed bytes,
//! reused unchanged; one bounded inflater for every reader (a compiled
//! bundle's first read, a pack's, a zip entry's), so none of them can be
//! made to allocate more than the size the writer recorded.

use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};

/// The compression level: fixed, so the output is the same on every
/// machine; 6, zlib's default (higher levels gain under 0.1 % on the
/// corpus).
pub const LEVEL: u8 = 6;

/// `bytes` deflated at [`LEVEL`], or `None` when deflate does not make them
/// smaller (the file is then stored as it is).
pub fn compress(bytes: &[u8]) -> Option<Vec<u8>> {
    let deflated = miniz_oxide::deflate::compress_to_vec(bytes, LEVEL);
    (deflated.len() < bytes.len()).then_some(deflated)
}

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

/// Inflates raw deflate `data` that must produce exactly `size` bytes: the
/// output buffer is allocated once, at `size`, and never grows.
pub fn inflate(data: &[u8], size: usize) -> Result<Vec<u8>, InflateError> {
    let mut out = vec![0; size];
    let mut state = Box::<DecompressorOxide>::default();
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let (status, consumed, written) = decompress(&mut state, data, &mut out, 0, flags);
    match status {
        TINFLStatus::Done if written != size => Err(InflateError::Short(written)),
        TINFLStatus::Done if consumed != data.len() => Err(InflateError::Trailing),
        TINFLStatus::Done => Ok(out),
        TINFLStatus::HasMoreOutput => Err(InflateError::TooMuch),
        _ => Err(InflateError::Corrupt),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_wrong_size_is_refused() {
        let text = b"the same line again and again\n".repeat(40);
        let packed = compress(&text).expect("repetitive text shrinks");
        assert_eq!(inflate(&packed, text.len()).as_deref(), Ok(&text[..]));
        assert_eq!(
            inflate(&packed, text.len() + 1),
            Err(InflateError::Short(text.len()))
        );
        assert_eq!(inflate(&packed, text.len() - 1), Err(InflateError::TooMuch));
        let mut trailing = packed.clone();
        trailing.push(0);
        assert_eq!(inflate(&trailing, text.len()), Err(InflateError::Trailing));
        assert_eq!(inflate(b"\xff\xff\xff", 10), Err(InflateError::Corrupt));
    }

    #[test]
    fn incompressible_bytes_are_stored() {
        assert_eq!(compress(b"ab"), None);
        assert_eq!(compress(b""), None);
    }
}

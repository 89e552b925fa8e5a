//! Source files and positions.
//!
//! Every diagnostic points into the *original* bytes of a file: a byte range
//! plus the 1-based line and column (in characters) that a person or an editor
//! understands. Lines end at `\n`, `\r\n` or a lone `\r`, as YAML and the
//! reference validator see them.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A file's bytes, its path as the user named it, and a table of line starts.
#[derive(Debug, Clone)]
pub struct Source {
    path: PathBuf,
    /// The bytes: as text when they are UTF-8, checked once for every
    /// reader.
    content: Result<String, Vec<u8>>,
    /// Built on first use: most files never need a position.
    line_starts: OnceLock<Vec<usize>>,
}

/// A position a person can read: 1-based line and 1-based column in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in Unicode scalar values (bytes where the line is not UTF-8).
    pub column: usize,
}

impl Source {
    /// Wraps the bytes read from `path`.
    pub fn new(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Source {
        Source {
            path: path.into(),
            content: String::from_utf8(bytes).map_err(|e| e.into_bytes()),
            line_starts: OnceLock::new(),
        }
    }

    /// The path the file was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.content {
            Ok(text) => text.as_bytes(),
            Err(bytes) => bytes,
        }
    }

    /// The text, when the bytes are UTF-8.
    pub fn text(&self) -> Option<&str> {
        self.content.as_deref().ok()
    }

    fn starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| line_starts(self.bytes()))
    }

    /// Line and column of a byte offset (clamped to the end of the file).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let bytes = self.bytes();
        let offset = offset.min(bytes.len());
        let starts = self.starts();
        let line_index = match starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = starts[line_index];
        let column = count_chars(&bytes[start..offset]) + 1;
        LineCol {
            line: line_index + 1,
            column,
        }
    }

    /// Byte range of a 1-based line, without its terminator.
    pub fn line_range(&self, line: usize) -> Option<Range<usize>> {
        let start = *self.starts().get(line.checked_sub(1)?)?;
        let mut end = start;
        let bytes = self.bytes();
        while end < bytes.len() && bytes[end] != b'\n' && bytes[end] != b'\r' {
            end += 1;
        }
        Some(start..end)
    }

    /// The text of a 1-based line, lossily decoded, without its terminator.
    pub fn line_text(&self, line: usize) -> Option<String> {
        self.line_range(line)
            .map(|r| String::from_utf8_lossy(&self.bytes()[r]).into_owned())
    }

    /// Number of lines (a trailing terminator does not start a new line).
    pub fn line_count(&self) -> usize {
        let breaks = self.starts().len() - 1;
        let bytes = self.bytes();
        let ends_with_break = matches!(bytes.last(), Some(b'\n' | b'\r'));
        if ends_with_break || bytes.is_empty() {
            breaks.max(1)
        } else {
            breaks + 1
        }
    }
}

fn count_chars(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.chars().count(),
        Err(_) => bytes.len(),
    }
}

fn line_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    let mut from = 0;
    while let Some(at) = next_break(bytes, from) {
        from = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
            at + 2
        } else {
            at + 1
        };
        starts.push(from);
    }
    starts
}

/// The offset of the first `\n` or `\r` at or after `from`.
fn next_break(bytes: &[u8], from: usize) -> Option<usize> {
    find_any(bytes, from, [b'\n', b'\r'])
}

/// The offset of the first of `needles` at or after `from`. Eight bytes are
/// tested at a time: the bytes looked for (line breaks, Markdown's link and
/// code marks) are rare in text.
pub(crate) fn find_any<const N: usize>(
    bytes: &[u8],
    from: usize,
    needles: [u8; N],
) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let rest = bytes.get(from..)?;
    let splats = needles.map(|n| ONES * u64::from(n));
    let mut at = from;
    let mut words = rest.chunks_exact(8);
    for word in &mut words {
        let mut bytes8 = [0; 8];
        bytes8.copy_from_slice(word);
        let word = u64::from_ne_bytes(bytes8);
        // Whether some byte of `word` is a needle (no false negatives; a
        // false positive only stops the skipping early).
        let hit = splats.iter().fold(0, |hit, splat| {
            let x = word ^ splat;
            hit | (x.wrapping_sub(ONES) & !x & HIGHS)
        });
        if hit != 0 {
            break;
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|b| needles.contains(b))
        .map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Just;

    #[test]
    fn line_col_handles_every_line_ending() {
        let s = Source::new("x", b"ab\ncd\r\nef\rgh".to_vec());
        assert_eq!(s.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(s.line_col(4), LineCol { line: 2, column: 2 });
        assert_eq!(s.line_col(7), LineCol { line: 3, column: 1 });
        assert_eq!(s.line_col(10), LineCol { line: 4, column: 1 });
        assert_eq!(s.line_text(2).as_deref(), Some("cd"));
        assert_eq!(s.line_count(), 4);
    }

    #[test]
    fn columns_count_characters() {
        let s = Source::new("x", "é: ü".as_bytes().to_vec());
        assert_eq!(s.line_col(4), LineCol { line: 1, column: 4 });
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        let s = Source::new("x", b"a\n".to_vec());
        assert_eq!(s.line_col(99), LineCol { line: 2, column: 1 });
        assert_eq!(s.line_count(), 1);
    }

    /// The line table, a byte at a time: what [`line_starts`] must equal.
    fn naive_starts(bytes: &[u8]) -> Vec<usize> {
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            if bytes[i] == b'\n' || bytes[i] == b'\r' {
                starts.push(i + 1);
            }
            i += 1;
        }
        starts
    }

    proptest::proptest! {
        #[test]
        fn line_starts_equal_a_byte_by_byte_scan(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    Just(b'\n'), Just(b'\r'), Just(b'a'), Just(0x8a_u8), Just(0x0d_u8 | 0x80)
                ],
                0..80,
            ),
            pad in 0usize..9,
        ) {
            let mut padded = vec![b'x'; pad];
            padded.extend_from_slice(&bytes);
            proptest::prop_assert_eq!(line_starts(&padded), naive_starts(&padded));
            let source = Source::new("x", padded.clone());
            let breaks = naive_starts(&padded).len() - 1;
            let expected = if padded.is_empty() || matches!(padded.last(), Some(b'\n' | b'\r')) {
                breaks.max(1)
            } else {
                breaks + 1
            };
            proptest::prop_assert_eq!(source.line_count(), expected);
        }
    }
}

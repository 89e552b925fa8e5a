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
    bytes: Vec<u8>,
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
            bytes,
            line_starts: OnceLock::new(),
        }
    }

    /// The path the file was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    fn starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| line_starts(&self.bytes))
    }

    /// Line and column of a byte offset (clamped to the end of the file).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.bytes.len());
        let starts = self.starts();
        let line_index = match starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = starts[line_index];
        let column = count_chars(&self.bytes[start..offset]) + 1;
        LineCol {
            line: line_index + 1,
            column,
        }
    }

    /// Byte range of a 1-based line, without its terminator.
    pub fn line_range(&self, line: usize) -> Option<Range<usize>> {
        let start = *self.starts().get(line.checked_sub(1)?)?;
        let mut end = start;
        while end < self.bytes.len() && self.bytes[end] != b'\n' && self.bytes[end] != b'\r' {
            end += 1;
        }
        Some(start..end)
    }

    /// The text of a 1-based line, lossily decoded, without its terminator.
    pub fn line_text(&self, line: usize) -> Option<String> {
        self.line_range(line)
            .map(|r| String::from_utf8_lossy(&self.bytes[r]).into_owned())
    }

    /// Number of lines (a trailing terminator does not start a new line).
    pub fn line_count(&self) -> usize {
        let b = &self.bytes;
        let breaks = if b.contains(&b'\r') {
            b.iter()
                .enumerate()
                .filter(|&(i, &c)| c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')))
                .count()
        } else {
            // The common case, which the compiler vectorises.
            b.iter().filter(|&&c| c == b'\n').count()
        };
        let ends_with_break = matches!(b.last(), Some(b'\n' | b'\r'));
        if ends_with_break || b.is_empty() {
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
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => starts.push(i + 1),
            b'\r' => {
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                starts.push(i + 1);
            }
            _ => {}
        }
        i += 1;
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

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
}

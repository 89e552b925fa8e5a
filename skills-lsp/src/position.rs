//! Positions in a document as the protocol counts them: a line and a
//! column in UTF-16 code units (the protocol's default) or in bytes (when
//! the client offers `utf-8` and the server chooses it), converted exactly
//! to and from the byte offsets every diagnostic of the compiler carries.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as the compiler's
//! [`Source`](skills_compiler::Source) and the protocol both count them.

use lsp_types::{Position, PositionEncodingKind, Range};

/// How columns are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units (the protocol's default).
    Utf16,
    /// Bytes of UTF-8.
    Utf8,
}

impl Encoding {
    /// The encoding to use with a client that offers `offered` (in its
    /// order of preference): `utf-8` when it is offered, else UTF-16.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    /// The protocol's name for it.
    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf8 => PositionEncodingKind::UTF8,
        }
    }
}

/// A document's line starts, for converting positions.
#[derive(Debug, Clone)]
pub struct Lines {
    starts: Vec<usize>,
    encoding: Encoding,
}

impl Lines {
    /// The lines of `text`.
    pub fn new(text: &str, encoding: Encoding) -> Lines {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 1;
                }
                b'\r' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        Lines { starts, encoding }
    }

    /// The position of byte `offset` of `text` (clamped to the text, and
    /// back to the start of a character it falls inside).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        let column = match self.encoding {
            Encoding::Utf8 => offset - start,
            Encoding::Utf16 => text[start..offset].encode_utf16().count(),
        };
        Position::new(saturate(line), saturate(column))
    }

    /// The range of bytes `range` of `text`.
    pub fn range(&self, text: &str, range: std::ops::Range<usize>) -> Range {
        Range::new(
            self.position(text, range.start),
            self.position(text, range.end.max(range.start)),
        )
    }

    /// The byte offset of `position` in `text`: a line past the end is the
    /// end, a column past the line's end is the line's end, and a column
    /// inside a character is that character's start.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self.line_end(text, position.line as usize);
        let line = &text[start..end];
        let wanted = position.character as usize;
        match self.encoding {
            Encoding::Utf8 => {
                let mut at = wanted.min(line.len());
                while !line.is_char_boundary(at) {
                    at -= 1;
                }
                start + at
            }
            Encoding::Utf16 => {
                let mut units = 0;
                for (i, c) in line.char_indices() {
                    if units + c.len_utf16() > wanted {
                        return start + i;
                    }
                    units += c.len_utf16();
                }
                end
            }
        }
    }

    /// The byte offset of the first character of 1-based `line` and
    /// 1-based `column` counted in characters (the scanner's positions).
    pub fn char_position(&self, text: &str, line: u32, column: u32) -> usize {
        let Some(&start) = self.starts.get((line as usize).saturating_sub(1)) else {
            return text.len();
        };
        let end = self.line_end(text, (line as usize).saturating_sub(1));
        text[start..end]
            .char_indices()
            .nth((column as usize).saturating_sub(1))
            .map_or(end, |(i, _)| start + i)
    }

    /// Where line `index` (0-based) ends, before its terminator.
    fn line_end(&self, text: &str, index: usize) -> usize {
        let Some(&next) = self.starts.get(index + 1) else {
            return text.len();
        };
        let bytes = text.as_bytes();
        if next >= 2 && bytes.get(next - 2..next) == Some(&b"\r\n"[..]) {
            next - 2
        } else {
            next.saturating_sub(1)
        }
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_counts_surrogate_pairs_and_utf8_bytes() {
        // `é` is 2 bytes and 1 UTF-16 unit; `𝄞` 4 bytes and 2 units.
        let text = "---\nname: é𝄞x\r\nnext\rlast";
        let x = text.find('x').unwrap_or_default();
        let l16 = Lines::new(text, Encoding::Utf16);
        let l8 = Lines::new(text, Encoding::Utf8);
        assert_eq!(l16.position(text, x), Position::new(1, 9));
        assert_eq!(l8.position(text, x), Position::new(1, 12));
        for lines in [&l16, &l8] {
            for offset in 0..=text.len() {
                if text.is_char_boundary(offset) {
                    let p = lines.position(text, offset);
                    // A position at a line's terminator maps to its end.
                    let back = lines.offset(text, p);
                    assert!(
                        back == offset
                            || text[back..offset].chars().all(|c| c == '\r' || c == '\n'),
                        "{offset} {p:?} {back}"
                    );
                }
            }
        }
        let next = text.find("next").unwrap_or_default();
        let last = text.find("last").unwrap_or_default();
        assert_eq!(l16.position(text, next), Position::new(2, 0));
        assert_eq!(l16.position(text, last), Position::new(3, 0));
    }

    #[test]
    fn positions_outside_the_text_are_clamped() {
        let text = "ab\n𝄞";
        let lines = Lines::new(text, Encoding::Utf16);
        assert_eq!(lines.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(lines.offset(text, Position::new(0, 99)), 2);
        // Inside the surrogate pair: the character's start.
        assert_eq!(lines.offset(text, Position::new(1, 1)), 3);
        assert_eq!(lines.position(text, 5), Position::new(1, 0));
        assert_eq!(lines.char_position(text, 2, 2), text.len());
        assert_eq!(lines.char_position(text, 1, 2), 1);
    }
}

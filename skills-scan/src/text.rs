//! Positions: byte offsets in a file to 1-based lines and columns; and
//! bounded windows of text around an offset, so that a check looking back
//! to a sentence's start or ahead to a line's end does constant work per
//! match, whatever the length of the line.

/// The start of every line of a text, to turn offsets into positions.
#[derive(Debug)]
pub(crate) struct Lines {
    starts: Vec<usize>,
    /// The number of characters before each [`BLOCK`]-byte block, so that
    /// a column on a line of any length costs at most one block's count.
    chars: Vec<usize>,
}

/// The size of the blocks whose character counts [`Lines`] keeps.
const BLOCK: usize = 1024;

impl Lines {
    pub(crate) fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        // (A one-character pattern searches with `memchr`.)
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut chars = Vec::with_capacity(text.len() / BLOCK + 1);
        let mut before = 0;
        for block in text.as_bytes().chunks(BLOCK) {
            chars.push(before);
            before += char_starts(block);
        }
        Lines { starts, chars }
    }

    /// The line (from 1) and column (from 1, in characters) of `offset`.
    pub(crate) fn position(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let column = self
            .chars_before(text, offset)
            .saturating_sub(self.chars_before(text, start));
        (to_u32(line), to_u32(column + 1))
    }

    /// The number of characters in `text[..offset]`.
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let block = offset / BLOCK;
        let counted = self.chars.get(block).copied().unwrap_or(0);
        let from = (block * BLOCK).min(offset);
        counted + char_starts(text.as_bytes().get(from..offset).unwrap_or(&[]))
    }

    /// The byte range of line `line` (from 1), without its line break.
    pub(crate) fn line_range(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let start = self
            .starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(text.len());
        let end = self
            .starts
            .get(line)
            .map_or(text.len(), |&e| e.saturating_sub(1));
        start..end.max(start)
    }

    pub(crate) fn count(&self) -> usize {
        self.starts.len()
    }
}

/// Compiles `pattern` with ASCII word boundaries: `\b` in Unicode mode
/// makes the regex crate fall back from its DFA to a slower engine on any
/// non-ASCII text, and every keyword the scanner matches is ASCII.
pub(crate) fn regex(pattern: &str) -> Result<regex::Regex, regex::Error> {
    regex::Regex::new(&pattern.replace(r"\b", r"(?-u:\b)"))
}

/// At most the last `max` bytes of `text[..at]`, cut at a character
/// boundary.
pub(crate) fn window_before(text: &str, at: usize, max: usize) -> &str {
    let at = at.min(text.len());
    let mut from = at.saturating_sub(max);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    text.get(from..at).unwrap_or("")
}

/// At most the first `max` bytes of `text[from..]`, cut at a character
/// boundary.
pub(crate) fn window_after(text: &str, from: usize, max: usize) -> &str {
    let from = from.min(text.len());
    let mut to = from.saturating_add(max).min(text.len());
    while !text.is_char_boundary(to) {
        to -= 1;
    }
    text.get(from..to).unwrap_or("")
}

/// The number of characters starting in `bytes` (of UTF-8 text): every
/// byte but continuation bytes.
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|b| (**b & 0xC0) != 0x80).count()
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let t = "ab\ncé d\n";
        let l = Lines::new(t);
        assert_eq!(l.position(t, 0), (1, 1));
        assert_eq!(l.position(t, 3), (2, 1));
        assert_eq!(l.position(t, 6), (2, 3));
        assert_eq!(l.line_range(t, 2), 3..8);
        assert_eq!(&t[l.line_range(t, 1)], "ab");
    }

    #[test]
    fn columns_count_characters_across_blocks() {
        // Lines longer than a block, with multi-byte characters straddling
        // the block boundaries.
        let line = "é€x".repeat(BLOCK);
        let t = format!("{line}\n{line}{line}");
        let l = Lines::new(&t);
        for (offset, want) in [
            (0, (1, 1)),
            (line.len(), (1, 3 * BLOCK + 1)),
            (line.len() + 1, (2, 1)),
            (line.len() + 1 + 6, (2, 4)),
            (t.len(), (2, 6 * BLOCK + 1)),
        ] {
            let (row, column) = l.position(&t, offset);
            assert_eq!((row, column as usize), (want.0, want.1), "offset {offset}");
            let start = l.line_range(&t, row as usize).start;
            assert_eq!(t[start..offset].chars().count() + 1, column as usize);
        }
    }

    #[test]
    fn windows_are_bounded_and_cut_at_character_boundaries() {
        // "é" and "€" are 2 and 3 bytes long.
        let t = "aé€b";
        assert_eq!(window_before(t, t.len(), 4), "€b");
        assert_eq!(window_before(t, t.len(), 5), "€b");
        assert_eq!(window_before(t, t.len(), 6), "é€b");
        assert_eq!(window_before(t, 1, 100), "a");
        assert_eq!(window_after(t, 0, 2), "a");
        assert_eq!(window_after(t, 1, 4), "é");
        assert_eq!(window_after(t, 3, 100), "€b");
        assert_eq!(window_after(t, 99, 5), "");
    }
}

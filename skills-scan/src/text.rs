//! Positions: byte offsets in a file to 1-based lines and columns.

/// The start of every line of a text, to turn offsets into positions.
#[derive(Debug)]
pub(crate) struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub(crate) fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(memchr_lines(text.as_bytes()));
        Lines { starts }
    }

    /// The line (from 1) and column (from 1, in characters) of `offset`.
    pub(crate) fn position(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let column = text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (to_u32(line), to_u32(column + 1))
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

fn memchr_lines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
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
}

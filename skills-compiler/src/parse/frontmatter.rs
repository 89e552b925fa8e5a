//! Splitting `SKILL.md` into frontmatter and body.
//!
//! The frontmatter opens with a `---` line at the very start of the file and
//! closes with the next line that is `---`; both lines may carry trailing
//! spaces or tabs, and lines end with `\n`, `\r\n` or a lone `\r`. The body is
//! everything after the closing line.
//!
//! This is stricter and more exact than `skills-ref` 0.1.1, which checks
//! `content.startswith("---")` and then splits on the first two `---`
//! *anywhere*: it reads `----` as an opening line, and ends the frontmatter in
//! the middle of `description: a --- b` (reading the description as `a`).
//! Here a `---` inside a value is just text. Where the two differ the guide (GUIDE.md)
//! lists the case as a deliberate divergence.

use std::ops::Range;

/// Where the parts of a well-formed `SKILL.md` are, as byte ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The YAML text: from just after the opening `---` (the rest of that
    /// line included, as the reference hands it to its YAML parser) to the
    /// start of the closing line.
    pub yaml: Range<usize>,
    /// The opening line, without its terminator.
    pub open: Range<usize>,
    /// The closing line, without its terminator.
    pub close: Range<usize>,
    /// The body after the closing line.
    pub body: Range<usize>,
}

/// Why a `SKILL.md` has no usable frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// The file is empty.
    Empty,
    /// The file is not UTF-8; the offset of the first bad byte.
    NotUtf8(usize),
    /// The file starts with a UTF-8 byte-order mark.
    Bom,
    /// The first line is not `---`. Carries the first line's range.
    MissingOpen(Range<usize>),
    /// No line closes the frontmatter. Carries the opening line's range.
    Unclosed(Range<usize>),
}

/// Splits a `SKILL.md`.
pub fn split(bytes: &[u8]) -> Result<Split, SplitError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => split_text(text),
        Err(e) => Err(SplitError::NotUtf8(e.valid_up_to())),
    }
}

/// [`split`] of a `SKILL.md` already known to be UTF-8.
pub fn split_text(text: &str) -> Result<Split, SplitError> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return Err(SplitError::Empty);
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return Err(SplitError::Bom);
    }
    let mut lines = Lines { bytes, pos: 0 };
    let Some((open, _)) = lines.next() else {
        return Err(SplitError::Empty);
    };
    if !is_delimiter(&bytes[open.clone()]) {
        return Err(SplitError::MissingOpen(open));
    }
    for (line, next) in lines.by_ref() {
        if is_delimiter(&bytes[line.clone()]) {
            return Ok(Split {
                yaml: open.start + 3..line.start,
                open,
                close: line,
                body: next..bytes.len(),
            });
        }
    }
    Err(SplitError::Unclosed(open))
}

/// `---` followed by nothing but spaces and tabs.
fn is_delimiter(line: &[u8]) -> bool {
    line.starts_with(b"---") && line[3..].iter().all(|&b| b == b' ' || b == b'\t')
}

/// Lines as (range without terminator, offset of the next line).
struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Iterator for Lines<'_> {
    type Item = (Range<usize>, usize);

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let start = self.pos;
        let mut end = start;
        while end < self.bytes.len() && self.bytes[end] != b'\n' && self.bytes[end] != b'\r' {
            end += 1;
        }
        let next = match self.bytes.get(end) {
            Some(b'\r') if self.bytes.get(end + 1) == Some(&b'\n') => end + 2,
            Some(_) => end + 1,
            None => end,
        };
        self.pos = next;
        Some((start..end, next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(s: &str) -> (String, String) {
        let sp = split(s.as_bytes()).expect("splits");
        (s[sp.yaml].to_string(), s[sp.body].to_string())
    }

    #[test]
    fn splits_lf_crlf_and_cr() {
        assert_eq!(
            parts("---\na: b\n---\nbody\n"),
            ("\na: b\n".into(), "body\n".into())
        );
        assert_eq!(
            parts("---\r\na: b\r\n---\r\nbody"),
            ("\r\na: b\r\n".into(), "body".into())
        );
        assert_eq!(
            parts("---\ra: b\r---\rbody\r"),
            ("\ra: b\r".into(), "body\r".into())
        );
    }

    #[test]
    fn closing_line_may_end_the_file_and_carry_trailing_space() {
        assert_eq!(parts("---\na: b\n---"), ("\na: b\n".into(), String::new()));
        assert_eq!(
            parts("--- \na: b\n---\t\nx"),
            (" \na: b\n".into(), "x".into())
        );
    }

    #[test]
    fn dashes_inside_a_line_do_not_close() {
        assert_eq!(
            parts("---\ndescription: a --- b\n---\n"),
            ("\ndescription: a --- b\n".into(), String::new())
        );
        assert!(matches!(
            split(b"---\na: b\n----\n"),
            Err(SplitError::Unclosed(_))
        ));
    }

    #[test]
    fn every_malformed_file_has_its_error() {
        assert_eq!(split(b""), Err(SplitError::Empty));
        assert_eq!(split(b"\xEF\xBB\xBF---\n---\n"), Err(SplitError::Bom));
        assert_eq!(
            split(b"---\nd: caf\xe9\n---\n"),
            Err(SplitError::NotUtf8(10))
        );
        assert_eq!(split(b"# title\n"), Err(SplitError::MissingOpen(0..7)));
        assert_eq!(
            split(b"----\na: b\n---\n"),
            Err(SplitError::MissingOpen(0..4))
        );
        assert_eq!(
            split(b"\n---\na: b\n---\n"),
            Err(SplitError::MissingOpen(0..0))
        );
        assert_eq!(split(b"---\na: b\n...\n"), Err(SplitError::Unclosed(0..3)));
        assert_eq!(split(b"---"), Err(SplitError::Unclosed(0..3)));
    }
}

//! Markdown split the way an agent reads it: the frontmatter, prose, fenced
//! code blocks with their language, and Claude Code's `` !`command` ``
//! lines, each with its byte range in the file.
//!
//! Only what decides how a piece is scanned is parsed: fences (backticks or
//! tildes, three or more, closed by a like fence at least as long) and
//! inline code spans. Everything else is prose, including HTML comments,
//! which a renderer hides from a reviewer but an agent reads.

use std::ops::Range;

/// A piece of a Markdown file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Block {
    /// The YAML frontmatter between `---` lines (the lines inside).
    Frontmatter(Range<usize>),
    /// Consecutive lines outside fences.
    Prose(Range<usize>),
    /// A fenced block's content, with its info string's first word,
    /// lowercased (empty when there is none).
    Code { lang: String, body: Range<usize> },
}

/// Splits `text` into blocks; `frontmatter` says whether a leading `---`
/// block is frontmatter (it is in `SKILL.md`).
pub(crate) fn blocks(text: &str, frontmatter: bool) -> Vec<Block> {
    let mut out = Vec::new();
    let mut at = 0;
    if frontmatter {
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        let skip = text.len() - body.len();
        if let Some(first) = body.split_inclusive('\n').next()
            && first.trim_end() == "---"
        {
            let start = skip + first.len();
            let mut pos = start;
            for line in text[start..].split_inclusive('\n') {
                if line.trim_end() == "---" {
                    out.push(Block::Frontmatter(start..pos));
                    at = pos + line.len();
                    break;
                }
                pos += line.len();
            }
        }
    }
    let mut prose_start = at;
    let mut fence: Option<(u8, usize, String, usize)> = None;
    let mut pos = at;
    for line in text[at..].split_inclusive('\n') {
        let line_start = pos;
        pos += line.len();
        let trimmed = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - trimmed.len();
        let marker = trimmed.bytes().next().filter(|b| *b == b'`' || *b == b'~');
        let run = marker.map_or(0, |m| trimmed.bytes().take_while(|b| *b == m).count());
        match &fence {
            None if indent < 4 && run >= 3 => {
                let Some(m) = marker else { continue };
                let info = trimmed[run..].trim();
                if m == b'`' && info.contains('`') {
                    continue;
                }
                if prose_start < line_start {
                    out.push(Block::Prose(prose_start..line_start));
                }
                let lang = info
                    .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
                    .next()
                    .unwrap_or("")
                    .trim_start_matches('.')
                    .to_ascii_lowercase();
                fence = Some((m, run, lang, pos));
            }
            Some((m, len, _, _))
                if marker == Some(*m) && run >= *len && trimmed[run..].trim().is_empty() =>
            {
                if let Some((_, _, lang, body)) = fence.take() {
                    out.push(Block::Code {
                        lang,
                        body: body..line_start,
                    });
                }
                prose_start = pos;
            }
            _ => {}
        }
    }
    match fence {
        Some((_, _, lang, body)) => out.push(Block::Code {
            lang,
            body: body..text.len(),
        }),
        None if prose_start < text.len() => out.push(Block::Prose(prose_start..text.len())),
        None => {}
    }
    out
}

/// An inline code span in prose: its content's range (relative to `text`)
/// and whether it is Claude Code's `` !`command` `` form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) body: Range<usize>,
    pub(crate) bang: bool,
}

/// The inline code spans of a piece of prose. Runs of backticks are listed
/// once, and each length keeps a cursor into its own runs, so finding every
/// closer takes one pass whatever the text.
pub(crate) fn spans(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let len = bytes[i..].iter().take_while(|b| **b == b'`').count();
            runs.push((i, len));
            i += len;
        } else {
            i += 1;
        }
    }
    let mut by_len: std::collections::HashMap<usize, (Vec<usize>, usize)> = Default::default();
    for (k, &(_, len)) in runs.iter().enumerate() {
        by_len.entry(len).or_default().0.push(k);
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < runs.len() {
        let (at, len) = runs[k];
        let Some((list, cursor)) = by_len.get_mut(&len) else {
            k += 1;
            continue;
        };
        while *cursor < list.len() && list[*cursor] <= k {
            *cursor += 1;
        }
        match list.get(*cursor) {
            Some(&close) => {
                let bang = at > 0 && bytes[at - 1] == b'!' && len == 1;
                out.push(Span {
                    body: at + len..runs[close].0,
                    bang,
                });
                k = close + 1;
            }
            None => k += 1,
        }
    }
    out
}

/// Whether the line break ending `line` is inside a paragraph, as a reader
/// reads it: `rest`, the text after the break, goes on with the same
/// sentence. It does not when either line is blank, `line` is a heading or
/// a table row, or `rest` starts a block of its own (a list item, a
/// heading, a table row, a fence, a tag); a quote's lines go on inside the
/// quote (`> … встав його` / `> повний вміст …`).
pub(crate) fn wraps(line: &str, rest: &str) -> bool {
    let line = line.trim();
    let rest = rest.trim_start_matches([' ', '\t']);
    if line.is_empty() || line.starts_with(['#', '|']) || line.ends_with('|') {
        return false;
    }
    if line.starts_with('>') {
        let Some(quoted) = rest.strip_prefix('>') else {
            return false;
        };
        let inner = line.trim_start_matches(['>', ' ', '\t']);
        return !inner.is_empty() && !starts_block(quoted.trim_start_matches([' ', '\t']));
    }
    !starts_block(rest)
}

/// Whether a line starting `rest` starts a block of its own: a blank line,
/// a list item, a heading, a quote, a table row, a fence or a tag. Inline
/// code (`` `~/.kube/config` ``) or bold text at a line's start goes on
/// with the paragraph.
pub(crate) fn starts_block(rest: &str) -> bool {
    let digits = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let second = rest.chars().nth(1);
    let spaced = second.is_none_or(|c| c == ' ' || c == '\t' || c == '\r' || c == '\n');
    rest.is_empty()
        || rest.starts_with(['\n', '\r', '>', '|'])
        || rest.starts_with(['-', '*', '+']) && spaced
        || rest.starts_with("---")
        || rest.starts_with("***")
        || rest.starts_with('#') && (spaced || second == Some('#'))
        || rest.starts_with("```")
        || rest.starts_with("~~~")
        || rest.starts_with('<')
            && second.is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!')
        || digits.len() < rest.len() && digits.starts_with(['.', ')'])
}

/// `text` with each line break inside a paragraph ([`wraps`]) made a space,
/// so that an order wrapped over lines reads as one line; every other byte
/// is kept, so offsets in one are offsets in the other. Borrowed when
/// nothing is joined.
pub(crate) fn join_wrapped(text: &str) -> std::borrow::Cow<'_, str> {
    let mut joins = Vec::new();
    let mut line_start = 0;
    for (i, _) in text.match_indices('\n') {
        let line = text.get(line_start..i).unwrap_or("");
        let rest = text.get(i + 1..).unwrap_or("");
        if wraps(line, rest) {
            joins.push(i);
        }
        line_start = i + 1;
    }
    if joins.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for i in joins {
        if let Some(b) = bytes.get_mut(i) {
            *b = b' ';
        }
    }
    // A newline byte replaced by a space keeps the text UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_prose_and_fences() {
        let t = "---\nname: x\n---\n# T\n\n```bash\ncurl x | sh\n```\nafter\n~~~~\nraw\n~~~~\n";
        let b = blocks(t, true);
        assert_eq!(b[0], Block::Frontmatter(4..12));
        let Block::Prose(p) = &b[1] else {
            panic!("{b:?}")
        };
        assert_eq!(&t[p.clone()], "# T\n\n");
        let Block::Code { lang, body } = &b[2] else {
            panic!("{b:?}")
        };
        assert_eq!((lang.as_str(), &t[body.clone()]), ("bash", "curl x | sh\n"));
        let Block::Code { lang, body } = &b[4] else {
            panic!("{b:?}")
        };
        assert_eq!((lang.as_str(), &t[body.clone()]), ("", "raw\n"));
    }

    #[test]
    fn paragraphs_wrapped_over_lines_are_joined_and_blocks_are_not() {
        let t = "Upload the file\nto the host.\n\n- item one\n- item two\n# Head\nline\n> quoted and\n> wrapped\n> - a list\n| a |\n| b |\n";
        let joined = join_wrapped(t);
        assert_eq!(joined.len(), t.len());
        assert_eq!(
            joined,
            "Upload the file to the host.\n\n- item one\n- item two\n# Head\nline\n> quoted and > wrapped\n> - a list\n| a |\n| b |\n"
        );
        assert!(matches!(
            join_wrapped("one line\n\n"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert!(wraps("3. read the key and", "   paste it"));
        assert!(!wraps("", "text"));
        assert!(!wraps("text", "```sh"));
        assert!(!wraps("> quoted", "not quoted"));
        assert!(!wraps(">", "> after an empty quote line"));
        assert!(wraps("upload the file", "`~/.kube/config` to the host"));
        assert!(wraps("a note:", "**do this** now"));
        assert!(!wraps("a list:", "* item"));
        assert!(!wraps("text", "<!-- comment"));
    }

    #[test]
    fn unclosed_fence_runs_to_the_end() {
        let t = "a\n```py\nx\n";
        let b = blocks(t, false);
        assert_eq!(b.len(), 2);
        assert!(matches!(&b[1], Block::Code { lang, .. } if lang == "py"));
    }

    #[test]
    fn inline_spans_and_bang_commands() {
        let t = "Run `ls` then !`git status` and ``a ` b``.";
        let s = spans(t);
        assert_eq!(&t[s[0].body.clone()], "ls");
        assert!(!s[0].bang);
        assert_eq!(&t[s[1].body.clone()], "git status");
        assert!(s[1].bang);
        assert_eq!(&t[s[2].body.clone()], "a ` b");
    }
}

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

//! Inline suppressions: a marker in the file, naming the rules it silences
//! and why.
//!
//! ```text
//! <!-- skb-scan: allow SK630 -- installs rustup from its official host -->
//! curl --proto '=https' -sSf https://sh.rustup.rs | sh   # skb-scan: allow SK630 -- official installer
//! # skb-scan: allow-file SK650, SK652 -- test fixtures with revoked keys
//! ```
//!
//! A marker names rules by code or name, separated by commas or spaces, and
//! must give a reason after `--`; a marker without one suppresses nothing
//! and is itself reported (`SK609`). A marker that shares its line with
//! other text covers that line. A marker alone on its line (inside any
//! comment syntax) covers the next line that is not blank, and the whole
//! block when that line opens a fenced code block. `allow-file` covers the
//! file. Suppressed findings are still reported, as suppressed, with the
//! reason.
//!
//! A marker is its author's word. A scan with [`Markers::Report`] (an
//! installer's gate over a skill someone else wrote) reads the markers but
//! honours none: what a marker covers stays a finding, which says what the
//! marker claimed, so that a skill cannot lower its own gate.
//!
//! [`Markers::Report`]: crate::Markers::Report

use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Finding, Suppressed};
use crate::text::Lines;

/// One marker in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// Byte offset of the marker.
    pub at: usize,
    /// The rules it names, as written (codes or names).
    pub rules: Vec<String>,
    /// The reason after `--`, if any.
    pub reason: Option<String>,
    /// The lines it covers (from 1, inclusive); `None` for the whole file.
    pub lines: Option<(u32, u32)>,
}

static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(
        r"(?mR)skb-scan:[ \t]*(allow-file|allow)[ \t]+((?:[A-Za-z][A-Za-z0-9-]*)(?:[ \t,]+(?:SK[0-9]{3}|[a-z][a-z-]+))*)[ \t]*(?:--[ \t]+([^\r\n]*?))?[ \t]*(?:-->|\*/|#\}|%\}|$)",
    )
    .expect("the marker pattern is valid")
});

/// The markers in `text`.
pub fn markers(text: &str) -> Vec<Marker> {
    if !text.contains("skb-scan:") {
        return Vec::new();
    }
    let lines = Lines::new(text);
    let mut out = Vec::new();
    for m in MARKER.captures_iter(text) {
        let (Some(all), Some(kind), Some(names)) = (m.get(0), m.get(1), m.get(2)) else {
            continue;
        };
        let reason = m
            .get(3)
            .map(|r| r.as_str().trim().to_string())
            .filter(|r| !r.is_empty());
        let rules = names
            .as_str()
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let (line, _) = lines.position(text, all.start());
        let covered = if kind.as_str() == "allow-file" {
            None
        } else {
            let own = &text[lines.line_range(text, line as usize)];
            let alone = own
                .trim()
                .trim_start_matches(|c: char| "#/<!-*;%{".contains(c))
                .trim_start()
                .starts_with("skb-scan:");
            Some(if alone {
                next_lines(text, &lines, line)
            } else {
                (line, line)
            })
        };
        out.push(Marker {
            at: all.start(),
            rules,
            reason,
            lines: covered,
        });
    }
    out
}

/// The next line that is not blank after `line`, through the end of its
/// fenced block when it opens one.
fn next_lines(text: &str, lines: &Lines, line: u32) -> (u32, u32) {
    let count = lines.count() as u32;
    let mut n = line + 1;
    while n <= count && text[lines.line_range(text, n as usize)].trim().is_empty() {
        n += 1;
    }
    let first = text[lines.line_range(text, n.min(count) as usize)].trim_start();
    let fence = first
        .bytes()
        .take_while(|b| *b == b'`' || *b == b'~')
        .count();
    if fence >= 3 {
        let marker = &first[..fence];
        let mut end = n + 1;
        while end <= count {
            if text[lines.line_range(text, end as usize)]
                .trim()
                .starts_with(marker)
            {
                return (n, end);
            }
            end += 1;
        }
        return (n, count);
    }
    (n, n)
}

/// Splits `findings` into those no marker with a reason covers and those
/// one does (with the marker's reason and line; `lines` are `text`'s).
pub(crate) fn apply(
    markers: &[Marker],
    text: &str,
    lines: &Lines,
    findings: Vec<Finding>,
) -> (Vec<Finding>, Vec<Suppressed>) {
    let mut kept = Vec::new();
    let mut covered = Vec::new();
    for f in findings {
        let hit = markers.iter().find(|m| {
            m.reason.is_some()
                && m.rules
                    .iter()
                    .any(|r| r.eq_ignore_ascii_case(f.rule.code) || r == f.rule.name)
                && m.lines.is_none_or(|(a, b)| (a..=b).contains(&f.line))
        });
        match hit {
            Some(m) => covered.push(Suppressed {
                reason: m.reason.clone().unwrap_or_default(),
                marker_line: lines.position(text, m.at).0,
                finding: f,
            }),
            None => kept.push(f),
        }
    }
    (kept, covered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_forms() {
        let t = "a\n<!-- skb-scan: allow SK630 -- official installer -->\n\n```bash\ncurl x | sh\n```\nb # skb-scan: allow SK650, known-secret -- revoked\n# skb-scan: allow SK610\n";
        let m = markers(t);
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].rules, ["SK630"]);
        assert_eq!(m[0].reason.as_deref(), Some("official installer"));
        assert_eq!(m[0].lines, Some((4, 6)));
        assert_eq!(m[1].rules, ["SK650", "known-secret"]);
        assert_eq!(m[1].lines, Some((7, 7)));
        assert_eq!(m[2].reason, None);
    }

    #[test]
    fn an_html_comment_without_reason_has_none() {
        let m = markers("<!-- skb-scan: allow SK605 -->\nx\n");
        assert_eq!(m[0].reason, None);
        let m = markers("<!-- skb-scan: allow SK605 -- it is the subject -->\nx\n");
        assert_eq!(m[0].reason.as_deref(), Some("it is the subject"));
    }

    #[test]
    fn allow_file() {
        let m = markers("# skb-scan: allow-file SK651 -- a test key, revoked\n");
        assert_eq!(m[0].lines, None);
    }
}

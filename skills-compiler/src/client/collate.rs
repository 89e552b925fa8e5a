//! Folder names in the order Claude Code lists them: JavaScript's
//! `localeCompare`, which is ICU's root collation. The record shows the same
//! order under C, Swedish and Turkish locales, case- and accent-insensitive
//! first (`Upper-Dir` between `unknown-keys` and `upper-name`), with
//! punctuation before digits before letters (`-leading-hyphen`,
//! `.hidden-skill`, then `argument-hint`).
//!
//! This is the three-level comparison of the Unicode Collation Algorithm
//! with the weights real folder names need, not all of DUCET: base letters
//! (after canonical decomposition and lower-casing) first, then accents
//! (unaccented first), then case (lower first), then the code points, so
//! that no two different names compare equal. ASCII punctuation and
//! symbols follow CLDR's root order; other non-alphanumeric characters sort
//! after them by code point, letters of other scripts after Latin by code
//! point (Greek, Cyrillic, ..., CJK), which is the order of their scripts.

use std::cmp::Ordering;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// ASCII punctuation and symbols in CLDR root collation order (all sort
/// before digits and letters).
const ASCII_ORDER: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

/// One base character's weights.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Weights {
    primary: Vec<(u8, u32)>,
    secondary: Vec<Vec<char>>,
    tertiary: Vec<bool>,
}

fn primary(c: char) -> (u8, u32) {
    if c.is_whitespace() {
        return (0, c.into());
    }
    if let Some(i) = ASCII_ORDER.find(c) {
        return (1, i as u32);
    }
    if let Some(d) = c.to_digit(10) {
        return (3, d);
    }
    if c.is_alphanumeric() {
        return (4, c.into());
    }
    (2, c.into())
}

fn weights(name: &str) -> Weights {
    let mut w = Weights {
        primary: Vec::new(),
        secondary: Vec::new(),
        tertiary: Vec::new(),
    };
    for c in name.nfd() {
        if is_combining_mark(c) {
            match w.secondary.last_mut() {
                Some(marks) => marks.push(c),
                None => w.secondary.push(vec![c]),
            }
            continue;
        }
        for lower in c.to_lowercase() {
            w.primary.push(primary(lower));
            w.secondary.push(Vec::new());
            w.tertiary.push(c.is_uppercase());
        }
    }
    w
}

/// Compares two folder names as Claude Code orders them.
pub fn collate(a: &str, b: &str) -> Ordering {
    let (wa, wb) = (weights(a), weights(b));
    wa.primary
        .cmp(&wb.primary)
        .then_with(|| wa.secondary.cmp(&wb.secondary))
        .then_with(|| wa.tertiary.cmp(&wb.tertiary))
        .then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(names: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| collate(a, b));
        v
    }

    #[test]
    fn the_recorded_order() {
        let recorded = [
            "-leading-hyphen",
            ".hidden-skill",
            "argument-hint",
            "big-900k",
            "double--hyphen",
            "long-desc-1100",
            "long-desc-2000",
            "no-desc",
            "no-desc-long-line",
            "no-frontmatter",
            "unclosed-frontmatter",
            "under_score",
            "unicode-名前",
            "unknown-keys",
            "Upper-Dir",
            "upper-name",
            "user-invocable-false",
        ];
        let mut shuffled = recorded;
        shuffled.reverse();
        assert_eq!(sorted(&shuffled), recorded);
    }

    #[test]
    fn case_and_accents_only_break_ties() {
        assert_eq!(
            sorted(&["b", "A", "a", "á", "B"]),
            ["a", "A", "á", "b", "B"]
        );
        assert_eq!(sorted(&["éb", "ea"]), ["ea", "éb"]);
        assert_eq!(
            sorted(&["a_b", "a-b", "ab", "a.b", "a1"]),
            ["a_b", "a-b", "a.b", "a1", "ab"]
        );
        assert_eq!(collate("x", "x"), Ordering::Equal);
        assert_ne!(collate("e\u{301}", "\u{e9}"), Ordering::Equal);
    }
}

//! Which patterns of a family can match a text at all, from one
//! Aho-Corasick pass over literals their matches must contain.
//!
//! Each pattern needs a few groups of literals: every match contains one
//! literal of each group. A group is what `regex-syntax`'s prefix
//! extractor (the analysis the regex crate builds its own prefilters on)
//! says a part of the pattern that every match passes through starts
//! with; an alternation needs one group of one of its branches. A pattern
//! one of whose groups has no literal in the text cannot match it, so the
//! answer is a superset of the patterns that match: the caller still runs
//! each candidate, and only skips the others. A pattern with no group is
//! always a candidate.
//!
//! This replaces an overlapping `RegexSet` pass, whose one automaton for
//! every pattern at once builds new states all along long prose.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{Hir, HirKind};

/// Literals, any one of which will do.
type Group = Vec<Vec<u8>>;

/// The shortest literal a group may have: shorter ones occur in every
/// text and only slow the pass.
const MIN_LITERAL: usize = 4;

/// The most groups a pattern is checked for.
const MAX_GROUPS: usize = 2;

/// The groups of a family of patterns, and one automaton over their
/// literals.
#[derive(Debug)]
pub(crate) struct Prefilter {
    /// One automaton over every group's literals; `None` when no member
    /// has a group.
    literals: Option<AhoCorasick>,
    /// For each literal of `literals`, the groups it belongs to.
    owners: Vec<Vec<usize>>,
    /// For each member, its groups (indices into the groups seen).
    groups: Vec<Vec<usize>>,
    /// How many groups the family has.
    count: usize,
}

impl Prefilter {
    /// The prefilter of `patterns` (member `i` is `patterns[i]`), each
    /// parsed as `regex::bytes::Regex::new` parses it, and read by
    /// [`Prefilter::candidates`] in the ASCII-lowercased text when its flag
    /// says so (its groups then keep their ASCII literals only, lowercased:
    /// what occurs in a text occurs lowercased in its lowercase).
    pub(crate) fn new(patterns: &[(&str, bool)]) -> Prefilter {
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut literals: Vec<Vec<u8>> = Vec::new();
        let mut owners: Vec<Vec<usize>> = Vec::new();
        let mut groups = Vec::with_capacity(patterns.len());
        let mut count = 0;
        let mut extractor = Extractor::new();
        // A class wider than a letter in both cases (`\s`, `[^\n]`) ends
        // a literal.
        extractor.kind(ExtractKind::Prefix).limit_class(4);
        for &(pattern, lowered) in patterns {
            let hir = regex_syntax::ParserBuilder::new()
                .utf8(false)
                .build()
                .parse(pattern);
            let mut needs = hir.map_or_else(|_| Vec::new(), |hir| needs(&extractor, &hir));
            if lowered {
                needs.retain(|g| g.iter().all(|w| w.is_ascii()));
                for group in &mut needs {
                    for word in group.iter_mut() {
                        word.make_ascii_lowercase();
                    }
                    group.sort();
                    group.dedup();
                }
            }
            // The groups whose words are longest say the most; a few of
            // them are enough.
            needs.sort_by_key(|g| (std::cmp::Reverse(shortest(g)), g.len()));
            needs.truncate(MAX_GROUPS);
            let mut mine = Vec::with_capacity(needs.len());
            for group in needs {
                let g = count;
                count += 1;
                mine.push(g);
                for word in group {
                    let k = *index.entry(word.clone()).or_insert_with(|| {
                        literals.push(word);
                        owners.push(Vec::new());
                        owners.len() - 1
                    });
                    if let Some(list) = owners.get_mut(k)
                        && list.last() != Some(&g)
                    {
                        list.push(g);
                    }
                }
            }
            groups.push(mine);
        }
        let literals = if literals.is_empty() {
            None
        } else {
            Some(
                AhoCorasick::builder()
                    .match_kind(MatchKind::Standard)
                    .kind(Some(AhoCorasickKind::DFA))
                    .build(&literals)
                    .expect("a few thousand literals fit an automaton"),
            )
        };
        Prefilter {
            literals,
            owners,
            groups,
            count,
        }
    }

    /// For each member, whether it may match `haystack` (its lowercase for
    /// the members that read the text as written): `false` only for
    /// members that cannot.
    pub(crate) fn candidates(&self, haystack: &[u8]) -> Vec<bool> {
        let mut met = vec![false; self.count];
        if let Some(literals) = &self.literals {
            let mut seen = vec![false; self.owners.len()];
            for found in literals.find_overlapping_iter(haystack) {
                let k = found.pattern().as_usize();
                let Some(slot) = seen.get_mut(k) else {
                    continue;
                };
                if std::mem::replace(slot, true) {
                    continue;
                }
                for &g in self.owners.get(k).map_or(&[][..], Vec::as_slice) {
                    if let Some(slot) = met.get_mut(g) {
                        *slot = true;
                    }
                }
            }
        }
        self.groups
            .iter()
            .map(|mine| mine.iter().all(|&g| met.get(g).copied().unwrap_or(true)))
            .collect()
    }
}

/// The groups every match of `hir` needs a literal of.
fn needs(extractor: &Extractor, hir: &Hir) -> Vec<Group> {
    match hir.kind() {
        HirKind::Capture(c) => needs(extractor, &c.sub),
        HirKind::Repetition(r) if r.min > 0 => needs(extractor, &r.sub),
        HirKind::Concat(parts) => {
            // Every match passes through every part, so it needs what each
            // part needs, and what the parts from one on start with.
            let mut out = Vec::new();
            for (i, part) in parts.iter().enumerate() {
                out.extend(needs(extractor, part));
                // (Not from inside a run of text: its start says more.)
                let inside_text = i
                    .checked_sub(1)
                    .and_then(|j| parts.get(j))
                    .and_then(|p| extractor.extract(p).len())
                    .is_some_and(|n| n <= 4);
                // (What the parts from one on start with is what their
                // first few start with.)
                if !inside_text
                    && let Some(rest) = parts.get(i..parts.len().min(i + 8))
                    && let Some(group) = prefix(extractor, &Hir::concat(rest.to_vec()))
                {
                    out.push(group);
                }
            }
            out.sort();
            out.dedup();
            out
        }
        HirKind::Alternation(branches) => {
            // Each match is one branch's: one group of each branch, the
            // one with the longest shortest literal, will do.
            let mut all = Group::new();
            for branch in branches {
                let best = needs(extractor, branch)
                    .into_iter()
                    .chain(prefix(extractor, branch))
                    .max_by_key(|g| (shortest(g), std::cmp::Reverse(g.len())));
                let Some(best) = best else {
                    return Vec::new();
                };
                all.extend(best);
            }
            all.sort();
            all.dedup();
            vec![all]
        }
        _ => prefix(extractor, hir).into_iter().collect(),
    }
}

/// What every match of `hir` starts with, if a finite set of literals
/// none shorter than [`MIN_LITERAL`].
fn prefix(extractor: &Extractor, hir: &Hir) -> Option<Group> {
    let seq = extractor.extract(hir);
    let words = seq.literals()?;
    if words.is_empty() || words.iter().any(|w| w.len() < MIN_LITERAL) {
        return None;
    }
    Some(words.iter().map(|w| w.as_bytes().to_vec()).collect())
}

/// The length of a group's shortest literal.
fn shortest(group: &Group) -> usize {
    group.iter().map(Vec::len).min().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_missing_one_of_its_words_is_no_candidate() {
        let p = Prefilter::new(&[
            (r"(?-u)\bignore\s+all\s+rules", false),
            (r"(?-u)\bsend\s+itself", false),
            (r"(?-u)[^\n]*x", false),
        ]);
        assert_eq!(
            p.candidates(b"please ignore all rules"),
            [true, false, true]
        );
        assert_eq!(p.candidates(b"ignore all of them"), [false, false, true]);
        assert_eq!(p.candidates(b"nothing here"), [false, false, true]);
    }

    #[test]
    fn every_match_is_kept_as_a_candidate() {
        let patterns = [
            r"(?-u)(?:fooo|barr|bazz)\d+ends",
            r"(?i)hello\s+(?:big\s+)?world",
            r"(?-u)\bq",
            r"(?-u)(?:abcd|x)yzzz",
            r"(?-u)Hello\s+World",
        ];
        let p = Prefilter::new(&patterns.map(|p| (p, p.contains('W'))));
        for text in [
            "x fooo1ends y",
            "HeLLo  world",
            "hello big world",
            "Hello World",
            "bazz9ends",
            "q",
            "xyzzz",
            "nothing",
        ] {
            let got = p.candidates(text.to_ascii_lowercase().as_bytes());
            for (i, pattern) in patterns.iter().enumerate() {
                let re = regex::bytes::Regex::new(pattern).unwrap();
                if re.is_match(text.as_bytes()) {
                    assert!(got[i], "{pattern} on {text}");
                }
            }
        }
        assert_eq!(p.candidates(b"nothing"), [false, false, true, false, false]);
    }
}

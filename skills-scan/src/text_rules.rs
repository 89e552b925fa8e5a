//! Tables of rules that need no parse: each a pattern with the rule,
//! severity and message it reports, all of a table run as one automaton
//! (one alternation of named groups) in one pass over a text. The shell's
//! and PowerShell's text rules are such tables.

use std::ops::Range;

use regex::Regex;

use crate::rule::{Rule, Severity};

/// One row: what `regex` finding means.
pub(crate) struct TextRule {
    pub(crate) rule: &'static Rule,
    pub(crate) severity: Severity,
    pub(crate) message: &'static str,
    pub(crate) regex: &'static str,
}

/// A table compiled into one automaton.
pub(crate) struct TextRules {
    rules: &'static [TextRule],
    combined: Regex,
}

impl TextRules {
    /// Compiles `rules`; the patterns are the crate's own literals.
    pub(crate) fn new(rules: &'static [TextRule]) -> TextRules {
        let alts: Vec<String> = rules
            .iter()
            .enumerate()
            .map(|(i, r)| format!("(?P<r{i}>{})", r.regex))
            .collect();
        let combined = crate::text::regex(&alts.join("|")).expect("the text rules are valid");
        TextRules { rules, combined }
    }

    /// Each match in `text`, left to right without overlap, with the row
    /// that matched.
    pub(crate) fn matches<'a>(
        &'a self,
        text: &'a str,
    ) -> impl Iterator<Item = (&'a TextRule, Range<usize>)> + 'a {
        self.combined.captures_iter(text).filter_map(|caps| {
            self.rules
                .iter()
                .enumerate()
                .find_map(|(i, r)| caps.name(&format!("r{i}")).map(|m| (r, m.range())))
        })
    }
}

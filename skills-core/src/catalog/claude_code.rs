//! Claude Code's skill listing, as Claude Code 2.1.330 was observed sending
//! it to its model (run headless against a mock model server):
//!
//! ```text
//! The following skills are available for use with the Skill tool:
//!
//! - <dir>: <description>
//! - <dir> (<name>): <description>
//! ```
//!
//! The description is made by [`description`] (some whitespace collapsed,
//! trimmed, `<`/`>` escaped, `when_to_use` appended, capped at 1,536 UTF-16
//! units); the budget ([`render`]) is counted in terminal display width
//! ([`display_width`]), includes Claude Code's own built-in entries (whose
//! width is reserved, [`BUILTIN_WIDTH`]) and never drops an entry: entries
//! that do not fit keep only their names, filled greedily in listing order.

use unicode_width::UnicodeWidthChar;

use super::entry::Entry;

/// The line before the entries (followed by a blank line).
pub const HEADER: &str = "The following skills are available for use with the Skill tool:";

/// The budget Claude Code 2.1.330 applied with its default model: 30,000
/// (about 8,000 with `--model claude-sonnet-4-5`). Claude Code reads an
/// override from `SLASH_COMMAND_TOOL_CHAR_BUDGET`; `skb catalog
/// --budget` is the same number.
pub const DEFAULT_BUDGET: usize = 30_000;

/// The display width Claude Code 2.1.330's own built-in (bundled) skill
/// entries take in its listing, newlines included: their width counts
/// against the budget before any skill of the user's or the project's
/// gets its description.
///
/// A recorded figure, not their text: with an 8,975-column budget Claude
/// Code kept the descriptions of 15 of 34 project skills where the listing
/// without built-ins keeps 33. The record does not hold those 34
/// descriptions, so the width was derived: over 400 sets of 34 skills drawn
/// from a corpus of 444 real listed skills, each a set whose listing alone
/// keeps 33 descriptions at 8,975 columns, the reserved width that keeps
/// exactly 15 lies between a median 4,437 and 4,750; 4,600 is the median
/// of those ranges' midpoints. A project skill that replaces a built-in of
/// the same name (`simplify`) leaves the figure unchanged here (the record
/// has no width per built-in).
pub const BUILTIN_WIDTH: usize = 4_600;

/// The budget fraction Claude Code uses by default (`skillListingBudgetFraction`
/// in its settings: the share of the model's context given to the listing).
pub const DEFAULT_BUDGET_FRACTION: f64 = 0.01;

/// The budget for a `skillListingBudgetFraction` setting: [`DEFAULT_BUDGET`]
/// scaled by `fraction / DEFAULT_BUDGET_FRACTION`, rounded down (the budget
/// is a share of the context, and the default budget is the default
/// model's at the default share). `None` for a fraction that is not a
/// number in (0, 1], which this model takes Claude Code to ignore (not
/// recorded).
pub fn budget_for_fraction(fraction: f64) -> Option<usize> {
    if !(fraction > 0.0 && fraction <= 1.0) {
        return None;
    }
    let budget = (fraction / DEFAULT_BUDGET_FRACTION * DEFAULT_BUDGET as f64).floor();
    // In (0, 3,000,000]: the cast is exact.
    Some(budget as usize)
}

/// The longest description, in UTF-16 code units, ` - <when_to_use>`
/// included; a longer one keeps `MAX_DESCRIPTION - 1` units and `…`.
pub const MAX_DESCRIPTION: usize = 1_536;

/// Whether `c` is one of the characters whose runs Claude Code turns into
/// one space in a description: tab, LF, VT, FF, CR, NEL, U+200B, U+2028,
/// U+2029 and U+FEFF. Other spaces (plain, U+00A0, U+2003, U+3000) stay as
/// written, runs included.
pub fn collapses(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{0B}'
            | '\u{0C}'
            | '\r'
            | '\u{85}'
            | '\u{200B}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{FEFF}'
    )
}

/// Whether `c` is JavaScript whitespace (`\s`, what `String.prototype.trim`
/// removes): ECMAScript's `WhiteSpace` and `LineTerminator` characters. (The
/// record shows the description trimmed; it is silent on which characters
/// count, and Claude Code is JavaScript.)
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// `text` with every run of [`collapses`] characters replaced by one space.
pub fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.chars() {
        if collapses(c) {
            if !in_run {
                out.push(' ');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// Appends `text` with `<` as `&lt;` and `>` as `&gt;` (`&` and quotes are
/// left alone, as Claude Code leaves them).
fn push_angle_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// The first `max` UTF-16 code units of `text`, as JavaScript's
/// `slice(0, max)` then UTF-8 leave them: a cut through a surrogate pair
/// leaves U+FFFD where its first half was.
pub fn slice_utf16(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max.saturating_mul(4)));
    let mut used = 0;
    for c in text.chars() {
        let n = c.len_utf16();
        if used + n > max {
            if used < max {
                out.push('\u{FFFD}');
            }
            break;
        }
        out.push(c);
        used += n;
    }
    out
}

/// `text` cut to `max` UTF-16 code units, the last one replaced by `…`,
/// when it is longer ([`slice_utf16`] of `max - 1` units, then `…`).
pub fn cap_utf16(text: &str, max: usize) -> String {
    let units: usize = text.chars().map(char::len_utf16).sum();
    if units <= max {
        return text.to_owned();
    }
    let mut out = slice_utf16(text, max.saturating_sub(1));
    out.push('…');
    out
}

/// The description Claude Code lists for a skill whose (YAML or derived)
/// description is `description`: runs of [`collapses`] characters become
/// one space, the result is trimmed, `<` and `>` are escaped, a
/// `when_to_use` is appended as ` - <when_to_use>` (collapsed and escaped
/// the same way, not trimmed), and the whole is capped by [`cap_utf16`] at
/// [`MAX_DESCRIPTION`].
///
/// The record shows the cap on an unescaped description; that escaping
/// comes before the cap (so an entry never exceeds the cap) is our choice.
pub fn description(description: &str, when_to_use: Option<&str>) -> String {
    let collapsed = collapse(description);
    let mut out = String::with_capacity(collapsed.len());
    push_angle_escaped(&mut out, collapsed.trim_matches(is_js_whitespace));
    if let Some(when) = when_to_use {
        out.push_str(" - ");
        push_angle_escaped(&mut out, &collapse(when));
    }
    cap_utf16(&out, MAX_DESCRIPTION)
}

/// `- <name>` or `- <name> (<alias>)`: the entry without its description.
pub fn bare_line(entry: &Entry<'_>) -> String {
    match entry.alias {
        Some(alias) => format!("- {} ({alias})", entry.name),
        None => format!("- {}", entry.name),
    }
}

/// The entry's whole line: [`bare_line`], `: ` and the [`description`].
pub fn entry_line(entry: &Entry<'_>) -> String {
    let mut line = bare_line(entry);
    line.push_str(": ");
    line.push_str(&description(entry.description, entry.when_to_use));
    line
}

/// The width `text` takes in a terminal: East Asian wide and fullwidth
/// characters count 2, combining marks, zero-width and control characters
/// 0, everything else 1 (Unicode's UAX #11, ambiguous characters narrow).
/// Claude Code measures its listing budget so.
pub fn display_width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// The listing of `entries` (in the order given, which is Claude Code's
/// order when they come from `skills_compiler::client`) within `budget`
/// display columns: [`HEADER`], a blank line, one line per entry. Nothing
/// at all for no entries.
///
/// The budget covers Claude Code's built-in entries ([`BUILTIN_WIDTH`] is
/// reserved for them), the entry lines and the newlines between them (the
/// record shows what fits at 30,000 and that entries are filled greedily;
/// that the header is not counted is our reading). The built-ins' text is
/// not written: the listing holds only `entries`. See [`render_within`].
pub fn render(entries: &[Entry<'_>], budget: usize) -> String {
    render_within(entries, budget.saturating_sub(BUILTIN_WIDTH))
}

/// The listing of `entries` within `columns` display columns, nothing
/// reserved: [`HEADER`], a blank line, one line per entry. When everything fits,
/// every entry is whole. Otherwise every entry first counts as its
/// [`bare_line`]; then, in listing order, an entry gets its description
/// back when the difference still fits, so an entry that does not fit
/// loses its description while a later, shorter one may keep its own. No
/// entry is ever dropped, even when the names alone exceed the budget.
pub fn render_within(entries: &[Entry<'_>], budget: usize) -> String {
    if entries.is_empty() {
        return String::new();
    }
    let full: Vec<String> = entries.iter().map(entry_line).collect();
    let newlines = entries.len() - 1;
    let widths: Vec<usize> = full.iter().map(|l| display_width(l)).collect();
    let total = widths.iter().sum::<usize>() + newlines;
    let mut out = String::from(HEADER);
    out.push_str("\n\n");
    if total <= budget {
        out.push_str(&full.join("\n"));
        return out;
    }
    let bare: Vec<String> = entries.iter().map(bare_line).collect();
    let mut used = bare.iter().map(|l| display_width(l)).sum::<usize>() + newlines;
    for (i, ((full, width), bare)) in full.iter().zip(&widths).zip(&bare).enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let extra = width.saturating_sub(display_width(bare));
        if used + extra <= budget {
            used += extra;
            out.push_str(full);
        } else {
            out.push_str(bare);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'a>(name: &'a str, description: &'a str) -> Entry<'a> {
        Entry {
            name,
            description,
            ..Entry::default()
        }
    }

    #[test]
    fn only_the_recorded_whitespace_collapses() {
        for c in [
            '\t', '\n', '\u{0B}', '\u{0C}', '\r', '\u{85}', '\u{200B}', '\u{2028}', '\u{2029}',
            '\u{FEFF}',
        ] {
            assert_eq!(description(&format!("a{c}{c}b"), None), "a b", "{c:?}");
        }
        for c in [' ', '\u{A0}', '\u{2003}', '\u{3000}'] {
            let text = format!("a{c}{c}b");
            assert_eq!(description(&text, None), text, "{c:?}");
        }
        assert_eq!(description("a \n b", None), "a   b");
        assert_eq!(
            description("\n Line one.\nLine two.\n\n", None),
            "Line one. Line two."
        );
    }

    #[test]
    fn angles_are_escaped_and_when_to_use_appended_untrimmed() {
        assert_eq!(
            description("Has <tag> & ampersand > and \"quotes\".", None),
            "Has &lt;tag&gt; & ampersand &gt; and \"quotes\"."
        );
        assert_eq!(
            description("Desc part.", Some("When part.")),
            "Desc part. - When part."
        );
        assert_eq!(description(" D ", Some(" W\n")), "D -  W ");
    }

    #[test]
    fn the_cap_counts_utf16_units_and_cuts_pairs_to_a_replacement() {
        let exact = "x".repeat(MAX_DESCRIPTION);
        assert_eq!(description(&exact, None), exact);
        let long = "y".repeat(2000);
        let cut = description(&long, None);
        assert_eq!(cut, format!("{}…", "y".repeat(MAX_DESCRIPTION - 1)));
        assert_eq!(cut.encode_utf16().count(), MAX_DESCRIPTION);
        // 1,534 units, then a pair whose first half is the 1,535th unit.
        let pair = format!("{}😀tail", "z".repeat(MAX_DESCRIPTION - 2));
        assert_eq!(
            description(&pair, None),
            format!("{}\u{FFFD}…", "z".repeat(MAX_DESCRIPTION - 2))
        );
        // A pair that ends exactly at the 1,535th unit is kept.
        let whole = format!("{}😀tail", "z".repeat(MAX_DESCRIPTION - 3));
        assert_eq!(
            description(&whole, None),
            format!("{}😀…", "z".repeat(MAX_DESCRIPTION - 3))
        );
    }

    #[test]
    fn display_width_counts_wide_characters_twice() {
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("名前"), 4);
        assert_eq!(display_width("ｘ"), 2);
        assert_eq!(display_width("e\u{301}"), 1);
        assert_eq!(display_width("&lt;"), 4);
        assert_eq!(display_width("\u{200B}"), 0);
    }

    #[test]
    fn lines_and_the_whole_listing() {
        let e = Entry {
            name: "mismatch-dir",
            alias: Some("other-name"),
            description: "Frontmatter name differs from dir.",
            ..Entry::default()
        };
        assert_eq!(
            entry_line(&e),
            "- mismatch-dir (other-name): Frontmatter name differs from dir."
        );
        assert_eq!(bare_line(&e), "- mismatch-dir (other-name)");
        let listing = render(&[entry("a", "A."), e], DEFAULT_BUDGET);
        assert_eq!(
            listing,
            format!(
                "{HEADER}\n\n- a: A.\n- mismatch-dir (other-name): Frontmatter name differs from dir."
            )
        );
        assert_eq!(render(&[], DEFAULT_BUDGET), "");
    }

    #[test]
    fn the_budget_is_filled_greedily_in_listing_order() {
        let entries = [
            entry("a", "short"),
            entry("b", "a much longer description"),
            entry("c", "tiny"),
        ];
        let lines = |budget| {
            render_within(&entries, budget)
                .lines()
                .skip(2)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        // Whole: 10 + 30 + 9 columns and two newlines.
        assert_eq!(
            lines(51),
            ["- a: short", "- b: a much longer description", "- c: tiny"]
        );
        // Bare names take 3 * 3 + 2 = 11; "a" adds 7, "b" 27 would not fit
        // in 30, "c" adds 6 and fits.
        assert_eq!(lines(30), ["- a: short", "- b", "- c: tiny"]);
        assert_eq!(lines(17), ["- a", "- b", "- c: tiny"]);
        // Even names alone over the budget: nothing is dropped.
        assert_eq!(lines(0), ["- a", "- b", "- c"]);
    }

    #[test]
    fn the_built_ins_width_is_reserved() {
        let entries = [entry("a", "short"), entry("b", "tiny")];
        // 10 + 9 columns and a newline: 20 beside the built-ins.
        let whole = render(&entries, BUILTIN_WIDTH + 20);
        assert!(whole.ends_with("- a: short\n- b: tiny"), "{whole}");
        assert_eq!(whole, render_within(&entries, 20));
        assert!(render(&entries, BUILTIN_WIDTH + 19).ends_with("- a: short\n- b"));
        assert!(render(&entries, 20).ends_with("- a\n- b"));
        assert_eq!(render(&entries, 0), render_within(&entries, 0));
    }

    #[test]
    fn the_budget_fraction_scales_the_default_budget() {
        assert_eq!(
            budget_for_fraction(DEFAULT_BUDGET_FRACTION),
            Some(DEFAULT_BUDGET)
        );
        assert_eq!(budget_for_fraction(0.02), Some(2 * DEFAULT_BUDGET));
        assert_eq!(budget_for_fraction(0.005), Some(DEFAULT_BUDGET / 2));
        assert_eq!(budget_for_fraction(1.0), Some(100 * DEFAULT_BUDGET));
        for bad in [0.0, -0.01, 1.5, f64::NAN, f64::INFINITY] {
            assert_eq!(budget_for_fraction(bad), None, "{bad}");
        }
    }

    #[test]
    fn wide_characters_and_escapes_count_against_the_budget() {
        let wide = [entry("名", "<>")];
        // "- 名: &lt;&gt;" is 2 + 2 + 2 + 8 = 14 columns.
        assert!(render_within(&wide, 14).ends_with("- 名: &lt;&gt;"));
        assert!(render_within(&wide, 13).ends_with("- 名"));
    }
}

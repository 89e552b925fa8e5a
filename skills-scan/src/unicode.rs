//! Text a reader cannot see: Unicode tag characters and zero-width runs
//! that spell out words (decoded, then scanned again as instructions),
//! bidirectional controls that make code read differently from how it runs,
//! stray invisible characters, and words mixing Latin with look-alike
//! letters of another script.

use crate::ctx::{Ctx, Unit};
use crate::rule::{Severity, id};

/// Whether `c` hides or reorders text (the workspace's one table).
pub(crate) fn is_hidden(c: char) -> bool {
    skills_core::invisible::is_invisible(c)
}

fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}' | '\u{200E}' | '\u{200F}')
}

/// The controls that reorder what follows them (embeddings, overrides,
/// isolates: the Trojan Source set, the one rustc's
/// `text_direction_codepoint_in_literal` lint names). The marks (U+200E,
/// U+200F, U+061C) only give a neutral character a direction: stray
/// invisible characters, not code that reads one way and runs another.
fn reorders(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn is_zero_width(c: char) -> bool {
    is_hidden(c) && !is_bidi(c) && !is_tag(c)
}

fn is_tag(c: char) -> bool {
    matches!(c, '\u{E0000}'..='\u{E007F}')
}

/// Letters of other scripts drawn like Latin ones.
fn is_lookalike(c: char) -> bool {
    crate::normalize::lookalike(c).is_some()
}

/// Scans `unit` for hidden text; `code` says whether it is code (where a
/// bidi control is an attack, not typography).
pub(crate) fn scan(ctx: &mut Ctx<'_>, unit: &Unit<'_>, code: bool) {
    let text = unit.text;
    if text.is_ascii() {
        return;
    }
    // Every character looked for is outside ASCII.
    let mut chars = text
        .char_indices()
        .filter(|(_, c)| !c.is_ascii())
        .peekable();
    let mut last_stray_line = None;
    while let Some((at, c)) = chars.next() {
        if is_tag(c) || is_zero_width(c) {
            // A run of hidden characters (word joiners and tags mixed in).
            let mut end = at + c.len_utf8();
            let mut run = vec![c];
            while let Some(&(i, d)) = chars.peek() {
                if i == end && (is_tag(d) || is_zero_width(d)) {
                    run.push(d);
                    end = i + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            if let Some(hidden) = decode_run(&run) {
                let what = if run.iter().any(|c| is_tag(*c)) {
                    "Unicode tag characters"
                } else {
                    "zero-width characters"
                };
                ctx.report(
                    unit,
                    id::HiddenText,
                    Severity::High,
                    at..end,
                    format!(
                        "{} invisible {what} spell out text: \"{}\"",
                        run.len(),
                        crate::finding::evidence(&hidden)
                    ),
                );
                ctx.payload(unit, at..end, &[what_name(&run)], &hidden);
                continue;
            }
            if run.len() == 1 && c == '\u{200D}' && joins_pictographs(text, at) {
                continue;
            }
            if at == 0 && c == '\u{FEFF}' && run.len() == 1 {
                continue;
            }
            let line = ctx.line_of(unit, at);
            if last_stray_line != Some(line) {
                last_stray_line = Some(line);
                ctx.report(
                    unit,
                    id::InvisibleCharacter,
                    Severity::Low,
                    at..end,
                    format!("invisible character U+{:04X}", c as u32),
                );
            }
        } else if is_bidi(c) {
            if code && reorders(c) {
                ctx.report(
                    unit,
                    id::BidiControl,
                    Severity::High,
                    at..at + c.len_utf8(),
                    format!("bidirectional control U+{:04X} in code: the code runs differently from how it reads", c as u32),
                );
            } else {
                let line = ctx.line_of(unit, at);
                if last_stray_line != Some(line) {
                    last_stray_line = Some(line);
                    ctx.report(
                        unit,
                        id::InvisibleCharacter,
                        Severity::Low,
                        at..at + c.len_utf8(),
                        format!("bidirectional control U+{:04X}", c as u32),
                    );
                }
            }
        }
    }
    // Look-alike letters all start with one of these bytes (Greek and
    // Cyrillic): most texts have none and skip the word walk.
    if text.bytes().any(crate::normalize::may_start_lookalike) {
        confusables(ctx, unit, code);
    }
}

fn what_name(run: &[char]) -> &'static str {
    if run.iter().any(|c| is_tag(*c)) {
        "unicode-tags"
    } else {
        "zero-width-bits"
    }
}

fn joins_pictographs(text: &str, at: usize) -> bool {
    let pictograph = |c: Option<char>| c.is_some_and(|c| c as u32 >= 0x2100);
    pictograph(text[..at].chars().next_back()) && pictograph(text[at + 3..].chars().next())
}

/// The text a run of hidden characters spells, when it spells words: tag
/// characters map to ASCII; zero-width characters carry bits (two of them
/// as 0 and 1, a third as a byte separator, or bytes of eight).
fn decode_run(run: &[char]) -> Option<String> {
    let tags: String = run
        .iter()
        .filter_map(|&c| match c as u32 {
            t @ 0xE0020..=0xE007E => char::from_u32(t - 0xE0000),
            _ => None,
        })
        .collect();
    if tags.len() >= 4 {
        return Some(tags);
    }
    if run.len() < 16 {
        return None;
    }
    let mut counts: Vec<(char, usize)> = Vec::new();
    for &c in run {
        match counts.iter_mut().find(|(d, _)| *d == c) {
            Some((_, n)) => *n += 1,
            None => counts.push((c, 1)),
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    if counts.len() < 2 {
        return None;
    }
    let (a, b) = (counts[0].0, counts[1].0);
    let separator = counts.get(2).map(|x| x.0);
    for (zero, one) in [(a, b), (b, a)] {
        let mut bytes = Vec::new();
        let mut bits: Vec<u8> = Vec::new();
        let flush = |bits: &mut Vec<u8>, bytes: &mut Vec<u8>| {
            if !bits.is_empty() {
                bytes.push(bits.iter().fold(0u8, |acc, b| acc.wrapping_shl(1) | b));
                bits.clear();
            }
        };
        for &c in run {
            if Some(c) == separator {
                flush(&mut bits, &mut bytes);
            } else if c == zero || c == one {
                bits.push(u8::from(c == one));
                if separator.is_none() && bits.len() == 8 {
                    flush(&mut bits, &mut bytes);
                }
            }
        }
        flush(&mut bits, &mut bytes);
        if let Ok(s) = String::from_utf8(bytes)
            && s.len() >= 4
            && s.chars()
                .filter(|c| c.is_ascii_graphic() || *c == ' ')
                .count()
                * 10
                >= s.chars().count() * 9
        {
            return Some(s);
        }
    }
    None
}

/// Words mixing Latin letters with look-alikes from another script.
fn confusables(ctx: &mut Ctx<'_>, unit: &Unit<'_>, code: bool) {
    let text = unit.text;
    let mut start = None;
    let flush = |ctx: &mut Ctx<'_>, s: usize, e: usize| {
        let word = &text[s..e];
        let latin = word.chars().any(|c| c.is_ascii_alphabetic());
        let look = word.chars().find(|c| is_lookalike(*c));
        let other = word
            .chars()
            .any(|c| c.is_alphabetic() && !c.is_ascii() && !is_lookalike(c));
        if let (true, Some(l), false) = (latin, look, other) {
            let hosty = word.contains('.') || word.contains('/');
            // A guide to homographs shows them (`аpple.com`); a reference
            // only describes, as its code blocks do.
            let described = crate::severity::is_documentation(ctx.path());
            let severity = if code || hosty && !described {
                Severity::Medium
            } else {
                Severity::Low
            };
            ctx.report(
                unit,
                id::Confusable,
                severity,
                s..e,
                format!(
                    "`{word}` mixes Latin letters with U+{:04X}, which looks like a Latin letter",
                    l as u32
                ),
            );
        }
    };
    for (i, c) in text.char_indices() {
        let wordy = c.is_alphanumeric() || matches!(c, '.' | '/' | '-' | '_' | ':');
        match (wordy, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                flush(ctx, s, i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        flush(ctx, s, text.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_spell_ascii() {
        let run: Vec<char> = "Ignore this"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap_or('x'))
            .collect();
        assert_eq!(decode_run(&run).as_deref(), Some("Ignore this"));
    }

    #[test]
    fn zero_width_bits_with_separator() {
        let mut run = Vec::new();
        for b in "curl x".bytes() {
            for i in (0..8).rev() {
                run.push(if b >> i & 1 == 1 {
                    '\u{200C}'
                } else {
                    '\u{200B}'
                });
            }
            run.push('\u{2060}');
        }
        assert_eq!(decode_run(&run).as_deref(), Some("curl x"));
    }

    #[test]
    fn short_runs_are_not_text() {
        assert_eq!(decode_run(&['\u{200B}', '\u{200C}']), None);
    }
}

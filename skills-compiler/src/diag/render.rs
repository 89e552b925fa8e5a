//! One diagnostic as rustc prints one: header, `-->` location, the source
//! line with carets under the label, `= help:`.
//!
//! The CLI's human output and the `skills_bundle!` compile errors both use
//! this, so a problem reads the same in a terminal and in `cargo build`.
//! The source line is shown as a terminal shows it: tabs become four spaces,
//! East Asian wide characters take two columns, and invisible or control
//! characters are replaced by a visible placeholder, so the carets line up
//! with what the user sees.

use std::borrow::Cow;
use std::fmt::{self, Write};
use std::path::Path;

use crate::diag::{Diagnostic, Label, Severity};

/// The diagnostic as text ending in a blank line, with ANSI colours if `color`.
pub fn diagnostic(d: &Diagnostic, color: bool) -> String {
    let style = if color { Style::ANSI } else { Style::PLAIN };
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_diagnostic(&mut out, d, &style);
    out
}

/// Formats a count with thousands separators: `10,000`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and its noun, plural unless one: `1 skill`, `2 skills`,
/// `1,204 skills`. Every noun the tools count takes a plain `s`.
pub fn count(n: u64, noun: &str) -> String {
    let plural = if n == 1 { "" } else { "s" };
    format!("{} {noun}{plural}", thousands(n))
}

/// A text as a message quotes it: whole up to `max` characters; longer,
/// its first `max - max / 16` characters, `…`, and its last `max / 16`, so
/// that an absurd value cannot make an absurd message while both of its
/// ends stay visible. Fed one character at a time ([`Ends::push`]), it
/// keeps no more than it quotes.
#[derive(Debug, Clone)]
pub struct Ends {
    max: usize,
    len: usize,
    head: String,
    tail: std::collections::VecDeque<char>,
}

impl Ends {
    /// Quotes at most `max` characters (a longer text is cut to as many).
    pub fn new(max: usize) -> Ends {
        Ends {
            max,
            len: 0,
            head: String::new(),
            tail: std::collections::VecDeque::new(),
        }
    }

    /// The next character of the text.
    pub fn push(&mut self, c: char) {
        self.len += 1;
        if self.len <= self.max {
            self.head.push(c);
            return;
        }
        if self.tail.len() == self.max / 16 {
            self.tail.pop_front();
        }
        if self.max >= 16 {
            self.tail.push_back(c);
        }
    }

    /// The number of characters pushed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The whole text, when it has at most `max` characters.
    pub fn whole(&self) -> Option<&str> {
        (self.len <= self.max).then_some(self.head.as_str())
    }

    /// The text as quoted: whole, or its two ends around `…`.
    pub fn quoted(&self) -> String {
        if self.len <= self.max {
            return self.head.clone();
        }
        // The last `max / 16` characters: those pushed after the head, and
        // before them (a text just over `max`) the head's last ones.
        let t = self.max / 16;
        let keep = self.max - t;
        let from_head = t - self.tail.len();
        let mut out: String = self.head.chars().take(keep).collect();
        out.push('…');
        out.extend(self.head.chars().skip(self.max - from_head));
        out.extend(self.tail.iter());
        out
    }
}

/// `text` as [`Ends`] quotes it in at most `max` characters.
pub fn elided(text: &str, max: usize) -> String {
    let mut ends = Ends::new(max);
    text.chars().for_each(|c| ends.push(c));
    ends.quoted()
}

/// Text safe to print on a terminal: control, invisible and
/// bidirectional-control characters become visible placeholders (as in the
/// source snippet), so that a file name cannot move the cursor, recolour the
/// terminal or hide text. Line breaks are kept; each line is shown alone.
pub fn shown(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        let code = u32::from(c);
        c != '\n' && (code < 0x20 || code == 0x7f || is_hidden(c))
    };
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\n' {
            out.push(c);
        } else {
            push_shown(&mut out, c);
        }
    }
    Cow::Owned(out)
}

/// A path as text with `/` separators on every platform.
pub fn path_string(path: &Path) -> String {
    let text = path.to_string_lossy();
    if cfg!(windows) {
        text.replace('\\', "/")
    } else {
        text.into_owned()
    }
}

/// ANSI sequences, or empty strings when colour is off.
struct Style {
    error: &'static str,
    warning: &'static str,
    gutter: &'static str,
    bold: &'static str,
    reset: &'static str,
}

impl Style {
    const PLAIN: Style = Style {
        error: "",
        warning: "",
        gutter: "",
        bold: "",
        reset: "",
    };
    const ANSI: Style = Style {
        error: "\x1b[1;31m",
        warning: "\x1b[1;33m",
        gutter: "\x1b[1;34m",
        bold: "\x1b[1m",
        reset: "\x1b[0m",
    };
}

fn write_diagnostic(out: &mut String, d: &Diagnostic, style: &Style) -> fmt::Result {
    let Style {
        gutter,
        bold,
        reset,
        ..
    } = *style;
    let severity = match d.severity {
        Severity::Error => style.error,
        Severity::Warning => style.warning,
    };
    writeln!(
        out,
        "{severity}{}[{}]{reset}{bold}: {}{reset}",
        d.severity.as_str(),
        d.code,
        shown(&d.message)
    )?;

    let width = d
        .label
        .as_ref()
        .map_or(1, |l| l.start.line.to_string().len());
    let pad = " ".repeat(width);
    let path = path_string(&d.path);
    let path = shown(&path);
    match &d.label {
        Some(label) => {
            let (line, from, len) = windowed(label);
            writeln!(
                out,
                "{pad}{gutter}-->{reset} {path}:{}:{}",
                label.start.line, label.start.column
            )?;
            writeln!(out, "{pad} {gutter}|{reset}")?;
            let sep = if line.is_empty() { "" } else { " " };
            writeln!(out, "{gutter}{} |{reset}{sep}{line}", label.start.line)?;
            writeln!(
                out,
                "{pad} {gutter}|{reset} {}{severity}{}{reset}",
                " ".repeat(from),
                "^".repeat(len)
            )?;
        }
        None => writeln!(out, "{pad}{gutter}-->{reset} {path}")?,
    }
    if let Some(help) = &d.help {
        let help = shown(help);
        let mut lines = help.lines();
        let first = lines.next().unwrap_or_default();
        writeln!(out, "{pad} {gutter}={reset} {bold}help{reset}: {first}")?;
        let indent = " ".repeat(width + " = help: ".len());
        for rest in lines {
            writeln!(out, "{indent}{rest}")?;
        }
    }
    writeln!(out)
}

/// Lines wider than this are cut to a window around the label.
const MAX_WIDTH: usize = 120;
/// Characters shown before the label in a cut line.
const CONTEXT: usize = 24;

/// The source line as shown, and where the carets start and how many there
/// are. A long line (a 1,000-character description) is cut to a window
/// around the label, with `...` marking what is left out, as rustc does.
fn windowed(label: &Label) -> (String, usize, usize) {
    let (line, columns) = display_line(&label.line_text);
    let (from, len) = caret_span(label, &columns);
    if columns.last().copied().unwrap_or(0) <= MAX_WIDTH {
        return (line, from, len);
    }
    let chars: Vec<char> = label.line_text.chars().collect();
    let start = label.start.column.saturating_sub(1).min(chars.len());
    let first = start.saturating_sub(CONTEXT);
    let mut text = String::new();
    if first > 0 {
        text.push_str("...");
    }
    let lead = text.chars().count();
    let mut width = 0;
    let mut last = first;
    for &c in &chars[first..] {
        let mut shown = String::new();
        let w = push_shown(&mut shown, c);
        if width + w > MAX_WIDTH - 6 {
            break;
        }
        width += w;
        text.push_str(&shown);
        last += 1;
    }
    if last < chars.len() {
        text.push_str("...");
    }
    let before: usize = chars[first..start]
        .iter()
        .map(|&c| push_shown(&mut String::new(), c))
        .sum();
    let from = lead + before;
    let visible = (lead + width).saturating_sub(from).max(1);
    (text, from, len.min(visible))
}

/// The line as a terminal should show it, and the display column where each
/// character starts (one entry per character, plus the total width at the end).
fn display_line(text: &str) -> (String, Vec<usize>) {
    let mut shown = String::with_capacity(text.len());
    let mut columns = Vec::with_capacity(text.len() + 1);
    let mut at = 0;
    for c in text.chars() {
        columns.push(at);
        at += push_shown(&mut shown, c);
    }
    columns.push(at);
    (shown, columns)
}

/// Where the carets start and how many there are: the label's columns on its
/// start line, to the end of the line when it spans lines, at least one.
fn caret_span(label: &Label, columns: &[usize]) -> (usize, usize) {
    let chars = columns.len() - 1;
    let total = columns[chars];
    // Columns are 1-based characters; past the end of the line, one column each.
    let display = |column: usize| {
        let i = column.saturating_sub(1);
        columns
            .get(i)
            .copied()
            .unwrap_or_else(|| total + (i - chars))
    };
    let from = display(label.start.column);
    let to = if label.end.line == label.start.line {
        display(label.end.column)
    } else {
        total
    };
    (from, to.saturating_sub(from).max(1))
}

/// Appends what a terminal should show for `c` and returns its width in columns.
fn push_shown(shown: &mut String, c: char) -> usize {
    let code = u32::from(c);
    match c {
        '\t' => {
            shown.push_str("    ");
            4
        }
        // C0 controls and DEL as their Control Pictures (U+2400..), like rustc.
        _ if code < 0x20 || code == 0x7f => {
            let picture = if code == 0x7f { 0x2421 } else { 0x2400 + code };
            shown.push(char::from_u32(picture).unwrap_or('\u{FFFD}'));
            1
        }
        _ if is_hidden(c) => {
            shown.push('\u{FFFD}');
            1
        }
        _ => {
            shown.push(c);
            char_width(code)
        }
    }
}

/// C1 controls, the line and paragraph separators, and every character the
/// lint and the scanner call invisible ([`skills_core::invisible`]): shown
/// as U+FFFD so that they cannot hide, reorder or break text.
fn is_hidden(c: char) -> bool {
    matches!(c, '\u{80}'..='\u{9F}' | '\u{2028}' | '\u{2029}')
        || skills_core::invisible::is_invisible(c)
}

/// Terminal width of a printable character: 0 for combining marks and
/// variation selectors, 2 for East Asian wide and fullwidth characters and
/// emoji, 1 otherwise. Covers the common ranges, not the whole Unicode table.
fn char_width(code: u32) -> usize {
    match code {
        0x0300..=0x036f
        | 0x1ab0..=0x1aff
        | 0x1dc0..=0x1dff
        | 0x20d0..=0x20ff
        | 0xfe00..=0xfe0f
        | 0xfe20..=0xfe2f
        | 0xe0100..=0xe01ef => 0,
        0x1100..=0x115f                // Hangul Jamo initials
        | 0x231a..=0x231b              // watch, hourglass
        | 0x2329..=0x232a
        | 0x23e9..=0x23ec
        | 0x23f0
        | 0x23f3
        | 0x25fd..=0x25fe
        | 0x2614..=0x2615
        | 0x2648..=0x2653
        | 0x267f
        | 0x2693
        | 0x26a1
        | 0x26aa..=0x26ab
        | 0x26bd..=0x26be
        | 0x26c4..=0x26c5
        | 0x26ce
        | 0x26d4
        | 0x26ea
        | 0x26f2..=0x26f3
        | 0x26f5
        | 0x26fa
        | 0x26fd
        | 0x2705
        | 0x270a..=0x270b
        | 0x2728
        | 0x274c
        | 0x274e
        | 0x2753..=0x2755
        | 0x2757
        | 0x2795..=0x2797
        | 0x27b0
        | 0x27bf
        | 0x2b1b..=0x2b1c
        | 0x2b50
        | 0x2b55
        | 0x2e80..=0x303e              // CJK radicals, Kangxi, CJK punctuation
        | 0x3041..=0x33ff              // kana, Bopomofo, Hangul compatibility, CJK compatibility
        | 0x3400..=0x4dbf              // CJK extension A
        | 0x4e00..=0x9fff              // CJK unified ideographs
        | 0xa000..=0xa4cf              // Yi
        | 0xa960..=0xa97f              // Hangul Jamo extended A
        | 0xac00..=0xd7a3              // Hangul syllables
        | 0xf900..=0xfaff              // CJK compatibility ideographs
        | 0xfe10..=0xfe19              // vertical forms
        | 0xfe30..=0xfe6f              // CJK compatibility and small forms
        | 0xff00..=0xff60              // fullwidth forms
        | 0xffe0..=0xffe6
        | 0x16fe0..=0x16fe4
        | 0x17000..=0x18cff            // Tangut
        | 0x1b000..=0x1b2ff            // kana supplement and extensions
        | 0x1f004
        | 0x1f0cf
        | 0x1f18e
        | 0x1f191..=0x1f19a
        | 0x1f200..=0x1f251            // enclosed ideographic supplement
        | 0x1f300..=0x1f64f            // pictographs, emoticons
        | 0x1f680..=0x1f6ff            // transport and map symbols
        | 0x1f7e0..=0x1f7eb
        | 0x1f900..=0x1f9ff            // supplemental symbols and pictographs
        | 0x1fa70..=0x1faff
        | 0x20000..=0x2fffd            // CJK extensions B..
        | 0x30000..=0x3fffd => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_singular_only_for_one() {
        use super::count;
        assert_eq!(count(0, "skill"), "0 skills");
        assert_eq!(count(1, "skill"), "1 skill");
        assert_eq!(count(2, "folder"), "2 folders");
        assert_eq!(count(1_204, "file"), "1,204 files");
    }

    #[test]
    fn long_texts_are_quoted_by_their_ends() {
        use super::elided;
        assert_eq!(elided("abc", 32), "abc");
        assert_eq!(elided(&"x".repeat(32), 32), "x".repeat(32));
        let text: String = ('a'..='z').chain('A'..='Z').collect();
        // 32: the first 30, `…`, the last 2.
        assert_eq!(
            elided(&text[..33], 32),
            format!("{}…{}", &text[..30], &text[31..33])
        );
        assert_eq!(elided(&text, 32), format!("{}…YZ", &text[..30]));
        let quoted = elided(&"ﷺ".repeat(2_000_000), 1_024);
        assert_eq!(quoted.chars().count(), 1_025);
        assert!(quoted.starts_with('ﷺ') && quoted.ends_with('ﷺ'));
    }

    use super::*;

    #[test]
    fn long_lines_are_cut_around_the_label() {
        let text = format!("description: {}", "x".repeat(1100));
        let src = crate::source::Source::new("s/SKILL.md", text.clone().into_bytes());
        let (line, from, len) = windowed(&Label::new(&src, 13..text.len()));
        assert!(
            line.starts_with("description: x") && line.ends_with("..."),
            "{line}"
        );
        assert!(line.chars().count() <= MAX_WIDTH);
        assert_eq!(from, 13);
        assert!(len < MAX_WIDTH);
        let (line, from, _) = windowed(&Label::new(&src, 600..601));
        assert!(line.starts_with("...x") && line.ends_with("..."), "{line}");
        assert_eq!(from, 3 + CONTEXT);
    }

    #[test]
    fn invisible_and_control_characters_are_shown() {
        let line = "a\u{200b}b\u{1}c\u{301}🎉d";
        let (shown, columns) = display_line(line);
        assert_eq!(shown, "a\u{fffd}b\u{2401}c\u{301}🎉d");
        assert_eq!(columns, [0, 1, 2, 3, 4, 5, 5, 7, 8]);
        assert_eq!(display_line("ｈｉ한").1, [0, 2, 4, 6]);
    }

    #[test]
    fn what_the_lint_and_the_scanner_call_invisible_is_never_printed() {
        for c in (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| skills_core::invisible::is_invisible(c))
        {
            let text = format!("a{c}b");
            assert_eq!(shown(&text), "a\u{fffd}b", "U+{:04X}", c as u32);
            assert_eq!(display_line(&text).0, "a\u{fffd}b", "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn control_characters_in_paths_messages_and_help_are_shown_not_sent() {
        use crate::diag::{Code, Severity};
        let dir = "skills/a\u{1b}[31mred\u{202e}/SKILL.md";
        let d = Diagnostic::new(
            Code::NameDirMismatch,
            Severity::Error,
            Path::new(dir),
            "`name` is `x` but the directory is `a\u{1b}[31mred`",
        )
        .help("rename `a\u{1b}[2J`\nor not");
        let text = diagnostic(&d, false);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{text:?}"
        );
        assert_eq!(
            text,
            "error[SK209]: `name` is `x` but the directory is `a\u{241b}[31mred`\n --> skills/a\u{241b}[31mred\u{fffd}/SKILL.md\n  = help: rename `a\u{241b}[2J`\n          or not\n\n"
        );
        assert!(matches!(shown("plain `text`\n"), Cow::Borrowed(_)));
    }
}

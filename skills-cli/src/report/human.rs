//! Human output: every diagnostic the way rustc prints one (header, `-->`
//! location, the source line with carets under the label, `= help:`), then a
//! blank line and one summary line.
//!
//! The source line is shown as a terminal shows it: tabs become four spaces,
//! East Asian wide characters take two columns, and invisible or control
//! characters are replaced by a visible placeholder, so the carets line up
//! with what the user sees. This module also owns the pieces the other
//! renderers share: the summary line and the `/`-separated path text.

use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use skills_bundle::compiler::{Diagnostic, Label, Severity};

use super::{Checked, Summary};

/// Writes every diagnostic, grouped by skill in the given order, then the summary line.
pub fn render(
    out: &mut dyn Write,
    checked: &[Checked<'_>],
    summary: &Summary,
    color: bool,
) -> io::Result<()> {
    let style = if color { Style::ANSI } else { Style::PLAIN };
    for diagnostic in checked.iter().flat_map(|c| c.diagnostics) {
        write_diagnostic(out, diagnostic, &style)?;
    }
    writeln!(out, "{}", summary_line(summary))
}

/// The closing line, for example
/// `checked 454 skills in 23 ms: 389 valid, 65 invalid (70 errors, 12 warnings)`
/// or `checked 4 skills in 2 ms: all valid`.
pub fn summary_line(summary: &Summary) -> String {
    let mut line = format!(
        "checked {} in {}",
        count(summary.skills, "skill"),
        format_elapsed(summary.elapsed)
    );
    let invalid = summary.skills.saturating_sub(summary.valid);
    if summary.skills > 0 {
        if invalid == 0 {
            line.push_str(": all valid");
        } else {
            line.push_str(&format!(
                ": {} valid, {} invalid",
                thousands(summary.valid),
                thousands(invalid)
            ));
        }
    }
    let mut counts = Vec::new();
    if summary.errors > 0 {
        counts.push(count(summary.errors, "error"));
    }
    if summary.warnings > 0 {
        counts.push(count(summary.warnings, "warning"));
    }
    if !counts.is_empty() {
        line.push_str(&format!(" ({})", counts.join(", ")));
    }
    line
}

/// `0.4 ms` under a millisecond, `23 ms` under ten seconds, `12.3 s` above.
pub fn format_elapsed(elapsed: Duration) -> String {
    let micros = elapsed.as_micros();
    if micros < 950 {
        let tenths = (micros + 50) / 100;
        format!("{}.{} ms", tenths / 10, tenths % 10)
    } else if micros < 9_999_500 {
        format!("{} ms", (micros + 500) / 1000)
    } else {
        let tenths = (micros + 50_000) / 100_000;
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
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

/// `1 skill`, `2 skills`, `1,204 skills`.
fn count(n: usize, noun: &str) -> String {
    let plural = if n == 1 { "" } else { "s" };
    format!("{} {noun}{plural}", thousands(n))
}

/// `1204` as `1,204`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
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

fn write_diagnostic(out: &mut dyn Write, d: &Diagnostic, style: &Style) -> io::Result<()> {
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
        d.message
    )?;

    let width = d
        .label
        .as_ref()
        .map_or(1, |l| l.start.line.to_string().len());
    let pad = " ".repeat(width);
    let path = path_string(&d.path);
    match &d.label {
        Some(label) => {
            let (line, columns) = display_line(&label.line_text);
            let (from, len) = caret_span(label, &columns);
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
        _ if is_invisible(code) => {
            shown.push('\u{FFFD}');
            1
        }
        _ => {
            shown.push(c);
            char_width(code)
        }
    }
}

/// C1 controls, zero-width and bidirectional-control characters, the BOM and
/// tag characters: shown as U+FFFD so that they cannot hide or reorder text.
fn is_invisible(code: u32) -> bool {
    matches!(
        code,
        0x80..=0x9f
            | 0x200b..=0x200f
            | 0x2028..=0x202e
            | 0x2060..=0x2064
            | 0x2066..=0x2069
            | 0xfeff
            | 0xe0000..=0xe007f
    )
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

/// Hand-built diagnostics that every renderer's tests share, so their golden
/// outputs describe the same input.
#[cfg(test)]
pub(super) mod fixture {
    use std::path::PathBuf;
    use std::time::Duration;

    use skills_bundle::compiler::{Code, Diagnostic, Severity, Source};

    use crate::report::{Checked, Summary};

    /// The `SKILL.md` of `skills/MySkill`: an uppercase name, and a tab and CJK
    /// characters before a `<` in the description.
    pub const SKILL_MD: &str =
        "---\nname: MySkill\ndescription:\tUses 日本語 <b> text.\n---\n# Body\n";

    /// Owned data behind a `Checked` list.
    pub struct Fixture {
        pub skills: Vec<(PathBuf, Option<&'static str>, Vec<Diagnostic>)>,
    }

    impl Fixture {
        pub fn checked(&self) -> Vec<Checked<'_>> {
            self.skills
                .iter()
                .map(|(dir, name, diagnostics)| Checked {
                    dir,
                    name: *name,
                    diagnostics,
                })
                .collect()
        }

        pub fn summary(&self, elapsed: Duration) -> Summary {
            Summary::of(&self.checked(), elapsed)
        }
    }

    /// Three skills: one with an error and a warning (both labelled), one with
    /// an unlabelled error, one clean.
    pub fn sample() -> Fixture {
        let src = Source::new("skills/MySkill/SKILL.md", SKILL_MD.as_bytes().to_vec());
        let name = SKILL_MD.find("MySkill").unwrap_or_default();
        let angle = SKILL_MD.find("<b>").unwrap_or_default();
        let lowercase = Diagnostic::new(
            Code::NameNotLowercase,
            Severity::Error,
            src.path(),
            "`name` must be lowercase",
        )
        .at(&src, name..name + "MySkill".len())
        .help("use `myskill`, and rename the directory to match")
        .reference("Skill name 'MySkill' should be lowercase");
        let brackets = Diagnostic::new(
            Code::DescriptionAngleBrackets,
            Severity::Warning,
            src.path(),
            "`description` contains `<`",
        )
        .at(&src, angle..angle + 3);
        let missing = Diagnostic::new(
            Code::MissingSkillMd,
            Severity::Error,
            std::path::Path::new("skills/no md"),
            "no `SKILL.md` in `skills/no md`",
        )
        .help("create one or remove the directory");
        Fixture {
            skills: vec![
                (
                    PathBuf::from("skills/MySkill"),
                    Some("MySkill"),
                    vec![lowercase, brackets],
                ),
                (PathBuf::from("skills/no md"), None, vec![missing]),
                (PathBuf::from("skills/fine"), Some("fine"), Vec::new()),
            ],
        }
    }

    pub const ELAPSED: Duration = Duration::from_millis(23);
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::Duration;

    use skills_bundle::compiler::{Code, Diagnostic, Severity, Source};

    use super::fixture::{ELAPSED, sample};
    use super::*;

    fn rendered(checked: &[Checked<'_>], summary: &Summary, color: bool) -> String {
        let mut out = Vec::new();
        render(&mut out, checked, summary, color).expect("writing to a Vec cannot fail");
        String::from_utf8(out).expect("the output is UTF-8")
    }

    fn one(d: Diagnostic) -> String {
        let dir = Path::new("s");
        let diagnostics = [d];
        let checked = [Checked {
            dir,
            name: None,
            diagnostics: &diagnostics,
        }];
        let summary = Summary::of(&checked, Duration::from_millis(1));
        let text = rendered(&checked, &summary, false);
        text.split_once("\n\n")
            .map(|(d, _)| d.to_owned())
            .unwrap_or(text)
    }

    fn summary(skills: usize, valid: usize, errors: usize, warnings: usize, ms: u64) -> String {
        summary_line(&Summary {
            skills,
            valid,
            errors,
            warnings,
            elapsed: Duration::from_millis(ms),
        })
    }

    #[test]
    fn golden_plain() {
        let f = sample();
        let text = rendered(&f.checked(), &f.summary(ELAPSED), false);
        let expected = "\
error[SK205]: `name` must be lowercase
 --> skills/MySkill/SKILL.md:2:7
  |
2 | name: MySkill
  |       ^^^^^^^
  = help: use `myskill`, and rename the directory to match

warning[SK306]: `description` contains `<`
 --> skills/MySkill/SKILL.md:3:23
  |
3 | description:    Uses 日本語 <b> text.
  |                             ^^^

error[SK003]: no `SKILL.md` in `skills/no md`
 --> skills/no md
  = help: create one or remove the directory

checked 3 skills in 23 ms: 1 valid, 2 invalid (2 errors, 1 warning)
";
        assert_eq!(text, expected);
    }

    #[test]
    fn golden_color() {
        let f = sample();
        let checked = f.checked();
        let text = rendered(&checked[..1], &f.summary(ELAPSED), true);
        let first = text.split("\n\n").next().unwrap_or_default();
        let expected = "\
\x1b[1;31merror[SK205]\x1b[0m\x1b[1m: `name` must be lowercase\x1b[0m
 \x1b[1;34m-->\x1b[0m skills/MySkill/SKILL.md:2:7
  \x1b[1;34m|\x1b[0m
\x1b[1;34m2 |\x1b[0m name: MySkill
  \x1b[1;34m|\x1b[0m       \x1b[1;31m^^^^^^^\x1b[0m
  \x1b[1;34m=\x1b[0m \x1b[1mhelp\x1b[0m: use `myskill`, and rename the directory to match";
        assert_eq!(first, expected);
        assert!(text.contains("\x1b[1;33mwarning[SK306]\x1b[0m"));
        assert!(!rendered(&checked, &f.summary(ELAPSED), false).contains('\x1b'));
    }

    #[test]
    fn multi_line_label_runs_to_the_end_of_the_line() {
        let src = Source::new("a/SKILL.md", b"---\nname: [a,\n  b]\n---\n".to_vec());
        let d = Diagnostic::new(Code::YamlFlowStyle, Severity::Error, src.path(), "flow")
            .at(&src, 10..18);
        assert_eq!(
            one(d),
            "error[SK107]: flow\n --> a/SKILL.md:2:7\n  |\n2 | name: [a,\n  |       ^^^"
        );
    }

    #[test]
    fn empty_labels_and_labels_past_the_end_get_one_caret() {
        let src = Source::new("a/SKILL.md", b"---\nname:\n".to_vec());
        let d =
            Diagnostic::new(Code::MissingName, Severity::Error, src.path(), "empty").at(&src, 9..9);
        assert_eq!(
            one(d),
            "error[SK202]: empty\n --> a/SKILL.md:2:6\n  |\n2 | name:\n  |      ^"
        );
        let src = Source::new("b/SKILL.md", b"---\n".to_vec());
        let d = Diagnostic::new(
            Code::UnclosedFrontmatter,
            Severity::Error,
            src.path(),
            "eof",
        )
        .at(&src, 4..4);
        assert_eq!(
            one(d),
            "error[SK105]: eof\n --> b/SKILL.md:2:1\n  |\n2 |\n  | ^"
        );
    }

    #[test]
    fn wide_gutter_and_multi_line_help() {
        let text = "x\n".repeat(120);
        let src = Source::new("c/SKILL.md", text.into_bytes());
        let d = Diagnostic::new(Code::SkillMdTooLong, Severity::Warning, src.path(), "long")
            .at(&src, 200..201)
            .help("split it\ninto references");
        assert_eq!(
            one(d),
            "warning[SK301]: long\n   --> c/SKILL.md:101:1\n    |\n101 | x\n    | ^\n    = help: split it\n            into references"
        );
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
    fn summary_pluralises() {
        assert_eq!(
            summary(4, 4, 0, 0, 2),
            "checked 4 skills in 2 ms: all valid"
        );
        assert_eq!(summary(1, 1, 0, 0, 2), "checked 1 skill in 2 ms: all valid");
        assert_eq!(
            summary(1, 1, 0, 1, 2),
            "checked 1 skill in 2 ms: all valid (1 warning)"
        );
        assert_eq!(
            summary(1, 0, 1, 0, 2),
            "checked 1 skill in 2 ms: 0 valid, 1 invalid (1 error)"
        );
        assert_eq!(
            summary(454, 389, 70, 12, 23),
            "checked 454 skills in 23 ms: 389 valid, 65 invalid (70 errors, 12 warnings)"
        );
        assert_eq!(
            summary(1204, 1203, 2, 1, 23),
            "checked 1,204 skills in 23 ms: 1,203 valid, 1 invalid (2 errors, 1 warning)"
        );
        assert_eq!(summary(0, 0, 1, 0, 2), "checked 0 skills in 2 ms (1 error)");
    }

    #[test]
    fn elapsed_formats() {
        let us = Duration::from_micros;
        assert_eq!(format_elapsed(us(0)), "0.0 ms");
        assert_eq!(format_elapsed(us(420)), "0.4 ms");
        assert_eq!(format_elapsed(us(949)), "0.9 ms");
        assert_eq!(format_elapsed(us(960)), "1 ms");
        assert_eq!(format_elapsed(us(23_400)), "23 ms");
        assert_eq!(format_elapsed(us(9_999_000)), "9999 ms");
        assert_eq!(format_elapsed(us(9_999_600)), "10.0 s");
        assert_eq!(format_elapsed(Duration::from_millis(12_345)), "12.3 s");
    }
}

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
use std::time::Duration;

pub use skills_compiler::render::path_string;
use skills_compiler::render::{self, count, thousands};

use super::{Checked, Summary};

/// Writes every diagnostic, grouped by skill in the given order, then the summary line.
pub fn render(
    out: &mut dyn Write,
    checked: &[Checked<'_>],
    summary: &Summary,
    color: bool,
) -> io::Result<()> {
    for diagnostic in checked.iter().flat_map(|c| c.diagnostics) {
        out.write_all(render::diagnostic(diagnostic, color).as_bytes())?;
    }
    let notes: Vec<String> = checked
        .iter()
        .flat_map(|c| super::clients::notes(c.dir, c.clients, c.differences))
        .collect();
    for line in &notes {
        writeln!(out, "{}", render::shown(line))?;
    }
    if !notes.is_empty() {
        writeln!(out)?;
    }
    writeln!(out, "{}", summary_line(summary))
}

/// The closing line, for example
/// `checked 454 skills in 23 ms: 389 valid, 65 invalid (70 errors, 12 warnings)`
/// or `checked 4 skills in 2 ms: all valid`.
pub fn summary_line(summary: &Summary) -> String {
    let mut line = format!(
        "checked {} in {}",
        count(summary.skills as u64, "skill"),
        format_elapsed(summary.elapsed)
    );
    let invalid = summary.skills.saturating_sub(summary.valid);
    if summary.skills > 0 {
        // "all valid" only when nothing failed: an error outside every skill
        // (a path that does not exist, a limit reached) fails the run too.
        if invalid == 0 && summary.errors == 0 {
            line.push_str(": all valid");
        } else {
            line.push_str(&format!(
                ": {} valid, {} invalid",
                thousands(summary.valid as u64),
                thousands(invalid as u64)
            ));
        }
    }
    let mut counts = Vec::new();
    if summary.errors > 0 {
        counts.push(count(summary.errors as u64, "error"));
    }
    if summary.warnings > 0 {
        counts.push(count(summary.warnings as u64, "warning"));
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

/// Hand-built diagnostics that every renderer's tests share, so their golden
/// outputs describe the same input.
#[cfg(test)]
pub(super) mod fixture {
    use std::path::PathBuf;
    use std::time::Duration;

    use skills_compiler::{Code, Diagnostic, Severity, Source};

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
                    clients: &[],
                    differences: None,
                    dir,
                    name: *name,
                    diagnostics,
                    is_skill: true,
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

    use skills_compiler::{Code, Diagnostic, Severity, Source};

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
            is_skill: true,
            clients: &[],
            differences: None,
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
    fn an_error_outside_every_skill_is_never_all_valid() {
        // A path that does not exist beside one valid skill: the run exits 1.
        assert_eq!(
            summary(1, 1, 1, 0, 2),
            "checked 1 skill in 2 ms: 1 valid, 0 invalid (1 error)"
        );
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

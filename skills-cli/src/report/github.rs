//! GitHub Actions output: one `::error` or `::warning` workflow command per
//! diagnostic, which the runner turns into an annotation on the file and line,
//! then the plain summary line.
//!
//! Values are escaped as the Actions toolkit does: `%`, `\r` and `\n` in the
//! message; those plus `:` and `,` in properties.

use std::io::{self, Write};

use skills_compiler::Diagnostic;

use super::human::{path_string, summary_line};
use super::{Checked, Summary};

/// Writes one workflow command per diagnostic, then the summary line.
pub fn render(out: &mut dyn Write, checked: &[Checked<'_>], summary: &Summary) -> io::Result<()> {
    for diagnostic in checked.iter().flat_map(|c| c.diagnostics) {
        writeln!(out, "{}", command(diagnostic))?;
    }
    writeln!(out, "{}", summary_line(summary))
}

/// `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=SK205 slug::message (help: …)`.
fn command(d: &Diagnostic) -> String {
    let mut properties = vec![format!("file={}", escape_property(&path_string(&d.path)))];
    if let Some(l) = &d.label {
        properties.push(format!("line={}", l.start.line));
        properties.push(format!("col={}", l.start.column));
        properties.push(format!("endLine={}", l.end.line));
        properties.push(format!("endColumn={}", l.end.column));
    }
    properties.push(format!(
        "title={}",
        escape_property(&format!("{} {}", d.code, d.code.slug()))
    ));
    let message = match &d.help {
        Some(help) => format!("{} (help: {help})", d.message),
        None => d.message.clone(),
    };
    format!(
        "::{} {}::{}",
        d.severity.as_str(),
        properties.join(","),
        escape_data(&message)
    )
}

/// Escapes a command's message.
pub(super) fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property's value.
pub(super) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::Duration;

    use skills_compiler::{Code, Severity};

    use super::super::human::fixture::{ELAPSED, sample};
    use super::*;

    fn rendered(checked: &[Checked<'_>], summary: &Summary) -> String {
        let mut out = Vec::new();
        render(&mut out, checked, summary).expect("writing to a Vec cannot fail");
        String::from_utf8(out).expect("the output is UTF-8")
    }

    #[test]
    fn golden() {
        let f = sample();
        let text = rendered(&f.checked(), &f.summary(ELAPSED));
        let expected = "\
::error file=skills/MySkill/SKILL.md,line=2,col=7,endLine=2,endColumn=14,title=SK205 name-not-lowercase::`name` must be lowercase (help: use `myskill`, and rename the directory to match)
::warning file=skills/MySkill/SKILL.md,line=3,col=23,endLine=3,endColumn=26,title=SK306 description-angle-brackets::`description` contains `<`
::error file=skills/no md,title=SK003 missing-skill-md::no `SKILL.md` in `skills/no md` (help: create one or remove the directory)
checked 3 skills in 23 ms: 1 valid, 2 invalid (2 errors, 1 warning)
";
        assert_eq!(text, expected);
    }

    #[test]
    fn escaping() {
        assert_eq!(escape_data("50%\r\nnext: a,b"), "50%25%0D%0Anext: a,b");
        assert_eq!(escape_property("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");
        let d = Diagnostic::new(
            Code::InvalidYaml,
            Severity::Error,
            Path::new("odd,dir/x:y/SKILL.md"),
            "bad YAML: line 1\n100% wrong",
        )
        .help("fix it, then rerun");
        assert_eq!(
            command(&d),
            "::error file=odd%2Cdir/x%3Ay/SKILL.md,title=SK106 invalid-yaml::bad YAML: line 1%0A100%25 wrong (help: fix it, then rerun)"
        );
    }

    #[test]
    fn clean_run_is_only_the_summary() {
        let dir = Path::new("skills/fine");
        let checked = [Checked {
            clients: &[],
            differences: None,
            dir,
            name: Some("fine"),
            diagnostics: &[],
            is_skill: true,
        }];
        let summary = Summary::of(&checked, Duration::from_millis(2));
        assert_eq!(
            rendered(&checked, &summary),
            "checked 1 skill in 2 ms: all valid\n"
        );
    }
}

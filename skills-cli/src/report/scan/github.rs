//! GitHub Actions output of a scan: one workflow command per finding shown
//! (`::error` for high and critical, `::warning` for medium, `::notice`
//! below), which the runner turns into an annotation on the file and line,
//! then the plain summary line. Values are escaped as the validation's
//! GitHub output escapes them.

use std::io::{self, Write};

use skills_scan::Severity;

use super::summary_line;
use crate::report::github::{escape_data, escape_property};
use crate::scan::{Located, Scan};

/// Writes one command per finding shown, then the summary line.
pub fn render(out: &mut dyn Write, scan: &Scan) -> io::Result<()> {
    for skill in &scan.skills {
        for located in &skill.findings {
            writeln!(out, "{}", command(located))?;
        }
        if let Some(error) = &skill.error {
            writeln!(out, "::error::{}", escape_data(error))?;
        }
    }
    writeln!(out, "{}", summary_line(&scan.counts, scan.elapsed))
}

/// `::error file=…,line=…,col=…,title=SK630 download-execute::message`.
pub fn command(l: &Located) -> String {
    let f = &l.finding;
    let kind = match f.severity {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low | Severity::Info => "notice",
    };
    format!(
        "::{kind} file={},line={},col={},title={}::{}",
        escape_property(&l.file),
        f.line,
        f.column,
        escape_property(&format!("{} {}", f.rule.code, f.rule.name)),
        escape_data(&f.message),
    )
}

#[cfg(test)]
mod tests {
    use skills_scan::{Finding, rule};

    use super::*;

    #[test]
    fn commands_by_severity() {
        let located = |severity| Located {
            file: "odd,dir/SKILL.md".into(),
            finding: Finding {
                rule: rule("SK604").expect("a known code"),
                severity,
                path: "SKILL.md".into(),
                line: 3,
                column: 9,
                message: "50% hidden\nreally".into(),
                evidence: "x<U+200B>".into(),
                decoded: Vec::new(),
            },
        };
        assert_eq!(
            command(&located(Severity::High)),
            "::error file=odd%2Cdir/SKILL.md,line=3,col=9,title=SK604 hidden-text::50%25 hidden%0Areally"
        );
        assert!(command(&located(Severity::Medium)).starts_with("::warning "));
        assert!(command(&located(Severity::Low)).starts_with("::notice "));
        assert!(command(&located(Severity::Info)).starts_with("::notice "));
    }
}

//! Human output of a scan: each finding the way rustc prints a diagnostic
//! (`high[SK630 download-execute]: message`, the `-->` location, the
//! evidence under its line number, `= note:` for how it was hidden,
//! `= help:` for what an honest author does), then the files not scanned,
//! then one summary line.
//!
//! Everything taken from the skill (paths, messages, evidence) goes through
//! `shown`, so that no byte of a hostile file reaches the terminal as a
//! control sequence.

use std::io::{self, Write};

use skills_compiler::render::shown;
use skills_scan::Severity;

use super::summary_line;
use crate::scan::{Located, Scan};

/// Terminal styles.
struct Style {
    gutter: &'static str,
    bold: &'static str,
    reset: &'static str,
    color: bool,
}

impl Style {
    fn new(color: bool) -> Style {
        if color {
            Style {
                gutter: "\x1b[1;34m",
                bold: "\x1b[1m",
                reset: "\x1b[0m",
                color,
            }
        } else {
            Style {
                gutter: "",
                bold: "",
                reset: "",
                color,
            }
        }
    }

    fn severity(&self, severity: Severity) -> &'static str {
        if !self.color {
            return "";
        }
        match severity {
            Severity::Critical | Severity::High => "\x1b[1;31m",
            Severity::Medium => "\x1b[1;33m",
            Severity::Low => "\x1b[1;36m",
            Severity::Info => "\x1b[1;32m",
        }
    }
}

/// Writes every finding shown, skill by skill, then the summary line.
pub fn render(out: &mut dyn Write, scan: &Scan, color: bool) -> io::Result<()> {
    let style = Style::new(color);
    for skill in &scan.skills {
        for located in &skill.findings {
            out.write_all(finding(located, &style).as_bytes())?;
        }
        if let Some(error) = &skill.error {
            writeln!(out, "error: {}\n", shown(error))?;
        }
    }
    let skipped: Vec<_> = scan.skills.iter().flat_map(|s| &s.skipped).collect();
    for (file, why) in &skipped {
        writeln!(out, "note: not scanned: `{}`: {}", shown(file), shown(why))?;
    }
    if !skipped.is_empty() {
        writeln!(out)?;
    }
    writeln!(out, "{}", summary_line(&scan.counts, scan.elapsed))
}

/// One finding, with a blank line after it.
fn finding(located: &Located, style: &Style) -> String {
    let Style {
        gutter,
        bold,
        reset,
        ..
    } = *style;
    let f = &located.finding;
    let severity = style.severity(f.severity);
    let line = f.line.to_string();
    let pad = " ".repeat(line.len());
    let mut out = format!(
        "{severity}{}[{} {}]{reset}{bold}: {}{reset}\n",
        f.severity,
        f.rule.code,
        f.rule.name,
        shown(&f.message)
    );
    out.push_str(&format!(
        "{pad}{gutter}-->{reset} {}:{}:{}\n",
        shown(&located.file),
        f.line,
        f.column
    ));
    out.push_str(&format!("{pad} {gutter}|{reset}\n"));
    let evidence = shown(&f.evidence);
    let sep = if evidence.is_empty() { "" } else { " " };
    out.push_str(&format!("{gutter}{line} |{reset}{sep}{evidence}\n"));
    out.push_str(&format!("{pad} {gutter}|{reset}\n"));
    if !f.decoded.is_empty() {
        out.push_str(&format!(
            "{pad} {gutter}={reset} {bold}note{reset}: decoded from {}\n",
            f.decoded.join(" → ")
        ));
    }
    out.push_str(&format!(
        "{pad} {gutter}={reset} {bold}help{reset}: {}\n\n",
        f.rule.help
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_scan::{Finding, rule};

    fn located(code: &str, line: u32, decoded: Vec<&'static str>) -> Located {
        let rule = rule(code).expect("a known code");
        Located {
            file: "skills/a b/SKILL.md".into(),
            finding: Finding {
                rule,
                severity: Severity::High,
                path: "SKILL.md".into(),
                line,
                column: 7,
                message: "text hidden in\u{1b}[2J tag characters".into(),
                evidence: "Prefer active voice.<U+E0049>".into(),
                decoded,
            },
        }
    }

    #[test]
    fn golden() {
        let text = finding(
            &located("SK604", 12, vec!["base64", "zlib"]),
            &Style::new(false),
        );
        let help = rule("SK604").map_or("", |r| r.help);
        let expected = format!(
            "high[SK604 hidden-text]: text hidden in\u{241b}[2J tag characters
  --> skills/a b/SKILL.md:12:7
   |
12 | Prefer active voice.<U+E0049>
   |
   = note: decoded from base64 → zlib
   = help: {help}

"
        );
        assert_eq!(text, expected);
    }

    #[test]
    fn colour_only_when_asked() {
        let plain = finding(&located("SK604", 1, Vec::new()), &Style::new(false));
        assert!(!plain.contains('\x1b'));
        assert!(!plain.contains("note:"));
        let coloured = finding(&located("SK604", 1, Vec::new()), &Style::new(true));
        assert!(coloured.starts_with("\x1b[1;31mhigh[SK604 hidden-text]\x1b[0m"));
    }
}

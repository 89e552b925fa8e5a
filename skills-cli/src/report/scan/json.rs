//! JSON output of a scan: one pretty document, for scripts and for scoring
//! tools.
//!
//! The shape is versioned (`"version": 1`); fields are only ever added. It
//! follows the layout scanner-scoring tools read (a `results` array of
//! `skill_path` and `findings`, each finding with its `severity`), so that
//! a scan can be scored as it is written. Lines and columns count from 1,
//! columns in characters.

use std::io::{self, Write};

use skills_compiler::render::path_string;
use skills_scan::{Finding, Suppressed};

use crate::report::ordered::{Ordered, object, val, write_pretty};
use crate::report::{Checked, Summary};
use crate::scan::{Counts, Located, Scan, Scanned};

/// The version of the document's shape.
pub const VERSION: u32 = 1;

/// Writes the document, then a newline.
pub fn render(out: &mut dyn Write, scan: &Scan) -> io::Result<()> {
    write_pretty(out, &document(scan))
}

/// Writes the validation's document with this one as its member `scan`
/// (`skb validate --scan`).
pub fn render_with_validation(
    out: &mut dyn Write,
    checked: &[Checked<'_>],
    summary: &Summary,
    scan: &Scan,
) -> io::Result<()> {
    crate::report::json::render_with_scan(out, checked, summary, &document(scan))
}

fn document(scan: &Scan) -> Ordered {
    object([
        ("version", val(VERSION)),
        ("summary", summary(&scan.counts, scan)),
        (
            "results",
            Ordered::Array(scan.skills.iter().map(skill).collect()),
        ),
    ])
}

fn summary(counts: &Counts, scan: &Scan) -> Ordered {
    let at = |s| val(counts.at(s));
    use skills_scan::Severity::*;
    object([
        ("skills", val(counts.skills)),
        ("findings", val(counts.findings())),
        ("critical", at(Critical)),
        ("high", at(High)),
        ("medium", at(Medium)),
        ("low", at(Low)),
        ("info", at(Info)),
        ("not_shown", val(counts.hidden)),
        ("suppressed", val(counts.suppressed)),
        ("baselined", val(counts.baselined)),
        ("stale_baseline_entries", val(counts.stale)),
        ("files_not_scanned", val(counts.skipped)),
        ("skills_not_scanned", val(counts.failed)),
        ("failed", val(scan.failed)),
        ("elapsed_ms", val(scan.elapsed.as_micros() as f64 / 1000.0)),
    ])
}

fn skill(s: &Scanned) -> Ordered {
    object([
        ("skill_path", val(path_string(&s.dir))),
        ("error", val(s.error.as_deref())),
        (
            "findings",
            Ordered::Array(s.findings.iter().map(located).collect()),
        ),
        (
            "suppressed",
            Ordered::Array(
                s.suppressed
                    .iter()
                    .map(|(file, sup)| suppressed(file, sup))
                    .collect(),
            ),
        ),
        (
            "skipped",
            Ordered::Array(
                s.skipped
                    .iter()
                    .map(|(file, why)| {
                        object([("path", val(file.as_str())), ("reason", val(why.as_str()))])
                    })
                    .collect(),
            ),
        ),
    ])
}

fn located(l: &Located) -> Ordered {
    finding(&l.file, &l.finding)
}

/// A finding's fields, in the order every format lists them.
fn finding(file: &str, f: &Finding) -> Ordered {
    object([
        ("code", val(f.rule.code)),
        ("rule", val(f.rule.name)),
        ("severity", val(f.severity.as_str())),
        ("category", val(f.rule.category.as_str())),
        ("path", val(file)),
        ("line", val(f.line)),
        ("column", val(f.column)),
        ("message", val(f.message.as_str())),
        ("evidence", val(f.evidence.as_str())),
        ("decoded", val(f.decoded.clone())),
        ("fingerprint", val(f.fingerprint())),
        ("help", val(f.rule.help)),
    ])
}

fn suppressed(file: &str, s: &Suppressed) -> Ordered {
    object([
        ("finding", finding(file, &s.finding)),
        ("reason", val(s.reason.as_str())),
        ("marker_line", val(s.marker_line)),
    ])
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::{Value, json};
    use skills_scan::{Severity, rule};

    use super::*;

    fn sample() -> Scan {
        let rule = rule("SK604").expect("a known code");
        let finding = Finding {
            rule,
            severity: Severity::High,
            path: "SKILL.md".into(),
            line: 3,
            column: 5,
            message: "hidden".into(),
            evidence: "a<U+E0041>".into(),
            decoded: vec!["base64"],
        };
        let mut counts = Counts {
            skills: 1,
            suppressed: 1,
            ..Counts::default()
        };
        counts.by_severity[Severity::High as usize] = 1;
        Scan {
            skills: vec![Scanned {
                dir: "skills/a".into(),
                findings: vec![Located {
                    file: "skills/a/SKILL.md".into(),
                    finding: finding.clone(),
                }],
                suppressed: vec![(
                    "skills/a/SKILL.md".into(),
                    Suppressed {
                        finding: Finding { line: 9, ..finding },
                        reason: "a test fixture".into(),
                        marker_line: 8,
                    },
                )],
                skipped: vec![("skills/a/big.bin".into(), "too large".into())],
                error: None,
            }],
            counts,
            failed: true,
            current: Vec::new(),
            elapsed: Duration::from_micros(1500),
        }
    }

    #[test]
    fn shape() {
        let mut out = Vec::new();
        render(&mut out, &sample()).expect("writing to a Vec cannot fail");
        let doc: Value = serde_json::from_slice(&out).expect("the output parses");
        assert_eq!(doc["version"], 1);
        assert_eq!(doc["summary"]["high"], 1);
        assert_eq!(doc["summary"]["failed"], true);
        assert_eq!(doc["summary"]["elapsed_ms"], 1.5);
        let skill = &doc["results"][0];
        assert_eq!(skill["skill_path"], "skills/a");
        let f = &skill["findings"][0];
        let fingerprint = f["fingerprint"].as_str().expect("a fingerprint");
        assert_eq!(
            *f,
            json!({
                "code": "SK604", "rule": "hidden-text", "severity": "high",
                "category": "obfuscation", "path": "skills/a/SKILL.md", "line": 3, "column": 5,
                "message": "hidden", "evidence": "a<U+E0041>", "decoded": ["base64"],
                "fingerprint": fingerprint, "help": rule("SK604").map(|r| r.help),
            })
        );
        assert_eq!(skill["suppressed"][0]["reason"], "a test fixture");
        assert_eq!(skill["suppressed"][0]["finding"]["line"], 9);
        assert_eq!(skill["skipped"][0]["reason"], "too large");
    }
}

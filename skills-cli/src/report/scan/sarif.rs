//! SARIF 2.1.0 output of a scan, for GitHub code scanning and other SARIF
//! viewers.
//!
//! One run whose driver (`skb-scan`, so that it never shares a tool name
//! with the validation's run) lists every rule of `skills_scan::RULES`:
//! `id` the code, a PascalCase `name`, the summary, the help, and the
//! properties GitHub ranks security alerts by (`security-severity` of the
//! rule's default severity, `tags` `security` and the category,
//! `precision`). Each result carries its own `security-severity` and
//! `severity` (a finding may be more severe than its rule's default), a
//! `partialFingerprints` entry (`Finding::fingerprint`: the rule, the file
//! and the evidence, not the line), and, when an inline marker suppressed
//! it, a `suppressions` entry of kind `inSource` with the marker's reason.
//! Locations follow the validation's SARIF: relative URIs against
//! `%SRCROOT%` (the working directory) or `ROOT`.

use std::io::{self, Write};
use std::path::Path;

use skills_scan::{Finding, RULES, Rule, Severity};

use super::{GUIDE_URI, level};
use crate::report::Checked;
use crate::report::ordered::{Ordered, object, val, write_pretty};
use crate::report::sarif::{INFORMATION_URI, bases, envelope, location, pascal_case};
use crate::scan::Scan;

/// The driver's name.
const DRIVER: &str = "skb-scan";

/// The key of the fingerprint in `partialFingerprints`.
const FINGERPRINT: &str = "skbScanFingerprint/v1";

/// Writes the SARIF log of `scan`, then a newline.
pub fn render(out: &mut dyn Write, scan: &Scan) -> io::Result<()> {
    let cwd = std::env::current_dir()?;
    write_pretty(out, &envelope(vec![run(scan, &cwd)]))
}

/// Writes one log of two runs: the validation's, then the scan's.
pub fn render_with_validation(
    out: &mut dyn Write,
    checked: &[Checked<'_>],
    scan: &Scan,
) -> io::Result<()> {
    let cwd = std::env::current_dir()?;
    let runs = vec![crate::report::sarif::run(checked, &cwd), run(scan, &cwd)];
    write_pretty(out, &envelope(runs))
}

/// The scan's run.
fn run(scan: &Scan, cwd: &Path) -> Ordered {
    let mut results = Vec::new();
    for skill in &scan.skills {
        for l in &skill.findings {
            results.push(result(&l.file, &l.finding, None, cwd));
        }
        for (file, s) in &skill.suppressed {
            results.push(result(file, &s.finding, Some(&s.reason), cwd));
        }
    }
    let driver = object([
        ("name", val(DRIVER)),
        ("version", val(env!("CARGO_PKG_VERSION"))),
        ("informationUri", val(INFORMATION_URI)),
        ("rules", Ordered::Array(RULES.iter().map(rule).collect())),
    ]);
    object([
        ("tool", object([("driver", driver)])),
        ("originalUriBaseIds", bases(cwd)),
        ("columnKind", val("unicodeCodePoints")),
        ("results", Ordered::Array(results)),
    ])
}

fn rule(r: &Rule) -> Ordered {
    let full = format!("{} {}: {}.", r.code, r.name, r.summary);
    let help_text = format!(
        "{full}\nWhat to do: {}\nExample: {}\nSuppress one with a marker and a reason: `skb-scan: allow {} -- <why it is safe>`. Every rule is listed in the guide: {GUIDE_URI}",
        r.help, r.example, r.code
    );
    let help_markdown = format!(
        "{full}\n\n**What to do:** {}\n\n**Example:** {}\n\nSuppress one with a marker and a reason: `skb-scan: allow {} -- <why it is safe>`. Every rule is listed in the [guide]({GUIDE_URI}).",
        r.help,
        super::rules::code_span(r.example),
        r.code
    );
    object([
        ("id", val(r.code)),
        ("name", val(pascal_case(r.name))),
        ("shortDescription", object([("text", val(r.summary))])),
        ("fullDescription", object([("text", val(full))])),
        (
            "help",
            object([("text", val(help_text)), ("markdown", val(help_markdown))]),
        ),
        ("helpUri", val(GUIDE_URI)),
        (
            "defaultConfiguration",
            object([("level", val(level(r.severity)))]),
        ),
        (
            "properties",
            object([
                ("security-severity", val(r.severity.security_severity())),
                ("tags", val(vec!["security", r.category.as_str()])),
                ("precision", val(precision(r.severity))),
            ]),
        ),
    ])
}

/// SARIF's `precision` (how often a result is a true positive), until the
/// rule table records its own: the patterns behind critical and high rules
/// are specific (`high`), medium ones need a reviewer (`medium`), low and
/// informational ones are broad (`low`).
fn precision(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical | Severity::High => "high",
        Severity::Medium => "medium",
        Severity::Low | Severity::Info => "low",
    }
}

fn result(file: &str, f: &Finding, suppressed: Option<&str>, cwd: &Path) -> Ordered {
    let rule_index = RULES.iter().position(|r| r.code == f.rule.code);
    let region = object([
        ("startLine", val(f.line.max(1))),
        ("startColumn", val(f.column.max(1))),
    ]);
    let physical = object([
        ("artifactLocation", location(Path::new(file), cwd)),
        ("region", region),
    ]);
    let mut fields = vec![
        ("ruleId", val(f.rule.code)),
        ("ruleIndex", val(rule_index)),
        ("level", val(level(f.severity))),
        ("message", object([("text", val(f.message.as_str()))])),
        (
            "locations",
            Ordered::Array(vec![object([("physicalLocation", physical)])]),
        ),
        (
            "partialFingerprints",
            Ordered::Object(vec![(FINGERPRINT, val(f.fingerprint()))]),
        ),
        (
            "properties",
            object([
                ("security-severity", val(f.severity.security_severity())),
                ("severity", val(f.severity.as_str())),
                ("category", val(f.rule.category.as_str())),
                ("evidence", val(f.evidence.as_str())),
                ("decoded", val(f.decoded.clone())),
            ]),
        ),
    ];
    if let Some(reason) = suppressed {
        fields.push((
            "suppressions",
            Ordered::Array(vec![object([
                ("kind", val("inSource")),
                ("justification", val(reason)),
            ])]),
        ));
    }
    Ordered::Object(fields)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::Value;
    use skills_scan::{Suppressed, rule as rule_of};

    use super::*;
    use crate::scan::{Counts, Located, Scanned};

    fn finding(code: &str, severity: Severity) -> Finding {
        Finding {
            rule: rule_of(code).expect("a known code"),
            severity,
            path: "SKILL.md".into(),
            line: 2,
            column: 4,
            message: "m".into(),
            evidence: "e".into(),
            decoded: Vec::new(),
        }
    }

    fn log() -> Value {
        let scan = Scan {
            skills: vec![Scanned {
                dir: "s k".into(),
                findings: vec![Located {
                    file: "s k/SKILL.md".into(),
                    finding: finding("SK604", Severity::Critical),
                }],
                suppressed: vec![(
                    "s k/SKILL.md".into(),
                    Suppressed {
                        finding: finding("SK605", Severity::Low),
                        reason: "documented".into(),
                        marker_line: 1,
                    },
                )],
                skipped: Vec::new(),
                error: None,
            }],
            counts: Counts::default(),
            failed: false,
            current: Vec::new(),
            elapsed: Duration::ZERO,
        };
        let ordered = envelope(vec![run(&scan, Path::new("/work/repo"))]);
        let text = serde_json::to_string(&ordered).expect("a document serialises");
        serde_json::from_str(&text).expect("the output parses")
    }

    #[test]
    fn rules_come_from_the_table() {
        let log = log();
        assert_eq!(log["version"], "2.1.0");
        let driver = &log["runs"][0]["tool"]["driver"];
        assert_eq!(driver["name"], DRIVER);
        let rules = driver["rules"].as_array().expect("rules");
        assert_eq!(rules.len(), RULES.len());
        for (json, r) in rules.iter().zip(RULES) {
            assert_eq!(json["id"], r.code);
            assert_eq!(json["shortDescription"]["text"], r.summary);
            assert_eq!(
                json["properties"]["security-severity"],
                r.severity.security_severity()
            );
            assert_eq!(json["properties"]["tags"][0], "security");
            assert_eq!(json["properties"]["tags"][1], r.category.as_str());
            assert!(
                json["help"]["text"]
                    .as_str()
                    .is_some_and(|t| t.contains(r.help))
            );
            assert!(
                json["name"]
                    .as_str()
                    .is_some_and(|n| n.chars().all(|c| c.is_ascii_alphanumeric()))
            );
        }
    }

    #[test]
    fn results_carry_severity_fingerprint_and_suppression() {
        let log = log();
        let results = log["runs"][0]["results"].as_array().expect("results");
        assert_eq!(results.len(), 2);
        let hidden = &results[0];
        assert_eq!(hidden["ruleId"], "SK604");
        let index = hidden["ruleIndex"].as_u64().expect("an index") as usize;
        assert_eq!(
            log["runs"][0]["tool"]["driver"]["rules"][index]["id"],
            "SK604"
        );
        assert_eq!(hidden["level"], "error");
        assert_eq!(hidden["properties"]["security-severity"], "9.5");
        assert_eq!(hidden["properties"]["severity"], "critical");
        let location = &hidden["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "s%20k/SKILL.md");
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert_eq!(location["region"]["startLine"], 2);
        assert_eq!(location["region"]["startColumn"], 4);
        assert_eq!(
            hidden["partialFingerprints"][FINGERPRINT],
            finding("SK604", Severity::Critical).fingerprint()
        );
        assert!(hidden.get("suppressions").is_none());
        let quiet = &results[1];
        assert_eq!(quiet["level"], "note");
        assert_eq!(quiet["suppressions"][0]["kind"], "inSource");
        assert_eq!(quiet["suppressions"][0]["justification"], "documented");
    }
}

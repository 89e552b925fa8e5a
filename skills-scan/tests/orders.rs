//! Orders in the lexicon's languages, and benign sentences (negated, defensive,
//! descriptive) beside them: `tests/data/orders.tsv`, scanned one sentence
//! at a time as a reference file of a skill that also names a bare
//! address (so orders that need something to cover have it). The figures are the lexicon's (see
//! `src/lexicon.rs`): every benign sentence stays below medium, and the
//! orders are found at the recall the module documents.

use skills_scan::{Options, Severity, SkillFile, scan};

#[test]
fn orders_in_every_language() {
    let data = include_str!("data/orders.tsv");
    let (mut tp, mut fp, mut fn_) = (0, 0, 0);
    let mut wrong = Vec::new();
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut cols = line.splitn(3, '\t');
        let (Some(lang), Some(label), Some(text)) = (cols.next(), cols.next(), cols.next()) else {
            continue;
        };
        // Orders that move nothing by themselves (skip the confirmation,
        // keep it from the user) count where something in the skill is
        // what they would cover: here an address no service lives at, in
        // a file of its own, which the test does not count.
        let report = scan(
            &[
                SkillFile {
                    path: "references/a.md",
                    bytes: text.as_bytes(),
                },
                SkillFile {
                    path: "references/hosts.md",
                    bytes: b"Results: http://198.51.100.4/in\n",
                },
            ],
            &Options::default(),
        );
        let flagged = report
            .findings
            .iter()
            .any(|f| f.path == "references/a.md" && f.severity >= Severity::Medium);
        match (label, flagged) {
            ("order", true) => tp += 1,
            ("order", false) => {
                fn_ += 1;
                wrong.push(format!("missed {lang}: {text}"));
            }
            (_, true) => {
                fp += 1;
                wrong.push(format!("flagged {lang}: {text} {:?}", report.findings));
            }
            _ => {}
        }
    }
    let precision = f64::from(tp) / f64::from((tp + fp).max(1));
    let recall = f64::from(tp) / f64::from((tp + fn_).max(1));
    eprintln!("precision {precision:.2} recall {recall:.2} (tp {tp} fp {fp} fn {fn_})");
    for w in &wrong {
        eprintln!("{w}");
    }
    assert_eq!(fp, 0, "{wrong:#?}");
    assert!(recall >= 0.9, "{recall}: {wrong:#?}");
}

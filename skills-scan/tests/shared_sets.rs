//! The acceptance gate on the shared sets (`../shared` beside the
//! repository): every labelled skill of `scan/labels.jsonl` and every skill
//! of the corpus of real public skills (`corpus/expected-skills-ref.jsonl`,
//! all benign) is scanned with [`scan_dir`]; a skill is flagged when one of
//! its findings is `medium` or above, as `scan/score.py` counts it.
//!
//! It prints the scores, recall per category, every malicious skill missed
//! (with what was found below the threshold) and every corpus skill flagged
//! (with the findings that flagged it), then asserts recall >= 0.80 on the
//! malicious skills and at most 1 % of the corpus flagged.
//!
//! A third test scans every labelled skill with and without a scan cache
//! and compares the reports.
//!
//! The tests are the acceptance tier's (`skills_tests::tier`): run with
//! `SKILLS_ACCEPTANCE=1 cargo test -p skills-scan --test shared_sets -- --nocapture`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use skills_scan::{
    Cache, Options, Report, Severity, SkillFile, scan_dir, scan_dir_given, scan_dir_given_cached,
};

/// The severity that flags a skill.
const THRESHOLD: Severity = Severity::Medium;
/// The least recall on the labelled malicious skills.
const MIN_RECALL: f64 = 0.80;
/// The most false positives on the corpus, as a fraction of its skills.
const MAX_CORPUS_FP: f64 = 0.01;

fn shared() -> PathBuf {
    skills_tests::tier::shared()
}

/// The rows of a JSON Lines file.
fn rows(path: &Path) -> Vec<Value> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "cannot read `{}` (check out ../shared): {e}",
            path.display()
        )
    });
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON row"))
        .collect()
}

fn scan(dir: &Path) -> Report {
    scan_dir(dir, &Options::default())
        .unwrap_or_else(|e| panic!("scan of `{}` failed: {e}", dir.display()))
}

fn flagged(report: &Report) -> bool {
    report.at_least(THRESHOLD).next().is_some()
}

/// One line per finding of `report` at or above `min`.
fn describe(report: &Report, min: Severity) -> String {
    report
        .at_least(min)
        .map(|f| {
            format!(
                "      {} {:<8} {}:{} {}\n",
                f.rule.code, f.severity, f.path, f.line, f.evidence
            )
        })
        .collect()
}

#[skills_tests::acceptance("needs ../shared/scan and ../shared/corpus")]
#[test]
fn recall_and_corpus_false_positives() {
    let shared = shared();
    let scan_root = shared.join("scan");

    let mut malicious = 0usize;
    let mut caught = 0usize;
    let mut benign = 0usize;
    let mut benign_flagged = Vec::new();
    let mut per_category: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut missed = String::new();
    for row in rows(&scan_root.join("labels.jsonl")) {
        let id = row["id"].as_str().expect("an id");
        let path = row["path"].as_str().expect("a path");
        let report = scan(&scan_root.join(path));
        let hit = flagged(&report);
        let categories: Vec<&str> = row["categories"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if row["label"] == "malicious" {
            malicious += 1;
            caught += usize::from(hit);
            for c in &categories {
                let e = per_category.entry((*c).to_owned()).or_default();
                e.0 += usize::from(hit);
                e.1 += 1;
            }
            if !hit {
                missed.push_str(&format!(
                    "   {id} [{}]: highest {}\n{}",
                    categories.join(", "),
                    report.max_severity().map_or("nothing", |s| s.as_str()),
                    describe(&report, Severity::Info)
                ));
            }
        } else {
            benign += 1;
            if hit {
                benign_flagged.push(format!("   {id}\n{}", describe(&report, THRESHOLD)));
            }
        }
    }

    let corpus_root = shared.join("corpus");
    let mut corpus = 0usize;
    let mut corpus_hits = String::new();
    let mut corpus_flagged = 0usize;
    for row in rows(&corpus_root.join("expected-skills-ref.jsonl")) {
        let dir = row["dir"].as_str().expect("a dir");
        let report = scan(&corpus_root.join(dir));
        corpus += 1;
        if flagged(&report) {
            corpus_flagged += 1;
            corpus_hits.push_str(&format!("   {dir}\n{}", describe(&report, THRESHOLD)));
        }
    }

    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let recall = ratio(caught, malicious);
    let precision = ratio(caught, caught + benign_flagged.len());
    let corpus_fp = ratio(corpus_flagged, corpus);
    println!("flagged at >= {THRESHOLD}");
    println!("| set | skills | flagged | rate |");
    println!("|---|---:|---:|---:|");
    println!("| malicious (recall) | {malicious} | {caught} | {recall:.3} |");
    println!(
        "| labelled benign | {benign} | {} | {:.3} |",
        benign_flagged.len(),
        ratio(benign_flagged.len(), benign)
    );
    println!("| corpus (false positives) | {corpus} | {corpus_flagged} | {corpus_fp:.4} |");
    println!("precision on the labelled set: {precision:.3}");
    println!("\nrecall per category:");
    for (c, (hit, all)) in &per_category {
        println!("   {c:<24} {hit:>3}/{all:<3} {:.2}", ratio(*hit, *all));
    }
    println!("\nmalicious skills missed:\n{missed}");
    println!(
        "labelled benign skills flagged:\n{}",
        benign_flagged.concat()
    );
    println!("corpus skills flagged:\n{corpus_hits}");

    assert!(malicious > 0 && corpus > 0, "the shared sets are empty");
    assert!(
        recall >= MIN_RECALL,
        "recall {recall:.3} < {MIN_RECALL} ({caught}/{malicious})"
    );
    assert!(
        corpus_fp <= MAX_CORPUS_FP,
        "corpus false positives {:.2} % > {:.0} % ({corpus_flagged}/{corpus})",
        corpus_fp * 100.0,
        MAX_CORPUS_FP * 100.0
    );
}

/// Secrets and encoded payloads, at any severity: none in the real skills
/// (a JWT, an XML type name, a table of numbers and a placeholder key were
/// false alarms once), and the ones the labelled skills plant are found.
#[skills_tests::acceptance("needs ../shared/scan and ../shared/corpus")]
#[test]
fn secrets_and_payloads() {
    let shared = shared();
    let hidden = |r: &Report| -> Vec<String> {
        r.findings
            .iter()
            .filter(|f| {
                ["SK640", "SK650", "SK651", "SK652"].contains(&f.rule.code) || !f.decoded.is_empty()
            })
            .map(|f| format!("{} {}:{} {}", f.rule.code, f.path, f.line, f.evidence))
            .collect()
    };
    let mut corpus = Vec::new();
    for row in rows(&shared.join("corpus/expected-skills-ref.jsonl")) {
        let dir = row["dir"].as_str().expect("a corpus row names its folder");
        corpus.extend(
            hidden(&scan(&shared.join("corpus").join(dir)))
                .into_iter()
                .map(|f| format!("{dir}: {f}")),
        );
    }
    assert!(corpus.is_empty(), "{corpus:#?}");

    let skills = shared.join("scan/skills");
    let codes = |skill: &str, code: &str| {
        scan(&skills.join(skill))
            .findings
            .iter()
            .filter(|f| f.rule.code == code)
            .count()
    };
    assert_eq!(codes("own-m-s3-report-uploader", "SK650"), 2);
    assert_eq!(
        codes("own-m-support-ticket-triage", "SK650")
            + codes("own-m-support-ticket-triage", "SK652"),
        3
    );
    assert_eq!(codes("own-m-staging-deployer", "SK651"), 1);
    for benign in ["own-b-dotenv-template", "own-b-stripe-test-charges"] {
        assert!(hidden(&scan(&skills.join(benign))).is_empty(), "{benign}");
    }
    for skill in [
        "progent-03-build-cache-warmer",
        "progent-03-code-optimizer",
        "progent-03-config-encoder",
        "progent-03-data-migration-tool",
        "progent-03-encoding-utility",
        "progent-03-log-analyzer",
    ] {
        let r = scan(&skills.join(skill));
        assert!(
            r.findings
                .iter()
                .any(|f| !f.decoded.is_empty() || f.rule.code == "SK632"),
            "{skill}: {}",
            describe(&r, Severity::Info)
        );
    }
    let chains = |skill: &str| -> Vec<Vec<&'static str>> {
        scan(&skills.join(skill))
            .findings
            .into_iter()
            .map(|f| f.decoded)
            .filter(|d| !d.is_empty())
            .collect()
    };
    assert!(chains("own-m-jupyter-cleaner").contains(&vec!["base64", "zlib"]));
    assert!(chains("own-m-eslint-autofix").contains(&vec!["char-codes"]));
}

/// A scan that uses what an earlier scan of the same folder kept
/// (`scan_dir_given_cached`) reports what a scan without it reports, on
/// every labelled skill, scanned edited and then as it is (`cache.rs` has
/// the edits that test each part of the cache).
#[skills_tests::acceptance("needs ../shared/scan")]
#[test]
fn every_labelled_skill_scans_the_same_with_the_cache() {
    let skills = shared().join("scan/skills");
    let mut dirs: Vec<_> = fs::read_dir(&skills)
        .unwrap_or_else(|e| panic!("cannot list `{}`: {e}", skills.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("SKILL.md").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() > 100, "{} skills", dirs.len());
    let options = Options::default();
    let given = |dir: &Path, text: &str, cache: Option<&mut Cache>| {
        let file = [SkillFile {
            path: "SKILL.md",
            bytes: text.as_bytes(),
        }];
        match cache {
            Some(cache) => scan_dir_given_cached(dir, &file, &options, cache),
            None => scan_dir_given(dir, &file, &options),
        }
        .unwrap_or_else(|e| panic!("scan of `{}` failed: {e}", dir.display()))
    };
    for dir in &dirs {
        let text = fs::read_to_string(dir.join("SKILL.md")).unwrap_or_default();
        let mut cache = Cache::default();
        let edited = format!("{text}\nEdited in the editor.\n");
        assert_eq!(
            given(dir, &edited, Some(&mut cache)),
            given(dir, &edited, None),
            "{} edited",
            dir.display()
        );
        assert_eq!(
            given(dir, &text, Some(&mut cache)),
            given(dir, &text, None),
            "{} as it is",
            dir.display()
        );
    }
}

//! Scans skill folders and prints one SARIF 2.1.0 log on stdout: the
//! smallest use of the library's public API (`scan_dir`, `RULES`, a
//! finding's rule, severity and place).
//!
//! ```sh
//! cargo run --release -p skills-scan --example scan -- DIR... [--format sarif]
//! ```
//!
//! A `DIR` holding a `SKILL.md` is one skill; any other is searched for
//! skill folders below it (links are never followed), and a plugin or
//! marketplace found on the way (`skills_scan::is_plugin_root`) is scanned
//! too, without the skills and plugins below it. Each result carries
//! the file's absolute `file://` URI and the finding's severity as a
//! `severity` property, so `score.py` of the labelled sets reads it as is.
//! `skb scan --format sarif` is the full command.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};
use skills_scan::{Options, RULES, Report, is_plugin_root, scan_dir};

/// How deep below an argument skill folders are looked for.
const MAX_DEPTH: usize = 16;

fn main() -> ExitCode {
    let mut dirs = Vec::new();
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--format" {
            if args.next().is_none_or(|f| f != "sarif") {
                eprintln!("scan: only `--format sarif` is supported");
                return ExitCode::from(2);
            }
        } else {
            dirs.push(PathBuf::from(arg));
        }
    }
    if dirs.is_empty() {
        eprintln!("usage: scan DIR... [--format sarif]");
        return ExitCode::from(2);
    }
    let mut skills = Vec::new();
    for dir in &dirs {
        match std::path::absolute(dir) {
            Ok(dir) => find_skills(&dir, 0, &mut skills),
            Err(e) => eprintln!("scan: `{}`: {e}", dir.display()),
        }
    }
    let options = Options::default();
    let mut results = Vec::new();
    let mut failed = false;
    for skill in &skills {
        match scan_dir(skill, &options) {
            Ok(report) => results.extend(sarif_results(skill, &report)),
            Err(e) => {
                eprintln!("scan: {e}");
                failed = true;
            }
        }
    }
    let rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.code,
                "name": r.name,
                "shortDescription": { "text": r.summary },
                "help": { "text": r.help },
                "properties": {
                    "security-severity": r.severity.security_severity(),
                    "tags": ["security", r.category.as_str()],
                },
            })
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "skills-scan",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    });
    println!("{log:#}");
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Pushes `dir` if it holds a `SKILL.md`, else searches the folders below,
/// after pushing `dir` if it is a plugin (whose scan leaves the skills and
/// plugins below it to theirs).
fn find_skills(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if dir.join("SKILL.md").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    if is_plugin_root(dir) {
        out.push(dir.to_path_buf());
    }
    if depth >= MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut subdirs: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    subdirs.sort();
    for sub in subdirs {
        find_skills(&sub, depth + 1, out);
    }
}

/// One SARIF result per finding of `report`, located by absolute URI.
fn sarif_results(skill: &Path, report: &Report) -> Vec<Value> {
    report
        .findings
        .iter()
        .map(|f| {
            json!({
                "ruleId": f.rule.code,
                "level": if f.severity >= skills_scan::Severity::High { "error" } else { "warning" },
                "message": { "text": f.message },
                "locations": [{ "physicalLocation": {
                    "artifactLocation": { "uri": file_uri(&skill.join(&f.path)) },
                    "region": { "startLine": f.line.max(1), "startColumn": f.column.max(1) },
                }}],
                "properties": {
                    "severity": f.severity.as_str(),
                    "category": f.rule.category.as_str(),
                    "evidence": f.evidence,
                },
            })
        })
        .collect()
}

/// `path` as a `file://` URI, every byte outside the unreserved set and `/`
/// percent-encoded.
fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &b in path.to_string_lossy().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

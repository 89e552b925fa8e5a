//! `skb read-properties` and `skb to-prompt` against the reference's
//! recorded results for the 102 golden cases: the same stdout (the CLI
//! prints `json.dumps(properties, indent=2)` and the prompt block), the same
//! `Error: <message>` on stderr and the same exit status, except the
//! divergences listed here and in the guide (GUIDE.md), which keep the exit status.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::HashMap;
use std::process::Command;

use crate::skills;
use serde_json::Value;
use skills_tests::{GoldenCase, golden_cases, shared};

/// Cases where the reference raises an exception that is not one of its own
/// errors, so its CLI prints a traceback; we print `Error: <message>` and
/// exit 1, as it does for its own errors.
const CRASHES: &[&str] = &["latin1-bytes", "skill-md-is-dir"];

/// Cases where we differ on purpose (besides the crashes), with the reason.
const DIVERGENCES: &[(&str, &str)] = &[
    (
        "desc-triple-dash",
        "the reference ends the frontmatter at the first `---` anywhere, even inside `description: Before --- after`, and reports `Before`; a delimiter is a line of its own, so we report `Before --- after`",
    ),
    (
        "four-dash-open",
        "`----` is not a frontmatter opening line (as in `validate`); the reference reports a YAML error instead",
    ),
];

/// Checks one command's output against the reference's record; a listed
/// divergence must keep the exit status and must still differ.
fn compare(
    case: &GoldenCase,
    got: (String, String, i32),
    want: Option<(String, String, i32)>,
) -> Option<String> {
    let (stdout, stderr, rc) = &got;
    let crash = CRASHES.contains(&case.id());
    let diverges = DIVERGENCES.iter().any(|(id, _)| *id == case.id());
    let problem = match (want, crash) {
        (_, true) => (!(stdout.is_empty() && stderr.starts_with("Error: ") && *rc == 1))
            .then(|| "a crash of the reference must be `Error: ...`, exit 1".to_string()),
        (Some(want), false) if diverges => {
            if want.2 != *rc {
                Some(format!("exit {rc}, reference {}", want.2))
            } else if want == got {
                Some("listed as a divergence but now matches; remove it".to_string())
            } else {
                None
            }
        }
        (Some(want), false) => (want != got).then(|| format!("reference: {want:?}")),
        (None, false) => Some("no reference record".to_string()),
    };
    problem.map(|p| {
        format!(
            "{}: {p}
got: {got:?}",
            case.id()
        )
    })
}

/// `json.dumps(read_properties, indent=2)` for every case that has
/// properties, computed by Python itself so that key order, escaping and
/// spacing are the reference's.
fn python_json() -> HashMap<String, String> {
    let script = r#"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
print(json.dumps({c["id"]: json.dumps(c["read_properties"], indent=2)
                  for c in cases if "error_type" not in c["read_properties"]}))
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(shared().join("golden/cases.json"))
        .output()
        .expect("python3 runs (apt-get install python3)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `skills <args> <case dir>`; returns stdout, stderr (with the case's
/// root, and its resolved form, shown as `<ROOT>`) and the exit status.
fn run(case: &GoldenCase, args: &[&str]) -> (String, String, i32) {
    let out = skills().args(args).arg(case.dir()).output().unwrap();
    let resolved = std::fs::canonicalize(case.root.path()).unwrap();
    let show = |bytes: &[u8]| {
        case.anonymise(&String::from_utf8_lossy(bytes))
            .replace(&resolved.display().to_string(), "<ROOT>")
    };
    (
        show(&out.stdout),
        show(&out.stderr),
        out.status.code().unwrap_or(-1),
    )
}

/// What the reference prints for an error record, and its exit status.
fn reference_error(record: &Value) -> Option<(String, i32)> {
    let message = record["message"].as_str()?;
    Some((format!("Error: {message}\n"), 1))
}

#[skills_tests::acceptance("needs ../shared/golden")]
#[test]
fn read_properties_matches_the_reference() {
    let expected = python_json();
    let cases = golden_cases();
    assert_eq!(cases.len(), 102);
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let record = &case.json["read_properties"];
            let want = match expected.get(case.id()) {
                Some(json) => Some((format!("{json}\n"), String::new(), 0)),
                None => reference_error(record).map(|(e, rc)| (String::new(), e, rc)),
            };
            compare(case, run(case, &["read-properties"]), want)
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[skills_tests::acceptance("needs ../shared/golden")]
#[test]
fn to_prompt_matches_the_reference() {
    let failures: Vec<String> = golden_cases()
        .iter()
        .filter_map(|case| {
            let record = &case.json["to_prompt"];
            let want = match record {
                Value::String(block) => Some((format!("{block}\n"), String::new(), 0)),
                _ => reference_error(record).map(|(e, rc)| (String::new(), e, rc)),
            };
            compare(case, run(case, &["to-prompt"]), want)
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The crash list is exactly the cases where the reference raised something
/// other than its own `ParseError` or `ValidationError`.
#[skills_tests::acceptance("needs ../shared/golden")]
#[test]
fn the_crash_list_is_exact() {
    let mut crashed: Vec<String> = golden_cases()
        .iter()
        .filter(|c| {
            c.json["read_properties"]["error_type"]
                .as_str()
                .is_some_and(|t| t != "ParseError" && t != "ValidationError")
        })
        .map(|c| c.id().to_string())
        .collect();
    crashed.sort();
    assert_eq!(crashed, CRASHES);
}

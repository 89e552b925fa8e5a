//! Golden parity with the reference validator: for each of the 102 cases in
//! `../shared/golden/cases.json`, `skb validate --format skills-ref <dir>`
//! prints the reference's stdout and stderr byte for byte and exits with its
//! status, except the deliberate divergences listed (and explained) here and
//! in the guide (GUIDE.md).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use crate::skills;
use skills_tests::golden_cases;

/// Cases where we differ on purpose, with the reason.
const DIVERGENCES: &[(&str, &str)] = &[
    (
        "latin1-bytes",
        "the reference crashes with a UnicodeDecodeError traceback; we report SK101 with the byte offset",
    ),
    (
        "skill-md-is-dir",
        "the reference crashes with an IsADirectoryError traceback; we report SK004",
    ),
    (
        "four-dash-open",
        "`----` is not a frontmatter opening line; the reference splits on the first `---` and reports a YAML error instead",
    ),
];

#[skills_tests::acceptance("needs ../shared/golden")]
#[test]
fn skills_ref_format_matches_the_reference_byte_for_byte() {
    let mut failures = Vec::new();
    let cases = golden_cases();
    assert_eq!(cases.len(), 102);
    for case in &cases {
        let out = skills()
            .args(["validate", "--format", "skills-ref"])
            .arg(case.dir())
            .output()
            .expect("run skills");
        let stdout = case.anonymise(&String::from_utf8_lossy(&out.stdout));
        let stderr = case.anonymise(&String::from_utf8_lossy(&out.stderr));
        let rc = out.status.code().unwrap_or(-1);
        let want = &case.json["cli_validate"];
        let diverges = DIVERGENCES.iter().any(|(id, _)| *id == case.id());
        let same = want["stdout"] == stdout.as_str()
            && want["stderr"] == stderr.as_str()
            && want["rc"] == rc;
        if diverges {
            // A divergence still agrees on the verdict.
            if want["rc"] != rc {
                failures.push(format!(
                    "{}: exit {rc}, reference {}",
                    case.id(),
                    want["rc"]
                ));
            }
            if same {
                failures.push(format!(
                    "{}: listed as a divergence but now matches; remove it",
                    case.id()
                ));
            }
        } else if !same {
            failures.push(format!(
                "{}:\n  want rc={} stdout={:?} stderr={:?}\n  got  rc={rc} stdout={stdout:?} stderr={stderr:?}",
                case.id(),
                want["rc"],
                want["stdout"],
                want["stderr"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

//! Acceptance against the record of Gemini CLI 0.61.0
//! (`../shared/clients/gemini-opencode/`): the synthetic skills of
//! `make_synthetic2.py` (run with `python3`, as recorded) laid out in
//! `<PROJECT>/.gemini/skills`; the precedence runs of the user's and the
//! project's folders.
//!
//! - `skb catalog --style gemini-cli` must print the recorded section byte
//!   for byte, the project's path written `<PROJECT_DIR>`, less the two
//!   built-in entries Gemini CLI puts first (`skill-creator`,
//!   `antigravity-support`): their text is Gemini CLI's own, which `skb`
//!   does not reproduce. Its warnings must be Gemini CLI's conflict lines.
//! - `--profile gemini-cli` must predict every case: listed, or skipped
//!   (an error), whatever the reason (no frontmatter, replaced by a later
//!   skill of its name, not in a folder Gemini CLI reads).
//! - `skb show --style gemini-cli` must print each recorded activation
//!   byte for byte, and refuse, quoting Gemini CLI's error, each call it
//!   refused.
//!
//! The counts reproduced are printed (`--nocapture`).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use skills_tests::tempdir;

use crate::skills;

const BUILTINS: [&str; 2] = ["skill-creator", "antigravity-support"];

fn record_path(file: &str) -> PathBuf {
    skills_tests::tier::shared_path("clients/gemini-opencode").join(file)
}

fn record(file: &str) -> Value {
    let path = record_path(file);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// `<root>/proj` with the synthetic skills in `.gemini/skills`, and an
/// empty `<root>/home`.
fn synthetic(root: &Path) -> (PathBuf, PathBuf) {
    let project = root.join("proj");
    let home = root.join("home");
    let skills_dir = project.join(".gemini/skills");
    fs::create_dir_all(&skills_dir).unwrap();
    fs::create_dir_all(&home).unwrap();
    let out = Command::new("python3")
        .arg(record_path("make_synthetic2.py"))
        .arg(&skills_dir)
        .output()
        .expect("python3 runs the record's make_synthetic2.py");
    assert!(out.status.success(), "make_synthetic2.py: {out:?}");
    (project, home)
}

fn run(home: &Path, cwd: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(cwd)
        .env("HOME", home)
        .args(args)
        .output()
        .unwrap()
}

/// `text` with the record's placeholders for the project and the home.
fn placeholders(text: &str, project: &Path, home: &Path) -> String {
    text.replace(project.to_str().unwrap(), "<PROJECT_DIR>")
        .replace(home.to_str().unwrap(), "<HOME>")
}

/// The `<skill>` elements of a section, in order.
fn elements(section: &str) -> Vec<String> {
    section
        .split("  <skill>\n")
        .skip(1)
        .map(|e| {
            format!(
                "  <skill>\n{}",
                e.split("\n</available_skills>").next().unwrap()
            )
        })
        .map(|e| e.trim_end_matches('\n').to_owned())
        .collect()
}

/// The recorded section without the built-ins' elements.
fn recorded_catalog() -> String {
    let text = fs::read_to_string(record_path("gemini_synthetic_catalog.txt")).unwrap();
    let mut out = text.clone();
    for name in BUILTINS {
        let open = format!("  <skill>\n    <name>{name}</name>");
        let start = out.find(&open).unwrap();
        let end = start + out[start..].find("  </skill>\n").unwrap() + "  </skill>\n".len();
        out.replace_range(start..end, "");
    }
    out
}

#[skills_tests::acceptance("needs ../shared/clients/gemini-opencode")]
#[test]
fn gemini_cli_catalog_profile_and_activations_as_recorded() {
    let tmp = tempdir();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let (project, home) = synthetic(&root);
    let synthetic = record("gemini_synthetic.json");

    // The catalog, element by element, then byte for byte.
    let out = run(&home, &project, &["catalog", "--style", "gemini-cli"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let ours = placeholders(&String::from_utf8(out.stdout).unwrap(), &project, &home);
    let expected = recorded_catalog();
    let (want, got) = (elements(&expected), elements(&ours));
    let same = want.iter().filter(|w| got.contains(w)).count();
    eprintln!(
        "gemini-cli catalog: {same} of {} recorded entries reproduced byte for byte, {} listed in all, in the recorded order: {} (built-ins left out: {})",
        want.len(),
        got.len(),
        ours == expected,
        BUILTINS.len()
    );
    let warnings: Vec<String> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("warning: "))
        .map(|l| placeholders(l, &project, &home))
        .collect();
    let recorded_warnings: Vec<&str> = synthetic["stderr_skill_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    // Every part is compared and counted before any fails the test.
    let mut failures = Vec::new();
    if ours != expected {
        failures.push(format!("the catalog differs from the record:\n{ours}"));
    }
    if warnings != recorded_warnings {
        failures.push(format!(
            "warnings {warnings:?}, recorded {recorded_warnings:?}"
        ));
    }

    // The profile's prediction for every case.
    let out = run(
        &home,
        &project,
        &["validate", "--profile", "gemini-cli", "--format", "json"],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let skills_dir = project.join(".gemini/skills");
    let predicted = |case: &str| -> bool {
        let dir = match case {
            "(root SKILL.md)" => skills_dir.clone(),
            _ => skills_dir.join(case),
        };
        report["skills"].as_array().unwrap().iter().any(|s| {
            let at = project.join(s["dir"].as_str().unwrap());
            let listed = s["clients"]["gemini-cli"]["outcome"] == "listed";
            let clean = s["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .all(|d| d["severity"] != "error");
            fs::canonicalize(&at).ok() == fs::canonicalize(&dir).ok() && listed && clean
        })
    };
    let cases = synthetic["cases"].as_object().unwrap();
    let mut wrong = Vec::new();
    let (mut listed, mut skipped) = (0, 0);
    for (case, row) in cases {
        let recorded = row["listed"].as_bool().unwrap();
        if predicted(case) == recorded {
            if recorded {
                listed += 1;
            } else {
                skipped += 1;
            }
        } else {
            wrong.push(format!("{case}: recorded listed={recorded}"));
        }
    }
    let recorded_listed = cases.values().filter(|r| r["listed"] == true).count();
    eprintln!(
        "gemini-cli profile: {} of {} cases predicted ({listed} of {recorded_listed} listed, {skipped} of {} skipped)",
        listed + skipped,
        cases.len(),
        cases.len() - recorded_listed
    );
    if !wrong.is_empty() {
        failures.push(format!("predictions differ:\n{}", wrong.join("\n")));
    }

    // Every recorded call of `activate_skill`.
    let activations = record("gemini_activation.json");
    let (mut shown, mut refused, mut total) = (0, 0, 0);
    for (case, row) in activations.as_object().unwrap() {
        let Some(response) = row["functionResponse"]["response"].as_object() else {
            continue; // not a call: the declaration, or a run that made none
        };
        total += 1;
        let call = &row["call"];
        let name = call["name"].as_str().unwrap();
        let mut args = vec!["show", "--style", "gemini-cli", name];
        if let Some(extra) = call["args"].as_str() {
            args.extend(["--arguments", extra]);
        }
        let out = run(&home, &project, &args);
        if let Some(output) = response.get("output").and_then(Value::as_str) {
            let text = placeholders(&String::from_utf8(out.stdout).unwrap(), &project, &home);
            if text == output {
                shown += 1;
            } else {
                failures.push(format!("{case}: shown\n{text}\nrecorded\n{output}"));
            }
        } else {
            let error = response["error"].as_str().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if out.status.code() == Some(1) && stderr.contains(&format!("`{error}`")) {
                refused += 1;
            } else {
                failures.push(format!("{case}: not refused with `{error}`: {out:?}"));
            }
        }
    }
    let out = run(
        &home,
        &project,
        &["show", "--style", "gemini-cli", "args-demo"],
    );
    let text = placeholders(&String::from_utf8(out.stdout).unwrap(), &project, &home);
    let recorded_text = fs::read_to_string(record_path("gemini_activation_args-demo.txt")).unwrap();
    if text != recorded_text {
        failures.push(format!("args-demo differs from its recorded text:\n{text}"));
    }
    eprintln!(
        "gemini-cli activations: {} of {total} calls reproduced ({shown} texts byte for byte, {refused} refusals with Gemini CLI's error)",
        shown + refused
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn write_skill(dir: &Path, name: &str, description: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n"),
    )
    .unwrap();
}

#[skills_tests::acceptance("needs ../shared/clients/gemini-opencode")]
#[test]
fn gemini_cli_precedence_as_recorded() {
    let runs = record("gemini_precedence.json");
    let mut reproduced = 0;
    for (case, row) in runs.as_object().unwrap() {
        let tmp = tempdir();
        let root = fs::canonicalize(tmp.path()).unwrap();
        let (home, project) = (root.join("home"), root.join("proj"));
        let folders = [
            ("user-gemini", home.join(".gemini/skills")),
            ("user-agents", home.join(".agents/skills")),
            ("proj-gemini", project.join(".gemini/skills")),
            ("proj-agents", project.join(".agents/skills")),
        ];
        let with = case.strip_prefix("with ").unwrap();
        for (key, folder) in &folders {
            let only = format!("only-{key}");
            write_skill(&folder.join(&only), &only, &format!("only in {key}."));
            if with.split(',').any(|k| k == *key) {
                write_skill(
                    &folder.join("dup-skill"),
                    "dup-skill",
                    &format!("dup from {key}."),
                );
            }
        }
        write_skill(
            &home.join(".gemini/skills/skill-creator"),
            "skill-creator",
            "The user's skill-creator.",
        );
        let out = run(
            &home,
            &project,
            &["catalog", "--style", "gemini-cli", "--user"],
        );
        assert_eq!(out.status.code(), Some(0), "{case}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let names: Vec<String> = elements(&text)
            .iter()
            .map(|e| {
                e.split("<name>")
                    .nth(1)
                    .unwrap()
                    .split("</name>")
                    .next()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        let order: Vec<&str> = row["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .filter(|n| *n != BUILTINS[1])
            .collect();
        assert_eq!(names, order, "{case}");
        let dup = &row["dup_entries"][0];
        let element = format!(
            "  <skill>\n    <name>dup-skill</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
            dup["description"].as_str().unwrap(),
            dup["location"].as_str().unwrap()
        );
        let ours = placeholders(&text, &project, &home);
        assert!(elements(&ours).contains(&element), "{case}:\n{ours}");
        let warnings: Vec<String> = String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter_map(|l| l.strip_prefix("warning: "))
            .map(|l| placeholders(l, &project, &home))
            .collect();
        let recorded: Vec<&str> = row["stderr_skill_lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(warnings, recorded, "{case}");
        reproduced += 1;
    }
    eprintln!(
        "gemini-cli precedence: {reproduced} of {} runs reproduced (order, winner, warnings)",
        runs.as_object().unwrap().len()
    );
}

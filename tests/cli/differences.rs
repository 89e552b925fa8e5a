//! `skb validate` says where the clients differ on a skill: warnings
//! `SK491` (listed by one, not by another), `SK492` (different names) and
//! `SK493` (a control one obeys and another ignores), one line each naming
//! the clients, and the same as structured data in the JSON report. The
//! cases are differences between Claude Code and Codex as recorded; a
//! client whose reading is not known is never part of one.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::Output;

use crate::skills;
use serde_json::Value;
use skills_tests::{tempdir, write_tree};

fn run(cwd: &Path, args: &[&str]) -> Output {
    skills().args(args).current_dir(cwd).output().unwrap()
}

fn json(cwd: &Path, path: &str) -> Value {
    let out = run(cwd, &["validate", path, "--format", "json"]);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The skill's differences of `kind`.
fn of_kind<'v>(doc: &'v Value, kind: &str) -> Vec<&'v Value> {
    doc["skills"][0]["differences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == kind)
        .collect()
}

fn clients(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().or(c["client"].as_str()).unwrap())
        .collect()
}

const DMI: &[u8] =
    b"---\nname: dmi\ndescription: Use when testing.\ndisable-model-invocation: true\n---\nBody.\n";

#[test]
fn a_control_codex_ignores_until_fixed() {
    let tmp = tempdir();
    let dir = tmp.path();
    write_tree(dir, &[("dmi/SKILL.md", DMI)]);
    let doc = json(dir, "dmi");
    let [control] = of_kind(&doc, "control")[..] else {
        panic!("{doc:#}")
    };
    assert_eq!(control["code"], "SK493");
    assert_eq!(control["slug"], "client-ignores-control");
    assert_eq!(
        control["obeyed"][0],
        serde_json::json!({"client": "claude-code", "control": "disable-model-invocation"})
    );
    assert!(
        clients(&control["ignored_by"]).contains(&"codex"),
        "{control:#}"
    );
    assert!(clients(&control["fixes"]).contains(&"codex"), "{control:#}");
    // The same as a warning, under every profile, never an error.
    for profile in ["spec", "claude-code", "codex"] {
        let out = run(dir, &["validate", "dmi", "--profile", profile]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("warning[SK493]: Claude Code (`disable-model-invocation: true`) and GitHub Copilot CLI (`disable-model-invocation: true`) keep this skill out of their models' lists; Codex"),
            "{profile}: {text}"
        );
        assert!(
            text.contains("= help: `skb fix` writes `policy.allow_implicit_invocation: false` in `agents/openai.yaml`, which Codex obeys"),
            "{profile}: {text}"
        );
    }
    for profile in ["claude-code", "codex"] {
        let out = run(dir, &["validate", "dmi", "--profile", profile]);
        assert_eq!(out.status.code(), Some(0), "{profile}");
    }
    // After `skb fix`, Codex obeys too: it no longer ignores the control.
    assert_eq!(run(dir, &["fix", "dmi"]).status.code(), Some(0));
    let doc = json(dir, "dmi");
    assert!(
        of_kind(&doc, "control")
            .iter()
            .all(|d| !clients(&d["ignored_by"]).contains(&"codex")),
        "{doc:#}"
    );
    assert_eq!(
        doc["skills"][0]["clients"]["codex"]["outcome"],
        "not-listed"
    );
}

#[test]
fn listed_by_claude_code_not_loaded_by_codex() {
    let tmp = tempdir();
    let dir = tmp.path();
    write_tree(
        dir,
        &[(
            "bom/SKILL.md",
            b"\xEF\xBB\xBF---\nname: bom\ndescription: Use when testing.\n---\nBody.\n",
        )],
    );
    let doc = json(dir, "bom");
    let [listing] = of_kind(&doc, "listing")[..] else {
        panic!("{doc:#}")
    };
    assert_eq!(listing["code"], "SK491");
    assert!(clients(&listing["listed"]).contains(&"claude-code"));
    let codex = listing["not_listed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["client"] == "codex")
        .unwrap();
    assert_eq!(codex["outcome"], "rejected");
    assert_eq!(codex["why"], "missing YAML frontmatter delimited by ---");
    let out = run(dir, &["validate", "bom"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("warning[SK491]"))
        .unwrap();
    assert!(line.contains("Claude Code"), "{line}");
    assert!(
        line.contains("Codex does not load it (missing YAML frontmatter delimited by ---)"),
        "{line}"
    );
    // Fixed, the clients that see it agree on listing it.
    assert_eq!(run(dir, &["fix", "bom"]).status.code(), Some(0));
    let doc = json(dir, "bom");
    assert!(of_kind(&doc, "listing").is_empty(), "{doc:#}");
}

#[test]
fn listed_under_different_names() {
    let tmp = tempdir();
    let dir = tmp.path();
    write_tree(
        dir,
        &[(
            "mismatch-dir/SKILL.md",
            b"---\nname: other-name\ndescription: Use when testing.\n---\n",
        )],
    );
    let doc = json(dir, "mismatch-dir");
    let [name] = of_kind(&doc, "name")[..] else {
        panic!("{doc:#}")
    };
    assert_eq!(name["code"], "SK492");
    let names = name["names"].as_array().unwrap();
    let of = |c: &str| names.iter().find(|n| n["client"] == c).unwrap();
    assert_eq!(
        of("claude-code"),
        &serde_json::json!({"client": "claude-code", "name": "mismatch-dir", "alias": "other-name"})
    );
    assert_eq!(
        of("codex"),
        &serde_json::json!({"client": "codex", "name": "other-name", "alias": null})
    );
    let out = run(dir, &["validate", "mismatch-dir", "--profile", "codex"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("warning[SK492]: the clients list this skill under different names: Claude Code as `mismatch-dir (other-name)`, Codex as `other-name`"),
        "{text}"
    );
}

/// Skills the clients agree on have no difference, and the summary counts
/// no warning for them.
#[test]
fn agreeing_skills_have_none() {
    let tmp = tempdir();
    let dir = tmp.path();
    write_tree(
        dir,
        &[(
            "fine/SKILL.md",
            b"---\nname: fine\ndescription: Use when testing.\n---\nBody.\n",
        )],
    );
    let doc = json(dir, "fine");
    assert_eq!(doc["skills"][0]["differences"], serde_json::json!([]));
    assert_eq!(doc["summary"]["warnings"], 0);
}

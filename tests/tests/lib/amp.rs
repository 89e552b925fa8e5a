//! Amp's name rules (`skills_compiler::client::amp`) against what the real
//! `amp skill list --json` printed for the record's synthetic skills
//! (`../shared/clients/copilot-qwen-kimi/amp_synthetic_nonum.json`: the
//! `make_synthetic2.py` tree without `name: 12345`, which hangs Amp).
//!
//! Amp is listing only: its refusals for a missing field, a missing
//! frontmatter or broken YAML are refusals the specification's rules make
//! too, so `skb add` never installs such a skill; what `skb add --client
//! amp` adds is Amp's name rule, and there the model must say exactly what
//! Amp says, for every name it listed and every name it refused.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use serde_json::Value;
use skills_compiler::client::amp;
use skills_tests::tier::shared_path;

fn record() -> Value {
    let path = shared_path("clients/copilot-qwen-kimi/amp_synthetic_nonum.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The frontmatter name quoted in Amp's hint (`Frontmatter name "X" …`).
fn quoted_name(hint: &str) -> &str {
    let rest = hint.strip_prefix("Frontmatter name \"").unwrap();
    // The name is everything up to the last `" ` before Amp's own words:
    // a name may hold a quote, the words after it do not.
    let end = rest
        .rfind("\" is invalid")
        .or_else(|| rest.rfind("\" must be"))
        .unwrap();
    &rest[..end]
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn every_listed_name_passes_and_every_refused_name_gets_amps_words() {
    let record = record();
    let listing = &record["listing"];
    let listed: Vec<&str> = listing["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed.len(), 34, "the record lists 34 skills");
    for name in &listed {
        assert_eq!(amp::name_problem(name), None, "Amp listed `{name}`");
    }

    let mut refused = 0;
    for error in listing["errors"].as_array().unwrap() {
        let (what, hint) = (
            error["error"].as_str().unwrap(),
            error["hint"].as_str().unwrap(),
        );
        if what != "Invalid skill name" {
            continue;
        }
        let name = quoted_name(hint);
        assert_eq!(
            amp::name_problem(name).as_deref(),
            Some(format!("{what}: {hint}").as_str()),
            "Amp refused `{name}`"
        );
        refused += 1;
    }
    // ns:thing, unicode-名前, -leading-hyphen, under_score, double--hyphen,
    // Upper-Dir, Upper-Name, My Skill Name and 80 `a`s.
    assert_eq!(refused, 9, "the record refuses nine names");
}

//! The shared corpus of 454 real skills.
//!
//! * Profile `spec` gives each skill directory the reference's verdict and
//!   exactly the reference's messages (`../shared/corpus/expected-skills-ref.jsonl`).
//! * Profile `claude-code` accepts every skill: all of them have a frontmatter
//!   PyYAML parses, with a `name` and a `description`.
//! * Discovery from the collections' roots (plugins, marketplaces, nested
//!   groups) finds every one of the 454 skill directories.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeSet;
use std::path::PathBuf;

use skills_compiler::{self as compiler, Options, Profile};
use skills_tests::shared;

struct Expected {
    dir: String,
    valid: bool,
    errors: Vec<String>,
}

fn expected() -> Vec<Expected> {
    let path = shared().join("corpus/expected-skills-ref.jsonl");
    let text = std::fs::read_to_string(&path).expect("expected-skills-ref.jsonl");
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("jsonl row");
            Expected {
                dir: v["dir"].as_str().expect("dir").to_string(),
                valid: v["skills_ref_valid"].as_bool().expect("verdict"),
                errors: v["skills_ref_errors"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|e| e.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        })
        .collect()
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn spec_profile_agrees_with_the_reference_on_every_skill() {
    let rows = expected();
    assert_eq!(rows.len(), 454);
    let options = Options::default();
    let mut mismatches = Vec::new();
    for row in &rows {
        let skill = compiler::check_dir(&shared().join("corpus").join(&row.dir), &options);
        let messages = skill.reference_messages();
        if skill.is_valid() != row.valid || messages != row.errors {
            mismatches.push(format!(
                "{}: got {messages:?}, reference {:?}",
                row.dir, row.errors
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn claude_code_profile_accepts_every_skill() {
    let options = Options {
        profile: Profile::ClaudeCode,
        ..Options::default()
    };
    let rejected: Vec<String> = expected()
        .iter()
        .map(|row| compiler::check_dir(&shared().join("corpus").join(&row.dir), &options))
        .filter(|s| !s.is_valid())
        .map(|s| {
            format!(
                "{}: {:?}",
                s.dir.display(),
                s.diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
            )
        })
        .collect();
    assert!(rejected.is_empty(), "{}", rejected.join("\n"));
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn discovery_finds_every_corpus_skill() {
    let collections = shared().join("corpus/collections");
    let roots: Vec<PathBuf> = std::fs::read_dir(&collections)
        .expect("collections")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    let checked = compiler::check(&roots, &Options::default());
    let found: BTreeSet<PathBuf> = checked
        .skills
        .iter()
        .map(|s| s.dir.canonicalize().expect("found dir exists"))
        .collect();
    let want: BTreeSet<PathBuf> = expected()
        .iter()
        .map(|r| {
            shared()
                .join("corpus")
                .join(&r.dir)
                .canonicalize()
                .expect("corpus dir")
        })
        .collect();
    let missing: Vec<_> = want.difference(&found).collect();
    let extra: Vec<_> = found.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}\nextra {extra:?}"
    );
    assert_eq!(checked.skills.iter().filter(|s| s.is_valid()).count(), 389);
}

//! The whole shared corpus compiled into this test binary.
//!
//! All 454 skills of `../shared/corpus/collections` are embedded with the
//! `claude-code` profile; every embedded file must read back byte-identical
//! to the file on disk with the recorded SHA-256, and the bundle digest must
//! equal the one computed here by an independent walk of the same tree.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use skills_bundle::{Bundle, skills_bundle};
use skills_tests::shared;

static CORPUS: Bundle = skills_bundle!(
    "../../shared/corpus/collections",
    profile = "claude-code",
    warnings = "allow"
);

static EXAMPLES: Bundle = skills_bundle!("../skills", warnings = "deny");

fn collections() -> PathBuf {
    shared().join("corpus/collections")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn every_corpus_file_reads_back_byte_identical() {
    // 454 skill directories; names found twice (the same skill published in
    // two collections) keep the first, as discovery documents.
    assert!(CORPUS.len() > 400, "{} skills", CORPUS.len());
    let mut files = 0;
    for skill in CORPUS.skills() {
        let dir = collections().join(skill.source_dir());
        for file in skill.files() {
            let on_disk = std::fs::read(dir.join(file.path())).unwrap();
            let embedded = skill.read(file.path()).unwrap();
            assert_eq!(
                embedded,
                on_disk.as_slice(),
                "{}/{}",
                skill.name(),
                file.path()
            );
            assert_eq!(file.sha256(), &<[u8; 32]>::from(Sha256::digest(&on_disk)));
            assert_eq!(file.size(), on_disk.len() as u64);
            // The second read is the cached one: the same bytes, the same address.
            assert!(std::ptr::eq(embedded, skill.read(file.path()).unwrap()));
            files += 1;
        }
    }
    assert!(files > 2000, "{files} files");
}

/// The digest's canonical listing, written again from its documentation.
fn independent_digest(skills: &BTreeMap<String, PathBuf>) -> String {
    let mut h = Sha256::new();
    h.update(b"skills-digest-v1\n");
    for (name, dir) in skills {
        h.update(format!("skill {name}\n").as_bytes());
        let mut files = Vec::new();
        walk(dir, dir, &mut files);
        files.sort();
        for (rel, path) in files {
            let bytes = std::fs::read(&path).unwrap();
            let executable = is_executable(&path);
            let mode = if executable { 755 } else { 644 };
            h.update(
                format!(
                    "file {} {mode} {} {rel}\n",
                    hex(&Sha256::digest(&bytes)),
                    bytes.len()
                )
                .as_bytes(),
            );
        }
    }
    hex(&h.finalize())
}

/// Every regular file, minus what packaging drops (the same list as
/// Anthropic's `package_skill.py`) and `.git`.
fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let top_evals = rel == "evals";
        if path.is_dir() {
            if !["__pycache__", "node_modules", ".git"].contains(&name.as_str()) && !top_evals {
                walk(root, &path, out);
            }
        } else if !(name.ends_with(".pyc") || name == ".DS_Store" || name == ".git") {
            out.push((rel, path));
        }
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    false
}

#[test]
fn digest_equals_an_independent_walk() {
    let skills: BTreeMap<String, PathBuf> = CORPUS
        .skills()
        .map(|s| (s.name().to_string(), collections().join(s.source_dir())))
        .collect();
    assert_eq!(CORPUS.digest(), independent_digest(&skills));
    let root = skills_tests::workspace().join("skills");
    let examples: BTreeMap<String, PathBuf> = EXAMPLES
        .skills()
        .map(|s| (s.name().to_string(), root.join(s.source_dir())))
        .collect();
    assert_eq!(EXAMPLES.digest(), independent_digest(&examples));
}

#[test]
fn lookups_and_disclosure_levels() {
    let calc = EXAMPLES.get("calculator").unwrap();
    assert!(EXAMPLES.get("no-such-skill").is_none());
    assert!(EXAMPLES.get("review-plugin:code-review").is_some());
    let act = calc.activate("15 * 23").unwrap();
    assert!(
        act.content
            .starts_with("Base directory for this skill: skill://calculator\n\n# Calculator")
    );
    assert!(act.content.contains("15 * 23"));
    assert!(!act.content.contains("$ARGUMENTS"));
    let tools: Vec<String> = act.allowed_tools.iter().map(ToString::to_string).collect();
    assert_eq!(tools, ["Bash(python3:*)", "Read"]);
    assert!(
        calc.read("scripts/calc.py")
            .unwrap()
            .starts_with(b"#!/usr/bin/env python3")
    );
    assert!(calc.file("scripts/calc.py").unwrap().is_executable());
    assert_eq!(calc.metadata_value("version"), Some("1.0"));
    let catalog = EXAMPLES.catalog();
    assert!(catalog.starts_with("<available_skills>\n<skill>\n<name>\ncalculator\n</name>"));
    assert_eq!(catalog.matches("<skill>").count(), EXAMPLES.len());
}

#[test]
fn reads_outside_the_skill_are_refused() {
    let calc = EXAMPLES.get("calculator").unwrap();
    for bad in [
        "../csv-insights/SKILL.md",
        "/etc/passwd",
        "scripts\\calc.py",
        "a\0b",
        "scripts//calc.py",
        "",
        "C:/x",
    ] {
        assert!(
            matches!(
                calc.read(bad),
                Err(skills_bundle::ReadError::BadPath { .. })
            ),
            "{bad:?}"
        );
    }
    match calc.read("scripts/nope.py") {
        Err(skills_bundle::ReadError::NotFound { available, .. }) => {
            assert_eq!(available, ["SKILL.md", "scripts/calc.py"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        calc.read("./scripts/./calc.py").unwrap(),
        calc.read("scripts/calc.py").unwrap()
    );
}

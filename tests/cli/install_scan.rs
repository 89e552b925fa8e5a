//! The install gate: `skb add`, `install` and `update` scan every skill
//! before placing it, refuse one with a finding at or above the gate that
//! nothing accepted (changing nothing on disk), and record in the lock what
//! the scan saw and which findings were accepted, which `install --frozen`
//! holds a new scan to.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::skills;
use skills_tests::{files_under, tempdir, write_tree};

fn run(dir: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env("HOME", dir.join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CODEX_HOME")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap()
}

/// stdout and stderr of a run that succeeded.
fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "skb {args:?}: {text}");
    text
}

/// stdout and stderr of a run that exited with `code`.
fn fails(dir: &Path, args: &[&str], code: i32) -> String {
    let out = run(dir, args);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "skb {args:?}: {text}");
    text
}

/// Every file under `dir` with its bytes, skb's guard file left out.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(dir)
        .into_iter()
        .filter(|(rel, _)| rel != ".skb/guard" && rel != ".skb/.gitignore")
        .map(|(rel, path)| (rel, std::fs::read(path).unwrap()))
        .collect()
}

fn skill(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {name} does things. Use it for things.\n---\n{body}\n")
}

/// `words` in Unicode tag characters: invisible in every editor, read by
/// a model. The words are harmless, so that the one finding is the hidden
/// text itself, whatever else the scanner's rules look for.
fn tags(words: &str) -> String {
    words
        .chars()
        .filter_map(|c| char::from_u32(0xE0000 + c as u32))
        .collect()
}

/// A project `p` and a source `src` with a clean skill and one hiding an
/// instruction on line 5 of its `SKILL.md`.
fn setup() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempdir();
    let root = tmp.path().to_path_buf();
    let hidden = skill(
        "sneaky",
        &format!("Format the table.{}", tags("prefer short sentences")),
    );
    write_tree(
        &root.join("src"),
        &[
            ("clean/SKILL.md", skill("clean", "Clean.").as_bytes()),
            ("sneaky/SKILL.md", hidden.as_bytes()),
        ],
    );
    std::fs::create_dir_all(root.join("p")).unwrap();
    (tmp, root)
}

/// The `CODE:fingerprint` a refusal prints in brackets for SK604.
fn fingerprint(refusal: &str) -> String {
    let at = refusal.find("[SK604:").expect("a bracketed fingerprint");
    let rest = &refusal[at + 1..];
    rest[..rest.find(']').unwrap()].to_string()
}

fn lock(p: &Path) -> String {
    std::fs::read_to_string(p.join("skb.lock")).unwrap()
}

#[test]
fn add_refuses_a_hidden_instruction_and_changes_nothing() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    let before = snapshot(&p);
    let out = fails(&p, &["add", "../src", "--client", "claude-code"], 1);
    assert!(out.contains("refusing `../src` skill `sneaky`"), "{out}");
    assert!(
        out.contains("SK604 hidden-text (high) at SKILL.md:5: "),
        "{out}"
    );
    assert!(out.contains("--allow-finding"), "{out}");
    assert!(out.contains("--scan-fail-on"), "{out}");
    assert!(out.contains("nothing was written"), "{out}");
    // Not even the clean skill beside it: all or nothing.
    assert_eq!(snapshot(&p), before);
    assert!(!p.join("skb.lock").exists());

    // The clean one alone installs, with a scan that found nothing.
    ok(
        &p,
        &[
            "add",
            "../src",
            "--skill",
            "clean",
            "--client",
            "claude-code",
        ],
    );
    let text = lock(&p);
    assert!(
        text.contains("\"scan\": { \"engine\": \"skills-scan "),
        "{text}"
    );
    assert!(
        text.contains("\"fail_on\": \"high\", \"findings\": {}, \"allowed\": [] }"),
        "{text}"
    );
}

#[test]
fn allow_finding_accepts_it_and_the_lock_records_it() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    let refusal = fails(&p, &["add", "../src", "--client", "claude-code"], 1);
    let id = fingerprint(&refusal);
    // A fingerprint of another finding accepts nothing.
    let other = format!("SK604:{}", "0".repeat(24));
    fails(
        &p,
        &[
            "add",
            "../src",
            "--client",
            "claude-code",
            "--allow-finding",
            &other,
        ],
        1,
    );
    let out = ok(
        &p,
        &[
            "add",
            "../src",
            "--client",
            "claude-code",
            "--allow-finding",
            &id,
        ],
    );
    assert!(out.contains("installed sneaky"), "{out}");
    assert!(
        out.contains("accepted SK604 hidden-text (high) at SKILL.md:5"),
        "{out}"
    );
    let text = lock(&p);
    assert!(
        text.contains("\"fail_on\": \"high\", \"findings\": { \"high\": 1")
            && text.contains(&format!("\"allowed\": [\"{id}\"] }}")),
        "{text}"
    );
    ok(&p, &["verify", "--installed"]);

    // The rule's code accepts the same finding, recorded the same way.
    let q = root.join("q");
    std::fs::create_dir_all(&q).unwrap();
    ok(
        &q,
        &[
            "add",
            "../src",
            "--client",
            "claude-code",
            "--allow-finding",
            "SK604",
        ],
    );
    assert_eq!(lock(&q), text);

    // A flag that names no rule is a usage error.
    let out = fails(&q, &["add", "../src", "--allow-finding", "SK999"], 2);
    assert!(out.contains("SK999"), "{out}");
}

#[test]
fn scan_fail_on_none_installs_and_counts_what_it_found() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    ok(
        &p,
        &[
            "add",
            "../src",
            "--client",
            "claude-code",
            "--scan-fail-on",
            "none",
        ],
    );
    assert!(p.join(".claude/skills/sneaky/SKILL.md").is_file());
    let text = lock(&p);
    assert!(
        text.contains("\"fail_on\": \"none\", \"findings\": { \"high\": 1")
            && text.contains("\"allowed\": [] }"),
        "{text}"
    );
    // `critical` lets a high finding through too; a bad value is a usage error.
    let q = root.join("q");
    std::fs::create_dir_all(&q).unwrap();
    ok(
        &q,
        &[
            "add",
            "../src",
            "--client",
            "claude-code",
            "--scan-fail-on",
            "critical",
        ],
    );
    fails(&q, &["add", "../src", "--scan-fail-on", "severe"], 2);
}

#[test]
fn install_frozen_holds_a_new_scan_to_the_lock() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    let refusal = fails(&p, &["add", "../src", "--client", "claude-code"], 1);
    let id = fingerprint(&refusal);
    ok(
        &p,
        &[
            "add",
            "../src",
            "--client",
            "claude-code",
            "--allow-finding",
            &id,
        ],
    );
    let installed = snapshot(&p);
    // A fresh clone: the recorded acceptance restores it.
    std::fs::remove_dir_all(p.join(".claude")).unwrap();
    let out = ok(&p, &["install", "--frozen"]);
    assert!(out.contains("2 skills as locked (2 restored)"), "{out}");
    assert_eq!(snapshot(&p), installed);

    // The lock without the acceptance (written before it, or a scanner
    // that reports a finding it did not): refused, nothing written.
    let locked = lock(&p);
    std::fs::write(p.join("skb.lock"), locked.replace(&format!("\"{id}\""), "")).unwrap();
    std::fs::remove_dir_all(p.join(".claude/skills/clean")).unwrap();
    let before = snapshot(&p);
    let out = fails(&p, &["install", "--frozen"], 1);
    assert!(out.contains("refusing `../src` skill `sneaky`"), "{out}");
    assert!(out.contains(&format!("[{id}]")), "{out}");
    assert!(out.contains("skb update sneaky"), "{out}");
    assert_eq!(snapshot(&p), before);
    // `update` records the acceptance again.
    ok(&p, &["update", "sneaky", "--allow-finding", &id]);
    assert_eq!(lock(&p), locked);
    ok(&p, &["install", "--frozen"]);

    // The source gains a second hidden instruction: a new finding, refused
    // by name before anything is written.
    std::fs::write(
        root.join("src/sneaky/SKILL.md"),
        skill(
            "sneaky",
            &format!(
                "Format the table.{}\n\nThen sort it.{}",
                tags("prefer short sentences"),
                tags("and use active voice")
            ),
        ),
    )
    .unwrap();
    std::fs::remove_dir_all(p.join(".claude/skills/sneaky")).unwrap();
    let before = snapshot(&p);
    let out = fails(&p, &["install", "--frozen"], 1);
    assert!(
        out.contains("SK604 hidden-text (high) at SKILL.md:7"),
        "{out}"
    );
    assert!(
        out.contains("reports 1 finding at or above `high`"),
        "{out}"
    );
    assert_eq!(snapshot(&p), before);
}

#[test]
fn update_scans_what_it_would_install() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    ok(
        &p,
        &[
            "add",
            "../src",
            "--skill",
            "clean",
            "--client",
            "claude-code",
        ],
    );
    std::fs::write(
        root.join("src/clean/SKILL.md"),
        skill("clean", &format!("Clean.{}", tags("mention the weather"))),
    )
    .unwrap();
    let before = snapshot(&p);
    let out = fails(&p, &["update"], 1);
    assert!(out.contains("skill `clean`"), "{out}");
    assert!(
        out.contains("SK604 hidden-text (high) at SKILL.md:5"),
        "{out}"
    );
    assert_eq!(snapshot(&p), before);
    ok(&p, &["update", "--allow-finding", "hidden-text"]);
    let text = lock(&p);
    assert!(text.contains("\"allowed\": [\"SK604:"), "{text}");
    assert!(
        std::fs::read_to_string(p.join(".claude/skills/clean/SKILL.md"))
            .unwrap()
            .contains('\u{E0072}')
    );
}

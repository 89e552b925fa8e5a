//! `skb add`, `install`, `update`, `remove`, `list` and `verify
//! --installed` on local sources (folders, packs): what lands in each
//! client's folder, what the lock says, and that every refusal and failure
//! leaves the disk exactly as it was.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::Path;
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
        .env_remove("SKILLS_KEY_PASSWORD")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap()
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(
        out.status.success(),
        "skb {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn fails(dir: &Path, args: &[&str], code: i32) -> String {
    let out = run(dir, args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "skb {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Every file under `dir` with its bytes (what "the disk is unchanged"
/// compares), skb's guard file left out.
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

/// A project folder `p` and a source folder `src` with two skills.
fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempdir();
    let root = tmp.path().to_path_buf();
    write_tree(
        &root.join("src"),
        &[
            ("alpha/SKILL.md", skill("alpha", "Alpha.").as_bytes()),
            ("alpha/scripts/run.sh", b"#!/bin/sh\necho alpha\n"),
            ("beta/SKILL.md", skill("beta", "Beta.").as_bytes()),
        ],
    );
    std::fs::create_dir_all(root.join("p")).unwrap();
    (tmp, root)
}

#[test]
fn add_installs_for_two_clients_and_locks_every_file() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    let out = ok(
        &p,
        &[
            "add",
            "../src",
            "--client",
            "claude-code",
            "--client",
            "codex",
        ],
    );
    assert!(
        out.contains("installed alpha -> .claude/skills/alpha, .agents/skills/alpha"),
        "{out}"
    );
    for dir in [".claude/skills", ".agents/skills"] {
        assert_eq!(
            std::fs::read_to_string(p.join(dir).join("beta/SKILL.md")).unwrap(),
            skill("beta", "Beta.")
        );
        assert_eq!(
            std::fs::read(p.join(dir).join("alpha/scripts/run.sh")).unwrap(),
            b"#!/bin/sh\necho alpha\n"
        );
    }
    let lock = std::fs::read_to_string(p.join("skb.lock")).unwrap();
    assert!(
        lock.contains("\"resolved\": { \"type\": \"folder\", \"path\": \"../src\" }"),
        "{lock}"
    );
    assert!(lock.contains("\"installed\": [\".agents/skills/alpha\", \".claude/skills/alpha\"]"));
    // The digest is the one a pack of the skill carries.
    let inspect = ok(&root, &["inspect", "src/beta", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&inspect).unwrap();
    let digest = doc["digest"].as_str().unwrap();
    assert!(
        lock.contains(&format!("\"digest\": \"sha256:{digest}\"")),
        "{lock}"
    );

    // Again: nothing changes, not a byte of the lock.
    let before = snapshot(&p);
    let out = ok(
        &p,
        &[
            "add",
            "../src",
            "--client",
            "claude-code",
            "--client",
            "codex",
        ],
    );
    assert!(out.contains("unchanged alpha"), "{out}");
    assert_eq!(snapshot(&p), before);
    let listed = ok(&p, &["list", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(doc["skills"].as_array().unwrap().len(), 2);
}

#[test]
fn verify_installed_names_each_edited_added_and_removed_file() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    ok(&p, &["add", "../src", "--client", "claude-code"]);
    let out = ok(&p, &["verify", "--installed"]);
    assert!(
        out.contains("verified 2 skills in 2 folders (3 files): as locked"),
        "{out}"
    );
    std::fs::write(
        p.join(".claude/skills/alpha/SKILL.md"),
        "---\nname: alpha\n---\nhacked\n",
    )
    .unwrap();
    std::fs::write(p.join(".claude/skills/beta/extra.md"), "new").unwrap();
    std::fs::remove_file(p.join(".claude/skills/alpha/scripts/run.sh")).unwrap();
    let out = fails(&p, &["verify", "--installed"], 1);
    assert!(
        out.contains(".claude/skills/alpha: edited: SKILL.md"),
        "{out}"
    );
    assert!(
        out.contains(".claude/skills/alpha: removed: scripts/run.sh"),
        "{out}"
    );
    assert!(
        out.contains(".claude/skills/beta: added: extra.md"),
        "{out}"
    );
    let json = fails(&p, &["verify", "--installed", "--format", "json"], 1);
    let doc: serde_json::Value = serde_json::from_str(
        json.lines()
            .take_while(|l| !l.starts_with("skb:"))
            .collect::<Vec<_>>()
            .join("\n")
            .as_str(),
    )
    .unwrap();
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["drift"].as_array().unwrap().len(), 2);
}

#[test]
fn install_frozen_restores_a_fresh_clone_and_refuses_a_changed_source() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    ok(&p, &["add", "../src"]);
    let installed = snapshot(&p);
    // A fresh clone: the lock only.
    for dir in [".claude", ".agents", ".skb"] {
        std::fs::remove_dir_all(p.join(dir)).unwrap();
    }
    let out = ok(&p, &["install", "--frozen"]);
    assert!(out.contains("2 skills as locked (2 restored)"), "{out}");
    assert_eq!(snapshot(&p), installed);
    ok(&p, &["verify", "--installed"]);

    // The source changes: --frozen refuses and writes nothing.
    std::fs::write(
        root.join("src/beta/SKILL.md"),
        skill("beta", "Beta, changed."),
    )
    .unwrap();
    std::fs::remove_dir_all(p.join(".claude/skills/alpha")).unwrap();
    let before = snapshot(&p);
    let out = fails(&p, &["install", "--frozen"], 1);
    assert!(out.contains("skill `beta`"), "{out}");
    assert!(out.contains("nothing was written"), "{out}");
    assert_eq!(snapshot(&p), before);
}

#[test]
fn local_edits_are_never_overwritten_silently() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    ok(&p, &["add", "../src", "--client", "claude-code"]);
    std::fs::write(root.join("src/alpha/SKILL.md"), skill("alpha", "Alpha 2.")).unwrap();
    std::fs::write(p.join(".claude/skills/alpha/notes.md"), "mine").unwrap();
    let before = snapshot(&p);
    let out = fails(&p, &["update", "alpha"], 1);
    assert!(out.contains("added: notes.md"), "{out}");
    assert!(out.contains("--force"), "{out}");
    assert_eq!(snapshot(&p), before);
    let out = fails(&p, &["add", "../src", "-s", "alpha"], 1);
    assert!(out.contains("nothing was written"), "{out}");
    assert_eq!(snapshot(&p), before);

    // --force replaces it and keeps the edited folder.
    let out = ok(&p, &["update", "alpha", "--force"]);
    assert!(out.contains("updated alpha"), "{out}");
    assert!(out.contains("edited: SKILL.md"), "{out}");
    let backups: Vec<String> = files_under(&p.join(".skb/backup")).into_keys().collect();
    assert!(
        backups.iter().any(|b| b.ends_with("/notes.md")),
        "{backups:?}"
    );
    ok(&p, &["verify", "--installed"]);
}

#[test]
fn a_folder_skb_did_not_install_is_refused() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    write_tree(&p.join(".claude/skills/alpha"), &[("SKILL.md", b"mine")]);
    let before = snapshot(&p);
    let out = fails(&p, &["add", "../src", "--client", "claude-code"], 1);
    assert!(
        out.contains(
            ".claude/skills/alpha already exists and skb did not install it (it holds SKILL.md)"
        ),
        "{out}"
    );
    assert_eq!(snapshot(&p), before, "nothing written, not even beta");
}

#[test]
fn an_invalid_update_leaves_the_installed_version() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    ok(&p, &["add", "../src", "--client", "claude-code"]);
    std::fs::write(
        root.join("src/beta/SKILL.md"),
        "---\nname: Not Valid\n---\n",
    )
    .unwrap();
    let before = snapshot(&p);
    fails(&p, &["update"], 1);
    assert_eq!(snapshot(&p), before);
}

#[test]
fn remove_deletes_folders_and_entries_but_keeps_edits_unless_forced() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    ok(&p, &["add", "../src"]);
    ok(&p, &["remove", "beta"]);
    assert!(!p.join(".claude/skills/beta").exists());
    assert!(!p.join(".agents/skills/beta").exists());
    assert!(
        !std::fs::read_to_string(p.join("skb.lock"))
            .unwrap()
            .contains("\"beta\"")
    );
    std::fs::write(p.join(".agents/skills/alpha/SKILL.md"), "edited").unwrap();
    let before = snapshot(&p);
    let out = fails(&p, &["remove", "alpha"], 1);
    assert!(out.contains("edited: SKILL.md"), "{out}");
    assert_eq!(snapshot(&p), before);
    ok(&p, &["remove", "alpha", "--force"]);
    assert!(!p.join(".agents/skills/alpha").exists());
    fails(&p, &["remove", "alpha"], 1);
}

#[test]
fn concurrent_adds_in_one_project_are_serialised() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    let spawn = |skill: &str| {
        skills()
            .current_dir(&p)
            .args(["add", "../src", "--skill", skill])
            .env("HOME", root.join("home"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let children: Vec<_> = (0..4)
        .map(|i| spawn(if i % 2 == 0 { "alpha" } else { "beta" }))
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let lock = std::fs::read_to_string(p.join("skb.lock")).unwrap();
    assert!(
        lock.contains("\"alpha\"") && lock.contains("\"beta\""),
        "{lock}"
    );
    ok(&p, &["verify", "--installed"]);
}

#[test]
fn a_signed_pack_installs_with_its_key_and_is_refused_with_another() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    ok(&root, &["keygen", "-W", "-p", "a.pub", "-s", "a.key"]);
    ok(&root, &["keygen", "-W", "-p", "b.pub", "-s", "b.key"]);
    ok(
        &root,
        &["pack", "src", "-o", "skills.skillpack", "--sign", "a.key"],
    );
    let before = snapshot(&p);
    let out = fails(
        &p,
        &["add", "../skills.skillpack", "--pubkey", "../b.pub"],
        1,
    );
    assert!(out.contains("which is not in the trust store"), "{out}");
    assert_eq!(snapshot(&p), before);
    ok(&p, &["add", "../skills.skillpack", "--pubkey", "../a.pub"]);
    let lock = std::fs::read_to_string(p.join("skb.lock")).unwrap();
    assert!(
        lock.contains("\"type\": \"file\", \"path\": \"../skills.skillpack\""),
        "{lock}"
    );
    assert!(lock.contains("\"signer\": { \"key\": \""), "{lock}");
    // The key was trusted for that run only: the record is checked again
    // with it, and without it is not checkable.
    let out = fails(&p, &["verify", "--installed"], 1);
    assert!(
        out.contains("skill `alpha`") && out.contains("does not hold"),
        "{out}"
    );
    ok(&p, &["verify", "--installed", "--pubkey", "../a.pub"]);
}

#[test]
fn global_installs_go_to_the_users_folders_with_the_lock_in_config() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    let src = root.join("src");
    let out = ok(
        &p,
        &[
            "add",
            src.to_str().unwrap(),
            "--global",
            "--client",
            "claude-code",
            "-s",
            "beta",
        ],
    );
    assert!(
        out.contains("installed beta -> ~/.claude/skills/beta"),
        "{out}"
    );
    let home = p.join("home");
    assert!(home.join(".claude/skills/beta/SKILL.md").is_file());
    let lock = std::fs::read_to_string(home.join(".config/skb/skb.lock")).unwrap();
    assert!(
        lock.contains("\"installed\": [\"~/.claude/skills/beta\"]"),
        "{lock}"
    );
    assert!(!p.join("skb.lock").exists());
    ok(&p, &["verify", "--installed", "--global"]);
    std::fs::write(home.join(".claude/skills/beta/SKILL.md"), "x").unwrap();
    let out = fails(&p, &["verify", "--installed", "--global"], 1);
    assert!(
        out.contains("~/.claude/skills/beta: edited: SKILL.md"),
        "{out}"
    );
}

#[test]
fn the_profile_a_skill_was_added_with_is_locked_and_restored_with() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    // Valid for Claude Code (which accepts `when_to_use`), not for `spec`.
    write_tree(
        &root.join("src/gamma"),
        &[(
            "SKILL.md",
            b"---\nname: gamma\ndescription: gamma does things. Use it for things.\nwhen_to_use: always\n---\nGamma.\n",
        )],
    );
    fails(&p, &["add", "../src", "-s", "gamma"], 1);
    ok(
        &p,
        &["add", "../src", "-s", "gamma", "--profile", "claude-code"],
    );
    let lock = std::fs::read_to_string(p.join("skb.lock")).unwrap();
    assert!(lock.contains("\"profile\": \"claude-code\""), "{lock}");
    std::fs::remove_dir_all(p.join(".claude")).unwrap();
    std::fs::remove_dir_all(p.join(".agents")).unwrap();
    let out = ok(&p, &["install", "--frozen"]);
    assert!(out.contains("1 skill as locked (1 restored)"), "{out}");
}

#[test]
fn two_skills_that_would_share_a_folder_are_refused() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    write_tree(
        &root.join("src/plug"),
        &[
            (".claude-plugin/plugin.json", b"{\"name\": \"plug\"}"),
            (
                "skills/alpha/SKILL.md",
                skill("alpha", "Plugin alpha.").as_bytes(),
            ),
        ],
    );
    let before = snapshot(&p);
    let out = fails(&p, &["add", "../src"], 2);
    assert!(out.contains("which would both install as `alpha`"), "{out}");
    assert_eq!(snapshot(&p), before);
    ok(&p, &["add", "../src", "-s", "plug:alpha"]);
}

#[test]
fn a_folder_no_client_names_is_installed_locked_restored_and_kept_inside() {
    let (_tmp, root) = setup();
    let p = root.join("p");
    // `--dir` alone: only that folder, recorded in the lock like a client's.
    let out = ok(&p, &["add", "../src", "--dir", "tools/agent/skills"]);
    assert!(
        out.contains("installed alpha -> tools/agent/skills/alpha"),
        "{out}"
    );
    assert!(!p.join(".claude").exists() && !p.join(".agents").exists());
    let lock = std::fs::read_to_string(p.join("skb.lock")).unwrap();
    assert!(
        lock.contains("\"installed\": [\"tools/agent/skills/alpha\"]"),
        "{lock}"
    );
    // With a client: both, one copy each.
    let out = ok(
        &p,
        &[
            "add",
            "../src",
            "-s",
            "beta",
            "--client",
            "windsurf",
            "--dir",
            "./tools/agent/skills/",
        ],
    );
    assert!(
        out.contains("beta -> .windsurf/skills/beta, tools/agent/skills/beta"),
        "{out}"
    );
    ok(&p, &["verify", "--installed"]);
    let installed = snapshot(&p);
    std::fs::remove_dir_all(p.join("tools")).unwrap();
    std::fs::remove_dir_all(p.join(".windsurf")).unwrap();
    ok(&p, &["install", "--frozen"]);
    assert_eq!(snapshot(&p), installed);

    // Outside the project, through `..`, or not a skills folder: refused,
    // nothing written.
    let before = snapshot(&p);
    for (dir, why) in [
        ("../elsewhere/skills", "without `..`"),
        ("/tmp/skills", "outside the project"),
        (".git/hooks", "named `skills`"),
        (".github/workflows", "named `skills`"),
        ("x/.git/skills", "outside `.git` and `.skb`"),
        (".skb/skills", "state folder"),
        ("~/.kiro/skills", "--global"),
    ] {
        let out = fails(&p, &["add", "../src", "--dir", dir], 2);
        assert!(out.contains(why), "{dir}: {out}");
    }
    assert_eq!(snapshot(&p), before);

    // A committed lock edited to write a repository's hooks is refused
    // before anything is written.
    let lock = std::fs::read_to_string(p.join("skb.lock")).unwrap();
    std::fs::write(
        p.join("skb.lock"),
        lock.replace("tools/agent/skills/alpha", ".git/hooks"),
    )
    .unwrap();
    std::fs::remove_dir_all(p.join("tools/agent/skills/alpha")).unwrap();
    let before = snapshot(&p);
    let out = fails(&p, &["install", "--frozen"], 1);
    assert!(
        out.contains("`.git/hooks` is not a skill's folder"),
        "{out}"
    );
    assert!(!p.join(".git").exists());
    assert_eq!(snapshot(&p), before);
}

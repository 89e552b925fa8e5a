//! `skb verify --installed` against the attacks on the installed tree: a
//! skill folder nobody locked dropped into a client folder skb manages, a
//! locked folder (or a folder above it) swapped for a symbolic link to a
//! copy outside the project, modes the installer never writes, and the
//! same against the folders Vercel's `skills-lock.json` records. Each test
//! is named after its attack; each must end in exit 1 naming what was
//! found, and the JSON report gives each finding a stable `kind`.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::{Output, Stdio};

use sha2::{Digest, Sha256};

use crate::skills;
use skills_tests::{tempdir, write_tree};

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

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(out.status.success(), "skb {args:?}: {}", text(&out));
    text(&out)
}

fn fails(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert_eq!(out.status.code(), Some(1), "skb {args:?}: {}", text(&out));
    text(&out)
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: {name} does things. Use it for things.\n---\nBody.\n")
}

/// A project `p` with `alpha` and `beta` added for Claude Code from a
/// folder beside it, verified as locked.
fn installed() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempdir();
    let root = tmp.path().to_path_buf();
    write_tree(
        &root.join("src"),
        &[
            ("alpha/SKILL.md", skill("alpha").as_bytes()),
            ("alpha/scripts/run.sh", b"#!/bin/sh\necho alpha\n"),
            ("beta/SKILL.md", skill("beta").as_bytes()),
        ],
    );
    let p = root.join("p");
    std::fs::create_dir_all(&p).unwrap();
    ok(&p, &["add", "../src", "--client", "claude-code"]);
    let out = ok(&p, &["verify", "--installed"]);
    assert!(out.contains("as locked"), "{out}");
    (tmp, p)
}

/// The JSON report's findings, flattened: (folder, kind, path).
fn json_findings(p: &Path) -> Vec<(String, String, String)> {
    let out = run(p, &["verify", "--installed", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["ok"], false);
    let mut found = Vec::new();
    for entry in doc["drift"].as_array().unwrap() {
        for f in entry["findings"].as_array().unwrap() {
            found.push((
                entry["folder"].as_str().unwrap().to_string(),
                f["kind"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
            ));
        }
    }
    found
}

#[test]
fn a_new_skill_folder_in_a_managed_client_folder_is_reported() {
    let (_tmp, p) = installed();
    write_tree(
        &p.join(".claude/skills/evil"),
        &[("SKILL.md", skill("evil").as_bytes())],
    );
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(".claude/skills: not in the lock (a folder): evil"),
        "{out}"
    );
    assert!(
        out.contains("0 of 2 folders differ from")
            && out.contains("; 1 finding in the client folders they are in"),
        "{out}"
    );
    assert!(
        json_findings(&p).contains(&(".claude/skills".into(), "unlisted".into(), "evil".into())),
        "{out}"
    );
}

#[test]
fn a_staging_folder_left_in_a_client_folder_is_reported() {
    let (_tmp, p) = installed();
    write_tree(
        &p.join(".claude/skills/.alpha.skb-Ab12Cd/new"),
        &[("SKILL.md", skill("alpha").as_bytes())],
    );
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(
            ".claude/skills: not in the lock (a staging folder skb left behind): .alpha.skb-Ab12Cd"
        ),
        "{out}"
    );
}

#[test]
fn a_hidden_skill_folder_in_a_client_folder_is_reported() {
    let (_tmp, p) = installed();
    write_tree(
        &p.join(".claude/skills/.quiet"),
        &[("SKILL.md", skill("quiet").as_bytes())],
    );
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(".claude/skills: not in the lock (a hidden folder"),
        "{out}"
    );
    assert!(out.contains(": .quiet"), "{out}");
}

#[cfg(unix)]
#[test]
fn a_locked_folder_replaced_by_a_link_to_an_outside_copy_is_reported() {
    let (tmp, p) = installed();
    let outside = tmp.path().join("outside-alpha");
    std::fs::rename(p.join(".claude/skills/alpha"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, p.join(".claude/skills/alpha")).unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(&format!(
            ".claude/skills/alpha: a symbolic link to `{}`, not followed",
            outside.display()
        )),
        "{out}"
    );
    assert!(
        json_findings(&p).contains(&(".claude/skills/alpha".into(), "link".into(), String::new())),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn a_client_folder_committed_as_a_link_outside_the_project_is_reported() {
    let (tmp, p) = installed();
    // The whole `.claude` now lives elsewhere, an exact copy: every hash
    // matches, and still nothing may be read through the link.
    let outside = tmp.path().join("elsewhere");
    std::fs::rename(p.join(".claude"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, p.join(".claude")).unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(&format!(
            ".claude/skills/alpha: reached through the symbolic link `.claude` (to `{}`), not followed",
            outside.display()
        )),
        "{out}"
    );
    assert!(
        json_findings(&p).contains(&(
            ".claude/skills/beta".into(),
            "through-link".into(),
            String::new()
        )),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn a_setuid_file_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, p) = installed();
    let script = p.join(".claude/skills/alpha/scripts/run.sh");
    let mode = std::fs::metadata(&script).unwrap().permissions().mode();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(mode | 0o4000)).unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(".claude/skills/alpha: unsafe mode 4644 (setuid): scripts/run.sh"),
        "{out}"
    );
    assert!(
        json_findings(&p).contains(&(
            ".claude/skills/alpha".into(),
            "permissions".into(),
            "scripts/run.sh".into()
        )),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn a_world_writable_file_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, p) = installed();
    let file = p.join(".claude/skills/beta/SKILL.md");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(".claude/skills/beta: unsafe mode 0666 (world-writable): SKILL.md"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn a_setgid_or_world_writable_folder_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, p) = installed();
    std::fs::set_permissions(
        p.join(".claude/skills/alpha/scripts"),
        std::fs::Permissions::from_mode(0o2755),
    )
    .unwrap();
    std::fs::set_permissions(
        p.join(".claude/skills"),
        std::fs::Permissions::from_mode(0o777),
    )
    .unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(".claude/skills/alpha: unsafe mode 2755 (setgid): scripts"),
        "{out}"
    );
    assert!(
        out.contains(".claude/skills: unsafe mode 0777 (world-writable)"),
        "{out}"
    );
}

#[test]
fn a_project_lock_naming_the_home_folder_is_refused() {
    let (_tmp, p) = installed();
    let lock = std::fs::read_to_string(p.join("skb.lock")).unwrap();
    std::fs::write(
        p.join("skb.lock"),
        lock.replace("\".claude/skills/alpha\"", "\"~/.claude/skills/alpha\""),
    )
    .unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains("skill `alpha`: `~/.claude/skills/alpha` is in the user's home"),
        "{out}"
    );
}

/// Vercel's `computedHash` of a folder holding only `SKILL.md`.
fn vercel_hash(skill_md: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"SKILL.md");
    h.update(skill_md.as_bytes());
    h.finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
}

/// A project where Vercel's CLI installed `gamma` for two clients, as it
/// does: the copy in `.agents/skills/gamma`, and `.claude/skills/gamma` a
/// relative link to it; `skills-lock.json` records it.
#[cfg(unix)]
fn vercel_project() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempdir();
    let p = tmp.path().join("p");
    let md = skill("gamma");
    write_tree(
        &p.join(".agents/skills/gamma"),
        &[("SKILL.md", md.as_bytes())],
    );
    std::fs::create_dir_all(p.join(".claude/skills")).unwrap();
    std::os::unix::fs::symlink("../../.agents/skills/gamma", p.join(".claude/skills/gamma"))
        .unwrap();
    std::fs::write(
        p.join("skills-lock.json"),
        format!(
            "{{\n  \"version\": 1,\n  \"skills\": {{\n    \"gamma\": {{\n      \"source\": \"./src\",\n      \"sourceType\": \"local\",\n      \"computedHash\": \"{}\"\n    }}\n  }}\n}}\n",
            vercel_hash(&md)
        ),
    )
    .unwrap();
    (tmp, p)
}

#[cfg(unix)]
#[test]
fn vercels_own_links_to_its_copy_pass() {
    let (_tmp, p) = vercel_project();
    let out = ok(&p, &["verify", "--installed"]);
    assert!(out.contains("1 folder as skills-lock.json says"), "{out}");
}

#[cfg(unix)]
#[test]
fn a_folder_vercels_lock_records_replaced_by_a_link_outside_is_reported() {
    let (tmp, p) = vercel_project();
    let outside = tmp.path().join("outside-gamma");
    write_tree(&outside, &[("SKILL.md", skill("gamma").as_bytes())]);
    std::fs::remove_file(p.join(".claude/skills/gamma")).unwrap();
    std::os::unix::fs::symlink(&outside, p.join(".claude/skills/gamma")).unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(&format!(
            ".claude/skills/gamma: a symbolic link to `{}`, which is not Vercel's link to its copy in .agents/skills",
            outside.display()
        )),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn vercels_copy_replaced_by_a_link_outside_is_reported() {
    let (tmp, p) = vercel_project();
    let outside = tmp.path().join("outside-gamma");
    std::fs::rename(p.join(".agents/skills/gamma"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, p.join(".agents/skills/gamma")).unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(
        out.contains(&format!(
            ".agents/skills/gamma: a symbolic link to `{}`, which is not Vercel's link to its copy in .agents/skills",
            outside.display()
        )),
        "{out}"
    );
}

#[test]
fn a_duplicated_skill_key_in_vercels_lock_is_refused() {
    let tmp = tempdir();
    let p = tmp.path().join("p");
    let md = skill("gamma");
    write_tree(
        &p.join(".agents/skills/gamma"),
        &[("SKILL.md", md.as_bytes())],
    );
    let entry = |hash: &str| {
        format!(
            "\"gamma\": {{ \"source\": \"./src\", \"sourceType\": \"local\", \"computedHash\": \"{hash}\" }}"
        )
    };
    // The first entry is the one a reviewer reads; the second, last, is
    // the one a last-wins reader keeps.
    std::fs::write(
        p.join("skills-lock.json"),
        format!(
            "{{ \"version\": 1, \"skills\": {{ {}, {} }} }}",
            entry(&"0".repeat(64)),
            entry(&vercel_hash(&md))
        ),
    )
    .unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(out.contains("`gamma` appears twice"), "{out}");
}

#[test]
fn a_folder_vercels_lock_records_is_not_unlisted() {
    let (_tmp, p) = installed();
    let md = skill("gamma");
    write_tree(
        &p.join(".claude/skills/gamma"),
        &[("SKILL.md", md.as_bytes())],
    );
    std::fs::write(
        p.join("skills-lock.json"),
        format!(
            "{{ \"version\": 1, \"skills\": {{ \"gamma\": {{ \"source\": \"./src\", \"sourceType\": \"local\", \"computedHash\": \"{}\" }} }} }}",
            vercel_hash(&md)
        ),
    )
    .unwrap();
    let out = ok(&p, &["verify", "--installed"]);
    assert!(
        out.contains(
            "verified 2 skills in 2 folders (3 files): as locked; 1 folder as skills-lock.json says"
        ),
        "{out}"
    );
    // And without Vercel's lock, the same folder is unlisted.
    std::fs::remove_file(p.join("skills-lock.json")).unwrap();
    let out = fails(&p, &["verify", "--installed"]);
    assert!(out.contains("not in the lock (a folder): gamma"), "{out}");
}

#[test]
fn the_users_scope_without_home_is_an_error_not_a_skip() {
    let tmp = tempdir();
    let out = skills()
        .current_dir(tmp.path())
        .args(["verify", "--installed", "--global"])
        .env_remove("HOME")
        .env_remove("USERPROFILE")
        .env_remove("XDG_CONFIG_HOME")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("HOME is not set"), "{}", text(&out));
    let out = skills()
        .current_dir(tmp.path())
        .args(["verify", "--installed", "--global"])
        .env("HOME", "relative/home")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("not an absolute path"),
        "{}",
        text(&out)
    );
}

#[test]
fn the_users_lock_is_in_xdg_config_home_when_it_is_absolute() {
    let tmp = tempdir();
    let home = tmp.path().join("home");
    let config = tmp.path().join("config");
    write_tree(
        &tmp.path().join("src/delta"),
        &[("SKILL.md", skill("delta").as_bytes())],
    );
    let add = skills()
        .current_dir(tmp.path())
        .args(["add", "src", "--global", "--client", "claude-code"])
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", &config)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(add.status.success(), "{}", text(&add));
    assert!(config.join("skb/skb.lock").is_file());
    let out = skills()
        .current_dir(tmp.path())
        .args(["verify", "--installed", "--global"])
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", &config)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("verified 1 skill in 1 folder"),
        "{}",
        text(&out)
    );
}

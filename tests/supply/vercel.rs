//! Vercel's `skills-lock.json` against Vercel's own CLI: it installs skills
//! from a local folder, and our `computed_hash` must equal every
//! `computedHash` it wrote; an edited installed file must then show in
//! `verify`; and the CLI's rewrite of the lock is shown to drop keys of
//! other tools, which is why our lock sits beside it.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::fs;
use std::path::Path;

use skills_supply::vercel::{self, State};

use crate::node::vercel_cli;

fn write(path: &Path, bytes: &[u8]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill, for tests.\n---\n# {name}\n")
}

/// Two skills whose file names exercise the ordering (case, `_` and `-`,
/// a subfolder, a non-ASCII name), in `root/skills`.
fn two_skills(root: &Path) {
    let alpha = root.join("skills/alpha");
    write(&alpha.join("SKILL.md"), skill_md("alpha").as_bytes());
    write(&alpha.join("Zeta.md"), b"Z");
    write(&alpha.join("a_b.md"), b"underscore");
    write(&alpha.join("a-b.md"), b"hyphen");
    write(&alpha.join("Ab.md"), b"upper");
    write(&alpha.join("\u{e9}t\u{e9}.md"), b"accent");
    write(&alpha.join("scripts/run.sh"), b"echo hi\n");
    let beta = root.join("skills/beta");
    write(&beta.join("SKILL.md"), skill_md("beta").as_bytes());
    write(&beta.join("references/REF.md"), b"ref");
}

#[skills_tests::acceptance(
    "needs Node 22 and Vercel's CLI (SKILLS_VERCEL_CLI_PREFIX or target/vercel-cli)"
)]
#[test]
fn our_hash_equals_the_clis_and_verify_finds_an_edit() {
    let cli = vercel_cli();
    let tmp = tempfile::tempdir().unwrap();
    let (src, project, home) = (
        tmp.path().join("src"),
        tmp.path().join("project"),
        tmp.path().join("home"),
    );
    two_skills(&src);
    fs::create_dir_all(&project).unwrap();
    fs::create_dir_all(&home).unwrap();
    let source = src.join("skills");
    cli.run(
        &project,
        &home,
        &["add", source.to_str().unwrap(), "-y", "-a", "claude-code"],
    );

    let lock = vercel::read(&project.join(vercel::LOCK_FILE)).unwrap();
    let names: Vec<_> = lock.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["alpha", "beta"]);
    for skill in &lock.skills {
        assert_eq!(skill.source_type, "local");
        let ours = vercel::computed_hash(&source.join(&skill.name)).unwrap();
        assert_eq!(ours, skill.computed_hash, "{}", skill.name);
    }
    let findings = vercel::verify(&project, &lock);
    assert_eq!(findings.len(), 2, "{findings:?}");
    for f in &findings {
        assert_eq!(f.state, State::Matches, "{f:?}");
        assert_eq!(f.folder, Path::new(".claude/skills").join(&f.skill));
    }

    fs::write(
        project.join(".claude/skills/beta/references/REF.md"),
        b"edited",
    )
    .unwrap();
    let findings = vercel::verify(&project, &lock);
    let beta = findings.iter().find(|f| f.skill == "beta").unwrap();
    assert!(
        matches!(&beta.state, State::Differs { locked, .. } if *locked == lock.skills[1].computed_hash),
        "{beta:?}"
    );
    let alpha = findings.iter().find(|f| f.skill == "alpha").unwrap();
    assert_eq!(alpha.state, State::Matches);

    fs::remove_dir_all(project.join(".claude/skills/alpha")).unwrap();
    let findings = vercel::verify(&project, &lock);
    let alpha = findings.iter().find(|f| f.skill == "alpha").unwrap();
    assert_eq!(alpha.state, State::Missing);
}

#[skills_tests::acceptance(
    "needs Node 22 and Vercel's CLI (SKILLS_VERCEL_CLI_PREFIX or target/vercel-cli)"
)]
#[test]
fn links_git_and_node_modules_are_left_out_as_the_cli_does() {
    let cli = vercel_cli();
    let tmp = tempfile::tempdir().unwrap();
    let (src, project, home) = (
        tmp.path().join("gamma"),
        tmp.path().join("project"),
        tmp.path().join("home"),
    );
    write(&src.join("SKILL.md"), skill_md("gamma").as_bytes());
    write(&src.join(".git/HEAD"), b"ref: refs/heads/main\n");
    write(
        &src.join("node_modules/x/index.js"),
        b"module.exports = 1;\n",
    );
    write(&src.join("deep/node_modules/y.js"), b"2");
    write(&src.join("deep/.git"), b"a file named .git is hashed");
    std::os::unix::fs::symlink("SKILL.md", src.join("link.md")).unwrap();
    std::os::unix::fs::symlink("deep", src.join("linked-dir")).unwrap();
    fs::create_dir_all(&project).unwrap();
    fs::create_dir_all(&home).unwrap();
    cli.run(
        &project,
        &home,
        &["add", src.to_str().unwrap(), "-y", "-a", "claude-code"],
    );
    let lock = vercel::read(&project.join(vercel::LOCK_FILE)).unwrap();
    assert_eq!(lock.skills.len(), 1);
    assert_eq!(
        vercel::computed_hash(&src).unwrap(),
        lock.skills[0].computed_hash
    );
}

#[skills_tests::acceptance(
    "needs Node 22 and Vercel's CLI (SKILLS_VERCEL_CLI_PREFIX or target/vercel-cli)"
)]
#[test]
fn two_clients_share_one_copy_through_links() {
    let cli = vercel_cli();
    let tmp = tempfile::tempdir().unwrap();
    let (src, project, home) = (
        tmp.path().join("src"),
        tmp.path().join("project"),
        tmp.path().join("home"),
    );
    two_skills(&src);
    fs::create_dir_all(&project).unwrap();
    fs::create_dir_all(&home).unwrap();
    let source = src.join("skills");
    cli.run(
        &project,
        &home,
        &[
            "add",
            source.to_str().unwrap(),
            "-y",
            "-a",
            "claude-code",
            "codex",
        ],
    );
    let lock = vercel::read(&project.join(vercel::LOCK_FILE)).unwrap();
    for f in vercel::verify(&project, &lock) {
        match f.folder.to_str().unwrap().split('/').next() {
            Some(".agents") => assert_eq!(f.state, State::Matches, "{f:?}"),
            Some(".claude") => assert!(matches!(f.state, State::Linked { .. }), "{f:?}"),
            _ => panic!("unexpected folder: {f:?}"),
        }
    }
}

/// The evidence for keeping our lock beside theirs: the CLI's next `add`
/// drops a top-level key it does not know, and a skill added again loses
/// the fields the CLI did not write; a skill left alone keeps them.
#[skills_tests::acceptance(
    "needs Node 22 and Vercel's CLI (SKILLS_VERCEL_CLI_PREFIX or target/vercel-cli)"
)]
#[test]
fn the_clis_rewrite_drops_other_tools_keys() {
    let cli = vercel_cli();
    let tmp = tempfile::tempdir().unwrap();
    let (src, project, home) = (
        tmp.path().join("src"),
        tmp.path().join("project"),
        tmp.path().join("home"),
    );
    two_skills(&src);
    fs::create_dir_all(&project).unwrap();
    fs::create_dir_all(&home).unwrap();
    let alpha = src.join("skills/alpha");
    let beta = src.join("skills/beta");
    cli.run(
        &project,
        &home,
        &["add", alpha.to_str().unwrap(), "-y", "-a", "claude-code"],
    );
    cli.run(
        &project,
        &home,
        &["add", beta.to_str().unwrap(), "-y", "-a", "claude-code"],
    );
    let path = project.join(vercel::LOCK_FILE);
    let mut json: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    json["skb"] = serde_json::json!({"version": 1});
    json["skills"]["alpha"]["skb"] = serde_json::json!({"digest": "sha256:0"});
    json["skills"]["beta"]["skb"] = serde_json::json!({"digest": "sha256:1"});
    fs::write(&path, serde_json::to_vec_pretty(&json).unwrap()).unwrap();

    cli.run(
        &project,
        &home,
        &["add", alpha.to_str().unwrap(), "-y", "-a", "claude-code"],
    );
    let json: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert!(json.get("skb").is_none(), "{json}");
    assert!(json["skills"]["alpha"].get("skb").is_none(), "{json}");
    assert!(json["skills"]["beta"].get("skb").is_some(), "{json}");
    // What is left still parses, with the surviving field kept.
    let lock = vercel::parse(&fs::read(&path).unwrap()).unwrap();
    assert!(lock.skills[1].other.contains_key("skb"));
}

/// With a lock of ours beside theirs, the CLI still restores the project
/// from `skills-lock.json` (into `.agents/skills`), and `verify` finds
/// every restored folder matching.
#[skills_tests::acceptance(
    "needs Node 22 and Vercel's CLI (SKILLS_VERCEL_CLI_PREFIX or target/vercel-cli)"
)]
#[test]
fn the_cli_restores_beside_our_lock_and_verify_checks_it() {
    let cli = vercel_cli();
    let tmp = tempfile::tempdir().unwrap();
    let (src, project, home) = (
        tmp.path().join("src"),
        tmp.path().join("project"),
        tmp.path().join("home"),
    );
    two_skills(&src);
    fs::create_dir_all(&project).unwrap();
    fs::create_dir_all(&home).unwrap();
    let source = src.join("skills");
    cli.run(
        &project,
        &home,
        &["add", source.to_str().unwrap(), "-y", "-a", "claude-code"],
    );
    let theirs = fs::read(project.join(vercel::LOCK_FILE)).unwrap();
    write(&project.join("skills.lock"), b"# another tool's lock\n");
    fs::remove_dir_all(project.join(".claude")).unwrap();

    cli.run(&project, &home, &["experimental_install"]);
    assert_eq!(fs::read(project.join(vercel::LOCK_FILE)).unwrap(), theirs);
    let lock = vercel::parse(&theirs).unwrap();
    let findings = vercel::verify(&project, &lock);
    assert_eq!(findings.len(), 2, "{findings:?}");
    for f in &findings {
        assert_eq!(f.folder, Path::new(".agents/skills").join(&f.skill));
        assert_eq!(f.state, State::Matches, "{f:?}");
    }
}

//! `parse` on well-formed and hostile lock files, and `install_name`.

use super::*;

const GOOD: &str = r#"{
  "version": 1,
  "skills": {
    "beta": {"source": "owner/repo", "sourceUrl": "https://example.test/r.git", "ref": "main",
             "sourceType": "github", "skillPath": "skills/beta/SKILL.md",
             "computedHash": "00", "subagents": ["root"], "skb": {"digest": "sha256:1"}},
    "alpha": {"source": "/src/alpha", "sourceType": "local", "computedHash": "11"}
  }
}"#;

#[test]
fn parses_every_field_and_keeps_unknown_ones() {
    let lock = parse(GOOD.as_bytes()).unwrap();
    assert_eq!(lock.version, 1);
    let names: Vec<_> = lock.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["alpha", "beta"]);
    let beta = &lock.skills[1];
    assert_eq!(beta.source, "owner/repo");
    assert_eq!(beta.source_type, "github");
    assert_eq!(
        beta.source_url.as_deref(),
        Some("https://example.test/r.git")
    );
    assert_eq!(beta.git_ref.as_deref(), Some("main"));
    assert_eq!(beta.skill_path.as_deref(), Some("skills/beta/SKILL.md"));
    assert_eq!(beta.subagents, Some(vec!["root".to_owned()]));
    assert_eq!(beta.computed_hash, "00");
    assert_eq!(beta.other.len(), 1);
    assert!(beta.other.contains_key("skb"));
    assert!(lock.skills[0].other.is_empty());
}

fn error(input: &str) -> String {
    match parse(input.as_bytes()) {
        Ok(lock) => panic!("accepted {input:?} as {lock:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn refuses_hostile_input_naming_what_is_wrong() {
    for (input, says) in [
        ("", "not valid JSON"),
        ("\u{0}", "not valid JSON"),
        ("[]", "top level is not an object"),
        ("null", "top level is not an object"),
        (r#"{"skills": {}}"#, "`version` is missing"),
        (
            r#"{"version": "1", "skills": {}}"#,
            "`version` is not a number",
        ),
        (r#"{"version": 0, "skills": {}}"#, "`version` is 0"),
        (r#"{"version": -1, "skills": {}}"#, "`version` is -1"),
        (r#"{"version": 1.5, "skills": {}}"#, "`version` is 1.5"),
        (r#"{"version": 1e400, "skills": {}}"#, "not valid JSON"),
        (r#"{"version": 1}"#, "`skills` is missing"),
        (
            r#"{"version": 1, "skills": []}"#,
            "`skills` is not an object",
        ),
        (
            r#"{"version": 1, "skills": {"a": 1}}"#,
            "skill `a` is not an object",
        ),
        (r#"{"version": 1, "skills": {"": {}}}"#, "empty name"),
        (
            r#"{"version": 1, "skills": {"a": {"sourceType": "local", "computedHash": "0"}}}"#,
            "skill `a`: `source` is missing",
        ),
        (
            r#"{"version": 1, "skills": {"a": {"source": 1, "sourceType": "local", "computedHash": "0"}}}"#,
            "skill `a`: `source` is not a string",
        ),
        (
            r#"{"version": 1, "skills": {"a": {"source": "s", "sourceType": "local"}}}"#,
            "`computedHash` is missing",
        ),
        (
            r#"{"version": 1, "skills": {"a": {"source": "s", "sourceType": "local", "computedHash": "0", "ref": []}}}"#,
            "`ref` is not a string",
        ),
        (
            r#"{"version": 1, "skills": {"a": {"source": "s", "sourceType": "local", "computedHash": "0", "subagents": [1]}}}"#,
            "`subagents` holds something other than a string",
        ),
        (
            r#"{"version": 1, "skills": {"a": {"source": "s", "sourceType": "local", "computedHash": "0", "subagents": "x"}}}"#,
            "`subagents` is not an array",
        ),
    ] {
        let message = error(input);
        assert!(message.contains(says), "{input:?}: {message}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!(
        r#"{{"version": 1, "skills": {{"a": {{"source": "s", "sourceType": "t", "computedHash": "0", "x": {}{}}}}}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(error(&deep).contains("not valid JSON"));
}

/// The attack: a lock holding a skill twice was read last-wins (as
/// JavaScript does), so the entry a reviewer reads first was not the one
/// checked.
#[test]
fn a_duplicated_skill_key_is_an_error_naming_it() {
    let lock = |skills: &str| format!(r#"{{"version": 1, "skills": {{{skills}}}}}"#);
    let entry = |hash: &str| {
        format!(r#""a": {{"source": "s", "sourceType": "t", "computedHash": "{hash}"}}"#)
    };
    let twice = lock(&format!("{}, {}", entry("0"), entry("1")));
    match parse(twice.as_bytes()) {
        Err(VercelError::Repeated { key, line, .. }) => assert_eq!((key.as_str(), line), ("a", 1)),
        other => panic!("{other:?}"),
    }
    assert!(error(&twice).contains("`a` appears twice"));
    // Any object: the top level, and a skill's fields.
    assert!(
        error(r#"{"version": 1, "version": 2, "skills": {}}"#).contains("`version` appears twice")
    );
    let field = lock(
        r#""a": {"source": "s", "sourceType": "t", "computedHash": "0", "computedHash": "1"}"#,
    );
    assert!(error(&field).contains("`computedHash` appears twice"));
    // Keys that are the same once unescaped are the same key.
    let escaped = lock(&format!(
        "{}, {}",
        entry("0"),
        entry("1").replacen("\"a\"", r#""\u0061""#, 1)
    ));
    assert!(error(&escaped).contains("`a` appears twice"), "{escaped}");
    // Deep nesting in an unknown field is still bounded.
    assert!(parse(lock(&entry("0")).as_bytes()).is_ok());
}

#[test]
fn install_names_match_the_clis_and_never_leave_the_folder() {
    for (name, folder) in [
        ("alpha", "alpha"),
        ("My Skill_v2", "my-skill_v2"),
        ("../../etc", "etc"),
        ("..", "unnamed-skill"),
        ("a/b\\c", "a-b-c"),
        ("--.x.--", "x"),
        ("Ünïcode", "n-code"),
        ("\u{212A}elvin", "kelvin"),
        ("", "unnamed-skill"),
    ] {
        assert_eq!(install_name(name), folder, "{name:?}");
    }
    assert_eq!(install_name(&"a".repeat(300)).len(), 255);
}

/// The hash by its definition, for a folder with `files` in the order given.
fn by_hand(files: &[(&str, &[u8])]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (path, bytes) in files {
        h.update(path.as_bytes());
        h.update(bytes);
    }
    skills_core::digest::hex(&h.finalize())
}

fn folder(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (path, bytes) in files {
        let full = tmp.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, bytes).unwrap();
    }
    tmp
}

#[test]
fn the_hash_orders_paths_as_icus_root_collation() {
    // Punctuation before digits before letters; case second; `/` sorts as
    // punctuation, not as a separator.
    let files: &[(&str, &[u8])] = &[
        ("_x", b"1"),
        ("-x", b"2"),
        ("10", b"3"),
        ("9", b"4"),
        ("a_b.md", b"5"),
        ("a-b.md", b"6"),
        ("a.md", b"7"),
        ("A.md", b"8"),
        ("\u{e4}.md", b"9"),
        ("a/b", b"10"),
        ("b.md", b"11"),
        ("scripts/run.sh", b"12"),
        ("SKILL.md", b"13"),
        ("Zeta.md", b"14"),
    ];
    let tmp = folder(files);
    assert_eq!(computed_hash(tmp.path()).unwrap(), by_hand(files));
}

#[test]
fn the_hash_of_an_empty_folder_is_sha256_of_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    assert_eq!(computed_hash(tmp.path()).unwrap(), by_hand(&[]));
}

#[cfg(unix)]
#[test]
fn links_fifos_and_devices_are_skipped_without_blocking() {
    let tmp = folder(&[("SKILL.md", b"s")]);
    let p = tmp.path();
    std::os::unix::fs::symlink("/dev/zero", p.join("zero")).unwrap();
    std::os::unix::fs::symlink("/", p.join("root")).unwrap();
    std::os::unix::fs::symlink("missing", p.join("dangling")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(p.join("fifo"))
        .status()
        .unwrap();
    assert!(fifo.success());
    assert_eq!(computed_hash(p).unwrap(), by_hand(&[("SKILL.md", b"s")]));
}

#[cfg(unix)]
#[test]
fn a_name_that_is_not_utf8_is_an_error() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = folder(&[("SKILL.md", b"s")]);
    let name = std::ffi::OsStr::from_bytes(b"bad\xff");
    std::fs::write(tmp.path().join(name), b"x").unwrap();
    let e = computed_hash(tmp.path()).unwrap_err();
    assert!(e.to_string().contains("not UTF-8"), "{e}");
}

#[test]
fn a_folder_nested_too_deep_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let deep = tmp.path().join("d/".repeat(MAX_DEPTH + 2));
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("f"), b"x").unwrap();
    let e = computed_hash(tmp.path()).unwrap_err();
    assert!(e.to_string().contains("directories deep"), "{e}");
}

#[test]
fn a_folder_that_is_missing_or_a_file_is_an_error_naming_it() {
    let tmp = folder(&[("SKILL.md", b"s")]);
    for path in [tmp.path().join("missing"), tmp.path().join("SKILL.md")] {
        let e = computed_hash(&path).unwrap_err();
        assert!(e.to_string().contains(&*path.to_string_lossy()), "{e}");
    }
}

#[test]
fn verify_reports_each_folder_and_a_missing_skill() {
    let project = folder(&[
        (".agents/skills/alpha/SKILL.md", b"a"),
        (".claude/skills/alpha/SKILL.md", b"edited"),
        (".claude/skills/not-a-dir", b"x"),
    ]);
    let hash = by_hand(&[("SKILL.md", b"a")]);
    let lock = parse(
        format!(
            r#"{{"version": 1, "skills": {{
                "Alpha": {{"source": "s", "sourceType": "local", "computedHash": "{hash}"}},
                "gone": {{"source": "s", "sourceType": "local", "computedHash": "{hash}"}},
                "Not A Dir": {{"source": "s", "sourceType": "local", "computedHash": "{hash}"}}
            }}}}"#
        )
        .as_bytes(),
    )
    .unwrap();
    let found = verify(project.path(), &lock);
    let states: Vec<_> = found
        .iter()
        .map(|f| (f.skill.as_str(), f.folder.to_str().unwrap(), &f.state))
        .collect();
    assert_eq!(states.len(), 4, "{states:?}");
    assert_eq!(
        states[0],
        ("Alpha", ".agents/skills/alpha", &State::Matches)
    );
    assert_eq!(states[1].1, ".claude/skills/alpha");
    assert!(matches!(states[1].2, State::Differs { .. }));
    assert_eq!(states[2].1, ".claude/skills/not-a-dir");
    assert!(matches!(states[2].2, State::Unreadable(m) if m.contains("not a directory")));
    assert_eq!(states[3], ("gone", ".agents/skills/gone", &State::Missing));
}

#[test]
fn a_folder_with_too_many_files_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..=MAX_FILES {
        std::fs::write(tmp.path().join(i.to_string()), b"").unwrap();
    }
    let e = computed_hash(tmp.path()).unwrap_err();
    assert!(e.to_string().contains("more than 10000 files"), "{e}");
}

/// A project with skill `a` copied in `.agents/skills/a` (Vercel's
/// canonical copy) and the lock recording it.
#[cfg(unix)]
fn canonical_project() -> (tempfile::TempDir, VercelLock) {
    let project = folder(&[(".agents/skills/a/SKILL.md", b"a")]);
    let hash = by_hand(&[("SKILL.md", b"a")]);
    let lock = parse(
        format!(
            r#"{{"version": 1, "skills": {{"a": {{"source": "s", "sourceType": "local", "computedHash": "{hash}"}}}}}}"#
        )
        .as_bytes(),
    )
    .unwrap();
    (project, lock)
}

#[cfg(unix)]
fn states(project: &std::path::Path, lock: &VercelLock) -> Vec<(String, State)> {
    verify(project, lock)
        .into_iter()
        .map(|f| (f.folder.to_str().unwrap().to_owned(), f.state))
        .collect()
}

#[cfg(unix)]
#[test]
fn a_client_folder_linked_to_the_copy_is_vercels_layout() {
    use std::os::unix::fs::symlink;
    let (project, lock) = canonical_project();
    std::fs::create_dir_all(project.path().join(".claude/skills")).unwrap();
    symlink(
        "../../.agents/skills/a",
        project.path().join(".claude/skills/a"),
    )
    .unwrap();
    // An absolute link to the copy, as the CLI writes on Windows: the same.
    std::fs::create_dir_all(project.path().join(".cline/skills")).unwrap();
    symlink(
        project.path().join(".agents/skills/a"),
        project.path().join(".cline/skills/a"),
    )
    .unwrap();
    assert_eq!(
        states(project.path(), &lock),
        [
            (".agents/skills/a".into(), State::Matches),
            (
                ".claude/skills/a".into(),
                State::Linked {
                    target: "../../.agents/skills/a".into()
                }
            ),
            (
                ".cline/skills/a".into(),
                State::Linked {
                    target: project.path().join(".agents/skills/a")
                }
            ),
        ]
    );
}

/// The attack: a folder Vercel's lock records replaced by a link to a copy
/// elsewhere was skipped as "linked"; so was the copy itself.
#[cfg(unix)]
#[test]
fn a_recorded_folder_linked_elsewhere_is_a_foreign_link() {
    use std::os::unix::fs::symlink;
    let (project, lock) = canonical_project();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("SKILL.md"), b"a").unwrap();
    std::fs::create_dir_all(project.path().join(".claude/skills")).unwrap();
    symlink(outside.path(), project.path().join(".claude/skills/a")).unwrap();
    // To another skill's copy, or through `..` out of the project and back.
    std::fs::create_dir_all(project.path().join(".cline/skills")).unwrap();
    symlink(
        "../../.agents/skills/b",
        project.path().join(".cline/skills/a"),
    )
    .unwrap();
    let found = states(project.path(), &lock);
    assert_eq!(found[0], (".agents/skills/a".into(), State::Matches));
    assert_eq!(
        found[1],
        (
            ".claude/skills/a".into(),
            State::ForeignLink {
                link: ".claude/skills/a".into(),
                target: outside.path().to_path_buf()
            }
        )
    );
    assert!(
        matches!(&found[2].1, State::ForeignLink { link, .. } if link == std::path::Path::new(".cline/skills/a")),
        "{found:?}"
    );
    // The copy itself a link, even to an exact copy: never Vercel's layout.
    std::fs::remove_dir_all(project.path().join(".agents/skills/a")).unwrap();
    symlink(outside.path(), project.path().join(".agents/skills/a")).unwrap();
    let found = states(project.path(), &lock);
    assert!(
        matches!(&found[0], (f, State::ForeignLink { .. }) if f == ".agents/skills/a"),
        "{found:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_client_folder_behind_a_link_is_a_foreign_link_and_not_read() {
    use std::os::unix::fs::symlink;
    let (project, lock) = canonical_project();
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(outside.path().join("skills/a")).unwrap();
    std::fs::write(outside.path().join("skills/a/SKILL.md"), b"a").unwrap();
    symlink(outside.path(), project.path().join(".claude")).unwrap();
    let found = states(project.path(), &lock);
    assert_eq!(
        found[1],
        (
            ".claude/skills/a".into(),
            State::ForeignLink {
                link: ".claude".into(),
                target: outside.path().to_path_buf()
            }
        )
    );
}

#[cfg(unix)]
#[test]
fn links_to_a_copy_that_is_missing_are_missing() {
    use std::os::unix::fs::symlink;
    let (project, lock) = canonical_project();
    std::fs::remove_dir_all(project.path().join(".agents")).unwrap();
    std::fs::create_dir_all(project.path().join(".claude/skills")).unwrap();
    symlink(
        "../../.agents/skills/a",
        project.path().join(".claude/skills/a"),
    )
    .unwrap();
    let found = states(project.path(), &lock);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[1], (".agents/skills/a".into(), State::Missing));
}

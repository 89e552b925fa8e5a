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

#[test]
fn a_duplicate_key_keeps_the_last_as_javascript_does() {
    let lock = parse(
        br#"{"version": 1, "version": 2, "skills": {"a": {"source": "s", "sourceType": "t", "computedHash": "0", "computedHash": "1"}}}"#,
    )
    .unwrap();
    assert_eq!(lock.version, 2);
    assert_eq!(lock.skills[0].computed_hash, "1");
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

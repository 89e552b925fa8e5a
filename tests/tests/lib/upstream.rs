//! The reference validator's 40 upstream tests (`skills-ref` 0.1.1,
//! `tests/test_parser.py`, `test_prompt.py`, `test_validator.py`), ported
//! one for one as listed in `../shared/spec/skills-ref-tests.md`. Their
//! assertions are kept: substring matches where upstream matches substrings,
//! exact where upstream is exact.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::{Path, PathBuf};

use skills_compiler::properties::{self, PropertiesError};
use skills_compiler::{self as compiler, Options, yaml};
use skills_tests::tempdir;

/// `---\n<fm>\n---\n<body>` in `<tmp>/<dir>/SKILL.md`.
fn skill(tmp: &Path, dir: &str, fm: &str, body: &str) -> PathBuf {
    let d = tmp.join(dir);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("SKILL.md"), format!("---\n{fm}\n---\n{body}")).unwrap();
    d
}

fn validate(dir: &Path) -> Vec<String> {
    compiler::check_dir(dir, &Options::default()).reference_messages()
}

fn any(errors: &[String], needle: &str) -> bool {
    errors.iter().any(|e| e.contains(needle))
}

/// `parse_frontmatter(content)`: the metadata mapping and the body, or the
/// reference's `ParseError` message.
fn parse_frontmatter(content: &str) -> Result<(yaml::Node, String), String> {
    let tmp = tempdir();
    let d = tmp.path().join("x");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("SKILL.md"), content).unwrap();
    let checked = compiler::check_dir(&d, &Options::default());
    if let Some(e) = checked
        .diagnostics
        .iter()
        .find(|d| d.is_error() && d.code.stops_reading())
    {
        return Err(e.reference.clone().unwrap_or_default());
    }
    Ok((
        checked.frontmatter.clone().unwrap(),
        checked.body().trim().to_string(),
    ))
}

// ---- test_parser.py

#[test]
fn t01_valid_frontmatter() {
    let (meta, body) = parse_frontmatter(
        "---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n\nInstructions here.\n",
    )
    .unwrap();
    assert_eq!(
        meta.get("name").and_then(yaml::Node::as_str),
        Some("my-skill")
    );
    assert_eq!(
        meta.get("description").and_then(yaml::Node::as_str),
        Some("A test skill")
    );
    assert!(body.contains("# My Skill"));
}

#[test]
fn t02_missing_frontmatter() {
    let e = parse_frontmatter("# No frontmatter here").unwrap_err();
    assert!(e.contains("must start with YAML frontmatter"));
}

#[test]
fn t03_unclosed_frontmatter() {
    let e = parse_frontmatter("---\nname: my-skill\ndescription: A test skill\n").unwrap_err();
    assert!(e.contains("not properly closed"));
}

#[test]
fn t04_invalid_yaml() {
    let e =
        parse_frontmatter("---\nname: [invalid\ndescription: broken\n---\nBody here").unwrap_err();
    assert!(e.contains("Invalid YAML"));
}

#[test]
fn t05_non_dict_frontmatter() {
    let e = parse_frontmatter("---\n- just\n- a\n- list\n---\nBody").unwrap_err();
    assert!(e.contains("must be a YAML mapping"));
}

#[test]
fn t06_read_valid_skill() {
    let tmp = tempdir();
    let d = skill(
        tmp.path(),
        "my-skill",
        "name: my-skill\ndescription: A test skill\nlicense: MIT",
        "# My Skill\n",
    );
    let p = properties::read_properties(&d).unwrap();
    assert_eq!(p.name, "my-skill");
    assert_eq!(p.description, "A test skill");
    assert_eq!(p.license.as_ref().and_then(yaml::Node::as_str), Some("MIT"));
}

#[test]
fn t07_read_with_metadata() {
    let tmp = tempdir();
    let d = skill(
        tmp.path(),
        "my-skill",
        "name: my-skill\ndescription: A test skill\nmetadata:\n  author: Test Author\n  version: 1.0",
        "Body\n",
    );
    let p = properties::read_properties(&d).unwrap();
    assert_eq!(
        p.metadata,
        Some(properties::Metadata::Map(vec![
            ("author".into(), "Test Author".into()),
            ("version".into(), "1.0".into())
        ]))
    );
}

#[test]
fn t08_missing_skill_md() {
    let tmp = tempdir();
    let e = properties::read_properties(tmp.path()).unwrap_err();
    assert!(matches!(e, PropertiesError::Parse(_)));
    assert!(e.to_string().contains("SKILL.md not found"));
}

#[test]
fn t09_missing_name() {
    let tmp = tempdir();
    let d = skill(
        tmp.path(),
        "my-skill",
        "description: A test skill",
        "Body\n",
    );
    let e = properties::read_properties(&d).unwrap_err();
    assert!(matches!(e, PropertiesError::Validation(_)));
    assert!(
        e.to_string()
            .contains("Missing required field in frontmatter: name")
    );
}

#[test]
fn t10_missing_description() {
    let tmp = tempdir();
    let d = skill(tmp.path(), "my-skill", "name: my-skill", "Body\n");
    let e = properties::read_properties(&d).unwrap_err();
    assert!(
        e.to_string()
            .contains("Missing required field in frontmatter: description")
    );
}

fn found_skill_md(dir: &Path) -> Option<PathBuf> {
    compiler::check_dir(dir, &Options::default()).skill_md
}

#[test]
fn t11_find_skill_md_prefers_uppercase() {
    let tmp = tempdir();
    std::fs::write(tmp.path().join("SKILL.md"), "upper").unwrap();
    std::fs::write(tmp.path().join("skill.md"), "lower").unwrap();
    assert_eq!(
        found_skill_md(tmp.path()).unwrap().file_name().unwrap(),
        "SKILL.md"
    );
}

#[test]
fn t12_find_skill_md_accepts_lowercase() {
    let tmp = tempdir();
    std::fs::write(tmp.path().join("skill.md"), "lower").unwrap();
    let found = found_skill_md(tmp.path()).unwrap();
    assert_eq!(
        found.file_name().unwrap().to_string_lossy().to_lowercase(),
        "skill.md"
    );
}

#[test]
fn t13_find_skill_md_returns_none_when_missing() {
    let tmp = tempdir();
    assert_eq!(found_skill_md(tmp.path()), None);
}

#[test]
fn t14_read_properties_with_lowercase_skill_md() {
    let tmp = tempdir();
    let d = tmp.path().join("my-skill");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("skill.md"),
        "---\nname: my-skill\ndescription: A test skill\n---\nBody\n",
    )
    .unwrap();
    assert_eq!(properties::read_properties(&d).unwrap().name, "my-skill");
}

#[test]
fn t15_read_with_allowed_tools() {
    let tmp = tempdir();
    let d = skill(
        tmp.path(),
        "my-skill",
        "name: my-skill\ndescription: A test skill\nallowed-tools: Bash(jq:*) Bash(git:*)",
        "Body\n",
    );
    let p = properties::read_properties(&d).unwrap();
    assert_eq!(
        p.allowed_tools.as_ref().and_then(yaml::Node::as_str),
        Some("Bash(jq:*) Bash(git:*)")
    );
    assert!(
        p.to_json()
            .contains("\"allowed-tools\": \"Bash(jq:*) Bash(git:*)\"")
    );
}

// ---- test_prompt.py

#[test]
fn t16_empty_list() {
    assert_eq!(
        properties::to_prompt([]),
        "<available_skills>\n</available_skills>"
    );
}

#[test]
fn t17_single_skill() {
    let loc = Path::new("/skills/my-skill/SKILL.md");
    let out = properties::to_prompt([("my-skill", "A test skill", loc)]);
    for part in [
        "<available_skills>",
        "</available_skills>",
        "<name>\nmy-skill\n</name>",
        "<description>\nA test skill\n</description>",
        "<location>",
        "SKILL.md",
    ] {
        assert!(out.contains(part), "{part}");
    }
}

#[test]
fn t18_multiple_skills() {
    let a = Path::new("/s/skill-a/SKILL.md");
    let b = Path::new("/s/skill-b/SKILL.md");
    let out = properties::to_prompt([
        ("skill-a", "First skill", a),
        ("skill-b", "Second skill", b),
    ]);
    assert_eq!(out.matches("<skill>").count(), 2);
    assert_eq!(out.matches("</skill>").count(), 2);
    assert!(out.contains("skill-a") && out.contains("skill-b"));
}

#[test]
fn t19_special_characters_escaped() {
    let loc = Path::new("/s/special-skill/SKILL.md");
    let out = properties::to_prompt([("special-skill", "Use <foo> & <bar> tags", loc)]);
    assert!(out.contains("&lt;foo&gt;") && out.contains("&amp;") && out.contains("&lt;bar&gt;"));
    assert!(!out.contains("<foo>") && !out.contains("<bar>"));
}

// ---- test_validator.py

fn valid(dir: &str, fm: &str) -> Vec<String> {
    let tmp = tempdir();
    validate(&skill(tmp.path(), dir, fm, "# Body\n"))
}

#[test]
fn t20_valid_skill() {
    assert_eq!(
        valid("my-skill", "name: my-skill\ndescription: A test skill"),
        Vec::<String>::new()
    );
}

#[test]
fn t21_nonexistent_path() {
    let tmp = tempdir();
    let errors = validate(&tmp.path().join("nonexistent"));
    assert_eq!(errors.len(), 1);
    assert!(errors[0].contains("does not exist"));
}

#[test]
fn t22_not_a_directory() {
    let tmp = tempdir();
    let f = tmp.path().join("file.txt");
    std::fs::write(&f, "test").unwrap();
    let errors = validate(&f);
    assert_eq!(errors.len(), 1);
    assert!(errors[0].contains("Not a directory"));
}

#[test]
fn t23_missing_skill_md() {
    let tmp = tempdir();
    let d = tmp.path().join("my-skill");
    std::fs::create_dir_all(&d).unwrap();
    let errors = validate(&d);
    assert_eq!(errors.len(), 1);
    assert!(errors[0].contains("Missing required file: SKILL.md"));
}

#[test]
fn t24_invalid_name_uppercase() {
    assert!(any(
        &valid("MySkill", "name: MySkill\ndescription: A test skill"),
        "lowercase"
    ));
}

#[test]
fn t25_name_too_long() {
    let name = "a".repeat(70);
    let errors = valid(&name, &format!("name: {name}\ndescription: A test skill"));
    assert!(any(&errors, "exceeds") && any(&errors, "character limit"));
}

#[test]
fn t26_name_leading_hyphen() {
    let errors = valid("-my-skill", "name: -my-skill\ndescription: A test skill");
    assert!(any(&errors, "cannot start or end with a hyphen"));
}

#[test]
fn t27_name_consecutive_hyphens() {
    let errors = valid("my--skill", "name: my--skill\ndescription: A test skill");
    assert!(any(&errors, "consecutive hyphens"));
}

#[test]
fn t28_name_invalid_characters() {
    let errors = valid("my_skill", "name: my_skill\ndescription: A test skill");
    assert!(any(&errors, "invalid characters"));
}

#[test]
fn t29_name_directory_mismatch() {
    let errors = valid(
        "wrong-name",
        "name: correct-name\ndescription: A test skill",
    );
    assert!(any(&errors, "must match skill name"));
}

#[test]
fn t30_unexpected_fields() {
    let errors = valid(
        "my-skill",
        "name: my-skill\ndescription: A test skill\nunknown_field: should not be here",
    );
    assert!(any(&errors, "Unexpected fields"));
}

#[test]
fn t31_valid_with_all_fields() {
    let errors = valid(
        "my-skill",
        "name: my-skill\ndescription: A test skill\nlicense: MIT\nmetadata:\n  author: Test",
    );
    assert_eq!(errors, Vec::<String>::new());
}

#[test]
fn t32_allowed_tools_accepted() {
    let errors = valid(
        "my-skill",
        "name: my-skill\ndescription: A test skill\nallowed-tools: Bash(jq:*) Bash(git:*)",
    );
    assert_eq!(errors, Vec::<String>::new());
}

#[test]
fn t33_i18n_chinese_name() {
    assert_eq!(
        valid("技能", "name: 技能\ndescription: A skill with Chinese name"),
        Vec::<String>::new()
    );
}

#[test]
fn t34_i18n_russian_name_with_hyphens() {
    assert_eq!(
        valid(
            "мой-навык",
            "name: мой-навык\ndescription: A skill with Russian name"
        ),
        Vec::<String>::new()
    );
}

#[test]
fn t35_i18n_russian_lowercase_valid() {
    assert_eq!(
        valid(
            "навык",
            "name: навык\ndescription: A skill with Russian lowercase name"
        ),
        Vec::<String>::new()
    );
}

#[test]
fn t36_i18n_russian_uppercase_rejected() {
    let errors = valid(
        "НАВЫК",
        "name: НАВЫК\ndescription: A skill with Russian uppercase name",
    );
    assert!(any(&errors, "lowercase"));
}

#[test]
fn t37_description_too_long() {
    let errors = valid(
        "my-skill",
        &format!("name: my-skill\ndescription: {}", "x".repeat(1100)),
    );
    assert!(any(&errors, "exceeds") && any(&errors, "1024"));
}

#[test]
fn t38_valid_compatibility() {
    let errors = valid(
        "my-skill",
        "name: my-skill\ndescription: A test skill\ncompatibility: Requires Python 3.11+",
    );
    assert_eq!(errors, Vec::<String>::new());
}

#[test]
fn t39_compatibility_too_long() {
    let errors = valid(
        "my-skill",
        &format!(
            "name: my-skill\ndescription: A test skill\ncompatibility: {}",
            "x".repeat(550)
        ),
    );
    assert!(any(&errors, "exceeds") && any(&errors, "500"));
}

#[test]
fn t40_nfkc_normalization() {
    // Directory in NFC, name in NFD.
    let errors = valid("caf\u{e9}", "name: cafe\u{301}\ndescription: A test skill");
    assert_eq!(errors, Vec::<String>::new());
}

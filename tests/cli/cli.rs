//! `skb validate` as a user drives it: the bundled examples, exit codes,
//! every output format on one broken skill, `--format skills-ref` paths,
//! discovery layouts, a closed pipe, the lints, odd encodings, and
//! the guide's table of codes against what the binary reports.
//!
//! Each test builds its skills in a temporary directory and runs the binary
//! there with relative paths, so the paths in the output are predictable.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Output, Stdio};

use crate::skills;
use serde_json::Value;
use skills_tests::{tempdir, workspace, write_tree};

/// A `SKILL.md` with `name` and `description` (which says when to use it).
fn skill_md(name: &str) -> Vec<u8> {
    format!("---\nname: {name}\ndescription: Adds numbers. Use when testing.\n---\nBody.\n")
        .into_bytes()
}

/// Runs `skb validate <args>` in `cwd`.
fn validate(cwd: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(cwd)
        .arg("validate")
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

/// Every `code` reported in a `--format json` document, in order.
fn json_codes(out: &Output) -> Vec<String> {
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["diagnostics"].as_array().unwrap().iter())
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// A skill in `broken/` with no `name` and a 1,100-character description.
fn broken(dir: &Path) {
    let md = format!("---\ndescription: {}\n---\nBody.\n", "x".repeat(1100));
    write_tree(dir, &[("broken/SKILL.md", md.as_bytes())]);
}

// ---- the bundled examples -------------------------------------------------

#[test]
fn bundled_examples_are_valid_under_both_profiles() {
    for profile in ["spec", "claude-code"] {
        let out = validate(
            &workspace(),
            &["skills", "--deny-warnings", "--profile", profile],
        );
        let text = stdout(&out);
        assert_eq!(code(&out), 0, "{profile}: {text}{}", stderr(&out));
        let last = text.lines().last().unwrap();
        assert!(
            last.starts_with("checked 5 skills in ") && last.ends_with(": all valid"),
            "{profile}: summary line {last:?}"
        );
        assert_eq!(
            text.lines().count(),
            1,
            "{profile}: only the summary: {text}"
        );
    }
}

// ---- exit codes -----------------------------------------------------------

#[test]
fn exit_codes() {
    let tmp = tempdir();
    write_tree(
        tmp.path(),
        &[
            ("good/SKILL.md", &skill_md("good")),
            // Valid, but warns (SK307: no hint of when to use it).
            (
                "warn/SKILL.md",
                b"---\nname: warn\ndescription: Adds numbers.\n---\n",
            ),
            (
                "bad/SKILL.md",
                b"---\nname: other\ndescription: Use when testing.\n---\n",
            ),
        ],
    );
    let cwd = tmp.path();
    assert_eq!(code(&validate(cwd, &["good"])), 0);
    assert_eq!(code(&validate(cwd, &["good", "--deny-warnings"])), 0);
    assert_eq!(code(&validate(cwd, &["bad"])), 1);
    assert_eq!(code(&validate(cwd, &["good", "bad"])), 1);
    let warn = validate(cwd, &["warn"]);
    assert!(
        stdout(&warn).contains("warning[SK307]"),
        "{}",
        stdout(&warn)
    );
    assert_eq!(code(&warn), 0);
    assert_eq!(code(&validate(cwd, &["warn", "--deny-warnings"])), 1);
    for usage in [
        &["good", "--bogus"][..],
        &["good", "--format", "xml"],
        &["good", "--profile", "strict"],
        &["good", "--format", "skills-ref", "--profile", "claude-code"],
    ] {
        let out = validate(cwd, usage);
        assert_eq!(code(&out), 2, "{usage:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty(), "{usage:?} says why");
        assert!(!stderr(&out).contains("panicked"), "{usage:?}");
    }
}

// ---- every format on one broken skill -------------------------------------

#[test]
fn human_format_shows_both_problems_with_snippets() {
    let tmp = tempdir();
    broken(tmp.path());
    let out = validate(tmp.path(), &["broken", "--color", "never"]);
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert!(!text.contains('\x1b'), "no colour: {text:?}");
    for needle in [
        "error[SK202]",
        "error[SK212]",
        " --> broken/SKILL.md:2:1\n",
        " --> broken/SKILL.md:2:14\n",
        "2 | description: xxx",
        "  = help: ",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
    // The 1,100-character line is cut to a window ending in `...`, and the
    // carets run from column 14 to the end of the window.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("2 | description: "))
        .unwrap();
    let line = lines[at];
    assert!(
        line.ends_with("...") && line.chars().count() < 130,
        "{line}"
    );
    let carets = lines[at + 1];
    assert!(
        carets.starts_with(&format!("  | {}^", " ".repeat(13))),
        "{carets}"
    );
    assert_eq!(
        carets.trim_start_matches(['|', ' ']).len(),
        line.len() - "2 | description: ".len() - 3
    );
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("checked 1 skill in ") && last.contains("0 valid, 1 invalid (2 errors"),
        "{last}"
    );
}

#[test]
fn human_format_colours_on_request() {
    let tmp = tempdir();
    broken(tmp.path());
    let out = validate(tmp.path(), &["broken", "--color", "always"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.contains("\x1b["), "ANSI escapes: {text:?}");
    assert!(text.contains("SK202"));
    // `auto` on a pipe is plain.
    let out = validate(tmp.path(), &["broken"]);
    assert!(!stdout(&out).contains('\x1b'));
}

#[test]
fn json_format_counts_codes_and_positions() {
    let tmp = tempdir();
    broken(tmp.path());
    let out = validate(tmp.path(), &["broken", "--format", "json"]);
    assert_eq!(code(&out), 1);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["version"], 1);
    let summary = &doc["summary"];
    assert_eq!(summary["skills"], 1);
    assert_eq!(summary["valid"], 0);
    assert_eq!(summary["invalid"], 1);
    assert_eq!(summary["errors"], 2);
    assert!(summary["elapsed_ms"].is_number());
    let skill = &doc["skills"][0];
    assert_eq!(skill["dir"], "broken");
    assert_eq!(skill["name"], Value::Null);
    assert_eq!(skill["valid"], false);
    let diags = skill["diagnostics"].as_array().unwrap();
    let warnings = diags.iter().filter(|d| d["severity"] == "warning").count();
    assert_eq!(summary["warnings"], warnings);
    let find = |code: &str| diags.iter().find(|d| d["code"] == code).unwrap();
    let name = find("SK202");
    assert_eq!(name["slug"], "missing-name");
    assert_eq!(name["severity"], "error");
    assert_eq!(name["path"], "broken/SKILL.md");
    assert_eq!(
        name["reference"],
        "Missing required field in frontmatter: name"
    );
    let desc = find("SK212");
    assert_eq!(desc["severity"], "error");
    assert_eq!(desc["line"], 2);
    assert_eq!(desc["column"], 14);
    assert_eq!(desc["end_line"], 2);
    assert_eq!(desc["end_column"], 1114);
    assert_eq!(desc["byte_start"], 17);
    assert_eq!(desc["byte_end"], 1117);
    assert!(
        desc["message"].as_str().unwrap().contains("1100")
            || desc["message"].as_str().unwrap().contains("1,100")
    );
    assert!(
        desc["source_line"]
            .as_str()
            .unwrap()
            .starts_with("description: x")
    );
    assert!(desc["help"].is_string());
    assert_eq!(
        desc["reference"],
        "Description exceeds 1024 character limit (1100 chars)"
    );
}

#[test]
fn sarif_format_points_results_at_their_rules() {
    let tmp = tempdir();
    broken(tmp.path());
    let out = validate(tmp.path(), &["broken", "--format", "sarif"]);
    assert_eq!(code(&out), 1);
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"SK202") && ids.contains(&"SK212"), "{ids:?}");
    for r in results {
        let index = usize::try_from(r["ruleIndex"].as_u64().unwrap()).unwrap();
        assert_eq!(rules[index]["id"], r["ruleId"], "{r}");
        let location = &r["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "broken/SKILL.md");
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        // Where the clients differ is about the whole skill (SK49x): the
        // file, not a line of it.
        if !r["ruleId"].as_str().unwrap().starts_with("SK49") {
            assert_eq!(location["region"]["startLine"], 2);
        }
    }
}

#[test]
fn github_format_is_one_escaped_command_per_problem() {
    let tmp = tempdir();
    broken(tmp.path());
    let out = validate(tmp.path(), &["broken", "--format", "github"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let (summary, commands) = lines.split_last().unwrap();
    assert!(summary.starts_with("checked 1 skill in "), "{summary}");
    for line in commands {
        assert!(
            line.starts_with("::error file=broken/SKILL.md,")
                || line.starts_with("::warning file="),
            "{line}"
        );
        // Where the clients differ is about the whole skill: no line.
        assert!(
            (line.contains(",line=2,") && line.contains(",col="))
                || (line.starts_with("::warning ") && line.contains("title=SK49")),
            "{line}"
        );
    }
    assert!(
        commands
            .iter()
            .any(|l| l.starts_with("::error ") && l.contains("SK202"))
    );
    assert!(
        commands
            .iter()
            .any(|l| l.starts_with("::error ") && l.contains("SK212"))
    );

    // User text with `%` and a newline (a quoted `\n` in the name) is escaped.
    write_tree(
        tmp.path(),
        &[
            (
                "pct/SKILL.md",
                b"---\nname: a%b\ndescription: Use when testing.\n---\n",
            ),
            (
                "nl/SKILL.md",
                b"---\nname: \"a\\nb\"\ndescription: Use when testing.\n---\n",
            ),
        ],
    );
    let out = validate(tmp.path(), &["pct", "nl", "--format", "github"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let (_, commands) = lines.split_last().unwrap();
    for line in commands {
        assert!(
            line.starts_with("::error file=") || line.starts_with("::warning file="),
            "a command per line: {line}"
        );
    }
    assert!(text.contains("`a%25b`"), "{text}");
    assert!(!text.contains("a%b"), "{text}");
    assert!(text.contains("`a%0Ab`"), "{text}");
}

// ---- --format skills-ref --------------------------------------------------

#[test]
fn skills_ref_format_prints_pathlib_paths() {
    let tmp = tempdir();
    write_tree(tmp.path(), &[("x/SKILL.md", &skill_md("x"))]);
    for (arg, shown) in [
        ("./x/", "x"),
        ("x", "x"),
        (".//x/./", "x"),
        ("x/SKILL.md", "x"),
        ("./x/SKILL.md", "x"),
    ] {
        let out = validate(tmp.path(), &["--format", "skills-ref", arg]);
        assert_eq!(code(&out), 0, "{arg}: {}", stderr(&out));
        assert_eq!(stdout(&out), format!("Valid skill: {shown}\n"), "{arg}");
        assert_eq!(stderr(&out), "", "{arg}");
    }
    let out = validate(
        &tmp.path().join("x"),
        &["--format", "skills-ref", "SKILL.md"],
    );
    assert_eq!(stdout(&out), "Valid skill: .\n");

    let out = validate(tmp.path(), &["--format", "skills-ref", "nope"]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("Path 'nope' does not exist"),
        "{}",
        stderr(&out)
    );
}

// ---- discovery through the CLI --------------------------------------------

#[test]
fn plugin_skills_are_named_plugin_colon_skill() {
    let tmp = tempdir();
    write_tree(
        tmp.path(),
        &[
            ("plug/.claude-plugin/plugin.json", br#"{"name": "p"}"#),
            ("plug/skills/a/SKILL.md", &skill_md("a")),
            ("plug/skills/b/SKILL.md", &skill_md("b")),
        ],
    );
    let out = validate(tmp.path(), &["plug", "--format", "json", "--deny-warnings"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["p:a", "p:b"]);
    assert_eq!(doc["skills"][0]["dir"], "plug/skills/a");
}

#[test]
fn duplicate_names_across_roots_warn_and_pass() {
    let tmp = tempdir();
    write_tree(
        tmp.path(),
        &[
            ("r1/dup/SKILL.md", &skill_md("dup")),
            ("r2/dup/SKILL.md", &skill_md("dup")),
        ],
    );
    let out = validate(tmp.path(), &["r1", "r2", "--color", "never"]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}");
    assert!(text.contains("warning[SK006]"), "{text}");
    assert!(text.contains("r1/dup") && text.contains("r2/dup"), "{text}");
    let out = validate(tmp.path(), &["r1", "r2", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let dup = &doc["skills"][1]["diagnostics"][0];
    assert_eq!(dup["code"], "SK006");
    assert_eq!(dup["path"], "r2/dup/SKILL.md");
    assert!(dup["message"].as_str().unwrap().contains("r1/dup"));
    assert_eq!(
        code(&validate(tmp.path(), &["r1", "r2", "--deny-warnings"])),
        1
    );
}

#[test]
fn nested_groups_are_found_and_depth_is_limited() {
    let tmp = tempdir();
    write_tree(
        tmp.path(),
        &[
            ("root/a/SKILL.md", &skill_md("a")),
            ("root/g1/g2/deep/SKILL.md", &skill_md("deep")),
        ],
    );
    let out = validate(tmp.path(), &["root", "--format", "json", "--deny-warnings"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let dirs: Vec<&str> = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["dir"].as_str().unwrap())
        .collect();
    assert_eq!(dirs, ["root/a", "root/g1/g2/deep"]);

    let out = validate(
        tmp.path(),
        &["root", "--format", "json", "--max-depth", "1"],
    );
    // Reaching the limit is an error: a tree is never passed on a part of it.
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("--max-depth"), "{}", stdout(&out));
    assert!(
        json_codes(&out).contains(&"SK007".to_string()),
        "{}",
        stdout(&out)
    );
    let text = stdout(&out);
    assert!(!text.contains("root/g1/g2/deep"), "not searched: {text}");
}

/// The summary counts skills; a root's discovery warning is not a skill.
#[test]
fn discovery_warnings_do_not_count_as_skills() {
    let tmp = tempdir();
    write_tree(
        tmp.path(),
        &[
            ("root/a/SKILL.md", &skill_md("a")),
            ("root/g1/g2/deep/SKILL.md", &skill_md("deep")),
        ],
    );
    let out = validate(
        tmp.path(),
        &["root", "--format", "json", "--max-depth", "1"],
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Only `root/a` was checked.
    assert_eq!(doc["summary"]["skills"], 1, "{}", stdout(&out));
    let out = validate(tmp.path(), &["root", "--max-depth", "1"]);
    let text = stdout(&out);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("checked 1 skill in "),
        "{text}"
    );
}

// ---- a closed pipe --------------------------------------------------------

#[test]
fn a_closed_pipe_exits_quietly() {
    let tmp = tempdir();
    // 200 invalid skills with long lines: about a megabyte of output, far
    // more than a pipe holds, so the writer meets the closed pipe.
    let md = format!("---\ndescription: {}\n---\n", "x".repeat(1100));
    let files: Vec<(String, &[u8])> = (0..200)
        .map(|i| (format!("many/s{i:03}/SKILL.md"), md.as_bytes()))
        .collect();
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (p.as_str(), *b)).collect();
    write_tree(tmp.path(), &refs);
    for format in ["human", "json", "github"] {
        let mut child = skills()
            .current_dir(tmp.path())
            .args(["validate", "many", "--threads", "2", "--format", format])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        reader.read_line(&mut first).unwrap();
        assert!(!first.is_empty(), "{format}");
        drop(reader);
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{format}: {err}");
        assert!(!err.contains("skills:"), "{format}: {err}");
        assert!(
            !err.to_lowercase().contains("broken pipe"),
            "{format}: {err}"
        );
        // Every skill is invalid, so only the closed pipe explains exit 0.
        assert_eq!(out.status.code(), Some(0), "{format}: {err}");
    }
}

// ---- lints ----------------------------------------------------------------

fn lint_tree(dir: &Path) {
    write_tree(
        dir,
        &[
            (
                "lint/l/SKILL.md",
                "---\nname: l\ndescription: Use when testing <tag> things\u{200b}.\n---\nSee [the guide](references/missing.md).\n"
                    .as_bytes(),
            ),
            ("lint/l/scripts/run.py", b"print(1)\n"),
            ("lint/l/__pycache__/x.pyc", b"\0\0"),
            ("lint/low/skill.md", &skill_md("low")),
        ],
    );
}

#[test]
fn lints_are_reported() {
    let tmp = tempdir();
    lint_tree(tmp.path());
    let out = validate(tmp.path(), &["lint", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let codes = json_codes(&out);
    let mut want = vec!["SK302", "SK305", "SK306", "SK308", "SK011"];
    if cfg!(unix) {
        want.extend(["SK303", "SK304"]);
    }
    for c in want {
        assert!(codes.iter().any(|x| x == c), "{c} not in {codes:?}");
    }
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let all: Vec<&Value> = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["diagnostics"].as_array().unwrap().iter())
        .collect();
    let at = |c: &str| all.iter().find(|d| d["code"] == c).copied().unwrap();
    assert_eq!(at("SK302")["line"], 5);
    assert!(
        at("SK302")["message"]
            .as_str()
            .unwrap()
            .contains("references/missing.md")
    );
    assert_eq!(at("SK305")["line"], 3);
    assert_eq!(at("SK011")["path"], "lint/low/skill.md");
    assert_eq!(code(&validate(tmp.path(), &["lint", "--deny-warnings"])), 1);
}

#[test]
fn no_lints_keeps_the_specification_checks() {
    let tmp = tempdir();
    lint_tree(tmp.path());
    let out = validate(tmp.path(), &["lint", "--format", "json", "--no-lints"]);
    assert_eq!(code(&out), 0);
    let codes = json_codes(&out);
    for c in ["SK302", "SK303", "SK304", "SK305", "SK306", "SK307"] {
        assert!(!codes.iter().any(|x| x == c), "{c} in {codes:?}");
    }
    assert!(codes.iter().any(|x| x == "SK011"), "{codes:?}");
}

#[test]
fn no_lints_suppresses_every_sk3xx() {
    let tmp = tempdir();
    lint_tree(tmp.path());
    let out = validate(tmp.path(), &["lint", "--format", "json", "--no-lints"]);
    let codes = json_codes(&out);
    assert!(!codes.iter().any(|c| c.starts_with("SK3")), "{codes:?}");
}

// ---- encodings and odd files ----------------------------------------------

#[test]
fn crlf_and_lone_cr_files_validate() {
    let tmp = tempdir();
    write_tree(
        tmp.path(),
        &[
            (
                "crlf/SKILL.md",
                b"---\r\nname: crlf\r\ndescription: Use when testing.\r\n---\r\nBody.\r\n",
            ),
            (
                "cr/SKILL.md",
                b"---\rname: cr\rdescription: Use when testing.\r---\rBody.\r",
            ),
        ],
    );
    let out = validate(tmp.path(), &["crlf", "--deny-warnings"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    // Lone CRs are valid; Codex alone does not find the frontmatter.
    let out = validate(tmp.path(), &["cr", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(json_codes(&out), ["SK491"]);
    // Positions count lone CRs as line ends too.
    write_tree(
        tmp.path(),
        &[(
            "crbad/SKILL.md",
            b"---\rname: Bad\rdescription: Use when testing.\r---\r",
        )],
    );
    let out = validate(tmp.path(), &["crbad", "--format", "json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &doc["skills"][0]["diagnostics"][0];
    assert_eq!(d["code"], "SK205");
    assert_eq!(d["line"], 2);
    assert_eq!(d["column"], 7);
    assert_eq!(d["source_line"], "name: Bad");
}

/// Runs one skill and returns (exit code, the JSON diagnostics).
fn one(files: &[(&str, &[u8])], dir: &str) -> (i32, Vec<Value>) {
    let tmp = tempdir();
    write_tree(tmp.path(), files);
    let out = validate(tmp.path(), &[dir, "--format", "json"]);
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["diagnostics"].as_array().unwrap().clone())
        .collect();
    (code(&out), diags)
}

#[test]
fn byte_order_mark_is_sk102() {
    let (rc, diags) = one(
        &[(
            "bom/SKILL.md",
            b"\xEF\xBB\xBF---\nname: bom\ndescription: Use when testing.\n---\n",
        )],
        "bom",
    );
    assert_eq!(rc, 1);
    assert_eq!(diags[0]["code"], "SK102");
}

#[test]
fn latin1_is_sk101_with_the_offset() {
    let (rc, diags) = one(
        &[(
            "lat/SKILL.md",
            b"---\nname: lat\ndescription: caf\xE9. Use when testing.\n---\n",
        )],
        "lat",
    );
    assert_eq!(rc, 1);
    assert_eq!(diags[0]["code"], "SK101");
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.contains("30"), "byte offset 30 named: {message}");
    assert_eq!(diags[0]["byte_start"], 30);
    assert_eq!(diags[0]["line"], 3);
}

#[test]
fn empty_file_is_sk103() {
    let (rc, diags) = one(&[("empty/SKILL.md", b"")], "empty");
    assert_eq!(rc, 1);
    assert_eq!(diags[0]["code"], "SK103");
}

#[test]
fn skill_md_directory_is_sk004() {
    let tmp = tempdir();
    std::fs::create_dir_all(tmp.path().join("d/SKILL.md")).unwrap();
    let out = validate(tmp.path(), &["d", "--format", "json"]);
    assert_eq!(code(&out), 1);
    assert!(!stderr(&out).contains("panicked"));
    assert_eq!(json_codes(&out), ["SK004"]);
    // And through the reference's format: a message, not a traceback.
    let out = validate(tmp.path(), &["d", "--format", "skills-ref"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).starts_with("Validation failed for d:\n"),
        "{}",
        stderr(&out)
    );
}

// ---- the guide's honesty ---------------------------------------------------

#[test]
fn guide_lists_every_code() {
    let tmp = tempdir();
    write_tree(tmp.path(), &[("x/SKILL.md", &skill_md("x"))]);
    let out = validate(tmp.path(), &["x", "--format", "sarif"]);
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.len() > 40, "{} rules", rules.len());
    let guide = std::fs::read_to_string(workspace().join("GUIDE.md")).unwrap();
    let mut missing = Vec::new();
    for rule in rules {
        let id = rule["id"].as_str().unwrap();
        // SARIF names rules in PascalCase (`not-a-directory` is
        // `NotDirectory`); the guide by their kebab-case slug.
        let name = rule["name"].as_str().unwrap();
        let prefix = format!("| `{id}` | `");
        let Some(slug) = guide
            .lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .and_then(|rest| rest.split('`').next())
        else {
            missing.push(format!("| `{id}` | (the slug of {name}) |"));
            continue;
        };
        let pascal: String = slug
            .split('-')
            .filter(|w| *w != "a")
            .map(|w| w.get(..1).unwrap_or_default().to_uppercase() + w.get(1..).unwrap_or_default())
            .collect();
        assert_eq!(pascal, name, "{id}: the guide's slug `{slug}`");
    }
    assert!(
        missing.is_empty(),
        "rows missing from GUIDE.md: {missing:#?}"
    );
}

/// A directory name carrying terminal escapes (`ESC [2J` clears the screen,
/// U+202E reverses the text after it) reaches the terminal as placeholders,
/// in the message, the `-->` path line and the error line alike.
#[test]
fn control_characters_in_file_names_never_reach_the_terminal() {
    let tmp = tempdir();
    let dir = "evil\u{1b}[2J\u{202e}";
    write_tree(tmp.path(), &[(&format!("{dir}/SKILL.md"), &skill_md("x"))]);
    let out = validate(tmp.path(), &[dir]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );
    assert!(
        text.starts_with(
            "error[SK209]: `name` is `x` but the directory is `evil\u{241b}[2J\u{fffd}`\n --> evil\u{241b}[2J\u{fffd}/SKILL.md:2:7\n"
        ),
        "{text:?}"
    );
    let out = validate(tmp.path(), &["missing\u{7}\u{1b}]0;owned\u{7}"]);
    let all = format!("{}{}", stdout(&out), stderr(&out));
    assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all:?}");
}

/// One valid skill beside a path that does not exist: the run fails, so the
/// summary must not say "all valid".
#[test]
fn the_summary_never_says_all_valid_when_the_run_fails() {
    let tmp = tempdir();
    write_tree(tmp.path(), &[("ok/SKILL.md", &skill_md("ok"))]);
    let out = validate(tmp.path(), &["ok", "nowhere"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let last = text.lines().last().unwrap();
    assert!(!last.contains("all valid"), "{last}");
    assert!(last.ends_with(": 1 valid, 0 invalid (1 error)"), "{last}");
}

/// The help of `skb` and of every subcommand, at every depth, as `(path,
/// text)`: the subcommands are read from each help's `Commands:` list.
fn every_help() -> Vec<(String, String)> {
    let mut todo = vec![Vec::<String>::new()];
    let mut helps = Vec::new();
    while let Some(path) = todo.pop() {
        let out = skills().args(&path).arg("--help").output().unwrap();
        assert!(out.status.success(), "skb {path:?} --help: {out:?}");
        let text = stdout(&out);
        let commands = text
            .lines()
            .skip_while(|l| *l != "Commands:")
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            // A command's line starts with two spaces and its name; a
            // wrapped about continues further in.
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|name| *name != "help")
            .map(str::to_owned)
            .collect::<Vec<_>>();
        for name in commands {
            let mut sub = path.clone();
            sub.push(name);
            todo.push(sub);
        }
        helps.push((path.join(" "), text));
    }
    helps
}

/// Every line of every `--help` fits in 100 columns, whatever the
/// terminal (`skb --help` once listed commands on lines of 400).
#[test]
fn every_help_line_fits_in_100_columns() {
    let helps = every_help();
    assert!(helps.len() > 25, "{} helps", helps.len());
    for (path, text) in &helps {
        for line in text.lines() {
            let columns = line.chars().count();
            assert!(
                columns <= 100,
                "`skb {path} --help` has a line of {columns} columns: {line}"
            );
        }
    }
}

/// `catalog --help` names every style, from the registry (it once named
/// two of four).
#[test]
fn catalog_help_names_every_style() {
    let out = skills().args(["catalog", "--help"]).output().unwrap();
    let text = stdout(&out);
    for style in skills_core::catalog::Style::ALL {
        assert!(
            text.contains(&format!("- {}:", style.as_str())),
            "`catalog --help` does not name `{}`:\n{text}",
            style.as_str()
        );
    }
}

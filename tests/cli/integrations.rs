//! The CI integrations: `skills completions` and `skills man` (generated
//! from the clap definitions), the GitHub Action's validation script
//! (`scripts/action-validate.sh`, run here as the action runs it, with a
//! step-summary file), and the shape of `action.yml` and
//! `.pre-commit-hooks.yaml`.
//!
//! The script needs `bash`; the YAML files are parsed with python3's `yaml`
//! module when it is installed (no YAML crate just for a test), and checked
//! line by line in any case.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::{Command, Output};

use crate::{skills, skills_bin};
use skills_tests::{tempdir, workspace, write_tree};

/// The shells `skills completions` knows.
const SHELLS: [&str; 5] = ["bash", "zsh", "fish", "elvish", "powershell"];

/// Every subcommand, as `skills --help` lists it.
const SUBCOMMANDS: [&str; 16] = [
    "validate",
    "pack",
    "verify",
    "inspect",
    "unpack",
    "keygen",
    "catalog",
    "show",
    "read",
    "run",
    "serve",
    "read-properties",
    "to-prompt",
    "diff",
    "completions",
    "man",
];

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn have(tool: &str, probe: &[&str]) -> bool {
    Command::new(tool)
        .args(probe)
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn completions_for_every_shell() {
    for shell in SHELLS {
        let out = skills().args(["completions", shell]).output().unwrap();
        assert_eq!(code(&out), 0, "{shell}: {out:?}");
        let script = stdout(&out);
        assert!(script.len() > 1000, "{shell}: {script}");
        for word in ["skills", "validate", "pack", "profile", "deny-warnings"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
}

#[test]
fn bash_completion_parses_and_completes() {
    if !have("bash", &["-c", "true"]) {
        eprintln!("skipped: no bash");
        return;
    }
    let dir = tempdir();
    let script = dir.path().join("skills.bash");
    let out = skills().args(["completions", "bash"]).output().unwrap();
    std::fs::write(&script, &out.stdout).unwrap();
    let check = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(check.status.success(), "{check:?}");
    // Source it and ask for the completions of `skills val`.
    let run = Command::new("bash")
        .arg("-c")
        .arg(
            r#"source "$1"; COMP_WORDS=(skills val); COMP_CWORD=1; COMP_LINE='skills val'; COMP_POINT=${#COMP_LINE}; _skills skills val skills; printf '%s\n' "${COMPREPLY[@]}""#,
        )
        .arg("bash")
        .arg(&script)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    assert_eq!(stdout(&run).trim(), "validate");
}

#[test]
fn completions_reject_an_unknown_shell() {
    let out = skills().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
}

#[test]
fn man_page_on_stdout() {
    let out = skills().arg("man").output().unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    let page = stdout(&out);
    assert!(
        page.lines().any(|l| l.starts_with(".TH skills 1 ")),
        "{page}"
    );
    assert!(page.contains(".SH NAME\nskills \\- validate, inspect and package Agent Skills"));
    assert!(page.contains(".SH SYNOPSIS"));
    assert!(page.contains(env!("CARGO_PKG_VERSION")));
    for sub in SUBCOMMANDS {
        let reference = format!("skills\\-{}(1)", sub.replace('-', "\\-"));
        assert!(page.contains(&reference), "no {reference} in {page}");
    }
}

#[test]
fn man_pages_into_a_directory() {
    let dir = tempdir();
    let mandir = dir.path().join("man/man1");
    let out = skills()
        .args(["man", "--dir"])
        .arg(&mandir)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    let mut expected: Vec<String> = SUBCOMMANDS
        .iter()
        .map(|s| format!("skills-{s}.1"))
        .collect();
    expected.push("skills.1".to_string());
    expected.sort();
    let mut files: Vec<String> = std::fs::read_dir(&mandir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, expected);
    // Each path written is printed, one a line.
    assert_eq!(stdout(&out).lines().count(), expected.len());
    let validate = std::fs::read_to_string(mandir.join("skills-validate.1")).unwrap();
    assert!(validate.contains(".TH skills-validate 1"));
    assert!(validate.contains("\\-\\-deny\\-warnings"), "{validate}");
}

#[test]
fn generated_output_survives_a_closed_pipe() {
    if !have("bash", &["-c", "true"]) {
        return;
    }
    for args in ["completions bash", "man"] {
        // The reader is gone before the first write.
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                r#"{{ sleep 0.3; "$1" {args}; echo "status $?" >&2; }} | true"#
            ))
            .arg("bash")
            .arg(skills_bin())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("status 0"), "{args}: {err}");
        assert!(!err.contains("panicked"), "{args}: {err}");
    }
}

/// Runs the action's script in `cwd` as action.yml does, with `paths` and
/// `args` as the inputs; returns its output and the step summary.
fn action(cwd: &Path, paths: &str, args: &str) -> (Output, String) {
    let summary = tempfile::NamedTempFile::new().unwrap();
    let out = Command::new("bash")
        .arg(workspace().join("scripts/action-validate.sh"))
        .current_dir(cwd)
        .env("SKILLS_BIN", skills_bin())
        .env("SKILLS_PATHS", paths)
        .env("SKILLS_ARGS", args)
        .env("GITHUB_STEP_SUMMARY", summary.path())
        .output()
        .unwrap();
    let text = std::fs::read_to_string(summary.path()).unwrap();
    (out, text)
}

#[test]
fn action_script_passes_the_bundled_skills() {
    if !have("bash", &["-c", "true"]) {
        return;
    }
    let (out, summary) = action(&workspace(), "skills", "");
    assert_eq!(code(&out), 0, "{out:?}");
    let text = stdout(&out);
    assert!(!text.contains("::error"), "{text}");
    assert!(text.contains("all valid"), "{text}");
    assert!(
        summary.starts_with("**skills validate** passed: checked "),
        "{summary}"
    );
    assert!(summary.contains("all valid (`skills`)"), "{summary}");
}

#[test]
fn action_script_fails_on_an_invalid_skill() {
    if !have("bash", &["-c", "true"]) {
        return;
    }
    let dir = tempdir();
    write_tree(
        dir.path(),
        &[
            (
                "good/SKILL.md",
                b"---\nname: good\ndescription: Adds numbers. Use when testing.\n---\nBody.\n",
            ),
            (
                "bad/SKILL.md",
                b"---\nname: Bad\ndescription: Adds numbers. Use when testing.\n---\nBody.\n",
            ),
            (
                "with space/SKILL.md",
                b"---\nname: with-space\ndescription: Adds numbers. Use when testing.\n---\nBody.\n",
            ),
        ],
    );
    // Several paths on one line, then one per line (a path with a space).
    let (out, summary) = action(dir.path(), "good bad", "--profile spec --deny-warnings");
    assert_eq!(code(&out), 1, "{out:?}");
    let text = stdout(&out);
    assert!(
        text.contains("::error file=bad/SKILL.md,line=2,col=7,"),
        "{text}"
    );
    assert!(text.contains("title=SK205 name-not-lowercase::"), "{text}");
    assert!(!text.contains("file=good/"), "{text}");
    assert!(summary.starts_with("**skills validate** failed: checked 2 skills"));
    assert!(summary.contains("(`good bad`)"), "{summary}");

    let (out, _) = action(dir.path(), "good\n  with space  \n\n", "");
    assert_eq!(code(&out), 1, "{out:?}");
    let text = stdout(&out);
    assert!(text.contains("::error file=with space/SKILL.md,"), "{text}");
    assert!(text.contains("SK209"), "{text}");

    // Bad flags: usage error, exit 2, reported in the summary.
    let (out, summary) = action(dir.path(), "good", "--no-such-flag");
    assert_eq!(code(&out), 2, "{out:?}");
    assert!(
        summary.contains("could not run (exit status 2)"),
        "{summary}"
    );
}

#[test]
fn action_script_without_the_binary() {
    if !have("bash", &["-c", "true"]) {
        return;
    }
    let out = Command::new("bash")
        .arg(workspace().join("scripts/action-validate.sh"))
        .env("SKILLS_BIN", "skills-not-installed-here")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).starts_with("::error title=skills not found::"));
}

/// Parses a YAML file with python3 and prints it back as JSON, or `None`
/// when python3 or its `yaml` module is missing.
fn yaml_as_json(path: &Path) -> Option<serde_json::Value> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)",
        ])
        .arg(path)
        .output()
        .ok()?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("No module named"),
            "{} is not valid YAML: {err}",
            path.display()
        );
        return None;
    }
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn action_yml_shape() {
    let path = workspace().join("action.yml");
    let text = std::fs::read_to_string(&path).unwrap();
    for line in [
        "  using: composite",
        "  paths:",
        "  args:",
        "  version:",
        "  install:",
        "    default: cargo",
        "      uses: actions/cache@v4",
        r#"          cargo install --locked --force --path "$GITHUB_ACTION_PATH/skills-cli""#,
        r#"      run: bash "$GITHUB_ACTION_PATH/scripts/action-validate.sh""#,
    ] {
        assert!(text.lines().any(|l| l == line), "action.yml lacks {line:?}");
    }
    if let Some(doc) = yaml_as_json(&path) {
        assert_eq!(doc["runs"]["using"], "composite");
        assert_eq!(doc["inputs"]["paths"]["default"], ".");
        assert_eq!(doc["inputs"]["install"]["default"], "cargo");
        let steps = doc["runs"]["steps"].as_array().unwrap();
        // Every `run` step names its shell, as composite actions require.
        for step in steps.iter().filter(|s| s.get("run").is_some()) {
            assert_eq!(step["shell"], "bash", "{step}");
        }
        let last = steps.last().unwrap();
        assert_eq!(last["env"]["SKILLS_PATHS"], "${{ inputs.paths }}");
        assert_eq!(last["env"]["SKILLS_ARGS"], "${{ inputs.args }}");
    }
}

#[test]
fn pre_commit_hook_shape() {
    let path = workspace().join(".pre-commit-hooks.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    for line in [
        "- id: skills-validate",
        "  entry: skills validate",
        "  language: system",
        r"  files: (^|/)(SKILL|skill)\.md$",
    ] {
        assert!(text.lines().any(|l| l == line), "hook lacks {line:?}");
    }
    if let Some(doc) = yaml_as_json(&path) {
        let hooks = doc.as_array().unwrap();
        assert_eq!(hooks.len(), 1);
        assert_eq!(hooks[0]["id"], "skills-validate");
        assert_eq!(hooks[0]["entry"], "skills validate");
    }
    // The hook passes SKILL.md files: `skills validate` takes them as their
    // skill directories.
    let dir = tempdir();
    write_tree(
        dir.path(),
        &[(
            "a/demo/SKILL.md",
            b"---\nname: demo\ndescription: Adds numbers. Use when testing.\n---\nBody.\n",
        )],
    );
    let out = skills()
        .current_dir(dir.path())
        .args(["validate", "a/demo/SKILL.md"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
}

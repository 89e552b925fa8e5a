//! Acceptance for activation dialects: every activation recorded from
//! Claude Code 2.1.330 and Codex CLI 0.169.0
//! (`../shared/clients/activation-skills.json` and
//! `activation-cases.json`) is what `skb show --style <client>` prints,
//! byte for byte, on the same folder layout with the record's placeholders
//! filled with the same values; each recorded refusal is an error of ours.
//!
//! The layout: Claude Code's user skills (`home/.claude/skills`) given
//! before the project's (`proj/.claude/skills`), as Claude Code ranks them;
//! Codex's repository skills (`repo/.agents/skills`) and `CODEX_HOME` skills
//! (`codexhome/skills`). `!`cmd`` runs only with `--run-commands`; the
//! policy these tests give is `--allow 'Bash(echo:*)'`, and `--allow Bash`
//! (which allows a shell) for `shell-stderr`, whose command is shell
//! syntax; `ls` and `touch` are allowed only where a test says so.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use skills_tests::{each_row, shared, tempdir};

use crate::skills;

const SESSION_ID: &str = "0b9f4c36-5a0e-4d2b-9a43-6f1d2c3b4a55";

/// The recorded skills, laid out under a temporary work folder.
struct Layout {
    _tmp: tempfile::TempDir,
    work: PathBuf,
}

impl Layout {
    fn new() -> Layout {
        let tmp = tempdir();
        let work = tmp.path().join("work");
        let record = json("activation-skills.json");
        for skill in record["skills"].as_array().unwrap() {
            let dir = work.join(skill["path"].as_str().unwrap());
            std::fs::create_dir_all(&dir).unwrap();
            let text = skill["SKILL.md"]
                .as_str()
                .unwrap()
                .replace("<WORK_DIR>", work.to_str().unwrap());
            std::fs::write(dir.join("SKILL.md"), text).unwrap();
        }
        Layout { _tmp: tmp, work }
    }

    fn claude_root(&self) -> PathBuf {
        self.work.join("proj/.claude/skills")
    }

    fn codex_root(&self) -> PathBuf {
        self.work.join("repo/.agents/skills")
    }

    /// The record's text with its placeholders filled.
    fn fill(&self, text: &str, skills_root: &Path) -> String {
        text.replace("<SKILLS_ROOT>", skills_root.to_str().unwrap())
            .replace("<PROJECT_DIR>", self.work.join("proj").to_str().unwrap())
            .replace("<WORK_DIR>", self.work.to_str().unwrap())
            .replace("<SESSION_ID>", SESSION_ID)
    }

    /// `skb show` for Claude Code, run from the project folder.
    fn claude(&self, skill: &str, args: Option<&str>, extra: &[&str]) -> Output {
        let mut command = skills();
        command
            .current_dir(self.work.join("proj"))
            .env("HOME", self.work.join("home"))
            .env("XDG_CACHE_HOME", self.work.join("cache"))
            .env("LC_ALL", "C")
            .args([
                "show",
                skill,
                "--style",
                "claude-code",
                "--profile",
                "claude-code",
            ])
            .args(["--session-id", SESSION_ID])
            .arg("--from")
            .arg(self.work.join("home/.claude/skills"))
            .arg("--from")
            .arg(self.claude_root());
        if let Some(args) = args {
            command.args(["--args", args]);
        }
        command.args(extra).output().unwrap()
    }

    /// `skb show` for Codex, run from the repository folder.
    fn codex(&self, skill: &str, extra: &[&str]) -> Output {
        skills()
            .current_dir(self.work.join("repo"))
            .args([
                "show",
                skill,
                "--style",
                "codex",
                "--profile",
                "claude-code",
            ])
            .arg("--from")
            .arg(self.codex_root())
            .arg("--from")
            .arg(self.work.join("codexhome/skills"))
            .args(extra)
            .output()
            .unwrap()
    }
}

fn json(name: &str) -> Value {
    let path = shared().join("clients").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn cases(client: &str) -> Vec<Value> {
    json("activation-cases.json")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["client"] == client)
        .cloned()
        .collect()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The skill a Claude Code case called: `call.skill`, or for the `!`cmd``
/// cases the one their name gives (`shell_shell_inline_allowed`:
/// `shell-inline` in the permission mode that allows more;
/// `shell_shell_write_allowed`: the skill `shell-write-allowed`).
fn called(case: &Value) -> String {
    if let Some(skill) = case["call"]["skill"].as_str() {
        return skill.to_string();
    }
    let name = case["case"].as_str().unwrap();
    let name = name.strip_prefix("shell_").unwrap().replace('_', "-");
    if !recorded_md(&name).is_empty() {
        return name;
    }
    name.strip_suffix("-allowed").unwrap_or(&name).to_string()
}

/// The test's policy for a skill's commands (see the module docs).
fn policy(skill: &str) -> &'static [&'static str] {
    match skill {
        "shell-stderr" => &["--run-commands", "--allow", "Bash"],
        _ => &["--run-commands", "--allow", "Bash(echo:*)"],
    }
}

fn recorded_md(skill: &str) -> String {
    let record = json("activation-skills.json");
    record["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| {
            s["client"] == "claude_code"
                && s["path"].as_str().unwrap().ends_with(&format!("/{skill}"))
        })
        .map(|s| s["SKILL.md"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn every_recorded_claude_code_activation_is_shown_byte_for_byte() {
    let layout = Layout::new();
    let successes: Vec<Value> = cases("claude_code")
        .into_iter()
        .filter(|c| c["reply"].as_array().unwrap().len() == 2)
        .collect();
    assert_eq!(successes.len(), 11, "the record's successful activations");
    each_row(
        successes,
        |c| c["case"].as_str().unwrap().to_string(),
        |case| {
            let skill = called(case);
            let reply = case["reply"].as_array().unwrap();
            let want = layout.fill(reply[1]["text"].as_str().unwrap(), &layout.claude_root());
            let args = case["call"]["args"].as_str();
            let commands: &[&str] = if recorded_md(&skill).contains("!`") {
                policy(&skill)
            } else {
                &[]
            };
            let out = layout.claude(&skill, args, commands);
            assert!(out.status.success(), "{}", stderr(&out));
            assert_eq!(stdout(&out), want);
            // --json: Claude Code's two blocks.
            let out = layout.claude(&skill, args, &[commands, &["--json"]].concat());
            let blocks: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(blocks["tool_result"], reply[0]["text"]);
            assert_eq!(blocks["text"].as_str(), Some(want.as_str()));
        },
    );
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn commands_are_markers_unless_run_commands_is_given() {
    let layout = Layout::new();
    let out = layout.claude("shell-inline", None, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Inline text [command not run: !`echo one` — running commands")
            && text.contains("```\n[command not run: !`echo in-fence` — ")
            && text.contains("No-bang `echo two`."),
        "{text}"
    );
    // Not run, not even a writing one.
    let out = layout.claude("shell-write-allowed", None, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("[command not run: !`touch "));
    assert!(!layout.work.join("touched2").exists());
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn every_recorded_claude_code_refusal_is_an_error_of_ours() {
    let layout = Layout::new();
    let errors: Vec<Value> = cases("claude_code")
        .into_iter()
        .filter(|c| c["reply"][0]["is_error"] == true)
        .collect();
    assert_eq!(errors.len(), 8, "the record's refusals");
    each_row(
        errors,
        |c| c["case"].as_str().unwrap().to_string(),
        |case| {
            let skill = called(case);
            let recorded = case["reply"][0]["text"].as_str().unwrap();
            let failed = |out: &Output, says: &[&str]| {
                assert!(!out.status.success(), "accepted: {}", stdout(out));
                assert!(out.stdout.is_empty(), "{}", stdout(out));
                let err = stderr(out);
                for words in says {
                    assert!(err.contains(words), "`{words}` not in: {err}");
                }
            };
            match case["case"].as_str().unwrap() {
                "dmi" => failed(
                    &layout.claude(&skill, None, &[]),
                    &[
                        "refuses `dmi` to the model",
                        "disable-model-invocation: true",
                    ],
                ),
                "unknown" => failed(
                    &layout.claude(&skill, None, &[]),
                    &["Claude Code knows no skill `does-not-exist`"],
                ),
                // Claude Code's permission check refused `ls` outside the
                // project; here no rule allows `ls`, and when one does, the
                // command fails: an error either way.
                "shell_shell_fail" | "shell_shell_fail_allowed" => {
                    failed(
                        &layout.claude(&skill, None, &["--run-commands"]),
                        &["!`ls /nonexistent-dir-xyz` was not allowed: no rule allows"],
                    );
                    failed(
                        &layout.claude(&skill, None, &["--run-commands", "--allow", "Bash(ls:*)"]),
                        &[
                            "!`ls /nonexistent-dir-xyz` failed (exit code 2)",
                            "No such file",
                        ],
                    );
                }
                // The command's own stderr, as Claude Code quotes it.
                "shell_shell_nonzero" => {
                    let (_, stderr_line) = recorded.split_once("[stderr]\n").unwrap();
                    failed(
                        &layout.claude(&skill, None, &["--run-commands", "--allow", "Bash(ls:*)"]),
                        &[
                            "!`ls does-not-exist-here` failed (exit code 2)",
                            stderr_line,
                        ],
                    );
                }
                // A writing shell line that nothing allows: refused, and
                // nothing written.
                "shell_shell_write" => {
                    let command = layout.fill(
                        "touch <WORK_DIR>/touched && echo touched-ok",
                        &layout.claude_root(),
                    );
                    failed(
                        &layout.claude(&skill, None, &["--run-commands"]),
                        &[&format!("!`{command}` was not allowed")],
                    );
                    assert!(!layout.work.join("touched").exists());
                }
                // Claude Code asked before running a skill with
                // `allowed-tools`, then confined `touch` to the project.
                // Here the skill's own `Bash(touch:*)` is the permission,
                // and paths are not confined: the opt-in runs it.
                "shell_shell_write_allowed" | "shell_shell_write_allowed_allowed" => {
                    let _ = std::fs::remove_file(layout.work.join("touched2"));
                    let out = layout.claude(&skill, None, &["--run-commands"]);
                    assert!(out.status.success(), "{}", stderr(&out));
                    assert!(
                        stdout(&out).ends_with("\n\nBefore\n\nAfter\n"),
                        "{}",
                        stdout(&out)
                    );
                    assert!(layout.work.join("touched2").exists());
                }
                other => panic!("a refusal this test does not know: {other}: {recorded}"),
            }
        },
    );
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn every_recorded_codex_activation_is_shown_byte_for_byte() {
    let layout = Layout::new();
    let all = cases("codex");
    assert_eq!(all.len(), 8, "the record's Codex cases");
    each_row(
        all,
        |c| c["case"].as_str().unwrap().to_string(),
        |case| {
            let messages = case["user_messages"].as_array().unwrap();
            let prompt = messages[0].as_str().unwrap();
            let injected: Vec<String> = messages[1..]
                .iter()
                .map(|m| layout.fill(m.as_str().unwrap(), &layout.codex_root()))
                .collect();
            // Every `$name` of the prompt: shown exactly when Codex
            // injected that skill, an error when it injected nothing.
            for mention in mentions(prompt) {
                let out = layout.codex(&mention, &[]);
                let want = injected
                    .iter()
                    .find(|m| m.contains(&format!("\n<name>{mention}</name>\n")));
                match want {
                    Some(want) => {
                        assert!(out.status.success(), "{mention}: {}", stderr(&out));
                        assert_eq!(&stdout(&out), want);
                    }
                    None => {
                        assert!(!out.status.success(), "{mention} shown: {}", stdout(&out));
                        assert!(stderr(&out).contains("Codex"), "{}", stderr(&out));
                    }
                }
            }
            assert_eq!(
                injected.len(),
                mentions(prompt)
                    .iter()
                    .filter(|m| layout.codex(m, &[]).status.success())
                    .count()
            );
        },
    );
    // The name with blanks cannot be mentioned, so Codex never injects it.
    let out = layout.codex("My Skill Name", &[]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("a `$` mention ends at the first blank"));
}

/// The `$name` mentions of a prompt.
fn mentions(prompt: &str) -> Vec<String> {
    prompt
        .split('$')
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "-_:".contains(*c))
                .collect::<String>()
        })
        .filter(|m| !m.is_empty())
        .collect()
}

#[test]
fn skill_dir_in_allowed_tools_allows_the_script_it_names() {
    let tmp = tempdir();
    let dir = tmp.path().join("demo");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: demo\ndescription: Runs its script. Use when testing.\nallowed-tools: Bash(${CLAUDE_SKILL_DIR}/scripts/x.sh *)\n---\nRun `${CLAUDE_SKILL_DIR}/scripts/x.sh <word>`.\n",
    )
    .unwrap();
    for (name, text) in [
        ("x.sh", "#!/bin/sh\necho \"x says $1\"\n"),
        ("y.sh", "#!/bin/sh\necho y\n"),
    ] {
        let path = dir.join("scripts").join(name);
        std::fs::write(&path, text).unwrap();
        skills_tests::set_mode(&path, 0o755);
    }
    let run = |command: &[&str]| {
        skills()
            .env("XDG_CACHE_HOME", tmp.path().join("cache"))
            .args(["run", "demo", "--from"])
            .arg(&dir)
            .args(["--profile", "claude-code", "--"])
            .args(command)
            .output()
            .unwrap()
    };
    let out = run(&["scripts/x.sh", "hello"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "x says hello\n");
    // The virtual directory the activation names is the same file.
    let out = run(&["skill://demo/scripts/x.sh", "hi"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "x says hi\n");
    // Another script is not what the rule names.
    let out = run(&["scripts/y.sh", "a"]);
    assert_eq!(out.status.code(), Some(126), "{}", stderr(&out));
    // The instructions name the directory the rule was filled with.
    let out = skills()
        .args(["show", "demo", "--profile", "claude-code", "--from"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains("Run `skill://demo/scripts/x.sh <word>`."),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_style_needs_skill_folders_and_the_default_keeps_the_virtual_directory() {
    let tmp = tempdir();
    let pack = tmp.path().join("s.skillpack");
    let skills_dir = skills_tests::workspace().join("skills");
    let out = skills()
        .args(["pack", "-o"])
        .arg(&pack)
        .arg(&skills_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = skills()
        .args(["show", "calculator", "--style", "claude-code", "--from"])
        .arg(&pack)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is an archive: unpack it first"),
        "{}",
        stderr(&out)
    );
    // Without --style, a pack shows as the runtime activates it.
    let out = skills()
        .args(["show", "calculator", "--args", "2+2", "--from"])
        .arg(&pack)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out)
            .starts_with("Base directory for this skill: skill://calculator\n\n# Calculator\n")
    );
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn the_recorded_layout_found_by_discovery_gives_the_same_texts() {
    let layout = Layout::new();
    let proj = layout.work.join("proj");
    std::fs::create_dir_all(proj.join(".git")).unwrap();
    let show = |skill: &str, args: &[&str]| {
        skills()
            .current_dir(&proj)
            .env("HOME", layout.work.join("home"))
            .env("CODEX_HOME", layout.work.join("nowhere"))
            .args(["show", skill, "--style", "claude-code", "--user"])
            .args(["--session-id", SESSION_ID])
            .args(args)
            .output()
            .unwrap()
    };
    for case in cases("claude_code")
        .iter()
        .filter(|c| ["dup", "named_args", "plain_with_args"].contains(&c["case"].as_str().unwrap()))
    {
        let args: Vec<&str> = case["call"]["args"]
            .as_str()
            .map(|a| vec!["--args", a])
            .unwrap_or_default();
        let out = show(case["call"]["skill"].as_str().unwrap(), &args);
        assert!(out.status.success(), "{}", stderr(&out));
        let want = layout.fill(
            case["reply"][1]["text"].as_str().unwrap(),
            &layout.claude_root(),
        );
        assert_eq!(stdout(&out), want, "{}", case["case"]);
    }
}

/// `skb show --style claude-code` with its own `HOME`, from `cwd`.
fn claude_in(cwd: &Path, home: &Path, skill: &str, from: &[&Path], extra: &[&str]) -> Output {
    let mut command = skills();
    command
        .current_dir(cwd)
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .args(["show", skill, "--style", "claude-code"])
        .args(["--session-id", SESSION_ID]);
    for f in from {
        command.arg("--from").arg(f);
    }
    command.args(extra).output().unwrap()
}

/// The record's catalog cases that are listed under their folder name
/// (the frontmatter name not shown, or colliding with another folder), and
/// the ones listed as `folder (name)`: each is activated by its folder
/// name, and a frontmatter name that is another skill's folder name never
/// wins over that folder.
#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn a_skill_is_activated_by_the_folder_name_it_is_listed_under() {
    let tmp = tempdir();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let skills_dir = root.join("proj/.claude/skills");
    std::fs::create_dir_all(&skills_dir).unwrap();
    let out = std::process::Command::new("python3")
        .arg(shared().join("clients/make_cases.py"))
        .arg(&skills_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let dirs = [
        "ok-basic",
        "name-equals-ok-basic",
        "name-spaces",
        "mismatch-dir",
        "upper-name",
        "name-number",
    ];
    // Only these folders: the others hold skills a pack cannot hold.
    for entry in std::fs::read_dir(&skills_dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !dirs.contains(&name.as_str()) {
            let path = entry.path();
            if path.is_dir() {
                std::fs::remove_dir_all(path).unwrap();
            } else {
                std::fs::remove_file(path).unwrap();
            }
        }
    }
    let record = json("catalog-cases.json");
    let mut checked = 0;
    for case in record["cases"].as_array().unwrap() {
        let dir = case["dir"].as_str().unwrap();
        // `ok-basic`'s recorded line is the user copy's: its folder name is
        // still the project folder's here.
        let Some(line) = case["claude_code"]["listed"].as_str() else {
            continue;
        };
        if !dirs.contains(&dir) {
            continue;
        }
        let listed = line
            .strip_prefix("- ")
            .and_then(|l| l.split(": ").next())
            .map(|l| l.split(" (").next().unwrap())
            .unwrap();
        assert_eq!(listed, dir, "the record lists {dir} under its folder name");
        let out = claude_in(&root.join("proj"), &root, listed, &[&skills_dir], &[]);
        assert!(out.status.success(), "{listed}: {}", stderr(&out));
        let want = format!(
            "Base directory for this skill: {}\n\n",
            skills_dir.join(dir).display()
        );
        assert!(
            stdout(&out).starts_with(&want),
            "{listed}: {}",
            stdout(&out)
        );
        checked += 1;
    }
    assert_eq!(checked, dirs.len());
    // A frontmatter name that no folder has resolves to its skill.
    let out = claude_in(&root.join("proj"), &root, "other-name", &[&skills_dir], &[]);
    assert!(
        stdout(&out).starts_with(&format!(
            "Base directory for this skill: {}\n\n",
            skills_dir.join("mismatch-dir").display()
        )),
        "{}",
        stdout(&out)
    );
}

/// CRLF line endings of the body reach the model as written (the record's
/// `crlf` case, activated).
#[test]
fn crlf_line_endings_are_kept() {
    let tmp = tempdir();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let dir = root.join("s/crlf");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\r\nname: crlf\r\ndescription: CRLF line endings.\r\n---\r\nBody.\r\nSecond $0.\r\n",
    )
    .unwrap();
    let out = claude_in(&root, &root, "crlf", &[&root.join("s")], &["--args", "x"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "Base directory for this skill: {}\n\nBody.\r\nSecond x.\r\n",
            dir.display()
        )
    );
}

/// Arguments as Claude Code reads them: double quotes keep every
/// backslash (recorded on 2.1.332), and placeholders inside the arguments
/// are never filled again.
#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn arguments_split_as_bash_and_are_never_scanned_again() {
    let layout = Layout::new();
    let text = |args: &str| {
        let out = layout.claude("args-demo", Some(args), &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let out = text(r#""C:\dir\x" "a\`b\"c" '$1' "#);
    assert!(out.contains("\nDollar0: C:\\dir\\x\n"), "{out}");
    assert!(out.contains("\nDollar1: a\\`b\\\"c\n"), "{out}");
    assert!(out.contains("\nDollar2: $1\n"), "{out}");
    let out = text("'$ARGUMENTS[1]' two");
    assert!(out.contains("\nFirst indexed: $ARGUMENTS[1]\n"), "{out}");
    assert!(out.contains("\nSecond indexed: two\n"), "{out}");
    assert!(out.contains("\nAll: '$ARGUMENTS[1]' two\n"), "{out}");
}

/// In its default permission mode Claude Code ran the record's `echo`
/// commands and `ls` inside the project without a rule, and asked for (or
/// blocked) the others: `show` predicts the same, never "runs" where
/// Claude Code asked, and still runs nothing without `--run-commands`.
#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn read_only_commands_are_predicted_as_recorded() {
    let layout = Layout::new();
    let home = layout.work.join("home");
    let proj = layout.work.join("proj");
    let predicted = |skill: &str| -> Vec<(String, bool)> {
        let out = claude_in(&proj, &home, skill, &[&layout.claude_root()], &["--json"]);
        assert!(out.status.success(), "{skill}: {}", stderr(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["commands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["command"].as_str().unwrap().to_string(),
                    c["runs_without_asking"].as_bool().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        predicted("shell-inline"),
        [
            ("echo one".to_string(), true),
            ("echo in-fence".to_string(), true)
        ]
    );
    assert_eq!(predicted("args-demo"), [("echo hi".to_string(), true)]);
    assert_eq!(
        predicted("shell-nonzero"),
        [("ls does-not-exist-here".to_string(), true)]
    );
    for asked in ["shell-fail", "shell-write", "shell-write-allowed"] {
        let p = predicted(asked);
        assert_eq!(p.len(), 1, "{asked}");
        assert!(!p[0].1, "{asked}: Claude Code asked");
    }
    // Claude Code ran this compound line; shell syntax is predicted as
    // asking, the safe side.
    assert_eq!(
        predicted("shell-stderr"),
        [("echo out; echo err 1>&2".to_string(), false)]
    );
    // The prediction is said on stderr; nothing ran.
    let out = claude_in(&proj, &home, "shell-inline", &[&layout.claude_root()], &[]);
    assert!(
        stderr(&out).contains(
            "Claude Code (default permission mode) would run !`echo one` without asking: `echo` is read-only (recorded)"
        ),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("[command not run: !`echo one`"));
    let out = claude_in(&proj, &home, "shell-fail", &[&layout.claude_root()], &[]);
    assert!(
        stderr(&out).contains(
            "would ask before running !`ls /nonexistent-dir-xyz` unless a rule allows it"
        ),
        "{}",
        stderr(&out)
    );
    // With --run-commands, what Claude Code runs without asking runs
    // without a rule here too, and what it asks for is refused, stderr
    // saying which rule decided.
    let out = claude_in(
        &proj,
        &home,
        "shell-inline",
        &[&layout.claude_root()],
        &["--run-commands"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Inline text one mid-line."),
        "{}",
        stdout(&out)
    );
    let out = claude_in(
        &proj,
        &home,
        "shell-fail",
        &[&layout.claude_root()],
        &["--run-commands"],
    );
    assert!(!out.status.success(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("was not allowed"), "{err}");
    assert!(err.contains("outside the working directory"), "{err}");
}

/// Claude Code's settings: `disableSkillShellExecution` puts its text in
/// place of every command (nothing runs), `skillOverrides` hides a skill
/// from the model (`off`, `user-invocable-only`); the project's local file
/// wins over the project's and the user's.
#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn claude_code_settings_are_read() {
    let layout = Layout::new();
    let home = layout.work.join("home");
    let proj = layout.work.join("proj");
    std::fs::write(
        home.join(".claude/settings.json"),
        r#"{"skillOverrides": {"plain": "off", "named-args": "off"}}"#,
    )
    .unwrap();
    std::fs::write(
        proj.join(".claude/settings.json"),
        r#"{"disableSkillShellExecution": true, "skillOverrides": {"named-args": "user-invocable-only"}}"#,
    )
    .unwrap();
    let show = |skill: &str, extra: &[&str]| {
        claude_in(&proj, &home, skill, &[&layout.claude_root()], extra)
    };
    let out = show("shell-inline", &["--run-commands", "--allow", "Bash"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(&format!(
            "Base directory for this skill: {}\n\nInline text [shell command execution disabled by policy] mid-line.\n```\n[shell command execution disabled by policy]\n```\n",
            layout.claude_root().join("shell-inline").display()
        )),
        "{}",
        stdout(&out)
    );
    let out = show("plain", &[]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("sets it to \"off\""),
        "{}",
        stderr(&out)
    );
    let out = show("named-args", &[]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("refuses `named-args` to the model"),
        "{}",
        stderr(&out)
    );
    // The local file wins.
    std::fs::write(
        proj.join(".claude/settings.local.json"),
        r#"{"disableSkillShellExecution": false, "skillOverrides": {"plain": "on"}}"#,
    )
    .unwrap();
    assert!(show("plain", &[]).status.success());
    let out = show("shell-inline", &[]);
    assert!(
        stdout(&out).contains("[command not run: !`echo one`"),
        "{}",
        stdout(&out)
    );
}

/// Claude Code's classes found after the first record (recorded on
/// 2.1.332, `skills-bundle/tests/data/claude-code-arguments.tsv`): its own
/// bash reading of the arguments, one backslash escaping a placeholder
/// while more stay, a `!` in a value escaped, `/name` read as `name`, and
/// with `--run-commands` a read-only command run without a rule while
/// another is refused, saying which rule decided. No shared record needed.
#[test]
fn claude_code_arguments_names_and_read_only_commands() {
    let tmp = tempdir();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let proj = root.join("proj");
    let dir = proj.join(".claude/skills/demo");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: demo\ndescription: Demo.\n---\n[$0][$1][$2][$3] [\\\\$0] [\\$0] All: $ARGUMENTS\n",
    )
    .unwrap();
    let run = |name: &str, args: &str, extra: &[&str]| {
        let mut command = skills();
        command
            .current_dir(&proj)
            .env("HOME", root.join("home"))
            .env("XDG_CACHE_HOME", root.join("cache"))
            .args(["show", name, "--style", "claude-code", "--json"])
            .args(["--session-id", SESSION_ID, "--from"])
            .arg(proj.join(".claude/skills"))
            .args(["--arguments", args])
            .args(extra);
        command.output().unwrap()
    };
    let out = run("/demo", r#"a "in \"dq\" too" $NAME ! b"#, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tool_result"], "Launching skill: demo");
    let text = v["text"].as_str().unwrap();
    assert!(
        text.ends_with(
            "\n\n[a][in \\\"dq\\\" too][\\!][b] [\\\\a] [$0] All: a \"in \\\"dq\\\" too\" $NAME \\! b\n"
        ),
        "{text}"
    );
    // `//demo` is not `demo`.
    let out = run("//demo", "", &[]);
    assert!(!out.status.success(), "{}", stdout(&out));

    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: demo\ndescription: Demo.\n---\nSaid: !`echo hi`\n",
    )
    .unwrap();
    let out = run("demo", "", &["--run-commands"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["text"].as_str().unwrap().ends_with("\n\nSaid: hi\n"),
        "{v}"
    );
    assert_eq!(v["commands"][0]["why"], "`echo` is read-only (recorded)");
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: demo\ndescription: Demo.\n---\nSaid: !`cat /etc/hostname`\n",
    )
    .unwrap();
    let out = run("demo", "", &["--run-commands"]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stderr(&out).contains("was not allowed"), "{}", stderr(&out));
}

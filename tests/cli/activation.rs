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

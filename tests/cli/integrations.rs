//! The CI integrations, tested by what they do: `skb completions` and
//! `skb man` (generated from the clap definitions); the GitHub Action,
//! `action.yml` run step by step as the runner runs a composite action
//! (`integrations/action.rs`: a `cargo` stub records the install and puts
//! the binary where `cargo install` would, `actions/cache` is played by the
//! test), its validation script `scripts/action-validate.sh`, and its cache
//! key against every source file of the binary; and the pre-commit hook
//! `.pre-commit-hooks.yaml`, its `entry` run on the files its `files`
//! pattern selects from a fixture repository, selected with Python's `re`
//! as pre-commit selects them.
//!
//! These tests need `bash` and `python3` and fail, rather than skip,
//! without them.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

mod action;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use skills_compiler::yaml::{self, Node};
use skills_tests::{each_row, tempdir, tool, workspace, write_tree};

use crate::{skills, skills_bin};
use action::{Action, Report, Runner, copy_checkout, path_without_skills, read_yaml, stub};

/// The shells `skb completions` knows.
const SHELLS: [&str; 5] = ["bash", "zsh", "fish", "elvish", "powershell"];

/// Every subcommand, as `skb --help` lists it.
const SUBCOMMANDS: [&str; 31] = [
    "validate",
    "fix",
    "scan",
    "pack",
    "verify",
    "inspect",
    "unpack",
    "init",
    "keygen",
    "catalog",
    "show",
    "read",
    "run",
    "serve",
    "lsp",
    "read-properties",
    "to-prompt",
    "diff",
    "add",
    "install",
    "update",
    "outdated",
    "remove",
    "list",
    "import",
    "push",
    "pull",
    "trust",
    "publish",
    "completions",
    "man",
];

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

/// `bash`, which these tests need.
fn bash() -> Command {
    tool("bash", "bash")
}

#[test]
fn completions_for_every_shell() {
    for shell in SHELLS {
        let out = skills().args(["completions", shell]).output().unwrap();
        assert_eq!(code(&out), 0, "{shell}: {out:?}");
        let script = stdout(&out);
        assert!(script.len() > 1000, "{shell}: {script}");
        for word in ["skb", "validate", "pack", "profile", "deny-warnings"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
}

#[test]
fn bash_completion_parses_and_completes() {
    let dir = tempdir();
    let script = dir.path().join("skb.bash");
    let out = skills().args(["completions", "bash"]).output().unwrap();
    std::fs::write(&script, &out.stdout).unwrap();
    let check = bash().arg("-n").arg(&script).output().unwrap();
    assert!(check.status.success(), "{check:?}");
    // Source it and ask for the completions of `skb val`.
    let run = bash()
        .arg("-c")
        .arg(
            r#"source "$1"; COMP_WORDS=(skb val); COMP_CWORD=1; COMP_LINE='skb val'; COMP_POINT=${#COMP_LINE}; _skb skb val skb; printf '%s\n' "${COMPREPLY[@]}""#,
        )
        .arg("bash")
        .arg(&script)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    assert_eq!(stdout(&run).trim(), "validate");
}

/// bash-completion loads `completions/<command>` when `<command>` is first
/// completed, so the file the help suggests must be named after the binary.
#[test]
fn completions_help_names_the_file_bash_completion_loads() {
    let out = skills().args(["completions", "--help"]).output().unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    let help = stdout(&out);
    let path = help
        .split_whitespace()
        .find(|w| w.contains("bash-completion/completions/"))
        .unwrap_or_else(|| panic!("no bash-completion path in:\n{help}"));
    let file = path
        .trim_end_matches(['`', '.'])
        .rsplit('/')
        .next()
        .unwrap();
    assert_eq!(file, "skb", "{help}");
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
    assert!(page.lines().any(|l| l.starts_with(".TH skb 1 ")), "{page}");
    assert!(
        page.contains(".SH NAME\nskb \\- validate, inspect, package, sign and serve Agent Skills")
    );
    assert!(page.contains(".SH SYNOPSIS"));
    assert!(page.contains(env!("CARGO_PKG_VERSION")));
    for sub in SUBCOMMANDS {
        let reference = format!("skb\\-{}(1)", sub.replace('-', "\\-"));
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
    let mut expected: Vec<String> = SUBCOMMANDS.iter().map(|s| format!("skb-{s}.1")).collect();
    expected.push("skb.1".to_string());
    // Nested subcommands get pages of their own.
    for sub in ["add", "list", "remove", "retire"] {
        expected.push(format!("skb-trust-{sub}.1"));
    }
    expected.sort();
    let mut files: Vec<String> = std::fs::read_dir(&mandir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, expected);
    // Each path written is printed, one a line.
    assert_eq!(stdout(&out).lines().count(), expected.len());
    let validate = std::fs::read_to_string(mandir.join("skb-validate.1")).unwrap();
    assert!(validate.contains(".TH skb-validate 1"));
    assert!(validate.contains("\\-\\-deny\\-warnings"), "{validate}");
}

#[test]
fn generated_output_survives_a_closed_pipe() {
    for args in ["completions bash", "man"] {
        // The reader is gone before the first write.
        let out = bash()
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
    let out = bash()
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
    let (out, summary) = action(&workspace(), "skills", "");
    assert_eq!(code(&out), 0, "{out:?}");
    let text = stdout(&out);
    assert!(!text.contains("::error"), "{text}");
    assert!(text.contains("all valid"), "{text}");
    assert!(
        summary.starts_with("**skb validate** passed: checked "),
        "{summary}"
    );
    assert!(summary.contains("all valid (`skills`)"), "{summary}");
}

#[test]
fn action_script_fails_on_an_invalid_skill() {
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
    assert!(summary.starts_with("**skb validate** failed: checked 2 skills"));
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
    let out = bash()
        .arg(workspace().join("scripts/action-validate.sh"))
        .env("SKILLS_BIN", "skills-not-installed-here")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).starts_with("::error title=skb not found::"));
}

// ---------------------------------------------------------------------------
// The action, run as the runner runs it.

/// A valid skill.
const GOOD: &[u8] = b"---\nname: good\ndescription: Adds numbers. Use when testing.\n---\nBody.\n";

/// An invalid one: its name is not lowercase.
const BAD: &[u8] = b"---\nname: Bad\ndescription: Adds numbers. Use when testing.\n---\nBody.\n";

/// A valid skill with a warning: its file is `skill.md`.
const WARNED: &[u8] =
    b"---\nname: warned\ndescription: Adds numbers. Use when testing.\n---\nBody.\n";

/// One run of the action on a repository holding `good/`, `bad/` and
/// `warned/`: a
/// `cargo` stub on `PATH` records its arguments and, as `cargo install`
/// does, puts a `skills` (the one Cargo built for these tests) into
/// `~/.cargo/bin`; no other `skb` is on `PATH`.
struct ActionRun {
    dir: tempfile::TempDir,
    runner: Runner,
}

impl ActionRun {
    fn new(inputs: &[(&str, &str)]) -> ActionRun {
        let dir = tempdir();
        let root = dir.path();
        write_tree(
            &root.join("repository"),
            &[
                ("good/SKILL.md", GOOD),
                ("bad/SKILL.md", BAD),
                ("warned/skill.md", WARNED),
            ],
        );
        std::fs::create_dir_all(root.join("home")).unwrap();
        std::fs::create_dir_all(root.join("scratch")).unwrap();
        stub(
            &root.join("stubs"),
            "cargo",
            "printf '%s\\n' \"$@\" >\"$CARGO_ARGS\"\n\
             mkdir -p \"$HOME/.cargo/bin\"\n\
             ln -s \"$BUILT_SKILLS\" \"$HOME/.cargo/bin/skb\"\n",
        );
        let mut given: BTreeMap<String, String> = inputs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        // The validation alone; the scan step has its own test.
        given.entry("scan".into()).or_insert_with(|| "false".into());
        let runner = Runner {
            inputs: given,
            action_path: workspace(),
            repository: root.join("repository"),
            home: root.join("home"),
            path: path_without_skills(&root.join("stubs")),
            env: vec![
                (
                    "CARGO_ARGS".into(),
                    root.join("cargo-args").display().to_string(),
                ),
                ("BUILT_SKILLS".into(), skills_bin().display().to_string()),
            ],
            cache: None,
            scratch: root.join("scratch"),
        };
        ActionRun { dir, runner }
    }

    fn run(&self) -> Report {
        self.runner.run(&Action::load())
    }

    /// What `cargo` was called with, if it was.
    fn cargo_args(&self) -> Option<Vec<String>> {
        let text = std::fs::read_to_string(self.dir.path().join("cargo-args")).ok()?;
        Some(text.lines().map(str::to_string).collect())
    }

    /// The step summary the run left, if any.
    fn summary(&self) -> Option<String> {
        std::fs::read_to_string(self.dir.path().join("scratch/summary.md")).ok()
    }

    /// Where `cargo install` puts the binary.
    fn installed(&self) -> PathBuf {
        self.runner.home.join(".cargo/bin/skb")
    }
}

/// The output of the last step that ran.
fn last(report: &Report) -> &Output {
    let (name, _) = report.ran.last().unwrap();
    report.output(name)
}

/// Whether `key` is `prefix` followed by 32 hexadecimal digits.
fn is_hashed(key: &str, prefix: &str) -> bool {
    key.strip_prefix(prefix)
        .is_some_and(|h| h.len() == 32 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The default run: `cargo install` of this very package, then the binary
/// it installed, found on `PATH`, validates the repository; the cache is
/// given what was installed, under a key of the sources.
#[test]
fn the_action_installs_skills_with_cargo_and_validates() {
    let run = ActionRun::new(&[("paths", "good")]);
    let report = run.run();
    assert!(report.success, "{report:?}");
    let args = run.cargo_args().expect("cargo install ran");
    assert_eq!(args[..4], ["install", "--locked", "--force", "--path"]);
    assert_eq!(args.len(), 5, "{args:?}");
    assert_eq!(
        Path::new(&args[4]).canonicalize().unwrap(),
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .canonicalize()
            .unwrap(),
        "the package installed is the one whose binary these tests run"
    );
    let (paths, key) = report.cache.as_ref().expect("the cache step ran");
    assert!(run.installed().exists());
    assert!(paths.contains(&run.installed()), "{paths:?}");
    assert!(is_hashed(key, "skb-Linux-X64-src-"), "{key}");
    let out = last(&report);
    assert!(stdout(out).contains("checked 1 skill"), "{out:?}");
    assert!(stdout(out).contains("all valid"), "{out:?}");
    let summary = run.summary().unwrap();
    assert!(
        summary.starts_with("**skb validate** passed: checked 1 skill"),
        "{summary}"
    );
}

/// The `paths` and `args` inputs reach `skb validate`: problems become
/// annotations, and the run fails; a warning fails it under
/// `--deny-warnings` only.
#[test]
fn the_action_fails_with_annotations_on_an_invalid_skill() {
    let run = ActionRun::new(&[
        ("paths", "good bad"),
        ("args", "--profile spec --deny-warnings"),
    ]);
    let report = run.run();
    assert!(!report.success, "{report:?}");
    let out = last(&report);
    assert_eq!(code(out), 1, "{out:?}");
    let text = stdout(out);
    assert!(
        text.contains("::error file=bad/SKILL.md,line=2,col=7,"),
        "{text}"
    );
    assert!(text.contains("title=SK205 name-not-lowercase::"), "{text}");
    assert!(!text.contains("file=good/"), "{text}");
    let summary = run.summary().unwrap();
    assert!(
        summary.starts_with("**skb validate** failed: checked 2 skills"),
        "{summary}"
    );

    for (args, status) in [("", 0), ("--deny-warnings", 1)] {
        let run = ActionRun::new(&[("paths", "warned"), ("args", args)]);
        let report = run.run();
        let out = last(&report);
        assert_eq!(code(out), status, "args {args:?}: {out:?}");
        assert_eq!(report.success, status == 0, "args {args:?}");
        assert!(
            stdout(out).contains("::warning file=warned/skill.md,"),
            "args {args:?}: {out:?}"
        );
    }
}

/// The action's defaults (`paths: .`, no `args`) in a fresh repository
/// whose skills are in `.claude/skills/`: the project folder is read as
/// Claude Code reads it, and the valid skills pass. The action's step script
/// alone does the same, and fails a repository with no skill, saying so.
#[test]
fn the_action_default_validates_a_repository_with_claude_skills() {
    let run = ActionRun::new(&[]);
    let repository = &run.runner.repository;
    // The repository of the other tests, with `good/` and `bad/` moved into
    // `.claude/skills/` and `bad/` fixed: only the skills folder is read.
    for dir in ["good", "bad", "warned"] {
        std::fs::remove_dir_all(repository.join(dir)).unwrap();
    }
    std::fs::create_dir_all(repository.join(".git")).unwrap();
    write_tree(
        repository,
        &[
            (".claude/skills/good/SKILL.md", GOOD),
            (
                ".claude/skills/other/SKILL.md",
                b"---\nname: other\ndescription: Subtracts numbers. Use when testing.\n---\nBody.\n",
            ),
        ],
    );
    let report = run.run();
    assert!(report.success, "{report:?}");
    let out = last(&report);
    assert_eq!(code(out), 0, "{out:?}");
    assert!(stdout(out).contains("checked 2 skills"), "{out:?}");
    let summary = run.summary().unwrap();
    assert!(
        summary.starts_with("**skb validate** passed: checked 2 skills"),
        "{summary}"
    );
    assert!(summary.contains("(`.`)"), "{summary}");

    let (out, _) = action(repository, "", "");
    assert_eq!(code(&out), 0, "{out:?}");
    assert!(stdout(&out).contains("checked 2 skills"), "{out:?}");

    let empty = tempdir();
    std::fs::create_dir_all(empty.path().join(".git")).unwrap();
    let (out, summary) = action(empty.path(), "", "");
    assert_eq!(code(&out), 1, "{out:?}");
    assert!(stdout(&out).contains("no skills found"), "{out:?}");
    assert!(summary.contains("failed"), "{summary}");
}

/// A cache hit restores the binary: nothing is built, and the restored
/// binary validates.
#[test]
fn the_action_skips_the_install_on_a_cache_hit() {
    let mut run = ActionRun::new(&[("paths", "good")]);
    run.runner.cache = Some(skills_bin().to_path_buf());
    let report = run.run();
    assert!(report.success, "{report:?}");
    assert_eq!(run.cargo_args(), None, "cargo ran on a cache hit");
    assert!(stdout(last(&report)).contains("all valid"));
}

/// `install: path` takes the `skills` already on `PATH`: no cache, no
/// build; without one, the validation step says so and fails.
#[test]
fn the_action_uses_the_skills_on_path_with_install_path() {
    let mut run = ActionRun::new(&[("paths", "good"), ("install", "path")]);
    let report = run.run();
    assert!(!report.success, "{report:?}");
    let out = last(&report);
    assert_eq!(code(out), 2, "{out:?}");
    assert!(
        stdout(out).starts_with("::error title=skb not found::"),
        "{out:?}"
    );

    let bin = run.dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(skills_bin(), bin.join("skb")).unwrap();
    run.runner.path = format!("{}:{}", bin.display(), run.runner.path);
    let report = run.run();
    assert!(report.success, "{report:?}");
    assert!(report.cache.is_none(), "the cache step ran");
    assert_eq!(run.cargo_args(), None, "cargo ran");
    assert!(stdout(last(&report)).contains("all valid"));
}

/// `outdated: true` runs `skb outdated` in the repository: the job passes
/// while every locked skill is current and fails, naming the skill, once
/// its source has a newer version.
#[test]
fn the_action_fails_when_a_locked_skill_is_outdated() {
    let run = ActionRun::new(&[("paths", "good"), ("outdated", "true")]);
    let repo = &run.runner.repository;
    write_tree(&repo.join("vendor/tool"), &[("SKILL.md", TOOL)]);
    let added = skills()
        .current_dir(repo)
        .args(["add", "vendor", "--client", "claude-code"])
        .env("HOME", &run.runner.home)
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}");
    let report = run.run();
    assert!(report.success, "{report:?}");
    assert!(stdout(report.output("skb outdated")).contains("current tool"));

    std::fs::write(
        repo.join("vendor/tool/SKILL.md"),
        [TOOL, b"More.\n"].concat(),
    )
    .unwrap();
    // The second run installs again, as a run on a fresh runner would.
    std::fs::remove_file(run.installed()).unwrap();
    let report = run.run();
    assert!(!report.success, "{report:?}");
    let out = last(&report);
    assert_eq!(code(out), 1, "{out:?}");
    assert!(stdout(out).contains("outdated tool: "), "{out:?}");
}

/// A skill that `skb.lock` records from `vendor/`.
const TOOL: &[u8] =
    b"---\nname: tool\ndescription: Formats tables. Use when asked to.\n---\nBody.\n";

/// An `install` input other than `cargo` or `path` stops the run before
/// anything is installed or validated.
#[test]
fn the_action_refuses_an_unknown_install_input() {
    let run = ActionRun::new(&[("install", "brew")]);
    let report = run.run();
    assert!(!report.success, "{report:?}");
    let out = last(&report);
    assert_eq!(code(out), 2, "{out:?}");
    assert_eq!(
        stdout(out),
        "::error title=skills action::input install must be `cargo` or `path`, not `brew`\n"
    );
    assert_eq!(run.cargo_args(), None, "cargo ran");
    assert_eq!(run.summary(), None, "the validation ran");
}

/// `version` installs that ref of the repository with Git, and keys the
/// cache on it.
#[test]
fn the_action_installs_a_given_version_from_git() {
    let run = ActionRun::new(&[("paths", "good"), ("version", "v9.9.9")]);
    let report = run.run();
    assert!(report.success, "{report:?}");
    assert_eq!(
        run.cargo_args().unwrap(),
        [
            "install",
            "--locked",
            "--force",
            "--git",
            "https://github.com/skills-rs/skills",
            "--rev",
            "v9.9.9",
            env!("CARGO_PKG_NAME"),
        ]
    );
    let (_, key) = report.cache.as_ref().unwrap();
    assert_eq!(key, "skb-Linux-X64-rev-v9.9.9");
}

/// The scan step (input `scan`, on by default) runs `skb scan --format
/// sarif --fail-on <fail-on> -- <paths>` into a file it names in its `sarif`
/// output before the scan runs, and fails with the scan. `skb` is a stub
/// here that records its arguments: the step's contract is that command
/// line.
#[test]
fn the_action_scans_the_paths_into_a_sarif_file_it_names() {
    let action = Action::load();
    assert_eq!(action.defaults["scan"], "true");
    assert_eq!(action.defaults["fail-on"], "high");
    for (inputs, status, args) in [
        (
            vec![("paths", "good  bad")],
            0,
            &[
                "scan",
                "--format",
                "sarif",
                "--fail-on",
                "high",
                "--",
                "good",
                "bad",
            ][..],
        ),
        (
            vec![("paths", "good\n  warned dir \n\n"), ("fail-on", "medium")],
            3,
            &[
                "scan",
                "--format",
                "sarif",
                "--fail-on",
                "medium",
                "--",
                "good",
                "warned dir",
            ][..],
        ),
    ] {
        let mut run = ActionRun::new(&inputs);
        let temp = run.dir.path().join("runner-temp");
        std::fs::create_dir_all(&temp).unwrap();
        run.runner
            .env
            .push(("RUNNER_TEMP".into(), temp.display().to_string()));
        run.runner
            .env
            .push(("SCAN_STATUS".into(), status.to_string()));
        stub(
            &run.dir.path().join("stubs"),
            "skb",
            "printf '%s\\n' \"$@\" >\"$CARGO_ARGS\"\necho '{\"version\": \"2.1.0\"}'\nexit \"$SCAN_STATUS\"\n",
        );
        let (out, outputs) = run.runner.run_step(&action, "scan");
        assert_eq!(code(&out), status, "{out:?}");
        let sarif = temp.join("skb-scan.sarif");
        assert_eq!(outputs["sarif"], sarif.display().to_string());
        assert_eq!(
            std::fs::read_to_string(&sarif).unwrap(),
            "{\"version\": \"2.1.0\"}\n"
        );
        assert_eq!(run.cargo_args().unwrap(), args);
    }
}

/// The files the `skb` binary is built from, relative to the workspace:
/// the Rust sources of every workspace crate in `skills-cli`'s dependency
/// graph as `cargo metadata` resolves it (normal, build and proc-macro
/// dependencies alike), one per directory, then each such crate's manifest,
/// the workspace's and `Cargo.lock`. Resolved, not read from Cargo's
/// dep-info: `target/<profile>/skills.d` is only written when the binary is
/// built for itself, not for a test on a clean checkout.
fn binary_sources() -> Vec<PathBuf> {
    let out = skills_tests::tier::cargo_metadata_offline(Path::new(env!("CARGO")));
    let metadata: Value = serde_json::from_slice(&out).unwrap();
    let members: BTreeSet<&str> = metadata["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap())
        .collect();
    let packages: BTreeMap<&str, &Value> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p))
        .collect();
    let nodes: BTreeMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let cli = members
        .iter()
        .copied()
        .find(|id| packages[id]["name"] == env!("CARGO_PKG_NAME"))
        .unwrap();
    // Every workspace crate reachable from skills-cli without dev-dependencies.
    let mut crates = BTreeSet::from([cli]);
    let mut todo = vec![cli];
    while let Some(id) = todo.pop() {
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let next = dep["pkg"].as_str().unwrap();
            let kinds = dep["dep_kinds"].as_array().unwrap();
            let built = kinds.iter().any(|k| k["kind"] != "dev");
            if built && members.contains(next) && crates.insert(next) {
                todo.push(next);
            }
        }
    }
    let root = workspace();
    let mut by_dir = BTreeMap::new();
    let mut manifests = BTreeSet::from([PathBuf::from("Cargo.toml"), PathBuf::from("Cargo.lock")]);
    for id in &crates {
        let manifest = Path::new(packages[id]["manifest_path"].as_str().unwrap());
        let dir = manifest.parent().unwrap();
        manifests.insert(manifest.strip_prefix(&root).unwrap().to_path_buf());
        for target in packages[id]["targets"].as_array().unwrap() {
            let kinds = target["kind"].as_array().unwrap();
            let built = kinds.iter().any(|k| {
                ["lib", "proc-macro", "bin", "custom-build"].contains(&k.as_str().unwrap())
            });
            if !built {
                continue;
            }
            let src = Path::new(target["src_path"].as_str().unwrap());
            for file in rust_files(src.parent().unwrap()) {
                let rel = file.strip_prefix(&root).unwrap().to_path_buf();
                assert!(file.starts_with(dir), "{}", file.display());
                by_dir
                    .entry(rel.parent().unwrap().to_path_buf())
                    .or_insert(rel);
            }
        }
    }
    assert!(crates.len() >= 4, "{crates:?}");
    assert!(by_dir.len() >= 5, "{by_dir:?}");
    by_dir.into_values().chain(manifests).collect()
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The cache key step hashes the sources of the binary: a change to any
/// of them (each crate the binary is built from, each directory, each
/// manifest and the lock file) gives another key, so the cache never
/// restores a binary built from other sources. The step runs on a copy of
/// the workspace, as the action's checkout.
#[skills_tests::acceptance("needs every platform's locked crates in Cargo's cache (cargo fetch)")]
#[test]
fn the_cache_key_changes_with_every_source_of_the_binary() {
    let tmp = tempdir();
    let checkout = tmp.path().join("action");
    copy_checkout(&checkout);
    std::fs::create_dir_all(tmp.path().join("scratch")).unwrap();
    let runner = Runner {
        inputs: BTreeMap::new(),
        action_path: checkout.clone(),
        repository: tmp.path().to_path_buf(),
        home: tmp.path().to_path_buf(),
        path: path_without_skills(tmp.path()),
        env: Vec::new(),
        cache: None,
        scratch: tmp.path().join("scratch"),
    };
    let action = Action::load();
    let key = || {
        let (out, outputs) = runner.run_step(&action, "key");
        assert!(out.status.success(), "{out:?}");
        outputs["key"].clone()
    };
    let base = key();
    assert!(is_hashed(&base, "src-"), "{base}");
    assert_eq!(key(), base, "the key is stable");
    each_row(
        binary_sources(),
        |rel| rel.display().to_string(),
        |rel| {
            let file = checkout.join(rel);
            let original = std::fs::read(&file).unwrap();
            std::fs::write(&file, [&original[..], b"\n"].concat()).unwrap();
            let changed = key();
            std::fs::write(&file, &original).unwrap();
            assert_ne!(
                changed,
                base,
                "a change to `{}` keeps the cache key: the cache would restore a stale binary",
                rel.display()
            );
        },
    );
}

// ---------------------------------------------------------------------------
// The pre-commit hook, run as pre-commit runs it.

/// `node` as JSON (every scalar a string).
fn to_json(node: &Node) -> Value {
    match &node.value {
        yaml::Value::Str(s) => Value::String(s.clone()),
        yaml::Value::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        yaml::Value::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.as_str().unwrap().to_string(), to_json(v)))
                .collect(),
        ),
    }
}

/// The hook users name in their `.pre-commit-config.yaml`, checked to use
/// only what this emulation does as pre-commit does.
fn hook() -> Value {
    let hooks = to_json(&read_yaml(&workspace().join(".pre-commit-hooks.yaml")));
    let hook = hooks
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "skills-validate")
        .expect("a hook with id skills-validate")
        .clone();
    const KNOWN: [&str; 9] = [
        "id",
        "name",
        "description",
        "entry",
        "language",
        "files",
        "exclude",
        "args",
        "require_serial",
    ];
    for key in hook.as_object().unwrap().keys() {
        assert!(
            KNOWN.contains(&key.as_str()),
            "the emulation does not know the hook key `{key}`"
        );
    }
    // `system`: the entry's program is the one on PATH.
    assert_eq!(hook["language"], "system");
    hook
}

/// What pre-commit does with `hook` for a commit changing `changed`: the
/// files it passes (`files` and `exclude` matched with `re.search`), and
/// the command line (`entry` split as a shell would, then `args`).
fn pre_commit(hook: &Value, changed: &[&str]) -> (Vec<String>, Vec<String>) {
    const SELECT: &str = r#"import json, re, shlex, sys
hook, changed = json.loads(sys.argv[1]), json.loads(sys.argv[2])
files = re.compile(hook.get("files", ""))
exclude = re.compile(hook.get("exclude", "^$"))
selected = [p for p in changed if files.search(p) and not exclude.search(p)]
print(json.dumps([selected, shlex.split(hook["entry"]) + hook.get("args", [])]))"#;
    let out = tool("python3", "python3")
        .args(["-c", SELECT])
        .arg(hook.to_string())
        .arg(json!(changed).to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

struct HookCase {
    commit: &'static str,
    changed: &'static [&'static str],
    /// The files the hook is given.
    selected: &'static [&'static str],
    /// The exit status, and what its output says; `None`: not run.
    outcome: Option<(i32, &'static [&'static str])>,
}

const HOOK_CASES: &[HookCase] = &[
    HookCase {
        commit: "a valid skill, with other files",
        changed: &[
            "README.md",
            "skills/good/SKILL.md",
            "skills/good/references/guide.md",
        ],
        selected: &["skills/good/SKILL.md"],
        outcome: Some((0, &["checked 1 skill", "all valid"])),
    },
    HookCase {
        commit: "several skills, one invalid",
        changed: &[
            "broken/Bad/SKILL.md",
            "plugin/skills/warned/skill.md",
            "skills/good/SKILL.md",
        ],
        selected: &[
            "broken/Bad/SKILL.md",
            "plugin/skills/warned/skill.md",
            "skills/good/SKILL.md",
        ],
        outcome: Some((
            1,
            &[
                "error[SK205]",
                "broken/Bad/SKILL.md:2:7",
                "checked 3 skills",
                "2 valid, 1 invalid",
            ],
        )),
    },
    HookCase {
        commit: "no SKILL.md",
        changed: &[
            "README.md",
            "notes/MYSKILL.md",
            "skills/good/SKILL.md.orig",
            "skills/good/references/guide.md",
        ],
        selected: &[],
        outcome: None,
    },
];

/// The hook's entry, run from `PATH` on the files its pattern selects
/// from a commit: valid skills pass, an invalid one fails the commit, and
/// a commit without a `SKILL.md` does not run it.
#[test]
fn the_pre_commit_hook_validates_the_skills_a_commit_touches() {
    let hook = hook();
    let tmp = tempdir();
    let repo = tmp.path().join("repository");
    write_tree(
        &repo,
        &[
            ("README.md", b"# Skills\n"),
            ("notes/MYSKILL.md", b"Not a skill.\n"),
            ("skills/good/SKILL.md", GOOD),
            ("skills/good/SKILL.md.orig", GOOD),
            ("skills/good/references/guide.md", b"Guide.\n"),
            ("broken/Bad/SKILL.md", BAD),
            ("plugin/skills/warned/skill.md", WARNED),
        ],
    );
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(skills_bin(), bin.join("skb")).unwrap();
    let path = path_without_skills(&bin);
    each_row(
        HOOK_CASES,
        |case| case.commit.to_string(),
        |case| {
            let (selected, argv) = pre_commit(&hook, case.changed);
            assert_eq!(selected, case.selected, "the files given to the hook");
            let Some((status, says)) = case.outcome else {
                return;
            };
            let out = Command::new(&argv[0])
                .args(&argv[1..])
                .args(&selected)
                .current_dir(&repo)
                .env("PATH", &path)
                .output()
                .unwrap();
            let text = stdout(&out) + &String::from_utf8_lossy(&out.stderr);
            assert_eq!(code(&out), status, "{text}");
            for needle in says {
                assert!(text.contains(needle), "no {needle:?} in:\n{text}");
            }
        },
    );
}

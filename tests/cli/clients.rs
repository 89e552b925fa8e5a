//! Acceptance against the record of the real clients
//! (`../shared/clients/`): the 55 catalog cases, laid out as Claude Code
//! read them, must be predicted by `--profile claude-code` (listed or not)
//! and listed by `skb catalog --style claude-code` with exactly the
//! recorded entry lines, in the recorded order.
//!
//! The layout is the record's (`listings.json`): every case of
//! `make_cases.py` (run with `python3`, as recorded) in
//! `<PROJECT>/.claude/skills`, a symlinked skill folder beside them, and the
//! user scope in a temporary `HOME` (`~/.claude/skills/ok-basic` and
//! `home-only`). The skills folders are passed explicitly, the user's
//! first, as Claude Code orders them, and found from the project folder
//! with `--user` (with that `HOME`): both must give the same answers.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use skills_core::catalog::claude_code::{BUILTIN_WIDTH, display_width};
use skills_tests::{tempdir, workspace};

use crate::skills;

/// The record, read at run time.
fn record(file: &str) -> Value {
    let path = skills_tests::tier::shared_path("clients").join(file);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn write_skill(dir: &Path, name: &str, description: &str, body: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\n{body}\n"),
    )
    .unwrap();
}

/// The recorded layout under `root`: `(home, project skills, user skills)`.
fn layout(root: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let home = root.join("home");
    let project = root.join("proj");
    let skills_dir = project.join(".claude/skills");
    let user = home.join(".claude/skills");
    fs::create_dir_all(&skills_dir).unwrap();
    fs::create_dir_all(project.join(".git")).unwrap();
    let script = skills_tests::tier::shared_path("clients/make_cases.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(&skills_dir)
        .output()
        .expect("python3 runs the record's make_cases.py");
    assert!(out.status.success(), "make_cases.py: {out:?}");
    let outside = root.join("outside/symlinked");
    write_skill(
        &outside,
        "symlinked",
        "Reached through a symlinked dir.",
        "Body.",
    );
    std::os::unix::fs::symlink(&outside, skills_dir.join("symlinked")).unwrap();
    write_skill(
        &user.join("ok-basic"),
        "ok-basic",
        "HOME copy of ok-basic.",
        "Home body.",
    );
    write_skill(
        &user.join("home-only"),
        "home-only",
        "Only in HOME.",
        "Home body.",
    );
    (home, skills_dir, user)
}

fn run(home: &Path, cwd: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(cwd)
        .env("HOME", home)
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
        .args(args)
        .output()
        .unwrap()
}

/// The recorded Claude Code outcome of each case: `Some(line)` when listed.
fn recorded_cases() -> Vec<(String, Option<String>)> {
    let cases = record("catalog-cases.json");
    cases["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let dir = c["dir"].as_str().unwrap().to_owned();
            let cc = &c["claude_code"];
            let listed = cc["listed"].as_str().map(str::to_owned);
            assert!(
                listed.is_some() || cc["not_listed"] == true,
                "{dir}: an outcome this test does not know: {cc}"
            );
            (dir, listed)
        })
        .collect()
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn claude_code_listings_as_recorded() {
    let tmp = tempdir();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let (home, skills_dir, user) = layout(&root);
    let project = skills_dir.parent().unwrap().parent().unwrap();
    let cases = recorded_cases();
    assert_eq!(cases.len(), 55, "the record holds 55 catalog cases");
    let folders = [user.to_str().unwrap(), skills_dir.to_str().unwrap()];

    // The profile's prediction, from the JSON report (the same with the
    // folders named and found from the project).
    let mut args = vec!["validate", "--profile", "claude-code", "--format", "json"];
    args.extend(folders);
    let out = run(&home, project, &args);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let discovered = run(
        &home,
        project,
        &[
            "validate",
            "--profile",
            "claude-code",
            "--format",
            "json",
            "--user",
        ],
    );
    let found: Value = serde_json::from_slice(&discovered.stdout).unwrap();
    let views = |r: &Value| -> Vec<(String, Value)> {
        let mut v: Vec<(String, Value)> = r["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                // Named folders give absolute paths, discovered ones
                // relative paths in the project.
                let dir = s["dir"].as_str().unwrap();
                let scope = if dir.contains("home/.claude") {
                    "~"
                } else {
                    "."
                };
                let name = Path::new(dir).file_name().unwrap().to_string_lossy();
                (
                    format!("{scope}/{name}"),
                    s["clients"]["claude-code"].clone(),
                )
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    assert_eq!(
        views(&found),
        views(&report),
        "named folders and discovered ones differ"
    );
    let mut predicted: HashMap<PathBuf, (String, Option<String>, Vec<String>)> = HashMap::new();
    for skill in report["skills"].as_array().unwrap() {
        let dir = PathBuf::from(skill["dir"].as_str().unwrap());
        let Some(cc) = skill["clients"].get("claude-code") else {
            continue;
        };
        let errors = skill["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "error")
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect();
        predicted.insert(
            dir,
            (
                cc["outcome"].as_str().unwrap().to_owned(),
                cc["entry"].as_str().map(str::to_owned),
                errors,
            ),
        );
    }
    let mut wrong = Vec::new();
    for (dir, listed) in &cases {
        // The record's row for a folder the user scope also holds is the
        // user's copy, which Claude Code lists instead (listings.json).
        let path = if user.join(dir).is_dir() {
            user.join(dir)
        } else {
            skills_dir.join(dir)
        };
        let got = predicted.get(&path);
        let (outcome, entry, errors) = match got {
            Some((o, e, errs)) => (o.as_str(), e.clone(), errs.clone()),
            // Not a skill to the validator at all (no SKILL.md, a file).
            None => ("none", None, Vec::new()),
        };
        let right = match listed {
            Some(line) => {
                outcome == "listed" && entry.as_deref() == Some(line) && errors.is_empty()
            }
            None => outcome != "listed",
        };
        if !right {
            wrong.push(format!(
                "{dir}: recorded {listed:?}, predicted {outcome} {entry:?} errors {errors:?}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "predictions differ from the record:\n{}",
        wrong.join("\n")
    );

    // The catalog, line for line; the same from the project folder, with
    // the user's folders read as Claude Code reads them.
    let mut args = vec!["catalog", "--style", "claude-code"];
    args.extend(folders);
    let out = run(&home, project, &args);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let discovered = run(
        &home,
        project,
        &["catalog", "--style", "claude-code", "--user"],
    );
    assert_eq!(
        String::from_utf8_lossy(&discovered.stdout),
        text,
        "{discovered:?}"
    );
    let body = text
        .strip_prefix("The following skills are available for use with the Skill tool:\n\n")
        .unwrap_or_else(|| panic!("no header:\n{text}"));
    let lines: Vec<&str> = body.strip_suffix('\n').unwrap().split('\n').collect();
    for (dir, listed) in &cases {
        if let Some(line) = listed {
            assert!(
                lines.contains(&line.as_str()),
                "{dir}: `{line}` not listed:\n{body}"
            );
        }
    }
    let listings = record("listings.json");
    let in_order: Vec<&str> = listings["claude_code"]["entries_in_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let ours: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| in_order.contains(l))
        .collect();
    assert_eq!(ours, in_order, "the recorded order");
    // Lines the order leaves out are recorded cases too: `simplify`, which
    // Claude Code lists in the place of its bundled skill of that name.
    for line in lines.iter().filter(|l| !in_order.contains(l)) {
        assert!(
            cases.iter().any(|(_, l)| l.as_deref() == Some(*line)),
            "`{line}` is not in the record"
        );
    }
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn claude_code_catalog_budget_and_empty_listing() {
    let tmp = tempdir();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let (home, skills_dir, user) = layout(&root);
    let folders = [user.to_str().unwrap(), skills_dir.to_str().unwrap()];
    let listing = |budget: Option<&str>, env: Option<&str>| {
        let mut cmd = skills();
        cmd.current_dir(&root).env("HOME", &home);
        match env {
            Some(v) => cmd.env("SLASH_COMMAND_TOOL_CHAR_BUDGET", v),
            None => cmd.env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET"),
        };
        cmd.args(["catalog", "--style", "claude-code"])
            .args(folders);
        if let Some(b) = budget {
            cmd.args(["--budget", b]);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let whole = listing(None, None);
    let width = |text: &str| -> usize {
        let entries: Vec<&str> = text.lines().skip(2).collect();
        entries.iter().map(|l| display_width(l)).sum::<usize>() + entries.len() - 1
    };
    assert!(width(&whole) + BUILTIN_WIDTH <= 30_000);
    // Under a tight budget every entry stays; filled greedily in order, the
    // long description loses its text while a later short one keeps its own.
    // Claude Code's built-in entries take their width first.
    let budget = (BUILTIN_WIDTH + 2000).to_string();
    let tight = listing(Some(&budget), None);
    assert!(width(&tight) <= 2000, "{tight}");
    assert!(
        width(&tight) > 1500,
        "the budget beside the built-ins is used: {tight}"
    );
    assert_eq!(listing(Some("2000"), None), listing(Some("10"), None));
    assert_eq!(tight.lines().count(), whole.lines().count());
    assert!(tight.contains("\n- long-desc-1100\n"), "{tight}");
    assert!(
        tight.contains("\n- mismatch-dir (other-name): Frontmatter name differs from dir.\n"),
        "{tight}"
    );
    // The environment variable is Claude Code's; the flag wins over it.
    assert_eq!(listing(None, Some(&budget)), tight);
    assert_eq!(listing(Some("30000"), Some(&budget)), whole);
    // Names alone over the budget: every name is still listed.
    let names = listing(Some("10"), None);
    assert_eq!(names.lines().count(), whole.lines().count());
    assert!(names.lines().skip(2).all(|l| !l.contains(": ")), "{names}");

    // No skills: nothing at all.
    let empty = root.join("empty");
    fs::create_dir(&empty).unwrap();
    let out = run(
        &home,
        &root,
        &["catalog", "--style", "claude-code", empty.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
}

/// A pack (the runtime `Bundle`) lists its skills in Claude Code's dialect
/// too: each under its name, within the budget.
#[test]
fn a_pack_lists_in_claude_codes_dialect() {
    let tmp = tempdir();
    let pack = tmp.path().join("s.skillpack");
    let pack = pack.to_str().unwrap();
    let skills_at = |args: &[&str]| {
        skills()
            .current_dir(workspace())
            .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
            .args(args)
            .output()
            .unwrap()
    };
    let out = skills_at(&["pack", "skills", "-o", pack]);
    assert!(out.status.success(), "{out:?}");
    let out = skills_at(&["catalog", "--style", "claude-code", pack]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("The following skills are available for use with the Skill tool:\n\n- "),
        "{text}"
    );
    assert!(text.contains("\n- calculator: "), "{text}");
    let out = skills_at(&["catalog", "--style", "claude-code", pack, "--budget", "1"]);
    let bare = String::from_utf8(out.stdout).unwrap();
    assert_eq!(bare.lines().count(), text.lines().count());
    assert!(bare.contains("\n- calculator\n"), "{bare}");
}

/// Claude Code's settings in the project: `skillListingBudgetFraction`
/// scales the budget (0.01 is the default 30,000), `skillOverrides` hides a
/// skill from the model's listing (`off`, `user-invocable-only`);
/// `--budget` still wins.
#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn claude_code_settings_change_the_listing() {
    let tmp = tempdir();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let (home, skills_dir, user) = layout(&root);
    let project = skills_dir.parent().unwrap().parent().unwrap().to_path_buf();
    let listing = |extra: &[&str]| {
        let mut args = vec!["catalog", "--style", "claude-code"];
        args.extend([user.to_str().unwrap(), skills_dir.to_str().unwrap()]);
        args.extend(extra);
        let out = run(&home, &project, &args);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let whole = listing(&[]);
    let settings = project.join(".claude/settings.json");
    // A fraction that leaves the listing 1,000 columns beside the built-ins.
    let fraction = (BUILTIN_WIDTH + 1000) as f64 / 3_000_000.0;
    fs::write(
        &settings,
        format!(r#"{{"skillListingBudgetFraction": {fraction}, "skillOverrides": {{"help": "off", "crlf": "user-invocable-only", "plain": "name-only"}}}}"#),
    )
    .unwrap();
    let small = listing(&[]);
    assert!(!small.contains("\n- help"), "{small}");
    assert!(!small.contains("\n- crlf"), "{small}");
    assert_eq!(small.lines().count(), whole.lines().count() - 2);
    assert!(small.contains("\n- long-desc-1100\n"), "{small}");
    assert_eq!(
        listing(&["--budget", "30000"]).lines().count(),
        small.lines().count()
    );
    assert!(listing(&["--budget", "30000"]).contains("\n- long-desc-1100: Lorem"));
    // The user's settings count too, below the project's.
    fs::remove_file(&settings).unwrap();
    fs::write(
        home.join(".claude/settings.json"),
        r#"{"skillOverrides": {"help": "off"}}"#,
    )
    .unwrap();
    assert_eq!(listing(&[]).lines().count(), whole.lines().count() - 1);
}

/// Keys Claude Code reads that are not modelled are reported under the
/// `claude-code` profile (`SK480`); those modelled are not.
#[test]
fn claude_code_keys_not_modelled_are_reported() {
    let tmp = tempdir();
    let dir = tmp.path().join("forked");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: forked\ndescription: Forks. Use when testing.\ncontext: fork\nagent: Explore\nuser-invocable: false\nargument-hint: \"[x]\"\n---\nBody.\n",
    )
    .unwrap();
    let out = skills()
        .args(["validate", "--profile", "claude-code", "--format", "json"])
        .arg(&dir)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes: Vec<(String, String)> = report["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .filter(|(c, _)| c == "SK480")
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0]
            .1
            .starts_with("`context`: read by Claude Code, not modelled here: ")
    );
    assert!(
        notes[1]
            .1
            .starts_with("`agent`: read by Claude Code, not modelled here: ")
    );
    assert_eq!(
        report["skills"][0]["clients"]["claude-code"]["outcome"],
        "listed"
    );
}

/// `skillOverrides: name-only` is not modelled: the catalog says so and
/// lists the skill as it would without the override.
#[test]
fn a_name_only_override_is_listed_with_a_warning() {
    let tmp = tempdir();
    let project = tmp.path().join("proj");
    let home = tmp.path().join("home");
    fs::create_dir_all(project.join(".git")).unwrap();
    fs::create_dir_all(&home).unwrap();
    write_skill(
        &project.join(".claude/skills/terse"),
        "terse",
        "Listed by name only in Claude Code.",
        "Body.",
    );
    fs::write(
        project.join(".claude/settings.json"),
        r#"{"skillOverrides": {"terse": "name-only"}}"#,
    )
    .unwrap();
    let out = skills()
        .current_dir(&project)
        .env("HOME", &home)
        .args(["catalog", "--style", "claude-code"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("- terse: Listed by name only in Claude Code."),
        "{stdout}"
    );
    assert!(
        stderr.contains("sets `terse` to \"name-only\", which is not modelled"),
        "{stderr}"
    );
}

/// `show --style` judges only the skill asked for: a skill the client
/// refuses beside it does not stop the command, and asked for, it is refused
/// with the profile's reason (Claude Code: a `SKILL.md` over 1,000,000
/// bytes; Codex: no `description`).
#[test]
fn show_style_needs_only_the_skill_asked_for_to_load() {
    let big = format!(
        "---\nname: bad\ndescription: Big.\n---\n{}\n",
        "x".repeat(1_000_001)
    );
    for (style, folder, bad) in [
        ("claude-code", ".claude/skills", big.as_str()),
        (
            "codex",
            ".agents/skills",
            "---\nname: bad\n---\nNo description.\n",
        ),
    ] {
        let tmp = tempdir();
        let project = tmp.path().join("proj");
        fs::create_dir_all(project.join(".git")).unwrap();
        write_skill(
            &project.join(folder).join("good"),
            "good",
            "Loads. Use when testing.",
            "Good body.",
        );
        fs::create_dir_all(project.join(folder).join("bad")).unwrap();
        fs::write(project.join(folder).join("bad/SKILL.md"), bad).unwrap();
        let show = |name: &str| {
            skills()
                .current_dir(&project)
                .env("HOME", tmp.path())
                .args(["show", name, "--style", style])
                .output()
                .unwrap()
        };
        let out = show("good");
        assert!(out.status.success(), "{style}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Good body."),
            "{style}: {out:?}"
        );
        let out = show("bad");
        assert_eq!(out.status.code(), Some(1), "{style}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("{folder}/bad`: ")) && stderr.contains("[SK401]"),
            "{style}: {stderr}"
        );
    }
}

/// Every style of `skb show`, the registry's clients and the runtime's,
/// escapes what it echoes on stderr the same way: a name that holds an
/// escape sequence or a bidirectional override reaches the terminal as
/// placeholders (`skb show` once printed them raw for every style but
/// `gemini-cli`).
#[test]
fn every_show_style_escapes_the_name_it_refuses() {
    use skills_core::client::Client;

    let name = "nope\u{1b}[31m\u{202e}";
    let mut styles: Vec<Option<Client>> = vec![None];
    styles.extend(Client::ALL.map(Some));
    for client in styles {
        let tmp = tempdir();
        let project = tmp.path().join("proj");
        fs::create_dir_all(project.join(".git")).unwrap();
        let folder = client.map_or("skills", |c| c.info().project_folders[0]);
        write_skill(
            &project.join(folder).join("good"),
            "good",
            "Loads. Use when testing.",
            "Good body.",
        );
        let mut cmd = skills();
        cmd.current_dir(&project)
            .env("HOME", tmp.path())
            .args(["show", name]);
        match client {
            Some(c) => cmd.args(["--style", c.as_str()]),
            None => cmd.arg("--from").arg(project.join(folder)),
        };
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{client:?}: {out:?}");
        assert!(stderr.starts_with("skb: "), "{client:?}: {stderr}");
        assert!(
            !stderr.contains(['\u{1b}', '\u{202e}']),
            "{client:?} printed the name raw: {stderr:?}"
        );
    }
}

/// `skb catalog --style <client>` without a path lists what the client
/// would list if started here: its skills folders from here up to the
/// repository's root, not every `SKILL.md` below (a repository's fixtures
/// are no client's skills). A path given is still searched.
#[test]
fn catalog_without_a_path_reads_the_project_as_the_client_does() {
    let dir = tempdir();
    let root = dir.path();
    fs::create_dir(root.join(".git")).unwrap();
    for (folder, name) in [
        ("tests/fixtures/stray", "stray"),
        (".claude/skills/kept", "kept"),
    ] {
        fs::create_dir_all(root.join(folder)).unwrap();
        fs::write(
            root.join(folder).join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Says {name}. Use when asked.\n---\nBody.\n"),
        )
        .unwrap();
    }
    let sub = root.join("tests");
    for style in ["claude-code", "opencode", "codex"] {
        let out = skills()
            .args(["catalog", "--style", style])
            .current_dir(&sub)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("stray"), "{style}: {text}");
        if style != "codex" {
            // Codex reads `.agents/skills`, not `.claude/skills`.
            assert!(text.contains("kept"), "{style}: {text}");
        }
    }
    let out = skills()
        .args(["catalog", "--style", "claude-code", "."])
        .current_dir(&sub)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("stray"));
}

//! Qwen Code 0.24.4 as recorded (`../shared/clients/copilot-qwen-kimi`):
//! the record's synthetic skills, written by its own generators (run with
//! `python3`) into `<PROJECT>/.qwen/skills` of a git project, with the
//! record's extra `home-only` skill in `~/.qwen/skills` and, for the
//! catalog run, a `symlinked` skill reached through a link.
//!
//! * `skb catalog --style qwen-code --user` prints the recorded reminder
//!   (`qwen_synthetic_catalog.txt`, `qwen_synthetic1_catalog.txt`) byte
//!   for byte, bundled skills included;
//! * `skb show --style qwen-code NAME` prints each recorded `skill` tool
//!   answer (`qwen_activation.json`), or for a name Qwen Code does not
//!   offer an error quoting its answer. Not reproduced, by design: the
//!   bundled `simplify` (Qwen Code's own text);
//! * `skb validate --profile qwen-code` lists exactly the recorded skills;
//! * of five folders named `same`, the `same` folder's copy is kept
//!   (`limits_dups_qwen.json`).
//!
//! The counts of cases reproduced are printed on stderr. Outside the
//! acceptance tier: the size rule (a small catalog keeps whole
//! descriptions and `when_to_use`), the levels Qwen Code reads, and two
//! catalogs recorded for this crate from Qwen Code 0.24.4 (headless, a
//! loopback mock model server; `clients_qwen/recorded_*.txt`, the first
//! text part of its first user message): small projects, under its
//! 8,000-unit rule, with precedence, hidden, conditional and dropped
//! skills.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use skills_tests::{run_ok, tempdir, tool};

use crate::skills;

fn record_path(file: &str) -> PathBuf {
    skills_tests::tier::shared_path("clients/copilot-qwen-kimi").join(file)
}

fn recorded(file: &str) -> String {
    let path = record_path(file);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn record(file: &str) -> Value {
    serde_json::from_str(&recorded(file)).unwrap()
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// `(tmp, project, home)`: the generator's skills in
/// `<project>/.qwen/skills`; with `extras` (the runs of
/// `make_synthetic2.py`), `home-only` in `<home>/.qwen/skills` and
/// `symlinked` reached through a link.
fn layout(generator: &str, extras: bool) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempdir();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let (project, home) = (root.join("proj"), root.join("home"));
    let skills_dir = project.join(".qwen/skills");
    fs::create_dir_all(&skills_dir).unwrap();
    fs::create_dir_all(project.join(".git")).unwrap();
    run_ok(
        tool("python3", "python3")
            .arg(record_path(generator))
            .arg(&skills_dir),
    );
    fs::create_dir_all(&home).unwrap();
    if extras {
        write(
            &home.join(".qwen/skills/home-only/SKILL.md"),
            "---\nname: home-only\ndescription: Only in HOME.\n---\nBody of home-only.\n",
        );
        let ext = root.join("ext/symlinked");
        write(
            &ext.join("SKILL.md"),
            "---\nname: symlinked\ndescription: Reached through a symlinked dir.\n---\nBody.\n",
        );
        #[cfg(unix)]
        std::os::unix::fs::symlink(&ext, skills_dir.join("symlinked")).unwrap();
    }
    (tmp, project, home)
}

fn run(home: &Path, cwd: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(cwd)
        .env("HOME", home)
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The `<skill>` elements of a reminder.
fn elements(catalog: &str) -> Vec<&str> {
    catalog.split("<skill>\n").skip(1).collect()
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn the_catalogs_are_the_recorded_ones() {
    for (generator, file) in [
        ("make_synthetic2.py", "qwen_synthetic_catalog.txt"),
        ("make_synthetic.py", "qwen_synthetic1_catalog.txt"),
    ] {
        let (_tmp, project, home) = layout(generator, generator == "make_synthetic2.py");
        let out = run(
            &home,
            &project,
            &["catalog", "--style", "qwen-code", "--user"],
        );
        assert!(out.status.success(), "{out:?}");
        let printed = text(&out.stdout).replace(project.to_str().unwrap(), "<PROJECT_DIR>");
        let expected = recorded(file);
        let (got, want) = (elements(&printed), elements(&expected));
        let same = want.iter().filter(|w| got.contains(w)).count();
        eprintln!(
            "qwen-code catalog {file}: {same} of {} recorded entries reproduced exactly, {} printed; in order, byte for byte: {}",
            want.len(),
            got.len(),
            printed == expected
        );
        assert_eq!(printed, expected);
    }
}

/// The tool message of a recorded activation.
fn answer(run: &Value) -> String {
    let tool = run["messages_added_after_call"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    match &tool["content"] {
        Value::String(s) => s.clone(),
        parts => parts[0]["text"].as_str().unwrap().to_string(),
    }
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn show_gives_the_recorded_answers() {
    let (_tmp, project, home) = layout("make_synthetic2.py", true);
    // The activation runs had no linked skill.
    fs::remove_file(project.join(".qwen/skills/symlinked")).unwrap();
    let not_reproduced = ["bundled simplify"];
    let runs = record("qwen_activation.json");
    let runs = runs.as_object().unwrap();
    let mut reproduced = 0;
    let mut wrong = Vec::new();
    for (case, recorded_run) in runs {
        let name = recorded_run["call"]["skill"].as_str().unwrap();
        let mut args = vec!["show", "--style", "qwen-code", name];
        if let Some(a) = recorded_run["call"]["args"].as_str() {
            args.extend(["--arguments", a]);
        }
        let out = run(&home, &project, &args);
        let want = answer(recorded_run).replace("<PROJECT_DIR>", project.to_str().unwrap());
        let same = if want.starts_with("Base directory") {
            out.status.success() && text(&out.stdout) == want
        } else {
            !out.status.success() && text(&out.stderr).contains(&want)
        };
        match (same, not_reproduced.contains(&case.as_str())) {
            (true, false) => reproduced += 1,
            (false, true) => {}
            (true, true) => wrong.push(format!("{case}: reproduced, though not expected to be")),
            (false, false) => wrong.push(format!(
                "{case}:\n--- recorded\n{want}\n--- printed\n{}{}",
                text(&out.stdout),
                text(&out.stderr)
            )),
        }
    }
    eprintln!(
        "qwen-code show: {reproduced} of {} recorded answers reproduced byte for byte (not reproduced by design: {not_reproduced:?})",
        runs.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn the_profile_lists_what_qwen_code_lists() {
    let (_tmp, project, home) = layout("make_synthetic.py", false);
    let out = run(
        &home,
        &project,
        &[
            "validate",
            "--profile",
            "qwen-code",
            "--format",
            "json",
            ".",
        ],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut listed: Vec<String> = Vec::new();
    for s in report["skills"].as_array().unwrap() {
        let qwen = &s["clients"]["qwen-code"];
        let errors = s["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["severity"] == "error");
        if qwen["outcome"] == "listed" {
            assert!(!errors, "{s}");
            let entry = qwen["entry"].as_str().unwrap();
            assert!(
                entry.ends_with("<location>\nproject\n</location>\n</skill>"),
                "{entry}"
            );
            let name = entry
                .split("<name>\n")
                .nth(1)
                .unwrap()
                .split("\n</name>")
                .next();
            listed.push(name.unwrap().to_string());
        }
    }
    let want: Vec<String> = record("qwen_synthetic1.json")["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["location"] == "project")
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    let same = want.iter().filter(|w| listed.contains(w)).count();
    eprintln!(
        "qwen-code profile: {same} of {} recorded project skills listed, {} listed in all",
        want.len(),
        listed.len()
    );
    listed.sort();
    let mut want = want;
    want.sort();
    assert_eq!(listed, want);
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn of_folders_sharing_a_name_the_first_by_name_is_kept() {
    let tmp = tempdir();
    let project = fs::canonicalize(tmp.path()).unwrap();
    let rec = record("limits_dups_qwen.json");
    for folder in rec["folders"].as_array().unwrap() {
        let folder = folder.as_str().unwrap();
        write(
            &project.join(".qwen/skills").join(folder).join("SKILL.md"),
            &format!("---\nname: same\ndescription: from {folder}\n---\nBody.\n"),
        );
    }
    let out = run(
        &project,
        &project.join(".qwen"),
        &["catalog", "--style", "qwen-code", ".."],
    );
    let printed = text(&out.stdout);
    let want = &rec["entries_named_same"][0]["description"];
    assert!(
        printed.contains(&format!("<description>\n{}\n", want.as_str().unwrap())),
        "{printed}"
    );
    assert_eq!(printed.matches("<name>\nsame\n</name>").count(), 1);
}

#[test]
fn a_small_catalog_keeps_whole_descriptions_and_when_to_use() {
    let tmp = tempdir();
    let project = fs::canonicalize(tmp.path()).unwrap();
    fs::create_dir_all(project.join(".git")).unwrap();
    write(
        &project.join(".qwen/skills/.hidden/SKILL.md"),
        "---\nname: hidden\ndescription: |\n  Line one.\n  Line two.\nwhen_to_use: When <asked>.\n---\nBody.\n",
    );
    write(
        &project.join(".qwen/skills/gated/SKILL.md"),
        "---\nname: gated\ndescription: d\npaths: [\"src/**\"]\n---\nBody.\n",
    );
    write(
        &project.join(".agents/skills/hidden/SKILL.md"),
        "---\nname: hidden\ndescription: the other copy\n---\nBody.\n",
    );
    write(
        &project.join(".qwen/skills/deep/er/SKILL.md"),
        "---\nname: deeper\ndescription: d\n---\nBody.\n",
    );
    let out = run(&project, &project, &["catalog", "--style", "qwen-code"]);
    let printed = text(&out.stdout);
    assert!(
        printed.contains("<name>\nhidden\n</name>\n<description>\nLine one.\nLine two.\n \u{2014} When &lt;asked&gt;. (project)\n</description>\n<location>\nproject\n</location>"),
        "{printed}"
    );
    assert!(!printed.contains("the other copy"), "{printed}");
    assert!(!printed.contains("<name>\ngated\n"), "{printed}");
    assert!(!printed.contains("<name>\ndeeper\n"), "{printed}");
    // The bundled skills are sorted in.
    assert!(printed.contains("<name>\nbatch\n</name>"), "{printed}");
    // From a subdirectory, the project root's folders are not read.
    fs::create_dir_all(project.join("sub")).unwrap();
    let out = run(
        &project,
        &project.join("sub"),
        &["catalog", "--style", "qwen-code"],
    );
    assert!(!text(&out.stdout).contains("<name>\nhidden\n"));
    // The skill tool: exact names, a gated skill's own answer.
    let out = run(
        &project,
        &project,
        &["show", "--style", "qwen-code", "HIDDEN"],
    );
    assert!(text(&out.stderr).contains("Skill \"HIDDEN\" not found. Available skills: batch, "));
    let out = run(
        &project,
        &project,
        &["show", "--style", "qwen-code", "gated"],
    );
    assert!(
        text(&out.stderr).contains("is gated by path-based activation"),
        "{out:?}"
    );
    let out = run(
        &project,
        &project,
        &["show", "--style", "qwen-code", "hidden"],
    );
    assert_eq!(
        text(&out.stdout),
        format!(
            "Base directory for this skill: {}\nImportant: ALWAYS resolve absolute paths from this base directory when working with skills.\n\nBody.\n",
            project.join(".qwen/skills/.hidden").display()
        )
    );
}

/// Two trees recorded for this crate (paths below the temporary root:
/// `proj` is the project, `home` the home).
const R1: &[(&str, &str)] = &[
    (
        "proj/.qwen/skills/small-one/SKILL.md",
        "---\nname: small-one\ndescription: |\n  Line one.\n  Line two.\nwhen_to_use: When <asked> & \"quoted\".\n---\n\n  Body one.\n\n",
    ),
    (
        "proj/.qwen/skills/small-two/SKILL.md",
        "---\nname: small-two\ndescription: >\n  Folded it's\n  here.\n---\nBody two.\n",
    ),
];
const R2: &[(&str, &str)] = &[
    (
        "home/.agents/skills/homeagent/SKILL.md",
        "---\nname: homeagent\ndescription: home agents\n---\nB.\n",
    ),
    (
        "home/.qwen/skills/dup/SKILL.md",
        "---\nname: dup\ndescription: from home\n---\nB.\n",
    ),
    (
        "proj/.agents/skills/dot.name/SKILL.md",
        "---\nname: dot.name\ndescription: 12.50\n---\nB.\n",
    ),
    (
        "proj/.agents/skills/dup/SKILL.md",
        "---\nname: dup\ndescription: from agents\n---\nB.\n",
    ),
    (
        "proj/.qwen/skills/Zeta/SKILL.md",
        "---\nname: Zeta\ndescription: \"quoted \\\\\"x\\\\\" and \\\\u00e9\"\n---\nB.\n",
    ),
    (
        "proj/.qwen/skills/blankdesc/SKILL.md",
        "---\nname: blankdesc\ndescription: \"   \"\n---\nB.\n",
    ),
    (
        "proj/.qwen/skills/dmistr/SKILL.md",
        "---\nname: dmistr\ndescription: dmi string\ndisable-model-invocation: \"true\"\n---\nB.\n",
    ),
    (
        "proj/.qwen/skills/dup/SKILL.md",
        "---\nname: dup\ndescription: from qwen\n---\nB.\n",
    ),
    (
        "proj/.qwen/skills/dupkey/SKILL.md",
        "---\nname: dupkey\ndescription: first\ndescription: second: x\n---\nB.\n",
    ),
    (
        "proj/.qwen/skills/listdesc/SKILL.md",
        "---\nname: listdesc\ndescription:\n  - a\n  - 2\n---\nB.\n",
    ),
    (
        "proj/.qwen/skills/pathsempty/SKILL.md",
        "---\nname: pathsempty\ndescription: paths empty list\npaths: []\n---\nB.\n",
    ),
    (
        "proj/.qwen/skills/simplify/SKILL.md",
        "---\nname: simplify\ndescription: mine\n---\nB.\n",
    ),
    (
        "proj/.qwen/skills/x.backup-1-2/SKILL.md",
        "---\nname: leftover\ndescription: leftover\n---\nB.\n",
    ),
];

#[test]
fn catalogs_recorded_for_this_crate() {
    for (tree, recorded) in [
        (R1, include_str!("clients_qwen/recorded_r1.txt")),
        (R2, include_str!("clients_qwen/recorded_r2.txt")),
    ] {
        let tmp = tempdir();
        let root = fs::canonicalize(tmp.path()).unwrap();
        for (rel, text) in tree {
            write(&root.join(rel), text);
        }
        let (project, home) = (root.join("proj"), root.join("home"));
        fs::create_dir_all(project.join(".git")).unwrap();
        fs::create_dir_all(&home).unwrap();
        let out = run(
            &home,
            &project,
            &["catalog", "--style", "qwen-code", "--user"],
        );
        assert!(out.status.success(), "{out:?}");
        // The reminder, and the line break `skb` prints after it.
        assert_eq!(text(&out.stdout), format!("{recorded}\n"));
    }
}

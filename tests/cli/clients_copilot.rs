//! GitHub Copilot CLI 1.0.102 as recorded (`../shared/clients/copilot-qwen-kimi`).
//!
//! Without the shared material: small projects built here, each checking a
//! rule of the record (what is listed and how, the budget, the activation
//! text, the profile, `add`).
//!
//! The acceptance tier rebuilds the recorded cases and compares:
//!
//! * `skb catalog --style copilot` with the three recorded catalogs
//!   (`copilot_synthetic_catalog.txt`, `copilot_synthetic_noroot_catalog.txt`,
//!   `copilot_synthetic1_catalog.txt`) byte for byte;
//! * its entries with those of the location, precedence, same-name,
//!   name-and-length, budget and `Additional skills` probes, in order;
//! * `skb show --style copilot --json NAME` with each recorded `skill` call
//!   (`copilot_activation.json`, `copilot_activation_with_root_skillmd.json`):
//!   the tool result and the user message byte for byte, or for a name
//!   Copilot does not list its answer. Not reproduced, by design: the
//!   built-in `customize-cloud-agent`'s body (Copilot's own text).
//!
//! The counts of cases reproduced are printed on stderr.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use skills_tests::{run_ok, shared, tempdir, tool};

use crate::skills;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn write_skill(folder: &Path, dir: &str, name: &str, description: &str) {
    fs::create_dir_all(folder.join(dir)).unwrap();
    fs::write(
        folder.join(dir).join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n"),
    )
    .unwrap();
}

/// `(tmp, project, home)`: a git project and an empty home beside it.
fn new_project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempdir();
    let project = std::path::absolute(tmp.path().join("proj")).unwrap();
    let home = std::path::absolute(tmp.path().join("home")).unwrap();
    fs::create_dir_all(project.join(".git")).unwrap();
    fs::create_dir_all(&home).unwrap();
    (tmp, project, home)
}

/// `skb catalog --style copilot --user` run in `cwd`, with `home`.
fn catalog(cwd: &Path, home: &Path, extra: &[&str]) -> (String, String) {
    let out = skills()
        .current_dir(cwd)
        .env("HOME", home)
        .args(["catalog", "--style", "copilot", "--user"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    (text(&out.stdout), text(&out.stderr))
}

/// `(name, level)` of each whole entry of a catalog, in order.
fn entries(catalog: &str) -> Vec<(String, String)> {
    catalog
        .split("<skill>\n  <name>")
        .skip(1)
        .map(|e| {
            let name = e.split("</name>").next().unwrap().to_owned();
            let level = e
                .split("<location>")
                .nth(1)
                .and_then(|l| l.split("</location>").next())
                .unwrap()
                .to_owned();
            (name, level)
        })
        .collect()
}

fn names(catalog: &str) -> Vec<String> {
    entries(catalog).into_iter().map(|(n, _)| n).collect()
}

/// The JSON of `skb show --style copilot --json NAME`, or the answer its
/// error quotes.
fn show(project: &Path, home: &Path, name: &str) -> Result<Value, String> {
    let out = skills()
        .current_dir(project)
        .env("HOME", home)
        .args(["show", "--style", "copilot", "--json", name])
        .output()
        .unwrap();
    if out.status.success() {
        return Ok(serde_json::from_slice(&out.stdout).unwrap());
    }
    let err = text(&out.stderr);
    Err(err
        .split_once("its `skill` tool answers: ")
        .map_or(err.clone(), |(_, a)| a.trim_end().to_owned()))
}

#[test]
fn the_catalog_lists_as_copilot_does() {
    let (_tmp, project, home) = new_project();
    let github = project.join(".github/skills");
    write_skill(&github, "b", "My Skill", "Has <tag> & 'quotes'.");
    write_skill(&github, "deep/er/a", "a", "Nested.");
    fs::create_dir_all(github.join("no-desc")).unwrap();
    fs::write(
        github.join("no-desc/SKILL.md"),
        "---\nname: no-desc\n---\n# Title\n\nFirst paragraph.\n",
    )
    .unwrap();
    write_skill(&github, "bad", "bad", "Use when: a colon");
    write_skill(&github, ".hidden", "hidden", "Hidden.");
    write_skill(&project.join(".claude/skills"), "a", "a", "Claude copy.");
    // A SKILL.md directly in `.agents/skills` hides the rest of it.
    let agents = project.join(".agents/skills");
    write_skill(&agents, "z", "z", "Hidden by the root.");
    fs::write(
        agents.join("SKILL.md"),
        "---\nname: root\ndescription: Root.\n---\n",
    )
    .unwrap();
    write_skill(&home.join(".copilot/skills"), "u", "u", "User.");
    let (out, err) = catalog(&project, &home, &[]);
    assert_eq!(
        entries(&out),
        [
            ("My-Skill", "project"),
            ("a", "project"),
            ("no-desc", "project"),
            ("root", "project"),
            ("u", "user"),
            ("customize-cloud-agent", "builtin"),
            ("github-pr-media", "builtin"),
        ]
        .map(|(n, l)| (n.to_owned(), l.to_owned()))
    );
    assert!(out.starts_with("<skill>\n<available_skills>\n<skill>\n  <name>My-Skill</name>\n  <description>Has &lt;tag&gt; &amp; &apos;quotes&apos;.</description>\n  <location>project</location>\n</skill>\n"), "{out}");
    assert!(out.contains("<name>a</name>\n  <description>Nested.</description>"));
    assert!(out.contains("<name>no-desc</name>\n  <description>First paragraph.</description>"));
    assert!(out.ends_with("</skill>\n</available_skills>\n"), "{out}");
    assert!(
        err.contains("Copilot CLI drops") && err.contains("bad/SKILL.md"),
        "{err}"
    );
    assert!(err.contains("another skill named `a`"), "{err}");
    assert!(err.contains("makes that folder one skill"), "{err}");
}

#[test]
fn whole_entries_within_the_budget_then_the_names() {
    let (_tmp, project, home) = new_project();
    let github = project.join(".github/skills");
    let description = "d".repeat(1_000);
    for i in 0..20 {
        write_skill(
            &github,
            &format!("b{i:03}"),
            &format!("b{i:03}"),
            &description,
        );
    }
    // 13 entries of 1,098 characters fit in 15,000 (budget_copilot_150x1000.json).
    let (out, _) = catalog(&project, &home, &[]);
    assert_eq!(names(&out).len(), 13);
    assert!(out.ends_with("</skill>\nAdditional skills available (invoke by name): b013, b014, b015, b016, b017, b018, b019, customize-cloud-agent, github-pr-media\n</available_skills>\n"), "{out}");
    let (out, _) = catalog(&project, &home, &["--budget", "3000"]);
    assert_eq!(names(&out), ["b000", "b001"]);
}

#[test]
fn the_activation_is_the_skill_context_message() {
    let (_tmp, project, home) = new_project();
    let github = project.join(".github/skills");
    fs::create_dir_all(github.join("demo/scripts")).unwrap();
    fs::write(
        github.join("demo/SKILL.md"),
        "---\nname: demo\ndescription: Demo.\n---\n\n\n# Demo\n$ARGUMENTS ${CLAUDE_SKILL_DIR}\n\n",
    )
    .unwrap();
    fs::write(github.join("demo/scripts/run.sh"), "echo\n").unwrap();
    fs::write(github.join("demo/a.md"), "a\n").unwrap();
    write_skill(&github, "off", "off", "Off.");
    fs::write(
        github.join("off/SKILL.md"),
        "---\nname: off\ndescription: Off.\ndisable-model-invocation: true\n---\nBody.\n",
    )
    .unwrap();
    let dir = github.join("demo");
    let dir = dir.display();
    let shown = show(&project, &home, "DEMO").unwrap();
    assert_eq!(
        shown["tool_result"],
        "Skill \"demo\" loaded successfully. Follow the instructions in the skill context."
    );
    assert_eq!(
        shown["text"].as_str().unwrap(),
        format!(
            "<skill-context name=\"demo\">\nBase directory for this skill: {dir}\n\nRelated files (use view tool to read):\n  - {dir}/a.md\n  - {dir}/scripts/run.sh\n\n# Demo\n$ARGUMENTS ${{CLAUDE_SKILL_DIR}}\n\n\n</skill-context>"
        )
    );
    for name in ["off", "nope"] {
        assert_eq!(
            show(&project, &home, name).unwrap_err(),
            format!(
                "Skill \"{name}\" not found. Available skills: demo, customize-cloud-agent, github-pr-media"
            )
        );
    }
    let err = show(&project, &home, "github-pr-media").unwrap_err();
    assert!(err.contains("built-in"), "{err}");
}

/// Copilot CLI names a folder of over 50 entries instead of entering it,
/// and stops at the file past the hundredth (recorded with 1.0.102 on
/// trees of 20 to 480 files, and on ten random trees built afterwards).
#[test]
fn many_files_are_summarized_and_cut_as_copilot_does() {
    let (_tmp, project, home) = new_project();
    let github = project.join(".github/skills");
    write_skill(&github, "many", "many", "Many files.");
    let many = github.join("many");
    for i in 0..60 {
        let path = many.join(format!("references/big/f{i:02}.md"));
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "x\n").unwrap();
    }
    fs::create_dir_all(many.join("scripts")).unwrap();
    fs::write(many.join("scripts/run.sh"), "echo\n").unwrap();
    let dir = many.display();
    let shown = show(&project, &home, "many").unwrap();
    let text = shown["text"].as_str().unwrap();
    assert!(
        text.contains(&format!(
            "\n\nSummarized directories:\n  - references/big/ (60 items)\nRelated files (use view tool to read):\n  - {dir}/scripts/run.sh\n\n"
        )),
        "{text}"
    );
    for i in 0..120 {
        fs::write(many.join(format!("t{i:03}.md")), "x\n").unwrap();
    }
    let shown = show(&project, &home, "many").unwrap();
    let text = shown["text"].as_str().unwrap();
    assert_eq!(text.matches("\n  - /").count(), 100, "{text}");
    assert!(
        text.contains("\n  ...and more files (listing truncated)\n\n"),
        "{text}"
    );
}

#[test]
fn the_profile_errs_where_copilot_drops_a_skill() {
    let (_tmp, project, _home) = new_project();
    let github = project.join(".github/skills");
    write_skill(&github, "spaced", "spaced name", "Fine.");
    write_skill(&github, "long", "long", &"d".repeat(1_025));
    write_skill(&github, "ok", "ok", "Fine.");
    let out = skills()
        .current_dir(&project)
        .args(["validate", "--profile", "copilot", "--format", "json", "."])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = |dir: &str| -> Vec<String> {
        report["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["dir"].as_str().unwrap().ends_with(dir))
            .unwrap()["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "error")
            .map(|d| d["message"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(
        errors("long")[0].contains("over the 1024 Copilot CLI takes"),
        "{report}"
    );
    assert!(errors("ok").is_empty(), "{report}");
    let spaced = report.to_string();
    assert!(
        spaced.contains("as `spaced-name` (spaces become `-`)"),
        "{spaced}"
    );
}

#[test]
fn add_for_copilot_installs_where_it_reads() {
    let tmp = tempdir();
    let src = tmp.path().join("src");
    write_skill(&src, "demo", "demo", "Demo. Use when testing.");
    let p = tmp.path().join("p");
    fs::create_dir_all(p.join(".git")).unwrap();
    let out = skills()
        .current_dir(&p)
        .args(["add", "../src", "--client", "copilot"])
        .output()
        .unwrap();
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("installed demo -> .github/skills/demo"),
        "{all}"
    );
    // Copilot's profile finds nothing it would not load.
    assert!(!all.contains("would not load"), "{all}");
    let (listed, _) = catalog(&p, tmp.path(), &[]);
    assert_eq!(names(&listed)[0], "demo");
}

// The acceptance tier: the recorded cases.

const RECORD: &str = "clients/copilot-qwen-kimi";

fn recorded(file: &str) -> String {
    let path = shared().join(RECORD).join(file);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn record(file: &str) -> Value {
    serde_json::from_str(&recorded(file)).unwrap()
}

/// The record's synthetic skills (`make_synthetic2.py`, or
/// `make_synthetic.py` when `first`) in `<project>/.github/skills`.
fn synthetic(project: &Path, first: bool) {
    let script = if first {
        "make_synthetic.py"
    } else {
        "make_synthetic2.py"
    };
    run_ok(
        tool("python3", "python3")
            .arg(shared().join(RECORD).join(script))
            .arg(project.join(".github/skills")),
    );
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn the_catalogs_are_the_recorded_ones() {
    let mut same = 0;
    for case in ["root", "noroot", "synthetic1"] {
        let (tmp, project, home) = new_project();
        synthetic(&project, case == "synthetic1");
        let github = project.join(".github/skills");
        let file = match case {
            "root" => {
                write_skill(
                    &project.join(".agents/skills"),
                    "ok-basic",
                    "ok-basic",
                    "Project .agents copy of ok-basic.",
                );
                write_skill(
                    &home.join(".copilot/skills"),
                    "home-only",
                    "home-only",
                    "Only in HOME.",
                );
                "copilot_synthetic_catalog.txt"
            }
            "noroot" => {
                fs::remove_file(github.join("SKILL.md")).unwrap();
                let ext = tmp.path().join("ext");
                write_skill(
                    &ext,
                    "symlinked",
                    "symlinked",
                    "Reached through a symlinked dir.",
                );
                #[cfg(unix)]
                std::os::unix::fs::symlink(ext.join("symlinked"), github.join("symlinked"))
                    .unwrap();
                write_skill(
                    &home.join(".copilot/skills"),
                    "home-only",
                    "home-only",
                    "Only in HOME.",
                );
                "copilot_synthetic_noroot_catalog.txt"
            }
            _ => "copilot_synthetic1_catalog.txt",
        };
        let (out, _) = catalog(&project, &home, &[]);
        let want = recorded(file);
        same += usize::from(out == want);
        assert_eq!(out, want, "{file}");
    }
    eprintln!("copilot catalogs: {same} of 3 byte for byte");
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn the_probes_list_as_recorded() {
    // Locations, from the repository's root and from `sub`.
    let (_tmp, project, home) = new_project();
    for (folder, name) in [
        (".github/skills", "loc-proj-github"),
        (".agents/skills", "loc-proj-agents"),
        (".claude/skills", "loc-proj-claude"),
        (".github/skills/group/deeper", "loc-nested-3"),
        ("sub/.github/skills", "loc-sub-github"),
        ("sub/.agents/skills", "loc-sub-agents"),
        (".copilot/skills", "loc-not-copilot"),
        (".gemini/skills", "loc-not-gemini"),
        ("skills", "loc-not-bare"),
        (".github/skill", "loc-not-singular"),
    ] {
        write_skill(&project.join(folder), name, name, &format!("Skill {name}."));
    }
    for (folder, name) in [
        (".copilot/skills", "loc-user-copilot"),
        (".agents/skills", "loc-user-agents"),
        (".claude/skills", "loc-not-user-claude"),
        (".github/skills", "loc-not-user-github"),
    ] {
        write_skill(&home.join(folder), name, name, &format!("Skill {name}."));
    }
    let locations = record("copilot_locations.json");
    for (case, cwd) in [
        ("cwd=repo", project.clone()),
        ("cwd=repo/sub", project.join("sub")),
    ] {
        let want: Vec<(String, String)> = locations[case]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["name"].as_str().unwrap().to_owned(),
                    e["location"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(entries(&catalog(&cwd, &home, &[]).0), want, "{case}");
    }

    // Precedence: the winner of each round.
    let precedence = record("precedence_copilot.json");
    for round in precedence["rounds"].as_array().unwrap() {
        let (_tmp, project, home) = new_project();
        for folder in round["left"].as_array().unwrap() {
            let folder = folder.as_str().unwrap();
            let base = match folder.strip_prefix("~/") {
                Some(rel) => home.join(rel),
                None => project.join(folder),
            };
            write_skill(&base, "dup", "dup", &format!("from {folder}"));
        }
        let out = catalog(&project, &home, &[]).0;
        let winner = round["winner"].as_str().unwrap();
        assert!(
            out.contains(&format!(
                "<name>dup</name>\n  <description>from {winner}</description>"
            )),
            "{winner}: {out}"
        );
        assert_eq!(out.matches("<name>dup</name>").count(), 1);
    }

    // Same name in one folder: the first `SKILL.md` path by code unit.
    let dups = record("limits_dups_copilot.json");
    let (_tmp, project, home) = new_project();
    for dir in dups["folders"].as_array().unwrap() {
        let dir = dir.as_str().unwrap();
        write_skill(
            &project.join(".github/skills"),
            dir,
            "same",
            &format!("from {dir}"),
        );
    }
    let out = catalog(&project, &home, &[]).0;
    let want = dups["entries_named_same"][0]["description"]
        .as_str()
        .unwrap();
    assert!(
        out.contains(&format!("<description>{want}</description>")),
        "{out}"
    );

    // Names and lengths.
    let limits = record("limits_copilot.json");
    let (_tmp, project, home) = new_project();
    for (dir, skill_md) in limits["cases"].as_object().unwrap() {
        let dir = project.join(".github/skills").join(dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("SKILL.md"), skill_md.as_str().unwrap()).unwrap();
    }
    let want: Vec<String> = limits["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names(&catalog(&project, &home, &[]).0), want);
    eprintln!("copilot probes: locations 2 of 2, precedence, same name and limits as recorded");
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn the_budget_cuts_where_recorded() {
    for file in [
        "budget_copilot_150x100.json",
        "budget_copilot_150x1000.json",
        "budget_copilot_60x300.json",
    ] {
        let budget = record(file);
        let (_tmp, project, home) = new_project();
        let description = "d".repeat(budget["desc_chars"].as_u64().unwrap() as usize);
        for i in 0..budget["n_skills"].as_u64().unwrap() {
            let name = format!("b{i:03}");
            write_skill(&project.join(".github/skills"), &name, &name, &description);
        }
        let out = catalog(&project, &home, &[]).0;
        let listed = names(&out);
        assert_eq!(
            listed.len() as u64,
            budget["listed"].as_u64().unwrap(),
            "{file}"
        );
        assert_eq!(
            listed.last().unwrap(),
            budget["last_listed"].as_str().unwrap()
        );
        assert_eq!(
            out.find("Additional").unwrap() as u64,
            budget["chars_before_additional"].as_u64().unwrap(),
            "{file}"
        );
        let line = budget["additional_names_line"].as_str().unwrap();
        assert!(out.contains(line.trim_end_matches('.')), "{file}");
    }
    let more = record("limits_copilot_more.json");
    let (_tmp, project, home) = new_project();
    let description = "d".repeat(1_000);
    for i in 0..400 {
        let name = format!("skill-name-number-{i:03}");
        write_skill(&project.join(".github/skills"), &name, &name, &description);
    }
    let out = catalog(&project, &home, &[]).0;
    let line = out.lines().find(|l| l.starts_with("Additional")).unwrap();
    assert_eq!(line, more["additional_line"].as_str().unwrap());
    eprintln!("copilot budget: 3 of 3 cuts and the Additional line as recorded");
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn the_activations_are_the_recorded_ones() {
    let mut same = 0;
    let mut total = 0;
    for (file, root) in [
        ("copilot_activation.json", false),
        ("copilot_activation_with_root_skillmd.json", true),
    ] {
        let (_tmp, project, home) = new_project();
        synthetic(&project, false);
        let github = project.join(".github/skills");
        if !root {
            fs::remove_file(github.join("SKILL.md")).unwrap();
        }
        fs::create_dir_all(github.join("dmi-true")).unwrap();
        fs::write(
            github.join("dmi-true/SKILL.md"),
            "---\nname: dmi-true\ndescription: Off.\ndisable-model-invocation: true\n---\nBody.\n",
        )
        .unwrap();
        let cases = record(file);
        for (case, run) in cases.as_object().unwrap() {
            if case == "builtin" {
                continue;
            }
            let want: Vec<&str> = run["messages_added_after_call"]
                .as_array()
                .unwrap()
                .iter()
                .skip(1)
                .map(|m| m["content"].as_str().unwrap())
                .collect();
            let called = run["call"]["skill"].as_str().unwrap();
            let got: Vec<String> = match show(&project, &home, called) {
                Ok(v) => vec![
                    v["tool_result"].as_str().unwrap().to_owned(),
                    v["text"].as_str().unwrap().to_owned(),
                ],
                Err(answer) => vec![answer],
            }
            .into_iter()
            .map(|g| g.replace(&*project.to_string_lossy(), "<PROJECT_DIR>"))
            .collect();
            total += 1;
            same += usize::from(got == want);
            assert_eq!(got, want, "{file}: {case}");
        }
    }
    eprintln!(
        "copilot activations: {same} of {total} byte for byte (the built-in's text left out)"
    );
}

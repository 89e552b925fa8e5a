//! Kimi Code 2.1.0 as recorded (`../shared/clients/copilot-qwen-kimi`):
//! the record's synthetic skills, written by its own generators (run with
//! `python3`) into `<PROJECT>/.kimi-code/skills` of a git project, with the
//! record's extra `home-only` skill in `~/.kimi-code/skills` and, for the
//! catalog run, a `symlinked` skill reached through a link.
//!
//! * `skb catalog --style kimi-code --user` prints the recorded `# Skills`
//!   section (`kimi_synthetic_catalog.txt`, `kimi_synthetic1_catalog.txt`)
//!   byte for byte, built-ins and the loose `loose-file.md` included (the
//!   system message then ends with blank lines, which `skb` leaves out);
//! * `skb show --style kimi-code NAME` prints each recorded user message
//!   (`kimi_activation.json`, `kimi_placeholders.json`,
//!   `limits_bodies_kimi.json`), or for a name Kimi Code refuses an error
//!   quoting its answer;
//! * `skb validate --profile kimi-code` lists exactly the recorded skill
//!   folders, and says of the loose file that Kimi Code lists it (`SK409`);
//! * the 250-unit cut and the `type:` rule (`limits_kimi.json`), the
//!   folders' precedence (`precedence_kimi.json`), same-named folders
//!   (`limits_dups_kimi.json`), no budget (`budget_kimi_150x1000.json`).
//!
//! The counts of cases reproduced are printed on stderr. Outside the
//! acceptance tier: the levels Kimi Code reads (the repository's root
//! only), hidden and deep skill folders, loose files, the placeholders.

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

/// `(tmp, project, home)`: a git project and an empty home, both
/// canonical.
fn git_project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempdir();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let (project, home) = (root.join("proj"), root.join("home"));
    fs::create_dir_all(project.join(".git")).unwrap();
    fs::create_dir_all(&home).unwrap();
    (tmp, project, home)
}

/// `(tmp, project, home)`: the generator's skills in
/// `<project>/.kimi-code/skills`; with `extras` (the runs of
/// `make_synthetic2.py`), `home-only` in `<home>/.kimi-code/skills` and
/// `symlinked` reached through a link.
fn layout(generator: &str, extras: bool) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (tmp, project, home) = git_project();
    let skills_dir = project.join(".kimi-code/skills");
    fs::create_dir_all(&skills_dir).unwrap();
    run_ok(
        tool("python3", "python3")
            .arg(record_path(generator))
            .arg(&skills_dir),
    );
    if extras {
        write(
            &home.join(".kimi-code/skills/home-only/SKILL.md"),
            "---\nname: home-only\ndescription: Only in HOME.\n---\nBody of home-only.\n",
        );
        let ext = project.parent().unwrap().join("ext/symlinked");
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

/// The section as printed, with the record's placeholders for the paths.
fn normalised(out: &Output, project: &Path, home: &Path) -> String {
    text(&out.stdout)
        .replace(project.to_str().unwrap(), "<PROJECT_DIR>")
        .replace(home.to_str().unwrap(), "<HOME>")
}

/// The entries of a section (`- name: ...` up to the next).
fn entries(section: &str) -> Vec<&str> {
    section.split("\n- ").skip(1).collect()
}

/// The catalog of `--style kimi-code --user` run in `cwd`.
fn catalog(home: &Path, cwd: &Path) -> String {
    let out = run(home, cwd, &["catalog", "--style", "kimi-code", "--user"]);
    assert!(out.status.success(), "{out:?}");
    text(&out.stdout)
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn the_catalogs_are_the_recorded_ones() {
    for (generator, file) in [
        ("make_synthetic2.py", "kimi_synthetic_catalog.txt"),
        ("make_synthetic.py", "kimi_synthetic1_catalog.txt"),
    ] {
        let (_tmp, project, home) = layout(generator, generator == "make_synthetic2.py");
        let out = run(
            &home,
            &project,
            &["catalog", "--style", "kimi-code", "--user"],
        );
        assert!(out.status.success(), "{out:?}");
        // The system message goes on with blank lines after the section.
        let printed = format!("{}\n\n\n", normalised(&out, &project, &home));
        let expected = recorded(file);
        let (got, want) = (entries(&printed), entries(&expected));
        let same = want.iter().filter(|w| got.contains(w)).count();
        eprintln!(
            "kimi-code catalog {file}: {same} of {} recorded entries reproduced exactly, {} printed; in order, byte for byte: {}",
            want.len(),
            got.len(),
            printed == expected
        );
        assert_eq!(printed, expected);
    }
}

/// The messages of a recorded activation after the call: the tool's and
/// the user message, when there is one.
fn messages(run: &Value) -> (String, Option<String>) {
    let added = run["messages_added_after_call"].as_array().unwrap();
    let content = |role: &str| {
        added
            .iter()
            .find(|m| m["role"] == role)
            .map(|m| match &m["content"] {
                Value::String(s) => s.clone(),
                parts => parts[0]["text"].as_str().unwrap().to_string(),
            })
    };
    (content("tool").unwrap(), content("user"))
}

/// The placeholders skill of `kimi_placeholders.json` (its text is not in
/// the record: rebuilt from the message it gave).
const PH: &str = "---\nname: ph\ndescription: Placeholders.\narguments: [target, mode]\n---\nkimi_dir=[${KIMI_SKILL_DIR}] target=[$target] mode=[$mode] all=[$ARGUMENTS] a1=[$1]\n";

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn show_gives_the_recorded_messages() {
    let (_tmp, project, home) = layout("make_synthetic2.py", true);
    let skills_dir = project.join(".kimi-code/skills");
    fs::remove_file(skills_dir.join("symlinked")).unwrap();
    write(&skills_dir.join("ph/SKILL.md"), PH);
    // The activation runs had `dmi-true` of the other generator.
    write(
        &skills_dir.join("dmi-true/SKILL.md"),
        "---\nname: dmi-true\ndescription: disable-model-invocation true.\ndisable-model-invocation: true\n---\nBody.\n",
    );
    write(
        &skills_dir.join("ws-body/SKILL.md"),
        "---\nname: ws-body\ndescription: d\n---\n\n\n# Title\n\nText.\n\n\n",
    );
    let mut runs: Vec<(String, Value, Option<String>)> = record("kimi_activation.json")
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v["call"].clone(), None))
        .collect();
    let placeholders = record("kimi_placeholders.json");
    runs.push((
        "placeholders".into(),
        serde_json::json!({"skill": "ph", "args": "src/ fast"}),
        messages(&placeholders).1,
    ));
    let activations = record("kimi_activation.json");
    let bodies = record("limits_bodies_kimi.json");
    let ws = bodies["ws-body"]["returned"][1]["text"].as_str().unwrap();
    runs.push((
        "ws-body".into(),
        serde_json::json!({"skill": "ws-body"}),
        Some(ws.to_string()),
    ));
    let mut reproduced = 0;
    let mut wrong = Vec::new();
    for (case, call, user) in &runs {
        let (tool_msg, user) = match activations.get(case) {
            Some(run) => messages(run),
            None => (String::new(), user.clone()),
        };
        let name = call["skill"].as_str().unwrap();
        let mut args = vec!["show", "--style", "kimi-code", name];
        if let Some(a) = call["args"].as_str() {
            args.extend(["--arguments", a]);
        }
        let out = run(&home, &project, &args);
        let same = match &user {
            Some(want) => {
                let want = want.replace("<PROJECT_DIR>", project.to_str().unwrap());
                out.status.success() && text(&out.stdout) == want
            }
            None => !out.status.success() && text(&out.stderr).contains(&tool_msg),
        };
        if same {
            reproduced += 1;
        } else {
            wrong.push(format!("{case}: {user:?} {tool_msg}\n--- printed\n{out:?}"));
        }
    }
    eprintln!(
        "kimi-code show: {reproduced} of {} recorded messages reproduced byte for byte",
        runs.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn the_profile_lists_what_kimi_code_lists() {
    let (_tmp, project, home) = layout("make_synthetic.py", false);
    let out = run(
        &home,
        &project,
        &[
            "validate",
            "--profile",
            "kimi-code",
            "--format",
            "json",
            ".",
        ],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut listed: Vec<String> = Vec::new();
    for s in report["skills"].as_array().unwrap() {
        let kimi = &s["clients"]["kimi-code"];
        let errors = s["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["severity"] == "error");
        if kimi["outcome"] == "listed" {
            assert!(!errors, "{s}");
            let entry = kimi["entry"].as_str().unwrap();
            let name = entry.strip_prefix("- ").unwrap().split(": ").next();
            listed.push(name.unwrap().to_string());
        }
    }
    // The loose `loose-file.md` is no skill folder: `validate` says that
    // Kimi Code lists it.
    let loose: Vec<&Value> = report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["diagnostics"].as_array().unwrap())
        .filter(|d| d["code"] == "SK409")
        .collect();
    assert_eq!(loose.len(), 1, "{loose:?}");
    assert!(
        loose[0]["path"]
            .as_str()
            .unwrap()
            .ends_with("loose-file.md"),
        "{loose:?}"
    );
    let want: Vec<String> = record("kimi_synthetic1.json")["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["scope"] == "Project")
        .filter(|e| e["path"].as_str().unwrap().ends_with("/SKILL.md"))
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    let same = want.iter().filter(|w| listed.contains(w)).count();
    eprintln!(
        "kimi-code profile: {same} of {} recorded project skill folders listed, {} listed in all",
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
fn the_cut_and_the_type_rule_are_the_recorded_ones() {
    let (_tmp, project, home) = git_project();
    let rec = record("limits_kimi.json");
    for (name, body) in rec["cases"].as_object().unwrap() {
        write(
            &project
                .join(".kimi-code/skills")
                .join(name)
                .join("SKILL.md"),
            body.as_str().unwrap(),
        );
    }
    let printed = catalog(&home, &project).replace(project.to_str().unwrap(), "<PROJECT_DIR>");
    let mut same = 0;
    let want = rec["entries"].as_array().unwrap();
    for e in want {
        let line = format!(
            "\n- {}: {}\n",
            e["name"].as_str().unwrap(),
            e["description"].as_str().unwrap()
        );
        assert!(printed.contains(&line), "{line} in {printed}");
        same += 1;
    }
    for name in rec["not_listed"].as_array().unwrap() {
        assert!(!printed.contains(&format!("\n- {}:", name.as_str().unwrap())));
    }
    eprintln!(
        "kimi-code limits: {same} of {} recorded entries reproduced, {} recorded absences",
        want.len(),
        rec["not_listed"].as_array().unwrap().len()
    );
}

#[skills_tests::acceptance("needs ../shared/clients/copilot-qwen-kimi")]
#[test]
fn precedence_same_names_and_no_budget_are_the_recorded_ones() {
    // The folders, the winner removed each round.
    let rec = record("precedence_kimi.json");
    for round in rec["rounds"].as_array().unwrap() {
        let (_tmp, project, home) = git_project();
        for folder in round["left"].as_array().unwrap() {
            let folder = folder.as_str().unwrap();
            let dir = match folder.strip_prefix("~/") {
                Some(rel) => home.join(rel),
                None => project.join(folder),
            };
            write(
                &dir.join("dup/SKILL.md"),
                &format!("---\nname: dup\ndescription: from {folder}\n---\nBody.\n"),
            );
        }
        let printed = catalog(&home, &project);
        let want = round["winner"].as_str().unwrap();
        assert!(
            printed.contains(&format!("\n- dup: from {want}\n")),
            "{want}: {printed}"
        );
        assert_eq!(printed.matches("\n- dup: ").count(), 1);
    }
    // Same-named folders: the folder whose name sorts first.
    let (_tmp, project, home) = git_project();
    let rec = record("limits_dups_kimi.json");
    for folder in rec["folders"].as_array().unwrap() {
        let folder = folder.as_str().unwrap();
        write(
            &project
                .join(".kimi-code/skills")
                .join(folder)
                .join("SKILL.md"),
            &format!("---\nname: same\ndescription: from {folder}\n---\nBody.\n"),
        );
    }
    let printed = catalog(&home, &project);
    let want = &rec["entries_named_same"][0]["description"];
    assert!(printed.contains(&format!("\n- same: {}\n", want.as_str().unwrap())));
    assert_eq!(printed.matches("\n- same: ").count(), 1);
    // 150 skills of 1,000 characters: all listed, each cut to 250.
    let (_tmp, project, home) = git_project();
    let rec = record("budget_kimi_150x1000.json");
    for i in 0..150 {
        let name = format!("b{i:03}");
        write(
            &project
                .join(".kimi-code/skills")
                .join(&name)
                .join("SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: {}\n---\nBody.\n",
                "d".repeat(1000)
            ),
        );
    }
    let printed = catalog(&home, &project);
    assert_eq!(
        printed.matches("\n- b").count() as u64,
        rec["listed"].as_u64().unwrap()
    );
    assert!(printed.contains(&format!("\n- b149: {}...\n", "d".repeat(247))));
}

#[test]
fn the_repository_root_hidden_deep_and_loose_skills() {
    let (_tmp, project, home) = git_project();
    let skill = |name: &str| format!("---\nname: {name}\ndescription: Skill {name}.\n---\nBody.\n");
    write(
        &project.join(".kimi-code/skills/.hidden/SKILL.md"),
        &skill("hidden"),
    );
    write(
        &project.join(".kimi-code/skills/a/b/c/d/e/f/g/deep/SKILL.md"),
        &skill("deep"),
    );
    write(
        &project.join(".kimi-code/skills/group/.dot/SKILL.md"),
        &skill("dot"),
    );
    write(
        &project.join(".kimi-code/skills/.skip/inner/SKILL.md"),
        &skill("inner"),
    );
    write(
        &project.join(".kimi-code/skills/SKILL.md"),
        &skill("root-level"),
    );
    write(
        &project.join(".kimi-code/skills/notes.md"),
        "# Notes\n\nText.\n",
    );
    write(
        &project.join(".agents/skills/Hidden/SKILL.md"),
        &skill("HIDDEN"),
    );
    write(
        &project.join("sub/.kimi-code/skills/mine/SKILL.md"),
        &skill("mine"),
    );
    let printed = run(
        &home,
        &project,
        &["catalog", "--style", "kimi-code", "--max-depth", "9"],
    );
    let printed = text(&printed.stdout);
    for listed in ["- hidden: ", "- deep: ", "- dot: ", "- notes: # Notes\n"] {
        assert!(printed.contains(listed), "{listed} in {printed}");
    }
    for absent in ["- inner: ", "- root-level: ", "- HIDDEN: ", "- mine: "] {
        assert!(!printed.contains(absent), "{absent} in {printed}");
    }
    // `validate` says what Kimi Code makes of the loose file, and only of
    // it: the `SKILL.md` directly in the folder is not read at all.
    let out = run(
        &home,
        &project,
        &[
            "validate",
            "--profile",
            "kimi-code",
            "--max-depth",
            "9",
            ".",
        ],
    );
    let said = text(&out.stderr) + &text(&out.stdout);
    assert!(
        said.contains(
            "warning[SK409]: Kimi Code lists this loose file to its model as the skill `notes`"
        ),
        "{said}"
    );
    assert_eq!(said.matches("[SK409]").count(), 1, "{said}");
    // From a subdirectory: the root's folders, not the subdirectory's.
    let deep = ["--max-depth", "9"];
    let out = run(
        &home,
        &project.join("sub"),
        &[&["catalog", "--style", "kimi-code"][..], &deep].concat(),
    );
    let printed = text(&out.stdout);
    assert!(
        printed.contains("- hidden: ") && !printed.contains("- mine: "),
        "{printed}"
    );
    // The loose file, and a name in another case.
    let out = run(
        &home,
        &project.join("sub"),
        &[&["show", "--style", "kimi-code", "NOTES"][..], &deep].concat(),
    );
    assert_eq!(
        text(&out.stdout),
        format!(
            "Skill tool loaded instructions for this request. Follow them.\n\n<skill-loaded name=\"notes\" trigger=\"model-tool\" source=\"project\" dir=\"{}\" args=\"\">\n# Notes\n\nText.\n</skill-loaded>",
            project.join(".kimi-code/skills").display()
        )
    );
    let out = run(
        &home,
        &project,
        &[&["show", "--style", "kimi-code", "mine"][..], &deep].concat(),
    );
    assert!(
        text(&out.stderr).contains("Skill \"mine\" not found in the current skill listing."),
        "{out:?}"
    );
}

#[test]
fn arguments_fill_the_placeholders() {
    let (_tmp, project, home) = git_project();
    write(&project.join(".kimi-code/skills/ph/SKILL.md"), PH);
    write(
        &project.join(".kimi-code/skills/plain/SKILL.md"),
        "---\nname: plain\ndescription: d\nwhen_to_use: Always.\n---\nNo placeholders. ${CLAUDE_SKILL_DIR} !`echo hi`\n",
    );
    let dir = project.join(".kimi-code/skills/ph");
    let out = run(
        &home,
        &project,
        &[
            "show",
            "--style",
            "kimi-code",
            "ph",
            "--args",
            "\"a b\" <c>",
        ],
    );
    assert!(text(&out.stdout).contains(&format!(
        "args=\"&quot;a b&quot; &lt;c&gt;\">\nkimi_dir=[{}] target=[a b] mode=[&lt;c&gt;] all=[\"a b\" &lt;c&gt;] a1=[&lt;c&gt;]\n</skill-loaded>",
        dir.display()
    )), "{out:?}");
    let out = run(
        &home,
        &project,
        &["show", "--style", "kimi-code", "plain", "--args", "x y"],
    );
    assert!(
        text(&out.stdout).ends_with(
            ">\nNo placeholders. ${CLAUDE_SKILL_DIR} !`echo hi`\n\nARGUMENTS: x y\n</skill-loaded>"
        ),
        "{out:?}"
    );
    let printed = catalog(&home, &project);
    assert!(
        printed.contains("\n- plain: d\n  When to use: Always.\n  Path: "),
        "{printed}"
    );
    let out = run(
        &home,
        &project,
        &["show", "--style", "kimi-code", "write-goal"],
    );
    assert!(!out.status.success());
}

#[test]
fn add_for_kimi_code_installs_where_it_reads_and_validate_says_what_differs() {
    let tmp = tempdir();
    let src = tmp.path().join("src");
    write(
        &src.join("demo/SKILL.md"),
        "---\nname: demo\ndescription: Demo. Use when testing.\n---\nBody.\n",
    );
    let p = tmp.path().join("p");
    fs::create_dir_all(p.join(".git")).unwrap();
    let out = skills()
        .current_dir(&p)
        .args(["add", "../src", "--client", "kimi-code"])
        .output()
        .unwrap();
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("installed demo -> .kimi-code/skills/demo"),
        "{all}"
    );
    assert!(!all.contains("would not load"), "{all}");
    let printed = catalog(tmp.path(), &p);
    assert!(
        printed.contains("\n### Project\n- demo: Demo. Use when testing.\n"),
        "{printed}"
    );
    // Kimi Code lists a `paths:` skill, which Claude Code holds back.
    write(
        &tmp.path().join("tree/scoped/SKILL.md"),
        "---\nname: scoped\ndescription: Scoped to some files.\npaths: [\"src/**\"]\n---\nBody.\n",
    );
    let out = run(
        tmp.path(),
        tmp.path(),
        &["validate", "--format", "json", "tree"],
    );
    let report = text(&out.stdout);
    assert!(report.contains("SK493"), "{report}");
    assert!(report.contains("Kimi Code"), "{report}");
}

#[test]
fn a_hidden_skill_holds_its_name_in_validate_as_in_the_catalog() {
    let (_tmp, project, home) = git_project();
    write(
        &project.join(".kimi-code/skills/a/SKILL.md"),
        "---\nname: foo\ndescription: hidden one\ndisable-model-invocation: true\n---\nB\n",
    );
    write(
        &project.join(".agents/skills/b/SKILL.md"),
        "---\nname: FOO\ndescription: listed one\n---\nB\n",
    );
    assert!(!catalog(&home, &project).contains("one\n"));
    let out = run(
        &home,
        &project,
        &["validate", "--profile", "kimi-code", "--format", "json"],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    for s in report["skills"].as_array().unwrap() {
        assert_eq!(s["clients"]["kimi-code"]["outcome"], "not-listed", "{s}");
    }
}

//! Codex CLI 0.169.0 as recorded (`../shared/clients`): the record's 55
//! catalog cases, written by the record's own `make_cases.py` into a
//! repository's `.agents/skills`, with the extra skills of its listing runs
//! (a symbolic link to a skill folder, copies in `$CODEX_HOME/skills` and
//! `~/.agents/skills`).
//!
//! * `skb validate --profile codex` errs on exactly the cases Codex
//!   rejects, quoting Codex's reason, and on none it lists; its JSON report
//!   says per skill what Codex does (`clients.codex`: listed with the entry
//!   line, or rejected with the reason);
//! * `skb catalog --style codex` prints exactly the recorded entry line of
//!   every case Codex lists (the record's `<ROOT>` is the root's alias in the
//!   printed roots table), and Codex's reason on stderr for each it rejects;
//! * over several roots, the entries come in the recorded order, each root
//!   under the alias the roots table gives it.
//!
//! The roots are given on the command line (`$CODEX_HOME` and `$HOME` say
//! which is which), and found by discovery from the repository with
//! `--user`.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::skills;
use serde_json::Value;
use skills_tests::{run_ok, shared, tempdir, tool, write_tree};

/// The record's layout in a temporary directory.
struct Layout {
    _tmp: tempfile::TempDir,
    /// `<REPO>/.agents/skills`: every case, and `symlinked`.
    repo: PathBuf,
    /// `$CODEX_HOME`.
    codex_home: PathBuf,
    /// `$HOME`.
    home: PathBuf,
}

fn skill(name: &str, description: &str) -> Vec<u8> {
    format!("---\nname: {name}\ndescription: {description}\n---\nHome body.\n").into_bytes()
}

fn layout() -> Layout {
    let tmp = tempdir();
    let repo = tmp.path().join("repo/.agents/skills");
    std::fs::create_dir_all(&repo).unwrap();
    run_ok(
        tool("python3", "python3")
            .arg(shared().join("clients/make_cases.py"))
            .arg(&repo),
    );
    let outside = tmp.path().join("outside/symlinked-target");
    write_tree(
        &outside,
        &[(
            "SKILL.md",
            &skill("symlinked", "Reached through a symlinked dir."),
        )],
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, repo.join("symlinked")).unwrap();
    let codex_home = tmp.path().join("codex-home");
    write_tree(
        &codex_home.join("skills"),
        &[
            (
                "ok-basic/SKILL.md",
                &skill("ok-basic", "CODEX_HOME copy of ok-basic."),
            ),
            (
                "home-only/SKILL.md",
                &skill("home-only", "Only in CODEX_HOME."),
            ),
            (
                "dirname-x/SKILL.md",
                &skill("mismatch-dir-other", "dir dirname-x."),
            ),
        ],
    );
    let home = tmp.path().join("home");
    write_tree(
        &home.join(".agents/skills"),
        &[(
            "ok-basic/SKILL.md",
            &skill("ok-basic", "HOME .agents copy of ok-basic."),
        )],
    );
    Layout {
        _tmp: tmp,
        repo,
        codex_home,
        home,
    }
}

fn record(file: &str) -> Value {
    let path = shared().join("clients").join(file);
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}

/// `(dir, codex outcome)` of every recorded case.
fn cases() -> Vec<(String, Value)> {
    let cases = record("catalog-cases.json");
    let cases = cases["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 55, "the record has 55 cases");
    cases
        .iter()
        .map(|c| (c["dir"].as_str().unwrap().to_string(), c["codex"].clone()))
        .collect()
}

/// `skb catalog --style codex <roots>` with `$CODEX_HOME` and `$HOME` of
/// the layout.
fn catalog(l: &Layout, roots: &[&Path], extra: &[&str]) -> Output {
    skills()
        .env("CODEX_HOME", &l.codex_home)
        .env("HOME", &l.home)
        .args(["catalog", "--style", "codex"])
        .args(extra)
        .args(roots)
        .output()
        .unwrap()
}

/// The roots table of a printed block: path to alias.
fn aliases(block: &str) -> BTreeMap<String, String> {
    block
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("- `")?;
            let (alias, rest) = rest.split_once("` = `")?;
            Some((rest.strip_suffix('`')?.to_string(), alias.to_string()))
        })
        .collect()
}

/// The entry lines of a printed block.
fn entries(block: &str) -> Vec<&str> {
    block
        .lines()
        .skip_while(|l| *l != "### Available skills")
        .skip(1)
        .take_while(|l| l.starts_with("- "))
        .collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn the_codex_profile_errs_exactly_where_codex_rejects() {
    let l = layout();
    let out = skills()
        .current_dir(&l.repo)
        .args(["validate", "--profile", "codex", "--format", "json", "."])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let skills = report["skills"].as_array().unwrap();
    let by_dir: BTreeMap<&str, &Value> = skills
        .iter()
        .map(|s| (s["dir"].as_str().unwrap(), s))
        .collect();
    let errors = |dir: &str| -> Option<Vec<(String, String)>> {
        let s = by_dir.get(format!("./{dir}").as_str())?;
        Some(
            s["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["severity"] == "error")
                .map(|d| {
                    (
                        d["code"].as_str().unwrap().to_string(),
                        d["message"].as_str().unwrap().to_string(),
                    )
                })
                .collect(),
        )
    };
    // The report's `clients.codex` says the same, with the entry line.
    let client = |dir: &str| -> Option<(String, Option<String>, Option<String>)> {
        let c = &by_dir.get(format!("./{dir}").as_str())?["clients"]["codex"];
        Some((
            c["outcome"].as_str()?.to_string(),
            c["entry"].as_str().map(str::to_string),
            c["why"].as_str().map(str::to_string),
        ))
    };
    let mut wrong = Vec::new();
    for (dir, codex) in cases() {
        let view = client(&dir);
        let expected = if let Some(line) = codex["listed"].as_str() {
            Some((
                "listed".to_string(),
                Some(line.replace("<ROOT>", ".")),
                None,
            ))
        } else if let Some(reason) = codex["rejected"].as_str() {
            Some(("rejected".to_string(), None, Some(reason.to_string())))
        } else {
            view.clone().filter(|(o, ..)| o == "not-listed")
        };
        if view != expected {
            wrong.push(format!("{dir}: clients.codex {view:?}, want {expected:?}"));
        }
        let got = errors(&dir);
        let ok = if codex.get("listed").is_some() {
            got == Some(Vec::new())
        } else if let Some(reason) = codex["rejected"].as_str() {
            got == Some(vec![(
                "SK401".to_string(),
                format!("Codex does not load this skill: {reason}"),
            )])
        } else {
            // Not a skill to Codex: not found, or an error (`skill.md`).
            got.as_ref().is_none_or(|e| !e.is_empty())
        };
        if !ok {
            wrong.push(format!("{dir}: {codex} but {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn the_codex_catalog_prints_every_recorded_entry_line() {
    let l = layout();
    let out = catalog(&l, &[&l.repo], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    let roots = aliases(&stdout);
    let root = l.repo.to_string_lossy().into_owned();
    assert_eq!(roots.len(), 1, "{stdout}");
    let alias = &roots[&root];
    let lines: Vec<String> = entries(&stdout)
        .iter()
        .map(|e| e.replace(&format!("(file: {alias}/"), "(file: <ROOT>/"))
        .collect();
    let mut wrong = Vec::new();
    let mut listed = 0;
    for (dir, codex) in cases() {
        let file = format!("(file: <ROOT>/{dir}/SKILL.md)");
        let shown: Vec<&String> = lines.iter().filter(|l| l.ends_with(&file)).collect();
        if let Some(line) = codex["listed"].as_str() {
            listed += 1;
            if shown != [line] {
                wrong.push(format!("{dir}: want {line:?}, got {shown:?}"));
            }
        } else if !shown.is_empty() {
            wrong.push(format!("{dir}: not listed by Codex, got {shown:?}"));
        }
        if let Some(reason) = codex["rejected"].as_str() {
            let line = format!("warning: failed to load skill {root}/{dir}/SKILL.md: {reason}\n");
            if !stderr.contains(&line) {
                wrong.push(format!("{dir}: no {line:?} in stderr"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}\n{stdout}\n{stderr}");
    let symlinked = usize::from(cfg!(unix));
    assert_eq!(lines.len(), listed + symlinked, "{stdout}");
}

/// listings.json's Codex entries in order, the recorded roots `<r0>`
/// (`$CODEX_HOME/skills`), `<r1>` (`~/.agents/skills`) and `<r3>` (the
/// repository's) replaced by the aliases printed for them; the symlinked
/// skill only where links exist.
fn recorded_entries(listing: &Value, [codex, agents, repo]: [String; 3]) -> Vec<String> {
    listing["codex"]["entries_in_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            e.as_str()
                .unwrap()
                .replace("<r0>", &codex)
                .replace("<r1>", &agents)
                .replace("<r3>", &repo)
        })
        .filter(|e| cfg!(unix) || !e.contains("/symlinked/"))
        .collect()
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn over_several_roots_codex_orders_and_numbers_as_recorded() {
    let l = layout();
    let codex_root = l.codex_home.join("skills");
    let agents_root = l.home.join(".agents/skills");
    // Given in another order than Codex's: the order printed is Codex's.
    let out = catalog(&l, &[&agents_root, &l.repo, &codex_root], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let roots = aliases(&stdout);
    let alias = |p: &Path| roots[&p.to_string_lossy().into_owned()].clone();
    assert_eq!(
        [alias(&codex_root), alias(&agents_root), alias(&l.repo)],
        ["r0", "r1", "r2"],
        "{stdout}"
    );
    let listing = record("listings.json");
    let expected = recorded_entries(
        &listing,
        [alias(&codex_root), alias(&agents_root), alias(&l.repo)],
    );
    assert_eq!(entries(&stdout), expected, "{stdout}");
    // Found as Codex finds them: the repository's `.agents/skills` from the
    // working directory, `$CODEX_HOME/skills` and `~/.agents/skills` with
    // `--user`.
    let repo = l.repo.parent().and_then(Path::parent).unwrap();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let found = skills()
        .current_dir(repo)
        .env("CODEX_HOME", &l.codex_home)
        .env("HOME", &l.home)
        .args(["catalog", "--style", "codex", "--user"])
        .output()
        .unwrap();
    assert!(found.status.success(), "{}", text(&found.stderr));
    let found = text(&found.stdout);
    let roots = aliases(&found);
    let relative = |p: &Path| {
        p.strip_prefix(repo)
            .unwrap_or(p)
            .to_string_lossy()
            .into_owned()
    };
    let alias_of = |p: &Path| {
        roots
            .get(&p.to_string_lossy().into_owned())
            .or_else(|| roots.get(&relative(p)))
            .cloned()
            .unwrap_or_else(|| panic!("no alias for {} in\n{found}", p.display()))
    };
    let expected = recorded_entries(
        &listing,
        [
            alias_of(&codex_root),
            alias_of(&agents_root),
            alias_of(&l.repo),
        ],
    );
    assert_eq!(entries(&found), expected, "{found}");
}

#[skills_tests::acceptance("needs ../shared/clients")]
#[test]
fn over_the_budget_descriptions_shrink_then_skills_drop_with_codexs_notice() {
    let l = layout();
    let full = catalog(&l, &[&l.repo], &[]);
    let full_lines: Vec<String> = entries(&text(&full.stdout))
        .iter()
        .map(|s| s.to_string())
        .collect();
    let size: usize = full_lines.iter().map(|e| e.chars().count() + 1).sum();
    // Just under the full size: descriptions share one shorter maximum.
    let out = catalog(&l, &[&l.repo], &["--budget", &(size - 100).to_string()]);
    let stdout = text(&out.stdout);
    let lines = entries(&stdout);
    assert_eq!(lines.len(), full_lines.len());
    let used: usize = lines.iter().map(|e| e.chars().count() + 1).sum();
    assert!(used <= size - 100, "{used}");
    assert!(
        !text(&out.stderr).contains("Exceeded"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("- long-desc-2000: Lorem") && !l.contains("...")),
        "{stdout}"
    );
    // Far under: bare entries while they fit, and Codex's notice.
    let out = catalog(&l, &[&l.repo], &["--budget", "500"]);
    let stdout = text(&out.stdout);
    let lines = entries(&stdout);
    assert!(
        !lines.is_empty() && lines.len() < full_lines.len(),
        "{stdout}"
    );
    assert!(lines.iter().all(|l| l.contains(": (file: ")), "{stdout}");
    let dropped = full_lines.len() - lines.len();
    assert!(
        text(&out.stderr).contains(&format!(
            "warning: Exceeded skills context budget. All skill descriptions were removed and {dropped} additional skills were not included in the model-visible skills list.\n"
        )),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn openai_yaml_is_checked_and_its_policy_honoured() {
    let tmp = tempdir();
    let root = tmp.path().join("skills");
    write_tree(
        &root,
        &[
            ("quiet/SKILL.md", &skill("quiet", "Explicit only. Use when asked.")),
            (
                "quiet/agents/openai.yaml",
                b"interface:\n  brand_color: blue\n  display_name: Quiet\npolicy:\n  allow_implicit_invocation: false\n",
            ),
            ("loud/SKILL.md", &skill("loud", "Listed. Use when asked.")),
            (
                "loud/agents/openai.yaml",
                b"policy:\n  allow_implicit_invocation: maybe\n",
            ),
        ],
    );
    let out = skills()
        .args(["catalog", "--style", "codex"])
        .arg(&root)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(
        entries(&stdout),
        ["- loud: Listed. Use when asked. (file: r0/loud/SKILL.md)"],
        "{stdout}"
    );
    let out = skills()
        .current_dir(&root)
        .args(["validate", "--profile", "codex", "quiet", "loud"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stdout));
    let report = text(&out.stdout);
    for expected in [
        "warning[SK452]: `interface.brand_color` is `blue`, not `#RRGGBB`; Codex ignores it\n --> quiet/agents/openai.yaml:2:16",
        "warning[SK452]: Codex ignores the whole file: invalid YAML: policy.allow_implicit_invocation: invalid type: string \"maybe\", expected a boolean at line 2 column 30\n --> loud/agents/openai.yaml:2:30",
        "warning[SK402]: Codex does not list this skill to the model: `agents/openai.yaml` sets `policy.allow_implicit_invocation: false`, so Codex leaves it out of the model's list (`$quiet` still invokes it)",
    ] {
        assert!(report.contains(expected), "{expected}\n{report}");
    }
}

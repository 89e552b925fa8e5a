//! Where the commands look when given no path, or a project folder: the
//! clients' skills folders (`.claude/skills`; `.agents/skills`,
//! `.codex/skills`) from the working directory up to the repository's root,
//! the user's only with `--user`; each client's scan; duplicates resolved as
//! each client does and reported with both paths; links; limits as errors.
//!
//! A repository is a directory holding `.git` (an empty directory is
//! enough: discovery only looks for it), so no `git` is needed.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::Output;

use crate::skills;
use serde_json::Value;
use skills_tests::{tempdir, write_tree};

fn skill_md(name: &str, description: &str) -> Vec<u8> {
    format!("---\nname: {name}\ndescription: {description} Use when testing.\n---\nBody.\n")
        .into_bytes()
}

/// `skills <args>` in `cwd`, with `home` as the home directory and no
/// `CODEX_HOME`.
fn run(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(cwd)
        .args(args)
        .env("HOME", home)
        .env_remove("CODEX_HOME")
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The checked skills' directories (not the roots' own entries, which hold
/// discovery's diagnostics and no name) and every diagnostic, from `--format json`.
fn checked(out: &Output) -> (Vec<String>, Vec<(String, String)>) {
    let doc: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(out)));
    let skills = doc["skills"].as_array().unwrap();
    let dirs = skills
        .iter()
        .filter(|s| !s["name"].is_null())
        .map(|s| s["dir"].as_str().unwrap().to_owned())
        .collect();
    let diags = skills
        .iter()
        .flat_map(|s| s["diagnostics"].as_array().unwrap())
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (dirs, diags)
}

/// A repository with skills under `.claude/skills/`, as the user has it.
fn claude_repository(root: &Path) {
    std::fs::create_dir_all(root.join(".git")).unwrap();
    write_tree(
        root,
        &[
            (
                ".claude/skills/alpha/SKILL.md",
                &skill_md("alpha", "Alpha."),
            ),
            (".claude/skills/beta/SKILL.md", &skill_md("beta", "Beta.")),
            ("src/main.rs", b"fn main() {}\n"),
        ],
    );
}

#[test]
fn validate_with_no_path_checks_the_claude_skills_of_the_repository() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    claude_repository(&repo);
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let out = run(&repo, &home, &["validate", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let (dirs, diags) = checked(&out);
    assert_eq!(dirs, [".claude/skills/alpha", ".claude/skills/beta"]);
    assert!(diags.is_empty(), "{diags:?}");
    // `.` named explicitly (as the GitHub Action does) is the same.
    let out = run(&repo, &home, &["validate", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("checked 2 skills"), "{}", text(&out));
}

/// In the report, a skill found in one client's folder is not listed by the
/// other client, which never reads that folder; a skill named directly is
/// read by both, as if installed in each one's folder.
#[test]
fn each_client_reports_only_the_skills_in_its_own_folders() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    claude_repository(&repo);
    write_tree(
        &repo,
        &[(
            ".agents/skills/gamma/SKILL.md",
            &skill_md("gamma", "Gamma."),
        )],
    );
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let outcomes = |out: &Output| -> Vec<(String, String, String, String)> {
        let doc: Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(out)));
        doc["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let c = &s["clients"];
                (
                    s["dir"].as_str().unwrap().to_owned(),
                    c["claude-code"]["outcome"].as_str().unwrap().to_owned(),
                    c["codex"]["outcome"].as_str().unwrap().to_owned(),
                    c["codex"]["why"].as_str().unwrap_or("").to_owned()
                        + c["claude-code"]["why"].as_str().unwrap_or(""),
                )
            })
            .collect()
    };
    let out = run(&repo, &home, &["validate", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let got = outcomes(&out);
    let summary: Vec<_> = got
        .iter()
        .map(|(d, cc, cx, _)| (d.as_str(), cc.as_str(), cx.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            (".claude/skills/alpha", "listed", "not-listed"),
            (".claude/skills/beta", "listed", "not-listed"),
            (".agents/skills/gamma", "not-listed", "listed"),
        ]
    );
    assert!(
        got[0].3.contains(
            "`.claude/skills`, a folder only Claude Code, OpenCode and GitHub Copilot CLI read"
        ),
        "{got:?}"
    );
    assert!(
        got[2].3.contains(
            "`.agents/skills`, a folder only Codex, Gemini CLI, OpenCode, GitHub Copilot CLI, Qwen Code and Kimi Code read"
        ),
        "{got:?}"
    );
    // The human report says where the clients differ.
    let out = run(&repo, &home, &["validate"]);
    assert!(
        text(&out).contains("Codex, Gemini CLI, Qwen Code and Kimi Code do not read it: the skill is in `.claude/skills`, a folder only Claude Code, OpenCode and GitHub Copilot CLI read"),
        "{}",
        text(&out)
    );
    // `show --style` shows a client only the skills in its own folders.
    let out = run(&repo, &home, &["show", "gamma", "--style", "claude-code"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(
            "Claude Code knows no skill `gamma`: the skill is in `.agents/skills`, a folder only Codex, Gemini CLI, OpenCode, GitHub Copilot CLI, Qwen Code and Kimi Code read"
        ),
        "{}",
        text(&out)
    );
    let out = run(&repo, &home, &["show", "alpha", "--style", "codex"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out)
            .contains("Codex knows no skill named `alpha`: the skill is in `.claude/skills`, a folder only Claude Code, OpenCode and GitHub Copilot CLI read"),
        "{}",
        text(&out)
    );
    let out = run(&repo, &home, &["show", "gamma", "--style", "codex"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("<skill>"), "{}", text(&out));
    let out = run(&repo, &home, &["show", "alpha", "--style", "claude-code"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Named directly, a skill is read by both.
    let out = run(
        &repo,
        &home,
        &["validate", ".claude/skills/alpha", "--format", "json"],
    );
    let got = outcomes(&out);
    assert_eq!(
        (got[0].1.as_str(), got[0].2.as_str()),
        ("listed", "listed"),
        "{got:?}"
    );
}

#[test]
fn a_subdirectory_reads_the_skills_folders_up_to_the_repository_root() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    claude_repository(&repo);
    write_tree(
        &repo,
        &[
            (
                "src/.agents/skills/near/SKILL.md",
                &skill_md("near", "Near."),
            ),
            // Above the repository's root: not read.
            (
                "../.claude/skills/outside/SKILL.md",
                &skill_md("outside", "Outside."),
            ),
        ],
    );
    let out = run(
        &repo.join("src"),
        tmp.path(),
        &["validate", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let (dirs, _) = checked(&out);
    let canon = repo.canonicalize().unwrap();
    assert_eq!(
        dirs,
        [
            canon.join(".claude/skills/alpha").display().to_string(),
            canon.join(".claude/skills/beta").display().to_string(),
            ".agents/skills/near".to_owned(),
        ]
    );
}

#[test]
fn a_directory_without_skill_md_is_reported_even_in_a_repository_with_skills() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    claude_repository(&repo);
    write_tree(
        &repo,
        &[("docs/guide.md", b"# guide\n"), ("broken/notes.md", b"x\n")],
    );
    // Named, `broken/` is a skill missing its `SKILL.md`: not a project.
    let out = run(&repo, tmp.path(), &["validate", "broken"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let shown = text(&out);
    assert!(
        shown.contains("error[SK003]: no `SKILL.md` in `broken`"),
        "{shown}"
    );
    // As the working directory, `docs/` is where a client may be started:
    // the repository's skills folders are read.
    let out = run(&repo.join("docs"), tmp.path(), &["validate"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("checked 2 skills"), "{}", text(&out));
}

#[test]
fn a_repository_without_skills_is_a_clear_error() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write_tree(&repo, &[("README.md", b"# nothing here\n")]);
    let out = run(&repo, tmp.path(), &["validate"]);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out);
    assert!(shown.contains("no skills found"), "{shown}");
    assert!(shown.contains(".claude/skills"), "{shown}");
    assert!(shown.contains("--user"), "{shown}");
}

#[test]
fn the_users_folders_are_read_only_with_user_and_the_user_copy_wins_in_claude_code() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    let home = tmp.path().join("home");
    claude_repository(&repo);
    write_tree(
        &home,
        &[
            (
                ".claude/skills/alpha/SKILL.md",
                &skill_md("alpha", "Home alpha."),
            ),
            (
                ".agents/skills/gamma/SKILL.md",
                &skill_md("gamma", "Gamma."),
            ),
            (".codex/skills/delta/SKILL.md", &skill_md("delta", "Delta.")),
        ],
    );
    let out = run(&repo, &home, &["validate", "--format", "json"]);
    let (dirs, _) = checked(&out);
    assert_eq!(dirs.len(), 2, "the home directory was read: {dirs:?}");

    let out = run(&repo, &home, &["validate", "--user", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let (dirs, diags) = checked(&out);
    let user = |rel: &str| home.join(rel).display().to_string();
    assert_eq!(
        dirs,
        // The user's folders read first by a client (Claude Code's; Gemini
        // CLI's and OpenCode's `~/.agents/skills`) come before the
        // project's, Codex's own after.
        [
            user(".claude/skills/alpha"),
            user(".agents/skills/gamma"),
            ".claude/skills/alpha".to_owned(),
            ".claude/skills/beta".to_owned(),
            user(".codex/skills/delta"),
        ]
    );
    // The project's `alpha` is reported, naming the user's copy; Copilot
    // CLI, which does not read `~/.claude/skills`, lists it.
    assert_eq!(diags.len(), 2, "{diags:?}");
    assert_eq!(diags[1].0, "SK491");
    assert!(
        diags[1]
            .1
            .starts_with("GitHub Copilot CLI lists this skill"),
        "{}",
        diags[1].1
    );
    assert_eq!(diags[0].0, "SK006");
    assert!(diags[0].1.contains("Claude Code lists"), "{}", diags[0].1);
    assert!(
        diags[0].1.contains(&user(".claude/skills/alpha")),
        "{}",
        diags[0].1
    );

    // CODEX_HOME moves Codex's user folder.
    let codex_home = tmp.path().join("codex-home");
    write_tree(
        &codex_home,
        &[("skills/epsilon/SKILL.md", &skill_md("epsilon", "E."))],
    );
    let out = skills()
        .current_dir(&repo)
        .args(["validate", "--user", "--format", "json"])
        .env("HOME", &home)
        .env("CODEX_HOME", &codex_home)
        .output()
        .unwrap();
    let (dirs, _) = checked(&out);
    assert!(
        dirs.contains(&codex_home.join("skills/epsilon").display().to_string()),
        "{dirs:?}"
    );
    assert!(!dirs.contains(&user(".codex/skills/delta")), "{dirs:?}");
}

#[test]
fn each_client_scans_its_folder_its_own_way() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write_tree(
        &repo,
        &[
            // Claude Code: direct children only, hidden ones included;
            // OpenCode, which reads `.claude/skills` too: at any depth.
            (
                ".claude/skills/.hidden-skill/SKILL.md",
                &skill_md("hidden-skill", "H."),
            ),
            (
                ".claude/skills/nested/inner/SKILL.md",
                &skill_md("inner", "I."),
            ),
            (".claude/skills/no-skill-md/README.md", b"not a skill\n"),
            // Codex: six levels down, hidden directories skipped; Qwen
            // Code, which reads `.agents/skills` too: direct children,
            // hidden ones included.
            (".agents/skills/.hidden/SKILL.md", &skill_md("hidden", "H.")),
            (
                ".agents/skills/a/b/c/d/e/deep/SKILL.md",
                &skill_md("deep", "D."),
            ),
            (".agents/skills/group/one/SKILL.md", &skill_md("one", "O.")),
            (".codex/skills/two/SKILL.md", &skill_md("two", "T.")),
        ],
    );
    // `.hidden-skill` is not a valid name: the Claude Code profile warns.
    let out = run(
        &repo,
        tmp.path(),
        &["validate", "--format", "json", "--profile", "claude-code"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let (dirs, diags) = checked(&out);
    assert_eq!(
        dirs,
        [
            ".claude/skills/.hidden-skill",
            ".claude/skills/nested/inner",
            ".agents/skills/.hidden",
            ".agents/skills/a/b/c/d/e/deep",
            ".agents/skills/group/one",
            ".codex/skills/two",
        ]
    );
    assert!(diags.iter().all(|(c, _)| c != "SK007"), "{diags:?}");
}

/// Gemini CLI reads only the start directory's folders, and a `SKILL.md`
/// directly in a skills folder; OpenCode reads every depth, and, outside a
/// git repository, the parents' folders too (only with its profile).
#[test]
fn gemini_cli_and_opencode_read_their_folders_as_recorded() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write_tree(
        &repo,
        &[
            (".gemini/skills/top/SKILL.md", &skill_md("top", "T.")),
            (".agents/skills/SKILL.md", &skill_md("root-level", "R.")),
            (
                ".opencode/skills/group/deeper/oc/SKILL.md",
                &skill_md("oc", "O."),
            ),
            ("sub/.gemini/skills/here/SKILL.md", &skill_md("here", "H.")),
        ],
    );
    let out = run(
        &repo.join("sub"),
        tmp.path(),
        &["validate", "--format", "json"],
    );
    let doc: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    let why = |dir: &str, client: &str| -> String {
        let skill = doc["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["dir"].as_str().is_some_and(|d| d.ends_with(dir)))
            .unwrap_or_else(|| panic!("{dir} not found: {}", text(&out)));
        skill["clients"][client]["why"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    let (dirs, _) = checked(&out);
    // The repository root's `.gemini/skills` is read by no client from
    // `sub`: it is not found at all.
    assert!(
        dirs.iter().all(|d| !d.ends_with(".gemini/skills/top")),
        "{dirs:?}"
    );
    assert!(
        dirs.iter()
            .any(|d| d.ends_with("sub/.gemini/skills/here") || d == ".gemini/skills/here"),
        "{dirs:?}"
    );
    assert!(
        why(".agents/skills", "gemini-cli").contains("1 level above the project folder: Gemini CLI reads only the skills folders of the directory it is started in"),
        "{}",
        why(".agents/skills", "gemini-cli")
    );
    assert!(
        why(".agents/skills", "codex")
            .contains("(a `SKILL.md` directly in it), which Codex does not load"),
        "{}",
        why(".agents/skills", "codex")
    );
    assert!(
        why("group/deeper/oc", "claude-code").contains("a folder only OpenCode reads"),
        "{}",
        why("group/deeper/oc", "claude-code")
    );
    assert!(why("group/deeper/oc", "opencode").is_empty());

    // Outside a repository, OpenCode's profile also reads the parents'
    // folders; the others read the project folder alone.
    std::fs::remove_dir_all(repo.join(".git")).unwrap();
    let out = run(
        &repo.join("sub"),
        tmp.path(),
        &["validate", "--format", "json"],
    );
    let (dirs, _) = checked(&out);
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let out = run(
        &repo.join("sub"),
        tmp.path(),
        &["validate", "--format", "json", "--profile", "opencode"],
    );
    let (dirs, _) = checked(&out);
    assert!(
        dirs.iter().any(|d| d.ends_with("group/deeper/oc")),
        "{dirs:?}"
    );
    assert!(
        dirs.iter().all(|d| !d.ends_with(".gemini/skills/top")),
        "{dirs:?}"
    );
}

#[test]
fn codex_duplicate_names_are_reported_with_both_paths() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write_tree(
        &repo,
        &[
            (".agents/skills/a/SKILL.md", &skill_md("same", "A.")),
            (".codex/skills/b/SKILL.md", &skill_md("same", "B.")),
        ],
    );
    let out = run(
        &repo,
        tmp.path(),
        &["validate", "--format", "json", "--profile", "claude-code"],
    );
    let (dirs, diags) = checked(&out);
    assert_eq!(dirs, [".agents/skills/a", ".codex/skills/b"]);
    let diags: Vec<_> = diags.into_iter().filter(|(c, _)| c == "SK006").collect();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].0, "SK006");
    assert!(
        diags[0]
            .1
            .contains("Codex lists this skill and `.agents/skills/a`"),
        "{}",
        diags[0].1
    );
    assert!(
        diags[0].1.contains("`$same` then injects neither"),
        "{}",
        diags[0].1
    );
}

#[cfg(unix)]
#[test]
fn symlinked_skill_directories_are_followed_but_not_links_leaving_a_skill() {
    use std::os::unix::fs::symlink;
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write_tree(
        tmp.path(),
        &[
            ("elsewhere/linked/SKILL.md", &skill_md("linked", "Linked.")),
            ("secret.txt", b"not yours\n"),
            ("repo/.agents/skills/loop/x/README.md", b"x\n"),
        ],
    );
    std::fs::create_dir_all(repo.join(".claude/skills")).unwrap();
    symlink(
        tmp.path().join("elsewhere/linked"),
        repo.join(".claude/skills/linked"),
    )
    .unwrap();
    // Inside the linked skill, a link out of it stays refused.
    symlink(
        tmp.path().join("secret.txt"),
        tmp.path().join("elsewhere/linked/secret.txt"),
    )
    .unwrap();
    // A cycle in a Codex folder.
    symlink(
        repo.join(".agents/skills/loop"),
        repo.join(".agents/skills/loop/x/back"),
    )
    .unwrap();
    let out = run(&repo, tmp.path(), &["validate", "--format", "json"]);
    let shown = text(&out);
    let (dirs, diags) = checked(&out);
    assert_eq!(dirs, [".claude/skills/linked"], "{shown}");
    assert!(
        diags
            .iter()
            .any(|(c, m)| c == "SK008" && m.contains("secret.txt")),
        "{diags:?}"
    );
    // The cycle is a root-level warning.
    assert!(shown.contains("SK009"), "{shown}");
    assert!(shown.contains("leads back to"), "{shown}");
}

#[test]
fn reaching_the_directory_limit_is_an_error_naming_its_flag() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let files: Vec<(String, Vec<u8>)> = (0..30)
        .map(|i| {
            let name = format!("s{i:02}");
            (
                format!(".agents/skills/group{}/{name}/SKILL.md", i % 3),
                skill_md(&name, "S."),
            )
        })
        .collect();
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    write_tree(&repo, &files);
    let out = run(&repo, tmp.path(), &["validate", "--max-dirs", "3"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let shown = text(&out);
    assert!(shown.contains("error[SK007]"), "{shown}");
    assert!(shown.contains("--max-dirs"), "{shown}");
    let out = run(&repo, tmp.path(), &["validate", "--max-dirs", "4"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("checked 30 skills"), "{}", text(&out));

    // The plain walk of a directory too: a 10-skill tree read to 5 directories.
    let flat = tmp.path().join("flat");
    let files: Vec<(String, Vec<u8>)> = (0..10)
        .map(|i| (format!("s{i}/SKILL.md"), skill_md(&format!("s{i}"), "S.")))
        .collect();
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    write_tree(&flat, &files);
    let out = run(
        tmp.path(),
        tmp.path(),
        &["validate", "flat", "--max-dirs", "5"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("--max-dirs"), "{}", text(&out));
}

#[test]
fn every_command_reads_the_project_folder() {
    let tmp = tempdir();
    let repo = tmp.path().join("repo");
    claude_repository(&repo);
    let out = run(&repo, tmp.path(), &["catalog"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let shown = text(&out);
    assert!(
        shown.contains("\nalpha\n") && shown.contains("\nbeta\n"),
        "{shown}"
    );
    let out = run(&repo, tmp.path(), &["show", "beta"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("Body."), "{}", text(&out));
    let pack = tmp.path().join("out.skillpack");
    let out = run(&repo, tmp.path(), &["pack", "-o", pack.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = run(&repo, tmp.path(), &["inspect", pack.to_str().unwrap()]);
    let shown = text(&out);
    assert!(shown.contains("alpha") && shown.contains("beta"), "{shown}");
}

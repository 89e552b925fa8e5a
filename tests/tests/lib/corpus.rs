//! The shared corpus of 454 real skills.
//!
//! * Profile `spec` gives each skill directory the reference's verdict and
//!   exactly the reference's messages (`../shared/corpus/expected-skills-ref.jsonl`).
//! * Profile `claude-code` accepts every skill: all of them have a frontmatter
//!   PyYAML parses, with a `name` and a `description`.
//! * Discovery from the collections' roots (plugins, marketplaces, nested
//!   groups) finds every one of the 454 skill directories, each once, and
//!   lists each skill's files in order.
//! * Claude Code's and Codex's readings agree with themselves on real
//!   files: Claude Code's from the check's parse equals its reading from the
//!   bytes, and ours of `agents/openai.yaml` equals Codex's (libyaml).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use skills_compiler::client::{self, Client, claude_code, codex};
use skills_compiler::discover::discover;
use skills_compiler::files::skill_files;
use skills_compiler::{
    self as compiler, Diagnostic, DiscoveryOptions, FileLimits, FoundSkill, Options, Profile,
};
use skills_tests::shared;
use skills_tests::tier::shared_path;

struct Expected {
    dir: String,
    valid: bool,
    errors: Vec<String>,
}

fn expected() -> Vec<Expected> {
    let path = shared().join("corpus/expected-skills-ref.jsonl");
    let text = std::fs::read_to_string(&path).expect("expected-skills-ref.jsonl");
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("jsonl row");
            Expected {
                dir: v["dir"].as_str().expect("dir").to_string(),
                valid: v["skills_ref_valid"].as_bool().expect("verdict"),
                errors: v["skills_ref_errors"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|e| e.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        })
        .collect()
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn spec_profile_agrees_with_the_reference_on_every_skill() {
    let rows = expected();
    assert_eq!(rows.len(), 454);
    let options = Options::default();
    let mut mismatches = Vec::new();
    for row in &rows {
        let skill = compiler::check_dir(&shared().join("corpus").join(&row.dir), &options);
        let messages = skill.reference_messages();
        if skill.is_valid() != row.valid || messages != row.errors {
            mismatches.push(format!(
                "{}: got {messages:?}, reference {:?}",
                row.dir, row.errors
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn claude_code_profile_accepts_every_skill() {
    let options = Options {
        profile: Profile::ClaudeCode,
        ..Options::default()
    };
    let rejected: Vec<String> = expected()
        .iter()
        .map(|row| compiler::check_dir(&shared().join("corpus").join(&row.dir), &options))
        .filter(|s| !s.is_valid())
        .map(|s| {
            format!(
                "{}: {:?}",
                s.dir.display(),
                s.diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
            )
        })
        .collect();
    assert!(rejected.is_empty(), "{}", rejected.join("\n"));
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn discovery_finds_every_corpus_skill() {
    let collections = shared().join("corpus/collections");
    let roots: Vec<PathBuf> = std::fs::read_dir(&collections)
        .expect("collections")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    let checked = compiler::check(&roots, &Options::default());
    let found: BTreeSet<PathBuf> = checked
        .skills
        .iter()
        .map(|s| s.dir.canonicalize().expect("found dir exists"))
        .collect();
    let want: BTreeSet<PathBuf> = expected()
        .iter()
        .map(|r| {
            shared()
                .join("corpus")
                .join(&r.dir)
                .canonicalize()
                .expect("corpus dir")
        })
        .collect();
    let missing: Vec<_> = want.difference(&found).collect();
    let extra: Vec<_> = found.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}\nextra {extra:?}"
    );
    assert_eq!(checked.skills.iter().filter(|s| s.is_valid()).count(), 389);
}

/// Discovery from `root` with the default options: what it found and said.
fn run(root: &Path) -> (Vec<FoundSkill>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let found = discover(root, &DiscoveryOptions::default(), &mut diags);
    (found, diags)
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn trailofbits_corpus_marketplace() {
    let root = &shared_path("corpus/collections/trailofbits-skills");
    let (found, diags) = run(root);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(found.len(), 80);
    assert!(
        found
            .iter()
            .all(|f| f.plugin.is_some() && f.dir.join("SKILL.md").is_file())
    );
    let first = found
        .iter()
        .find(|f| f.plugin.as_deref() == Some("building-secure-contracts"));
    assert!(first.is_some_and(|f| {
        f.dir
            .starts_with(root.join("plugins/building-secure-contracts/skills"))
    }));
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn corpus_collections_find_every_listed_skill() {
    let base = shared_path("corpus/collections");
    let read = std::fs::read_dir(&base).expect("the corpus lists");
    let mut collections: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    assert!(collections.len() >= 6, "{collections:?}");
    collections.sort();
    for root in collections {
        let (found, diags) = run(&root);
        assert!(!found.is_empty(), "{}", root.display());
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        let mut dirs: Vec<&PathBuf> = found.iter().map(|f| &f.dir).collect();
        let n = dirs.len();
        dirs.sort();
        dirs.dedup();
        assert_eq!(n, dirs.len(), "duplicates under {}", root.display());
    }
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn corpus_is_listed_quickly_and_without_panics() {
    let base = shared_path("corpus/collections");
    let mut diags = Vec::new();
    let opts = DiscoveryOptions::default();
    let mut skills = Vec::new();
    let read = std::fs::read_dir(&base).expect("the corpus lists");
    for entry in read.flatten() {
        skills.extend(discover(&entry.path(), &opts, &mut diags));
    }
    let mut total = 0;
    for s in &skills {
        let files = skill_files(&s.dir, &FileLimits::default(), &mut diags);
        assert!(
            files
                .windows(2)
                .all(|w| w[0].rel.as_bytes() < w[1].rel.as_bytes())
        );
        total += files.len();
    }
    assert!(total >= skills.len());
}

/// Every skill directory under `root` (a `SKILL.md` or `skill.md` in it).
fn skill_dirs(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<PathBuf> = read.filter_map(|e| Some(e.ok()?.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.join("SKILL.md").is_file() || path.join("skill.md").is_file() {
                out.push(path.clone());
            }
            skill_dirs(&path, out);
        }
    }
}

/// Claude Code's reading of a checked skill takes the check's parse of
/// the frontmatter where it can; it must equal the reading from the
/// bytes alone, on the reference's edge cases and on the corpus.
#[skills_tests::acceptance("needs ../shared/golden and ../shared/corpus")]
#[test]
fn readings_from_the_checks_parse_equal_readings_from_the_bytes() {
    let mut dirs = Vec::new();
    skill_dirs(&shared_path("golden/cases"), &mut dirs);
    let golden = dirs.len();
    skill_dirs(&shared_path("corpus/collections"), &mut dirs);
    assert!(
        golden > 50 && dirs.len() > golden + 400,
        "{} skills: ../shared is missing",
        dirs.len()
    );
    let options = Options::default();
    let mut reused = 0;
    for dir in &dirs {
        let skill = compiler::check_skill(dir, None, &options);
        let (Some(path), Some(source)) = (&skill.skill_md, &skill.source) else {
            continue;
        };
        let from_bytes = claude_code::read_loaded(&skill.dir, path, source.bytes());
        let checked = client::reading_of(Client::ClaudeCode, &skill);
        if path.file_name().is_some_and(|n| n == "SKILL.md") {
            assert_eq!(checked.as_ref(), Some(&from_bytes), "{}", dir.display());
            reused += usize::from(skill.frontmatter.is_some());
        }
    }
    assert!(reused > 400, "the check's parse was taken {reused} times");
}

/// Every `agents/openai.yaml` of the shared corpus of real skills, read by
/// ours and by Codex's reader (libyaml, the `codex-yaml` feature): ours
/// decides each one, and the two never part (a parting is reported as a
/// problem asking to report it).
#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn real_files_read_as_codex_reads_them() -> std::io::Result<()> {
    let mut stack = vec![shared_path("corpus")];
    let (mut files, mut parted) = (0, Vec::new());
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                stack.push(path);
            } else if path.ends_with("agents/openai.yaml") {
                let text = std::fs::read_to_string(&path)?;
                files += 1;
                let reading = codex::read_openai_yaml(&text);
                assert!(reading.undecided.is_none(), "{}", path.display());
                parted.extend(
                    reading
                        .problems
                        .iter()
                        .filter(|p| p.message.contains("please report it"))
                        .map(|p| format!("{}: {}", path.display(), p.message)),
                );
            }
        }
    }
    assert!(files >= 70, "{files} files");
    assert!(parted.is_empty(), "{}", parted.join("\n"));
    Ok(())
}

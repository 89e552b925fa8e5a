//! Which folders `skb scan` scans: every folder holding a `SKILL.md`, and
//! every plugin, marketplace or project whose agent runs commands of its
//! own (`skills_scan::is_plugin_root`: `.claude-plugin/`, `.mcp.json`,
//! `hooks/hooks.json`, …), whose attack may be only in its hooks,
//! commands, agents or servers.
//!
//! Discovery (the compiler's, as `skb validate` uses it) finds skills the
//! way clients find them: plugins and marketplaces by their manifests,
//! project folders by their clients' skills folders. A scanner must see
//! more: a malicious skill is often not a valid one, may name its file
//! `Skill.md`, or may sit in a hidden folder that the validator's walk
//! skips. So each path is also walked, hidden folders included (not
//! `.git`, dependency and build folders), and every folder holding a file
//! named `SKILL.md` in any letter case is scanned. A found folder without
//! one (discovery returns those, so that validation reports the missing
//! file) is left out: there is no skill to scan.
//!
//! The walk does not follow links, stops at a skill folder (the scan reads
//! everything below it), goes on below a plugin (whose scan leaves the
//! skills and plugins below it to theirs), and is bounded by `--max-depth` and `--max-dirs`
//! as discovery is. Targets come in discovery's order, then the walk's
//! (byte-wise sorted), each folder once.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use skills_compiler::{Diagnostic, DiscoveryOptions};
use skills_core::listing::{EntryKind, Listing};

use skills_install::input::Inputs;

/// Folders the walk never enters: version control, dependencies, builds.
const SKIPPED: [&str; 8] = [
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "__pycache__",
    ".venv",
    ".tox",
    "target",
];

/// One folder to scan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Where it is on the disk (inside a temporary directory for an archive).
    pub dir: PathBuf,
    /// How reports name it (an archive's path for what was extracted from it).
    pub shown: PathBuf,
}

/// What the search found.
#[derive(Debug, Default)]
pub struct Found {
    /// The folders to scan, in order.
    pub targets: Vec<Target>,
    /// Discovery's problems with the paths given (errors and warnings).
    pub problems: Vec<Diagnostic>,
    /// Why the walk stopped early, once per path.
    pub notes: Vec<String>,
}

/// The folders to scan under the inputs' roots.
pub fn find(inputs: &Inputs, discovery: &DiscoveryOptions) -> Found {
    let (found, reports) = skills_compiler::discover::discover_all(&inputs.roots, discovery);
    let mut search = Search {
        inputs,
        seen: HashSet::new(),
        skills: Vec::new(),
        found: Found {
            problems: reports.into_iter().flat_map(|(_, d)| d).collect(),
            ..Found::default()
        },
    };
    for skill in &found {
        if holds_skill_md(&skill.dir) {
            search.add(&skill.dir);
        }
    }
    for root in &inputs.roots {
        search.walk_root(root, discovery);
    }
    // Discovery's "no skills found" is wrong when the walk found some.
    if !search.found.targets.is_empty() {
        search
            .found
            .problems
            .retain(|d| d.code != skills_compiler::Code::MissingSkillMd);
    }
    search.found
}

/// Only the given skill folders, those holding a `SKILL.md` (for
/// `skb validate --scan`, which scans what it validated).
pub fn of_dirs<'a>(inputs: &Inputs, dirs: impl IntoIterator<Item = &'a Path>) -> Vec<Target> {
    let mut seen = HashSet::new();
    dirs.into_iter()
        .filter(|dir| holds_skill_md(dir) && seen.insert(identity(dir)))
        .map(|dir| Target {
            dir: dir.to_path_buf(),
            shown: inputs.label(dir),
        })
        .collect()
}

struct Search<'i> {
    inputs: &'i Inputs,
    /// Each target's canonical folder.
    seen: HashSet<PathBuf>,
    /// The skill targets' canonical folders, in order, to tell whether a
    /// folder lies inside one (and is scanned with it).
    skills: Vec<PathBuf>,
    found: Found,
}

impl Search<'_> {
    /// Adds the skill folder `dir`.
    fn add(&mut self, dir: &Path) {
        if let Some(key) = self.target(dir) {
            self.skills.push(key);
        }
    }

    /// Adds `dir` as a target unless it is one already or lies inside a
    /// skill; its canonical folder when added.
    fn target(&mut self, dir: &Path) -> Option<PathBuf> {
        let key = identity(dir);
        if self.seen.contains(&key) || self.skills.iter().any(|s| key.starts_with(s)) {
            return None;
        }
        self.seen.insert(key.clone());
        self.found.targets.push(Target {
            dir: dir.to_path_buf(),
            shown: self.inputs.label(dir),
        });
        Some(key)
    }

    /// Walks `root` (a folder, or nothing to do) for skill folders.
    fn walk_root(&mut self, root: &Path, limits: &DiscoveryOptions) {
        if !root.is_dir() {
            return;
        }
        let mut pending = vec![(root.to_path_buf(), 0usize)];
        let mut read = 0usize;
        // Depth first, children in sorted order: the stack takes them reversed.
        while let Some((dir, depth)) = pending.pop() {
            if read >= limits.max_dirs {
                self.found.notes.push(format!(
                    "stopped looking for `SKILL.md` below `{}` after {read} directories (--max-dirs)",
                    self.shown(root)
                ));
                return;
            }
            read += 1;
            let Ok(listing) = Listing::read(&dir) else {
                continue;
            };
            if listing
                .entries()
                .iter()
                .any(|(name, kind)| is_skill_md(name, *kind))
            {
                self.add(&dir);
                continue;
            }
            if skills_scan::is_plugin_root(&dir) {
                self.target(&dir);
            }
            if depth >= limits.max_depth {
                if listing.entries().iter().any(|(_, k)| *k == EntryKind::Dir) {
                    self.found.notes.push(format!(
                        "did not look for `SKILL.md` below `{}`, {depth} levels down (--max-depth)",
                        self.shown(&dir)
                    ));
                }
                continue;
            }
            let children = listing
                .entries()
                .iter()
                .filter(|(name, kind)| *kind == EntryKind::Dir && !is_skipped(name));
            let children: Vec<PathBuf> = children.map(|(name, _)| dir.join(name)).collect();
            pending.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
        }
    }

    fn shown(&self, path: &Path) -> String {
        skills_compiler::render::path_string(&self.inputs.label(path))
    }
}

/// Whether `dir` holds an entry named `SKILL.md` in any letter case (a
/// file, or a link the scan will report as not read).
fn holds_skill_md(dir: &Path) -> bool {
    // The usual names first: a `stat` each instead of a listing.
    let named = |name: &str| {
        std::fs::symlink_metadata(dir.join(name))
            .is_ok_and(|m| m.file_type().is_file() || m.file_type().is_symlink())
    };
    named("SKILL.md")
        || named("skill.md")
        || Listing::read(dir).is_ok_and(|l| l.entries().iter().any(|(n, k)| is_skill_md(n, *k)))
}

fn is_skill_md(name: &OsStr, kind: EntryKind) -> bool {
    matches!(kind, EntryKind::File | EntryKind::Symlink)
        && name
            .to_str()
            .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"))
}

fn is_skipped(name: &OsStr) -> bool {
    SKIPPED.iter().any(|s| OsStr::new(s) == name)
}

/// The folder's identity: its canonical path, or the path as given when it
/// has none.
fn identity(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("a temporary directory is writable");
        }
        fs::write(path, text).expect("a temporary directory is writable");
    }

    fn shown(found: &Found, root: &Path) -> Vec<String> {
        found
            .targets
            .iter()
            .map(|t| {
                let rel = t.shown.strip_prefix(root).unwrap_or(&t.shown);
                skills_compiler::render::path_string(rel)
            })
            .collect()
    }

    #[test]
    fn every_folder_with_a_skill_md_in_any_case_once() {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let root = tmp.path();
        write(root, "a/SKILL.md", "---\nname: a\ndescription: A.\n---\n");
        write(root, "b/Skill.md", "no frontmatter");
        write(root, ".hidden/c/skill.MD", "hidden");
        write(root, "a/nested/SKILL.md", "inside a: scanned with it");
        write(root, "node_modules/d/SKILL.md", "dependency");
        write(root, "empty/README.md", "not a skill");
        let mut inputs = Inputs::default();
        inputs.roots.push(root.to_path_buf());
        let found = find(&inputs, &DiscoveryOptions::default());
        assert_eq!(shown(&found, root), ["a", ".hidden/c", "b"]);
        assert!(found.notes.is_empty(), "{:?}", found.notes);
    }

    #[test]
    fn plugins_are_targets_and_their_skills_too() {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let root = tmp.path();
        write(root, "p/.claude-plugin/plugin.json", "{\"name\": \"p\"}");
        write(root, "p/hooks/hooks.json", "{\"hooks\": {}}");
        write(
            root,
            "p/skills/s/SKILL.md",
            "---\nname: s\ndescription: S.\n---\n",
        );
        write(root, "servers/.mcp.json", "{\"mcpServers\": {}}");
        write(root, "a/SKILL.md", "---\nname: a\ndescription: A.\n---\n");
        write(root, "a/.mcp.json", "{}");
        let mut inputs = Inputs::default();
        inputs.roots.push(root.to_path_buf());
        let found = find(&inputs, &DiscoveryOptions::default());
        let mut targets = shown(&found, root);
        targets.sort();
        assert_eq!(targets, ["a", "p", "p/skills/s", "servers"]);
    }

    #[test]
    fn limits_are_reported() {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let root = tmp.path();
        write(root, "1/2/3/SKILL.md", "deep");
        let mut inputs = Inputs::default();
        inputs.roots.push(root.to_path_buf());
        let shallow = DiscoveryOptions {
            max_depth: 1,
            ..DiscoveryOptions::default()
        };
        let found = find(&inputs, &shallow);
        assert!(found.targets.is_empty());
        assert_eq!(found.notes.len(), 1, "{:?}", found.notes);
        assert!(found.notes[0].contains("--max-depth"));
        let few = DiscoveryOptions {
            max_dirs: 2,
            ..DiscoveryOptions::default()
        };
        let found = find(&inputs, &few);
        assert!(found.notes[0].contains("--max-dirs"), "{:?}", found.notes);
    }
}

//! Codex's walk of one skill root and the kinds of roots it has, for
//! listing skills as Codex does when the roots are known (given on the
//! command line, or found by discovery).
//!
//! The walk follows [`super::scans`]: folders up to [`super::MAX_DEPTH`]
//! levels below the root, names starting with `.` skipped, symbolic links to
//! folders followed (each real folder walked once, so a link cycle ends),
//! files named exactly `SKILL.md` (a link to a file is not one: Codex's walk
//! leaves file links out), and at most [`MAX_DIRS_PER_ROOT`] folders, past
//! which the walk stops, as Codex's does ("skills scan reached its traversal
//! limit").
//!
//! Roots come in kinds ([`RootKind`]) with two orders: the order Codex
//! numbers them in its roots table (`$CODEX_HOME/skills`, `~/.agents/skills`,
//! the system cache, then the repository's folders: the record numbers them
//! `r0` to `r3` so) and the order it lists their skills in (system, then
//! the repository's, then `$CODEX_HOME/skills`, then `~/.agents/skills`).

use std::collections::{HashSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};

/// Most folders walked below one root.
pub const MAX_DIRS_PER_ROOT: usize = 2000;

/// Where a skill root sits for Codex. The variants are in the order Codex
/// numbers roots in its table (`Ord`); [`RootKind::list_rank`] is the order
/// it lists their skills in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RootKind {
    /// `$CODEX_HOME/skills` (`~/.codex/skills` by default).
    CodexHome,
    /// `~/.agents/skills`.
    UserAgents,
    /// `$CODEX_HOME/skills/.system`, Codex's own skills.
    System,
    /// A repository's `.agents/skills` or `.codex/skills` (and any other
    /// folder given as a root).
    Repo,
}

impl RootKind {
    /// Rank in Codex's listing order (lower lists first).
    pub fn list_rank(self) -> u8 {
        match self {
            RootKind::System => 0,
            RootKind::Repo => 1,
            RootKind::CodexHome => 2,
            RootKind::UserAgents => 3,
        }
    }

    /// What `root` is, given Codex's home (`$CODEX_HOME`, else `~/.codex`)
    /// and the user's home; paths are compared as given and canonical.
    pub fn of(root: &Path, codex_home: Option<&Path>, home: Option<&Path>) -> RootKind {
        let same = |a: &Path, b: &Path| {
            a == b || matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
        };
        if let Some(codex) = codex_home {
            let skills = codex.join("skills");
            if same(root, &skills) {
                return RootKind::CodexHome;
            }
            if same(root, &skills.join(".system")) {
                return RootKind::System;
            }
        }
        if let Some(home) = home
            && same(root, &home.join(".agents").join("skills"))
        {
            return RootKind::UserAgents;
        }
        RootKind::Repo
    }
}

/// Codex's home from the environment: `$CODEX_HOME`, else `$HOME/.codex`.
pub fn codex_home() -> Option<PathBuf> {
    std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join(".codex")))
}

/// The user's home from the environment (`$HOME`).
pub fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// What a walk of one root found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RootScan {
    /// Each skill folder, relative to the root, `/`-separated (`""` for the
    /// root itself), in walk order.
    pub skills: Vec<String>,
    /// Whether the walk stopped at [`MAX_DIRS_PER_ROOT`].
    pub truncated: bool,
}

/// Walks `root` as Codex does.
pub fn scan_root(root: &Path) -> RootScan {
    let mut out = RootScan::default();
    let Ok(canonical) = fs::canonicalize(root) else {
        return out;
    };
    let mut visited: HashSet<PathBuf> = HashSet::from([canonical]);
    let mut queue: VecDeque<(PathBuf, String, usize)> =
        VecDeque::from([(root.to_path_buf(), String::new(), 0)]);
    while let Some((dir, rel, depth)) = queue.pop_front() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<fs::DirEntry> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(fs::DirEntry::file_name);
        for entry in entries {
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            let is_dir = kind.is_dir()
                || (kind.is_symlink() && fs::metadata(&path).is_ok_and(|m| m.is_dir()));
            if is_dir {
                if depth + 1 > super::MAX_DEPTH {
                    continue;
                }
                let Ok(real) = fs::canonicalize(&path) else {
                    continue;
                };
                if visited.contains(&real) {
                    continue;
                }
                if visited.len() >= MAX_DIRS_PER_ROOT {
                    out.truncated = true;
                    continue;
                }
                visited.insert(real);
                let child = if rel.is_empty() {
                    name.to_string()
                } else {
                    format!("{rel}/{name}")
                };
                queue.push_back((path, child, depth + 1));
            } else if kind.is_file() && name == super::SKILL_MD {
                out.skills.push(rel.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path) -> std::io::Result<()> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(path, "---\nname: x\ndescription: d\n---\n")
    }

    #[test]
    fn walks_six_levels_skips_dot_entries_and_follows_folder_links() -> std::io::Result<()> {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("root");
        for rel in [
            "a/SKILL.md",
            "node_modules/n/SKILL.md",
            ".hidden/SKILL.md",
            "deep/1/2/3/4/5/SKILL.md",
            "deep/1/2/3/4/5/6/SKILL.md",
            "lower/skill.md",
        ] {
            write(&root.join(rel))?;
        }
        write(&tmp.path().join("outside/SKILL.md"))?;
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(tmp.path().join("outside"), root.join("linked"))?;
            // A cycle: walked once.
            std::os::unix::fs::symlink(&root, root.join("a/loop"))?;
            std::os::unix::fs::symlink(root.join("a/SKILL.md"), root.join("lower/SKILL.md"))?;
        }
        let mut found = scan_root(&root).skills;
        found.sort();
        let mut expected = vec!["a", "deep/1/2/3/4/5", "node_modules/n"];
        if cfg!(unix) {
            expected.push("linked");
        }
        expected.sort_unstable();
        assert_eq!(found, expected);
        assert!(!scan_root(&root).truncated);
        assert_eq!(scan_root(&tmp.path().join("missing")), RootScan::default());
        Ok(())
    }

    #[test]
    fn stops_after_the_folder_limit() -> std::io::Result<()> {
        let tmp = tempfile::tempdir()?;
        for i in 0..MAX_DIRS_PER_ROOT + 5 {
            fs::create_dir(tmp.path().join(format!("d{i:05}")))?;
        }
        let scan = scan_root(tmp.path());
        assert!(scan.truncated);
        Ok(())
    }

    #[test]
    fn root_kinds_and_their_orders() {
        let codex = Path::new("/h/.codex");
        let home = Path::new("/h");
        let of = |p: &str| RootKind::of(Path::new(p), Some(codex), Some(home));
        assert_eq!(of("/h/.codex/skills"), RootKind::CodexHome);
        assert_eq!(of("/h/.codex/skills/.system"), RootKind::System);
        assert_eq!(of("/h/.agents/skills"), RootKind::UserAgents);
        assert_eq!(of("/repo/.agents/skills"), RootKind::Repo);
        let mut kinds = [
            RootKind::UserAgents,
            RootKind::Repo,
            RootKind::CodexHome,
            RootKind::System,
        ];
        kinds.sort();
        assert_eq!(
            kinds,
            [
                RootKind::CodexHome,
                RootKind::UserAgents,
                RootKind::System,
                RootKind::Repo
            ]
        );
        kinds.sort_by_key(|k| k.list_rank());
        assert_eq!(
            kinds,
            [
                RootKind::System,
                RootKind::Repo,
                RootKind::CodexHome,
                RootKind::UserAgents
            ]
        );
    }
}

//! Codex's list of the skills under some roots: each root walked
//! ([`scan_root`]), each skill folder read ([`super::read`]), the listed
//! ones rendered as the `<skills_instructions>` block
//! ([`skills_core::catalog::codex::render_rooted`]), and what Codex would
//! print on the way (rejected skills, a walk cut at its limit).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use skills_core::catalog::codex::{self as cat, Rendered, RootedEntry};

use super::scan::{RootKind, codex_home, home, scan_root};
use super::{Listed, Outcome, read};

/// One listed skill and where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The entry's fields.
    pub listed: Listed,
    /// Index of its root in [`Listing::roots`].
    pub root: usize,
    /// Its `SKILL.md` below the root, `/`-separated.
    pub path: String,
}

/// What Codex makes of some roots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// The roots, in the order Codex numbers them, each with its kind.
    pub roots: Vec<(PathBuf, RootKind)>,
    /// The skills it lists.
    pub found: Vec<Found>,
    /// The `SKILL.md` files it refuses, with its reason.
    pub rejected: Vec<(PathBuf, String)>,
    /// Roots whose walk stopped at its limit.
    pub truncated: Vec<PathBuf>,
}

impl Listing {
    /// The block Codex shows its model, within `budget`; `None` for no
    /// skills.
    pub fn render(&self, budget: usize) -> Option<Rendered> {
        let roots: Vec<String> = self
            .roots
            .iter()
            .map(|(p, _)| p.to_string_lossy().replace('\\', "/"))
            .collect();
        let roots: Vec<&str> = roots.iter().map(String::as_str).collect();
        let entries: Vec<RootedEntry<'_>> = self
            .found
            .iter()
            .map(|f| RootedEntry {
                name: &f.listed.name,
                description: &f.listed.description,
                root: f.root,
                path: &f.path,
                group: self
                    .roots
                    .get(f.root)
                    .map_or(u8::MAX, |(_, k)| k.list_rank()),
            })
            .collect();
        cat::render_rooted(&roots, &entries, budget)
    }
}

/// Codex's listing of the skills under `roots` (skill roots such as
/// `.agents/skills`; the same folder given twice counts once). The kind of
/// each root is read from where it is ([`RootKind::of`], with `$CODEX_HOME`
/// and `$HOME`).
pub fn listing(roots: &[PathBuf]) -> Listing {
    let (codex, home) = (codex_home(), home());
    let mut seen = HashSet::new();
    let mut kinds: Vec<(PathBuf, RootKind)> = roots
        .iter()
        .filter(|r| seen.insert(std::fs::canonicalize(r).unwrap_or_else(|_| r.to_path_buf())))
        .map(|r| {
            let absolute = std::path::absolute(r).unwrap_or_else(|_| r.clone());
            let kind = RootKind::of(&absolute, codex.as_deref(), home.as_deref());
            (absolute, kind)
        })
        .collect();
    kinds.sort_by_key(|(_, k)| *k);
    let mut out = Listing {
        roots: kinds,
        ..Listing::default()
    };
    for (i, (root, _)) in out.roots.iter().enumerate() {
        let scan = scan_root(root);
        if scan.truncated {
            out.truncated.push(root.clone());
        }
        for rel in scan.skills {
            let dir = if rel.is_empty() {
                root.clone()
            } else {
                root.join(&rel)
            };
            let path = join(&rel, super::SKILL_MD);
            match read(&dir).outcome {
                Outcome::Listed(listed) => out.found.push(Found {
                    listed,
                    root: i,
                    path,
                }),
                Outcome::Rejected { why } => out.rejected.push((dir.join(super::SKILL_MD), why)),
                Outcome::NotListed { .. } => {}
            }
        }
    }
    out
}

fn join(rel: &str, file: &str) -> String {
    if rel.is_empty() {
        file.to_string()
    } else {
        format!("{rel}/{file}")
    }
}

/// Codex's stderr line for a rejected skill, after its log prefix.
pub fn rejection_line(path: &Path, why: &str) -> String {
    format!("failed to load skill {}: {why}", path.display())
}

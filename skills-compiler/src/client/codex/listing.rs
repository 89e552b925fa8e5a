//! Codex's list of discovered skills: the skills found in Codex's folders
//! (or under paths given as roots) grouped by root, each folder read as
//! Codex reads it ([`super::read`]), the listed ones rendered as the
//! `<skills_instructions>` block
//! ([`skills_core::catalog::codex::render_rooted`]), and the skills Codex
//! would refuse, with its reason.
//!
//! A skill's root is the Codex skills folder discovery found it in
//! (`.agents/skills`, `.codex/skills`, `$CODEX_HOME/skills`,
//! `~/.agents/skills`), else the path it was found under; skills found in
//! Claude Code's `.claude/skills` are not Codex's and are left out.

use std::path::{Path, PathBuf};

use skills_core::catalog::codex::{self as cat, Rendered, RootedEntry};

use super::roots::RootKind;
use super::scan::SKILL_MD;
use super::skill_md::read;
use crate::client::reading::{Listed, Outcome};
use crate::discover::{FoundSkill, UserFolders};
use skills_core::client::Client;

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

/// What Codex makes of some skills.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// The roots, in the order Codex numbers them, each with its kind.
    pub roots: Vec<(PathBuf, RootKind)>,
    /// The skills it lists.
    pub found: Vec<Found>,
    /// The `SKILL.md` files it refuses, with its reason.
    pub rejected: Vec<(PathBuf, String)>,
    /// The `SKILL.md` files whose reading is not known (past a bound of
    /// this tool), with the bound.
    pub unknown: Vec<(PathBuf, String)>,
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

/// Codex's listing of `found` (as discovery returned them); `user` tells
/// `$CODEX_HOME/skills` and `~/.agents/skills` from the repository's folders.
pub fn listing(found: &[FoundSkill], user: Option<&UserFolders>) -> Listing {
    let mut roots: Vec<(PathBuf, RootKind)> = Vec::new();
    let mut placed: Vec<(&FoundSkill, PathBuf)> = Vec::new();
    for f in found {
        let root = match &f.origin {
            Some(o) if !o.read_by(Client::Codex) => continue,
            Some(o) => o.folder.clone(),
            None => f.root.clone(),
        };
        let root = std::path::absolute(&root).unwrap_or(root);
        if !roots.iter().any(|(r, _)| *r == root) {
            let kind = RootKind::of(&root, user);
            roots.push((root.clone(), kind));
        }
        placed.push((f, root));
    }
    roots.sort_by_key(|(_, k)| *k);
    let mut out = Listing {
        roots,
        ..Listing::default()
    };
    for (f, root) in placed {
        let index = out.roots.iter().position(|(r, _)| *r == root).unwrap_or(0);
        let dir = std::path::absolute(&f.dir).unwrap_or_else(|_| f.dir.clone());
        let path = below(&root, &dir);
        match read(&f.dir).outcome {
            Outcome::Listed(listed) => out.found.push(Found {
                listed,
                root: index,
                path,
            }),
            Outcome::Rejected { why } => out.rejected.push((f.dir.join(SKILL_MD), why)),
            Outcome::Unknown { why } => out.unknown.push((f.dir.join(SKILL_MD), why)),
            Outcome::NotListed { .. } => {}
        }
    }
    out
}

/// `dir/SKILL.md` below `root`, `/`-separated.
fn below(root: &Path, dir: &Path) -> String {
    let rel = dir.strip_prefix(root).unwrap_or(dir);
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.push(SKILL_MD.to_string());
    parts.join("/")
}

/// Codex's stderr line for a rejected skill, after its log prefix.
pub fn rejection_line(path: &Path, why: &str) -> String {
    format!("failed to load skill {}: {why}", path.display())
}

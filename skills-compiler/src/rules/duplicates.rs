//! Skills found twice: resolved as each client resolves them, then as a
//! bundle must (one skill per name), and reported with both paths (`SK006`).
//!
//! - **Claude Code** names a skill by its folder: of two skills in its
//!   folders with the same folder name, the user's (`~/.claude/skills`)
//!   wins over the project's, and a project folder nearer the start
//!   directory over one further up (the order [`discover`](crate::discover)
//!   finds them in). Only the winner is listed and loaded.
//! - **Codex** names a skill by its frontmatter `name` (the folder's name
//!   when there is none) and lists every skill of a name; `$name` then
//!   injects none of them.
//! - A bundle (`pack`, `serve`, `run`, ...) holds one skill per name: of
//!   two skills with the same (qualified) name, the first found is kept.
//!
//! The skill left out is marked [`CheckedSkill::duplicate_of`], so it is
//! validated but neither packed nor served.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic};
use skills_core::client::Client;

use crate::checked::CheckedSkill;
use crate::discover::{FoundSkill, Origin};
use crate::profile::Profile;

/// Marks and reports the duplicates among `skills` (checked from `found`,
/// in the same order).
pub fn mark(found: &[FoundSkill], skills: &mut [CheckedSkill], profile: Profile) {
    claude_code(found, skills, profile);
    #[cfg(feature = "codex-yaml")]
    codex(found, skills, profile);
    bundle(skills, profile);
}

fn folder_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn report(skill: &mut CheckedSkill, kept: &Path, message: String, help: &str, profile: Profile) {
    let path = skill.skill_md.clone().unwrap_or_else(|| skill.dir.clone());
    let mut d = Diagnostic::new(
        Code::DuplicateSkill,
        profile.severity(Code::DuplicateSkill),
        &path,
        message,
    );
    d.help = Some(help.into());
    skill.diagnostics.push(d);
    skill.duplicate_of = Some(kept.to_path_buf());
}

/// Claude Code: by folder name, the user's first, then in discovery order.
fn claude_code(found: &[FoundSkill], skills: &mut [CheckedSkill], profile: Profile) {
    let mut order: Vec<usize> = (0..skills.len())
        .filter(|&i| {
            found
                .get(i)
                .and_then(|f| f.origin.as_ref())
                .is_some_and(|o| o.read_by(Client::ClaudeCode))
        })
        .collect();
    // Stable: the user's folder first, discovery order otherwise.
    order.sort_by_key(|&i| !found[i].origin.as_ref().is_some_and(Origin::is_user));
    let mut first: HashMap<String, usize> = HashMap::new();
    for i in order {
        let name = folder_name(&skills[i].dir);
        let Some(&kept) = first.get(&name) else {
            first.insert(name, i);
            continue;
        };
        let kept_dir = skills[kept].dir.clone();
        let why = if found[kept].origin.as_ref().is_some_and(Origin::is_user) {
            "the user's skill wins over the project's"
        } else {
            "the folder nearer the working directory wins"
        };
        let message = format!(
            "Claude Code lists `{}` and not this skill: both are named `{name}` by their folder, and {why}",
            kept_dir.display()
        );
        report(
            &mut skills[i],
            &kept_dir,
            message,
            "rename one of the folders, or remove one of the skills",
            profile,
        );
    }
}

/// Codex: every skill of a name is listed; report the second and later.
/// The name is Codex's reading of the frontmatter, so this needs the
/// `codex-yaml` feature; without it, skills in Codex's folders are resolved
/// as a bundle's alone ([`bundle`]).
#[cfg(feature = "codex-yaml")]
fn codex(found: &[FoundSkill], skills: &mut [CheckedSkill], profile: Profile) {
    let mut first: HashMap<String, usize> = HashMap::new();
    for i in 0..skills.len() {
        let is_codex = found
            .get(i)
            .and_then(|f| f.origin.as_ref())
            .is_some_and(|o| o.read_by(Client::Codex));
        if !is_codex || skills[i].duplicate_of.is_some() {
            continue;
        }
        // The name Codex lists: its own reading of the frontmatter.
        let name = match crate::client::codex::reading(&skills[i]) {
            Some(Ok(read)) => read.name,
            _ => continue,
        };
        let Some(&kept) = first.get(&name) else {
            first.insert(name, i);
            continue;
        };
        let kept_dir = skills[kept].dir.clone();
        let message = format!(
            "Codex lists this skill and `{}` under the same name `{name}`, and `${name}` then injects neither; the first is kept here",
            kept_dir.display()
        );
        report(
            &mut skills[i],
            &kept_dir,
            message,
            "give one of the skills another `name`, or remove it",
            profile,
        );
    }
}

/// One skill per qualified name in a bundle: the first found is kept.
fn bundle(skills: &mut [CheckedSkill], profile: Profile) {
    let mut first: HashMap<String, PathBuf> = HashMap::new();
    for skill in skills.iter_mut() {
        if skill.duplicate_of.is_some() {
            continue;
        }
        let Some(name) = skill.qualified_name() else {
            continue;
        };
        let Some(prior) = first.get(&name) else {
            first.insert(name, skill.dir.clone());
            continue;
        };
        let prior = prior.clone();
        let message = format!(
            "skill `{name}` is also defined in `{}`; the first one found is kept and this one is ignored",
            prior.display()
        );
        report(
            skill,
            &prior,
            message,
            "rename one of the skills, or drop one of the paths",
            profile,
        );
    }
}

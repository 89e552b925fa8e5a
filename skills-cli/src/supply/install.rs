//! Installing planned skills into their folders and recording them: the one
//! step `add`, `install` and `update` share.
//!
//! For each skill, every target folder is inspected first ([`place::inspect`]);
//! if any holds local edits (or a folder skb did not install) and `--force`
//! was not given, the skill is refused and nothing of it is written. Then
//! each folder is written ([`place::write`]), and the lock entry replaced.
//! The caller writes the lock once, after every skill.

use std::io;
use std::path::PathBuf;

use skills_compiler::embed::PlanSkill;
use skills_core::digest;
use skills_core::lock::tree::Drift;
use skills_core::lock::{Lock, LockedFile, LockedScan, LockedSkill, Resolved, Signer};

use super::place::{self, Found};
use super::project::{Project, invalid};

/// One folder a skill goes to.
#[derive(Debug, Clone)]
pub struct Dest {
    /// The skills folder, absolute.
    pub folder: PathBuf,
    /// The skills folder as the lock records it (`.claude/skills`,
    /// `~/.claude/skills`).
    pub recorded: String,
    /// The clients asked for that read it (none when restoring a lock).
    pub targets: Vec<&'static skills_core::client::InstallTarget>,
}

/// What happened to one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Written where it was not.
    Installed,
    /// Written over an older version.
    Updated {
        /// The files that changed, with how.
        changes: Vec<Drift>,
    },
    /// Already installed exactly.
    Unchanged,
    /// Found in place with exactly this content, and locked as it is
    /// (`skb import` of what another installer wrote).
    Adopted,
}

/// Where a skill comes from and under which signature.
#[derive(Debug, Clone)]
pub struct Origin {
    /// The source as written.
    pub source: String,
    /// Its pin.
    pub resolved: Resolved,
    /// The signature checked, if any.
    pub signer: Option<Signer>,
    /// Why it is installed unsigned, when a remote source is.
    pub unsigned: Option<String>,
    /// The validator profile, when not `spec`.
    pub profile: Option<String>,
    /// What the security scan found and which findings were accepted
    /// ([`super::gate`]).
    pub scan: Option<LockedScan>,
}

/// The skill's digest, `sha256:<hex>`, as a pack of it alone carries.
pub fn skill_digest(skill: &PlanSkill) -> String {
    format!("sha256:{}", digest::bundle_digest([skill.digested()]))
}

/// The skill's folder name in a skills folder: its name (a plugin's skill
/// `plugin:skill` goes in as `skill`).
pub fn folder_name(skill: &PlanSkill) -> &str {
    skill
        .meta
        .name
        .rsplit_once(':')
        .map_or(&*skill.meta.name, |(_, s)| s)
}

/// What is at each of `dests` for `skill`; an error naming every folder
/// with local edits (or not installed by skb) unless `force`. Nothing is
/// written: `add` checks every skill this way before writing any.
pub fn inspect(
    project: &Project,
    lock: &Lock,
    skill: &PlanSkill,
    dests: &[Dest],
    force: bool,
) -> io::Result<Vec<(PathBuf, String, Found)>> {
    let name = folder_name(skill).to_string();
    let files = place::locked_files(skill);
    let previous = lock.get(&name);
    let mut found = Vec::new();
    let mut refusals = Vec::new();
    for d in dests {
        let dest = d.folder.join(&name);
        let recorded = format!("{}/{name}", d.recorded);
        let prev_files: Option<&[LockedFile]> = previous
            .filter(|p| p.installed.contains(&recorded))
            .map(|p| p.files.as_slice());
        let f = place::inspect(&dest, prev_files, &files)?;
        match &f {
            Found::Edited(drift) if !force && prev_files.is_none() => refusals.push(format!(
                "{} already exists and skb did not install it (it holds {}): nothing was written; --force replaces it and keeps a backup in {}",
                dest.display(),
                drift.iter().map(|d| d.path.as_str()).collect::<Vec<_>>().join(", "),
                project.state_dir().join("backup").display()
            )),
            Found::Edited(drift) if !force => refusals.push(format!(
                "{} has local edits ({}): nothing was written; --force replaces it and keeps a backup in {}",
                dest.display(),
                drift.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
                project.state_dir().join("backup").display()
            )),
            Found::Foreign(what) if !force => refusals.push(format!(
                "{} is {what}, not a folder skb installed: nothing was written; --force replaces it and keeps a backup",
                dest.display()
            )),
            _ => {}
        }
        found.push((dest, recorded, f));
    }
    if !refusals.is_empty() {
        return Err(invalid(format!("skill `{name}`: {}", refusals.join("; "))));
    }
    Ok(found)
}

/// Installs `skill` into `dests`, updating `lock`.
pub fn install(
    project: &Project,
    lock: &mut Lock,
    skill: &PlanSkill,
    origin: &Origin,
    dests: &[Dest],
    force: bool,
) -> io::Result<Action> {
    let name = folder_name(skill).to_string();
    let files = place::locked_files(skill);
    let previous = lock.get(&name).cloned();
    let found = inspect(project, lock, skill, dests, force)?;
    let contents = place::contents(skill)?;
    let mut wrote = false;
    for (dest, _, f) in &found {
        match f {
            Found::Same => {}
            Found::Nothing | Found::Locked => {
                place::write(dest, &contents, None)?;
                wrote = true;
            }
            Found::Edited(_) | Found::Foreign(_) => {
                let backup = backup_path(project, &name);
                place::write(dest, &contents, Some(&backup))?;
                eprintln!(
                    "skb: kept the replaced {} in {}",
                    dest.display(),
                    backup.display()
                );
                wrote = true;
            }
        }
    }
    let mut installed: Vec<String> = found.into_iter().map(|(_, r, _)| r).collect();
    if let Some(p) = &previous {
        // Folders installed before and not asked for now stay recorded.
        installed.extend(p.installed.iter().cloned());
    }
    installed.sort();
    installed.dedup();
    let digest = skill_digest(skill);
    let action = match &previous {
        Some(p) if p.digest == digest && !wrote => Action::Unchanged,
        Some(p) if p.digest == digest => Action::Installed,
        Some(p) => Action::Updated {
            changes: changed_files(&p.files, &files),
        },
        None if wrote => Action::Installed,
        None => Action::Adopted,
    };
    lock.insert(LockedSkill {
        name,
        source: origin.source.clone(),
        resolved: origin.resolved.clone(),
        digest,
        signer: origin.signer.clone(),
        unsigned: origin.unsigned.clone(),
        profile: origin.profile.clone(),
        scan: origin.scan.clone(),
        installed,
        files,
    });
    Ok(action)
}

/// How `new` differs from `old`, file by file.
pub fn changed_files(old: &[LockedFile], new: &[LockedFile]) -> Vec<Drift> {
    use skills_core::lock::tree::Change;
    let mut out = Vec::new();
    for f in new {
        match old.iter().find(|o| o.path == f.path) {
            None => out.push(Drift {
                path: f.path.clone(),
                change: Change::Added,
            }),
            Some(o) if o.sha256 != f.sha256 => out.push(Drift {
                path: f.path.clone(),
                change: Change::Edited,
            }),
            Some(o) if o.executable != f.executable => out.push(Drift {
                path: f.path.clone(),
                change: Change::Mode,
            }),
            Some(_) => {}
        }
    }
    for o in old {
        if !new.iter().any(|f| f.path == o.path) {
            out.push(Drift {
                path: o.path.clone(),
                change: Change::Removed,
            });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// A fresh backup folder for `name`.
pub fn backup_path(project: &Project, name: &str) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let base = project.state_dir().join("backup");
    let mut n = 0u32;
    loop {
        let p = base.join(format!("{name}-{secs}-{n}"));
        if std::fs::symlink_metadata(&p).is_err() {
            return p;
        }
        n += 1;
    }
}

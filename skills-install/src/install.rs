//! The stage stage, shared by `add`, `install`, `update` and `import`: for
//! each skill, every target folder inspected ([`place::inspect`]); a folder
//! with local edits (or one skb did not install) refused unless `--force`;
//! the changed folders staged into one transaction with the new lock
//! ([`Changes`]), which [`commit`] puts in place all together.

use skills_compiler::embed::PlanSkill;
use skills_core::digest;
use skills_core::lock::tree::{Change, Drift};
use skills_core::lock::{Lock, LockedFile, LockedScan, LockedSkill, Resolved, Signer};

use crate::commit::{At, Txn};
use crate::error::{Error, ErrorKind, Result, Stage};
use crate::observe::{Event, Note, Observer};
use crate::place::{self, Found};
use crate::project::{Opened, Project};
use crate::root::Rel;
use crate::targets::Dest;

/// What happened to one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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

impl Action {
    /// The verb a report uses.
    pub fn verb(&self) -> &'static str {
        match self {
            Action::Installed => "installed",
            Action::Updated { .. } => "updated",
            Action::Unchanged => "unchanged",
            Action::Adopted => "adopted",
        }
    }
}

/// Where a skill comes from and on what grounds it is installed: what the
/// lock records.
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    /// The source as written.
    pub(crate) source: String,
    /// What was fetched, canonical ([`crate::origin`]).
    pub(crate) origin: String,
    /// Changes a flag accepted this time.
    pub(crate) accepted: Vec<String>,
    /// Its pin.
    pub(crate) resolved: Resolved,
    /// The signature checked, if any.
    pub(crate) signer: Option<Signer>,
    /// Why it is installed unsigned, when a remote source is.
    pub(crate) unsigned: Option<String>,
    /// The validator profile, when not `spec`.
    pub(crate) profile: Option<String>,
    /// What the security scan found and which findings were accepted.
    pub(crate) scan: Option<LockedScan>,
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

/// The folders an operation changes in one project, staged together with
/// the new lock.
#[derive(Debug)]
pub(crate) struct Staging<'a> {
    project: &'a Project,
    opened: &'a Opened,
    /// Replace folders with local edits (or not installed by skb).
    force: bool,
    puts: Vec<Put>,
    removes: Vec<(Rel, Option<String>)>,
    /// Checkouts whose folders the puts move: kept until the commit.
    kept: Vec<crate::input::Inputs>,
}

#[derive(Debug)]
struct Put {
    target: Rel,
    files: Vec<(String, Vec<u8>, bool)>,
    /// The folder's name, when what it replaces is kept as a backup.
    backup: Option<String>,
    /// A folder below the state root already holding `files` (a checkout
    /// in the scratch folder), moved in instead of written when it holds
    /// exactly them ([`crate::adopt`]).
    from: Option<Rel>,
}

impl<'a> Staging<'a> {
    /// Nothing staged yet in `project`.
    pub(crate) fn new(project: &'a Project, opened: &'a Opened, force: bool) -> Staging<'a> {
        Staging {
            project,
            opened,
            force,
            puts: Vec::new(),
            removes: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// The scratch folder of the project's state folder
    /// ([`crate::commit::scratch`]), created: where a git checkout is
    /// written for [`Staging::install_from`] to move its folders.
    pub(crate) fn scratch(&self) -> Result<std::path::PathBuf> {
        crate::commit::scratch(&self.opened.state)
            .map_err(|e| Error::io(Stage::Fetch, self.project.state_dir(), e))
    }

    /// Keeps `inputs` (a checkout in the scratch folder) until the commit.
    pub(crate) fn keep(&mut self, inputs: crate::input::Inputs) {
        self.kept.push(inputs);
    }

    /// Whether nothing changes on disk.
    pub(crate) fn is_empty(&self) -> bool {
        self.puts.is_empty() && self.removes.is_empty()
    }

    /// The folder `target` goes (kept as a backup named after `name`
    /// when given).
    pub(crate) fn remove(&mut self, target: Rel, backup: Option<String>) {
        self.removes.push((target, backup));
    }

    /// What is at each of `dests` for `skill`; an error naming every folder
    /// with local edits (or not installed by skb) unless `force`. Nothing is
    /// written: every skill is checked this way before any is staged.
    pub(crate) fn inspect(
        &self,
        lock: &Lock,
        skill: &PlanSkill,
        dests: &[Dest],
    ) -> Result<Vec<(Rel, String, Found)>> {
        let (project, opened, force) = (self.project, self.opened, self.force);
        let name = folder_name(skill).to_string();
        let files = place::locked_files(skill);
        let previous = lock.get(&name);
        let mut found = Vec::new();
        let mut refusals = Vec::new();
        for d in dests {
            let dest = d.folder.join(&name).ok_or_else(|| {
                Error::refused(Stage::Stage, format!("`{name}` is no folder name"))
            })?;
            let shown = opened.target.show(&dest);
            let recorded = format!("{}/{name}", d.recorded);
            let prev_files: Option<&[LockedFile]> = previous
                .filter(|p| p.installed.contains(&recorded))
                .map(|p| p.files.as_slice());
            let f = place::inspect(&opened.target, &dest, prev_files, &files)
                .map_err(|e| Error::io(Stage::Stage, &shown, e))?;
            let backups = project.state_dir().join("backup");
            match &f {
            Found::Edited(drift) if !force && prev_files.is_none() => refusals.push(format!(
                "{} already exists and skb did not install it (it holds {}): nothing was written; --force replaces it and keeps a backup in {}",
                shown.display(),
                drift.iter().map(|d| d.path.as_str()).collect::<Vec<_>>().join(", "),
                backups.display()
            )),
            Found::Edited(drift) if !force => refusals.push(format!(
                "{} has local edits ({}): nothing was written; --force replaces it and keeps a backup in {}",
                shown.display(),
                drift.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
                backups.display()
            )),
            Found::Foreign(what) if !force => refusals.push(format!(
                "{} is {what}, not a folder skb installed: nothing was written; --force replaces it and keeps a backup",
                shown.display()
            )),
            _ => {}
        }
            found.push((dest, recorded, f));
        }
        if !refusals.is_empty() {
            return Err(Error::refused(
                Stage::Stage,
                format!("skill `{name}`: {}", refusals.join("; ")),
            ));
        }
        Ok(found)
    }

    /// Stages `skill` into `dests` and records it in `lock`; what it does to
    /// the folders waits in `changes` for [`commit`].
    pub(crate) fn install(
        &mut self,
        lock: &mut Lock,
        skill: &PlanSkill,
        origin: &Origin,
        dests: &[Dest],
    ) -> Result<Action> {
        self.install_from(lock, skill, origin, dests, None)
    }

    /// [`Staging::install`], where `from` is the skill's folder in a
    /// checkout written to the scratch folder ([`crate::commit::scratch`]):
    /// the first folder written is that folder moved in, when it holds
    /// exactly the skill's files; the others are copies.
    pub(crate) fn install_from(
        &mut self,
        lock: &mut Lock,
        skill: &PlanSkill,
        origin: &Origin,
        dests: &[Dest],
        from: Option<&std::path::Path>,
    ) -> Result<Action> {
        let mut from = from
            .and_then(|p| p.strip_prefix(self.opened.state.path()).ok())
            .and_then(|p| p.to_str())
            .and_then(Rel::new);
        let name = folder_name(skill).to_string();
        let files = place::locked_files(skill);
        let previous = lock.get(&name).cloned();
        let found = self.inspect(lock, skill, dests)?;
        let contents = place::contents(skill).map_err(|e| {
            Error::new(
                Stage::Stage,
                ErrorKind::Refused,
                format!("skill `{name}`: {e}"),
            )
        })?;
        let mut wrote = false;
        for (dest, _, f) in &found {
            let backup = match f {
                Found::Same => continue,
                Found::Nothing | Found::Locked => None,
                Found::Edited(_) | Found::Foreign(_) => Some(name.clone()),
            };
            self.puts.push(Put {
                target: dest.clone(),
                files: contents.clone(),
                backup,
                from: from.take(),
            });
            wrote = true;
        }
        let mut installed: Vec<String> = found.into_iter().map(|(_, r, _)| r).collect();
        if let Some(p) = &previous {
            // Folders installed before and not asked for now stay recorded.
            installed.extend(p.installed.iter().cloned());
        }
        installed.sort();
        installed.dedup();
        let digest = skill_digest(skill);
        // Acceptances made earlier stay on record, with this one's.
        let mut accepted: Vec<String> = previous
            .iter()
            .flat_map(|p| p.accepted.iter().cloned())
            .chain(origin.accepted.iter().cloned())
            .collect();
        accepted.sort();
        accepted.dedup();
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
            origin: Some(origin.origin.clone()),
            accepted,
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

    /// Puts `changes` and `lock` in place together (see [`crate::commit`]);
    /// each replaced folder with local edits is kept as a backup, and said.
    pub(crate) fn commit(self, lock: &mut Lock, observer: &dyn Observer) -> Result<()> {
        lock.prune_listings();
        let (project, opened, changes) = (self.project, self.opened, &self);
        let at_stage = |e: std::io::Error| Error::new(Stage::Stage, kind(&e), e.to_string());
        let mut txn = Txn::begin(opened.roots()).map_err(at_stage)?;
        for put in &changes.puts {
            let backup = match &put.backup {
                Some(name) => Some(project.backup_at(opened, name)?),
                None => None,
            };
            txn.put(&put.target, &put.files, backup, put.from.as_ref())
                .map_err(at_stage)?;
        }
        for (target, backup) in &changes.removes {
            let backup: Option<At> = match backup {
                Some(name) => Some(project.backup_at(opened, name)?),
                None => None,
            };
            txn.remove(target, backup);
        }
        txn.lock(project.lock_at()?, lock.to_json().as_bytes())
            .map_err(at_stage)?;
        let kept = txn
            .commit()
            .map_err(|e| Error::new(Stage::Commit, kind(&e), e.to_string()))?;
        for k in kept {
            observer.event(Event::Note(Note::Kept {
                folder: k.folder,
                backup: k.backup,
            }));
        }
        Ok(())
    }
}

fn kind(e: &std::io::Error) -> ErrorKind {
    match e.kind() {
        std::io::ErrorKind::InvalidData => ErrorKind::Refused,
        std::io::ErrorKind::NotFound => ErrorKind::NotFound,
        _ => ErrorKind::Io,
    }
}

/// How `new` differs from `old`, file by file (both sorted by path, as
/// the lock keeps them).
pub(crate) fn changed_files(old: &[LockedFile], new: &[LockedFile]) -> Vec<Drift> {
    let mut out = Vec::new();
    for f in new {
        match find(old, &f.path) {
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
        if find(new, &o.path).is_none() {
            out.push(Drift {
                path: o.path.clone(),
                change: Change::Removed,
            });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The file at `path` in `list` (sorted by path).
fn find<'a>(list: &'a [LockedFile], path: &str) -> Option<&'a LockedFile> {
    list.binary_search_by(|f| f.path.as_str().cmp(path))
        .ok()
        .and_then(|i| list.get(i))
}

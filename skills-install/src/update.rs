//! `update`: each locked skill fetched again and checked
//! ([`crate::refetch`]), what changed staged; one commit for all.

use skills_core::lock::tree::Drift;

use crate::error::Result;
use crate::gate::Gate;
use crate::install::{self, Action, Staging};
use crate::installer::Installer;
use crate::policy::PolicyFlags;
use crate::refetch;
use crate::targets;

/// What `update` is asked.
#[derive(Debug, Clone)]
pub struct UpdateRequest {
    /// The skills to update (all when empty).
    pub names: Vec<String>,
    /// `--allow-unsigned`, `--allow-downgrade`.
    pub flags: PolicyFlags,
    /// Replace folders with local edits (kept as backups).
    pub force: bool,
    /// The security gate.
    pub gate: Gate,
    /// A profile to validate with instead of the one each skill was added
    /// with.
    pub profile: Option<String>,
}

/// What `update` did.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Updated {
    /// One per skill, in the order asked.
    pub skills: Vec<UpdatedSkill>,
}

/// One skill updated (or found unchanged).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct UpdatedSkill {
    /// Its name.
    pub name: String,
    /// The pin before, in one line.
    pub from: String,
    /// The pin after.
    pub to: String,
    /// The digest before.
    pub from_digest: String,
    /// The digest after.
    pub to_digest: String,
    /// The files that changed; empty when unchanged.
    pub changes: Vec<Drift>,
    /// Whether anything changed.
    pub updated: bool,
}

impl Installer<'_> {
    /// Updates the skills `request` names (all when none).
    pub fn update(&self, request: &UpdateRequest) -> Result<Updated> {
        let opened = self.project.open()?;
        let _guard = self.project.guard(&opened, self.observer)?;
        let mut lock = self.project.read()?;
        let names = refetch::asked(&lock, &request.names);
        // One fetch per source for every skill updated from it.
        let groups = self.groups(&lock, &names, request.profile.as_deref())?;
        let mut refetched = Vec::with_capacity(groups.len());
        for group in &groups {
            refetched.push(self.refetch(group)?);
        }
        // Pass 1: every skill's signature, version, security scan and
        // folders checked before any is staged.
        let mut changes = Staging::new(&self.project, &opened, request.force);
        let mut planned = Vec::new();
        for (group, now) in groups.iter().zip(&refetched) {
            for name in &group.names {
                let Some(locked) = lock.get(name).cloned() else {
                    continue;
                };
                let skill = refetch::find(now, name).ok_or_else(|| refetch::gone(&locked))?;
                let checked =
                    self.recheck(group, now, skill, &locked, request.flags, &request.gate)?;
                let dests = targets::locked_dests(&self.project, &locked.installed)?;
                changes.inspect(&lock, checked.skill, &dests)?;
                if let Some(listing) = checked.listing {
                    listing.keep(&mut lock, &now.whole);
                }
                planned.push((name.clone(), locked, checked.skill, checked.origin, dests));
            }
        }
        // Pass 2: stage, then one commit.
        let mut out = Updated::default();
        for (name, locked, skill, origin, dests) in planned {
            let action = changes.install(&mut lock, skill, &origin, &dests)?;
            let (updated, files) = match action {
                Action::Updated { changes } => (true, changes),
                _ => (false, Vec::new()),
            };
            out.skills.push(UpdatedSkill {
                name,
                from: locked.resolved.describe(),
                to: origin.resolved.describe(),
                from_digest: locked.digest.clone(),
                to_digest: install::skill_digest(skill),
                changes: files,
                updated,
            });
        }
        changes.commit(&mut lock, self.observer)?;
        Ok(out)
    }
}

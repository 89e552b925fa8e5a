//! `update`: fetch each locked skill's source as written again (the
//! branch's new commit, the index's newest entry, the tag's new manifest),
//! check it against the policy and the lock, scan it again, and stage what
//! changed; one commit for all.

use crate::policy::PolicyFlags;
use skills_core::lock::Resolved;
use skills_core::lock::tree::Drift;

use crate::error::{At as _, Error, Result, Stage};
use crate::fetch;
use crate::fetched::FetchOptions;
use crate::gate::Gate;
use crate::install::{self, Action, Origin, Staging};
use crate::installer::Installer;
use crate::place;
use crate::policy;
use crate::source::{self, Source};
use crate::targets;
use crate::validate;

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

/// The skills updated from one source (with one profile), fetched once.
struct Group {
    key: String,
    source: Source,
    text: String,
    names: Vec<String>,
    profile: Option<String>,
}

impl Installer<'_> {
    /// Updates the skills `request` names (all when none).
    pub fn update(&self, request: &UpdateRequest) -> Result<Updated> {
        let opened = self.project.open()?;
        let _guard = self.project.guard(&opened, self.observer)?;
        let mut lock = self.project.read()?;
        for n in &request.names {
            if lock.get(n).is_none() {
                return Err(Error::refused(
                    Stage::Lock,
                    format!(
                        "{}: no skill `{n}` is locked",
                        self.project.lock_path.display()
                    ),
                ));
            }
        }
        let names: Vec<String> = if request.names.is_empty() {
            lock.skills.iter().map(|s| s.name.clone()).collect()
        } else {
            request.names.clone()
        };
        // One fetch per source for every skill updated from it.
        let mut groups: Vec<Group> = Vec::new();
        for name in &names {
            let Some(locked) = lock.get(name) else {
                continue;
            };
            // A local folder or file is read where the lock says it is; any
            // other source as the user wrote it.
            let (key, src) = match &locked.resolved {
                Resolved::Folder { path } | Resolved::File { path, .. } => {
                    (format!("path {path}"), Source::Path(path.into()))
                }
                _ => (
                    format!("source {}", locked.source),
                    source::classify(&locked.source, &self.project.root).map_err(|e| {
                        Error::refused(Stage::Resolve, format!("skill `{name}`: {e}"))
                    })?,
                ),
            };
            let profile = request.profile.clone().or_else(|| locked.profile.clone());
            let key = format!("{key} {}", profile.as_deref().unwrap_or("spec"));
            match groups.iter_mut().find(|g| g.key == key) {
                Some(g) => g.names.push(name.clone()),
                None => groups.push(Group {
                    key,
                    source: src,
                    text: locked.source.clone(),
                    names: vec![name.clone()],
                    profile,
                }),
            }
        }
        let mut fetched_sources = Vec::new();
        for group in &groups {
            let opts = FetchOptions {
                cwd: &self.project.root,
                limits: self.validation.limits,
                trust: &self.trust,
                skills: &group.names,
                observer: self.observer,
                allow_plain_text: self.allow_plain_text,
            };
            let mut fetched = fetch::fetch(&group.source, &group.text, &opts).at(Stage::Fetch)?;
            fetched.resolved =
                fetch::rebase(fetched.resolved, &self.project.root, &self.project.root);
            let validation = self
                .validation
                .with_locked_profile(group.profile.as_deref())?;
            let plan = validate::plan(&fetched.inputs, &validation, self.observer)?;
            fetched_sources.push((fetched, plan, group));
        }
        // Pass 1: every skill's signature, version, security scan and
        // folders checked before any is staged.
        let mut changes = Staging::new(&self.project, &opened, request.force);
        let mut planned = Vec::new();
        for (fetched, plan, group) in &fetched_sources {
            let whole = std::cell::OnceCell::new();
            for name in &group.names {
                let Some(locked) = lock.get(name).cloned() else {
                    continue;
                };
                // The skill of that name outside a plugin first, as `add`
                // picks.
                let skill = plan
                    .skills
                    .iter()
                    .find(|s| &*s.meta.name == name.as_str())
                    .or_else(|| {
                        plan.skills
                            .iter()
                            .find(|s| install::folder_name(s) == *name)
                    });
                let Some(skill) = skill else {
                    return Err(Error::refused(
                        Stage::Verify,
                        format!(
                            "skill `{name}`: `{}` no longer holds it; nothing was changed",
                            locked.source
                        ),
                    ));
                };
                let origin = crate::origin::of_resolved(&fetched.resolved_for(&skill.meta.name));
                let candidate = policy::Candidate {
                    fetched,
                    plan,
                    skill,
                    source: &locked.source,
                    origin: &origin,
                    whole: &whole,
                };
                let decision =
                    policy::decide(&self.trust, &candidate, Some(&locked), request.flags)?;
                let files = place::contents(skill)
                    .map_err(|e| Error::refused(Stage::Scan, format!("skill `{name}`: {e}")))?;
                let scan = request.gate.check(
                    &locked.source,
                    &skill.meta.name,
                    &files,
                    locked.scan.as_ref().filter(|_| decision.same_origin),
                    self.observer,
                )?;
                let dests = targets::locked_dests(&self.project, &locked.installed)?;
                changes.inspect(&lock, skill, &dests)?;
                let origin = Origin {
                    source: locked.source.clone(),
                    origin,
                    accepted: decision.accepted,
                    resolved: fetched.resolved_for(&skill.meta.name),
                    signer: decision.signer,
                    unsigned: decision.unsigned,
                    profile: group.profile.clone(),
                    scan: Some(scan),
                };
                if let Some(listing) = decision.listing {
                    listing.keep(&mut lock, &whole);
                }
                planned.push((name.clone(), locked, skill, origin, dests));
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

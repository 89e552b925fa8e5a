//! `install`: restore exactly what `skb.lock` says.
//!
//! Every skill whose folders all match the lock is left alone (no fetch);
//! the others are fetched again from their pins (the commit, the digest,
//! the downloaded bytes' hash), validated, compared with the lock's digest
//! and staged. With `frozen` every source is fetched and compared, all
//! before anything is written, and any difference (a source whose content
//! changed, a folder with local edits, a lock that would change) is an
//! error with nothing written.
//!
//! Every skill fetched is scanned again before anything is written, and
//! refused on a finding at or above its gate that the lock's `scan.allowed`
//! (or an accepted finding of the request) does not accept: the lock's
//! record is kept as it is, so a finding a newer scanner reports is
//! accepted with `update`, which records it.

use std::collections::HashMap;

use skills_compiler::embed::{Plan, PlanSkill};
use skills_compiler::parallel;
use skills_core::lock::{Resolved, tree};

use crate::error::{At as _, Error, Result, Stage};
use crate::fetch;
use crate::fetched::{FetchOptions, Fetched};
use crate::gate::{self, Gate};
use crate::install::{self, Action, Origin, Staging};
use crate::installer::Installer;
use crate::place;
use crate::targets;
use crate::validate;

/// What `install` is asked.
#[derive(Debug, Clone)]
pub struct InstallRequest {
    /// Change nothing when anything differs from the lock (the CI mode).
    pub frozen: bool,
    /// Replace folders with local edits (kept as backups).
    pub force: bool,
    /// The security gate (its refusals point at `update`).
    pub gate: Gate,
}

/// What `install` did.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Restored {
    /// Skills the lock names.
    pub skills: usize,
    /// The skills restored, with the folders they are in.
    pub restored: Vec<(String, Vec<String>)>,
}

impl Installer<'_> {
    /// Restores what the lock says.
    pub fn install(&self, request: &InstallRequest) -> Result<Restored> {
        let opened = self.project.open()?;
        let _guard = self.project.guard(&opened, self.observer)?;
        if !self.project.has_lock(&opened)? {
            return Err(Error::new(
                Stage::Lock,
                crate::ErrorKind::NotFound,
                format!(
                    "{}: no lock file; `skb add SOURCE` installs skills and writes it",
                    self.project.lock_path.display()
                ),
            ));
        }
        let mut lock = self.project.read()?;
        // Every signer record re-verified, and its trust decision re-made,
        // before anything is fetched.
        let problems = crate::attestation::problems(&self.trust, &lock);
        if let Some(message) = crate::attestation::refusal(&problems, &self.project.lock_path) {
            return Err(Error::refused(Stage::Verify, message));
        }
        let before = lock.to_json();
        let gate = request.gate.restoring();
        // Pass 1: what needs fetching, fetched (once per pin: 454 skills of
        // one commit are one checkout) and checked against the lock.
        let mut fetched_pins: HashMap<String, (Fetched, Plan)> = HashMap::new();
        let mut pending = Vec::new();
        let mut changes = Staging::new(&self.project, &opened, request.force);
        let mut scratch: Option<std::path::PathBuf> = None;
        for locked in &lock.skills {
            let mut clean = true;
            for rec in &locked.installed {
                let rel = self.project.installed_rel(rec)?;
                let dir = opened.target.show(&rel);
                // A link on the way is an error here, whatever `--force`.
                let there = opened
                    .target
                    .kind(&rel)
                    .map_err(|e| Error::io(Stage::Stage, &dir, e))?;
                let drift = match there {
                    Some(crate::root::Kind::Dir) => tree::check(&dir, &locked.files)
                        .map_err(|e| Error::io(Stage::Stage, &dir, e))?,
                    None => tree::check(&dir, &locked.files)
                        .map_err(|e| Error::io(Stage::Stage, &dir, e))?,
                    Some(_) => vec![skills_core::lock::tree::Drift {
                        path: String::new(),
                        change: skills_core::lock::tree::Change::NotAFile(
                            "not a folder skb installed",
                        ),
                    }],
                };
                let missing = there.is_none();
                if !drift.is_empty() {
                    clean = false;
                    if !missing && !request.force {
                        let each: Vec<String> = drift.iter().map(ToString::to_string).collect();
                        return Err(Error::refused(
                            Stage::Stage,
                            format!(
                                "skill `{}`: {} has local edits ({}); nothing was written; --force replaces it and keeps a backup",
                                locked.name,
                                dir.display(),
                                each.join(", ")
                            ),
                        ));
                    }
                }
            }
            if clean && !request.frozen {
                continue;
            }
            // A git checkout is written on the project's file system, so
            // that staging moves its folders in instead of copying them.
            if scratch.is_none() && matches!(locked.resolved, Resolved::Git { .. }) {
                scratch = Some(changes.scratch()?);
            }
            let opts = FetchOptions {
                cwd: &self.project.root,
                limits: self.validation.limits,
                trust: &self.trust,
                skills: std::slice::from_ref(&locked.name),
                observer: self.observer,
                allow_plain_text: self.allow_plain_text,
                git_cache: self.git_cache.as_deref(),
                scratch: scratch.as_deref(),
            };
            let key = format!(
                "{} {} {}",
                locked.resolved.kind(),
                locked.resolved.describe(),
                locked.profile.as_deref().unwrap_or("spec")
            );
            if !fetched_pins.contains_key(&key) {
                let tag = locked
                    .signer
                    .as_ref()
                    .and_then(|s| s.git.as_ref())
                    .and_then(|g| g.tag.as_deref());
                let fetched = fetch::fetch_pinned(&locked.resolved, &locked.source, tag, &opts)
                    .at(Stage::Fetch)?;
                let validation = self
                    .validation
                    .with_locked_profile(locked.profile.as_deref())?;
                let plan = validate::plan(&fetched.inputs, &validation, self.observer)?;
                fetched_pins.insert(key.clone(), (fetched, plan));
            }
            let Some((fetched, plan)) = fetched_pins.get(&key) else {
                continue;
            };
            // By name and digest: a source may hold two skills that install
            // under one folder name (`x` and a plugin's `p:x`).
            let index = plan.skills.iter().position(|s| {
                install::folder_name(s) == locked.name && install::skill_digest(s) == locked.digest
            });
            let Some(index) = index.or_else(|| {
                plan.skills
                    .iter()
                    .position(|s| install::folder_name(s) == locked.name)
            }) else {
                return Err(Error::refused(
                    Stage::Verify,
                    format!(
                        "skill `{}`: `{}` ({}) no longer holds it; nothing was written",
                        locked.name,
                        locked.source,
                        locked.resolved.describe()
                    ),
                ));
            };
            // The signature the lock records, fetched again: the same one.
            if let Some(held) = &locked.signer {
                let now = fetched.signer_for(&plan.skills[index].meta.name);
                let same = now.as_ref().is_some_and(|s| {
                    if let Some(locked_bundle) = &held.sigstore {
                        // A Sigstore bundle, verified again over the bytes
                        // fetched: the very bundle the lock records.
                        return crate::signature::same_bundle(s, locked_bundle);
                    }
                    s.signer.key_id == held.key
                        && match (&held.git, &s.git) {
                            // A git signature: over the same commit, through
                            // the same tag object (a tag that moved is not).
                            (Some(locked_git), Some(now_git)) => locked_git == now_git,
                            (None, None) => {
                                skills_core::lock::attest::record(&s.text).as_ref()
                                    == held.signature.as_ref()
                            }
                            _ => false,
                        }
                });
                if !same {
                    return Err(Error::refused(
                        Stage::Verify,
                        format!(
                            "skill `{}`: `{}` ({}) no longer carries the signature the lock records (key {}{}); nothing was written",
                            locked.name,
                            locked.source,
                            locked.resolved.describe(),
                            held.key,
                            match (
                                &now,
                                held.git
                                    .as_ref()
                                    .and_then(|g| g.tag.as_ref().zip(g.tag_object.as_ref()))
                            ) {
                                (Some(s), Some((tag, object)))
                                    if s.git.as_ref().and_then(|g| g.tag_object.as_ref())
                                        != Some(object) =>
                                    format!(
                                        "; tag `{tag}` no longer is the signed tag object {object} over the locked commit: it moved or was removed{}",
                                        if s.signer.key_id == held.key {
                                            String::new()
                                        } else {
                                            format!(
                                                "; what is there is signed by key {}",
                                                s.signer.key_id
                                            )
                                        }
                                    ),
                                (None, Some((tag, object))) => format!(
                                    "; tag `{tag}` no longer is the signed tag object {object} over the locked commit, and the commit is not signed"
                                ),
                                (Some(s), _) =>
                                    format!("; it is signed by key {} now", s.signer.key_id),
                                (None, None) => "; it is not signed now".to_string(),
                            }
                        ),
                    ));
                }
            }
            pending.push((locked.name.clone(), key, index, clean));
        }
        // Every skill fetched scanned, on all cores (the scan is most of an
        // install's CPU time), then judged in the lock's order.
        let planned: Vec<Option<&PlanSkill>> = pending
            .iter()
            .map(|(_, key, index, _)| fetched_pins.get(key)?.1.skills.get(*index))
            .collect();
        let scanned = parallel::map(&planned, 0, |skill| {
            skill.map(|s| place::contents(s).map(|files| gate::scan(&files)))
        });
        for ((name, _, _, _), (skill, report)) in pending.iter().zip(planned.iter().zip(scanned)) {
            // Every pending skill was fetched and planned above; one that
            // is not is refused, never passed over unscanned.
            let (Some(locked), Some(skill), Some(report)) = (lock.get(name), skill, report) else {
                return Err(Error::refused(
                    Stage::Scan,
                    format!("skill `{name}`: not fetched, so not scanned"),
                ));
            };
            // Judged first: a source that changed to carry an attack is
            // named for the attack.
            let report = report.map_err(|e| {
                Error::refused(Stage::Scan, format!("skill `{}`: {e}", locked.name))
            })?;
            gate.judge(
                &locked.source,
                &locked.name,
                &report,
                locked.scan.as_ref(),
                self.observer,
            )?;
            let digest = install::skill_digest(skill);
            if digest != locked.digest {
                return Err(Error::refused(
                    Stage::Verify,
                    format!(
                        "skill `{}`: `{}` ({}) now gives {digest}, the lock says {}; nothing was written (`skb update {}` takes the new content)",
                        locked.name,
                        locked.source,
                        locked.resolved.describe(),
                        locked.digest,
                        locked.name
                    ),
                ));
            }
        }
        // Pass 2: stage.
        let mut restored = Vec::new();
        for (name, key, index, clean) in &pending {
            let (Some(locked), Some((fetched, plan))) =
                (lock.get(name).cloned(), fetched_pins.get(key))
            else {
                continue;
            };
            if *clean {
                continue;
            }
            let origin = Origin {
                source: locked.source.clone(),
                origin: locked
                    .origin
                    .clone()
                    .unwrap_or_else(|| crate::origin::of_resolved(&locked.resolved)),
                accepted: Vec::new(),
                resolved: locked.resolved.clone(),
                signer: locked.signer.clone(),
                unsigned: locked.unsigned.clone(),
                profile: locked.profile.clone(),
                scan: locked.scan.clone(),
            };
            let dests = targets::locked_dests(&self.project, &locked.installed)?;
            let skill = &plan.skills[*index];
            let from = fetched
                .checkout
                .as_ref()
                .map(|root| match &*skill.source_dir {
                    "." => root.clone(),
                    dir => root.join(dir),
                });
            let action =
                changes.install_from(&mut lock, skill, &origin, &dests, from.as_deref())?;
            if action != Action::Unchanged {
                restored.push((name.clone(), locked.installed.clone()));
            }
        }
        let after = lock.to_json();
        if after != before && request.frozen {
            return Err(Error::refused(
                Stage::Stage,
                format!(
                    "{}: would change (--frozen); nothing was written",
                    self.project.lock_path.display()
                ),
            ));
        }
        if after != before || !changes.is_empty() {
            changes.commit(&mut lock, self.observer)?;
        }
        Ok(Restored {
            skills: lock.skills.len(),
            restored,
        })
    }
}

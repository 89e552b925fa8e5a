//! `outdated`: what `update` would do, without doing it. Each locked skill is
//! fetched again and checked exactly as `update` checks it
//! ([`crate::refetch`]: the trust policy against its record, the security
//! gate), and reported as current, outdated (with the new pin, its signer
//! and the files that would change), refused (a newer version exists that
//! the policy or the gate does not allow) or unchecked (its source could
//! not be read). Nothing is written: no guard is taken, no folder or lock
//! is touched; fetching uses temporary folders outside the project, as
//! `update` does.
//!
//! A skill from a well-known index whose entry is still the one locked (the
//! same URL and artifact digest) is current without its artifact being
//! downloaded: only the index is read (`Installer::unchanged_in_index`).
//! That the installed copy's signer is still trusted is `verify
//! --installed`'s question, as for any current skill.

use skills_core::lock::tree::Drift;

use crate::error::{Error, ErrorKind, Result, Stage};
use crate::gate::Gate;
use crate::install::{self, changed_files};
use crate::installer::Installer;
use crate::place;
use crate::policy::PolicyFlags;
use crate::refetch;

/// What `outdated` is asked.
#[derive(Debug, Clone)]
pub struct OutdatedRequest {
    /// The skills to check (all locked ones when empty).
    pub names: Vec<String>,
    /// `--allow-unsigned`, `--allow-downgrade`: as `update` would be run.
    pub flags: PolicyFlags,
    /// The security gate `update` would apply.
    pub gate: Gate,
    /// A profile to validate with instead of the one each skill was added
    /// with.
    pub profile: Option<String>,
}

/// What `outdated` found, one entry per skill in the order asked.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Outdated {
    /// One per skill.
    pub skills: Vec<OutdatedSkill>,
}

impl Outdated {
    /// Whether every skill is current.
    pub fn is_current(&self) -> bool {
        self.skills
            .iter()
            .all(|s| matches!(s.status, Status::Current))
    }

    /// Whether some skill could not be checked.
    pub fn has_unchecked(&self) -> bool {
        self.skills
            .iter()
            .any(|s| matches!(s.status, Status::Unchecked { .. }))
    }
}

/// One locked skill, checked.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct OutdatedSkill {
    /// Its name.
    pub name: String,
    /// Its pin now, in one line.
    pub from: String,
    /// Its digest now.
    pub from_digest: String,
    /// What its source gives.
    pub status: Status,
}

/// What a locked skill's source gives now.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Status {
    /// The same content (the pin may have moved: a new commit that changes
    /// nothing of the skill).
    Current,
    /// A newer version that `update` would install.
    Outdated {
        /// The new pin, in one line.
        to: String,
        /// The new digest.
        to_digest: String,
        /// The id of the key that signed it, when signed: minisign's, or an
        /// SSH or OpenPGP key's for a git source.
        signer: Option<String>,
        /// Why it would be installed unsigned (the flag or the local
        /// source), when not signed.
        unsigned: Option<String>,
        /// The files that would change.
        changes: Vec<Drift>,
    },
    /// Its source gives something `update` would refuse: a signature,
    /// version or publisher the policy does not allow, or findings at or
    /// above the gate.
    Refused {
        /// Why, as `update` would say it.
        reason: String,
    },
    /// Its source could not be read or no longer holds it.
    Unchecked {
        /// Why.
        reason: String,
    },
}

impl Status {
    /// The status's stable name in machine-readable output.
    pub fn kind(&self) -> &'static str {
        match self {
            Status::Current => "current",
            Status::Outdated { .. } => "outdated",
            Status::Refused { .. } => "refused",
            Status::Unchecked { .. } => "unchecked",
        }
    }
}

impl Installer<'_> {
    /// Checks the skills `request` names (all locked ones when none)
    /// against their sources, writing nothing.
    pub fn outdated(&self, request: &OutdatedRequest) -> Result<Outdated> {
        // A half-applied transaction leaves a lock that is not what the
        // folders hold: say so rather than report on it (the next command
        // that changes the project finishes or undoes it).
        if self.project.interrupted()? {
            return Err(Error::new(
                Stage::Lock,
                ErrorKind::Refused,
                "an interrupted skb command left a transaction; run `skb install` (or any command that changes the project) to finish or undo it first",
            ));
        }
        let lock = self.project.read()?;
        let names = refetch::asked(&lock, &request.names);
        let groups = self.groups(&lock, &names, request.profile.as_deref())?;
        let mut out = Outdated::default();
        for whole in &groups {
            // What an index still lists as locked needs no download.
            let unchanged = self.unchanged_in_index(whole, &lock);
            for name in &unchanged {
                if let Some(locked) = lock.get(name) {
                    out.skills.push(OutdatedSkill {
                        name: name.clone(),
                        from: locked.resolved.describe(),
                        from_digest: locked.digest.clone(),
                        status: Status::Current,
                    });
                }
            }
            let rest: Vec<String> = whole
                .names
                .iter()
                .filter(|n| !unchanged.contains(n))
                .cloned()
                .collect();
            if rest.is_empty() {
                continue;
            }
            let group = &whole.only(rest);
            let now = self.refetch(group);
            for name in &group.names {
                let Some(locked) = lock.get(name) else {
                    continue;
                };
                let status = match &now {
                    Err(e) => failed(e),
                    Ok(now) => match refetch::find(now, name) {
                        None => Status::Unchecked {
                            reason: refetch::gone(locked).to_string(),
                        },
                        Some(skill) => {
                            let digest = install::skill_digest(skill);
                            match self.recheck(
                                group,
                                now,
                                skill,
                                locked,
                                request.flags,
                                &request.gate,
                            ) {
                                Err(e) => failed(&e),
                                Ok(_) if digest == locked.digest => Status::Current,
                                Ok(checked) => Status::Outdated {
                                    to: checked.origin.resolved.describe(),
                                    to_digest: digest,
                                    signer: checked.origin.signer.map(|s| s.key),
                                    unsigned: checked.origin.unsigned,
                                    changes: changed_files(
                                        &locked.files,
                                        &place::locked_files(skill),
                                    ),
                                },
                            }
                        }
                    },
                };
                out.skills.push(OutdatedSkill {
                    name: name.clone(),
                    from: locked.resolved.describe(),
                    from_digest: locked.digest.clone(),
                    status,
                });
            }
        }
        // In the order asked, whatever the grouping by source.
        out.skills.sort_by_key(|s| {
            names
                .iter()
                .position(|n| *n == s.name)
                .unwrap_or(usize::MAX)
        });
        Ok(out)
    }
}

/// A skill that could not be brought to a decision: refused where `update`
/// would refuse it (validation, the trust policy, the gate), unchecked
/// where its source could not be read.
fn failed(e: &Error) -> Status {
    let reason = e.to_string();
    match e.stage() {
        Stage::Verify | Stage::Scan => Status::Refused { reason },
        _ => Status::Unchecked { reason },
    }
}

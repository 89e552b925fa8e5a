//! Locked skills fetched again from their sources as written (a branch's
//! new commit, an index's newest entry, a tag's new manifest) and checked
//! as `add` checks a skill: found in what was fetched, allowed by the trust
//! policy against the locked record, through the security gate. One path
//! for `update`, which stages what passes, and `outdated`, which only
//! reports it.

use std::cell::OnceCell;

use skills_compiler::embed::{Plan, PlanSkill};
use skills_core::lock::{Lock, LockedSkill, Resolved};

use crate::error::{At as _, Error, Result, Stage};
use crate::fetch;
use crate::fetched::{FetchOptions, Fetched};
use crate::gate::Gate;
use crate::install::{self, Origin};
use crate::installer::Installer;
use crate::place;
use crate::policy::{self, Listing, PolicyFlags};
use crate::remote;
use crate::source::{self, Source};
use crate::validate;

/// The locked skills read from one source with one profile: fetched once
/// for all of them.
pub(crate) struct Group {
    key: String,
    source: Source,
    /// The source as the lock has it.
    pub(crate) text: String,
    /// The skills' names, in the order asked.
    pub(crate) names: Vec<String>,
    /// The profile they are validated with.
    pub(crate) profile: Option<String>,
}

impl Group {
    /// The same source and profile, for `names` only.
    pub(crate) fn only(&self, names: Vec<String>) -> Group {
        Group {
            key: self.key.clone(),
            source: self.source.clone(),
            text: self.text.clone(),
            names,
            profile: self.profile.clone(),
        }
    }
}

/// A group's source as fetched now, validated.
pub(crate) struct Refetched {
    pub(crate) fetched: Fetched,
    pub(crate) plan: Plan,
    /// The listing of the whole plan, made once for all its skills.
    pub(crate) whole: OnceCell<(String, Vec<String>)>,
}

/// One locked skill as its source gives it now, allowed by the policy and
/// the gate.
pub(crate) struct Rechecked<'a> {
    /// The skill, in the fetched plan.
    pub(crate) skill: &'a PlanSkill,
    /// What the lock would record for it.
    pub(crate) origin: Origin,
    /// The listing a signature covers, for the lock to keep.
    pub(crate) listing: Option<Listing>,
}

impl Installer<'_> {
    /// The locked skills named (`names`, each checked to be locked), grouped
    /// by source and profile. A local folder or file is read where the lock
    /// says it is; any other source as the user wrote it. `profile`
    /// replaces the one each skill was added with.
    pub(crate) fn groups(
        &self,
        lock: &Lock,
        names: &[String],
        profile: Option<&str>,
    ) -> Result<Vec<Group>> {
        let mut groups: Vec<Group> = Vec::new();
        for name in names {
            let Some(locked) = lock.get(name) else {
                return Err(Error::refused(
                    Stage::Lock,
                    format!(
                        "{}: no skill `{name}` is locked",
                        self.project.lock_path.display()
                    ),
                ));
            };
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
            let profile = profile
                .map(str::to_string)
                .or_else(|| locked.profile.clone());
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
        Ok(groups)
    }

    fn fetch_options<'a>(&'a self, group: &'a Group) -> FetchOptions<'a> {
        FetchOptions {
            cwd: &self.project.root,
            limits: self.validation.limits,
            trust: &self.trust,
            skills: &group.names,
            observer: self.observer,
            allow_plain_text: self.allow_plain_text,
            git_cache: self.git_cache.as_deref(),
            scratch: None,
        }
    }

    /// The skills of `group` that a well-known index still lists exactly as
    /// they were locked: the same index, the same entry URL and the same
    /// artifact digest, so the same bytes the lock's files came from and
    /// nothing for `update` to install. They are known current without
    /// downloading them (only the index is read). None for any other
    /// source; an index that cannot be read leaves every skill to the full
    /// check, which then says why.
    pub(crate) fn unchanged_in_index(&self, group: &Group, lock: &Lock) -> Vec<String> {
        let Source::Index(site) = &group.source else {
            return Vec::new();
        };
        let Ok((url, index)) = remote::read_index(site, &self.fetch_options(group)) else {
            return Vec::new();
        };
        group
            .names
            .iter()
            .filter(|name| {
                let Some(Resolved::Index {
                    url: locked_url,
                    entry: locked_entry,
                    sha256,
                    ..
                }) = lock.get(name).map(|l| &l.resolved)
                else {
                    return false;
                };
                let mut listed = index.skills.iter().filter(|e| &e.name == *name);
                match (listed.next(), listed.next()) {
                    (Some(entry), None) => {
                        *locked_url == url
                            && skills_supply::index::entry_url(&url, entry).ok().as_ref()
                                == Some(locked_entry)
                            && entry.digest.strip_prefix("sha256:") == Some(sha256.as_str())
                    }
                    _ => false,
                }
            })
            .cloned()
            .collect()
    }

    /// Fetches `group`'s source and validates what it holds.
    pub(crate) fn refetch(&self, group: &Group) -> Result<Refetched> {
        let opts = self.fetch_options(group);
        let mut fetched = fetch::fetch(&group.source, &group.text, &opts).at(Stage::Fetch)?;
        fetched.resolved = fetch::rebase(fetched.resolved, &self.project.root, &self.project.root);
        let validation = self
            .validation
            .with_locked_profile(group.profile.as_deref())?;
        let plan = validate::plan(&fetched.inputs, &validation, self.observer)?;
        Ok(Refetched {
            fetched,
            plan,
            whole: OnceCell::new(),
        })
    }

    /// `skill`, what `now` holds of `locked` ([`find`]), decided by the
    /// trust policy against the locked record and scanned by `gate`.
    pub(crate) fn recheck<'a>(
        &self,
        group: &Group,
        now: &'a Refetched,
        skill: &'a PlanSkill,
        locked: &LockedSkill,
        flags: PolicyFlags,
        gate: &Gate,
    ) -> Result<Rechecked<'a>> {
        let name = &locked.name;
        let resolved = now.fetched.resolved_for(&skill.meta.name);
        let origin = crate::origin::of_resolved(&resolved);
        let candidate = policy::Candidate {
            fetched: &now.fetched,
            plan: &now.plan,
            skill,
            source: &locked.source,
            origin: &origin,
            whole: &now.whole,
        };
        let decision = policy::decide(&self.trust, &candidate, Some(locked), flags)?;
        let files = place::contents(skill)
            .map_err(|e| Error::refused(Stage::Scan, format!("skill `{name}`: {e}")))?;
        let scan = gate.check(
            &locked.source,
            &skill.meta.name,
            &files,
            locked.scan.as_ref().filter(|_| decision.same_origin),
            self.observer,
        )?;
        Ok(Rechecked {
            skill,
            origin: Origin {
                source: locked.source.clone(),
                origin,
                accepted: decision.accepted,
                resolved,
                signer: decision.signer,
                unsigned: decision.unsigned,
                profile: group.profile.clone(),
                scan: Some(scan),
            },
            listing: decision.listing,
        })
    }
}

/// The skills a command is asked about: `names`, or every locked skill, in
/// the lock's order, when none is named.
pub(crate) fn asked(lock: &Lock, names: &[String]) -> Vec<String> {
    if names.is_empty() {
        lock.skills.iter().map(|s| s.name.clone()).collect()
    } else {
        names.to_vec()
    }
}

/// What `now` holds of the locked skill `name`: the skill of that name
/// outside a plugin first, as `add` picks.
pub(crate) fn find<'a>(now: &'a Refetched, name: &str) -> Option<&'a PlanSkill> {
    let skills = &now.plan.skills;
    skills
        .iter()
        .find(|s| &*s.meta.name == name)
        .or_else(|| skills.iter().find(|s| install::folder_name(s) == name))
}

/// The refusal when a source no longer holds a locked skill.
pub(crate) fn gone(locked: &LockedSkill) -> Error {
    Error::refused(
        Stage::Verify,
        format!(
            "skill `{}`: `{}` no longer holds it; nothing was changed",
            locked.name, locked.source
        ),
    )
}

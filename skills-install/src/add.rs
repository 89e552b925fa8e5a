//! `add`: fetch a source, validate it, check each skill's signature against
//! the policy and the lock, scan it, stage it into the clients' folders and
//! commit it with the lock.

use std::path::Path;

use crate::policy::PolicyFlags;
use skills_compiler::embed::{Plan, PlanSkill};
use skills_core::client::InstallTarget;
use skills_core::lock::Lock;

use crate::clients::{self, Note as ClientNote};
use crate::error::{At as _, Error, ErrorKind, Result, Stage};
use crate::fetch;
use crate::fetched::{FetchOptions, Fetched};
use crate::gate::Gate;
use crate::install::{self, Action, Origin, Staging};
use crate::installer::Installer;
use crate::observe::{Event, Note};
use crate::place;
use crate::policy;
use crate::source::{self, Source};
use crate::targets::{self, Dest};
use crate::validate;

/// What to add.
#[derive(Debug, Clone)]
pub struct AddRequest {
    /// The source as written (a path, a URL, `owner/repo`, `oci://…`).
    pub source: String,
    /// The skills asked for (all when empty).
    pub skills: Vec<String>,
    /// The clients to install for (default: the clients whose folders the
    /// project has, else Claude Code and Codex).
    pub clients: Vec<&'static InstallTarget>,
    /// Folders no client table names (`--dir`), as typed: relative to the
    /// project (in the user's scope, to the home folder, or `~/…`), or
    /// absolute inside it. With folders and no clients, only the folders.
    pub dirs: Vec<String>,
    /// `--allow-unsigned`, `--allow-downgrade`.
    pub flags: PolicyFlags,
    /// Replace folders with local edits (kept as backups).
    pub force: bool,
    /// The security gate.
    pub gate: Gate,
}

impl AddRequest {
    /// Every skill of `source`, for the default clients, under the default
    /// policy and gate.
    pub fn new(source: &str) -> AddRequest {
        AddRequest {
            source: source.to_string(),
            skills: Vec::new(),
            clients: Vec::new(),
            dirs: Vec::new(),
            flags: PolicyFlags::default(),
            force: false,
            gate: Gate::new(None, Vec::new()),
        }
    }
}

/// What `add` did.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Added {
    /// One per skill, by name.
    pub skills: Vec<AddedSkill>,
    /// What clients would do differently with them.
    pub notes: Vec<ClientNote>,
}

/// One skill added.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AddedSkill {
    /// Its folder name.
    pub name: String,
    /// What happened.
    pub action: Action,
    /// The folders it is in, as the lock records them.
    pub installed: Vec<String>,
    /// Its digest, `sha256:<hex>`.
    pub digest: String,
}

/// One skill a source holds (`add --list`).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Listed {
    /// Its name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its digest, `sha256:<hex>`.
    pub digest: String,
}

impl Installer<'_> {
    /// Adds what `request` asks for.
    pub fn add(&self, request: &AddRequest) -> Result<Added> {
        let opened = self.project.open()?;
        let _guard = self.project.guard(&opened, self.observer)?;
        let mut lock = self.project.read()?;
        let dests = targets::dests(&self.project, &opened, &request.clients, &request.dirs)?;
        let mut changes = Staging::new(&self.project, &opened, request.force);
        let added = self.add_into(&mut lock, request, &dests, &self.cwd, &mut changes)?;
        changes.commit(&mut lock, self.observer)?;
        Ok(added)
    }

    /// What `source` holds (the skills `skills` names, or all), fetched
    /// and validated; nothing is written.
    pub fn list_source(&self, source: &str, skills: &[String]) -> Result<Vec<Listed>> {
        let (_fetched, plan, wanted) = self.fetch_and_plan(source, skills, &self.cwd, None)?;
        Ok(select(&plan, &wanted, source)?
            .into_iter()
            .map(|s| Listed {
                name: s.meta.name.to_string(),
                description: s.meta.description.to_string(),
                digest: install::skill_digest(s),
            })
            .collect())
    }

    /// Fetches and validates `source`; a git checkout goes to the scratch
    /// folder of `changes`, when given, so that they can move its folders.
    fn fetch_and_plan(
        &self,
        source: &str,
        skills: &[String],
        cwd: &Path,
        changes: Option<&Staging<'_>>,
    ) -> Result<(Fetched, Plan, Vec<String>)> {
        let src = source::classify(source, cwd)
            .map_err(|e| Error::new(Stage::Resolve, ErrorKind::Usage, e.to_string()))?;
        let scratch = match (&src, changes) {
            (Source::Git { .. }, Some(changes)) => Some(changes.scratch()?),
            _ => None,
        };
        let mut wanted = skills.to_vec();
        if let Source::Git {
            skill: Some(skill), ..
        } = &src
        {
            wanted.push(skill.clone());
        }
        let fetched = fetch::fetch(
            &src,
            source,
            &FetchOptions {
                cwd,
                limits: self.validation.limits,
                trust: &self.trust,
                skills: &wanted,
                observer: self.observer,
                allow_plain_text: self.allow_plain_text,
                git_cache: self.git_cache.as_deref(),
                scratch: scratch.as_deref(),
            },
        )
        .at(Stage::Fetch)?;
        let plan = validate::plan(&fetched.inputs, &self.validation, self.observer)?;
        Ok((fetched, plan, wanted))
    }

    /// Adds the skills `request` asks for (relative paths read from `cwd`)
    /// into `lock` and `changes`; the caller holds the guard and commits.
    pub(crate) fn add_into(
        &self,
        lock: &mut Lock,
        request: &AddRequest,
        dests: &[Dest],
        cwd: &Path,
        changes: &mut Staging<'_>,
    ) -> Result<Added> {
        let (mut fetched, plan, wanted) =
            self.fetch_and_plan(&request.source, &request.skills, cwd, Some(changes))?;
        fetched.resolved = fetch::rebase(fetched.resolved, cwd, &self.project.root);
        let mut chosen = select(&plan, &wanted, &request.source)?;
        chosen.sort_by(|a, b| a.meta.name.cmp(&b.meta.name));
        // Two skills that would land in one folder (`x` and a plugin's `p:x`).
        for (i, a) in chosen.iter().enumerate() {
            if let Some(b) = chosen[i + 1..]
                .iter()
                .find(|b| install::folder_name(b) == install::folder_name(a))
            {
                return Err(Error::new(
                    Stage::Verify,
                    ErrorKind::Usage,
                    format!(
                        "`{}` holds `{}` and `{}`, which would both install as `{}`; pick one with --skill",
                        request.source,
                        a.meta.name,
                        b.meta.name,
                        install::folder_name(a)
                    ),
                ));
            }
        }
        // Every skill's signature and version checked before any is staged.
        let mut decided = Vec::new();
        let whole = std::cell::OnceCell::new();
        for skill in &chosen {
            let name = install::folder_name(skill);
            let origin = crate::origin::of_resolved(&fetched.resolved_for(&skill.meta.name));
            let candidate = policy::Candidate {
                fetched: &fetched,
                plan: &plan,
                skill,
                source: &request.source,
                origin: &origin,
                whole: &whole,
            };
            decided.push((
                policy::decide(&self.trust, &candidate, lock.get(name), request.flags)?,
                origin,
            ));
        }
        // Every skill scanned, over the bytes to be written, before any is
        // staged.
        let mut scans = Vec::new();
        for (skill, (decision, _)) in chosen.iter().zip(&decided) {
            let name = install::folder_name(skill);
            let files = place::contents(skill)
                .map_err(|e| Error::refused(Stage::Scan, format!("skill `{name}`: {e}")))?;
            scans.push(
                request.gate.check(
                    &request.source,
                    &skill.meta.name,
                    &files,
                    // Acceptances recorded for another origin do not travel.
                    lock.get(name)
                        .filter(|_| decision.same_origin)
                        .and_then(|l| l.scan.as_ref()),
                    self.observer,
                )?,
            );
        }
        // Every target folder checked (local edits, folders skb did not
        // install, links) before any skill is staged.
        for skill in &chosen {
            changes.inspect(lock, skill, dests)?;
        }
        // What each client would do with them, said before anything is
        // written.
        let targets: Vec<_> = dests
            .iter()
            .flat_map(|d| d.targets.iter().copied())
            .collect();
        let notes = clients::notes(&fetched.inputs, &self.validation.options, &chosen, &targets);
        for n in &notes {
            self.observer.event(Event::Note(Note::Client {
                client: n.client,
                skill: n.skill.clone(),
                note: n.note.clone(),
            }));
        }
        let mut added = Added {
            notes,
            ..Added::default()
        };
        for ((skill, (decision, origin)), scan) in chosen.iter().zip(decided).zip(scans) {
            if let Some(listing) = decision.listing {
                listing.keep(lock, &whole);
            }
            let origin = Origin {
                source: request.source.clone(),
                origin,
                accepted: decision.accepted,
                resolved: fetched.resolved_for(&skill.meta.name),
                signer: decision.signer,
                unsigned: decision.unsigned,
                profile: self.validation.locked_profile(),
                scan: Some(scan),
            };
            let from = fetched
                .checkout
                .as_ref()
                .map(|root| match &*skill.source_dir {
                    "." => root.clone(),
                    dir => root.join(dir),
                });
            let action = changes.install_from(lock, skill, &origin, dests, from.as_deref())?;
            let name = install::folder_name(skill);
            added.skills.push(AddedSkill {
                name: name.to_string(),
                action,
                installed: dests
                    .iter()
                    .map(|d| format!("{}/{name}", d.recorded))
                    .collect(),
                digest: install::skill_digest(skill),
            });
        }
        // The checkout lives until the commit has moved its folders.
        changes.keep(fetched.inputs);
        Ok(added)
    }
}

/// The skills of `plan` that `names` asks for (all when empty); an unknown
/// name is an error listing what the source holds.
fn select<'a>(plan: &'a Plan, names: &[String], source: &str) -> Result<Vec<&'a PlanSkill>> {
    if names.is_empty() {
        return Ok(plan.skills.iter().collect());
    }
    let mut out = Vec::new();
    for n in names {
        match plan
            .skills
            .iter()
            .find(|s| &*s.meta.name == n || install::folder_name(s) == n)
        {
            Some(s) => out.push(s),
            None => {
                let have: Vec<&str> = plan.skills.iter().map(|s| &*s.meta.name).collect();
                return Err(Error::new(
                    Stage::Verify,
                    ErrorKind::NotFound,
                    format!(
                        "`{source}` has no skill `{n}` (it has: {})",
                        have.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(out)
}

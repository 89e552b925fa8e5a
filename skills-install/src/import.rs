//! `import`: what Vercel's `npx skills` installed, taken over by
//! `skb.lock`.
//!
//! Each skill of `skills-lock.json` is first checked against its
//! `computedHash` where it is installed (a folder edited since is refused
//! unless forced), then added from its source as `add` would (the
//! same validation, trust policy and per-client report) into the folders
//! it is installed in. `skills-lock.json` is not touched: `npx skills` goes
//! on working on the project, and `skb verify --installed` checks both.

use crate::policy::PolicyFlags;
use skills_core::client::{INSTALL_TARGETS, InstallTarget};
use skills_supply::vercel::{self, State, VercelSkill};

use crate::add::{AddRequest, AddedSkill};
use crate::error::{Error, Result, Stage};
use crate::gate::Gate;
use crate::install::Staging;
use crate::installer::Installer;
use crate::root::{Kind, Rel};
use crate::targets;

/// The `skb add` source of a Vercel lock entry, or why there is none.
fn source_of(skill: &VercelSkill) -> Result<String, String> {
    let with_ref = |base: &str| match &skill.git_ref {
        Some(r) if !r.is_empty() => format!("{base}#{r}"),
        _ => base.to_string(),
    };
    match skill.source_type.as_str() {
        "local" => Ok(skill.source.clone()),
        "github" => Ok(with_ref(&skill.source)),
        "gitlab" | "git" => Ok(with_ref(
            skill.source_url.as_deref().unwrap_or(&skill.source),
        )),
        "well-known" => skill
            .source_url
            .clone()
            .ok_or_else(|| "a well-known source without its URL".to_string()),
        other => Err(format!("source type `{other}` is not one skb fetches")),
    }
}

/// What `import` is asked.
#[derive(Debug, Clone)]
pub struct ImportRequest {
    /// `--allow-unsigned`, `--allow-downgrade`.
    pub flags: PolicyFlags,
    /// Replace folders that differ from what their source gives now (kept
    /// as backups), and Vercel's links with copies.
    pub force: bool,
    /// The security gate.
    pub gate: Gate,
}

/// What `import` did.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Imported {
    /// One per skill imported.
    pub skills: Vec<AddedSkill>,
    /// How many skills Vercel's lock names.
    pub count: usize,
}

impl Installer<'_> {
    /// Imports what `skills-lock.json` records.
    pub fn import(&self, request: &ImportRequest) -> Result<Imported> {
        let path = self.project.root.join(vercel::LOCK_FILE);
        let vlock = vercel::read(&path)
            .map_err(|e| Error::refused(Stage::Lock, format!("{}: {e}", path.display())))?;
        let findings = vercel::verify(&self.project.root, &vlock);
        let opened = self.project.open()?;
        let _guard = self.project.guard(&opened, self.observer)?;
        let mut lock = self.project.read()?;
        // Everything checked before anything is fetched or written.
        let mut requests = Vec::new();
        for skill in &vlock.skills {
            let source = source_of(skill).map_err(|why| {
                Error::refused(Stage::Resolve, format!("skill `{}`: {why}", skill.name))
            })?;
            let edited: Vec<String> = findings
                .iter()
                .filter(|f| f.skill == skill.name && matches!(f.state, State::Differs { .. }))
                .map(|f| f.folder.display().to_string())
                .collect();
            if !edited.is_empty() && !request.force {
                return Err(Error::refused(
                    Stage::Stage,
                    format!(
                        "skill `{}`: {} differ{} from {}'s computedHash (edited since `npx skills` installed it); nothing was imported; --force imports it from its source and keeps the edited folders in .skb/backup",
                        skill.name,
                        edited.join(", "),
                        if edited.len() == 1 { "s" } else { "" },
                        vercel::LOCK_FILE
                    ),
                ));
            }
            let folder = vercel::install_name(&skill.name);
            let here: Vec<&'static InstallTarget> = INSTALL_TARGETS
                .iter()
                .filter(|t| {
                    Rel::new(t.project)
                        .and_then(|p| p.join(&folder))
                        .and_then(|r| opened.target.kind(&r).ok().flatten())
                        .is_some_and(|k| k != Kind::Other)
                })
                .collect();
            requests.push((skill, source, here));
        }
        let mut out = Imported {
            count: requests.len(),
            ..Imported::default()
        };
        for (skill, source, here) in &requests {
            let add = AddRequest {
                source: source.clone(),
                skills: vec![skill.name.clone()],
                clients: here.clone(),
                dirs: Vec::new(),
                flags: request.flags,
                force: request.force,
                gate: request.gate.clone(),
            };
            let dests = targets::dests(&self.project, &opened, here, &[])?;
            let mut changes = Staging::new(&self.project, &opened, request.force);
            let added = self.add_into(&mut lock, &add, &dests, &self.project.root, &mut changes)?;
            // Committed as soon as it is staged: a later skill's failure
            // leaves the lock naming exactly what is in place.
            changes.commit(&mut lock, self.observer)?;
            out.skills.extend(added.skills);
        }
        Ok(out)
    }
}

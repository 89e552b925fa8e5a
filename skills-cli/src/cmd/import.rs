//! `skb import`: what Vercel's `npx skills` installed, taken over by
//! `skb.lock`.
//!
//! Each skill of `skills-lock.json` is first checked against its
//! `computedHash` where it is installed (a folder edited since is refused
//! unless `--force`), then added from its source as `skb add` would (the
//! same validation, trust policy and per-client report) into the folders
//! it is installed in. `skills-lock.json` is not touched: `npx skills` goes
//! on working on the project, and `skb verify --installed` checks both.

use std::io;

use serde_json::json;
use skills_core::client::{INSTALL_TARGETS, InstallTarget};
use skills_supply::trust::PolicyFlags;
use skills_supply::vercel::{self, State, VercelSkill};

use crate::Outcome;
use crate::args::ImportArgs;
use crate::cmd::add::{self, Request};
use crate::supply::gate::Gate;
use crate::supply::project::invalid;
use crate::supply::session;

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

/// Runs `skb import`.
pub fn run(args: &ImportArgs) -> io::Result<Outcome> {
    let project = session::project(&args.project)?;
    let path = project.root.join(vercel::LOCK_FILE);
    let vlock = vercel::read(&path).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let findings = vercel::verify(&project.root, &vlock);
    let trust = session::trust(&project, &args.policy)?;
    let _guard = project.lock()?;
    let mut lock = project.read_lock()?;
    let mut lines = Vec::new();
    let mut results = Vec::new();
    // Everything checked before anything is fetched or written.
    let mut requests = Vec::new();
    for skill in &vlock.skills {
        let source =
            source_of(skill).map_err(|why| invalid(format!("skill `{}`: {why}", skill.name)))?;
        let edited: Vec<String> = findings
            .iter()
            .filter(|f| f.skill == skill.name && matches!(f.state, State::Differs { .. }))
            .map(|f| f.folder.display().to_string())
            .collect();
        if !edited.is_empty() && !args.force {
            return Err(invalid(format!(
                "skill `{}`: {} differ{} from {}'s computedHash (edited since `npx skills` installed it); nothing was imported; --force imports it from its source and keeps the edited folders in .skb/backup",
                skill.name,
                edited.join(", "),
                if edited.len() == 1 { "s" } else { "" },
                vercel::LOCK_FILE
            )));
        }
        let folder = vercel::install_name(&skill.name);
        let here: Vec<&'static InstallTarget> = INSTALL_TARGETS
            .iter()
            .filter(|t| {
                std::fs::symlink_metadata(project.root.join(t.project).join(&folder)).is_ok()
            })
            .collect();
        requests.push((skill, source, here));
    }
    for (skill, source, here) in &requests {
        let request = Request {
            source,
            skills: vec![skill.name.clone()],
            dests: session::dests(&project, here)?,
            flags: PolicyFlags {
                allow_unsigned: args.policy.allow_unsigned,
                allow_downgrade: args.policy.allow_downgrade,
            },
            force: args.force,
            gate: Gate::new(&args.gate),
        };
        let Some(added) = add::add(
            &project,
            &mut lock,
            &trust,
            &project.root,
            &request,
            &args.check,
        )?
        else {
            return Ok(Outcome::Invalid);
        };
        // Locked as soon as it is installed: a later skill's failure leaves
        // the lock naming exactly what is in place.
        project.write_lock(&lock)?;
        lines.extend(added.lines);
        results.extend(added.skills);
    }
    lines.push(format!(
        "imported {} skill{} from {}",
        requests.len(),
        if requests.len() == 1 { "" } else { "s" },
        vercel::LOCK_FILE
    ));
    session::print(args.format, &lines, &json!({ "imported": results }))?;
    Ok(Outcome::Success)
}

//! `skb install`: restore exactly what `skb.lock` says.
//!
//! Every skill whose folders all match the lock is left alone (no fetch);
//! the others are fetched again from their pins (the commit, the digest,
//! the downloaded bytes' hash), validated, compared with the lock's digest
//! and written. With `--frozen` every source is fetched and compared, all
//! before anything is written, and any difference (a source whose content
//! changed, a folder with local edits, a lock that would change) exits 1
//! with nothing written.
//!
//! Every skill fetched is scanned again ([`crate::supply::gate`]) before
//! anything is written, and refused on a finding at or above its gate that
//! the lock's `scan.allowed` (or `--allow-finding`) does not accept: the
//! lock's record of what was accepted is kept as it is, so a finding a newer
//! scanner reports is accepted with `skb update`, which records it.

use std::collections::HashMap;
use std::io;

use serde_json::json;
use skills_compiler::embed::Plan;

use crate::Outcome;
use crate::args::InstallArgs;
use crate::cmd::pack::plan_inputs;
use crate::supply::fetch;
use crate::supply::fetched::{FetchOptions, Fetched};
use crate::supply::gate::Gate;
use crate::supply::install::{self, Action, Origin};
use crate::supply::place;
use crate::supply::project::invalid;
use crate::supply::session;
use skills_core::lock::tree;

/// Runs `skb install`.
pub fn run(args: &InstallArgs) -> io::Result<Outcome> {
    let project = session::project(&args.project)?;
    let trust = session::trust(&project, &args.policy)?;
    let _guard = project.lock()?;
    if !project.has_lock() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "{}: no lock file; `skb add SOURCE` installs skills and writes it",
                project.lock_path.display()
            ),
        ));
    }
    let mut lock = project.read_lock()?;
    let before = lock.to_json();
    let gate = Gate::restoring(&args.gate);
    // Pass 1: what needs fetching, fetched (once per pin: 454 skills of one
    // commit are one checkout) and checked against the lock.
    let mut fetched_pins: HashMap<String, (Fetched, Plan)> = HashMap::new();
    let mut pending = Vec::new();
    for locked in &lock.skills {
        let mut clean = true;
        for rec in &locked.installed {
            let dir = project.folder(rec);
            let drift = tree::check(&dir, &locked.files)?;
            let missing =
                drift.len() == locked.files.len() && std::fs::symlink_metadata(&dir).is_err();
            if !drift.is_empty() {
                clean = false;
                if !missing && !args.force {
                    let each: Vec<String> = drift.iter().map(ToString::to_string).collect();
                    return Err(invalid(format!(
                        "skill `{}`: {} has local edits ({}); nothing was written; --force replaces it and keeps a backup",
                        locked.name,
                        dir.display(),
                        each.join(", ")
                    )));
                }
            }
        }
        if clean && !args.frozen {
            continue;
        }
        let opts = FetchOptions {
            cwd: &project.root,
            limits: args.check.limits.limits(),
            trust: &trust,
            skills: std::slice::from_ref(&locked.name),
        };
        let key = format!(
            "{} {} {}",
            locked.resolved.kind(),
            locked.resolved.describe(),
            locked.profile.as_deref().unwrap_or("spec")
        );
        if !fetched_pins.contains_key(&key) {
            let fetched = fetch::fetch_pinned(&locked.resolved, &locked.source, &opts)?;
            let check = session::with_locked_profile(&args.check, locked.profile.as_deref())?;
            let Some((plan, _)) = plan_inputs(&fetched.inputs, &check)? else {
                return Ok(Outcome::Invalid);
            };
            fetched_pins.insert(key.clone(), (fetched, plan));
        }
        let Some((_, plan)) = fetched_pins.get(&key) else {
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
            return Err(invalid(format!(
                "skill `{}`: `{}` ({}) no longer holds it; nothing was written",
                locked.name,
                locked.source,
                locked.resolved.describe()
            )));
        };
        // Scanned first: a source that changed to carry an attack is named
        // for the attack.
        gate.check(
            &locked.source,
            &locked.name,
            &place::contents(&plan.skills[index])?,
            locked.scan.as_ref(),
        )?;
        let digest = install::skill_digest(&plan.skills[index]);
        if digest != locked.digest {
            return Err(invalid(format!(
                "skill `{}`: `{}` ({}) now gives {digest}, the lock says {}; nothing was written (`skb update {}` takes the new content)",
                locked.name,
                locked.source,
                locked.resolved.describe(),
                locked.digest,
                locked.name
            )));
        }
        pending.push((locked.name.clone(), key, index, clean));
    }
    // Pass 2: write.
    let mut lines = Vec::new();
    let mut results = Vec::new();
    for (name, key, index, clean) in &pending {
        let (Some(locked), Some((_, plan))) = (lock.get(name).cloned(), fetched_pins.get(key))
        else {
            continue;
        };
        if *clean {
            continue;
        }
        let origin = Origin {
            source: locked.source.clone(),
            resolved: locked.resolved.clone(),
            signer: locked.signer.clone(),
            unsigned: locked.unsigned.clone(),
            profile: locked.profile.clone(),
            scan: locked.scan.clone(),
        };
        let dests = session::locked_dests(&project, &locked.installed);
        let action = install::install(
            &project,
            &mut lock,
            &plan.skills[*index],
            &origin,
            &dests,
            args.force,
        )?;
        if action != Action::Unchanged {
            lines.push(format!(
                "restored {name} -> {}",
                locked.installed.join(", ")
            ));
            results
                .push(json!({ "name": name, "action": "restored", "installed": locked.installed }));
        }
    }
    let after = lock.to_json();
    if after != before {
        if args.frozen {
            return Err(invalid(format!(
                "{}: would change (--frozen); nothing was written",
                project.lock_path.display()
            )));
        }
        project.write_lock(&lock)?;
    }
    lines.push(format!(
        "{} skills as locked ({} restored)",
        lock.skills.len(),
        results.len()
    ));
    let json = json!({ "skills": lock.skills.len(), "restored": results });
    session::print(args.format, &lines, &json)?;
    Ok(Outcome::Success)
}

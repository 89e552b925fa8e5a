//! `skb update [NAME…]`: fetch each locked skill's source as written again
//! (the branch's new commit, the index's newest entry, the tag's new
//! manifest), scan it again ([`crate::supply::gate`]), and install what
//! changed, printing it file by file.

use std::io;

use serde_json::json;

use crate::Outcome;
use crate::args::UpdateArgs;
use crate::cmd::pack::plan_inputs;
use crate::supply::fetch;
use crate::supply::fetched::FetchOptions;
use crate::supply::gate::Gate;
use crate::supply::install::{self, Action, Origin};
use crate::supply::project::invalid;
use crate::supply::session;
use crate::supply::source;
use crate::supply::{place, policy};
use skills_core::lock::Resolved;
use skills_supply::trust::PolicyFlags;

/// The skills updated from one source (with one profile), fetched once.
struct Group {
    key: String,
    source: source::Source,
    text: String,
    names: Vec<String>,
    profile: Option<String>,
}

/// Runs `skb update`.
pub fn run(args: &UpdateArgs) -> io::Result<Outcome> {
    let project = session::project(&args.project)?;
    let trust = session::trust(&project, &args.policy)?;
    let _guard = project.lock()?;
    let mut lock = project.read_lock()?;
    let gate = Gate::new(&args.gate);
    for n in &args.names {
        if lock.get(n).is_none() {
            return Err(invalid(format!(
                "{}: no skill `{n}` is locked",
                project.lock_path.display()
            )));
        }
    }
    let names: Vec<String> = if args.names.is_empty() {
        lock.skills.iter().map(|s| s.name.clone()).collect()
    } else {
        args.names.clone()
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
                (format!("path {path}"), source::Source::Path(path.into()))
            }
            _ => (
                format!("source {}", locked.source),
                source::classify(&locked.source, &project.root),
            ),
        };
        // The profile it was added with, unless --profile names another.
        let profile = match session::locked_profile(&args.check) {
            Some(asked) => Some(asked),
            None => locked.profile.clone(),
        };
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
    for Group {
        source: src,
        text,
        names: group,
        profile,
        ..
    } in &groups
    {
        let opts = FetchOptions {
            cwd: &project.root,
            limits: args.check.limits.limits(),
            trust: &trust,
            skills: group,
        };
        let mut fetched = fetch::fetch(src, text, &opts)?;
        fetched.resolved = fetch::rebase(fetched.resolved, &project.root, &project.root);
        let check = session::with_locked_profile(&args.check, profile.as_deref())?;
        let Some((plan, _)) = plan_inputs(&fetched.inputs, &check)? else {
            return Ok(Outcome::Invalid);
        };
        fetched_sources.push((fetched, plan, group, profile));
    }
    // Pass 1: every skill's signature, version, security scan and folders
    // checked before any is written.
    let mut planned = Vec::new();
    for (fetched, plan, group, profile) in &fetched_sources {
        for name in group.iter() {
            let Some(locked) = lock.get(name).cloned() else {
                continue;
            };
            // The skill of that name outside a plugin first, as `add` picks.
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
                return Err(invalid(format!(
                    "skill `{name}`: `{}` no longer holds it; nothing was changed",
                    locked.source
                )));
            };
            let (signer, unsigned) = policy::decide(
                &trust,
                fetched,
                &skill.meta.name,
                Some(&locked),
                PolicyFlags {
                    allow_unsigned: args.policy.allow_unsigned,
                    allow_downgrade: args.policy.allow_downgrade,
                },
                &locked.source,
            )?;
            let scan = gate.check(
                &locked.source,
                &skill.meta.name,
                &place::contents(skill)?,
                locked.scan.as_ref(),
            )?;
            let dests = session::locked_dests(&project, &locked.installed);
            install::inspect(&project, &lock, skill, &dests, args.force)?;
            let origin = Origin {
                source: locked.source.clone(),
                resolved: fetched.resolved_for(&skill.meta.name),
                signer,
                unsigned,
                profile: Option::clone(profile),
                scan: Some(scan),
            };
            planned.push((name, locked, skill, origin, dests));
        }
    }
    // Pass 2: write.
    let mut lines = Vec::new();
    let mut results = Vec::new();
    for (name, locked, skill, origin, dests) in planned {
        let action = install::install(&project, &mut lock, skill, &origin, &dests, args.force)?;
        match &action {
            Action::Updated { changes } => {
                lines.push(format!(
                    "updated {name}: {} -> {}",
                    locked.resolved.describe(),
                    origin.resolved.describe()
                ));
                for c in changes {
                    lines.push(format!("  {c}"));
                }
                results.push(json!({
                    "name": name,
                    "action": "updated",
                    "from": locked.digest,
                    "to": install::skill_digest(skill),
                    "changes": changes.iter().map(ToString::to_string).collect::<Vec<_>>(),
                }));
            }
            _ => {
                lines.push(format!("unchanged {name}"));
                results.push(json!({ "name": name, "action": "unchanged" }));
            }
        }
    }
    project.write_lock(&lock)?;
    session::print(args.format, &lines, &json!({ "skills": results }))?;
    Ok(Outcome::Success)
}

//! `skb update [NAME…]`: fetch each locked skill's source as written again
//! (the branch's new commit, the index's newest entry, the tag's new
//! manifest), and install what changed, printing it file by file.

use std::io;

use serde_json::json;

use crate::Outcome;
use crate::args::UpdateArgs;
use crate::cmd::pack::plan_inputs;
use crate::supply::fetch;
use crate::supply::fetched::FetchOptions;
use crate::supply::install::{self, Action, Origin};
use crate::supply::policy;
use crate::supply::project::invalid;
use crate::supply::session;
use crate::supply::source;
use skills_supply::trust::PolicyFlags;

/// Runs `skb update`.
pub fn run(args: &UpdateArgs) -> io::Result<Outcome> {
    let project = session::project(&args.project)?;
    let trust = session::trust(&project, &args.policy)?;
    let _guard = project.lock()?;
    let mut lock = project.read_lock()?;
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
    let mut lines = Vec::new();
    let mut results = Vec::new();
    for name in &names {
        let Some(locked) = lock.get(name).cloned() else {
            continue;
        };
        // A local folder or file is read where the lock says it is; any
        // other source as the user wrote it.
        let src = match &locked.resolved {
            skills_core::lock::Resolved::Folder { path }
            | skills_core::lock::Resolved::File { path, .. } => source::Source::Path(path.into()),
            _ => source::classify(&locked.source, &project.root),
        };
        let opts = FetchOptions {
            cwd: &project.root,
            limits: args.check.limits.limits(),
            trust: &trust,
            skills: std::slice::from_ref(name),
        };
        let mut fetched = fetch::fetch(&src, &locked.source, &opts)?;
        fetched.resolved = fetch::rebase(fetched.resolved, &project.root, &project.root);
        let Some((plan, _)) = plan_inputs(&fetched.inputs, &args.check)? else {
            return Ok(Outcome::Invalid);
        };
        let Some(skill) = plan
            .skills
            .iter()
            .find(|s| install::folder_name(s) == *name)
        else {
            return Err(invalid(format!(
                "skill `{name}`: `{}` no longer holds it; nothing was changed",
                locked.source
            )));
        };
        let (signer, unsigned) = policy::decide(
            &trust,
            &fetched,
            &skill.meta.name,
            Some(&locked),
            PolicyFlags {
                allow_unsigned: args.policy.allow_unsigned,
                allow_downgrade: args.policy.allow_downgrade,
            },
            &locked.source,
        )?;
        let origin = Origin {
            source: locked.source.clone(),
            resolved: fetched.resolved_for(&skill.meta.name),
            signer,
            unsigned,
        };
        let dests = session::locked_dests(&project, &locked.installed);
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

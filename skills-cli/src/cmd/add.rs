//! `skb add`: fetch a source, validate it, check its signature against the
//! policy, install the chosen skills into the clients' folders and lock them.

use std::io;

use serde_json::json;
use skills_compiler::embed::{Plan, PlanSkill};

use crate::Outcome;
use crate::args::AddArgs;
use crate::cmd::pack::plan_inputs;
use crate::supply::fetch;
use crate::supply::fetched::FetchOptions;
use crate::supply::install::{self, Action, Origin};
use crate::supply::session;
use crate::supply::source;
use crate::supply::{clients, policy};
use skills_supply::trust::PolicyFlags;

/// Runs `skb add`.
pub fn run(args: &AddArgs) -> io::Result<Outcome> {
    let cwd = std::env::current_dir()?;
    let project = session::project(&args.project)?;
    let trust = session::trust(&project, &args.policy)?;
    let src = source::classify(&args.source, &cwd);
    let mut wanted = args.skills.clone();
    if let source::Source::Git {
        skill: Some(skill), ..
    } = &src
    {
        wanted.push(skill.clone());
    }
    let mut fetched = fetch::fetch(
        &src,
        &args.source,
        &FetchOptions {
            cwd: &cwd,
            limits: args.check.limits.limits(),
            trust: &trust,
            skills: &wanted,
        },
    )?;
    fetched.resolved = fetch::rebase(fetched.resolved, &cwd, &project.root);
    let Some((plan, _)) = plan_inputs(&fetched.inputs, &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    let chosen = select(&plan, &wanted, &args.source)?;
    if args.list {
        let lines: Vec<String> = chosen
            .iter()
            .map(|s| format!("{}\t{}", s.meta.name, s.meta.description))
            .collect();
        let json = json!({
            "source": args.source,
            "skills": chosen.iter().map(|s| json!({
                "name": &*s.meta.name,
                "description": &*s.meta.description,
                "digest": install::skill_digest(s),
            })).collect::<Vec<_>>(),
        });
        session::print(args.format, &lines, &json)?;
        return Ok(Outcome::Success);
    }
    let _guard = project.lock()?;
    let mut lock = project.read_lock()?;
    let dests = session::dests(&project, &args.clients)?;
    // Every skill's signature and version checked before any is written.
    let mut decided = Vec::new();
    for skill in &chosen {
        let name = install::folder_name(skill);
        decided.push(policy::decide(
            &trust,
            &fetched,
            &skill.meta.name,
            lock.get(name),
            PolicyFlags {
                allow_unsigned: args.policy.allow_unsigned,
                allow_downgrade: args.policy.allow_downgrade,
            },
            &args.source,
        )?);
    }
    // What each client would do with them, said before anything is written.
    let contents = chosen
        .iter()
        .map(|s| crate::supply::place::contents(s))
        .collect::<io::Result<Vec<_>>>()?;
    let targets: Vec<_> = dests
        .iter()
        .flat_map(|d| d.targets.iter().copied())
        .collect();
    let notes = clients::notes(
        &fetched.inputs,
        &args.check.options(),
        &chosen,
        &contents,
        &targets,
    );
    for n in &notes {
        eprintln!("skb: note: {}: skill `{}` {}", n.client, n.skill, n.note);
    }
    let mut lines = Vec::new();
    let mut results = Vec::new();
    for (skill, (signer, unsigned)) in chosen.iter().zip(decided) {
        let origin = Origin {
            source: args.source.clone(),
            resolved: fetched.resolved_for(&skill.meta.name),
            signer,
            unsigned,
        };
        let action = install::install(&project, &mut lock, skill, &origin, &dests, args.force)?;
        let name = install::folder_name(skill);
        let folders: Vec<String> = dests
            .iter()
            .map(|d| format!("{}/{name}", d.recorded))
            .collect();
        lines.push(format!(
            "{} {name} -> {}",
            match &action {
                Action::Installed => "installed",
                Action::Updated { .. } => "updated",
                Action::Unchanged => "unchanged",
            },
            folders.join(", ")
        ));
        results.push(json!({
            "name": name,
            "action": match &action {
                Action::Installed => "installed",
                Action::Updated { .. } => "updated",
                Action::Unchanged => "unchanged",
            },
            "installed": folders,
            "digest": install::skill_digest(skill),
        }));
    }
    project.write_lock(&lock)?;
    let json = json!({
        "source": args.source,
        "skills": results,
        "clients": notes.iter().map(|n| json!({"client": n.client, "skill": n.skill, "note": n.note})).collect::<Vec<_>>(),
    });
    session::print(args.format, &lines, &json)?;
    Ok(Outcome::Success)
}

/// The skills of `plan` that `names` asks for (all when empty); an unknown
/// name is an error listing what the source holds.
fn select<'a>(plan: &'a Plan, names: &[String], source: &str) -> io::Result<Vec<&'a PlanSkill>> {
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
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
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

//! `skb add`: fetch a source, validate it, check its signature against the
//! policy, scan it ([`crate::supply::gate`]), install the chosen skills into
//! the clients' folders and lock them.

use std::io;
use std::path::Path;

use serde_json::json;
use skills_compiler::embed::{Plan, PlanSkill};
use skills_core::lock::Lock;
use skills_supply::trust::TrustStore;

use crate::Outcome;
use crate::args::{AddArgs, CheckArgs};
use crate::cmd::pack::plan_inputs;
use crate::supply::fetch;
use crate::supply::fetched::FetchOptions;
use crate::supply::fetched::Fetched;
use crate::supply::gate::Gate;
use crate::supply::install::Dest;
use crate::supply::install::{self, Action, Origin};
use crate::supply::project::Project;
use crate::supply::session;
use crate::supply::source;
use crate::supply::{clients, policy};
use skills_supply::trust::PolicyFlags;

/// One source to add from, as `skb add` and `skb import` ask.
#[derive(Debug)]
pub struct Request<'a> {
    /// The source as written.
    pub source: &'a str,
    /// The skills asked for (all when empty).
    pub skills: Vec<String>,
    /// Where to install.
    pub dests: Vec<Dest>,
    /// `--allow-unsigned`, `--allow-downgrade`.
    pub flags: PolicyFlags,
    /// `--force`.
    pub force: bool,
    /// `--scan-fail-on`, `--allow-finding`.
    pub gate: Gate,
}

/// What adding from one source did: lines for people, JSON for machines.
#[derive(Debug, Default)]
pub struct Added {
    /// One line per skill.
    pub lines: Vec<String>,
    /// One object per skill.
    pub skills: Vec<serde_json::Value>,
    /// What clients would do differently.
    pub notes: Vec<serde_json::Value>,
}

/// Runs `skb add`.
pub fn run(args: &AddArgs) -> io::Result<Outcome> {
    let cwd = std::env::current_dir()?;
    let project = session::project(&args.project)?;
    let trust = session::trust(&project, &args.policy)?;
    if args.list {
        return list(args, &cwd, &trust);
    }
    let _guard = project.lock()?;
    let mut lock = project.read_lock()?;
    let request = Request {
        source: &args.source,
        skills: args.skills.clone(),
        dests: session::dests(&project, &args.clients)?,
        flags: PolicyFlags {
            allow_unsigned: args.policy.allow_unsigned,
            allow_downgrade: args.policy.allow_downgrade,
        },
        force: args.force,
        gate: Gate::new(&args.gate),
    };
    let Some(added) = add(&project, &mut lock, &trust, &cwd, &request, &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    project.write_lock(&lock)?;
    let json = json!({ "source": args.source, "skills": added.skills, "clients": added.notes });
    session::print(args.format, &added.lines, &json)?;
    Ok(Outcome::Success)
}

/// `skb add --list`: what the source holds.
fn list(args: &AddArgs, cwd: &Path, trust: &TrustStore) -> io::Result<Outcome> {
    let (_fetched, plan, wanted) =
        match fetch_and_plan(&args.source, &args.skills, cwd, trust, &args.check)? {
            Some(f) => f,
            None => return Ok(Outcome::Invalid),
        };
    let chosen = select(&plan, &wanted, &args.source)?;
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
    Ok(Outcome::Success)
}

type Planned = (Fetched, Plan, Vec<String>);

/// Fetches and validates `source`; `None` when a skill is invalid (the
/// diagnostics were printed).
fn fetch_and_plan(
    source: &str,
    skills: &[String],
    cwd: &Path,
    trust: &TrustStore,
    check: &CheckArgs,
) -> io::Result<Option<Planned>> {
    let src = source::classify(source, cwd);
    let mut wanted = skills.to_vec();
    if let source::Source::Git {
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
            limits: check.limits.limits(),
            trust,
            skills: &wanted,
        },
    )?;
    let Some((plan, _)) = plan_inputs(&fetched.inputs, check)? else {
        return Ok(None);
    };
    Ok(Some((fetched, plan, wanted)))
}

/// Adds the skills `request` asks for into `lock` and the folders; the
/// caller holds the project's guard and writes the lock. `None` when a
/// skill is invalid.
pub fn add(
    project: &Project,
    lock: &mut Lock,
    trust: &TrustStore,
    cwd: &Path,
    request: &Request<'_>,
    check: &CheckArgs,
) -> io::Result<Option<Added>> {
    let Some((mut fetched, plan, wanted)) =
        fetch_and_plan(request.source, &request.skills, cwd, trust, check)?
    else {
        return Ok(None);
    };
    fetched.resolved = fetch::rebase(fetched.resolved, cwd, &project.root);
    let mut chosen = select(&plan, &wanted, request.source)?;
    chosen.sort_by(|a, b| a.meta.name.cmp(&b.meta.name));
    // Two skills that would land in one folder (`x` and a plugin's `p:x`).
    for (i, a) in chosen.iter().enumerate() {
        if let Some(b) = chosen[i + 1..]
            .iter()
            .find(|b| install::folder_name(b) == install::folder_name(a))
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
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
    // Every skill's signature and version checked before any is written.
    let mut decided = Vec::new();
    for skill in &chosen {
        let name = install::folder_name(skill);
        decided.push(policy::decide(
            trust,
            &fetched,
            &skill.meta.name,
            lock.get(name),
            request.flags,
            request.source,
        )?);
    }
    // Every skill scanned, over the bytes to be written, before any is.
    let contents = chosen
        .iter()
        .map(|s| crate::supply::place::contents(s))
        .collect::<io::Result<Vec<_>>>()?;
    let mut scans = Vec::new();
    for (skill, files) in chosen.iter().zip(&contents) {
        let name = install::folder_name(skill);
        scans.push(request.gate.check(
            request.source,
            &skill.meta.name,
            files,
            lock.get(name).and_then(|l| l.scan.as_ref()),
        )?);
    }
    // Every target folder checked (local edits, folders skb did not install)
    // before any skill is written.
    for skill in &chosen {
        install::inspect(project, lock, skill, &request.dests, request.force)?;
    }
    // What each client would do with them, said before anything is written.
    let targets: Vec<_> = request
        .dests
        .iter()
        .flat_map(|d| d.targets.iter().copied())
        .collect();
    let notes = clients::notes(&fetched.inputs, &check.options(), &chosen, &targets);
    for n in &notes {
        eprintln!("skb: note: {}: skill `{}` {}", n.client, n.skill, n.note);
    }
    let mut added = Added {
        notes: notes
            .iter()
            .map(|n| json!({"client": n.client, "skill": n.skill, "note": n.note}))
            .collect(),
        ..Added::default()
    };
    for ((skill, (signer, unsigned)), scan) in chosen.iter().zip(decided).zip(scans) {
        let origin = Origin {
            source: request.source.to_string(),
            resolved: fetched.resolved_for(&skill.meta.name),
            signer,
            unsigned,
            profile: session::locked_profile(check),
            scan: Some(scan),
        };
        let action =
            install::install(project, lock, skill, &origin, &request.dests, request.force)?;
        let name = install::folder_name(skill);
        let folders: Vec<String> = request
            .dests
            .iter()
            .map(|d| format!("{}/{name}", d.recorded))
            .collect();
        let verb = match &action {
            Action::Installed => "installed",
            Action::Updated { .. } => "updated",
            Action::Unchanged => "unchanged",
            Action::Adopted => "adopted",
        };
        added
            .lines
            .push(format!("{verb} {name} -> {}", folders.join(", ")));
        added.skills.push(json!({
            "name": name,
            "action": verb,
            "installed": folders,
            "digest": install::skill_digest(skill),
        }));
    }
    Ok(Some(added))
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

//! `skb add`: the installer's `add` ([`skills_install::Installer::add`]),
//! or `--list` of what a source holds; rendered as lines or JSON.

use std::io;

use serde_json::json;
use skills_install::{AddRequest, Gate};

use crate::Outcome;
use crate::args::AddArgs;
use crate::installing::{self, Stderr};

/// Runs `skb add`.
pub fn run(args: &AddArgs) -> io::Result<Outcome> {
    let observer = Stderr::new(args.check.color);
    let installer = installing::installer(
        &args.project,
        Some(&args.policy),
        Some(&args.check),
        &observer,
    )?;
    if args.list {
        let listed = match installer.list_source(&args.source, &args.skills) {
            Ok(l) => l,
            Err(e) => return installing::failed(e),
        };
        let lines: Vec<String> = listed
            .iter()
            .map(|s| format!("{}\t{}", s.name, s.description))
            .collect();
        let json = json!({
            "source": args.source,
            "skills": listed.iter().map(|s| json!({
                "name": s.name,
                "description": s.description,
                "digest": s.digest,
            })).collect::<Vec<_>>(),
        });
        installing::print(args.format, &lines, &json)?;
        return Ok(Outcome::Success);
    }
    let request = AddRequest {
        source: args.source.clone(),
        skills: args.skills.clone(),
        clients: args.clients.clone(),
        dirs: args.dirs.clone(),
        flags: args.policy.flags(),
        force: args.force,
        gate: Gate::new(args.gate.scan_fail_on, args.gate.allow_findings.clone()),
    };
    let added = match installer.add(&request) {
        Ok(a) => a,
        Err(e) => return installing::failed(e),
    };
    let lines: Vec<String> = added.skills.iter().map(installing::added_line).collect();
    let json = json!({
        "source": args.source,
        "skills": added.skills.iter().map(installing::added_json).collect::<Vec<_>>(),
        "clients": added.notes.iter().map(|n| json!({
            "client": n.client, "skill": n.skill, "note": n.note,
        })).collect::<Vec<_>>(),
    });
    installing::print(args.format, &lines, &json)?;
    Ok(Outcome::Success)
}

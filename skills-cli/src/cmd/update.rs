//! `skb update [NAME…]`: the installer's update
//! ([`skills_install::Installer::update`]), printed file by file;
//! `--dry-run` is [`super::outdated`].

use std::io;

use serde_json::json;
use skills_install::{Gate, UpdateRequest};

use crate::Outcome;
use crate::args::UpdateArgs;
use crate::installing::{self, Stderr};

/// Runs `skb update`.
pub fn run(args: &UpdateArgs) -> io::Result<Outcome> {
    if args.dry_run {
        return super::outdated::check(
            &args.names,
            args.format,
            &args.project,
            &args.policy,
            &args.gate,
            &args.check,
        );
    }
    let observer = Stderr::new(args.check.color);
    let installer = installing::installer(
        &args.project,
        Some(&args.policy),
        Some(&args.check),
        &observer,
    )?;
    let request = UpdateRequest {
        names: args.names.clone(),
        flags: args.policy.flags(),
        force: args.force,
        gate: Gate::new(args.gate.scan_fail_on, args.gate.allow_findings.clone()),
        // The profile each skill was added with, unless --profile names one.
        profile: installer.validation.locked_profile(),
    };
    let updated = match installer.update(&request) {
        Ok(u) => u,
        Err(e) => return installing::failed(e),
    };
    let mut lines = Vec::new();
    let mut results = Vec::new();
    for s in &updated.skills {
        if s.updated {
            lines.push(format!("updated {}: {} -> {}", s.name, s.from, s.to));
            lines.extend(s.changes.iter().map(|c| format!("  {c}")));
            results.push(json!({
                "name": s.name,
                "action": "updated",
                "from": s.from_digest,
                "to": s.to_digest,
                "changes": s.changes.iter().map(ToString::to_string).collect::<Vec<_>>(),
            }));
        } else {
            lines.push(format!("unchanged {}", s.name));
            results.push(json!({ "name": s.name, "action": "unchanged" }));
        }
    }
    installing::print(args.format, &lines, &json!({ "skills": results }))?;
    Ok(Outcome::Success)
}

//! `skb outdated [NAME…]` and `skb update --dry-run`: the installer's
//! read-only update check ([`skills_install::Installer::outdated`]), one
//! line per skill and the files that would change.

use std::io;

use serde_json::{Value, json};
use skills_compiler::render::count;
use skills_install::{Gate, Outdated, OutdatedRequest, OutdatedStatus};

use crate::Outcome;
use crate::args::{CheckArgs, GateArgs, ListFormat, OutdatedArgs, PolicyArgs, ProjectArgs};
use crate::installing::{self, Stderr};
use crate::output;

/// Runs `skb outdated`.
pub fn run(args: &OutdatedArgs) -> io::Result<Outcome> {
    check(
        &args.names,
        args.format,
        &args.project,
        &args.policy,
        &args.gate,
        &args.check,
    )
}

/// Checks `names` (all locked skills when empty) as `update` would, writing
/// nothing, and prints the result. Exit status: 0 all current, 1 some
/// skill outdated or refused, 2 some source unreadable or nothing checked.
pub fn check(
    names: &[String],
    format: ListFormat,
    project: &ProjectArgs,
    policy: &PolicyArgs,
    gate: &GateArgs,
    check: &CheckArgs,
) -> io::Result<Outcome> {
    let observer = Stderr::new(check.color);
    let installer = installing::installer(project, Some(policy), Some(check), &observer)?;
    let request = OutdatedRequest {
        names: names.to_vec(),
        flags: policy.flags(),
        gate: Gate::new(gate.scan_fail_on, gate.allow_findings.clone()),
        profile: installer.validation.locked_profile(),
    };
    let found = match installer.outdated(&request) {
        Ok(found) => found,
        // Nothing could be checked (a name not locked, a lock that cannot
        // be read, an interrupted transaction): not "outdated" (1).
        Err(e) => {
            output::fail(&e.to_string())?;
            return Ok(Outcome::Code(2));
        }
    };
    let (lines, json) = render(&found);
    installing::print(format, &lines, &json)?;
    Ok(if found.has_unchecked() {
        Outcome::Code(2)
    } else if found.is_current() {
        Outcome::Success
    } else {
        Outcome::Invalid
    })
}

/// The report as lines and as JSON.
fn render(found: &Outdated) -> (Vec<String>, Value) {
    let mut lines = Vec::new();
    let mut skills = Vec::new();
    let (mut behind, mut unchecked) = (0u64, 0u64);
    for s in &found.skills {
        let kind = s.status.kind();
        let mut entry =
            json!({ "name": s.name, "status": kind, "from": s.from, "from_digest": s.from_digest });
        match &s.status {
            OutdatedStatus::Current => lines.push(format!("current {}", s.name)),
            OutdatedStatus::Outdated {
                to,
                to_digest,
                signer,
                unsigned,
                changes,
            } => {
                let by = match (signer, unsigned) {
                    (Some(key), _) => format!("signed by key {key}"),
                    (None, Some(why)) => format!("unsigned ({why})"),
                    (None, None) => "unsigned".to_string(),
                };
                lines.push(format!("outdated {}: {} -> {to}, {by}", s.name, s.from));
                lines.extend(changes.iter().map(|c| format!("  {c}")));
                entry["to"] = json!(to);
                entry["to_digest"] = json!(to_digest);
                entry["signer"] = json!(signer);
                entry["unsigned"] = json!(unsigned);
                entry["changes"] = changes
                    .iter()
                    .map(|c| json!({ "path": c.path, "change": c.change.kind() }))
                    .collect();
            }
            OutdatedStatus::Refused { reason } | OutdatedStatus::Unchecked { reason } => {
                lines.push(format!("{kind} {}: {reason}", s.name));
                entry["reason"] = json!(reason);
            }
            _ => {}
        }
        match s.status {
            OutdatedStatus::Outdated { .. } | OutdatedStatus::Refused { .. } => behind += 1,
            OutdatedStatus::Unchecked { .. } => unchecked += 1,
            _ => {}
        }
        skills.push(entry);
    }
    let mut summary = format!(
        "{behind} of {} outdated or refused",
        count(found.skills.len() as u64, "skill")
    );
    if unchecked > 0 {
        summary.push_str(&format!(", {unchecked} unchecked"));
    }
    lines.push(summary);
    (lines, json!({ "skills": skills }))
}

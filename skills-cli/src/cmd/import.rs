//! `skb import`: what Vercel's `npx skills` installed, taken over by
//! `skb.lock` ([`skills_install::Installer::import`]).

use std::io;

use serde_json::json;
use skills_compiler::render;
use skills_install::{Gate, ImportRequest};
use skills_supply::vercel;

use crate::Outcome;
use crate::args::ImportArgs;
use crate::installing::{self, Stderr};

/// Runs `skb import`.
pub fn run(args: &ImportArgs) -> io::Result<Outcome> {
    let observer = Stderr::new(args.check.color);
    let installer = installing::installer(
        &args.project,
        Some(&args.policy),
        Some(&args.check),
        &observer,
    )?;
    let request = ImportRequest {
        flags: args.policy.flags(),
        force: args.force,
        gate: Gate::new(args.gate.scan_fail_on, args.gate.allow_findings.clone()),
    };
    let imported = match installer.import(&request) {
        Ok(i) => i,
        Err(e) => return installing::failed(e),
    };
    let mut lines: Vec<String> = imported.skills.iter().map(installing::added_line).collect();
    lines.push(format!(
        "imported {} from {}",
        render::count(imported.count as u64, "skill"),
        vercel::LOCK_FILE
    ));
    let json = json!({
        "imported": imported.skills.iter().map(installing::added_json).collect::<Vec<_>>(),
    });
    installing::print(args.format, &lines, &json)?;
    Ok(Outcome::Success)
}

//! `skb install`: the installer's restore of what `skb.lock` says
//! ([`skills_install::Installer::install`]), `--frozen` for CI.

use std::io;

use serde_json::json;
use skills_compiler::render;
use skills_install::{Gate, InstallRequest};

use crate::Outcome;
use crate::args::InstallArgs;
use crate::installing::{self, Stderr};

/// Runs `skb install`.
pub fn run(args: &InstallArgs) -> io::Result<Outcome> {
    let observer = Stderr::new(args.check.color);
    let installer = installing::installer(
        &args.project,
        Some(&args.policy),
        Some(&args.check),
        &observer,
    )?;
    let request = InstallRequest {
        frozen: args.frozen,
        force: args.force,
        gate: Gate::new(args.gate.scan_fail_on, args.gate.allow_findings.clone()),
    };
    let done = match installer.install(&request) {
        Ok(d) => d,
        Err(e) => return installing::failed(e),
    };
    let mut lines: Vec<String> = done
        .restored
        .iter()
        .map(|(name, installed)| format!("restored {name} -> {}", installed.join(", ")))
        .collect();
    lines.push(format!(
        "{} as locked ({} restored)",
        render::count(done.skills as u64, "skill"),
        done.restored.len()
    ));
    let json = json!({
        "skills": done.skills,
        "restored": done.restored.iter().map(|(name, installed)| json!({
            "name": name, "action": "restored", "installed": installed,
        })).collect::<Vec<_>>(),
    });
    installing::print(args.format, &lines, &json)?;
    Ok(Outcome::Success)
}

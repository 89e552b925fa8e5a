//! `skb remove NAME…`: the installer's remove
//! ([`skills_install::Installer::remove`]).

use std::io;

use serde_json::json;
use skills_install::RemoveRequest;

use crate::Outcome;
use crate::args::RemoveArgs;
use crate::installing::{self, Stderr};

/// Runs `skb remove`.
pub fn run(args: &RemoveArgs) -> io::Result<Outcome> {
    let observer = Stderr::new(crate::args::Color::Auto);
    let installer = installing::installer(&args.project, None, None, &observer)?;
    let request = RemoveRequest {
        names: args.names.clone(),
        force: args.force,
    };
    let removed = match installer.remove(&request) {
        Ok(r) => r,
        Err(e) => return installing::failed(e),
    };
    let lines: Vec<String> = removed
        .removed
        .iter()
        .map(|(name, installed)| format!("removed {name} from {}", installed.join(", ")))
        .collect();
    installing::print(args.format, &lines, &json!({ "removed": args.names }))?;
    Ok(Outcome::Success)
}

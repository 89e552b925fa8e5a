//! `skb init`: a new skill folder ([`skills_compiler::scaffold`]).

use std::io::{self, Write};

use skills_compiler::profile::Profile;
use skills_compiler::scaffold::{self, ScaffoldError};

use crate::Outcome;
use crate::args::InitArgs;

/// Runs `skb init`.
pub fn run(args: &InitArgs) -> io::Result<Outcome> {
    let made = match &args.name {
        Some(name) => {
            let parent = match &args.dir {
                Some(dir) => dir.clone(),
                None => std::env::current_dir()?,
            };
            scaffold::create(&parent, name)
        }
        None => scaffold::create_in(&std::env::current_dir()?),
    };
    let dir = match made {
        Ok(dir) => dir,
        Err(e @ (ScaffoldError::Name(_) | ScaffoldError::Exists(_))) => {
            eprintln!("skb: {e}");
            return Ok(Outcome::Usage);
        }
        Err(e) => return Err(io::Error::other(e)),
    };
    let shown = match &args.name {
        Some(name) => match &args.dir {
            Some(parent) => parent.join(name).display().to_string(),
            None => name.clone(),
        },
        None => ".".to_string(),
    };
    let profiles: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "created {} (SKILL.md, scripts/example.py)",
        dir.display()
    )?;
    writeln!(
        out,
        "valid under every profile ({}); write its description and steps, then `skb validate {shown}`",
        profiles.join(", ")
    )?;
    Ok(Outcome::Success)
}

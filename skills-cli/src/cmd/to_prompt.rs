//! `skb to-prompt`: the reference CLI's `<available_skills>` block for
//! skill directories, byte for byte (see `read_properties` for the paths
//! and errors both commands share).

use std::io::{self, Write};

use skills_compiler::properties::{self, Properties};

use super::read_properties::{error, exists, skill_dir, usage};
use crate::Outcome;
use crate::args::ToPromptArgs;

/// Runs `skb to-prompt`.
pub fn run(args: &ToPromptArgs) -> io::Result<Outcome> {
    const USAGE: &str = "to-prompt [OPTIONS] SKILL_PATHS...";
    if args.skill_paths.is_empty() {
        return usage(USAGE, "Missing argument 'SKILL_PATHS...'.");
    }
    if let Some(missing) = args.skill_paths.iter().find(|p| !exists(p)) {
        return usage(
            USAGE,
            &format!(
                "Invalid value for 'SKILL_PATHS...': Path '{}' does not exist.",
                missing.display()
            ),
        );
    }
    let mut read: Vec<Properties> = Vec::with_capacity(args.skill_paths.len());
    for path in &args.skill_paths {
        let dir = skill_dir(path);
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        match properties::read_properties(&dir) {
            Ok(props) => read.push(props),
            Err(e) => return error(&e),
        }
    }
    let block = properties::to_prompt(read.iter().map(|p| {
        (
            p.name.as_str(),
            p.description.as_str(),
            p.skill_md.as_path(),
        )
    }));
    let mut out = io::stdout().lock();
    writeln!(out, "{block}")?;
    out.flush()?;
    Ok(Outcome::Success)
}

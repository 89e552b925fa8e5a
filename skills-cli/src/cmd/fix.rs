//! `skb fix`: runs the fixes of [`skills_compiler::fix`] (what makes the
//! clients treat a skill alike, where a file can) on the skills found as
//! `skb validate` finds them, and reports each change. With `--dry-run`
//! nothing is written: each change is printed as a unified diff
//! ([`udiff`]).

use std::io::{self, Write};

use skills_compiler::fix::{self, udiff};
use skills_compiler::render::{count, path_string, shown};
use skills_compiler::{self as compiler, Options, Profile};

use crate::Outcome;
use crate::args::FixArgs;

/// Runs `skb fix`.
pub fn run(args: &FixArgs) -> io::Result<Outcome> {
    let options = Options {
        profile: Profile::Spec,
        lints: false,
        discovery: args.discovery.options(),
        ..Options::default()
    };
    let result = compiler::check(&args.paths, &options);
    let mut err = io::stderr().lock();
    let mut usage = false;
    for d in result
        .roots
        .iter()
        .flat_map(|(_, ds)| ds)
        .filter(|d| d.is_error())
    {
        writeln!(err, "skb: {}", shown(&d.message))?;
        usage = true;
    }
    if usage {
        return Ok(Outcome::Usage);
    }
    let mut out = io::stdout().lock();
    let (mut files, mut skills, mut left) = (0, 0, 0);
    for skill in &result.skills {
        let plan = fix::plan(skill);
        for why in &plan.left {
            let dir = path_string(&skill.dir);
            writeln!(err, "skb: could not fix `{}`: {}", shown(&dir), shown(why))?;
            left += 1;
        }
        skills += usize::from(!plan.edits.is_empty());
        for edit in &plan.edits {
            let path = path_string(&edit.path);
            let label = shown(&path);
            if args.dry_run {
                let old = edit.old.as_deref().map(String::from_utf8_lossy);
                let diff = udiff::unified(&label, old.as_deref(), &edit.new);
                out.write_all(diff.as_bytes())?;
                for what in &edit.what {
                    writeln!(err, "would fix `{label}`: {what}")?;
                }
                files += 1;
                continue;
            }
            match fix::write(&skill.dir, edit) {
                Ok(()) => {
                    for what in &edit.what {
                        writeln!(out, "fixed `{label}`: {what}")?;
                    }
                    files += 1;
                }
                Err(why) => {
                    writeln!(err, "skb: could not fix `{label}`: {}", shown(&why))?;
                    left += 1;
                }
            }
        }
    }
    let summary = match (files, args.dry_run) {
        (0, _) => format!(
            "nothing to fix in {}",
            count(result.skills.len() as u64, "skill")
        ),
        (n, true) => format!(
            "would fix {} in {} (dry run: nothing written)",
            count(n as u64, "file"),
            count(skills as u64, "skill")
        ),
        (n, false) => format!(
            "fixed {} in {}",
            count(n as u64, "file"),
            count(skills as u64, "skill")
        ),
    };
    if args.dry_run {
        writeln!(err, "{summary}")?;
    } else {
        writeln!(out, "{summary}")?;
    }
    out.flush()?;
    Ok(if left > 0 || (args.dry_run && files > 0) {
        Outcome::Invalid
    } else {
        Outcome::Success
    })
}

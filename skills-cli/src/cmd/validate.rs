//! `skb validate`: discover, check in parallel, say where the clients
//! differ on each skill (warnings `SK491`-`SK493`), render, exit; with
//! `--scan`, the validated skills are also scanned for attacks, and the
//! scan's findings follow the validation's report (in one document for JSON
//! and SARIF).

use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use skills_compiler::client::differences::{self, Differences};
use skills_compiler::{self as compiler, Options, Profile};

use skills_scan::Severity;

use crate::Outcome;
use crate::args::{Format, ValidateArgs};
use crate::report::{self, Summary};
use crate::scan::{self, Settings, targets};
use skills_install::input;

/// Runs `skb validate`. Archives (`.skill`, `.zip`, `.skillpack`) are
/// extracted first and validated like directories.
pub fn run(args: &ValidateArgs) -> io::Result<Outcome> {
    let profile = args.profile.profile();
    let options = Options {
        profile,
        lints: !args.no_lints,
        threads: args.threads,
        discovery: skills_compiler::DiscoveryOptions {
            // The `opencode` profile reads a project as OpenCode does.
            outside_repository: profile
                .client()
                .is_some_and(skills_compiler::client::Client::reads_outside_repository),
            ..args.discovery.options()
        },
        files: args.skill_limits.file_limits(),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.format == Format::SkillsRef {
        if profile != Profile::Spec {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "`--format skills-ref` reproduces the reference validator, which knows only `--profile spec`",
            ));
        }
        return skills_ref(args, &options, &mut out);
    }
    let started = Instant::now();
    let inputs = input::prepare(&args.paths, &args.limits.limits())?;
    let mut result = compiler::check(&inputs.roots, &options);
    let elapsed = started.elapsed();
    let scanned = args.scan.then(|| {
        let targets = targets::of_dirs(&inputs, result.skills.iter().map(|s| s.dir.as_path()));
        let settings = Settings {
            threads: args.threads,
            min_severity: Severity::Low,
            fail_on: args.scan_fail_on.0,
            baseline: None,
        };
        scan::run(&targets, &settings)
    });
    inputs.relabel(&mut result);
    let clients = report::clients::readings(&result, options.threads);
    let differences = differences(&mut result, &clients, profile);
    let names: Vec<Option<String>> = result.skills.iter().map(|s| s.qualified_name()).collect();
    let mut checked = report::entries(&result, &names);
    report::with_clients(&mut checked, &clients, &differences);
    let summary = Summary::of(&checked, elapsed);
    let color = args.color.enabled(io::stdout().is_terminal());
    match (args.format, &scanned) {
        (Format::Human, _) => report::human::render(&mut out, &checked, &summary, color)?,
        (Format::Json, None) => report::json::render(&mut out, &checked, &summary)?,
        (Format::Json, Some(scan)) => {
            report::scan::json::render_with_validation(&mut out, &checked, &summary, scan)?
        }
        (Format::Sarif, None) => report::sarif::render(&mut out, &checked, &summary)?,
        (Format::Sarif, Some(scan)) => {
            report::scan::sarif::render_with_validation(&mut out, &checked, scan)?
        }
        (Format::Github, _) => report::github::render(&mut out, &checked, &summary)?,
        (Format::SkillsRef, _) => unreachable!("handled above"),
    }
    if let Some(scan) = &scanned {
        match args.format {
            Format::Human => {
                writeln!(out)?;
                report::scan::human::render(&mut out, scan, color)?;
            }
            Format::Github => report::scan::github::render(&mut out, scan)?,
            _ => {}
        }
    }
    out.flush()?;
    let failed = summary.errors > 0
        || (args.deny_warnings && summary.warnings > 0)
        || scanned.as_ref().is_some_and(|s| s.failed);
    if scanned.as_ref().is_some_and(|s| s.counts.failed > 0) {
        return Ok(Outcome::Usage);
    }
    Ok(if failed {
        Outcome::Invalid
    } else {
        Outcome::Success
    })
}

/// Where the clients differ on each skill of `result` (`clients` holds
/// each skill's readings, in order), each difference also added to the
/// skill's diagnostics as a warning.
fn differences(
    result: &mut compiler::Checked,
    clients: &[report::clients::Clients],
    profile: Profile,
) -> Vec<Differences> {
    result
        .skills
        .iter_mut()
        .zip(clients)
        .map(|(skill, readings)| {
            let found = differences::differences(skill, readings);
            let path = skill.skill_md.clone().unwrap_or_else(|| skill.dir.clone());
            skill.diagnostics.extend(
                found
                    .differences
                    .iter()
                    .map(|d| d.diagnostic(&path, profile)),
            );
            found
        })
        .collect()
}

/// `--format skills-ref`: each path is one skill directory, as the reference takes it.
fn skills_ref(args: &ValidateArgs, options: &Options, out: &mut dyn Write) -> io::Result<Outcome> {
    let stderr = io::stderr();
    let mut err = stderr.lock();
    let mut all_valid = true;
    for arg in &args.paths {
        if !arg.exists() {
            // click's own check, before the reference runs.
            writeln!(
                err,
                "Usage: skb validate [OPTIONS] SKILL_PATH\nTry 'skb validate --help' for help.\n\nError: Invalid value for 'SKILL_PATH': Path '{}' does not exist.",
                arg.display()
            )?;
            return Ok(Outcome::Usage);
        }
        let dir = match arg.file_name() {
            Some(n) if arg.is_file() && n.eq_ignore_ascii_case("skill.md") => match arg.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => ".".into(),
            },
            _ => arg.clone(),
        };
        let skill = compiler::check_dir(&dir, options);
        let shown = if dir == *arg { arg.clone() } else { dir };
        all_valid &= report::skills_ref::render(out, &mut err, &shown, &skill)?;
    }
    out.flush()?;
    Ok(if all_valid {
        Outcome::Success
    } else {
        Outcome::Invalid
    })
}

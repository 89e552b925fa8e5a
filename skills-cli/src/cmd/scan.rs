//! `skb scan`: find the skill folders, scan them in parallel, render, write
//! or apply the baseline, exit.
//!
//! Exit status: 0 when no finding at or above `--fail-on` remains after
//! inline suppressions and the baseline (or a baseline was just written),
//! 1 when one does, 2 when the scan could not do what was asked: a usage
//! error, a path that does not exist or could not be read, a folder that
//! could not be scanned, a baseline that could not be read or written. A
//! damaged or unsafe archive exits 1, as everywhere else.

use std::fs;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

use skills_compiler::Diagnostic;
use skills_compiler::render;
use skills_scan::baseline::Baseline;

use crate::Outcome;
use crate::args::{ScanArgs, ScanFormat};
use crate::report::scan as report;
use crate::scan::{self, Scan, Settings, targets};
use skills_install::input;

/// The largest baseline file read.
const MAX_BASELINE_BYTES: u64 = 64 << 20;

/// Runs `skb scan`.
pub fn run(args: &ScanArgs) -> io::Result<Outcome> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.rules {
        match args.format {
            ScanFormat::Human => report::rules::human(&mut out)?,
            ScanFormat::Json => report::rules::json(&mut out)?,
            ScanFormat::Markdown => report::rules::markdown(&mut out)?,
            ScanFormat::Sarif | ScanFormat::Github => {
                return usage("`--rules` prints `--format human`, `json` or `markdown`");
            }
        }
        out.flush()?;
        return Ok(Outcome::Success);
    }
    if args.format == ScanFormat::Markdown {
        return usage("`--format markdown` prints the rule table: use it with `--rules`");
    }
    let baseline = args.baseline.as_deref().map(read_baseline).transpose()?;
    let inputs = input::prepare(&args.paths, &args.limits.limits())?;
    let found = targets::find(&inputs, &args.discovery.options());
    let settings = Settings {
        threads: args.threads,
        min_severity: args.min_severity.severity(),
        fail_on: args.fail_on.0,
        baseline: baseline.as_ref(),
    };
    let scan = scan::run(&found.targets, &settings);
    let color = args.color.enabled(io::stdout().is_terminal());
    match args.format {
        ScanFormat::Human => report::human::render(&mut out, &scan, color)?,
        ScanFormat::Json => report::json::render(&mut out, &scan)?,
        ScanFormat::Sarif => report::sarif::render(&mut out, &scan)?,
        ScanFormat::Github => report::github::render(&mut out, &scan)?,
        ScanFormat::Markdown => unreachable!("refused above"),
    }
    out.flush()?;
    let incomplete = problems(&found.problems, &found.notes, color)? || scan.counts.failed > 0;
    if let Some(path) = &args.write_baseline {
        write_baseline(path, &scan)?;
        return Ok(if incomplete {
            Outcome::Usage
        } else {
            Outcome::Success
        });
    }
    Ok(outcome(&scan, incomplete))
}

/// The exit status of a scan: 2 when it could not be completed, else 1
/// when a finding fails it.
pub fn outcome(scan: &Scan, incomplete: bool) -> Outcome {
    if incomplete {
        Outcome::Usage
    } else if scan.failed {
        Outcome::Invalid
    } else {
        Outcome::Success
    }
}

/// Prints discovery's problems and the search's notes on stderr; whether
/// any was an error.
pub fn problems(problems: &[Diagnostic], notes: &[String], color: bool) -> io::Result<bool> {
    let stderr = io::stderr();
    let mut err = stderr.lock();
    for d in problems {
        err.write_all(render::diagnostic(d, color && io::stderr().is_terminal()).as_bytes())?;
    }
    for note in notes {
        writeln!(err, "skb: warning: {}", render::shown(note))?;
    }
    Ok(problems.iter().any(Diagnostic::is_error))
}

/// A usage error, printed once.
fn usage(message: &str) -> io::Result<Outcome> {
    eprintln!("skb: {message}");
    Ok(Outcome::Usage)
}

fn read_baseline(path: &Path) -> io::Result<Baseline> {
    let fail = |why: String| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("baseline `{}`: {why}", render::path_string(path)),
        )
    };
    let file = fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut text = String::new();
    file.take(MAX_BASELINE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| fail(e.to_string()))?;
    if text.len() as u64 > MAX_BASELINE_BYTES {
        return Err(fail(format!("larger than {MAX_BASELINE_BYTES} bytes")));
    }
    Baseline::parse(&text).map_err(|e| fail(e.to_string()))
}

fn write_baseline(path: &Path, scan: &Scan) -> io::Result<()> {
    let baseline = Baseline::new(scan.current.clone());
    fs::write(path, baseline.to_json()).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot write `{}`: {e}", render::path_string(path)),
        )
    })?;
    eprintln!(
        "skb: wrote {} to `{}`",
        match baseline.entries().len() {
            1 => "1 finding".to_string(),
            n => format!("{} findings", render::thousands(n as u64)),
        },
        render::path_string(path)
    );
    Ok(())
}

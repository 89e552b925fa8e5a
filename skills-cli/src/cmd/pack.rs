//! `skb pack`: validate, then write a reproducible pack (or `.skill`
//! archives), then sign it, with the release version (`--release`) and the
//! signing time in the signed comment.
//!
//! Nothing is written unless every skill is valid; every output file is
//! written to a temporary name beside its destination and renamed into
//! place, the signature before the pack is renamed, so an interrupted run
//! leaves the previous files or none.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use skills_bundle::pack::plugin_of;
use skills_bundle::zip::Archive;
use skills_compiler::embed::{self, Plan};
use skills_compiler::pack::{write_pack, write_skill_zip};
use skills_compiler::render::{count, thousands};
use skills_compiler::{self as compiler, Checked, Options};
use skills_core::pack::sign::sign;
use skills_core::pack::signature::{self, SignedClaims};
use skills_core::path;
use skills_core::zip::write::DosTime;

use crate::args::{CheckArgs, Color, PackArgs, PackFormat};
use crate::report::{self, Summary};
use crate::{Outcome, sign as password};
use skills_install::input::Inputs;
use skills_install::{extract, input};

/// Runs `skb pack`.
pub fn run(args: &PackArgs) -> io::Result<Outcome> {
    let Some(plan) = checked_plan(&args.paths, &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    let time = DosTime::from_env().map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    if let Some(version) = args
        .release
        .as_deref()
        .filter(|v| !signature::is_version(v))
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "`--release {version}` is not a SemVer version: write MAJOR.MINOR.PATCH, \
                 optionally `-pre` and `+build` (`1.4.0`, `2.0.0-rc.1`)"
            ),
        ));
    }
    let key = match &args.sign {
        Some(path) => Some(password::load_secret_key(path).map_err(io::Error::other)?),
        None => None,
    };
    // A release is signed with its time; a pack signed without `--release`
    // keeps the digest-only comment it always had.
    let timestamp = args.release.as_ref().map(|_| signing_time()).transpose()?;
    let sign_bytes = |bytes: &[u8], comment: &str| -> io::Result<Option<String>> {
        key.as_ref()
            .map(|k| sign(k, bytes, comment).map_err(io::Error::other))
            .transpose()
    };
    let mut out = io::stdout().lock();
    let files: usize = plan.skills.iter().map(|s| s.files.len()).sum();
    let size: u64 = plan
        .skills
        .iter()
        .flat_map(|s| &s.files)
        .map(|f| f.meta.size)
        .sum();
    match args.format {
        PackFormat::Skillpack => {
            let bytes = write_pack(&plan, time).map_err(io::Error::other)?;
            readable(&bytes, &args.output, &args.check)?;
            let claims = SignedClaims {
                digest: plan.digest.clone(),
                version: args.release.clone(),
                timestamp,
            };
            let sig = sign_bytes(&bytes, &claims.to_string())?;
            write_atomically(&args.output, &bytes, sig.as_deref())?;
            writeln!(
                out,
                "packed {} ({}, {}) into {} ({})",
                count(plan.skills.len() as u64, "skill"),
                count(files as u64, "file"),
                count(size, "byte"),
                args.output.display(),
                count(bytes.len() as u64, "byte"),
            )?;
            writeln!(out, "digest {}", plan.digest)?;
            if let (Some(_), Some(key)) = (&sig, &key) {
                writeln!(
                    out,
                    "signed {} with key {}{}",
                    minisig_path(&args.output).display(),
                    key.id(),
                    match &args.release {
                        Some(version) => format!(", release {version}"),
                        None => String::new(),
                    }
                )?;
            }
        }
        PackFormat::Skill => {
            fs::create_dir_all(&args.output).map_err(|e| annotate(e, &args.output))?;
            for skill in &plan.skills {
                let (bytes, dir) = write_skill_zip(skill, time).map_err(io::Error::other)?;
                readable(&bytes, &args.output, &args.check)?;
                // Plugins may share skill names: `<plugin>/<skill>.skill`.
                let path = match plugin_of(&skill.meta.name) {
                    Some(plugin) if path::is_normal(plugin) => args.output.join(plugin),
                    Some(plugin) => {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!("plugin name `{plugin}` cannot name a directory"),
                        ));
                    }
                    None => args.output.clone(),
                }
                .join(format!("{dir}.skill"));
                if let Some(parent) = path.parent() {
                    fs::create_dir_all(parent).map_err(|e| annotate(e, parent))?;
                }
                let digest = skills_core::digest::hex(&skills_core::digest::sha256(&bytes));
                let mut comment = format!("sha256:{digest} file:{dir}.skill");
                if let Some(version) = &args.release {
                    comment += &format!(" version:{version}");
                }
                if let Some(timestamp) = timestamp {
                    comment += &format!(" timestamp:{timestamp}");
                }
                let sig = sign_bytes(&bytes, &comment)?;
                write_atomically(&path, &bytes, sig.as_deref())?;
                writeln!(
                    out,
                    "packed {} into {} ({} bytes)",
                    skill.meta.name,
                    path.display(),
                    thousands(bytes.len() as u64)
                )?;
            }
        }
    }
    out.flush()?;
    Ok(Outcome::Success)
}

/// The time a signature claims, in Unix seconds: `SOURCE_DATE_EPOCH` when it
/// is set and not empty (so a rebuild claims the same time), else now. It
/// is signed beside the version so that an installer can still refuse a
/// pack older than the one it locked when the two versions cannot be
/// compared (a lock, or another signer, that recorded a time and no version).
pub fn signing_time() -> io::Result<u64> {
    let invalid = |value: &dyn std::fmt::Debug| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`SOURCE_DATE_EPOCH` is {value:?}, not a number of seconds since 1970"),
        )
    };
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(value) if !value.is_empty() => value.parse().map_err(|_| invalid(&value)),
        Err(std::env::VarError::NotUnicode(value)) => Err(invalid(&value)),
        _ => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|elapsed| elapsed.as_secs())
            .map_err(|_| io::Error::other("the system clock is set before 1970")),
    }
}

/// Refuses to write an archive that readers would refuse within the same
/// limits (`--max-entries`, `--max-entry-size`, `--max-total-size`,
/// `--max-ratio`): more files, a file larger, or more compressible, than
/// skills ever are.
fn readable(bytes: &[u8], output: &Path, check: &CheckArgs) -> io::Result<()> {
    Archive::parse(bytes, &check.limits.limits())
        .map(drop)
        .map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: not written, readers would refuse it: {}",
                    output.display(),
                    extract::zip_message(&e)
                ),
            )
        })
}

/// Validates `paths` (diagnostics on stderr) and plans the valid skills;
/// `None` when anything is invalid (or a warning under `--deny-warnings`).
pub fn checked_plan(paths: &[PathBuf], check: &CheckArgs) -> io::Result<Option<Plan>> {
    Ok(checked_plan_with(paths, check)?.map(|(plan, _)| plan))
}

/// [`checked_plan`], with the checked skills the plan was made from.
pub fn checked_plan_with(
    paths: &[PathBuf],
    check: &CheckArgs,
) -> io::Result<Option<(Plan, Checked)>> {
    let inputs = input::prepare(paths, &check.limits.limits())?;
    plan_inputs(&inputs, check)
}

/// [`checked_plan_with`] over inputs already prepared (a source fetched by
/// `skb add`).
pub fn plan_inputs(inputs: &Inputs, check: &CheckArgs) -> io::Result<Option<(Plan, Checked)>> {
    let options = check.options();
    let Some(result) = check_inputs(inputs, &options, check.deny_warnings, check.color)? else {
        return Ok(None);
    };
    let plan = embed::plan(&result, &inputs.roots, &check.exclude).map_err(|e| {
        io::Error::other(inputs.label(&e.path).display().to_string() + ": " + &e.message)
    })?;
    if plan.skills.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "no skill found to pack under the paths given",
        ));
    }
    Ok(Some((plan, result)))
}

/// Checks the roots of `inputs` and renders every problem on stderr,
/// labelled as `inputs` says; `None` when any is an error (or a warning,
/// with `deny_warnings`), after saying that nothing was written.
pub fn check_inputs(
    inputs: &Inputs,
    options: &Options,
    deny_warnings: bool,
    color: Color,
) -> io::Result<Option<Checked>> {
    let started = Instant::now();
    let result = compiler::check(&inputs.roots, options);
    let mut shown = result.clone();
    inputs.relabel(&mut shown);
    let summary = render_checked(
        &shown,
        started.elapsed(),
        color.enabled(io::stderr().is_terminal()),
    )?;
    let failed = summary.errors > 0 || (deny_warnings && summary.warnings > 0);
    if failed {
        eprintln!("skb: nothing was written");
        return Ok(None);
    }
    Ok(Some(result))
}

/// Renders the problems `checked` (labelled as shown) has on stderr, as
/// `skb validate` does; nothing when it has none. Returns the counts.
pub fn render_checked(
    checked: &Checked,
    elapsed: std::time::Duration,
    color: bool,
) -> io::Result<Summary> {
    let names: Vec<Option<String>> = checked.skills.iter().map(|s| s.qualified_name()).collect();
    let entries = report::entries(checked, &names);
    let summary = Summary::of(&entries, elapsed);
    if summary.errors + summary.warnings > 0 {
        report::human::render(&mut io::stderr().lock(), &entries, &summary, color)?;
    }
    Ok(summary)
}

pub use skills_core::pack::minisig_path;

/// Writes `bytes` to `path` (and `sig` to `<path>.minisig`) through
/// temporary files renamed into place. Without `sig`, a stale signature
/// beside `path` is removed, so it cannot be taken for the new pack's.
pub fn write_atomically(path: &Path, bytes: &[u8], sig: Option<&str>) -> io::Result<()> {
    let sig_path = minisig_path(path);
    let staged_sig = match sig {
        Some(text) => Some(stage(&sig_path, text.as_bytes())?),
        None => None,
    };
    let staged = stage(path, bytes)?;
    staged.persist(path).map_err(|e| annotate(e.error, path))?;
    match staged_sig {
        Some(s) => {
            s.persist(&sig_path)
                .map_err(|e| annotate(e.error, &sig_path))?;
        }
        None => match fs::remove_file(&sig_path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(annotate(e, &sig_path)),
            _ => {}
        },
    }
    Ok(())
}

fn stage(path: &Path, bytes: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut file = tempfile::Builder::new()
        .prefix(".skills-")
        .tempfile_in(parent)
        .map_err(|e| annotate(e, parent))?;
    file.write_all(bytes).map_err(|e| annotate(e, path))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(file.path(), fs::Permissions::from_mode(0o644))
            .map_err(|e| annotate(e, path))?;
    }
    Ok(file)
}

fn annotate(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("`{}`: {e}", path.display()))
}

//! `skb publish`: validated skills written as a static well-known index.
//!
//! Each skill becomes a deterministic zip with `SKILL.md` at its root (what
//! the index's `archive` type means to its readers, Vercel's CLI among
//! them), signed when `--sign` is given with the trusted comment packs use
//! (the skill's digest) plus the version and the time, so that an installer
//! can refuse an older version signed by the same key; a version published
//! and signed already keeps its signature when the key's check of it over
//! the same bytes passes (signing is hedged). The index's
//! browsable pages are written after it (`publish_pages.rs`) unless
//! `--no-html` says not to.

use std::io::{self, Write};
use std::path::Path;

use skills_compiler::embed::PlanSkill;
use skills_compiler::render;
use skills_core::fsread;
use skills_core::pack::{signature, write};
use skills_core::zip::write::{DosTime, ZipWriter};
use skills_supply::index::{self, Publication};

use crate::Outcome;
use crate::args::PublishArgs;
use crate::cmd::pack::checked_plan_with;
use crate::sign as password;
use skills_core::pack::sign::{SecretKey, sign, signed_by};
use skills_install::skill_digest;

/// Runs `skb publish`.
pub fn run(args: &PublishArgs) -> io::Result<Outcome> {
    if !signature::is_version(&args.release) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--release {}: not a version (MAJOR.MINOR.PATCH, SemVer)",
                args.release
            ),
        ));
    }
    let Some((plan, checked)) = checked_plan_with(&args.paths, &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    let time = DosTime::from_env().map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let key = match &args.sign {
        Some(path) => Some(password::load_secret_key(path).map_err(io::Error::other)?),
        None => None,
    };
    let timestamp = crate::cmd::pack::signing_time()?;
    let mut items = Vec::new();
    for skill in &plan.skills {
        let archive = root_zip(skill, time)?;
        let name = skills_install::folder_name(skill).to_string();
        let signature = match &key {
            Some(k) => {
                let digest = skill_digest(skill);
                let hex = digest.strip_prefix("sha256:").unwrap_or(&digest);
                match published_signature(&args.out, &name, &args.release, k, &archive, hex)? {
                    Some(kept) => Some(kept),
                    None => {
                        let comment = signature::SignedClaims {
                            digest: hex.to_string(),
                            version: Some(args.release.clone()),
                            timestamp: Some(timestamp),
                        }
                        .to_string();
                        Some(sign(k, &archive, &comment).map_err(io::Error::other)?)
                    }
                }
            }
            None => None,
        };
        items.push(Publication {
            name,
            description: skill.meta.description.to_string(),
            version: args.release.clone(),
            archive,
            signature,
        });
    }
    let report = index::publish(&args.out, args.base_url.as_deref(), &items)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    let (pages, unchanged_pages) = if args.no_html {
        (Vec::new(), Vec::new())
    } else {
        crate::cmd::publish_pages::write(
            &args.out,
            &report.index,
            args.base_url.as_deref(),
            &checked,
            &args.paths,
            &args.check.limits.limits(),
        )?
    };
    let mut out = io::stdout().lock();
    for p in report.written.iter().chain(&pages) {
        writeln!(out, "wrote {}", p.display())?;
    }
    writeln!(
        out,
        "published {} at version {} ({} written, {} unchanged)",
        render::count(items.len() as u64, "skill"),
        args.release,
        render::count(report.written.len() as u64, "file"),
        report.unchanged.len()
    )?;
    if !args.no_html {
        writeln!(
            out,
            "browsable pages: {} ({} written, {} unchanged)",
            render::count((pages.len() + unchanged_pages.len()) as u64, "page"),
            pages.len(),
            unchanged_pages.len()
        )?;
    }
    Ok(Outcome::Success)
}

/// The signature already published for version `version` of `name` in
/// `out`, when `key` made it over these `archive` bytes for this digest
/// (`hex`) and version: publishing a signed version again keeps it, since
/// a new signature of the same bytes is new bytes and a published
/// version's files never change. `None` when there is none, or it is
/// anything else (the publication then refuses the change, as before).
fn published_signature(
    out: &Path,
    name: &str,
    version: &str,
    key: &SecretKey,
    archive: &[u8],
    hex: &str,
) -> io::Result<Option<String>> {
    let path = index::signature_path(out, name, version);
    let text = match fsread::read_file(&path, signature::MAX_SIGNATURE_FILE) {
        Ok(bytes) => String::from_utf8(bytes).ok(),
        Err(e) if e.is_not_found() => None,
        Err(e) => return Err(io::Error::other(e.to_string())),
    };
    let same = |comment: String| {
        signature::claims(&comment)
            .is_some_and(|c| c.digest == hex && c.version.as_deref() == Some(version))
    };
    Ok(text.filter(|t| signed_by(key, archive, t).is_some_and(same)))
}

/// The skill's files in a deterministic zip, `SKILL.md` at the root.
fn root_zip(skill: &PlanSkill, time: DosTime) -> io::Result<Vec<u8>> {
    let mut zip = ZipWriter::new(time);
    for f in &skill.files {
        write::add(&mut zip, &f.meta.path, f).map_err(io::Error::other)?;
    }
    Ok(zip.finish())
}

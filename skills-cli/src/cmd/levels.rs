//! `skb catalog` and `read`: levels 1 and 3 of a skill as an agent built
//! from the same sources sees them (level 2, `show`, is in `activation`).
//!
//! Directories and archives are validated and compiled into an in-memory
//! pack, then opened with `Bundle::from_pack`, so the output is exactly what
//! `skills_bundle!` or a loaded pack gives at run time (same catalog, same
//! `skill://` base directory, same bytes); a pack is opened as it is.

use std::io::{self, Write};
use std::path::PathBuf;

use skills_bundle::Bundle;
use skills_bundle::pack::{Pack, Trust};
use skills_compiler::pack::write_pack;
use skills_core::zip::write::DosTime;

use crate::args::{CatalogArgs, CheckArgs, ReadArgs};
use crate::cmd::client_catalog;
use crate::cmd::pack::checked_plan;
use crate::extract::{self, Opened};
use crate::{Outcome, input};

/// Runs `skb catalog`.
pub fn catalog(args: &CatalogArgs) -> io::Result<Outcome> {
    if let Some(client) = args.style.client() {
        return client_catalog::run(args, client);
    }
    let Some(bundle) = bundle_of(&args.paths, &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    if bundle.skills().len() == 0 {
        return Ok(Outcome::Success);
    }
    let block = match args.budget {
        Some(budget) => bundle.catalog_within(budget),
        None => bundle.catalog().into(),
    };
    print(block.as_bytes(), true)
}

/// Prints a catalog and a newline; nothing at all for an empty one.
pub fn print_catalog(catalog: &str) -> io::Result<Outcome> {
    if catalog.is_empty() {
        return Ok(Outcome::Success);
    }
    print(catalog.as_bytes(), true)
}

/// Runs `skb read`.
pub fn read(args: &ReadArgs) -> io::Result<Outcome> {
    let Some(bundle) = bundle_of(&args.from, &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    let Some(skill) = bundle.get(&args.name) else {
        return unknown(&bundle, &args.name);
    };
    match skill.read(&args.path) {
        Ok(bytes) => print(bytes, false),
        Err(e) => failed(&e),
    }
}

/// The skills under `paths` as a bundle; `None` when validation failed
/// (already reported).
pub fn bundle_of(paths: &[PathBuf], check: &CheckArgs) -> io::Result<Option<Bundle>> {
    let limits = check.limits.limits();
    if let [one] = paths
        && input::is_archive(one)
    {
        let bytes = extract::read_archive(one)?;
        if let Opened::Pack(pack) = extract::open(one, &bytes, Trust::Unsigned, &limits)? {
            return Ok(Some(pack.into_bundle()));
        }
    }
    let Some(plan) = checked_plan(paths, check)? else {
        return Ok(None);
    };
    let bytes = write_pack(&plan, DosTime::EPOCH).map_err(io::Error::other)?;
    Pack::open_with_limits(&bytes, Trust::Unsigned, &limits)
        .map(|pack| Some(pack.into_bundle()))
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
}

fn print(bytes: &[u8], newline: bool) -> io::Result<Outcome> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    if newline {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(Outcome::Success)
}

fn unknown(bundle: &Bundle, name: &str) -> io::Result<Outcome> {
    let names: Vec<&str> = bundle.skills().map(|s| s.name()).collect();
    eprintln!("skb: no skill `{name}`; available: {}", names.join(", "));
    Ok(Outcome::Invalid)
}

fn failed(e: &dyn std::error::Error) -> io::Result<Outcome> {
    eprintln!("skb: {e}");
    Ok(Outcome::Invalid)
}

//! The skills of a command's paths as the runtime sees them (`catalog`,
//! `read`, `show`, `run`, `serve`).
//!
//! Directories and archives are validated and compiled into an in-memory
//! pack, then opened with `Bundle::from_pack`, so the output is exactly what
//! `skills_bundle!` or a loaded pack gives at run time (same catalog, same
//! `skill://` base directory, same bytes); a pack is opened as it is.

use std::io;
use std::path::PathBuf;

use skills_bundle::Bundle;
use skills_bundle::pack::{Pack, Trust};
use skills_compiler::pack::write_pack;
use skills_core::zip::write::DosTime;

use crate::args::CheckArgs;
use crate::cmd::pack::checked_plan;
use skills_install::extract::{self, Opened};
use skills_install::input;

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

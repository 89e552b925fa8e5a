//! What one skill's files are, and what is in a folder it is about to
//! replace: the stage stage's reading, before [`crate::commit`] writes.
//!
//! Before anything is replaced, the folder in place is compared with what
//! the lock says was installed there: local edits are refused unless
//! `--force`, which keeps them in a backup. The folder is reached from the
//! project's root without following a link ([`crate::root`]): a link on
//! the way is refused, even with `--force`.

use std::io;

use skills_compiler::embed::PlanSkill;
use skills_core::deflate;
use skills_core::digest::{hex, sha256};
use skills_core::lock::LockedFile;
use skills_core::lock::tree::{self, Drift};

use crate::root::{Kind, Rel, Root};

/// What was found at a target before writing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    /// Nothing: a new install.
    Nothing,
    /// What the lock says was installed, unedited.
    Locked,
    /// Already exactly the new content.
    Same,
    /// Local edits (or a folder skb did not install), each named.
    Edited(Vec<Drift>),
    /// Something that is not a plain folder (a link, a file).
    Foreign(&'static str),
}

/// The files of `skill`, decompressed and checked against their hashes.
pub(crate) fn contents(skill: &PlanSkill) -> io::Result<Vec<(String, Vec<u8>, bool)>> {
    let mut out = Vec::with_capacity(skill.files.len());
    for f in &skill.files {
        let size = usize::try_from(f.meta.size)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "file too large"))?;
        let bytes = if f.deflated {
            deflate::inflate(&f.stored, size).map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: {e:?}", f.meta.path),
                )
            })?
        } else {
            f.stored.clone()
        };
        if sha256(&bytes) != f.meta.sha256 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: changed while it was being installed", f.meta.path),
            ));
        }
        out.push((f.meta.path.to_string(), bytes, f.meta.executable));
    }
    Ok(out)
}

/// The lock's file entries for `skill`.
pub(crate) fn locked_files(skill: &PlanSkill) -> Vec<LockedFile> {
    let mut files: Vec<LockedFile> = skill
        .files
        .iter()
        .map(|f| LockedFile {
            path: f.meta.path.to_string(),
            size: f.meta.size,
            sha256: hex(&f.meta.sha256),
            executable: f.meta.executable,
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// What is at `dest` below `root`, compared with `previous` (the lock's
/// files for it, when the lock says skb installed it there) and `new`. A
/// link on the way to it is an error.
pub(crate) fn inspect(
    root: &Root,
    dest_rel: &Rel,
    previous: Option<&[LockedFile]>,
    new: &[LockedFile],
) -> io::Result<Found> {
    match root.kind(dest_rel)? {
        None => return Ok(Found::Nothing),
        Some(Kind::Link) => return Ok(Found::Foreign("a symbolic link")),
        Some(Kind::File | Kind::Other) => return Ok(Found::Foreign("not a folder")),
        Some(Kind::Dir) => {}
    }
    let dest = &root.show(dest_rel);
    let annotate = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", dest.display()));
    if tree::check(dest, new).map_err(annotate)?.is_empty() {
        return Ok(Found::Same);
    }
    let Some(previous) = previous else {
        // A folder skb did not install: every file in it is "added".
        return Ok(Found::Edited(tree::check(dest, &[]).map_err(annotate)?));
    };
    let drift = tree::check(dest, previous).map_err(annotate)?;
    Ok(if drift.is_empty() {
        Found::Locked
    } else {
        Found::Edited(drift)
    })
}

//! Writing one skill into one folder so that a reader never sees half of it
//! and a crash or a refusal leaves the previous version in place.
//!
//! The files are written into `<parent>/.<name>.skb-XXXX/new` (a private
//! folder beside the target, so the final rename stays on one file system;
//! Claude Code lists only a skills folder's direct children and Codex skips
//! hidden folders, so neither reads it), checked against the plan's hashes,
//! then renamed into place: over nothing, or after the old folder was renamed
//! into the staging folder (and renamed back if the second rename fails).
//! Before anything is replaced, the folder in place is compared with what
//! the lock says was installed there: local edits are refused unless
//! `--force`, which keeps them in a backup.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use skills_compiler::embed::PlanSkill;
use skills_core::deflate;
use skills_core::digest::{hex, sha256};
use skills_core::lock::LockedFile;
use skills_core::lock::tree::{self, Drift};

use super::project::annotate;
use crate::extract;

/// What was found at a target before writing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
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
pub fn contents(skill: &PlanSkill) -> io::Result<Vec<(String, Vec<u8>, bool)>> {
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
pub fn locked_files(skill: &PlanSkill) -> Vec<LockedFile> {
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

/// What is at `dest`, compared with `previous` (the lock's files for it,
/// when the lock says skb installed it there) and `new`.
pub fn inspect(
    dest: &Path,
    previous: Option<&[LockedFile]>,
    new: &[LockedFile],
) -> io::Result<Found> {
    let meta = match fs::symlink_metadata(dest) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(e) => return Err(annotate(e, dest)),
    };
    if meta.file_type().is_symlink() {
        return Ok(Found::Foreign("a symbolic link"));
    }
    if !meta.is_dir() {
        return Ok(Found::Foreign("not a folder"));
    }
    if tree::check(dest, new)
        .map_err(|e| annotate(e, dest))?
        .is_empty()
    {
        return Ok(Found::Same);
    }
    let Some(previous) = previous else {
        // A folder skb did not install: every file in it is "added".
        return Ok(Found::Edited(
            tree::check(dest, &[]).map_err(|e| annotate(e, dest))?,
        ));
    };
    let drift = tree::check(dest, previous).map_err(|e| annotate(e, dest))?;
    Ok(if drift.is_empty() {
        Found::Locked
    } else {
        Found::Edited(drift)
    })
}

/// Writes `files` as the folder `dest`, replacing what is there; when
/// `backup` is given the replaced folder is moved there instead of removed.
pub fn write(
    dest: &Path,
    files: &[(String, Vec<u8>, bool)],
    backup: Option<&Path>,
) -> io::Result<()> {
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = dest
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the target has no name"))?
        .to_string_lossy()
        .into_owned();
    fs::create_dir_all(&parent).map_err(|e| annotate(e, &parent))?;
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.skb-"))
        .tempdir_in(&parent)
        .map_err(|e| annotate(e, &parent))?;
    let new = staging.path().join("new");
    fs::create_dir(&new).map_err(|e| annotate(e, &new))?;
    for (path, bytes, executable) in files {
        extract::write_file(&new, path, bytes, *executable)?;
    }
    let old = staging.path().join("old");
    let replaced = match fs::rename(dest, &old) {
        Ok(()) => true,
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(e) => return Err(annotate(e, dest)),
    };
    if let Err(e) = fs::rename(&new, dest) {
        if replaced {
            let _ = fs::rename(&old, dest);
        }
        return Err(annotate(e, dest));
    }
    if replaced && let Some(backup) = backup {
        if let Some(p) = backup.parent() {
            fs::create_dir_all(p).map_err(|e| annotate(e, p))?;
        }
        fs::rename(&old, backup)
            .or_else(|_| copy_tree(&old, backup))
            .map_err(|e| annotate(e, backup))?;
    }
    // `staging` (with `old`, if it is still there) is removed when dropped.
    Ok(())
}

/// Removes the folder `dest` (after moving it to `backup`, if given).
pub fn remove(dest: &Path, backup: Option<&Path>) -> io::Result<()> {
    if let Some(backup) = backup {
        if let Some(p) = backup.parent() {
            fs::create_dir_all(p).map_err(|e| annotate(e, p))?;
        }
        return fs::rename(dest, backup)
            .or_else(|_| copy_tree(dest, backup).and_then(|()| fs::remove_dir_all(dest)))
            .map_err(|e| annotate(e, dest));
    }
    match fs::remove_dir_all(dest) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(annotate(e, dest)),
        _ => Ok(()),
    }
}

/// Copies a folder of regular files and folders (a backup across file
/// systems); links and other kinds are skipped.
fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

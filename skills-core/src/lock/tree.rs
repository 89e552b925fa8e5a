//! Checking an installed skill folder against its lock entry, and hashing a
//! folder for one: what `verify --installed`, the runtime's start-up check
//! and `skills_bundle!(lock = ...)` do, parsing nothing.
//!
//! The folder is walked without following links: an installer writes
//! regular files and directories only, so a link, a fifo or a device found
//! there is drift. A file listed in the lock is read with a bound of its
//! locked size plus one byte, so a file that grew (or became `/dev/zero`
//! behind a swapped link) costs no more than the file it replaced.

use std::fmt;
use std::io;
use std::path::Path;

use super::model::LockedFile;
use crate::digest::{hex, sha256};
use crate::fsread::{Dir, Reason};
use crate::listing::{EntryKind, Listing};

/// Deepest folder nesting walked (a skill's tree is shallow; this bounds
/// recursion on a hostile one).
const MAX_DEPTH: usize = 32;

/// How one path of an installed folder differs from the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change {
    /// The file's content differs.
    Edited,
    /// The file is not in the lock.
    Added,
    /// The lock lists it; the folder does not have it.
    Removed,
    /// Same content, but executable where the lock says not (or the
    /// reverse).
    Mode,
    /// Not a regular file or directory: a link, fifo, socket or device.
    NotAFile(&'static str),
    /// It could not be read.
    Unreadable(String),
}

/// One difference, at a `/`-separated path inside the skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drift {
    /// The path inside the skill folder.
    pub path: String,
    /// What changed.
    pub change: Change,
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = &self.path;
        match &self.change {
            Change::Edited => write!(f, "edited: {path}"),
            Change::Added => write!(f, "added: {path}"),
            Change::Removed => write!(f, "removed: {path}"),
            Change::Mode => write!(f, "mode changed: {path}"),
            Change::NotAFile(kind) => write!(f, "not a regular file ({kind}): {path}"),
            Change::Unreadable(why) => write!(f, "unreadable: {path}: {why}"),
        }
    }
}

/// What the folder holds: every entry, `/`-separated and sorted, with its
/// kind (links not followed).
fn walk(dir: &Path) -> io::Result<Vec<(String, EntryKind, bool)>> {
    let mut out = Vec::new();
    walk_into(dir, "", 0, &mut out)?;
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn walk_into(
    dir: &Path,
    prefix: &str,
    depth: usize,
    out: &mut Vec<(String, EntryKind, bool)>,
) -> io::Result<()> {
    let listing = Listing::read(dir)?;
    for (name, kind) in listing.entries() {
        let Some(name_str) = name.to_str() else {
            out.push((
                format!("{prefix}{}", name.to_string_lossy()),
                EntryKind::Other,
                false,
            ));
            continue;
        };
        let rel = format!("{prefix}{name_str}");
        match kind {
            EntryKind::Dir if depth < MAX_DEPTH => {
                walk_into(&dir.join(name), &format!("{rel}/"), depth + 1, out)?;
            }
            EntryKind::File => {
                let meta = listing.metadata(name)?;
                out.push((rel, EntryKind::File, meta.executable));
            }
            other => out.push((rel, *other, false)),
        }
    }
    Ok(())
}

fn kind_name(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Dir => "a directory nested too deep",
        EntryKind::File => "a file",
        EntryKind::Symlink => "a symbolic link",
        EntryKind::Other => "a fifo, socket or device",
    }
}

/// How the skill folder `dir` differs from `files` (sorted by path, as a
/// [`super::LockedSkill`] holds them); empty when it matches. A missing
/// folder is one [`Change::Removed`] per file; `Err` only when `dir`
/// exists and cannot be listed.
pub fn check(dir: &Path, files: &[LockedFile]) -> io::Result<Vec<Drift>> {
    let entries = match walk(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(files
                .iter()
                .map(|f| Drift {
                    path: f.path.clone(),
                    change: Change::Removed,
                })
                .collect());
        }
        Err(e) => return Err(e),
    };
    let root = Dir::open(dir)?;
    let mut drift = Vec::new();
    let mut locked = files.iter().peekable();
    for (path, kind, executable) in &entries {
        while let Some(f) = locked.next_if(|f| f.path < *path) {
            drift.push(Drift {
                path: f.path.clone(),
                change: Change::Removed,
            });
        }
        let lock = locked.next_if(|f| f.path == *path);
        if *kind != EntryKind::File {
            drift.push(Drift {
                path: path.clone(),
                change: Change::NotAFile(kind_name(*kind)),
            });
            continue;
        }
        let Some(lock) = lock else {
            drift.push(Drift {
                path: path.clone(),
                change: Change::Added,
            });
            continue;
        };
        match root.read(Path::new(path), lock.size.saturating_add(1)) {
            Ok(bytes) => {
                if bytes.len() as u64 != lock.size || hex(&sha256(&bytes)) != lock.sha256 {
                    drift.push(Drift {
                        path: path.clone(),
                        change: Change::Edited,
                    });
                } else if *executable != lock.executable {
                    drift.push(Drift {
                        path: path.clone(),
                        change: Change::Mode,
                    });
                }
            }
            Err(e) => drift.push(Drift {
                path: path.clone(),
                change: match e.reason {
                    Reason::TooLarge { .. } => Change::Edited,
                    Reason::Link => Change::NotAFile("a symbolic link"),
                    other => Change::Unreadable(other.to_string()),
                },
            }),
        }
    }
    drift.extend(locked.map(|f| Drift {
        path: f.path.clone(),
        change: Change::Removed,
    }));
    Ok(drift)
}

/// The lock entries of the regular files `files` (path, content,
/// executable), sorted by path: what an installer records for what it wrote.
pub fn hash_files<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [u8], bool)>,
) -> Vec<LockedFile> {
    let mut out: Vec<LockedFile> = files
        .into_iter()
        .map(|(path, bytes, executable)| LockedFile {
            path: path.to_string(),
            size: bytes.len() as u64,
            sha256: hex(&sha256(bytes)),
            executable,
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

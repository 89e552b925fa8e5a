//! Checking an installed skill folder against its lock entry, and hashing a
//! folder for one: what `verify --installed`, the runtime's start-up check
//! and `skills_bundle!(lock = ...)` do (through [`super::installed`]),
//! parsing nothing.
//!
//! The folder is walked through open directories, each entry opened
//! relative to its parent with `O_NOFOLLOW`: an installer writes regular
//! files and directories only, so a link, a fifo or a device found there is
//! drift, and a link is never followed, even one swapped in after the
//! listing. A file listed in the lock is read with a bound of its locked
//! size, after its size was compared, so a file that grew (or became
//! `/dev/zero` behind a swapped link) costs no more than the file it
//! replaced. Modes the installer never writes (setuid, setgid, sticky,
//! world-writable), on a file or a folder, are drift too.

use std::ffi::OsStr;
use std::fmt;
use std::fs::Metadata;
use std::io;
use std::path::Path;

use super::model::LockedFile;
use crate::digest::{hex, sha256};
use crate::fsread::{Dir, Kind, Reason, read_open};
use crate::listing::{EntryKind, Listing};

/// Deepest folder nesting walked (a skill's tree is shallow; this bounds
/// recursion on a hostile one).
const MAX_DEPTH: usize = 32;

/// Mode bits an installer never writes: setuid, setgid, sticky, and
/// writable by everyone.
pub const UNSAFE_MODE: u32 = 0o7002;

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
    /// Not a regular file or directory: a fifo, socket or device, or a
    /// directory nested deeper than is walked.
    NotAFile(&'static str),
    /// Where the lock has a skill folder, something that is not a folder.
    NotAFolder(&'static str),
    /// A symbolic link where the lock has a file or a folder; not followed.
    Link {
        /// What the link says.
        target: String,
    },
    /// The folder is reached through a symbolic link further up (a client
    /// folder such as `.claude` committed as a link); not followed.
    Through {
        /// The link, as the lock would record its path (`.claude`).
        link: String,
        /// What the link says.
        target: String,
    },
    /// Mode bits the installer never writes ([`UNSAFE_MODE`]): the mode's
    /// permission bits (`0o4755`).
    Permissions(u32),
    /// An entry of a client's skills folder that no lock entry names: what
    /// it is.
    Unlisted(EntryKind),
    /// It could not be read.
    Unreadable(String),
}

impl Change {
    /// The change's stable name in machine-readable output: `edited`,
    /// `added`, `removed`, `mode`, `not-a-file`, `not-a-folder`, `link`,
    /// `through-link`, `permissions`, `unlisted`, `unreadable`.
    pub fn kind(&self) -> &'static str {
        match self {
            Change::Edited => "edited",
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Mode => "mode",
            Change::NotAFile(_) => "not-a-file",
            Change::NotAFolder(_) => "not-a-folder",
            Change::Link { .. } => "link",
            Change::Through { .. } => "through-link",
            Change::Permissions(_) => "permissions",
            Change::Unlisted(_) => "unlisted",
            Change::Unreadable(_) => "unreadable",
        }
    }
}

/// One difference, at a `/`-separated path inside the skill folder (empty
/// for the folder itself).
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
        let what = match &self.change {
            Change::Edited => "edited".to_string(),
            Change::Added => "added".to_string(),
            Change::Removed => "removed".to_string(),
            Change::Mode => "mode changed".to_string(),
            Change::NotAFile(kind) => format!("not a regular file ({kind})"),
            Change::NotAFolder(kind) => format!("not a folder ({kind})"),
            Change::Link { target } => {
                format!("a symbolic link to `{target}`, not followed")
            }
            Change::Through { link, target } => {
                format!("reached through the symbolic link `{link}` (to `{target}`), not followed")
            }
            Change::Permissions(mode) => format!("unsafe mode {mode:04o} ({})", mode_names(*mode)),
            Change::Unlisted(kind) => format!("not in the lock ({})", unlisted(path, *kind)),
            Change::Unreadable(why) if path.is_empty() => return write!(f, "unreadable: {why}"),
            Change::Unreadable(why) => return write!(f, "unreadable: {path}: {why}"),
        };
        if path.is_empty() {
            f.write_str(&what)
        } else {
            write!(f, "{what}: {path}")
        }
    }
}

/// The unsafe bits of `mode`, named.
fn mode_names(mode: u32) -> String {
    let names: Vec<&str> = [
        (0o4000, "setuid"),
        (0o2000, "setgid"),
        (0o1000, "sticky"),
        (0o0002, "world-writable"),
    ]
    .into_iter()
    .filter(|(bit, _)| mode & bit != 0)
    .map(|(_, name)| name)
    .collect();
    names.join(", ")
}

/// What an unlisted entry called `name` is, in words.
fn unlisted(name: &str, kind: EntryKind) -> &'static str {
    match kind {
        // `skb add` stages a skill in `.<name>.skb-XXXXXX` beside its folder.
        EntryKind::Dir if name.starts_with('.') && name.contains(".skb-") => {
            "a staging folder skb left behind"
        }
        EntryKind::Dir if name.starts_with('.') => {
            "a hidden folder, which Qwen Code, Kimi Code and Amp list"
        }
        EntryKind::Dir => "a folder",
        EntryKind::File => "a file",
        EntryKind::Symlink => "a symbolic link",
        EntryKind::Other => "a fifo, socket or device",
    }
}

/// What a path that is not a regular file or folder is, in words.
pub(super) fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Dir => "a directory",
        Kind::Fifo => "a fifo",
        Kind::Socket => "a socket",
        Kind::CharDevice => "a character device",
        Kind::BlockDevice => "a block device",
        _ => "an unknown kind of file",
    }
}

/// The permission bits of `meta` (`0` off Unix).
pub(super) fn mode_of(meta: &Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o7777
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        0
    }
}

/// What the link `name` in `dir` says, for a message.
pub(super) fn link_target(dir: &Dir, name: &OsStr) -> String {
    match dir.read_link(name) {
        Ok(target) => target.to_string_lossy().into_owned(),
        Err(e) => format!("unreadable: {e}"),
    }
}

/// How the skill folder `dir` differs from `files` (sorted by path, as a
/// [`super::LockedSkill`] holds them); empty when it matches. A missing
/// folder is one [`Change::Removed`] per file; `Err` only when `dir`
/// exists and cannot be opened. Links in `dir` itself are followed (the
/// caller named it); nothing below it is read through a link.
pub fn check(dir: &Path, files: &[LockedFile]) -> io::Result<Vec<Drift>> {
    match Dir::open(dir) {
        Ok(open) => Ok(check_open(&open, files)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(removed(files)),
        Err(e) => Err(e),
    }
}

/// Every file of `files`, removed.
pub(super) fn removed(files: &[LockedFile]) -> Vec<Drift> {
    files
        .iter()
        .map(|f| Drift {
            path: f.path.clone(),
            change: Change::Removed,
        })
        .collect()
}

/// How the open skill folder `dir` differs from `files`: [`check`] on a
/// folder the caller opened (below a project's root, say), sorted by path.
pub fn check_open(dir: &Dir, files: &[LockedFile]) -> Vec<Drift> {
    let mut locked: Vec<&LockedFile> = files.iter().collect();
    // Already sorted when they come from a lock; a merge sort sees that.
    locked.sort_by(|a, b| a.path.cmp(&b.path));
    let mut walk = Walk {
        seen: vec![false; locked.len()],
        locked,
        drift: Vec::new(),
    };
    walk.mode("", dir.metadata());
    walk.dir(dir, "", 0);
    let Walk {
        locked,
        seen,
        mut drift,
    } = walk;
    for (f, seen) in locked.iter().zip(seen) {
        if !seen {
            drift.push(Drift {
                path: f.path.clone(),
                change: Change::Removed,
            });
        }
    }
    drift.sort_by(|a, b| a.path.cmp(&b.path));
    drift
}

/// One walk of a skill folder.
struct Walk<'a> {
    /// The lock's files, sorted by path.
    locked: Vec<&'a LockedFile>,
    /// Which of them were found.
    seen: Vec<bool>,
    drift: Vec<Drift>,
}

impl Walk<'_> {
    fn push(&mut self, path: String, change: Change) {
        self.drift.push(Drift { path, change });
    }

    fn mode(&mut self, path: &str, meta: &Metadata) {
        let mode = mode_of(meta);
        if mode & UNSAFE_MODE != 0 {
            self.push(path.to_string(), Change::Permissions(mode));
        }
    }

    /// The entries of `dir`, at `prefix` (`""` or ending in `/`).
    fn dir(&mut self, dir: &Dir, prefix: &str, depth: usize) {
        let listing = match Listing::of(dir) {
            Ok(l) => l,
            Err(e) => {
                let at = prefix.strip_suffix('/').unwrap_or(prefix).to_string();
                self.push(at, Change::Unreadable(e.to_string()));
                return;
            }
        };
        for (name, kind) in listing.entries() {
            // A name that is not UTF-8 is in no lock.
            let Some(utf8) = name.to_str() else {
                self.push(format!("{prefix}{}", name.to_string_lossy()), Change::Added);
                continue;
            };
            let rel = format!("{prefix}{utf8}");
            match kind {
                EntryKind::Dir if depth >= MAX_DEPTH => {
                    self.push(rel, Change::NotAFile("a directory nested too deep"));
                }
                EntryKind::Dir => match dir.open_dir(Path::new(name)) {
                    Ok(sub) => {
                        self.mode(&rel, sub.metadata());
                        self.dir(&sub, &format!("{rel}/"), depth + 1);
                    }
                    Err(e) => {
                        let change = self.refused(dir, name, e.reason);
                        self.push(rel, change);
                    }
                },
                EntryKind::File => self.file(dir, name, rel),
                EntryKind::Symlink => {
                    self.claim(&rel);
                    let target = link_target(dir, name);
                    self.push(rel, Change::Link { target });
                }
                EntryKind::Other => {
                    self.claim(&rel);
                    self.push(rel, Change::NotAFile("a fifo, socket or device"));
                }
            }
        }
    }

    /// What an entry that could not be opened is.
    fn refused(&self, dir: &Dir, name: &OsStr, reason: Reason) -> Change {
        match reason {
            Reason::Link => Change::Link {
                target: link_target(dir, name),
            },
            Reason::NotFile(kind) => Change::NotAFile(kind_name(kind)),
            other => Change::Unreadable(other.to_string()),
        }
    }

    /// Marks the locked file at `rel`, if any, as found (in whatever form:
    /// the drift reported says how it differs); its index.
    fn claim(&mut self, rel: &str) -> Option<usize> {
        let i = self
            .locked
            .binary_search_by(|f| f.path.as_str().cmp(rel))
            .ok()?;
        self.seen[i] = true;
        Some(i)
    }

    /// The regular file `name` of `dir`, at `rel`.
    fn file(&mut self, dir: &Dir, name: &OsStr, rel: String) {
        let Some(i) = self.claim(&rel) else {
            self.push(rel, Change::Added);
            return;
        };
        let lock = self.locked[i];
        let (mut file, meta) = match dir.open_file(Path::new(name)) {
            Ok(open) => open,
            Err(e) => {
                let change = self.refused(dir, name, e.reason);
                self.push(rel, change);
                return;
            }
        };
        self.mode(&rel, &meta);
        if meta.len() != lock.size {
            self.push(rel, Change::Edited);
            return;
        }
        match read_open(&mut file, &meta, lock.size) {
            Ok(bytes) if hex(&sha256(&bytes)) != lock.sha256 => self.push(rel, Change::Edited),
            Ok(_) if (mode_of(&meta) & 0o111 != 0) != lock.executable => {
                self.push(rel, Change::Mode);
            }
            Ok(_) => {}
            Err(Reason::TooLarge { .. }) => self.push(rel, Change::Edited),
            Err(other) => self.push(rel, Change::Unreadable(other.to_string())),
        }
    }
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

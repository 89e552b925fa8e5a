//! Reading a lock file: the one reader of `skb.lock` for the CLI, the
//! runtime's check and `skills_bundle!(lock = …)`.
//!
//! Bounded ([`MAX_LOCK_FILE`], checked before anything is allocated), UTF-8
//! or refused (never repaired: a lock whose bytes were replaced would read
//! as a lock nobody wrote), parsed strictly ([`Lock::parse`]), and checked
//! for its [`Scope`] ([`Scope::check`]). A project's own lock is read below
//! its root without following a link (the lock is committed: a link there
//! could name any file); a lock the caller names by its path, and the
//! user's, are read through links like any path the user names.

use std::fmt;
use std::path::{Path, PathBuf};

use super::model::{FILE_NAME, Lock, MAX_LOCK_FILE};
use super::read::ParseError;
use super::scope::{Scope, ScopeError};
use crate::fsread::{self, Dir, FileError, Reason};

/// Why a lock file could not be read, naming the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The file could not be read: missing ([`ReadError::is_not_found`]),
    /// not a regular file, reached through a link, over [`MAX_LOCK_FILE`].
    File(FileError),
    /// The file is not UTF-8.
    NotUtf8 {
        /// The lock file.
        path: PathBuf,
        /// The offset of the first byte that is not.
        at: usize,
    },
    /// The file is not a lock this version reads.
    Parse {
        /// The lock file.
        path: PathBuf,
        /// Why, and where.
        error: ParseError,
    },
    /// An `installed` entry is not of the lock's scope.
    Scope {
        /// The lock file.
        path: PathBuf,
        /// Which skill and entry, and why.
        error: ScopeError,
    },
}

impl ReadError {
    /// Whether the lock file (or a folder on its path) does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::File(e) if e.is_not_found())
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        match self {
            ReadError::File(e) => &e.path,
            ReadError::NotUtf8 { path, .. }
            | ReadError::Parse { path, .. }
            | ReadError::Scope { path, .. } => path,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::File(e) => write!(f, "{e}"),
            ReadError::NotUtf8 { path, at } => {
                write!(f, "{}: not UTF-8 (at byte {at})", path.display())
            }
            ReadError::Parse { path, error } => write!(f, "{}: {error}", path.display()),
            ReadError::Scope { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::File(e) => Some(e),
            ReadError::NotUtf8 { .. } => None,
            ReadError::Parse { error, .. } => Some(error),
            ReadError::Scope { error, .. } => Some(error),
        }
    }
}

/// Reads the lock file at `path` (links in it followed: the caller named
/// it) as a lock of `scope`.
pub fn read(path: &Path, scope: &Scope) -> Result<Lock, ReadError> {
    let bytes = fsread::read_file(path, MAX_LOCK_FILE).map_err(ReadError::File)?;
    decode(bytes, path, scope)
}

impl Scope {
    /// Reads this scope's lock ([`Scope::lock_path`]): a project's below
    /// its root without following a link, the user's as named.
    pub fn read_lock(&self) -> Result<Lock, ReadError> {
        match self {
            Scope::Project { root } => {
                let path = root.join(FILE_NAME);
                let dir = Dir::open(root)
                    .map_err(|e| ReadError::File(FileError::new(path.clone(), Reason::Io(e))))?;
                let bytes = dir
                    .read(Path::new(FILE_NAME), MAX_LOCK_FILE)
                    .map_err(ReadError::File)?;
                decode(bytes, &path, self)
            }
            Scope::User { lock, .. } => read(lock, self),
        }
    }

    /// [`Scope::read_lock`], with an empty lock when there is no lock file
    /// yet (nothing installed).
    pub fn read_lock_or_empty(&self) -> Result<Lock, ReadError> {
        match self.read_lock() {
            Err(e) if e.is_not_found() => Ok(Lock::default()),
            other => other,
        }
    }
}

/// The lock in `bytes`, read from `path`, checked for `scope`.
fn decode(bytes: Vec<u8>, path: &Path, scope: &Scope) -> Result<Lock, ReadError> {
    let text = String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        path: path.to_path_buf(),
        at: e.utf8_error().valid_up_to(),
    })?;
    let lock = Lock::parse(&text).map_err(|error| ReadError::Parse {
        path: path.to_path_buf(),
        error,
    })?;
    scope.check(&lock).map_err(|error| ReadError::Scope {
        path: path.to_path_buf(),
        error,
    })?;
    Ok(lock)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::scope::Rule;
    use crate::lock::{LockedSkill, tests::local, tree};

    fn skill(installed: &str) -> LockedSkill {
        local(
            "pdf",
            vec![installed.into()],
            tree::hash_files([("SKILL.md", &b"x"[..], false)]),
        )
    }

    fn write(dir: &Path, installed: &str) -> Lock {
        let mut lock = Lock::default();
        lock.insert(skill(installed));
        std::fs::write(dir.join(FILE_NAME), lock.to_json()).expect("write");
        lock
    }

    #[test]
    fn a_project_lock_reads_back_and_a_missing_one_is_empty_or_not_found() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let scope = Scope::project(tmp.path());
        let e = scope.read_lock().expect_err("no lock yet");
        assert!(e.is_not_found(), "{e}");
        assert_eq!(scope.read_lock_or_empty().expect("empty"), Lock::default());
        let lock = write(tmp.path(), ".claude/skills/pdf");
        assert_eq!(scope.read_lock().expect("read"), lock);
        assert_eq!(
            read(&tmp.path().join(FILE_NAME), &scope).expect("read"),
            lock
        );
    }

    #[test]
    fn invalid_utf8_is_refused_not_replaced() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let scope = Scope::project(tmp.path());
        let lock = write(tmp.path(), ".claude/skills/pdf");
        // A byte that is not UTF-8 inside the source string: a lossy
        // reader would read U+FFFD and accept the lock.
        let text = lock
            .to_json()
            .replace("\"source\": \"s\"", "\"source\": \"s\u{1}\"");
        let mut bytes = text.into_bytes();
        let at = bytes.iter().position(|b| *b == 1).expect("marker");
        bytes[at] = 0xff;
        std::fs::write(tmp.path().join(FILE_NAME), &bytes).expect("write");
        match scope.read_lock() {
            Err(ReadError::NotUtf8 { at: found, .. }) => assert_eq!(found, at),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_project_lock_naming_home_is_refused_naming_the_skill_and_path() {
        let tmp = tempfile::tempdir().expect("tempdir");
        write(tmp.path(), "~/.claude/skills/pdf");
        let e = Scope::project(tmp.path()).read_lock().expect_err("home");
        match &e {
            ReadError::Scope { error, .. } => {
                assert_eq!(error.rule, Rule::HomeInProject);
                assert_eq!(
                    (error.skill.as_str(), error.installed.as_str()),
                    ("pdf", "~/.claude/skills/pdf")
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(
            e.to_string()
                .contains("skill `pdf`: `~/.claude/skills/pdf`"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_project_lock_that_is_a_link_is_not_followed() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let elsewhere = tmp.path().join("elsewhere");
        let project = tmp.path().join("p");
        std::fs::create_dir_all(&elsewhere).expect("mkdir");
        std::fs::create_dir_all(&project).expect("mkdir");
        write(&elsewhere, ".claude/skills/pdf");
        std::os::unix::fs::symlink(elsewhere.join(FILE_NAME), project.join(FILE_NAME))
            .expect("link");
        match Scope::project(&project).read_lock() {
            Err(ReadError::File(e)) => assert!(matches!(e.reason, Reason::Link), "{e}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_users_lock_is_read_from_its_config_folder() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let scope =
            Scope::user(tmp.path(), Some(tmp.path().join("cfg").as_os_str())).expect("absolute");
        let dir = tmp.path().join("cfg/skb");
        std::fs::create_dir_all(&dir).expect("mkdir");
        let lock = write(&dir, "~/.claude/skills/pdf");
        assert_eq!(scope.read_lock().expect("read"), lock);
        write(&dir, ".claude/skills/pdf");
        let e = scope.read_lock().expect_err("relative in the user's lock");
        assert!(matches!(&e, ReadError::Scope { error, .. } if error.rule == Rule::OutsideHome));
    }
}

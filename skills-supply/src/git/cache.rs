//! Where a checkout's objects are kept: the commit cache, a bare repository
//! per source under [`GitOptions::cache`](super::GitOptions) named by a hash
//! of the normalised URL, so that a commit fetched once is checked out again
//! without the network; or, without a cache, a throwaway repository beside
//! the checkout.
//!
//! The cache is trusted no more than the network: every object of a commit
//! found there is hashed again before it is used (`checkout.rs`), and one
//! that does not hash to its id gets the repository thrown away and fetched
//! again. What this module owns is the folder: created private (`0700`), and
//! refused when it is a symbolic link, not a folder, owned by another user
//! or writable by others (anyone who can write there could plant objects,
//! refs or configuration); and the lock that keeps two `skb` processes from
//! fetching into one repository at once (an exclusive lock on a file beside
//! it, held for the whole checkout, waited for until the call's deadline).

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use super::GitError;

/// How long a process waiting for another's lock sleeps between tries.
const LOCK_POLL: Duration = Duration::from_millis(20);

/// The repository a checkout fetches into and reads from.
#[derive(Debug)]
pub(super) struct Store {
    /// The bare repository (it may not exist yet: [`Store::exists`]).
    pub(super) git_dir: PathBuf,
    /// Whether it outlives the checkout (the cache), so a commit may already
    /// be in it.
    pub(super) cached: bool,
    /// The cache's lock, held while the store is in use.
    _lock: Option<File>,
}

impl Store {
    /// A throwaway repository at `git_dir`, not yet created.
    pub(super) fn temporary(git_dir: PathBuf) -> Store {
        Store {
            git_dir,
            cached: false,
            _lock: None,
        }
    }

    /// The cache's repository for `url` (a SHA-256 repository when
    /// `sha256`) under `root`, locked for this process: `root` created
    /// private if absent, and refused when it is not private; waits for
    /// another process's lock until `deadline`.
    pub(super) fn cached(
        root: &Path,
        url: &str,
        sha256: bool,
        deadline: Instant,
    ) -> Result<Store, GitError> {
        private_dir(root)?;
        let key = key(url, sha256);
        let lock_path = root.join(format!("{key}.lock"));
        let lock = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|source| GitError::Io {
                path: lock_path.clone(),
                source,
            })?;
        loop {
            match lock.try_lock() {
                Ok(()) => break,
                Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    thread::sleep(LOCK_POLL);
                }
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(refuse(
                        &lock_path,
                        "another `skb` held its lock until the time allowed ran out; try again",
                    ));
                }
                Err(fs::TryLockError::Error(source)) => {
                    return Err(GitError::Io {
                        path: lock_path,
                        source,
                    });
                }
            }
        }
        let git_dir = root.join(format!("{key}.git"));
        match fs::symlink_metadata(&git_dir) {
            Ok(meta) if !meta.is_dir() => {
                return Err(refuse(&git_dir, "it is not a folder (a symbolic link?)"));
            }
            _ => {}
        }
        Ok(Store {
            git_dir,
            cached: true,
            _lock: Some(lock),
        })
    }

    /// Whether the repository has been created.
    pub(super) fn exists(&self) -> bool {
        self.git_dir.join("HEAD").is_file()
    }

    /// Where a new repository is made before it is renamed into place, so
    /// a process stopped halfway leaves no repository without objects.
    pub(super) fn staging_dir(&self) -> PathBuf {
        let mut name = self.git_dir.as_os_str().to_owned();
        name.push(".new");
        PathBuf::from(name)
    }

    /// Removes what is at `path`, if anything (a folder with what it holds).
    pub(super) fn remove(path: &Path) -> Result<(), GitError> {
        let gone = match fs::symlink_metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
            _ => fs::remove_file(path),
        };
        gone.map_err(|source| GitError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// The name of `url`'s repository in the cache: the SHA-256 of the URL as
/// [`normalise`] writes it, and of the object format.
fn key(url: &str, sha256: bool) -> String {
    let mut hash = Sha256::new();
    hash.update(normalise(url).as_bytes());
    hash.update(if sha256 { b"\0sha256" } else { b"\0sha1\0\0" });
    hash.finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `url` without credentials (a token that changes is the same
/// repository), its scheme and host lowercased, and without trailing `/`
/// or `.git`. Two spellings of one repository share its cache; two
/// repositories that end up sharing one share only objects, which are
/// named by their content.
fn normalise(url: &str) -> String {
    let url = url.trim();
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme.to_ascii_lowercase()), rest),
        None => (None, url),
    };
    let (authority, path) = match scheme {
        Some(_) => rest.split_once('/').unwrap_or((rest, "")),
        None => ("", rest),
    };
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host)
        .to_ascii_lowercase();
    let mut path = path.trim_end_matches('/');
    path = path.strip_suffix(".git").unwrap_or(path);
    match scheme {
        Some(scheme) => format!("{scheme}://{host}/{path}"),
        None => path.to_owned(),
    }
}

fn refuse(path: &Path, reason: &str) -> GitError {
    GitError::Cache {
        path: path.to_path_buf(),
        reason: reason.to_owned(),
    }
}

/// Creates `dir` (and its missing parents) readable by this user only, or
/// checks that the `dir` there is private: a folder, not a link, owned by
/// this user and writable by nobody else.
fn private_dir(dir: &Path) -> Result<(), GitError> {
    let meta = match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            create_private(dir).map_err(|source| GitError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
            fs::symlink_metadata(dir)
        }
        other => other,
    }
    .map_err(|source| GitError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    if meta.file_type().is_symlink() {
        return Err(refuse(dir, "it is a symbolic link"));
    }
    if !meta.is_dir() {
        return Err(refuse(dir, "it is not a folder"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != rustix::process::getuid().as_raw() {
            return Err(refuse(dir, "it is owned by another user"));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(refuse(dir, "it is writable by other users; `chmod 700` it"));
        }
    }
    Ok(())
}

#[cfg(unix)]
fn create_private(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn create_private(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_repository_share_a_key() {
        let one = key("https://github.com/o/r.git", false);
        for same in [
            "https://github.com/o/r",
            "HTTPS://GitHub.com/o/r/",
            "https://user:token@github.com/o/r.git",
            " https://github.com/o/r.git\n",
        ] {
            assert_eq!(key(same, false), one, "{same}");
        }
        for other in [
            "https://github.com/o/R",
            "https://github.com/o/r2",
            "https://gitlab.com/o/r",
            "ssh://github.com/o/r",
        ] {
            assert_ne!(key(other, false), one, "{other}");
        }
        assert_ne!(key("https://github.com/o/r", true), one);
        assert_eq!(one.len(), 32);
        assert_eq!(normalise("git@github.com:o/r.git"), "git@github.com:o/r");
    }

    #[cfg(unix)]
    #[test]
    fn the_folder_is_made_private_and_a_shared_one_refused() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("a/b/git");
        let deadline = Instant::now() + Duration::from_secs(5);
        let store = Store::cached(&root, "https://h/r", false, deadline);
        assert!(matches!(store, Ok(Store { cached: true, .. })));
        let mode = fs::metadata(&root).map(|m| m.permissions().mode() & 0o777);
        assert_eq!(mode.ok(), Some(0o700));
        drop(store);
        let _ = fs::set_permissions(&root, fs::Permissions::from_mode(0o777));
        let err = Store::cached(&root, "https://h/r", false, deadline);
        assert!(matches!(err, Err(GitError::Cache { .. })));
        let link = tmp.path().join("link");
        let _ = std::os::unix::fs::symlink(&root, &link);
        let err = Store::cached(&link, "https://h/r", false, deadline);
        assert!(
            matches!(&err, Err(GitError::Cache { reason, .. }) if reason.contains("symbolic link"))
        );
    }

    #[test]
    fn a_second_store_waits_for_the_first() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("git");
        let soon = Instant::now() + Duration::from_millis(200);
        let first = Store::cached(&root, "https://h/r", false, soon);
        assert!(first.is_ok());
        let second = Store::cached(&root, "https://h/r", false, soon);
        assert!(matches!(&second, Err(GitError::Cache { reason, .. }) if reason.contains("lock")));
        // Another repository is not held up.
        assert!(Store::cached(&root, "https://h/other", false, soon).is_ok());
        drop(first);
        assert!(Store::cached(&root, "https://h/r", false, soon).is_ok());
    }
}

//! The project a command changes: its root, its lock file, and the guard
//! that lets one `skb` at a time change it.
//!
//! The guard is an exclusive advisory lock on `.skb/guard` (a file that is
//! never replaced: the lock file itself is, by rename, so locking it would
//! let a second process lock the new file while the first holds the old).
//! A second `skb add` in the same project waits for the first. `.skb/` also
//! holds the backups `--force` keeps of folders with local edits, and a
//! `.gitignore` that keeps all of it out of the project's history.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use skills_core::fsread;
use skills_core::lock::{self, Lock};

/// A project (or, with `--global`, the user's home) and its lock.
#[derive(Debug)]
pub struct Project {
    /// The folder the lock's `installed` paths are relative to.
    pub root: PathBuf,
    /// The lock file.
    pub lock_path: PathBuf,
    /// Whether installed paths are below the home directory (`~/…`).
    pub global: bool,
}

/// Held while a command changes the project; released when dropped.
#[derive(Debug)]
pub struct Guard {
    _file: File,
}

impl Project {
    /// The project at `root`.
    pub fn at(root: &Path) -> Project {
        Project {
            root: root.to_path_buf(),
            lock_path: root.join(lock::FILE_NAME),
            global: false,
        }
    }

    /// The user's scope: folders below `home`, the lock in skb's
    /// configuration folder (`$XDG_CONFIG_HOME/skb`, else `~/.config/skb`).
    pub fn user(home: &Path) -> Project {
        let config = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .unwrap_or_else(|| home.join(".config"));
        Project {
            root: home.to_path_buf(),
            lock_path: config.join("skb").join(lock::FILE_NAME),
            global: true,
        }
    }

    /// The folder for skb's own state: the guard, backups.
    pub fn state_dir(&self) -> PathBuf {
        match self.lock_path.parent() {
            Some(p) if self.global => p.to_path_buf(),
            _ => self.root.join(".skb"),
        }
    }

    /// Takes the project's guard, waiting for another `skb` to finish.
    pub fn lock(&self) -> io::Result<Guard> {
        let dir = self.state_dir();
        fs::create_dir_all(&dir).map_err(|e| annotate(e, &dir))?;
        if !self.global {
            // The guard and the backups are this machine's, never the
            // project's history.
            let ignore = dir.join(".gitignore");
            if fs::symlink_metadata(&ignore).is_err() {
                fs::write(&ignore, "*\n").map_err(|e| annotate(e, &ignore))?;
            }
        }
        let path = dir.join("guard");
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| annotate(e, &path))?;
        if file.try_lock().is_err() {
            eprintln!(
                "skb: waiting for another skb working in {}",
                self.root.display()
            );
            file.lock().map_err(|e| annotate(e, &path))?;
        }
        Ok(Guard { _file: file })
    }

    /// The lock, or an empty one when the file does not exist.
    pub fn read_lock(&self) -> io::Result<Lock> {
        match fsread::read_file(&self.lock_path, lock::MAX_LOCK_FILE) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes)
                    .map_err(|_| invalid(format!("{}: not UTF-8", self.lock_path.display())))?;
                Lock::parse(&text)
                    .map_err(|e| invalid(format!("{}: {e}", self.lock_path.display())))
            }
            Err(e) if e.is_not_found() => Ok(Lock::default()),
            Err(e) => Err(invalid(e.to_string())),
        }
    }

    /// Whether the lock file exists.
    pub fn has_lock(&self) -> bool {
        fs::symlink_metadata(&self.lock_path).is_ok()
    }

    /// Writes `lock` through a temporary file renamed over the old one.
    pub fn write_lock(&self, lock: &Lock) -> io::Result<()> {
        let dir = match self.lock_path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&dir).map_err(|e| annotate(e, &dir))?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".skb.lock.")
            .tempfile_in(&dir)
            .map_err(|e| annotate(e, &dir))?;
        tmp.write_all(lock.to_json().as_bytes())
            .and_then(|()| tmp.as_file().sync_all())
            .map_err(|e| annotate(e, &self.lock_path))?;
        tmp.persist(&self.lock_path)
            .map_err(|e| annotate(e.error, &self.lock_path))?;
        Ok(())
    }

    /// The absolute folder of an `installed` entry.
    pub fn folder(&self, installed: &str) -> PathBuf {
        match installed.strip_prefix("~/") {
            Some(rel) if self.global => self.root.join(rel),
            _ => self.root.join(installed),
        }
    }
}

/// `e` with the path it is about.
pub fn annotate(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// An error of kind `InvalidData` (exit status 1).
pub fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// `e` prefixed with the source as the user wrote it: an archive fetched
/// from a URL or a registry has no path of its own to name.
pub fn named(e: io::Error, source: &str) -> io::Error {
    io::Error::new(e.kind(), format!("`{source}`: {e}"))
}

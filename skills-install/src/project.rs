//! The project an operation changes: its root (the folder the lock's
//! `installed` paths live under), its state folder, its lock file, and the
//! guard that lets one `skb` at a time change it.
//!
//! A project's state folder is `<project>/.skb` (with a `.gitignore` that
//! keeps it out of the project's history); the user's scope (`--global`)
//! has its folders below the home folder and its lock and state in
//! `$XDG_CONFIG_HOME/skb` (else `~/.config/skb`). The state folder holds
//! the guard, the transactions ([`crate::commit`]) and the backups
//! `--force` keeps.
//!
//! The guard is an exclusive advisory lock on `<state>/guard`, a file that
//! is never replaced (the lock file itself is, by rename). Taking it first
//! finishes or undoes whatever an interrupted command left
//! ([`crate::commit::recover`]).

use std::fs::File;
use std::path::{Path, PathBuf};

use skills_core::lock::{self, Lock, Scope};

use crate::commit::{self, At, Base, Recovered, Roots};
use crate::error::{Error, ErrorKind, Result, Stage};
use crate::observe::{Event, Note, Observer};
use crate::root::{Rel, Root};

/// A project (or, with `--global`, the user's home) and its lock.
#[derive(Debug, Clone)]
pub struct Project {
    /// The folder the lock's `installed` paths are relative to.
    pub root: PathBuf,
    /// The lock file.
    pub lock_path: PathBuf,
    /// Whether this is the user's scope (installed paths below `~/`).
    pub global: bool,
    state: PathBuf,
    scope: Scope,
}

/// The project's folders, open.
#[derive(Debug)]
pub(crate) struct Opened {
    /// The project (or home) folder.
    pub(crate) target: Root,
    /// The state folder.
    pub(crate) state: Root,
}

impl Opened {
    /// Both, for a transaction.
    pub(crate) fn roots(&self) -> Roots<'_> {
        Roots {
            target: &self.target,
            state: &self.state,
        }
    }
}

/// Held while an operation changes the project; released when dropped.
#[derive(Debug)]
pub struct Guard {
    _file: File,
}

/// The name of the lock file below the state folder of the user's scope.
const USER_LOCK: &str = lock::FILE_NAME;

impl Project {
    /// The project at `root` (absolute).
    pub fn at(root: &Path) -> Project {
        Project {
            root: root.to_path_buf(),
            lock_path: root.join(lock::FILE_NAME),
            global: false,
            state: root.join(".skb"),
            scope: Scope::project(root),
        }
    }

    /// The user's scope: folders below `home` (absolute), the lock and
    /// state in skb's configuration folder (`$XDG_CONFIG_HOME/skb` when that
    /// is absolute, else `~/.config/skb`: [`Scope::user`]'s rule).
    pub fn user(home: &Path) -> Result<Project> {
        let scope = Scope::user(home, std::env::var_os("XDG_CONFIG_HOME").as_deref())
            .map_err(|e| Error::new(Stage::Lock, ErrorKind::NotFound, e.to_string()))?;
        let lock_path = scope.lock_path();
        let state = lock_path
            .parent()
            .map_or_else(|| home.join(".config/skb"), Path::to_path_buf);
        Ok(Project {
            root: home.to_path_buf(),
            lock_path,
            global: true,
            state,
            scope,
        })
    }

    /// Where the lock's folders and the lock are ([`Scope`]).
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The state folder: the guard, transactions, backups.
    pub fn state_dir(&self) -> &Path {
        &self.state
    }

    /// Opens the project's root and state folders (creating the state
    /// folder, never through a link).
    pub(crate) fn open(&self) -> Result<Opened> {
        let target = self.open_target()?;
        let state = match self.open_state(&target, true)? {
            Some(state) => state,
            None => return Err(Error::new(Stage::Lock, ErrorKind::Io, "no state folder")),
        };
        Ok(Opened { target, state })
    }

    fn open_target(&self) -> Result<Root> {
        // The home folder of a user's scope is made if missing (a fresh
        // account, a test's `HOME`); a project folder must exist.
        if self.global {
            Root::open_home(&self.root)
        } else {
            Root::open(&self.root, false)
        }
        .map_err(|e| Error::io(Stage::Lock, &self.root, e))
    }

    /// The state folder, created when `create`; `None` when it does not
    /// exist and is not to be created.
    fn open_state(&self, target: &Root, create: bool) -> Result<Option<Root>> {
        let exists = if self.global {
            self.state.is_dir()
        } else {
            target.kind(&rel(".skb")?).map_err(at_lock)?.is_some()
        };
        if !exists && !create {
            return Ok(None);
        }
        let state = if self.global {
            Root::open(&self.state, true)
        } else {
            target.sub(&rel(".skb")?)
        }
        .map_err(at_lock)?;
        Ok(Some(state))
    }

    /// Takes the project's guard (waiting for another `skb` to finish),
    /// then finishes or undoes what an interrupted command left.
    pub(crate) fn guard(&self, opened: &Opened, observer: &dyn Observer) -> Result<Guard> {
        if !self.global {
            // The guard, transactions and backups are this machine's,
            // never the project's history.
            let ignore = rel(".gitignore")?;
            if opened.state.kind(&ignore).map_err(at_lock)?.is_none() {
                match opened.state.create_file(&ignore, b"*\n", false) {
                    Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                        return Err(at_lock(e));
                    }
                    _ => {}
                }
            }
        }
        let file = opened.state.open_lockfile("guard").map_err(at_lock)?;
        if file.try_lock().is_err() {
            observer.event(Event::Waiting {
                project: &self.root,
            });
            file.lock()
                .map_err(|e| Error::io(Stage::Lock, &self.state.join("guard"), e))?;
        }
        let lock_at = self.lock_at()?;
        let scope = &self.scope;
        let target = |rel: &Rel| scope.is_skill_folder(rel.as_str());
        let bounds = commit::Bounds {
            target: &target,
            lock: &lock_at,
        };
        for r in commit::recover(opened.roots(), bounds).map_err(at_lock)? {
            observer.event(Event::Note(Note::Recovered {
                what: match r {
                    Recovered::RolledBack => "an interrupted skb command had not changed anything; its staged files were removed".to_string(),
                    Recovered::Finished => "an interrupted skb command was finished: every folder and the lock are as it meant to leave them".to_string(),
                },
            }));
        }
        Ok(Guard { _file: file })
    }

    /// Whether an interrupted command left a transaction that the next
    /// changing command finishes or undoes (for commands that only read,
    /// which say so rather than trust a half-changed project).
    pub fn interrupted(&self) -> Result<bool> {
        let target = self.open_target()?;
        match self.open_state(&target, false)? {
            Some(state) => commit::pending(&state).map_err(at_lock),
            None => Ok(false),
        }
    }

    /// Where the lock file is, for a transaction.
    pub(crate) fn lock_at(&self) -> Result<At> {
        Ok(if self.global {
            At::new(Base::State, &rel(USER_LOCK)?)
        } else {
            At::new(Base::Target, &rel(lock::FILE_NAME)?)
        })
    }

    /// The lock as it is now (an empty one when there is no lock file),
    /// read by skills-core's one reader ([`Scope::read_lock`]: bounded,
    /// UTF-8 or refused, strict, checked for its scope; a project's lock
    /// read below its root without following a link). An operation reads
    /// it under the guard; commands that only read take no guard.
    pub fn read(&self) -> Result<Lock> {
        self.scope
            .read_lock_or_empty()
            .map_err(|e| Error::refused(Stage::Lock, e.to_string()))
    }

    /// Whether the lock file exists.
    pub(crate) fn has_lock(&self, opened: &Opened) -> Result<bool> {
        let (root, name) = if self.global {
            (&opened.state, USER_LOCK)
        } else {
            (&opened.target, lock::FILE_NAME)
        };
        Ok(root.kind(&rel(name)?).map_err(at_lock)?.is_some())
    }

    /// An `installed` entry of the lock as a path below the root, when it
    /// is of this project's scope ([`Scope::below_root`]: relative in a
    /// project, below `~/` in the user's scope).
    pub(crate) fn installed_rel(&self, rec: &str) -> Result<Rel> {
        self.scope
            .below_root(rec)
            .and_then(Rel::new)
            .ok_or_else(|| {
                Error::refused(
                    Stage::Lock,
                    format!(
                        "`{rec}` is not a folder of this {}",
                        if self.global {
                            "user's scope (below `~/`)"
                        } else {
                            "project (a project's lock installs only inside the project)"
                        }
                    ),
                )
            })
    }

    /// The absolute folder of an `installed` entry, for messages.
    pub fn folder(&self, installed: &str) -> PathBuf {
        match installed.strip_prefix("~/") {
            Some(rel) if self.global => self.root.join(rel),
            _ => self.root.join(installed),
        }
    }

    /// A fresh backup place for the folder `name`, in the state folder.
    pub(crate) fn backup_at(&self, opened: &Opened, name: &str) -> Result<At> {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut n = 0u32;
        loop {
            let r = rel(&format!("backup/{name}-{secs}-{n}"))?;
            if opened.state.kind(&r).map_err(at_lock)?.is_none() {
                return Ok(At::new(Base::State, &r));
            }
            n += 1;
        }
    }
}

fn at_lock(e: std::io::Error) -> Error {
    Error::new(
        Stage::Lock,
        if e.kind() == std::io::ErrorKind::InvalidData {
            ErrorKind::Refused
        } else {
            ErrorKind::Io
        },
        e.to_string(),
    )
}

fn rel(path: &str) -> Result<Rel> {
    Rel::new(path).ok_or_else(|| {
        Error::new(
            Stage::Lock,
            ErrorKind::Usage,
            format!("`{path}`: not a relative path"),
        )
    })
}

//! Checking, at an agent's start, that the skills installed in a project
//! are what its `skb.lock` says: every file of every installed folder
//! re-hashed against the lock (the check `skb verify --installed` makes),
//! parsing nothing, so a skill edited on disk since it was reviewed is
//! caught before it is loaded.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let report = skills_bundle::installed::verify(std::path::Path::new("."))?;
//! if !report.is_clean() {
//!     for (folder, drift) in &report.drift {
//!         eprintln!("{folder}: {drift}");
//!     }
//!     return Err("installed skills differ from skb.lock".into());
//! }
//! # Ok(())
//! # }
//! ```

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use skills_core::fsread::{self, FileError};
use skills_core::lock::{self, Lock};

pub use skills_core::lock::tree::{Change, Drift};
pub use skills_core::lock::{FILE_NAME, ParseError};

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// Skills the lock names.
    pub skills: usize,
    /// Folders checked (a skill may be installed for several clients).
    pub folders: usize,
    /// Every difference: the folder as the lock records it, and how.
    pub drift: Vec<(String, Drift)>,
}

impl Report {
    /// Whether every folder is exactly as locked.
    pub fn is_clean(&self) -> bool {
        self.drift.is_empty()
    }
}

/// Why the check could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum InstalledError {
    /// The lock file could not be read (missing, not a file, too large).
    Read(FileError),
    /// The lock file is not a lock this version reads.
    Parse {
        /// The lock file.
        path: PathBuf,
        /// Why.
        error: ParseError,
    },
    /// An installed folder could not be listed.
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

impl fmt::Display for InstalledError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstalledError::Read(e) => write!(f, "{e}"),
            InstalledError::Parse { path, error } => write!(f, "{}: {error}", path.display()),
            InstalledError::Folder { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for InstalledError {}

/// Checks the folders `<project>/skb.lock` names against it. Folders the
/// lock records below `~/` are looked for under `HOME`.
pub fn verify(project: &Path) -> Result<Report, InstalledError> {
    let path = project.join(FILE_NAME);
    let bytes = fsread::read_file(&path, lock::MAX_LOCK_FILE).map_err(InstalledError::Read)?;
    let text = String::from_utf8_lossy(&bytes);
    let lock = Lock::parse(&text).map_err(|error| InstalledError::Parse {
        path: path.clone(),
        error,
    })?;
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut report = Report {
        skills: lock.skills.len(),
        folders: 0,
        drift: Vec::new(),
    };
    for skill in &lock.skills {
        for rec in &skill.installed {
            let dir = match (rec.strip_prefix("~/"), &home) {
                (Some(rel), Some(home)) => home.join(rel),
                (Some(_), None) => continue,
                (None, _) => project.join(rec),
            };
            report.folders += 1;
            let drift = lock::tree::check(&dir, &skill.files)
                .map_err(|error| InstalledError::Folder { path: dir, error })?;
            report
                .drift
                .extend(drift.into_iter().map(|d| (rec.clone(), d)));
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_core::lock::{LockedSkill, Resolved, tree};

    #[test]
    fn an_edited_installed_file_is_reported() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join(".agents/skills/a");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("SKILL.md"), "x").expect("write");
        let mut l = Lock::default();
        l.insert(LockedSkill {
            name: "a".into(),
            source: "s".into(),
            resolved: Resolved::Folder { path: "s".into() },
            digest: format!("sha256:{}", "0".repeat(64)),
            signer: None,
            unsigned: None,
            profile: None,
            scan: None,
            installed: vec![".agents/skills/a".into()],
            files: tree::hash_files([("SKILL.md", &b"x"[..], false)]),
        });
        std::fs::write(tmp.path().join(FILE_NAME), l.to_json()).expect("write");
        let report = verify(tmp.path()).expect("verified");
        assert!(report.is_clean());
        assert_eq!((report.skills, report.folders), (1, 1));
        std::fs::write(dir.join("SKILL.md"), "y").expect("write");
        let report = verify(tmp.path()).expect("verified");
        assert_eq!(report.drift.len(), 1);
        assert_eq!(report.drift[0].0, ".agents/skills/a");
        assert_eq!(report.drift[0].1.change, Change::Edited);
        assert!(matches!(
            verify(&tmp.path().join("nope")),
            Err(InstalledError::Read(_))
        ));
    }
}

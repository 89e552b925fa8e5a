//! Checking, at an agent's start, that the skills installed in a project
//! are what its `skb.lock` says: every file of every installed folder
//! re-hashed against the lock, every client's skills folder they are in
//! listed for folders nobody locked, no folder below the project read
//! through a symbolic link, and no file or folder with a mode the installer
//! never writes (setuid, setgid, world-writable). Parsing nothing, so a
//! skill edited or dropped on disk since it was reviewed is caught before
//! it is loaded. It is the check `skb verify --installed` makes
//! (`skills_core::lock::installed`), with the same lock reader.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let report = skills_bundle::installed::verify(std::path::Path::new("."))?;
//! if !report.is_clean() {
//!     for finding in &report.findings {
//!         eprintln!("{finding}");
//!     }
//!     return Err("installed skills differ from skb.lock".into());
//! }
//! # Ok(())
//! # }
//! ```

use std::path::Path;

pub use skills_core::lock::installed::{Finding, Report, VerifyError as InstalledError};
pub use skills_core::lock::tree::{Change, Drift};
pub use skills_core::lock::{FILE_NAME, HomeError, ParseError, ReadError, Scope, ScopeError};

/// Checks the folders `<project>/skb.lock` names against it, and the
/// clients' skills folders they are in. A project's lock names folders in
/// the project only: one naming `~/…` is an error naming the skill.
pub fn verify(project: &Path) -> Result<Report, InstalledError> {
    verify_in(&Scope::project(project))
}

/// [`verify`] for any scope: a project, or the user's
/// ([`Scope::user_from_env`]: the folders `skb add --global` installed, the
/// lock in `$XDG_CONFIG_HOME/skb` or `~/.config/skb`).
pub fn verify_in(scope: &Scope) -> Result<Report, InstalledError> {
    skills_core::lock::installed::verify_scope(scope)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_core::lock::{Lock, LockedSkill, Resolved, tree};

    fn lock_of(installed: &str) -> Lock {
        let mut l = Lock::default();
        l.insert(LockedSkill {
            name: "a".into(),
            origin: None,
            accepted: Vec::new(),
            source: "s".into(),
            resolved: Resolved::Folder { path: "s".into() },
            digest: format!("sha256:{}", "0".repeat(64)),
            signer: None,
            unsigned: None,
            profile: None,
            scan: None,
            installed: vec![installed.into()],
            files: tree::hash_files([("SKILL.md", &b"x"[..], false)]),
        });
        l
    }

    #[test]
    fn an_edited_installed_file_is_reported() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join(".agents/skills/a");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("SKILL.md"), "x").expect("write");
        let l = lock_of(".agents/skills/a");
        std::fs::write(tmp.path().join(FILE_NAME), l.to_json()).expect("write");
        let report = verify(tmp.path()).expect("verified");
        assert!(report.is_clean());
        assert_eq!((report.skills, report.folders), (1, 1));
        std::fs::write(dir.join("SKILL.md"), "y").expect("write");
        let report = verify(tmp.path()).expect("verified");
        assert_eq!(report.findings.len(), 1);
        assert_eq!(report.findings[0].folder, ".agents/skills/a");
        assert_eq!(report.findings[0].drift.change, Change::Edited);
        assert!(matches!(
            verify(&tmp.path().join("nope")),
            Err(InstalledError::Lock(e)) if e.is_not_found()
        ));
    }

    /// The attack: a project's lock naming `~/…` used to be checked (or
    /// installed) in the user's home; now it is an error naming the skill.
    #[test]
    fn a_project_lock_naming_the_home_folder_is_refused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let l = lock_of("~/.claude/skills/a");
        std::fs::write(tmp.path().join(FILE_NAME), l.to_json()).expect("write");
        let e = verify(tmp.path()).expect_err("a home folder in a project's lock");
        assert!(
            e.to_string()
                .contains("skill `a`: `~/.claude/skills/a` is in the user's home"),
            "{e}"
        );
    }

    /// The attack: bytes that are not UTF-8 were replaced with U+FFFD and
    /// the lock read anyway.
    #[test]
    fn a_lock_that_is_not_utf8_is_refused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut bytes = lock_of(".agents/skills/a").to_json().into_bytes();
        let at = bytes
            .windows(3)
            .position(|w| w == b"\"s\"")
            .expect("the source");
        bytes[at + 1] = 0xff;
        std::fs::write(tmp.path().join(FILE_NAME), bytes).expect("write");
        assert!(matches!(
            verify(tmp.path()),
            Err(InstalledError::Lock(ReadError::NotUtf8 { .. }))
        ));
    }
}

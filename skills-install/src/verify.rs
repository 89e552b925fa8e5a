//! `verify --installed`: the installed tree against the lock, the lock's
//! records against the trusted keys, and what Vercel's CLI installed
//! against its `skills-lock.json`; reading only (no guard taken, nothing
//! fetched, nothing written).
//!
//! The tree is `skills_core::lock::installed`'s check, the one
//! `skills_bundle::installed::verify` makes at an agent's start: every
//! installed folder re-hashed, parsing nothing; the clients' skills folders
//! listed for entries no lock names; nothing below the project read through
//! a link; unsafe modes named. Every signer record is checked again
//! ([`crate::attestation`]). A transaction an interrupted command left is
//! reported rather than trusted: the next changing command finishes or
//! undoes it.

use skills_core::lock::installed::{self, Report};
use skills_core::lock::{Lock, ReadError};
use skills_supply::vercel::{self, State};

use crate::attestation::{self, Problem};
use crate::error::{Error, ErrorKind, Result, Stage};
use crate::installer::Installer;

/// What [`Installer::verify`] found.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Verified {
    /// The installed tree against the lock.
    pub report: Report,
    /// Whether the project has Vercel's `skills-lock.json`.
    pub vercel_lock: bool,
    /// Each folder Vercel's lock records, checked.
    pub vercel: Vec<vercel::Finding>,
    /// Signer records that do not hold.
    pub unattested: Vec<Problem>,
    /// Whether an interrupted command left a transaction.
    pub interrupted: bool,
}

impl Verified {
    /// Whether everything is as locked.
    pub fn is_clean(&self) -> bool {
        self.report.is_clean()
            && self.unattested.is_empty()
            && !self.interrupted
            && self
                .vercel
                .iter()
                .all(|f| matches!(f.state, State::Matches | State::Linked { .. }))
    }
}

impl Installer<'_> {
    /// Checks what is installed (see the module documentation). No lock
    /// file (nor Vercel's) is [`ErrorKind::NotFound`].
    pub fn verify(&self) -> Result<Verified> {
        let scope = self.project.scope();
        let lock_path = scope.lock_path();
        let vercel_path = scope.root().join(vercel::LOCK_FILE);
        let vercel_lock = !scope.is_user() && std::fs::symlink_metadata(&vercel_path).is_ok();
        let lock = match scope.read_lock() {
            Ok(lock) => lock,
            Err(e) if e.is_not_found() && vercel_lock => Lock::default(),
            Err(e) if e.is_not_found() => {
                return Err(Error::new(
                    Stage::Lock,
                    ErrorKind::NotFound,
                    format!(
                        "{}: no lock file (nor Vercel's {}), so nothing is known to be installed",
                        lock_path.display(),
                        vercel::LOCK_FILE
                    ),
                ));
            }
            Err(e) => return Err(refused(&e)),
        };
        // Vercel's first: the folders its lock records are not unlisted.
        let vercel = if vercel_lock {
            let vlock = vercel::read_in(scope.root()).map_err(|e| {
                Error::refused(Stage::Lock, format!("{}: {e}", vercel_path.display()))
            })?;
            vercel::verify(scope.root(), &vlock)
        } else {
            Vec::new()
        };
        let elsewhere: Vec<String> = vercel
            .iter()
            .filter(|f| f.state != State::Missing)
            .map(|f| f.folder.to_string_lossy().into_owned())
            .collect();
        let report = installed::verify(scope, &lock, &elsewhere)
            .map_err(|e| Error::refused(Stage::Lock, e.to_string()))?;
        Ok(Verified {
            report,
            vercel_lock,
            vercel,
            unattested: attestation::problems(&self.trust, &lock),
            interrupted: self.project.interrupted()?,
        })
    }
}

fn refused(e: &ReadError) -> Error {
    Error::refused(Stage::Lock, e.to_string())
}

//! `verify --installed`: the installed folders against the lock, and the
//! lock's records against the trusted keys, reading only (no guard taken,
//! nothing fetched, nothing written).
//!
//! Every folder the lock names is walked from the project's root without
//! following links and re-hashed against its locked files
//! ([`skills_core::lock::tree`]); every signer record is checked again
//! ([`crate::attestation`]). A transaction an interrupted command left is
//! reported rather than trusted: the next changing command finishes or
//! undoes it.

use skills_core::lock::tree::Drift;

use crate::attestation::{self, Problem};
use crate::error::{Error, Result, Stage};
use crate::installer::Installer;
use crate::root::Kind;

/// What [`Installer::verify`] found.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Verified {
    /// Skills the lock names.
    pub skills: usize,
    /// Folders checked.
    pub folders: usize,
    /// Files checked.
    pub files: usize,
    /// Each difference: the folder as the lock records it, and how.
    pub drift: Vec<(String, Drift)>,
    /// Signer records that do not hold.
    pub unattested: Vec<Problem>,
    /// Whether an interrupted command left a transaction.
    pub interrupted: bool,
}

impl Verified {
    /// Whether everything is as locked.
    pub fn is_clean(&self) -> bool {
        self.drift.is_empty() && self.unattested.is_empty() && !self.interrupted
    }
}

impl Installer<'_> {
    /// Checks the installed skills against the lock (see the module
    /// documentation).
    pub fn verify(&self) -> Result<Verified> {
        let lock = self.project.read()?;
        let mut out = Verified {
            skills: lock.skills.len(),
            interrupted: self.project.interrupted()?,
            unattested: attestation::problems(&self.trust, &lock),
            ..Verified::default()
        };
        let opened = self.project.open_reading()?;
        for skill in &lock.skills {
            for rec in &skill.installed {
                let rel = self.project.installed_rel(rec)?;
                let dir = opened.show(&rel);
                out.folders += 1;
                out.files += skill.files.len();
                let kind = opened
                    .kind(&rel)
                    .map_err(|e| Error::io(Stage::Stage, &dir, e))?;
                let drift = match kind {
                    Some(Kind::Dir) | None => skills_core::lock::tree::check(&dir, &skill.files)
                        .map_err(|e| Error::io(Stage::Stage, &dir, e))?,
                    Some(_) => vec![Drift {
                        path: String::new(),
                        change: skills_core::lock::tree::Change::NotAFile(
                            "a symbolic link or a file where the skill's folder was",
                        ),
                    }],
                };
                out.drift
                    .extend(drift.into_iter().map(|d| (rec.clone(), d)));
            }
        }
        Ok(out)
    }
}

//! What fetching a source gives: the folders to validate, the pin of each
//! skill found, and the signatures found beside them.

use std::collections::BTreeMap;
use std::path::Path;

use skills_bundle::zip::Limits;
use skills_core::lock::Resolved;
use skills_supply::trust::{Signer, TrustStore};

use crate::input::Inputs;

/// A signature found beside fetched bytes: what it says (checked over
/// the bytes when the store has its key), and its text, which the lock
/// keeps so that it can be checked again.
#[derive(Debug, Clone)]
pub(crate) struct Signed {
    /// Its key id and claims.
    pub signer: Signer,
    /// The `.minisig` text; empty for a git signature.
    pub text: String,
    /// For a git signature (SSH or OpenPGP): what it was made over.
    pub git: Option<skills_core::lock::GitSigned>,
}

/// A fetched source.
#[derive(Debug)]
pub(crate) struct Fetched {
    /// What the validator reads.
    pub inputs: Inputs,
    /// The pin of every skill found, unless [`Fetched::per_skill`] names it.
    pub resolved: Resolved,
    /// Pins of single skills (an index's entries).
    pub per_skill: BTreeMap<String, Resolved>,
    /// The signature over what was fetched, if it was signed.
    pub signer: Option<Signed>,
    /// Signatures of single skills (an index's entries).
    pub per_skill_signer: BTreeMap<String, Signed>,
    /// Why an unsigned remote source is trusted anyway (a pinned digest).
    pub pinned: Option<String>,
    /// Whether it came over a network.
    pub remote: bool,
    /// Every location the bytes came through (the URL asked for, each
    /// redirect, the repository git cloned, the registry's reference):
    /// the pins of each apply.
    pub locations: Vec<String>,
    /// Locations of single skills (an index's entries), beside
    /// [`Fetched::locations`].
    pub per_skill_locations: BTreeMap<String, Vec<String>>,
    /// The checkout written in [`FetchOptions::scratch`], when one was: its
    /// skills' folders may be moved into the transaction instead of copied
    /// ([`crate::adopt`]).
    pub checkout: Option<std::path::PathBuf>,
}

impl Fetched {
    /// The pin of the skill called `name`.
    pub fn resolved_for(&self, name: &str) -> Resolved {
        self.per_skill
            .get(name)
            .cloned()
            .unwrap_or_else(|| self.resolved.clone())
    }

    /// Every location the skill called `name` came through.
    pub fn locations_for(&self, name: &str) -> Vec<String> {
        let mut all = self.locations.clone();
        if let Some(more) = self.per_skill_locations.get(name) {
            all.extend(more.iter().cloned());
        }
        all
    }

    /// The signature over the skill called `name`, if it was signed, and
    /// whether it signs that skill alone (an index entry) rather than the
    /// whole source.
    pub fn signer_for(&self, name: &str) -> Option<Signed> {
        self.per_skill_signer
            .get(name)
            .cloned()
            .or_else(|| self.signer.clone())
    }
}

/// Where fetching may look and what it may accept.
pub(crate) struct FetchOptions<'a> {
    /// The working directory relative paths are read from.
    pub cwd: &'a Path,
    /// Archive limits.
    pub limits: Limits,
    /// The trusted keys a signature is checked with.
    pub trust: &'a TrustStore,
    /// The skills asked for (an index fetches only those; empty: all).
    pub skills: &'a [String],
    /// Told of transfers.
    pub observer: &'a dyn crate::observe::Observer,
    /// Plain-text transports (`http://`, `git://`, OCI over `http://`) to
    /// hosts other than this machine.
    pub allow_plain_text: bool,
    /// The commit cache of git sources ([`crate::Installer::git_cache`]).
    pub git_cache: Option<&'a Path>,
    /// A private folder on the project's file system (in its state folder)
    /// where a git checkout is written, so that the transaction can move
    /// its skills' folders in rather than write every file again; `None`:
    /// the system's temporary folder.
    pub scratch: Option<&'a Path>,
}

//! The project's trust file merged with the user's: the keys a source may
//! be signed by, by the pins of its locations, and what a signature says.

use std::path::Path;

use skills_core::pack::signature::{self, SignatureError, claims, signature_key_id};

use super::file::{PROJECT_FILE, TrustFile};
use super::key::{Origin, Publisher, TrustedKey};
use super::provenance::Provenance;
use super::signer::Signer;
use super::{TrustError, pattern};

/// The project's trust file merged with the user's.
#[derive(Debug, Clone)]
pub struct TrustStore {
    project: TrustFile,
    user: Option<TrustFile>,
}

/// The keys a source may be signed by, and the pins that chose them.
pub(super) struct Resolved<'a> {
    pub(super) keys: Vec<&'a TrustedKey>,
    pub(super) pins: Vec<String>,
}

impl TrustStore {
    /// Reads `<project_dir>/skills-trust.json` and, when given, `user_file`
    /// (see [`user_file`](super::user_file) for the usual one). A file that does not exist is
    /// empty; one that cannot be read or is invalid is an error naming it.
    pub fn load(project_dir: &Path, user_file: Option<&Path>) -> Result<TrustStore, TrustError> {
        Ok(TrustStore {
            project: TrustFile::load(&project_dir.join(PROJECT_FILE), Origin::Project)?,
            user: user_file
                .map(|path| TrustFile::load(path, Origin::User))
                .transpose()?,
        })
    }

    /// The project's file.
    pub fn project(&self) -> &TrustFile {
        &self.project
    }

    /// The project's file, to change.
    pub fn project_mut(&mut self) -> &mut TrustFile {
        &mut self.project
    }

    /// The user's file, if one was loaded.
    pub fn user(&self) -> Option<&TrustFile> {
        self.user.as_ref()
    }

    /// The user's file, to change, if one was loaded.
    pub fn user_mut(&mut self) -> Option<&mut TrustFile> {
        self.user.as_mut()
    }

    /// Trusts `key` as one of `name`'s keys in the project's file (see
    /// [`TrustFile::add_key`]); returns its id. [`save`](Self::save) writes it.
    pub fn add_key(&mut self, name: &str, key: &str) -> Result<String, TrustError> {
        self.project.add_key(name, key)
    }

    /// Writes both files (the user's only if one was loaded).
    pub fn save(&self) -> Result<(), TrustError> {
        self.project.save()?;
        self.user.as_ref().map(TrustFile::save).transpose()?;
        Ok(())
    }

    /// Every publisher of the merged store, sorted by name: the project's
    /// where both files name one.
    pub fn publishers(&self) -> Vec<&Publisher> {
        let mut all: Vec<&Publisher> = self.project.publishers().collect();
        if let Some(user) = &self.user {
            all.extend(
                user.publishers()
                    .filter(|p| self.project.publisher(&p.name).is_none()),
            );
        }
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }

    /// The keys that may sign `source` fetched from where it says (every
    /// canonical reading of it, as [`Provenance::remote`] has them),
    /// retired ones included: those the pins of its locations allow when
    /// any pins one, else every trusted key.
    pub fn keys_for(&self, source: &str) -> Vec<&TrustedKey> {
        self.resolve(Provenance::remote(source).locations()).keys
    }

    /// The key with this id in the merged store, if any.
    pub fn key(&self, id: &str) -> Option<&TrustedKey> {
        self.publishers()
            .into_iter()
            .flat_map(|p| &p.keys)
            .find(|key| key.id == id)
    }

    /// What a signature says, for [`check`](Self::check): the key id it was
    /// made with, and, when the store has that key, the claims of its
    /// trusted comment once the signature is verified over `bytes` (pins
    /// are [`check`](Self::check)'s business, not this). A signature by a
    /// key the store does not have gives its key id alone, which `check`
    /// then refuses as untrusted. Errors: a malformed signature, or one that
    /// fails to verify with a trusted key.
    pub fn signer(&self, bytes: &[u8], signature_text: &str) -> Result<Signer, SignatureError> {
        let key_id = signature_key_id(signature_text).ok_or(SignatureError::Malformed)?;
        let Some(key) = self.key(&key_id).or_else(|| {
            self.user
                .iter()
                .chain([&self.project])
                .flat_map(|file| file.publishers().flat_map(|p| &p.keys))
                .find(|key| key.id == key_id)
        }) else {
            return Ok(Signer {
                key_id,
                digest: None,
                version: None,
                timestamp: None,
                sigstore: None,
            });
        };
        let comment = signature::verify(bytes, &key.key, Some(signature_text))?;
        let claimed = claims(&comment);
        Ok(Signer {
            key_id,
            digest: claimed.as_ref().map(|c| c.digest.clone()),
            version: claimed.as_ref().and_then(|c| c.version.clone()),
            timestamp: claimed.and_then(|c| c.timestamp),
            sigstore: None,
        })
    }

    /// The keys that may sign what came through `locations`, and the pins
    /// that chose them. Each location's pins allow, within one file, the
    /// keys of every publisher pinning it; the key must be allowed by every
    /// file's pins of every location (pins accumulate); without any pin,
    /// every trusted key.
    pub(super) fn resolve(&self, locations: &[String]) -> Resolved<'_> {
        let mut pinned: Option<Vec<&TrustedKey>> = None;
        let mut pins: Vec<String> = Vec::new();
        let files = [Some(&self.project), self.user.as_ref()];
        for location in locations {
            for file in files.into_iter().flatten() {
                let matching: Vec<&Publisher> = file
                    .publishers()
                    .filter(|p| p.sources.iter().any(|s| pattern::pin_applies(s, location)))
                    .collect();
                if matching.is_empty() {
                    continue;
                }
                for publisher in &matching {
                    let pin = match file.origin() {
                        Origin::Project => publisher.name.clone(),
                        Origin::User => format!("{} (user)", publisher.name),
                    };
                    if !pins.contains(&pin) {
                        pins.push(pin);
                    }
                }
                let keys: Vec<&TrustedKey> = matching.iter().flat_map(|p| &p.keys).collect();
                pinned = Some(match pinned {
                    None => keys,
                    Some(before) => before
                        .into_iter()
                        .filter(|k| keys.iter().any(|other| other.id == k.id))
                        .collect(),
                });
            }
        }
        let keys = pinned.unwrap_or_else(|| {
            self.publishers()
                .into_iter()
                .flat_map(|p| &p.keys)
                .collect()
        });
        Resolved { keys, pins }
    }
}

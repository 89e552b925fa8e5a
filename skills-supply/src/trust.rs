//! The trust store: which publishers' keys may sign which sources, and the
//! policy an installer applies before anything reaches a client's folder.
//!
//! Two files hold trusted keys, each named by publisher: the project's
//! `skills-trust.json` (committed, so a team and its CI trust the same keys)
//! and the user's `$XDG_CONFIG_HOME/skb/trust.json` (else
//! `~/.config/skb/trust.json`). The format is in [`TrustFile`]. They merge
//! as follows:
//!
//! - **Keys.** A publisher defined in both files is the project's (its keys
//!   and comment); the user's other publishers are added.
//! - **Pins.** A publisher's `sources` patterns pin the locations they
//!   match to its keys: what comes from there must be signed by one of
//!   them, not by just any trusted key. Every pin applies, whichever file
//!   it is in and even when the project redefines the publisher, so a
//!   project cannot loosen a user's pin: within one file a location may be
//!   signed by a key of any publisher pinning it; across the two files, by
//!   a key both allow.
//! - **Locations.** Pins are matched on canonical locations
//!   ([`crate::canonical`]: one spelling for every way of writing one), not
//!   on the text typed: on every reading of the source, and on every URL
//!   the bytes were actually fetched from, redirects included
//!   ([`Provenance::through`]). Pins accumulate: the key must be allowed by
//!   the pins of each location that has any, so a redirect can narrow the
//!   keys, never widen them.
//! - **Rotation.** A publisher may list several keys. One marked
//!   `"retired": "<date or reason>"` still verifies the release the lock
//!   already holds (same key, same content digest), so `skb install` keeps
//!   working after a publisher rotates, and verifies nothing new: an update
//!   must come signed by a current key. Retiring rather than deleting the
//!   old key is what lets existing installs survive the rotation.
//!
//! The policy ([`TrustStore::check`], on a [`Provenance`]) is in
//! `policy.rs`; pin patterns in `pattern.rs`; version order in [`version`].

mod file;
mod pattern;
mod policy;
pub mod version;

use std::fmt;
use std::path::{Path, PathBuf};

use skills_core::fsread::FileError;
use skills_core::pack::signature::{self, SignatureError, claims, signature_key_id};

pub use file::TrustFile;
pub use pattern::is_local;
pub use policy::{Decision, LockedSigned, PolicyFlags, Provenance, Refusal, RefusalKind, Signer};

/// The project's trust file, at the project's root.
pub const PROJECT_FILE: &str = "skills-trust.json";

/// Which file a key or publisher comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The project's `skills-trust.json`.
    Project,
    /// The user's `skb/trust.json`.
    User,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Project => "project",
            Origin::User => "user",
        })
    }
}

/// A named publisher: its keys (current and retired) and the sources
/// pinned to them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Publisher {
    /// The name the store knows it by (`acme`).
    pub name: String,
    /// A note for people.
    pub comment: Option<String>,
    /// Its keys, in the order they were added.
    pub keys: Vec<TrustedKey>,
    /// Location patterns (`github.com/acme/*`) that only its keys may sign.
    pub sources: Vec<String>,
}

impl Publisher {
    fn has(&self, id: &str) -> bool {
        self.keys.iter().any(|key| key.id == id)
    }
}

/// One trusted public key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedKey {
    /// The publisher's name.
    pub publisher: String,
    /// The base64 minisign public key.
    pub key: String,
    /// Its id, as minisign prints it (16 uppercase hex digits).
    pub id: String,
    /// When or why it was retired; a retired key verifies only what is
    /// already locked.
    pub retired: Option<String>,
    /// The file it is trusted in.
    pub origin: Origin,
}

/// Why a trust file could not be read or written, or changed.
#[derive(Debug)]
#[non_exhaustive]
pub enum TrustError {
    /// The file exists and could not be read (or is too large).
    Read(FileError),
    /// The file is not JSON, or not in the trust file's shape.
    Syntax {
        /// The file.
        path: PathBuf,
        /// Where, 1-based.
        line: usize,
        /// Where, 1-based.
        column: usize,
        /// What `serde_json` says.
        message: String,
    },
    /// The file is JSON of the right shape with a wrong value in it.
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the publisher or key.
        message: String,
    },
    /// Writing the file failed.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A change asked for cannot be made (a bad name or key, an unknown
    /// publisher or key id).
    Argument(String),
}

impl fmt::Display for TrustError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrustError::Read(e) => write!(f, "{e}"),
            TrustError::Syntax {
                path,
                line,
                column,
                message,
            } => write!(
                f,
                "`{}`:{line}:{column}: not a trust file: {message}",
                path.display()
            ),
            TrustError::Invalid { path, message } => write!(f, "`{}`: {message}", path.display()),
            TrustError::Write { path, source } => {
                write!(f, "cannot write `{}`: {source}", path.display())
            }
            TrustError::Argument(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for TrustError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TrustError::Read(e) => Some(e),
            TrustError::Write { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The user's trust file: `$XDG_CONFIG_HOME/skb/trust.json` when that is
/// set to an absolute path, else `$HOME/.config/skb/trust.json`; `None`
/// without either.
pub fn user_file() -> Option<PathBuf> {
    let absolute = |var| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    absolute("XDG_CONFIG_HOME")
        .or_else(|| absolute("HOME").map(|home| home.join(".config")))
        .map(|config| config.join("skb").join("trust.json"))
}

/// The project's trust file merged with the user's.
#[derive(Debug, Clone)]
pub struct TrustStore {
    project: TrustFile,
    user: Option<TrustFile>,
}

/// The keys a source may be signed by, and the pins that chose them.
struct Resolved<'a> {
    keys: Vec<&'a TrustedKey>,
    pins: Vec<String>,
}

impl TrustStore {
    /// Reads `<project_dir>/skills-trust.json` and, when given, `user_file`
    /// (see [`user_file`] for the usual one). A file that does not exist is
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
            });
        };
        let comment = signature::verify(bytes, &key.key, Some(signature_text))?;
        let claimed = claims(&comment);
        Ok(Signer {
            key_id,
            digest: claimed.as_ref().map(|c| c.digest.clone()),
            version: claimed.as_ref().and_then(|c| c.version.clone()),
            timestamp: claimed.and_then(|c| c.timestamp),
        })
    }

    /// The keys that may sign what came through `locations`, and the pins
    /// that chose them. Each location's pins allow, within one file, the
    /// keys of every publisher pinning it; the key must be allowed by every
    /// file's pins of every location (pins accumulate); without any pin,
    /// every trusted key.
    fn resolve(&self, locations: &[String]) -> Resolved<'_> {
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

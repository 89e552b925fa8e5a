//! A trusted key, the publisher it belongs to, and the file it is trusted
//! in.

use std::fmt;

use super::KeyKind;

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
    pub(super) fn has(&self, id: &str) -> bool {
        self.keys.iter().any(|key| key.id == id)
    }
}

/// One trusted public key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedKey {
    /// The publisher's name.
    pub publisher: String,
    /// What kind of key it is.
    pub kind: KeyKind,
    /// The public key: the base64 minisign key, the SSH key
    /// (`ssh-ed25519 AAAA…`) or the armored OpenPGP block.
    pub key: String,
    /// Its id: as minisign prints it (16 uppercase hex digits), as
    /// `ssh-keygen -l` does (`SHA256:…`), or the OpenPGP fingerprint (40
    /// uppercase hex digits).
    pub id: String,
    /// When or why it was retired; a retired key verifies only what is
    /// already locked.
    pub retired: Option<String>,
    /// The file it is trusted in.
    pub origin: Origin,
}

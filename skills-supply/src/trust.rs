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
//! - **Kinds.** A key is a minisign key (packs, index entries), an SSH
//!   key or an OpenPGP key (git commits and tags, checked by
//!   [`crate::git::signature`]); [`KeyKind`] has how each is written and
//!   named. A `sigstore` entry is an OIDC issuer and an identity pattern
//!   that may sign Sigstore bundles beside archives (`identity.rs`). Pins,
//!   rotation and rollback apply to all kinds alike.
//!
//! The policy ([`TrustStore::check`], on a [`Provenance`]) is in
//! `policy.rs`; the merged files in `store.rs`, each file in `file.rs`, their
//! keys in `key.rs`; pin patterns in `pattern.rs`; version order in
//! [`version`].

mod error;
mod file;
mod identity;
mod key;
mod kind;
mod pattern;
mod policy;
mod provenance;
mod signer;
mod store;
pub mod version;

use std::path::PathBuf;

pub use error::TrustError;
pub use file::{PROJECT_FILE, TrustFile};
pub use identity::{accepts as sigstore_accepts, key_text as sigstore_key_text, sigstore_signer};
pub use key::{Origin, Publisher, TrustedKey};
pub use kind::{KeyKind, MAX_KEY_TEXT, ParsedKey, is_openpgp_fingerprint, parse as parse_key};
pub use pattern::is_local;
pub use policy::{Decision, LockedSigned, PolicyFlags, Refusal, RefusalKind};
pub use provenance::Provenance;
pub use signer::Signer;
pub use store::TrustStore;

/// The user's trust file: `$XDG_CONFIG_HOME/skb/trust.json` when that is
/// set to an absolute path, else `$HOME/.config/skb/trust.json`; `None`
/// without either.
pub fn user_file() -> Option<PathBuf> {
    skills_core::userdir::base("XDG_CONFIG_HOME", ".config", "skb/trust.json")
}

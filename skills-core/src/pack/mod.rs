//! The skill-pack format: what the pack writer makes and what
//! [`open::open_with`] checks before a runtime exposes anything.
//!
//! A pack is a zip archive whose first entry is the [manifest](Manifest)
//! (`skillpack.json`) and whose other entries are the skills' files, at
//! `<skill dir>/<path>`, sorted byte-wise. It is signed with minisign
//! ([`signature`]): the detached `<pack>.minisig` covers every byte.
//! `skills-bundle` turns a checked pack into a runtime `Bundle`;
//! `skills-compiler` writes packs and turns them into compile-time plans.

mod manifest;
pub mod open;
#[cfg(feature = "sign")]
pub mod sign;
pub mod signature;
pub mod tables;
#[cfg(any(test, feature = "write"))]
pub mod write;

pub use manifest::{
    CODEC, FORMAT, MANIFEST_NAME, Manifest, ManifestSkill, VERSION, plugin_of, skill_dir,
};
pub use open::{MAX_MANIFEST, MAX_PACK_FILE, PackError, Trust};
pub use signature::{SignatureError, minisig_path};

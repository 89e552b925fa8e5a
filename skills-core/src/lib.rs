//! What build time and run time agree on, byte for byte.
//!
//! `skills_bundle!` (through `skills-compiler`) writes tables, digests,
//! catalogs and packs that `skills-bundle` reads back at run time, and the
//! `skb` CLI writes and checks the same formats. Everything both sides
//! must agree on lives here, once: normalised paths, the bundle digest, the
//! `<available_skills>` catalog and its budget, `allowed-tools` rules, the
//! skill metadata record, the perfect-hash tables, raw deflate, the zip
//! format (reader and writer with one set of name rules), and the skill-pack
//! format (manifest, signature, the checks made on open).
//!
//! This crate has no YAML parser and no `syn`: an agent binary links it.
//!
//! **Semver-exempt internals.** This crate is an implementation detail of
//! `skills-bundle`, `skills-compiler` and the `skb` CLI, released in lockstep
//! with them: its API may change in any release, patch releases included.
//! Depend on `skills-bundle`, which re-exports, item by item, what an agent
//! uses (`skills_bundle::zip`, `skills_bundle::catalog::Style`, ...).

#![deny(missing_docs)]
#![deny(unreachable_pub)]

pub mod catalog;
pub mod client;
pub mod deflate;
pub mod digest;
#[cfg(feature = "fs")]
pub mod fsread;
pub mod glob;
pub mod invisible;
pub mod json;
#[cfg(feature = "fs")]
pub mod listing;
pub mod lock;
pub mod meta;
// `pack/manifest.rs` has a `pub` item its module does not re-export
// (`SKILL_MD_NAMES`); the pack format's owner settles it.
#[allow(unreachable_pub)]
pub mod pack;
pub mod path;
pub mod phf;
pub mod pyrepr;
pub mod tools;
pub mod userdir;
pub mod zip;

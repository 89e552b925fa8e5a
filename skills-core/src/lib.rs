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
//! It is versioned with `skills-bundle`, whose API re-exports what users
//! need; its own API is not meant to be used directly and may change in
//! any release.

pub mod catalog;
pub mod client;
pub mod deflate;
pub mod digest;
#[cfg(feature = "fs")]
pub mod fsread;
pub mod glob;
pub mod json;
#[cfg(feature = "fs")]
pub mod listing;
pub mod meta;
pub mod pack;
pub mod path;
pub mod phf;
pub mod pyrepr;
pub mod tools;
pub mod zip;

//! Getting skills into clients' folders and keeping them as locked: the one
//! resolver, installer and lock behind `skb add`, `install`, `update`,
//! `remove`, `list` and `verify --installed`.
//!
//! A source ([`source`]) is fetched onto the disk ([`fetch`]: a folder as it
//! is, an archive extracted, a git commit checked out, a download verified
//! against its pin), validated with the compiler's profile and planned as
//! `skb pack` would (so an installed skill is byte for byte what a pack of it
//! holds), scanned for attacks over the bytes to be written ([`gate`]),
//! then written into each target folder through a private staging
//! folder renamed into place ([`place`]); the lock ([`skills_core::lock`])
//! records where each skill came from, its digest and every file's hash.
//! One project is changed by one `skb` at a time ([`project::Project::lock`]).

pub mod accept;
pub mod clients;
pub mod fetch;
pub mod fetched;
pub mod gate;
pub mod git;
pub mod install;
pub mod oci;
pub mod place;
pub mod policy;
pub mod progress;
pub mod project;
pub mod remote;
pub mod session;
pub mod signature;
pub mod source;
pub mod targets;

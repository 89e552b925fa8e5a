//! Fetching Agent Skills from where publishers put them, and the formats
//! around them: git repositories (through the `git` program), HTTPS
//! downloads with bounds, the Agent Skills well-known index, OCI registries,
//! and Vercel's `skills-lock.json`.
//!
//! Every function here brings bytes or a folder onto the disk, bounded and
//! named in its errors; it never decides what is trusted or installed: the
//! installer (`skb add`, `skb install`) checks digests, signatures and the
//! validator's verdict before anything reaches a client's folder.

#![deny(missing_docs)]
#![deny(unreachable_pub)]

pub mod git;
pub mod http;
pub mod index;
pub mod oci;
pub mod trust;
pub mod vercel;

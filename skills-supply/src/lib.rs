//! Getting Agent Skills from where publishers put them, and the formats
//! around them: git repositories (through the `git` program), bounded HTTPS
//! downloads, the Agent Skills well-known index, OCI registries, the trust
//! store and its install policy, and Vercel's `skills-lock.json`.
//!
//! The transports ([`git`], [`http`], [`index`], [`oci`]) bring bytes or a
//! folder onto the disk, bounded and named in their errors, each checked
//! against the digest it was asked for; they decide nothing about trust.
//! [`trust`] decides which keys may sign which sources and whether a
//! release may replace the locked one, matching key pins on the
//! [`canonical`] form of every location the bytes came through; the
//! installer (`skb add`, `skb install`) applies it, with the validator's
//! verdict, before anything reaches a client's folder.

#![deny(missing_docs)]
#![deny(unreachable_pub)]

pub mod canonical;
pub mod credentials;
pub mod git;
pub mod http;
pub mod index;
pub mod oci;
pub mod sigstore;
mod stop;
pub mod tls;
pub mod trust;
pub mod vercel;

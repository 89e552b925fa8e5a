//! Reading zip archives that may be hostile: Claude's `.skill` uploads and
//! skill packs.
//!
//! [`Archive::parse`] checks the whole structure (names, sizes, overlaps,
//! entry kinds) before it hands out an entry, inflating nothing;
//! [`Entry::read`] inflates one entry into a buffer of exactly its declared
//! size and checks its CRC-32. [`Limits`] bounds the entry count and sizes.

pub use skills_core::zip::{Archive, Entry, Kind, Limits, Method, NameError, ZipError};

//! The tables behind a [`Bundle`](crate::Bundle), and what `skills_bundle!`
//! expands to.
//!
//! One representation serves both sources of skills: `skills_bundle!` builds
//! these as statics (every `Cow` borrowed from a literal, lookups through
//! perfect-hash maps), and [`Bundle::from_pack`](crate::Bundle::from_pack)
//! builds them at run time from a verified pack (every `Cow` owned, lookups
//! by binary search over the sorted names and paths). The accessors in
//! `skill.rs` and `file.rs` see no difference.
//!
//! Not public API: the generated code builds these through public fields,
//! and the paths may change in any release.

#![doc(hidden)]

pub use phf;
pub use std::borrow::Cow::Borrowed;
pub use std::sync::OnceLock;

pub use crate::catalog::Span;
pub use crate::file::Cached;
pub use skills_core::meta::{FileMeta, List, SkillMeta, Str};
#[cfg(feature = "macros")]
pub use skills_macros::skills_bundle;

/// Name → index, in whichever form the source built.
#[derive(Debug)]
pub enum Index {
    /// A perfect-hash map built at compile time.
    Phf(phf::Map<&'static str, u32>),
    /// The keys are sorted: binary search.
    Sorted,
}

/// A compiled bundle, or a loaded pack.
#[derive(Debug)]
pub struct BundleData {
    /// Skills, sorted by name.
    pub skills: List<SkillData>,
    /// Name → index into `skills`.
    pub index: Index,
    /// The `<available_skills>` block.
    pub catalog: Str,
    /// Its length in characters.
    pub catalog_chars: usize,
    /// Where each skill's entry sits in it, in `skills` order.
    pub catalog_spans: List<Span>,
    /// The bundle digest (hex).
    pub digest: Str,
    /// One lazily filled slot per file that is checked on first read
    /// (`FileData::slot`): a compiled bundle's compressed files, every file
    /// of a loaded pack.
    pub cache: List<OnceLock<Cached>>,
}

/// One skill.
#[derive(Debug)]
pub struct SkillData {
    /// Every field the runtime obeys (the record the compiler and a
    /// pack's manifest hold too).
    pub meta: SkillMeta,
    /// The source directory: relative to the crate that compiled it, or the
    /// skill's directory inside the pack.
    pub source_dir: Str,
    /// Files, sorted by path.
    pub files: List<FileData>,
    /// Path → index into `files`.
    pub paths: Index,
    /// Index of `SKILL.md` in `files`.
    pub skill_md: u32,
}

/// One file.
#[derive(Debug)]
pub struct FileData {
    /// Path, size, SHA-256 and mode.
    pub meta: FileMeta,
    /// The stored bytes: raw deflate when `deflated`, else the file itself.
    pub stored: List<u8>,
    /// Whether `stored` is raw deflate.
    pub deflated: bool,
    /// Cache slot in `BundleData::cache`; `u32::MAX` for a compiled bundle's
    /// stored files, which are read in place without a check.
    pub slot: u32,
}

impl Index {
    /// Looks `key` up among `items`, whose keys (`key_of`) are sorted.
    pub(crate) fn find<T>(
        &self,
        items: &[T],
        key: &str,
        key_of: impl Fn(&T) -> &str,
    ) -> Option<u32> {
        match self {
            Index::Phf(map) => map.get(key).copied(),
            Index::Sorted => items
                .binary_search_by(|item| key_of(item).cmp(key))
                .ok()
                .and_then(|i| u32::try_from(i).ok()),
        }
    }
}

//! The tables behind a [`Bundle`](crate::Bundle), and what `skills_bundle!`
//! expands to.
//!
//! One representation serves both sources of skills: `skills_bundle!` builds
//! these as statics (every `Cow` borrowed from a literal, the perfect-hash
//! tables of `skills_core::phf` as static slices), and
//! [`Bundle::from_pack`](crate::Bundle::from_pack) builds them at run time
//! from a verified pack (every `Cow` owned, the same tables built on load).
//! The accessors in `skill.rs` and `file.rs` see no difference.
//!
//! Not public API: the generated code builds these through public fields,
//! and the paths may change in any release.

#![doc(hidden)]

pub use std::borrow::Cow::Borrowed;
pub use std::sync::OnceLock;

pub use crate::catalog::Span;
pub use crate::file::Cached;
pub use skills_core::meta::{FileMeta, List, SkillMeta, Str};
use skills_core::phf;
#[cfg(feature = "macros")]
pub use skills_macros::skills_bundle;

/// Name → index, in whichever form the source built.
#[derive(Debug)]
pub enum Index {
    /// Perfect-hash tables ([`skills_core::phf`]), emitted by
    /// `skills_bundle!` or built when a pack loads.
    Hash {
        /// The hash's seed.
        seed: u64,
        /// One pilot per bucket.
        pilots: List<u16>,
        /// One key index per slot.
        slots: List<u32>,
    },
    /// The keys are sorted: binary search (an empty bundle, or keys that no
    /// seed the builder tries separates).
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
    /// The index of `keys` (sorted and distinct): perfect-hash tables, or
    /// binary search if the builder gives up.
    #[cfg(test)]
    pub(crate) fn build(keys: &[&str]) -> Index {
        Index::from_tables(phf::build(keys))
    }

    /// The index [`phf::build`] gave: its tables, or binary search.
    pub(crate) fn from_tables(tables: Option<phf::Tables>) -> Index {
        match tables {
            Some(tables) => Index::Hash {
                seed: tables.seed,
                pilots: tables.pilots.into(),
                slots: tables.slots.into(),
            },
            None => Index::Sorted,
        }
    }

    /// Looks `key` up among `items`, whose keys (`key_of`) are sorted.
    pub(crate) fn find<T>(
        &self,
        items: &[T],
        key: &str,
        key_of: impl Fn(&T) -> &str,
    ) -> Option<u32> {
        match self {
            Index::Hash {
                seed,
                pilots,
                slots,
            } => phf::Map {
                seed: *seed,
                pilots,
                slots,
            }
            .get(key, |i| items.get(i as usize).map(&key_of)),
            Index::Sorted => items
                .binary_search_by(|item| key_of(item).cmp(key))
                .ok()
                .and_then(|i| u32::try_from(i).ok()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables and binary search agree on every key and on misses.
    #[test]
    fn both_indexes_find_the_same() {
        let mut keys: Vec<String> = (0..300).map(|i| format!("scripts/tool-{i}.py")).collect();
        keys.push("SKILL.md".into());
        keys.sort();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let hashed = Index::build(&keys);
        assert!(matches!(hashed, Index::Hash { .. }));
        let misses = ["", "skill.md", "scripts/tool-300.py", "scripts/"];
        for key in keys.iter().chain(&misses) {
            let want = keys.binary_search(key).ok().map(|i| i as u32);
            assert_eq!(hashed.find(&keys, key, |k| k), want, "{key}");
            assert_eq!(Index::Sorted.find(&keys, key, |k| k), want, "{key}");
        }
    }
}

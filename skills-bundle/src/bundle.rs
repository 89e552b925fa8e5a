//! A set of skills with lookup by name: compiled in, or loaded from a pack.

use std::fmt;
use std::sync::Arc;

use crate::__private::{Borrowed, BundleData, Index, List};
use crate::skill::Skill;

/// A set of skills: compiled into the binary by
/// [`skills_bundle!`](crate::skills_bundle), or loaded from a verified pack
/// by [`Bundle::from_pack`].
///
/// Both give the same API. A compiled bundle looks a skill up with one
/// perfect-hash probe and parses nothing at run time; a loaded pack was
/// parsed and checked once, when loaded. `Bundle` is `Send + Sync`; cloning
/// a loaded pack shares it.
#[derive(Clone)]
pub struct Bundle {
    data: Data,
}

#[derive(Clone)]
enum Data {
    Static(&'static BundleData),
    Shared(Arc<BundleData>),
}

static EMPTY: BundleData = BundleData {
    skills: List::Static(&[]),
    index: Index::Sorted,
    catalog: Borrowed("<available_skills>\n</available_skills>"),
    catalog_chars: 38,
    catalog_spans: List::Static(&[]),
    digest: Borrowed(""),
    cache: List::Static(&[]),
};

impl Bundle {
    #[doc(hidden)]
    pub const fn __from_static(data: &'static BundleData) -> Bundle {
        Bundle {
            data: Data::Static(data),
        }
    }

    pub(crate) fn from_data(data: BundleData) -> Bundle {
        Bundle {
            data: Data::Shared(Arc::new(data)),
        }
    }

    /// A bundle without skills (what a failed `skills_bundle!` expands to,
    /// so that one error does not cascade).
    pub const fn empty() -> Bundle {
        Bundle {
            data: Data::Static(&EMPTY),
        }
    }

    fn data(&self) -> &BundleData {
        match &self.data {
            Data::Static(d) => d,
            Data::Shared(d) => d,
        }
    }

    /// How many skills.
    pub fn len(&self) -> usize {
        self.data().skills.len()
    }

    /// Whether there is no skill.
    pub fn is_empty(&self) -> bool {
        self.data().skills.is_empty()
    }

    /// Every skill, sorted by name (level 1).
    pub fn skills(&self) -> impl ExactSizeIterator<Item = Skill<'_>> {
        let bundle = self.data();
        bundle.skills.iter().map(move |data| Skill { bundle, data })
    }

    /// The skill called `name`.
    pub fn get(&self, name: &str) -> Option<Skill<'_>> {
        let bundle = self.data();
        let i = bundle.index.find(&bundle.skills, name, |s| &s.meta.name)?;
        bundle
            .skills
            .get(i as usize)
            .map(|data| Skill { bundle, data })
    }

    /// The `<available_skills>` block for the system prompt (rendered at
    /// build time for a compiled bundle, at load time for a pack).
    pub fn catalog(&self) -> &str {
        &self.data().catalog
    }

    /// The `<available_skills>` block within `budget` characters: the
    /// precomputed block when it fits, else descriptions are dropped before
    /// names ([`catalog::within`](skills_core::catalog::within)). Nothing is
    /// rendered or counted again: the entries' positions were computed with
    /// the block, so this copies the slices that are kept.
    pub fn catalog_within(&self, budget: usize) -> std::borrow::Cow<'_, str> {
        let data = self.data();
        crate::catalog::within(
            &data.catalog,
            data.catalog_chars,
            &data.catalog_spans,
            budget,
        )
    }

    /// The catalog block, its length in characters and each entry's span
    /// (in skill order), to cut it to a subset of the skills.
    #[cfg(all(unix, feature = "exec"))]
    pub(crate) fn catalog_parts(&self) -> (&str, usize, &[crate::catalog::Span]) {
        let data = self.data();
        (&data.catalog, data.catalog_chars, &data.catalog_spans)
    }

    /// The catalog in a client's dialect ([`Style`](crate::catalog::Style)),
    /// within `budget` in the style's unit (`None`: the style's default),
    /// rendered now: each skill under its name, in the bundle's order, with
    /// its `when_to_use` where it has one. Empty for an empty bundle.
    pub fn catalog_style(&self, style: crate::catalog::Style, budget: Option<usize>) -> String {
        self.catalog_style_of(style, budget, &vec![true; self.len()])
    }

    /// [`Bundle::catalog_style`] of the skills `keep` marks (one flag per
    /// skill, in bundle order): what a session offers the model.
    pub(crate) fn catalog_style_of(
        &self,
        style: crate::catalog::Style,
        budget: Option<usize>,
        keep: &[bool],
    ) -> String {
        let kept: Vec<Skill<'_>> = self
            .skills()
            .zip(keep)
            .filter(|(_, keep)| **keep)
            .map(|(s, _)| s)
            .collect();
        let locations: Vec<String> = kept
            .iter()
            .map(|s| crate::catalog::location(s.name()))
            .collect();
        let entries: Vec<crate::catalog::Entry<'_>> = kept
            .iter()
            .zip(&locations)
            .map(|(s, location)| crate::catalog::Entry {
                name: s.name(),
                alias: None,
                description: s.description(),
                when_to_use: s.data.meta.when_to_use.as_deref(),
                location,
            })
            .collect();
        crate::catalog::render_style(style, &entries, budget)
    }

    /// SHA-256 (hex) of the canonical content: names, paths, modes, sizes and
    /// file hashes; independent of compression, and the same for a compiled
    /// bundle and a pack built from the same tree.
    pub fn digest(&self) -> &str {
        &self.data().digest
    }
}

impl fmt::Debug for Bundle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bundle")
            .field(
                "skills",
                &self
                    .data()
                    .skills
                    .iter()
                    .map(|s| &s.meta.name)
                    .collect::<Vec<_>>(),
            )
            .field("digest", &self.data().digest)
            .finish()
    }
}

impl Default for Bundle {
    fn default() -> Self {
        Bundle::empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_send_sync<T: Send + Sync>() {}

    #[test]
    fn public_types_are_send_and_sync() {
        is_send_sync::<Bundle>();
        is_send_sync::<Skill<'static>>();
        is_send_sync::<crate::File<'static>>();
        is_send_sync::<crate::ReadError>();
    }

    #[test]
    fn empty_bundle() {
        let b = Bundle::empty();
        assert!(b.is_empty());
        assert!(b.get("x").is_none());
        assert_eq!(b.catalog(), "<available_skills>\n</available_skills>");
        assert_eq!(b.catalog().chars().count(), EMPTY.catalog_chars);
        assert_eq!(b.catalog_within(0), b.catalog());
    }
}

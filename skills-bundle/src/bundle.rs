//! A set of skills with perfect-hash lookup by name.

use std::fmt;

use crate::__private::BundleData;
use crate::skill::Skill;

/// Skills compiled into the binary by [`skills_bundle!`](crate::skills_bundle).
///
/// Looking a skill up is one perfect-hash probe; nothing is parsed at run
/// time. `Bundle` is `Send + Sync` and cheap to copy around by reference.
#[derive(Clone, Copy)]
pub struct Bundle {
    data: &'static BundleData,
}

static EMPTY: BundleData = BundleData {
    skills: &[],
    index: phf::Map::new(),
    catalog: "<available_skills>\n</available_skills>",
    digest: "",
    cache: &[],
};

impl Bundle {
    #[doc(hidden)]
    pub const fn __from_static(data: &'static BundleData) -> Bundle {
        Bundle { data }
    }

    /// A bundle without skills (what a failed `skills_bundle!` expands to,
    /// so that one error does not cascade).
    pub const fn empty() -> Bundle {
        Bundle { data: &EMPTY }
    }

    /// How many skills.
    pub fn len(&self) -> usize {
        self.data.skills.len()
    }

    /// Whether there is no skill.
    pub fn is_empty(&self) -> bool {
        self.data.skills.is_empty()
    }

    /// Every skill, sorted by name (level 1).
    pub fn skills(&self) -> impl ExactSizeIterator<Item = Skill<'static>> {
        let bundle = self.data;
        bundle.skills.iter().map(move |data| Skill { bundle, data })
    }

    /// The skill called `name`.
    pub fn get(&self, name: &str) -> Option<Skill<'static>> {
        let bundle = self.data;
        let &i = bundle.index.get(name)?;
        bundle
            .skills
            .get(i as usize)
            .map(|data| Skill { bundle, data })
    }

    /// The `<available_skills>` block for the system prompt, rendered at
    /// build time.
    pub fn catalog(&self) -> &'static str {
        self.data.catalog
    }

    /// SHA-256 (hex) of the canonical content: names, paths, modes, sizes and
    /// file hashes; independent of compression.
    pub fn digest(&self) -> &'static str {
        self.data.digest
    }
}

impl fmt::Debug for Bundle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bundle")
            .field(
                "skills",
                &self.data.skills.iter().map(|s| s.name).collect::<Vec<_>>(),
            )
            .field("digest", &self.data.digest)
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
    }
}

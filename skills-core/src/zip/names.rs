//! The one set of rules for entry names: the reader applies it to every
//! archive it parses and the writer to every entry it adds, so the writer
//! refuses exactly the names the reader would.
//!
//! A name must be a normal relative path ([`crate::path::is_normal`]; a
//! directory's, without its one trailing `/`). The names of one archive
//! must stay distinct where they are extracted: on case-insensitive file
//! systems, and on macOS, whose file systems compare names under Unicode
//! normalisation (`café` composed and decomposed are one name). And no file
//! may also be a directory: not `a` beside `a/` or `a/b`.
//!
//! [`Names`] keeps the names so far in the order such a file system
//! compares them, folded ([`key`]), with `/` made the lowest character: what
//! is inside a directory then sorts right after it, so each check is a
//! look-up of the name, of the one before it and of the one after it. A
//! name costs O(log n) comparisons, a folded copy and a copy, however deep
//! it is.

use std::collections::BTreeMap;
use std::ops::Bound;

use unicode_normalization::UnicodeNormalization;

use super::error::NameError;
use super::format::Kind;
use crate::path;

/// Stands for `/` in a [`key`]: NUL, the lowest character, which no name
/// holds (the path rules refuse control characters).
const SEPARATOR: char = '\0';

/// Checks that `name` is a normal path; a directory's without its `/`.
pub(super) fn check_path(name: &str, kind: Kind) -> Result<(), NameError> {
    let path = path_of(name, kind);
    if path::is_normal(path) {
        return Ok(());
    }
    Err(match path::normalize(path) {
        Err(reason) => NameError::BadName {
            name: name.to_string(),
            reason,
        },
        Ok(normal) => NameError::NameNotNormal {
            name: name.to_string(),
            normal,
        },
    })
}

/// The path an entry names: a directory's name without its trailing `/`.
fn path_of(name: &str, kind: Kind) -> &str {
    match kind {
        Kind::Dir => name.strip_suffix('/').unwrap_or(name),
        Kind::File { .. } => name,
    }
}

/// A path as case-insensitive, normalisation-insensitive file systems
/// (macOS) compare it: lowercase, then canonically decomposed (NFD), with
/// [`SEPARATOR`] for `/`.
fn key(path: &str) -> String {
    let separate = |c| if c == '/' { SEPARATOR } else { c };
    if path.is_ascii() {
        // ASCII is its own NFD, and lowercases byte by byte.
        return path
            .chars()
            .map(|c| separate(c.to_ascii_lowercase()))
            .collect();
    }
    path.to_lowercase().nfd().map(separate).collect()
}

/// Whether `key` is inside the directory `dir` (both [`key`]s).
fn is_inside(key: &str, dir: &str) -> bool {
    key.strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with(SEPARATOR))
}

/// The names of one archive so far, each checked against those before it.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// [`key`] -> the entry. Nothing is ever inside a file.
    seen: BTreeMap<String, Seen>,
}

/// An entry [`Names`] holds.
#[derive(Debug)]
struct Seen {
    name: String,
    kind: Kind,
}

impl Seen {
    fn path(&self) -> &str {
        path_of(&self.name, self.kind)
    }
}

/// A name [`Names::check`] accepted, for [`Names::insert`].
#[derive(Debug)]
pub(super) struct Checked {
    key: String,
    seen: Seen,
}

impl Names {
    /// Checks `name` and adds it.
    pub(super) fn add(&mut self, name: &str, kind: Kind) -> Result<(), NameError> {
        let checked = self.check(name, kind)?;
        self.insert(checked);
        Ok(())
    }

    /// Checks `name` against the path rules and the names so far, without
    /// adding it.
    pub(super) fn check(&self, name: &str, kind: Kind) -> Result<Checked, NameError> {
        check_path(name, kind)?;
        let seen = Seen {
            name: name.to_string(),
            kind,
        };
        let key = key(seen.path());
        // The same key, else a file that `name` is inside: since nothing is
        // inside a file, no key sorts between the two, so it is the key just
        // before.
        let up_to = (Bound::Unbounded, Bound::Included(key.as_str()));
        if let Some((above, earlier)) = self.seen.range::<str, _>(up_to).next_back() {
            if *above == key {
                return Err(collision(earlier, &seen));
            }
            if earlier.kind != Kind::Dir && is_inside(&key, above) {
                return Err(NameError::FileIsPrefix {
                    file: earlier.name.clone(),
                    entry: seen.name,
                });
            }
        }
        // What is inside a file `name`: it sorts right after it.
        if seen.kind != Kind::Dir {
            let after = (Bound::Excluded(key.as_str()), Bound::Unbounded);
            if let Some((below, entry)) = self.seen.range::<str, _>(after).next()
                && is_inside(below, &key)
            {
                return Err(NameError::FileIsPrefix {
                    file: seen.name,
                    entry: entry.name.clone(),
                });
            }
        }
        Ok(Checked { key, seen })
    }

    /// Adds a name [`check`](Names::check) accepted, with no name added
    /// since.
    pub(super) fn insert(&mut self, checked: Checked) {
        self.seen.insert(checked.key, checked.seen);
    }
}

/// Why `later` and `earlier`, one [`key`], collide.
fn collision(earlier: &Seen, later: &Seen) -> NameError {
    if earlier.name == later.name {
        NameError::DuplicateName {
            name: later.name.clone(),
        }
    } else if earlier.path() == later.path() {
        NameError::DirFileConflict {
            name: later.path().to_string(),
        }
    } else if earlier.path().to_lowercase() == later.path().to_lowercase() {
        NameError::CaseCollision {
            name: later.name.clone(),
            other: earlier.name.clone(),
        }
    } else {
        NameError::NormalizationCollision {
            name: later.name.clone(),
            other: earlier.name.clone(),
        }
    }
}

/// What the property tests of the name rules share: entries whose names
/// collide in every way the rules know, and how many cases to run.
#[cfg(test)]
pub(super) mod props {
    use std::ops::Range;

    use proptest::prelude::*;

    use crate::zip::Kind;

    /// Components that meet again under case (the Kelvin sign `K` is `k`
    /// lowercased), under normalisation, under both, as a final sigma or
    /// not; that sort between the separator and `/` (` `, `-`, `.`); and
    /// that the path rules refuse.
    const PARTS: &[&str] = &[
        "a",
        "A",
        "b",
        "a b",
        "a-",
        "a-b",
        "a.b",
        "k",
        "\u{212a}",
        "caf\u{e9}",
        "cafe\u{301}",
        "CAF\u{c9}",
        "a\u{3a3}",
        "a\u{3c2}",
        "a\u{3c3}",
        "",
        ".",
        "..",
        "a\\b",
        "\u{1}",
    ];

    /// `len` entries of one to three components, a fifth of them
    /// directories, whose names end with `/`.
    pub(crate) fn entries(len: Range<usize>) -> impl Strategy<Value = Vec<(String, Kind)>> {
        let part = prop::sample::select(PARTS);
        let path = prop::collection::vec(part, 1..4).prop_map(|parts| parts.join("/"));
        let entry = (path, prop::bool::weighted(0.2)).prop_map(|(path, dir)| match dir {
            true => (format!("{path}/"), Kind::Dir),
            false => (path, Kind::File { executable: false }),
        });
        prop::collection::vec(entry, len)
    }

    pub(crate) fn config() -> ProptestConfig {
        ProptestConfig {
            cases: 2000,
            // Keep the source tree clean: no `proptest-regressions/` files.
            failure_persistence: None,
            ..ProptestConfig::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const FILE: Kind = Kind::File { executable: false };

    /// The rules as they read, pair by pair: one key, or a file whose key
    /// and `/` start another's.
    fn clash(a: (&str, Kind), b: (&str, Kind)) -> bool {
        let fold = |(name, kind)| -> String { path_of(name, kind).to_lowercase().nfd().collect() };
        let (ka, kb) = (fold(a), fold(b));
        let inside = |file: Kind, dir: &str, key: &str| {
            file != Kind::Dir && key.starts_with(&format!("{dir}/"))
        };
        ka == kb || inside(a.1, &ka, &kb) || inside(b.1, &kb, &ka)
    }

    /// The first entry the pairwise rules refuse.
    fn first_refused(entries: &[(String, Kind)]) -> Option<usize> {
        (0..entries.len()).find(|&i| {
            let (name, kind) = (&entries[i].0, entries[i].1);
            check_path(name, kind).is_err()
                || entries[..i]
                    .iter()
                    .any(|(other, k)| clash((other, *k), (name, kind)))
        })
    }

    /// Whether `e` names `name` as the entry it refused.
    fn names_entry(e: &NameError, name: &str, kind: Kind) -> bool {
        match e {
            NameError::BadName { name: n, .. }
            | NameError::NameNotNormal { name: n, .. }
            | NameError::DuplicateName { name: n }
            | NameError::CaseCollision { name: n, .. }
            | NameError::NormalizationCollision { name: n, .. } => n == name,
            NameError::DirFileConflict { name: path } => path == path_of(name, kind),
            NameError::FileIsPrefix { file, entry } => file == name || entry == name,
        }
    }

    proptest! {
        #![proptest_config(props::config())]

        /// `Names`, with its ordered keys, refuses the first entry that
        /// the rules read pair by pair refuse, and names it.
        #[test]
        fn names_follow_the_rules_pair_by_pair(entries in props::entries(0..10)) {
            let mut names = Names::default();
            let refused = entries
                .iter()
                .enumerate()
                .find_map(|(i, (name, kind))| names.add(name, *kind).err().map(|e| (i, e)));
            prop_assert_eq!(refused.as_ref().map(|r| r.0), first_refused(&entries));
            if let Some((i, e)) = refused {
                let (name, kind) = &entries[i];
                prop_assert!(names_entry(&e, name, *kind), "{e:?} for {name:?}");
            }
        }
    }

    #[test]
    fn a_refused_name_is_not_added() {
        let mut names = Names::default();
        names.add("a", FILE).unwrap();
        assert!(names.check("A", FILE).is_err());
        assert!(names.check("a/b", FILE).is_err());
        names.check("b", FILE).unwrap();
        // Checked, not inserted: `b/c` is still free.
        names.add("b/c", FILE).unwrap();
        assert_eq!(
            names.add("B", FILE),
            Err(NameError::FileIsPrefix {
                file: "B".into(),
                entry: "b/c".into()
            })
        );
    }

    /// Keys order what is inside a directory right after it, before names
    /// that only share its first characters (`a-b`, `a.b` and `a b` sort
    /// before `a/b` byte-wise).
    #[test]
    fn the_separator_sorts_first() {
        assert!(key("a/b") < key("a b"));
        assert!(key("a/z") < key("a-"));
        let mut names = Names::default();
        for name in ["a", "a b", "a-b", "a.b"] {
            names.add(name, FILE).unwrap();
        }
        let inside = names.add("a/b", FILE);
        let expected = NameError::FileIsPrefix {
            file: "a".into(),
            entry: "a/b".into(),
        };
        assert_eq!(inside, Err(expected));
        let mut names = Names::default();
        for name in ["a/b", "a b", "a-b", "a.b"] {
            names.add(name, FILE).unwrap();
        }
        let expected = NameError::FileIsPrefix {
            file: "A".into(),
            entry: "a/b".into(),
        };
        assert_eq!(names.add("A", FILE), Err(expected));
    }
}

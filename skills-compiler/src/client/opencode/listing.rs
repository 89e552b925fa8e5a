//! Which skills OpenCode loads from what discovery found, one copy per
//! name, and the order of its catalog.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use skills_core::fsread;

use crate::client::collate::collate;
use crate::client::reading::{Listed, Outcome, Reading};
use crate::discover::FoundSkill;
use skills_core::client::Client;

use super::read::{READ_LIMIT, read, read_named};

/// One skill folder OpenCode reads, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The skill folder.
    pub dir: PathBuf,
    /// Its `SKILL.md`.
    pub skill_md: PathBuf,
    /// The name OpenCode loads it under, when it loads it (listed or not).
    pub name: Option<String>,
    /// How OpenCode reads it.
    pub reading: Reading,
    /// Whether it is a copy of a name found earlier, left out.
    pub replaced: bool,
}

/// Two skills loaded under one name: OpenCode keeps one of them, not
/// always the same; here the first found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The name.
    pub name: String,
    /// The `SKILL.md` found first, which is kept.
    pub kept: PathBuf,
    /// The `SKILL.md` found after it, which is left out.
    pub left_out: PathBuf,
}

impl Duplicate {
    /// The warning, after OpenCode's log line `duplicate skill name`.
    pub fn warning(&self) -> String {
        format!(
            "duplicate skill name `{}`: {} is listed, {} left out; OpenCode keeps one copy of a \
             name, not always the same one",
            self.name,
            self.kept.display(),
            self.left_out.display()
        )
    }
}

/// The skills OpenCode loads from what discovery found, and its catalog.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Every skill folder OpenCode reads, in discovery order, each read
    /// (a copy of a name found earlier is not listed).
    pub found: Vec<Found>,
    /// The names loaded more than once, in the order met.
    pub duplicates: Vec<Duplicate>,
}

impl Listing {
    /// The catalog's entries, in OpenCode's order (by name, [`collate`]).
    pub fn listed(&self) -> Vec<&Listed> {
        let mut listed: Vec<&Listed> = self
            .found
            .iter()
            .filter_map(|f| f.reading.outcome.listed())
            .collect();
        listed.sort_by(|a, b| collate(&a.name, &b.name));
        listed
    }

    /// The skill the `skill` tool loads for `name` (exact match).
    pub fn get(&self, name: &str) -> Option<&Found> {
        self.found
            .iter()
            .find(|f| !f.replaced && f.name.as_deref() == Some(name))
    }

    /// Every name the `skill` tool knows (listed or not), in the order of
    /// its "not found" message: JavaScript's default sort, by UTF-16 code
    /// units.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .found
            .iter()
            .filter_map(|f| f.name.as_deref())
            .collect();
        names.sort_by(|a, b| utf16_order(a, b));
        names.dedup();
        names
    }
}

/// JavaScript's default string order: by UTF-16 code units.
pub fn utf16_order(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// The skills discovery found that OpenCode reads
/// ([`Origin::read_by`](crate::Origin::read_by); a skill found under a root given directly counts),
/// read as OpenCode reads them: every folder in discovery's order, a name
/// loaded twice kept from the first copy found (OpenCode keeps one copy, not
/// always the same: see the module).
pub fn listing(found: &[FoundSkill]) -> Listing {
    let mut listing = Listing::default();
    let mut by_name: HashMap<String, PathBuf> = HashMap::new();
    for skill in found {
        if skill
            .origin
            .as_ref()
            .is_some_and(|o| !o.read_by(Client::OpenCode))
        {
            continue;
        }
        let skill_md = skill.dir.join("SKILL.md");
        let (mut reading, name) = match fsread::read_file(&skill_md, READ_LIMIT + 1) {
            Ok(bytes) => read_named(&skill_md, &bytes),
            Err(_) => (read(&skill.dir), None),
        };
        let mut replaced = false;
        if let Some(name) = &name {
            match by_name.get(name) {
                Some(kept) => {
                    reading.outcome = Outcome::NotListed {
                        why: copy_why(name, kept),
                    };
                    replaced = true;
                    listing.duplicates.push(Duplicate {
                        name: name.clone(),
                        kept: kept.clone(),
                        left_out: skill_md.clone(),
                    });
                }
                None => {
                    by_name.insert(name.clone(), skill_md.clone());
                }
            }
        }
        listing.found.push(Found {
            dir: skill.dir.clone(),
            skill_md,
            name,
            reading,
            replaced,
        });
    }
    listing
}

fn copy_why(name: &str, kept: &Path) -> String {
    format!(
        "another skill named `{name}` ({}) is found first and kept; OpenCode loads one copy of a \
         name, not always the same one from run to run",
        kept.display()
    )
}

/// Applies the one-copy-per-name rule to the readings of one listing, in
/// discovery order: of listed skills with one name, the first is kept.
pub fn resolve_names<'r>(readings: impl Iterator<Item = &'r mut Reading>) {
    let mut first: HashMap<String, PathBuf> = HashMap::new();
    for reading in readings {
        let Some(l) = reading.outcome.listed() else {
            continue;
        };
        match first.get(&l.name) {
            Some(kept) => {
                let why = copy_why(&l.name, kept);
                reading.outcome = Outcome::NotListed { why };
            }
            None => {
                first.insert(l.name.clone(), l.location.clone());
            }
        }
    }
}

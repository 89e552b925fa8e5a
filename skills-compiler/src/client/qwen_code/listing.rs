//! Qwen Code's listing: which skill of a name it keeps, its catalog's
//! order, and the names its `skill` tool knows.
//!
//! Order of loading: the project's folders (`.qwen/skills`, then
//! `.agents/skills`), then the user's, in the registry's order; in one
//! folder, the skill folders in byte order of their names. The first
//! skill loaded under a name is kept (a hidden one too); the bundled
//! skills come last, so a skill named like one replaces it. The catalog is
//! sorted by name as JavaScript's `localeCompare` sorts
//! ([`collate`](crate::client::collate)).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use skills_core::catalog::Entry;
use skills_core::catalog::qwen_code::{BUNDLED_LEVEL, bundled_entries};
use skills_core::client::Client;
use skills_core::fsread;

use super::level::Level;
use super::read::{Dropped, READ_LIMIT, load, read_bytes};
use crate::checked::CheckedSkill;
use crate::client::collate::collate;
use crate::client::reading::{Outcome, Reading};
use crate::discover::{FoundSkill, Origin};

/// One skill folder Qwen Code reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The folder.
    pub dir: PathBuf,
    /// Its level.
    pub level: Level,
    /// The name it is loaded under, when it loads.
    pub name: Option<String>,
    /// How Qwen Code reads it (a later copy of a name is not listed).
    pub reading: Reading,
    /// Whether a skill loaded earlier holds its name.
    pub replaced: bool,
}

/// Qwen Code's listing of some skill folders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Every folder read, in load order.
    pub found: Vec<Found>,
}

impl Listing {
    /// The catalog's entries in Qwen Code's order, the bundled skills that
    /// no skill replaces included; each entry's location is its level.
    pub fn entries(&self) -> Vec<Entry<'_>> {
        let taken: HashSet<&str> = self
            .loaded()
            .map(|f| f.name.as_deref().unwrap_or_default())
            .collect();
        let mut entries: Vec<Entry<'_>> = Vec::new();
        for f in &self.found {
            if let Some(l) = f.reading.outcome.listed() {
                entries.push(l.entry(f.level.as_str()));
            }
        }
        for e in bundled_entries() {
            if !taken.contains(e.name) {
                entries.push(e);
            }
        }
        entries.sort_by(|a, b| collate(a.name, b.name));
        entries
    }

    /// The skills loaded under a name (listed or hidden), one per name.
    fn loaded(&self) -> impl Iterator<Item = &Found> {
        self.found
            .iter()
            .filter(|f| f.name.is_some() && !f.replaced)
    }

    /// The skill loaded under exactly `name` (listed or hidden).
    pub fn get(&self, name: &str) -> Option<&Found> {
        self.loaded().find(|f| f.name.as_deref() == Some(name))
    }

    /// The names the `skill` tool offers in its "not found" answer: the
    /// catalog's, in its order.
    pub fn names(&self) -> Vec<&str> {
        self.entries().into_iter().map(|e| e.name).collect()
    }

    /// Whether `name` is one of Qwen Code's bundled skills no skill here
    /// replaces.
    pub fn is_bundled(&self, name: &str) -> bool {
        self.get(name).is_none()
            && bundled_entries().any(|e| e.name == name && e.location == BUNDLED_LEVEL)
    }
}

/// The load-order key of a skill folder: level, the folder's place among
/// the client's folders of that level, the folder, then the folder name's
/// bytes (Node's sorted `readdir`).
fn order_key(dir: &Path, origin: Option<&Origin>) -> (Level, usize, PathBuf, Vec<u8>) {
    let name = dir
        .file_name()
        .map(|n| n.as_encoded_bytes().to_vec())
        .unwrap_or_default();
    let Some(origin) = origin else {
        let parent = dir.parent().unwrap_or(dir).to_path_buf();
        return (Level::Project, usize::MAX, parent, name);
    };
    let info = Client::QwenCode.info();
    let (level, index) = if origin.is_user() {
        (
            Level::User,
            info.user_folders.iter().position(|f| f.rel == origin.rel),
        )
    } else {
        (
            Level::Project,
            info.project_folders.iter().position(|f| *f == origin.rel),
        )
    };
    (
        level,
        index.unwrap_or(usize::MAX),
        origin.folder.clone(),
        name,
    )
}

/// Whether Qwen Code skips a folder of this name (an installer's leftover:
/// `.backup-N-N` or `.installing-N-N` at its end).
fn leftover(dir: &Path) -> bool {
    let Some(name) = dir.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    ["backup", "installing"].iter().any(|word| {
        name.rsplit_once(&format!(".{word}-"))
            .is_some_and(|(_, tail)| {
                tail.split_once('-').is_some_and(|(a, b)| {
                    !a.is_empty()
                        && !b.is_empty()
                        && a.bytes().all(|c| c.is_ascii_digit())
                        && b.bytes().all(|c| c.is_ascii_digit())
                })
            })
    })
}

/// Qwen Code's listing of the skills discovery found: those in the folders
/// it reads ([`Origin::read_by`]) and those under paths named directly.
pub fn listing(found: &[FoundSkill]) -> Listing {
    let mut places: Vec<&FoundSkill> = found
        .iter()
        .filter(|f| {
            f.origin
                .as_ref()
                .is_none_or(|o| o.read_by(Client::QwenCode))
        })
        .filter(|f| !leftover(&f.dir))
        .collect();
    places.sort_by_cached_key(|f| order_key(&f.dir, f.origin.as_ref()));
    let mut taken: HashSet<String> = HashSet::new();
    let found = places
        .into_iter()
        .map(|f| {
            let path = f.dir.join("SKILL.md");
            let bytes = fsread::read_file(&path, READ_LIMIT + 1);
            let (mut reading, name) = match &bytes {
                Ok(bytes) => {
                    let name = match load(&String::from_utf8_lossy(bytes)) {
                        Ok(l) => Some(l.name),
                        Err(Dropped::No(_) | Dropped::Owned(_) | Dropped::Unknown(_)) => None,
                    };
                    (read_bytes(&f.dir, &path, bytes), name)
                }
                Err(_) => (super::read(&f.dir), None),
            };
            let level = order_key(&f.dir, f.origin.as_ref()).0;
            let replaced = name.as_ref().is_some_and(|n| !taken.insert(n.clone()));
            if replaced {
                reading.outcome = Outcome::NotListed {
                    why: copy_why(name.as_deref().unwrap_or_default()),
                };
            }
            Found {
                dir: f.dir.clone(),
                level,
                name,
                reading,
                replaced,
            }
        })
        .collect();
    Listing { found }
}

fn copy_why(name: &str) -> String {
    format!(
        "another skill named `{name}` is loaded first (an earlier folder, or a folder whose name sorts first in the same skills folder); Qwen Code keeps that one"
    )
}

/// Applies Qwen Code's one-skill-per-name rule to the readings of checked
/// skills (one per skill, in the same order; `None` where there is none),
/// in its load order: a listed skill whose name an earlier one holds is
/// not listed.
pub fn resolve<'r>(
    skills: &[CheckedSkill],
    readings: impl IntoIterator<Item = Option<&'r mut Reading>>,
) {
    let mut places: Vec<(_, &'r mut Reading)> = skills
        .iter()
        .zip(readings)
        .filter_map(|(s, r)| Some((order_key(&s.dir, s.origin.as_ref()), r?)))
        .collect();
    places.sort_by(|a, b| a.0.cmp(&b.0));
    let mut taken: HashSet<String> = HashSet::new();
    for (_, reading) in places {
        let Some(name) = reading.outcome.listed().map(|l| l.name.clone()) else {
            continue;
        };
        if !taken.insert(name.clone()) {
            reading.outcome = Outcome::NotListed {
                why: copy_why(&name),
            };
        }
    }
}

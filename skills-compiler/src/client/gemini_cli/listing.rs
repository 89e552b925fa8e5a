//! Gemini CLI's list of skills: the order it loads skill folders in, and
//! which skill of a name it keeps.
//!
//! Order: its skills folders in the registry's order ([`Client::GeminiCli`]'s
//! row: the user's `~/.gemini/skills` and `~/.agents/skills`, then the
//! project's `.gemini/skills` and `.agents/skills`); in each folder, a
//! `SKILL.md` in the folder itself first, then its skill folders.
//! Gemini CLI takes the folders in the order its file search returns them,
//! which it does not sort. Every record (a folder of 34 skills, one of 200,
//! and the precedence runs) shows them in descending byte order of their
//! names (`upper-name`, `unknown-keys`, ..., `args-demo`, `Upper-Dir`,
//! `-leading-hyphen`; `bulk-199` first, `bulk-001` last), which is what
//! this module reproduces: it is deterministic, and another order would
//! contradict every record. The order comes from Node's sorted `readdir`,
//! reversed by Gemini CLI's glob library; about one run in ten that
//! library's asynchronous walk swaps two neighbours, a race no model can
//! predict.
//!
//! Precedence: one entry per name; a skill loaded later replaces one of
//! the same name loaded earlier, at the list position of the first, and
//! Gemini CLI prints a warning naming both ([`Override::line`]). Its
//! built-in skills ([`ClientInfo::builtin_skills`](skills_core::client::ClientInfo::builtin_skills))
//! are loaded first, so a skill named like one takes its place at the front
//! of the list; their own text is Gemini CLI's and is not listed here.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use skills_core::client::Client;

use super::read::read;
use crate::checked::CheckedSkill;
use crate::client::reading::{Listed, Outcome, Reading};
use crate::discover::{FoundSkill, Origin};

/// One skill folder Gemini CLI reads, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The folder (the skills folder itself for its own `SKILL.md`).
    pub dir: PathBuf,
    /// How Gemini CLI reads it (a skill replaced by a later one of the
    /// same name is not listed, and says by which).
    pub reading: Reading,
}

/// A skill replacing an earlier one of the same name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    /// The name.
    pub name: String,
    /// The `SKILL.md` that wins.
    pub location: PathBuf,
    /// The one it replaces; `None` for Gemini CLI's built-in skill.
    pub replaced: Option<PathBuf>,
}

impl Override {
    /// The warning Gemini CLI prints for it.
    pub fn line(&self) -> String {
        match &self.replaced {
            None => format!(
                "Skill \"{}\" from \"{}\" is overriding the built-in skill.",
                self.name,
                self.location.display()
            ),
            Some(old) => format!(
                "Skill conflict detected: \"{}\" from \"{}\" is overriding the same skill from \"{}\".",
                self.name,
                self.location.display(),
                old.display()
            ),
        }
    }
}

/// Gemini CLI's list of some skill folders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// Every folder Gemini CLI reads, in the order it loads them.
    pub found: Vec<Found>,
    /// The listed skills, in the list's order (a skill named like a
    /// built-in first, in the built-ins' order).
    pub listed: Vec<Listed>,
    /// The replacements, in the order Gemini CLI warns of them.
    pub overrides: Vec<Override>,
}

/// Where a skill folder was found.
struct Place<'a> {
    dir: &'a Path,
    origin: Option<&'a Origin>,
}

/// The skills folder a skill was found in, and its rank.
struct Group {
    /// 0 for the folders read first (the user's), 1 for the others, 2
    /// for a path named directly.
    tier: u8,
    /// The folder's place among the client's folders of its tier.
    index: usize,
    /// The folder (for a path named directly: the skill's parent).
    folder: PathBuf,
    /// The directory holding the folder (`~`, the project).
    base: PathBuf,
}

/// The group of `place`: the user's folders before the project's (as the
/// registry says), each client folder in the registry's order; a folder
/// of no client (a path named directly) after them, by its parent.
fn group_of(place: &Place<'_>) -> Group {
    let info = Client::GeminiCli.info();
    let Some(origin) = place.origin else {
        let parent = place.dir.parent().unwrap_or(place.dir).to_path_buf();
        return Group {
            tier: 2,
            index: 0,
            base: parent.clone(),
            folder: parent,
        };
    };
    let user = origin.is_user();
    let rels: Vec<&str> = if user {
        info.user_folders.iter().map(|f| f.rel).collect()
    } else {
        info.project_folders.to_vec()
    };
    let index = rels
        .iter()
        .position(|rel| *rel == origin.rel)
        .unwrap_or(rels.len());
    let depth = Path::new(origin.rel).components().count();
    Group {
        tier: u8::from(user != info.user_first),
        index,
        base: origin
            .folder
            .ancestors()
            .nth(depth)
            .unwrap_or(&origin.folder)
            .to_path_buf(),
        folder: origin.folder.clone(),
    }
}

/// The order Gemini CLI loads `places` in, as indexes into them: by
/// group (each base's folders together, bases in order of first
/// appearance), then the folder's own `SKILL.md`, then descending byte
/// order of the path below the folder.
fn load_order(places: &[Place<'_>]) -> Vec<usize> {
    let groups: Vec<Group> = places.iter().map(group_of).collect();
    // Each base's rank, in order of first appearance.
    let mut bases: HashMap<&Path, usize> = HashMap::new();
    for g in &groups {
        let next = bases.len();
        bases.entry(&g.base).or_insert(next);
    }
    let mut order: Vec<usize> = (0..places.len()).collect();
    order.sort_by_cached_key(|&i| {
        let g = &groups[i];
        let base = bases.get(g.base.as_path()).copied();
        let within = places[i]
            .dir
            .strip_prefix(&g.folder)
            .unwrap_or(places[i].dir);
        (
            g.tier,
            base,
            g.index,
            g.folder.clone(),
            !within.as_os_str().is_empty(),
            Reverse(within.as_os_str().as_encoded_bytes().to_vec()),
        )
    });
    order
}

/// Applies Gemini CLI's precedence to `readings`, in load order: a later
/// skill of a name replaces the earlier one, which is then not listed.
/// Returns the list (indexes into `readings`) and the replacements.
fn precedence(readings: &mut [&mut Reading]) -> (Vec<usize>, Vec<Override>) {
    // The list's slots: a name and who holds it (`None`: the built-in).
    let mut slots: Vec<(String, Option<usize>)> = Client::GeminiCli
        .info()
        .builtin_skills
        .iter()
        .map(|n| ((*n).to_owned(), None))
        .collect();
    let mut by_name: HashMap<String, usize> = slots
        .iter()
        .enumerate()
        .map(|(k, (n, _))| (n.clone(), k))
        .collect();
    let mut overrides = Vec::new();
    for i in 0..readings.len() {
        let Some(listed) = readings[i].outcome.listed() else {
            continue;
        };
        let (name, location) = (listed.name.clone(), listed.location.clone());
        let Some(slot) = by_name.get(&name).and_then(|&k| slots.get_mut(k)) else {
            by_name.insert(name.clone(), slots.len());
            slots.push((name, Some(i)));
            continue;
        };
        let replaced = slot.1.replace(i);
        let old = match replaced {
            Some(j) => {
                let old = readings[j].outcome.listed().map(|l| l.location.clone());
                readings[j].outcome = Outcome::NotListed {
                    why: format!(
                        "a skill of the same name loaded after it, `{}`, takes its place: Gemini CLI lists the last skill of a name it loads",
                        location.display()
                    ),
                };
                old
            }
            None => None,
        };
        if old.as_ref() != Some(&location) {
            overrides.push(Override {
                name: slot.0.clone(),
                location,
                replaced: old,
            });
        }
    }
    (
        slots.into_iter().filter_map(|(_, i)| i).collect(),
        overrides,
    )
}

/// Gemini CLI's list of the skills discovery found
/// (`skills_compiler::discover::discover_all`): those in the folders it
/// reads ([`Origin::read_by`](crate::Origin::read_by)) and those under paths named directly, each
/// read with [`read`](super::read), in its load order.
pub fn listing(found: &[FoundSkill]) -> Listing {
    let places: Vec<Place<'_>> = found
        .iter()
        .filter(|f| {
            f.origin
                .as_ref()
                .is_none_or(|o| o.read_by(Client::GeminiCli))
        })
        .map(|f| Place {
            dir: &f.dir,
            origin: f.origin.as_ref(),
        })
        .collect();
    let mut found: Vec<Found> = load_order(&places)
        .into_iter()
        .map(|i| Found {
            dir: places[i].dir.to_path_buf(),
            reading: read(places[i].dir),
        })
        .collect();
    let mut readings: Vec<&mut Reading> = found.iter_mut().map(|f| &mut f.reading).collect();
    let (list, overrides) = precedence(&mut readings);
    let listed = list
        .into_iter()
        .filter_map(|i| found[i].reading.outcome.listed().cloned())
        .collect();
    Listing {
        found,
        listed,
        overrides,
    }
}

/// Applies Gemini CLI's precedence to the readings of checked skills (one
/// per skill, in the same order; `None` where there is no reading): of
/// two skills it would load under one name, the one loaded first is not
/// listed.
pub fn resolve<'r>(
    skills: &[CheckedSkill],
    readings: impl IntoIterator<Item = Option<&'r mut Reading>>,
) {
    let mut places = Vec::new();
    let mut taken = Vec::new();
    for (skill, reading) in skills.iter().zip(readings) {
        let Some(reading) = reading else { continue };
        if skill
            .origin
            .as_ref()
            .is_some_and(|o| !o.read_by(Client::GeminiCli))
        {
            continue;
        }
        places.push(Place {
            dir: &skill.dir,
            origin: skill.origin.as_ref(),
        });
        taken.push(Some(reading));
    }
    let mut ordered: Vec<&mut Reading> = load_order(&places)
        .into_iter()
        .filter_map(|i| taken[i].take())
        .collect();
    precedence(&mut ordered);
}

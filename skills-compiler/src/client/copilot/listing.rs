//! Which skills Copilot CLI lists from what discovery found, which copy of
//! a name it keeps, and the order of its catalog.
//!
//! Precedence (`precedence_copilot.json`): the project's `.github/skills`,
//! `.agents/skills`, `.claude/skills`, then the user's `~/.copilot/skills`,
//! `~/.agents/skills`; below the git root, each kind of folder from the
//! start directory up before the next kind (the one run from a
//! subdirectory listed `sub/.github`, the root's `.github`, `sub/.agents`,
//! the root's `.agents`, `.claude`). In one folder the copy whose `SKILL.md`
//! path sorts first by code unit wins (`same--2/SKILL.md` over `same/…`
//! and `same_c/…`: `limits_dups_copilot.json`). The first copy of a name
//! is kept, the others are not listed.
//!
//! A `SKILL.md` directly in a skills folder makes the folder one skill:
//! the other skills in it are not loaded (`copilot_synthetic.json`).
//!
//! Catalog order: the project's skills by name, by code unit (upper case
//! first), when they all come from the start directory's folders; from
//! several levels, in the precedence order of their folders, each folder's
//! by name (the one run from a subdirectory, which matches no single sort
//! by name); then the user's, folder by folder, each by name; then the
//! built-ins (`skills_core::catalog::copilot`). The order inside a user
//! folder was not recorded with more than one skill: by name is assumed.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use skills_core::client::{Client, UserBase};

use super::read::{READ_LIMIT, read, read_bytes};
use crate::checked::CheckedSkill;
use crate::client::reading::{Listed, Outcome, Reading};
use crate::discover::{FoundSkill, Origin, Place};
use skills_core::fsread;

/// Where a skill is, as Copilot ranks it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    /// 0 for the project's folders, 1 for the user's.
    user: u8,
    /// The folder's place in the registry's list of that side's folders.
    kind: usize,
    /// Directories above the start directory (0 for the user's).
    level: usize,
    /// The skills folder.
    folder: PathBuf,
    /// The `SKILL.md` below the folder, `/`-separated.
    path: String,
}

fn rank(dir: &Path, origin: Option<&Origin>) -> Rank {
    let info = Client::Copilot.info();
    let Some(o) = origin else {
        // Under a root given directly: the folder holding the skill is
        // taken as its skills folder.
        let folder = dir.parent().unwrap_or(dir).to_path_buf();
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return Rank {
            user: 0,
            kind: 0,
            level: 0,
            folder,
            path: format!("{name}/SKILL.md"),
        };
    };
    let (user, kind, level) = match o.place {
        Place::Project { level, .. } => (
            0,
            info.project_folders
                .iter()
                .position(|f| *f == o.rel)
                .unwrap_or(usize::MAX),
            level,
        ),
        Place::User(base) => (
            1,
            info.user_folders
                .iter()
                .position(|f| f.rel == o.rel && f.base == base && base == UserBase::Home)
                .unwrap_or(usize::MAX),
            0,
        ),
    };
    let below = dir.strip_prefix(&o.folder).unwrap_or(dir);
    let mut path: Vec<String> = below
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    path.push("SKILL.md".into());
    Rank {
        user,
        kind,
        level,
        folder: o.folder.clone(),
        path: path.join("/"),
    }
}

/// One skill folder Copilot reads, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The skill folder.
    pub dir: PathBuf,
    /// Its `SKILL.md`.
    pub skill_md: PathBuf,
    /// How Copilot reads it (not listed when hidden or a later copy).
    pub reading: Reading,
    /// The level Copilot shows: `project` or `user`.
    pub level: &'static str,
    rank: Rank,
}

/// Copilot's skills, in its precedence order, and its catalog.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Every skill folder Copilot reads, in precedence order.
    pub found: Vec<Found>,
}

impl Listing {
    /// Reads the skills discovery found that Copilot reads.
    pub fn of(found: &[FoundSkill]) -> Listing {
        let mut places: Vec<(&FoundSkill, Rank)> = found
            .iter()
            .filter(|f| f.origin.as_ref().is_none_or(|o| o.read_by(Client::Copilot)))
            .map(|f| (f, rank(&f.dir, f.origin.as_ref())))
            .collect();
        places.sort_by(|a, b| a.1.cmp(&b.1));
        let mut found: Vec<Found> = places
            .into_iter()
            .map(|(f, rank)| {
                let skill_md = f.dir.join("SKILL.md");
                let reading = match fsread::read_file(&skill_md, READ_LIMIT + 1) {
                    Ok(bytes) => read_bytes(&f.dir, &skill_md, &bytes),
                    Err(_) => read(&f.dir),
                };
                Found {
                    dir: f.dir.clone(),
                    skill_md,
                    reading,
                    level: if rank.user == 0 { "project" } else { "user" },
                    rank,
                }
            })
            .collect();
        let ranks: Vec<&Rank> = found.iter().map(|f| &f.rank).collect();
        let hidden = hidden_by_root(&ranks);
        for (f, root) in found.iter_mut().zip(hidden) {
            if let Some(root) = root {
                f.reading.outcome = Outcome::NotListed { why: root };
            }
        }
        first_copies(found.iter_mut().map(|f| &mut f.reading));
        Listing { found }
    }

    /// The catalog's entries, in Copilot's order (see the module), each
    /// with its level; without the built-ins.
    pub fn listed(&self) -> Vec<(&Listed, &'static str)> {
        let listed: Vec<(&Found, &Listed)> = self
            .found
            .iter()
            .filter_map(|f| Some((f, f.reading.outcome.listed()?)))
            .collect();
        let one_level = listed
            .iter()
            .filter(|(f, _)| f.rank.user == 0)
            .all(|(f, _)| f.rank.level == 0);
        let mut ordered = listed;
        // The project's skills of one level form one group, sorted by name;
        // otherwise each folder is a group, in precedence order.
        fn key(f: &Found, one_level: bool) -> (u8, usize, usize, Option<&Path>) {
            if f.rank.user == 0 && one_level {
                (0, 0, 0, None)
            } else {
                (f.rank.user, f.rank.kind, f.rank.level, Some(&f.rank.folder))
            }
        }
        ordered.sort_by(|(fa, la), (fb, lb)| {
            key(fa, one_level)
                .cmp(&key(fb, one_level))
                .then_with(|| la.name.as_bytes().cmp(lb.name.as_bytes()))
        });
        ordered.into_iter().map(|(f, l)| (l, f.level)).collect()
    }

    /// The skill Copilot's `skill` tool loads for `name`: a listed one, by
    /// name, case-insensitively (`OK-BASIC` loads `ok-basic`).
    pub fn get(&self, name: &str) -> Option<(&Found, &Listed)> {
        let listed = self.listed();
        let (l, _) = listed.iter().find(|(l, _)| l.name == name).or_else(|| {
            listed
                .iter()
                .find(|(l, _)| l.name.eq_ignore_ascii_case(name))
        })?;
        let found = self.found.iter().find(|f| {
            f.reading
                .outcome
                .listed()
                .is_some_and(|x| std::ptr::eq(x, *l))
        })?;
        Some((found, l))
    }
}

/// For each skill (by rank), why it is hidden by a `SKILL.md` directly in
/// its skills folder, if it is.
fn hidden_by_root(ranks: &[&Rank]) -> Vec<Option<String>> {
    let roots: HashSet<&Path> = ranks
        .iter()
        .filter(|r| r.path == "SKILL.md")
        .map(|r| r.folder.as_path())
        .collect();
    ranks
        .iter()
        .map(|r| {
            (r.path != "SKILL.md" && roots.contains(r.folder.as_path())).then(|| {
                format!(
                    "a `SKILL.md` directly in `{}` makes that folder one skill, and Copilot CLI loads no other skill in it",
                    r.folder.display()
                )
            })
        })
        .collect()
}

/// Keeps the first listed copy of each name, in the order given.
fn first_copies<'r>(readings: impl Iterator<Item = &'r mut Reading>) {
    let mut first: HashMap<String, PathBuf> = HashMap::new();
    for reading in readings {
        let Some(l) = reading.outcome.listed() else {
            continue;
        };
        match first.get(&l.name) {
            Some(kept) => {
                reading.outcome = Outcome::NotListed {
                    why: format!(
                        "another skill named `{}` ({}) comes first in Copilot CLI's order and is kept",
                        l.name,
                        kept.display()
                    ),
                };
            }
            None => {
                first.insert(l.name.clone(), l.location.clone());
            }
        }
    }
}

/// Applies Copilot's listing rules that need the other skills (the one
/// `SKILL.md` of a folder hiding the rest, one copy per name) to the
/// readings of `skills`, one per skill (`None` for a skill without one).
pub fn resolve<'r>(
    skills: &[CheckedSkill],
    readings: impl IntoIterator<Item = Option<&'r mut Reading>>,
) {
    let mut taken: Vec<(Rank, &mut Reading)> = skills
        .iter()
        .zip(readings)
        .filter(|(s, _)| s.origin.as_ref().is_none_or(|o| o.read_by(Client::Copilot)))
        .filter_map(|(s, r)| Some((rank(&s.dir, s.origin.as_ref()), r?)))
        .collect();
    taken.sort_by(|a, b| a.0.cmp(&b.0));
    let ranks: Vec<&Rank> = taken.iter().map(|(r, _)| r).collect();
    let hidden = hidden_by_root(&ranks);
    for ((_, reading), root) in taken.iter_mut().zip(hidden) {
        if let Some(why) = root {
            reading.outcome = Outcome::NotListed { why };
        }
    }
    first_copies(taken.into_iter().map(|(_, r)| r));
}

//! Kimi Code's listing: which skill of a name it keeps, its catalog's
//! scopes and order, and the names its `Skill` tool knows.
//!
//! Order of loading, in one scope: the scope's folders in the registry's
//! order (`.kimi-code/skills`, then `.agents/skills`); in one folder, a
//! directory's skill folders (byte order of their names), then at the
//! folder's top its loose `NAME.md` files, then its other directories, each
//! the same way (`walk_key`). The first skill loaded under a name (letter
//! case aside) is kept, a hidden one too. Then a project skill replaces a
//! user's of the same name, and either a built-in. The catalog is each
//! scope's listed skills sorted by name as JavaScript's `localeCompare`
//! sorts ([`collate`](crate::client::collate)).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use skills_core::catalog::Entry;
use skills_core::catalog::kimi_code::{Scope, builtin_entries};
use skills_core::client::Client;
use skills_core::fsread;

use super::read::{Dropped, READ_LIMIT, load, read_bytes, stem};
use crate::checked::CheckedSkill;
use crate::client::collate::collate;
use crate::client::reading::{Outcome, Reading};
use crate::discover::{FoundSkill, Origin};

/// One skill file Kimi Code reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The skill folder as Kimi Code names it (for a loose file, the skills
    /// folder it is in): absolute, the skills folder's links resolved, not
    /// those below it.
    pub dir: PathBuf,
    /// The skill file (`DIR/SKILL.md`, or a loose `NAME.md`), named so.
    pub file: PathBuf,
    /// Its scope.
    pub scope: Scope,
    /// The name it is loaded under, when it loads.
    pub name: Option<String>,
    /// How Kimi Code reads it (a later copy of a name is not listed).
    pub reading: Reading,
    /// Whether another skill holds its name.
    pub replaced: bool,
}

/// Kimi Code's listing of some skill files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Every skill file read, in load order.
    pub found: Vec<Found>,
}

/// The key a name is held under: Kimi Code compares names in lower case.
fn key(name: &str) -> String {
    name.to_lowercase()
}

impl Listing {
    /// The skills loaded under a name (listed or hidden), one per name.
    fn loaded(&self) -> impl Iterator<Item = &Found> {
        self.found
            .iter()
            .filter(|f| f.name.is_some() && !f.replaced)
    }

    /// The catalog's scopes, each with its listed entries in Kimi Code's
    /// order; the built-ins that no skill replaces last. Each entry's
    /// location is its file's absolute path.
    pub fn groups(&self) -> Vec<(Scope, Vec<Entry<'_>>)> {
        let mut groups: Vec<(Scope, Vec<Entry<'_>>)> = Vec::new();
        for scope in [Scope::Project, Scope::User] {
            let mut entries: Vec<Entry<'_>> = self
                .found
                .iter()
                .filter(|f| f.scope == scope)
                .filter_map(|f| f.reading.outcome.listed())
                .map(|l| Entry {
                    name: &l.name,
                    alias: None,
                    description: &l.description,
                    when_to_use: l.when_to_use.as_deref(),
                    location: l.location.to_str().unwrap_or_default(),
                })
                .collect();
            entries.sort_by(|a, b| collate(a.name, b.name));
            groups.push((scope, entries));
        }
        let taken: Vec<&str> = self.loaded().filter_map(|f| f.name.as_deref()).collect();
        groups.push((Scope::Builtin, builtin_entries(&taken)));
        groups
    }

    /// The skill loaded under `name`, letter case aside (listed or hidden).
    pub fn get(&self, name: &str) -> Option<&Found> {
        let want = key(name);
        self.loaded()
            .find(|f| f.name.as_deref().map(key).as_deref() == Some(want.as_str()))
    }

    /// Whether `name` is one of Kimi Code's built-in skills that no skill
    /// here replaces.
    pub fn is_builtin(&self, name: &str) -> bool {
        self.get(name).is_none() && builtin_entries(&[]).iter().any(|e| e.name == key(name))
    }
}

/// Where a skill file sits in Kimi Code's walk of its skills folder: for
/// each directory on the way, `(2, name)`; for the skill folder itself
/// `(0, name)`; a loose file is `(1, name)` at the top. Kimi Code loads a
/// directory's skill folders, then (at the top) its loose files, then walks
/// its other directories, each in byte order of the names.
fn walk_key(rel: &Path, loose: bool) -> Vec<(u8, Vec<u8>)> {
    let parts: Vec<Vec<u8>> = rel
        .components()
        .map(|c| c.as_os_str().as_encoded_bytes().to_vec())
        .collect();
    let last = parts.len().saturating_sub(1);
    parts
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let phase = match (i == last, loose) {
                (false, _) => 2,
                (true, false) => 0,
                (true, true) => 1,
            };
            (phase, p)
        })
        .collect()
}

/// The load-order key of a skill file: scope, the folder's place among
/// the client's folders of that scope, the folder, then its place in the
/// walk.
type OrderKey = (Scope, usize, PathBuf, Vec<(u8, Vec<u8>)>);

fn order_key(file: &Path, dir: &Path, origin: Option<&Origin>) -> OrderKey {
    let loose = file.file_name().is_some_and(|n| n != "SKILL.md");
    let info = Client::KimiCode.info();
    let Some(origin) = origin else {
        let parent = dir.parent().unwrap_or(dir).to_path_buf();
        let rel = if loose { file } else { dir };
        let name = rel.file_name().map(PathBuf::from).unwrap_or_default();
        return (Scope::Project, usize::MAX, parent, walk_key(&name, loose));
    };
    let (scope, index) = if origin.is_user() {
        (
            Scope::User,
            info.user_folders.iter().position(|f| f.rel == origin.rel),
        )
    } else {
        (
            Scope::Project,
            info.project_folders.iter().position(|f| *f == origin.rel),
        )
    };
    let below = if loose { file } else { dir };
    let rel = below.strip_prefix(&origin.folder).unwrap_or(below);
    (
        scope,
        index.unwrap_or(usize::MAX),
        origin.folder.clone(),
        walk_key(rel, loose),
    )
}

/// Whether Kimi Code's walk reaches the skill folder `dir` below
/// `origin`'s folder: it never looks into a `node_modules` (nor a hidden
/// directory, which discovery does not look into either), though either
/// may be a skill itself.
fn walked(origin: &Origin, dir: &Path) -> bool {
    let Ok(rel) = dir.strip_prefix(&origin.folder) else {
        return true;
    };
    let parents = rel.parent().map(Path::components).into_iter().flatten();
    !parents.into_iter().any(|c| c.as_os_str() == "node_modules")
}

/// A loose `NAME.md` at the top of a skills folder Kimi Code reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loose {
    /// The file.
    pub file: PathBuf,
    /// The skills folder it is in, as discovery found it.
    pub origin: Origin,
}

/// The loose `NAME.md` files at the top of each of `folders` (skills
/// folders Kimi Code reads, each once): every file ending in `.md` but
/// `SKILL.md`, unless a skill folder of the same name is beside it.
pub fn loose_files(folders: &[Origin]) -> Vec<Loose> {
    let mut out = Vec::new();
    let mut seen: HashSet<&Path> = HashSet::new();
    for origin in folders {
        if !seen.insert(&origin.folder) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&origin.folder) else {
            continue;
        };
        let mut names: Vec<std::ffi::OsString> = entries
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        names.sort();
        for name in names {
            let bytes = name.as_encoded_bytes();
            let Some(stem) = bytes.strip_suffix(b".md") else {
                continue;
            };
            if bytes == b"SKILL.md" {
                continue;
            }
            let stem = PathBuf::from(String::from_utf8_lossy(stem).into_owned());
            if origin.folder.join(stem).join("SKILL.md").is_file() {
                continue;
            }
            let file = origin.folder.join(&name);
            if std::fs::metadata(&file).is_ok_and(|m| m.is_file()) {
                out.push(Loose {
                    file,
                    origin: Origin {
                        depth: 0,
                        hidden: false,
                        ..origin.clone()
                    },
                });
            }
        }
    }
    out
}

/// The skills folders Kimi Code reads among those `found` came from.
pub(super) fn folders_read(found: &[FoundSkill]) -> Vec<Origin> {
    found
        .iter()
        .filter_map(|f| f.origin.as_ref())
        .filter(|o| o.folder_read_by(Client::KimiCode))
        .cloned()
        .collect()
}

/// Kimi Code's listing of what discovery found with `opts`, its loose
/// files included: those at the top of the folders the found skills are
/// in, and (for a project started in `start`) of every folder Kimi Code
/// reads there, which may hold loose files only.
pub fn listing_found(
    found: &[FoundSkill],
    start: Option<&Path>,
    opts: &crate::discover::DiscoveryOptions,
) -> Listing {
    let mut folders = folders_read(found);
    if let Some(start) = start {
        folders.extend(crate::discover::client_folders(
            Client::KimiCode,
            start,
            opts,
        ));
    }
    listing(found, &loose_files(&folders))
}

/// Kimi Code's listing of the skills discovery found (those in the folders
/// it reads, [`Origin::read_by`], and those under paths named directly) and
/// of the loose files `loose` ([`loose_files`]).
pub fn listing(found: &[FoundSkill], loose: &[Loose]) -> Listing {
    type Place<'a> = (OrderKey, PathBuf, PathBuf, Option<&'a Origin>);
    let mut places: Vec<Place<'_>> = found
        .iter()
        .filter(|f| {
            f.origin
                .as_ref()
                .is_none_or(|o| o.read_by(Client::KimiCode) && walked(o, &f.dir))
        })
        .map(|f| {
            let file = f.dir.join("SKILL.md");
            let key = order_key(&file, &f.dir, f.origin.as_ref());
            (key, f.dir.clone(), file, f.origin.as_ref())
        })
        .chain(loose.iter().map(|l| {
            (
                order_key(&l.file, &l.origin.folder, Some(&l.origin)),
                l.origin.folder.clone(),
                l.file.clone(),
                Some(&l.origin),
            )
        }))
        .collect();
    places.sort_by(|a, b| a.0.cmp(&b.0));
    // A project skill replaces a user's: names are taken scope by scope,
    // the project's first.
    let mut taken: HashSet<String> = HashSet::new();
    let found = places
        .into_iter()
        .map(|(k, dir, file, origin)| {
            let bytes = fsread::read_file(&file, READ_LIMIT + 1);
            let (mut reading, name) = match &bytes {
                Ok(bytes) => {
                    let (stem, directory) = stem(&file);
                    let name = match load(&String::from_utf8_lossy(bytes), &stem, directory) {
                        Ok(l) => Some(l.name),
                        Err(Dropped::No(_) | Dropped::Unknown(_)) => None,
                    };
                    (read_bytes(&dir, &file, bytes), name)
                }
                Err(e) => (
                    Reading::new(Outcome::Rejected {
                        why: format!("`{}` cannot be read: {}", file.display(), e.reason),
                    }),
                    None,
                ),
            };
            let replaced = name.as_deref().is_some_and(|n| !taken.insert(key(n)));
            if replaced {
                reading.outcome = Outcome::NotListed {
                    why: copy_why(name.as_deref().unwrap_or_default()),
                };
            }
            let (dir, file) = (shown(&dir, origin), shown(&file, origin));
            if let Outcome::Listed(l) = &mut reading.outcome {
                l.location = file.clone();
            }
            Found {
                dir,
                file,
                scope: k.0,
                name,
                reading,
                replaced,
            }
        })
        .collect();
    Listing { found }
}

/// `path` as Kimi Code names it: below its skills folder's real path
/// (Kimi Code resolves the folder's links, not those below it), absolute.
pub(super) fn shown(path: &Path, origin: Option<&Origin>) -> PathBuf {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let Some(origin) = origin else {
        return absolute(path);
    };
    match (
        std::fs::canonicalize(&origin.folder),
        path.strip_prefix(&origin.folder),
    ) {
        (Ok(real), Ok(rel)) if rel.as_os_str().is_empty() => real,
        (Ok(real), Ok(rel)) => real.join(rel),
        _ => absolute(path),
    }
}

fn copy_why(name: &str) -> String {
    format!(
        "another skill named `{name}` (letter case aside) is loaded first (a project skill before the user's, an earlier folder, or one Kimi Code's walk meets first); Kimi Code keeps that one"
    )
}

/// Whether Kimi Code reads the checked skill's `SKILL.md` where it is.
fn read_here(skill: &CheckedSkill) -> bool {
    let named = skill
        .skill_md
        .as_ref()
        .is_some_and(|p| p.file_name().is_some_and(|n| n == "SKILL.md"));
    let reached = skill
        .origin
        .as_ref()
        .is_none_or(|o| o.read_by(Client::KimiCode) && walked(o, &skill.dir));
    named && reached
}

/// Applies Kimi Code's one-skill-per-name rule to the readings of checked
/// skills (one per skill, in the same order; `None` where there is none),
/// in its load order: a listed skill whose name an earlier one holds (a
/// hidden one too: it is loaded) is not listed.
pub fn resolve<'r>(
    skills: &[CheckedSkill],
    readings: impl IntoIterator<Item = Option<&'r mut Reading>>,
) {
    let mut places: Vec<(OrderKey, Option<String>, &'r mut Reading)> = skills
        .iter()
        .zip(readings)
        .filter_map(|(s, r)| {
            let r = r?;
            let file = s.dir.join("SKILL.md");
            let name = match &r.outcome {
                Outcome::Listed(l) => Some(l.name.clone()),
                // Loaded but hidden: it holds its name all the same (a
                // skill Kimi Code reads, from its `SKILL.md`).
                Outcome::NotListed { .. } if !read_here(s) => None,
                Outcome::NotListed { .. } => s.source.as_ref().and_then(|source| {
                    let (stem, directory) = stem(&file);
                    load(&String::from_utf8_lossy(source.bytes()), &stem, directory)
                        .ok()
                        .map(|l| l.name)
                }),
                Outcome::Rejected { .. } | Outcome::Unknown { .. } => None,
            };
            Some((order_key(&file, &s.dir, s.origin.as_ref()), name, r))
        })
        .collect();
    places.sort_by(|a, b| a.0.cmp(&b.0));
    let mut taken: HashSet<String> = HashSet::new();
    for (_, name, reading) in places {
        let Some(name) = name else { continue };
        if !taken.insert(key(&name)) && reading.outcome.listed().is_some() {
            reading.outcome = Outcome::NotListed {
                why: copy_why(&name),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folders_skills_before_its_loose_files_before_its_directories() {
        let mut keys = [
            walk_key(Path::new("b/deep"), false),
            walk_key(Path::new("z"), false),
            walk_key(Path::new("a"), true),
            walk_key(Path::new("b"), false),
            walk_key(Path::new("a/x/y"), false),
        ];
        keys.sort();
        assert_eq!(
            keys,
            [
                walk_key(Path::new("b"), false),
                walk_key(Path::new("z"), false),
                walk_key(Path::new("a"), true),
                walk_key(Path::new("a/x/y"), false),
                walk_key(Path::new("b/deep"), false),
            ]
        );
    }
}

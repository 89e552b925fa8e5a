//! Where the clients look for skills, and how each scans what it finds
//! there: the folders and scan rules are the registry's
//! ([`skills_core::client::CLIENTS`]); this module finds and scans them.
//!
//! A *project folder* is a directory a client may be started in. From it up
//! to the root of its git repository (the first directory holding `.git`; the
//! folder alone when there is none), each level may hold the clients'
//! *skills folders*:
//!
//! | client      | project                                   | levels | the user's (only with [`UserFolders`]) |
//! |-------------|-------------------------------------------|--------|----------------------------------------|
//! | Claude Code | `.claude/skills`                          | up to the repository | `~/.claude/skills`, read *first* |
//! | Codex       | `.agents/skills`, `.codex/skills`         | up to the repository | `$CODEX_HOME/skills` (default `~/.codex/skills`), then `~/.agents/skills` |
//! | Gemini CLI  | `.gemini/skills`, `.agents/skills`        | the start directory only | `~/.gemini/skills`, `~/.agents/skills`, first |
//! | OpenCode    | `.claude/skills`, `.agents/skills`, `.opencode/skills`, `.opencode/skill` | up to the repository; outside one, up to `/` ([`DiscoveryOptions::outside_repository`]) | `~/.claude/skills`, `~/.agents/skills`, `~/.config/opencode/skills`, `~/.config/opencode/skill`, `~/.opencode/skills`, first |
//!
//! [`folders`] lists them folder by folder, each from the start directory
//! up; a folder no client reads at a level is left out. A folder reached
//! twice (a link, or the home directory being the project) is read once, at
//! its first place.
//!
//! Several clients share a folder (`.agents/skills`, `.claude/skills`), and
//! each scans it its own way ([`skills_core::client::Scan`]):
//! - **Claude Code** reads only the folder's direct children, hidden ones
//!   included (it lists `.hidden-skill`), following links to directories
//!   wherever they lead;
//! - **Codex** walks down to 6 levels, skipping hidden directories,
//!   following links to directories;
//! - **Gemini CLI** reads a `SKILL.md` in the folder itself and the folder's
//!   direct children but hidden ones;
//! - **OpenCode** reads a `SKILL.md` in the folder itself and every
//!   directory below but hidden ones, at any depth.
//!
//! [`scan`] reads a folder once, as all of its readers together: whatever
//! one of them reaches is found, and the skill's [`Origin`] (folder, place,
//! depth, hidden) tells which clients read it
//! ([`Origin::read_by`]). The walk stops at [`DiscoveryOptions::max_depth`]
//! levels (6, as Codex does) and reads at most
//! [`DiscoveryOptions::max_dirs`] directories (Codex stops near 2,000);
//! reaching either limit is error `SK007`, naming the flag that raises it,
//! so a check never passes on part of a tree. A link back to a directory
//! being walked is a cycle (warning `SK009`).
//!
//! A directory holding `SKILL.md` (or `skill.md`, which the clients do not
//! load and the profiles report) is a skill and is not looked into (the
//! skills folder itself excepted: Gemini CLI and OpenCode load a `SKILL.md`
//! there and still read the folder's children); directories holding neither
//! are passed over silently, as the clients do. A skill directory reached
//! through a link is read where the link leads (its canonical path becomes
//! the skill's boundary: links *inside* it that leave it are still refused
//! by [`files`](crate::files)).

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use skills_core::client::{self, CLIENTS, Client, Scan as ScanRule, UserBase};

use super::found::{FoundSkill, Origin, Place};
use super::links::unfollowable_link;
use super::listing::{EntryKind, list_dir};
use super::options::{DiscoveryOptions, UserFolders};
use crate::diag::{Code, Diagnostic, Severity};
use crate::knobs::Limit;
use crate::render::thousands;

/// One skills folder to scan.
#[derive(Debug, Clone)]
pub(super) struct Folder {
    pub(super) dir: PathBuf,
    /// The folder as the registry names it.
    pub(super) rel: &'static str,
    pub(super) place: Place,
}

impl Folder {
    /// The clients that read this folder at its place (whatever their scan
    /// reaches in it), in the registry's order.
    fn readers(&self) -> Vec<Client> {
        Client::ALL
            .into_iter()
            .filter(|&c| self.origin(0, false).folder_read_by(c))
            .collect()
    }

    /// Whether the folder is read before the project's: the user's folders
    /// of the clients that read theirs first (Claude Code, Gemini CLI,
    /// OpenCode) are; Codex reads its own after the project's.
    pub(super) fn user_first(&self) -> bool {
        self.readers().iter().any(|c| c.info().user_first)
    }

    fn origin(&self, depth: usize, hidden: bool) -> Origin {
        let client = Client::ALL
            .into_iter()
            .find(|&c| {
                let info = c.info();
                info.project_folders.contains(&self.rel)
                    || info.user_folders.iter().any(|f| f.rel == self.rel)
            })
            .unwrap_or(Client::ClaudeCode);
        Origin {
            client,
            folder: self.dir.clone(),
            rel: self.rel,
            place: self.place,
            depth,
            hidden,
        }
    }
}

/// `dir` as a client's skills folder, when its path ends with one
/// (`.claude/skills`, `.agents/skills`, ...).
pub(super) fn skills_folder(dir: &Path) -> Option<Folder> {
    let rel = client::distinct_project_folders()
        .into_iter()
        .find(|rel| dir.ends_with(rel))?;
    Some(Folder {
        dir: dir.to_path_buf(),
        rel,
        place: Place::Project {
            level: 0,
            outside_repository: false,
            top: true,
        },
    })
}

/// Whether `dir` holds a skills folder of a client (a directory, or a link
/// to one).
pub(super) fn holds_skills_folder(dir: &Path) -> bool {
    client::distinct_project_folders()
        .into_iter()
        .any(|rel| fs::metadata(dir.join(rel)).is_ok_and(|m| m.is_dir()))
}

/// The root of the git repository `canon` (canonical) is in: the first of
/// it and its parents holding `.git` (a directory, or a file in a worktree).
pub(super) fn repository_root(canon: &Path) -> Option<&Path> {
    canon
        .ancestors()
        .find(|dir| fs::symlink_metadata(dir.join(".git")).is_ok())
}

/// The project's skills folders that exist for a client started in `start`
/// (whose canonical path is `canon`), folder by folder in the registry's
/// order, each from the start directory up to the repository's root; with
/// `outside_repository`, a project in no repository also has its parents'
/// up to the file system's root (OpenCode reads them). A folder no client
/// reads at its level (Gemini CLI reads only the start directory's) is
/// left out. The start directory's own folders are built from `start` as
/// given; its parents' are canonical.
pub(super) fn folders(start: &Path, canon: &Path, outside_repository: bool) -> Vec<Folder> {
    let mut levels: Vec<(PathBuf, bool)> = vec![(start.to_path_buf(), false)];
    let repository = repository_root(canon);
    match repository {
        Some(top) => levels.extend(
            canon
                .ancestors()
                .skip(1)
                .take_while(|dir| dir.starts_with(top))
                .map(|dir| (dir.to_path_buf(), false)),
        ),
        None if outside_repository => levels.extend(
            canon
                .ancestors()
                .skip(1)
                .map(|dir| (dir.to_path_buf(), true)),
        ),
        None => {}
    }
    // The repository's root is the last level inside it; outside one, the
    // start directory.
    let top = match repository {
        Some(_) => levels
            .iter()
            .rposition(|(_, outside)| !outside)
            .unwrap_or(0),
        None => 0,
    };
    let mut wanted: Vec<Folder> = Vec::new();
    for rel in client::distinct_project_folders() {
        for (level, (dir, outside)) in levels.iter().enumerate() {
            // `.claude/skills` rather than `./.claude/skills`.
            let dir = if dir.as_os_str() == "." {
                PathBuf::from(rel)
            } else {
                dir.join(rel)
            };
            let folder = Folder {
                dir,
                rel,
                place: Place::Project {
                    level,
                    outside_repository: *outside,
                    top: level == top,
                },
            };
            if !folder.readers().is_empty() {
                wanted.push(folder);
            }
        }
    }
    existing(wanted)
}

/// The user's skills folders that exist, each once, in the registry's
/// order: `~/.claude/skills`, `$CODEX_HOME/skills`, `~/.agents/skills`, ...
pub(super) fn user_folders(user: &UserFolders) -> Vec<Folder> {
    let mut wanted: Vec<Folder> = Vec::new();
    for f in CLIENTS.iter().flat_map(|c| c.user_folders) {
        let place = Place::User(f.base);
        if wanted.iter().any(|w| w.rel == f.rel && w.place == place) {
            continue;
        }
        wanted.push(Folder {
            dir: match f.base {
                UserBase::Home => user.home.join(f.rel),
                UserBase::CodexHome => user.codex_home.join(f.rel),
            },
            rel: f.rel,
            place,
        });
    }
    existing(wanted)
}

/// The skills folders `client` reads for a project started in `start`,
/// and the user's (with `opts.user`), that exist, each once, as origins of
/// depth 0: where a client that reads more than skill folders (Kimi Code's
/// loose files) looks.
pub fn client_folders(client: Client, start: &Path, opts: &DiscoveryOptions) -> Vec<Origin> {
    let Ok(canon) = fs::canonicalize(start) else {
        return Vec::new();
    };
    let mut all = folders(start, &canon, opts.outside_repository);
    if let Some(user) = &opts.user {
        all.extend(user_folders(user));
    }
    all.into_iter()
        .map(|f| f.origin(0, false))
        .filter(|o| o.folder_read_by(client))
        .collect()
}

/// The folders that are directories, each (by canonical path) once, at its
/// first place.
fn existing(wanted: Vec<Folder>) -> Vec<Folder> {
    let mut seen: HashSet<PathBuf> = HashSet::new();
    wanted
        .into_iter()
        .filter(|f| {
            fs::canonicalize(&f.dir)
                .ok()
                .filter(|c| c.is_dir())
                .is_some_and(|c| seen.insert(c))
        })
        .collect()
}

/// Scans one skills folder as the clients that read it do, together: a
/// skill any of them reaches is found (its [`Origin`] says which do).
/// `skill_dirs` holds the canonical skill directories already found (under
/// any root): a skill reached again, through another folder or a link, is
/// returned once.
pub(super) fn scan(
    folder: &Folder,
    opts: &DiscoveryOptions,
    skill_dirs: &mut HashSet<PathBuf>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<FoundSkill> {
    let canon = match fs::canonicalize(&folder.dir) {
        Ok(canon) => canon,
        Err(e) => {
            diags.push(io_warning(
                &folder.dir,
                format!("cannot read `{}`: {e}", folder.dir.display()),
            ));
            return Vec::new();
        }
    };
    let readers = folder.readers();
    let scans: Vec<ScanRule> = readers.iter().map(|c| c.info().scan).collect();
    let mut scan = Scan {
        folder,
        opts,
        diags,
        skill_dirs,
        found: Vec::new(),
        stack: vec![canon.clone()],
        visited: HashSet::from([canon.clone()]),
        dirs_read: 1,
        stopped: false,
        depth_reported: false,
        root: scans.iter().any(|s| s.reaches(0, false)),
        hidden_children: scans.iter().any(|s| s.reaches(1, true)),
        hidden_below: scans.iter().any(|s| s.reaches(2, true)),
        descends: scans.iter().any(|s| s.descends()),
        walker: readers
            .iter()
            .copied()
            .find(|c| c.info().scan == ScanRule::Walk),
    };
    if scan.root && holds_skill_md(&folder.dir) && scan.skill_dirs.insert(canon) {
        scan.found.push(FoundSkill {
            dir: folder.dir.clone(),
            plugin: None,
            root: folder.dir.clone(),
            origin: Some(folder.origin(0, false)),
        });
    }
    scan.dir(&folder.dir, 0);
    scan.found
}

struct Scan<'a> {
    folder: &'a Folder,
    opts: &'a DiscoveryOptions,
    diags: &'a mut Vec<Diagnostic>,
    skill_dirs: &'a mut HashSet<PathBuf>,
    found: Vec<FoundSkill>,
    /// Canonical directories on the current walk path.
    stack: Vec<PathBuf>,
    /// Canonical directories already walked.
    visited: HashSet<PathBuf>,
    dirs_read: usize,
    stopped: bool,
    depth_reported: bool,
    /// A reader loads a `SKILL.md` in the folder itself (Gemini CLI,
    /// OpenCode).
    root: bool,
    /// A reader lists hidden children (Claude Code).
    hidden_children: bool,
    /// A reader lists hidden skill folders at any depth, without looking
    /// into them (Kimi Code).
    hidden_below: bool,
    /// A reader looks below the children (Codex, OpenCode).
    descends: bool,
    /// The reader whose walk stops at a depth (Codex), for the message at
    /// the limit.
    walker: Option<Client>,
}

impl Scan<'_> {
    /// Looks at the children of `dir`, `depth` levels below the folder.
    fn dir(&mut self, dir: &Path, depth: usize) {
        for entry in list_dir(dir, self.diags) {
            if self.stopped {
                return;
            }
            let hidden = is_hidden(&entry.name);
            if hidden && !(self.hidden_below || depth == 0 && self.hidden_children) {
                continue;
            }
            let canon = match entry.kind {
                EntryKind::Dir => match self.stack.last() {
                    Some(parent) => parent.join(&entry.name),
                    None => continue,
                },
                EntryKind::Symlink => match link_to_dir(&entry.path, self.diags) {
                    Some(canon) => canon,
                    None => continue,
                },
                EntryKind::File | EntryKind::Other => continue,
            };
            if holds_skill_md(&entry.path) {
                if self.skill_dirs.insert(canon) {
                    self.found.push(FoundSkill {
                        dir: entry.path,
                        plugin: None,
                        root: self.folder.dir.clone(),
                        origin: Some(self.folder.origin(depth + 1, hidden)),
                    });
                }
                continue;
            }
            if !self.descends || hidden {
                continue;
            }
            if self.stack.contains(&canon) {
                self.diags.push(
                    Diagnostic::new(
                        Code::SymlinkCycle,
                        Severity::Warning,
                        &entry.path,
                        format!(
                            "symbolic link `{}` leads back to `{}`, which is being walked; it was not followed",
                            entry.path.display(),
                            canon.display()
                        ),
                    )
                    .help("remove the link; it makes the directory tree endless"),
                );
                continue;
            }
            if !self.visited.insert(canon.clone()) {
                continue;
            }
            if depth + 1 >= self.opts.max_depth {
                // Only a directory with directories in it hides anything.
                let below = list_dir(&entry.path, self.diags);
                if below
                    .iter()
                    .any(|e| e.kind != EntryKind::File && !is_hidden(&e.name))
                {
                    self.depth_limit(&entry.path);
                }
                continue;
            }
            if self.dirs_read >= self.opts.max_dirs {
                self.dirs_limit();
                return;
            }
            self.dirs_read += 1;
            self.stack.push(canon);
            self.dir(&entry.path, depth + 1);
            self.stack.pop();
        }
    }

    fn depth_limit(&mut self, below: &Path) {
        if self.depth_reported {
            return;
        }
        self.depth_reported = true;
        let max = self.opts.max_depth;
        // Codex stops where discovery does by default; OpenCode does not stop.
        let stops_too = self.walker.filter(|_| max == client::WALK_DEPTH);
        let readers = self.folder.readers();
        let deeper: Vec<&str> = readers
            .iter()
            .filter(|c| c.info().scan == ScanRule::Recursive)
            .map(|c| c.title())
            .collect();
        // Kimi Code loads skills down to a depth of its own.
        let tree = readers
            .iter()
            .find(|c| c.info().scan == ScanRule::Tree && max < client::TREE_DEPTH);
        let help = if let (true, Some(tree)) = (deeper.is_empty(), tree) {
            format!(
                "{} loads skills down to {} levels: raise the limit with {} to check them",
                tree.title(),
                client::TREE_DEPTH,
                self.opts.knobs.name(Limit::Depth)
            )
        } else if deeper.is_empty() {
            format!(
                "{} does not load skills deeper than that; move them up, or raise the limit with {} to check them anyway",
                stops_too.or(self.walker).map_or("no client", Client::title),
                self.opts.knobs.name(Limit::Depth)
            )
        } else {
            format!(
                "{} loads skills at any depth: raise the limit with {} to check them",
                deeper.join(" and "),
                self.opts.knobs.name(Limit::Depth)
            )
        };
        self.diags.push(
            Diagnostic::new(
                Code::DiscoveryLimit,
                Severity::Error,
                below,
                format!(
                    "`{}` was not searched: discovery stops {max} level{} below `{}`{}",
                    below.display(),
                    if max == 1 { "" } else { "s" },
                    self.folder.dir.display(),
                    stops_too.map_or(String::new(), |c| format!(", as {} does", c.title()))
                ),
            )
            .help(help),
        );
    }

    fn dirs_limit(&mut self) {
        self.stopped = true;
        self.diags.push(
            Diagnostic::new(
                Code::DiscoveryLimit,
                Severity::Error,
                &self.folder.dir,
                format!(
                    "discovery stopped after reading {} directories under `{}`; the skills beyond were not checked",
                    thousands(self.opts.max_dirs as u64),
                    self.folder.dir.display()
                ),
            )
            .help(format!(
                "raise the limit with {}, or name the skill directories directly",
                self.opts.knobs.name(Limit::Dirs)
            )),
        );
    }
}

/// Whether a directory of this name is hidden (`.name`).
fn is_hidden(name: &OsStr) -> bool {
    name.as_encoded_bytes().starts_with(b".")
}

/// Whether `dir` holds `SKILL.md` or `skill.md` (one `statx` when it holds
/// `SKILL.md`).
fn holds_skill_md(dir: &Path) -> bool {
    ["SKILL.md", "skill.md"]
        .into_iter()
        .any(|name| fs::symlink_metadata(dir.join(name)).is_ok())
}

/// The canonical directory a link leads to, wherever it is (the clients
/// follow links to directories); `None` for links to anything else, and for
/// dangling links (warning `SK005`).
fn link_to_dir(link: &Path, diags: &mut Vec<Diagnostic>) -> Option<PathBuf> {
    match fs::canonicalize(link) {
        Ok(canon) => fs::metadata(&canon)
            .is_ok_and(|m| m.is_dir())
            .then_some(canon),
        Err(e) => {
            diags.push(unfollowable_link(link, &e));
            None
        }
    }
}

fn io_warning(path: &Path, message: String) -> Diagnostic {
    Diagnostic::new(Code::Io, Severity::Warning, path, message)
}

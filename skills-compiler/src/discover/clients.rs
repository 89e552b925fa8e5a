//! Where the clients look for skills, and how each scans what it finds
//! there: the folders and scan rules are the registry's
//! ([`skills_core::client::CLIENTS`]); this module finds and scans them.
//!
//! A *project folder* is a directory a client may be started in. From it up
//! to the root of its git repository (the first directory holding `.git`; the
//! folder alone when there is none), each level may hold the clients'
//! *skills folders*:
//!
//! | client      | project, each level        | the user's (only with [`UserFolders`])     |
//! |-------------|----------------------------|--------------------------------------------|
//! | Claude Code | `.claude/skills`           | `~/.claude/skills`, read *first*           |
//! | Codex       | `.agents/skills`, `.codex/skills` | `$CODEX_HOME/skills` (default `~/.codex/skills`), then `~/.agents/skills` |
//!
//! [`folders`] lists them in each client's order of precedence: Claude Code
//! reads its user folder, then the project's from the start directory up;
//! Codex the project's, then `$CODEX_HOME/skills`, then `~/.agents/skills`.
//! A folder reached twice (a link, or the home directory being the project)
//! is read once, at its first place.
//!
//! Each client scans a skills folder its own way ([`scan`]):
//! - **Claude Code** reads only the folder's direct children, hidden ones
//!   included (it lists `.hidden-skill`), following links to directories
//!   wherever they lead;
//! - **Codex** walks down to [`DiscoveryOptions::max_depth`] levels (6, as
//!   Codex does), skipping hidden directories, following links to
//!   directories (a link back to a directory being walked is a cycle, warning
//!   `SK009`), and reads at most [`DiscoveryOptions::max_dirs`] directories
//!   (Codex stops near 2,000); reaching either limit is error `SK007`, naming
//!   the flag that raises it, so a check never passes on part of a tree.
//!
//! In both, a directory holding `SKILL.md` (or `skill.md`, which the
//! clients do not load and the profiles report) is a skill and is not looked
//! into; directories holding neither are passed over silently, as the clients
//! do. A skill directory reached through a link is read where the link leads
//! (its canonical path becomes the skill's boundary: links *inside* it that
//! leave it are still refused by [`files`](crate::files)).

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use skills_core::client::{self, CLIENTS, Client, Scan as ScanRule, UserBase};

use super::found::{FoundSkill, Origin};
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
    pub(super) client: Client,
    pub(super) user: bool,
}

/// `dir` as a client's skills folder, when its path ends with one
/// (`.claude/skills`, `.agents/skills`, `.codex/skills`).
pub(super) fn skills_folder(dir: &Path) -> Option<Folder> {
    let client = client::project_folders()
        .find(|(_, rel)| dir.ends_with(rel))
        .map(|(client, _)| client)?;
    Some(Folder {
        dir: dir.to_path_buf(),
        client,
        user: false,
    })
}

/// Whether `dir` holds a skills folder of a client (a directory, or a link
/// to one).
pub(super) fn holds_skills_folder(dir: &Path) -> bool {
    client::project_folders().any(|(_, rel)| fs::metadata(dir.join(rel)).is_ok_and(|m| m.is_dir()))
}

/// The root of the git repository `canon` (canonical) is in: the first of
/// it and its parents holding `.git` (a directory, or a file in a worktree).
pub(super) fn repository_root(canon: &Path) -> Option<&Path> {
    canon
        .ancestors()
        .find(|dir| fs::symlink_metadata(dir.join(".git")).is_ok())
}

/// The project's skills folders that exist for a client started in `start`
/// (whose canonical path is `canon`), Claude Code's then Codex's, each from
/// the start directory up. The start directory's own folders are built from
/// `start` as given; its parents' are canonical.
pub(super) fn folders(start: &Path, canon: &Path) -> Vec<Folder> {
    let mut levels: Vec<PathBuf> = vec![start.to_path_buf()];
    if let Some(top) = repository_root(canon) {
        levels.extend(
            canon
                .ancestors()
                .skip(1)
                .take_while(|dir| dir.starts_with(top))
                .map(Path::to_path_buf),
        );
    }
    let mut wanted: Vec<Folder> = Vec::new();
    for (client, rel) in client::project_folders() {
        for level in &levels {
            // `.claude/skills` rather than `./.claude/skills`.
            let dir = if level.as_os_str() == "." {
                PathBuf::from(rel)
            } else {
                level.join(rel)
            };
            wanted.push(Folder {
                dir,
                client,
                user: false,
            });
        }
    }
    existing(wanted)
}

/// The user's skills folders that exist, in the registry's order:
/// `~/.claude/skills`, `$CODEX_HOME/skills`, `~/.agents/skills`.
pub(super) fn user_folders(user: &UserFolders) -> Vec<Folder> {
    let wanted = CLIENTS
        .iter()
        .flat_map(|c| c.user_folders.iter().map(move |f| (c.client, f)))
        .map(|(client, f)| Folder {
            dir: match f.base {
                UserBase::Home => user.home.join(f.rel),
                UserBase::CodexHome => user.codex_home.join(f.rel),
            },
            client,
            user: true,
        })
        .collect();
    existing(wanted)
}

/// The folders that are directories, each (by canonical path and client) once.
fn existing(wanted: Vec<Folder>) -> Vec<Folder> {
    let mut seen: HashSet<(PathBuf, Client)> = HashSet::new();
    wanted
        .into_iter()
        .filter(|f| {
            fs::canonicalize(&f.dir)
                .ok()
                .filter(|c| c.is_dir())
                .is_some_and(|c| seen.insert((c, f.client)))
        })
        .collect()
}

/// Scans one skills folder as its client does. `skill_dirs` holds the
/// canonical skill directories already found (under any root): a skill
/// reached again, through another folder or a link, is returned once.
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
    let mut scan = Scan {
        folder,
        opts,
        diags,
        skill_dirs,
        found: Vec::new(),
        stack: vec![canon.clone()],
        visited: HashSet::from([canon]),
        dirs_read: 1,
        stopped: false,
        depth_reported: false,
    };
    scan.dir(&folder.dir, 0);
    scan.found
}

struct Scan<'a> {
    folder: &'a Folder,
    opts: &'a DiscoveryOptions,
    diags: &'a mut Vec<Diagnostic>,
    skill_dirs: &'a mut HashSet<PathBuf>,
    found: Vec<FoundSkill>,
    /// Canonical directories on the current walk path (Codex).
    stack: Vec<PathBuf>,
    /// Canonical directories already walked.
    visited: HashSet<PathBuf>,
    dirs_read: usize,
    stopped: bool,
    depth_reported: bool,
}

impl Scan<'_> {
    /// Looks at the children of `dir`, `depth` levels below the folder.
    fn dir(&mut self, dir: &Path, depth: usize) {
        let walks = self.folder.client.info().scan == ScanRule::Walk;
        for entry in list_dir(dir, self.diags) {
            if self.stopped {
                return;
            }
            if walks && is_hidden(&entry.name) {
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
                        origin: Some(Origin {
                            client: self.folder.client,
                            folder: self.folder.dir.clone(),
                            user: self.folder.user,
                        }),
                    });
                }
                continue;
            }
            if !walks {
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
        self.diags.push(
            Diagnostic::new(
                Code::DiscoveryLimit,
                Severity::Error,
                below,
                format!(
                    "`{}` was not searched: discovery stops {max} level{} below `{}`, as {} does",
                    below.display(),
                    if max == 1 { "" } else { "s" },
                    self.folder.dir.display(),
                    self.folder.client.title()
                ),
            )
            .help(format!(
                "{} does not load skills deeper than that; move them up, or raise the limit with {} to check them anyway",
                self.folder.client.title(),
                self.opts.knobs.name(Limit::Depth)
            )),
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

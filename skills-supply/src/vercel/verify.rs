//! Checking the folders Vercel's CLI installed against its lock.
//!
//! The CLI installs a project's skill as `FOLDER/NAME` for each chosen
//! client's folder (`.agents/skills` for the clients that read it, and
//! `.claude/skills`, `.cursor`'s… for the others: [`AGENT_FOLDERS`]), where
//! NAME is the lock's key made into a folder name ([`install_name`]). With
//! one client it copies; with several it copies into `.agents/skills` and
//! links each client's folder to that copy (a relative link, from the real
//! path of the client's folder). Its `computedHash` is taken from the
//! source folder before copying (from the installed folder for a
//! well-known index), so a source holding what the copy leaves out
//! (`metadata.json` files, `__pycache__` directories) or links that the copy
//! follows is reported as differing from the start.
//!
//! Nothing below the project's root is read through a symbolic link: each
//! client's folder is opened component by component without following one.
//! A skill's folder that is a link is Vercel's layout ([`State::Linked`])
//! only when it names the same skill's copy in `.agents/skills`, which must
//! itself be a real folder; any other link, there or above
//! (`.claude` committed as a link), is [`State::ForeignLink`].

use std::io;
use std::path::{Component, Path, PathBuf};

use skills_core::fsread::{Dir, Reason};

use super::VercelLock;
use super::hash::hash_open;

/// The project folders the CLI installs skills into (every client it knows
/// of, project scope), relative to the project's root.
pub const AGENT_FOLDERS: [&str; 24] = [
    ".agents/skills",
    ".claude/skills",
    ".cline/skills",
    ".codebuddy/skills",
    ".codex/skills",
    ".commandcode/skills",
    ".continue/skills",
    ".github/skills",
    ".goose/skills",
    ".iflow/skills",
    ".junie/skills",
    ".kilocode/skills",
    ".kiro/skills",
    ".mux/skills",
    ".neovate/skills",
    ".opencode/skills",
    ".openhands/skills",
    ".pi/skills",
    ".qoder/skills",
    ".roo/skills",
    ".trae/skills",
    ".windsurf/skills",
    ".zcode/skills",
    ".zencoder/skills",
];

/// What one check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The skill's name, as the lock has it.
    pub skill: String,
    /// The folder, relative to the project (`.claude/skills/NAME`); for
    /// [`State::Missing`], the CLI's own folder, `.agents/skills/NAME`.
    pub folder: PathBuf,
    /// What was found there.
    pub state: State,
}

/// The state of one installed folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Its hash is the lock's `computedHash`.
    Matches,
    /// Its hash is another.
    Differs {
        /// The lock's hash.
        locked: String,
        /// The folder's.
        actual: String,
    },
    /// Vercel's link from a client's folder to the same skill's copy in
    /// `.agents/skills` (the first of [`AGENT_FOLDERS`]): not followed; the
    /// copy is checked in its own right.
    Linked {
        /// What the link says.
        target: PathBuf,
    },
    /// A symbolic link Vercel's layout does not make: the skill's folder
    /// linked anywhere but to its copy in `.agents/skills`, the copy itself
    /// a link, or a folder above the skill's a link. Not followed.
    ForeignLink {
        /// The link, relative to the project (the skill's folder, or a
        /// folder above it such as `.claude`).
        link: PathBuf,
        /// What the link says.
        target: PathBuf,
    },
    /// None of [`AGENT_FOLDERS`] holds the skill (a link to its copy
    /// aside).
    Missing,
    /// It could not be hashed (the message names the file and why).
    Unreadable(String),
}

/// The folder name the CLI gives a skill called `name`: lowercased, each
/// run of characters other than `a`–`z`, digits, `.` and `_` made one `-`,
/// leading and trailing `.` and `-` removed, at most 255 characters, and
/// `unnamed-skill` when nothing is left. It can never hold a `/` or be `..`.
pub fn install_name(name: &str) -> String {
    let lower = name.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut in_run = false;
    for c in lower.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '_' {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('-');
            in_run = true;
        }
    }
    let trimmed = out.trim_matches(|c| c == '.' || c == '-');
    // Only ASCII is left, so 255 bytes are 255 characters.
    let cut = &trimmed[..trimmed.len().min(255)];
    if cut.is_empty() {
        "unnamed-skill".to_owned()
    } else {
        cut.to_owned()
    }
}

/// Checks every skill of `lock` in every folder of the project at
/// `project` where the CLI could have put it, in the lock's order and then
/// [`AGENT_FOLDERS`]'s. A skill found nowhere, or only as links to its
/// copy, gives one [`State::Missing`].
pub fn verify(project: &Path, lock: &VercelLock) -> Vec<Finding> {
    let mut findings = Vec::new();
    let root = match Dir::open(project) {
        Ok(root) => root,
        Err(e) => {
            return lock
                .skills
                .iter()
                .map(|skill| Finding {
                    skill: skill.name.clone(),
                    folder: Path::new(AGENT_FOLDERS[0]).join(install_name(&skill.name)),
                    state: State::Unreadable(format!("cannot open `{}`: {e}", project.display())),
                })
                .collect();
        }
    };
    let links = Links::new(project);
    let folders: Vec<Folder> = AGENT_FOLDERS
        .iter()
        .map(|folder| Folder::open(&root, folder))
        .collect();
    for skill in &lock.skills {
        let name = install_name(&skill.name);
        let before = findings.len();
        for (folder, opened) in AGENT_FOLDERS.iter().zip(&folders) {
            let rel = Path::new(folder).join(&name);
            let full = project.join(&rel);
            let state = match opened {
                Folder::Absent => continue,
                Folder::Unreadable(why) => State::Unreadable(why.clone()),
                // Behind a link: reported where the skill is there (looked
                // up through the link, nothing read).
                Folder::Link { link, target } => match std::fs::symlink_metadata(&full) {
                    Ok(_) => State::ForeignLink {
                        link: link.clone(),
                        target: target.clone(),
                    },
                    Err(_) => continue,
                },
                Folder::Open(dir) => match dir.open_dir(Path::new(&name)) {
                    Ok(skill_dir) => match hash_open(&skill_dir) {
                        Ok(actual) if actual == skill.computed_hash => State::Matches,
                        Ok(actual) => State::Differs {
                            locked: skill.computed_hash.clone(),
                            actual,
                        },
                        Err(e) => State::Unreadable(e.to_string()),
                    },
                    Err(e) if e.is_not_found() => continue,
                    Err(e) => match e.reason {
                        Reason::Link => match dir.read_link(name.as_ref()) {
                            Ok(target) if links.is_vercels(folder, &name, &target) => {
                                State::Linked { target }
                            }
                            Ok(target) => State::ForeignLink {
                                link: rel.clone(),
                                target,
                            },
                            Err(e) => State::Unreadable(format!(
                                "cannot read the link `{}`: {e}",
                                full.display()
                            )),
                        },
                        Reason::Io(io) if io.kind() == io::ErrorKind::NotADirectory => {
                            State::Unreadable(format!("`{}` is not a directory", full.display()))
                        }
                        other => {
                            State::Unreadable(format!("cannot open `{}`: {other}", full.display()))
                        }
                    },
                },
            };
            findings.push(Finding {
                skill: skill.name.clone(),
                folder: rel,
                state,
            });
        }
        if findings[before..]
            .iter()
            .all(|f| matches!(f.state, State::Linked { .. }))
        {
            findings.push(Finding {
                skill: skill.name.clone(),
                folder: Path::new(AGENT_FOLDERS[0]).join(&name),
                state: State::Missing,
            });
        }
    }
    findings
}

/// One of [`AGENT_FOLDERS`] in the project, opened below its root
/// component by component without following a link.
#[derive(Debug)]
enum Folder {
    Open(Dir),
    Absent,
    /// A folder on its path is a link (`link`, relative to the project).
    Link {
        link: PathBuf,
        target: PathBuf,
    },
    Unreadable(String),
}

impl Folder {
    fn open(root: &Dir, folder: &str) -> Folder {
        let mut at: Option<Dir> = None;
        let mut rel = PathBuf::new();
        for part in folder.split('/') {
            let here = at.as_ref().unwrap_or(root);
            rel.push(part);
            match here.open_dir(Path::new(part)) {
                Ok(dir) => at = Some(dir),
                Err(e) if e.is_not_found() => return Folder::Absent,
                Err(e) => {
                    return match e.reason {
                        Reason::Link => match here.read_link(part.as_ref()) {
                            Ok(target) => Folder::Link { link: rel, target },
                            Err(e) => Folder::Unreadable(format!(
                                "cannot read the link `{}`: {e}",
                                rel.display()
                            )),
                        },
                        // A file where the folder would be: nothing there.
                        Reason::Io(io) if io.kind() == io::ErrorKind::NotADirectory => {
                            Folder::Absent
                        }
                        other => {
                            Folder::Unreadable(format!("cannot open `{}`: {other}", rel.display()))
                        }
                    };
                }
            }
        }
        at.map_or(Folder::Absent, Folder::Open)
    }
}

/// Where the CLI's links may point: the project as named, and its real
/// path, which the CLI computes its relative links from.
struct Links {
    project: PathBuf,
    real: Option<PathBuf>,
}

impl Links {
    fn new(project: &Path) -> Links {
        Links {
            project: std::path::absolute(project)
                .map_or_else(|_| project.to_path_buf(), |p| lexical(&p)),
            real: std::fs::canonicalize(project).ok(),
        }
    }

    /// Whether `target`, a link at `folder/name`, is the CLI's link to the
    /// skill's copy in `.agents/skills`: resolved from the real path of
    /// `folder` (no link below the root, checked), it must name that copy.
    fn is_vercels(&self, folder: &str, name: &str, target: &Path) -> bool {
        let canonical = Path::new(AGENT_FOLDERS[0]).join(name);
        let Some(real) = &self.real else {
            return false;
        };
        folder != AGENT_FOLDERS[0] && {
            let resolved = lexical(&real.join(folder).join(target));
            resolved == real.join(&canonical) || resolved == self.project.join(&canonical)
        }
    }
}

/// `path` with `.` dropped and each `..` taking off the component before it
/// (never above the root), as the kernel resolves it where no component is
/// a link.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

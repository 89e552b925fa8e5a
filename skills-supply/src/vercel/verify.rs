//! Checking the folders Vercel's CLI installed against its lock.
//!
//! The CLI installs a project's skill as `FOLDER/NAME` for each chosen
//! client's folder (`.agents/skills` for the clients that read it, and
//! `.claude/skills`, `.cursor`'s… for the others: [`AGENT_FOLDERS`]), where
//! NAME is the lock's key made into a folder name ([`install_name`]). With
//! one client it copies; with several it copies into `.agents/skills` and
//! links each client's folder to that copy. Its `computedHash` is taken from
//! the source folder before copying (from the installed folder for a
//! well-known index), so a source holding what the copy leaves out
//! (`metadata.json` files, `__pycache__` directories) or links that the copy
//! follows is reported as differing from the start.

use std::path::{Path, PathBuf};

use super::{VercelLock, computed_hash};

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
    /// A symbolic link (the CLI links client folders to `.agents/skills`):
    /// not followed; the folder it names is checked in its own right when
    /// it is one of [`AGENT_FOLDERS`].
    Linked {
        /// What the link says.
        target: PathBuf,
    },
    /// None of [`AGENT_FOLDERS`] holds the skill.
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
/// [`AGENT_FOLDERS`]'s. A skill found nowhere gives one [`State::Missing`].
pub fn verify(project: &Path, lock: &VercelLock) -> Vec<Finding> {
    let mut findings = Vec::new();
    for skill in &lock.skills {
        let name = install_name(&skill.name);
        let before = findings.len();
        for folder in AGENT_FOLDERS {
            let rel = Path::new(folder).join(&name);
            let full = project.join(&rel);
            let state = match std::fs::symlink_metadata(&full) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => State::Unreadable(format!("cannot stat `{}`: {e}", full.display())),
                Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(&full) {
                    Ok(target) => State::Linked { target },
                    Err(e) => {
                        State::Unreadable(format!("cannot read the link `{}`: {e}", full.display()))
                    }
                },
                Ok(meta) if !meta.is_dir() => {
                    State::Unreadable(format!("`{}` is not a directory", full.display()))
                }
                Ok(_) => match computed_hash(&full) {
                    Ok(actual) if actual == skill.computed_hash => State::Matches,
                    Ok(actual) => State::Differs {
                        locked: skill.computed_hash.clone(),
                        actual,
                    },
                    Err(e) => State::Unreadable(e.to_string()),
                },
            };
            findings.push(Finding {
                skill: skill.name.clone(),
                folder: rel,
                state,
            });
        }
        if findings.len() == before {
            findings.push(Finding {
                skill: skill.name.clone(),
                folder: Path::new(AGENT_FOLDERS[0]).join(&name),
                state: State::Missing,
            });
        }
    }
    findings
}

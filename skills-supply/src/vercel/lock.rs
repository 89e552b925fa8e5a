//! What a `skills-lock.json` holds, as parsed: the lock and its skills.

use serde_json::{Map, Value};

/// The lock file's name, at the project's root.
pub const LOCK_FILE: &str = "skills-lock.json";

/// A parsed `skills-lock.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct VercelLock {
    /// The format's version (1 today; the CLI accepts any number from 1 up).
    pub version: u64,
    /// The skills, in the order of their names' bytes.
    pub skills: Vec<VercelSkill>,
}

/// One skill of a `skills-lock.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct VercelSkill {
    /// The skill's name: its key in `skills` (the name from its `SKILL.md`,
    /// not yet made into a folder name: see [`install_name`](super::install_name)).
    pub name: String,
    /// `source`: where it came from, as the CLI recorded it (a path, a URL,
    /// `owner/repo`, an npm package name, `wellknown/HOST`).
    pub source: String,
    /// `sourceType`: `local`, `github`, `gitlab`, `git`, `well-known`,
    /// `node_modules`, or another the CLI may add.
    pub source_type: String,
    /// `computedHash`: the SHA-256, in hex, that [`computed_hash`](super::computed_hash) reproduces.
    pub computed_hash: String,
    /// `sourceUrl`, when the CLI recorded one (git sources).
    pub source_url: Option<String>,
    /// `ref`: the branch or tag asked for, when one was.
    pub git_ref: Option<String>,
    /// `skillPath`: the skill's `SKILL.md` inside the source.
    pub skill_path: Option<String>,
    /// `subagents`: Eve's subagents it went to.
    pub subagents: Option<Vec<String>>,
    /// Every other field, as written.
    pub other: Map<String, Value>,
}

//! What discovery returns: each skill directory found ([`FoundSkill`]),
//! with the client's skills folder it was found in ([`Origin`]).

use std::path::PathBuf;

use skills_core::client::Client;

/// One skill directory found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSkill {
    /// The skill directory, built from the root as the user gave it (not canonicalised).
    pub dir: PathBuf,
    /// The plugin it belongs to, for plugin layouts: its skills are named `plugin:skill`.
    pub plugin: Option<String>,
    /// The root it was found under, as the user gave it (for a skill in a
    /// client's skills folder: that folder).
    pub root: PathBuf,
    /// The client's skills folder it was found in, if any.
    pub origin: Option<Origin>,
}

/// The skills folder a skill was found in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Whose folder it is.
    pub client: Client,
    /// The skills folder (`.claude/skills`, ...), as discovery built it.
    pub folder: PathBuf,
    /// The user's own folder, rather than the project's.
    pub user: bool,
}

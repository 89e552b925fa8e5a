//! [`DiscoveryOptions`]: how far discovery looks under a root, and whether
//! it reads the user's own skills folders ([`UserFolders`]).

use std::path::PathBuf;

use crate::knobs::Knobs;

/// How far discovery looks under one root, and whether it reads the user's
/// skills folders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoveryOptions {
    /// How many levels below the root the walk descends (the root is level 0).
    pub max_depth: usize,
    /// How many directories the walk reads under one root.
    pub max_dirs: usize,
    /// The user's skills folders, read once besides the roots; `None` (the
    /// default) leaves them out.
    pub user: Option<UserFolders>,
    /// How the errors at a limit say to raise it.
    pub knobs: Knobs,
    /// Whether a project in no git repository also has the skills folders
    /// of its parents, up to the file system's root, as OpenCode reads them
    /// (the other clients read the project folder alone). Off by default:
    /// a check of a folder should not reach out of it; the `opencode`
    /// profile and styles turn it on.
    pub outside_repository: bool,
    /// Whether a directory root is read as the project folder a client was
    /// started in (its clients' skills folders, from it up to the
    /// repository), never as a tree to walk, even when it holds no skills
    /// folder: what a client would list if started there. Off by default:
    /// `skb validate DIR` walks a tree of skills; `skb catalog` and `skb
    /// show` without paths turn it on for the current directory.
    pub as_project: bool,
}

impl Default for DiscoveryOptions {
    /// Depth 6, 2,000 directories (as Codex), no user folders.
    fn default() -> Self {
        DiscoveryOptions {
            max_depth: 6,
            max_dirs: 2000,
            user: None,
            knobs: Knobs::Flags,
            outside_repository: false,
            as_project: false,
        }
    }
}

/// The user's folders: read only when asked (`--user`), because a check in CI
/// should not depend on the runner's home directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserFolders {
    /// The home directory: `~/.claude/skills` and `~/.agents/skills`.
    pub home: PathBuf,
    /// Codex's home (`$CODEX_HOME`, default `~/.codex`): `skills/` in it.
    pub codex_home: PathBuf,
}

impl UserFolders {
    /// From `HOME` (`USERPROFILE` on Windows) and `CODEX_HOME`; `None`
    /// without a home directory.
    pub fn from_env() -> Option<UserFolders> {
        let home = std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)?;
        let codex_home = std::env::var_os("CODEX_HOME")
            .filter(|h| !h.is_empty())
            .map_or_else(|| home.join(".codex"), PathBuf::from);
        Some(UserFolders { home, codex_home })
    }
}

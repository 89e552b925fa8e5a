//! The kinds of skill roots Codex has, and their two orders: the order it
//! numbers them in its roots table (`$CODEX_HOME/skills`, `~/.agents/skills`,
//! its system cache, then the repository's folders: the record numbers
//! them `r0` to `r3` so) and the order it lists their skills in (system,
//! then the repository's, then `$CODEX_HOME/skills`, then
//! `~/.agents/skills`).

use std::fs;
use std::path::Path;

use crate::discover::UserFolders;

/// Where a skill root sits for Codex. The variants are in the order Codex
/// numbers roots in its table (`Ord`); [`RootKind::list_rank`] is the order
/// it lists their skills in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RootKind {
    /// `$CODEX_HOME/skills` (`~/.codex/skills` by default).
    CodexHome,
    /// `~/.agents/skills`.
    UserAgents,
    /// `$CODEX_HOME/skills/.system`, Codex's own skills.
    System,
    /// A repository's `.agents/skills` or `.codex/skills` (and any other
    /// folder given as a root).
    Repo,
}

impl RootKind {
    /// Rank in Codex's listing order (lower lists first).
    pub fn list_rank(self) -> u8 {
        match self {
            RootKind::System => 0,
            RootKind::Repo => 1,
            RootKind::CodexHome => 2,
            RootKind::UserAgents => 3,
        }
    }

    /// What `root` is, given the user's folders (`$CODEX_HOME`, `$HOME`);
    /// paths are compared as given and canonical.
    pub fn of(root: &Path, user: Option<&UserFolders>) -> RootKind {
        let Some(user) = user else {
            return RootKind::Repo;
        };
        let same = |other: &Path| {
            root == other
                || matches!((fs::canonicalize(root), fs::canonicalize(other)), (Ok(x), Ok(y)) if x == y)
        };
        let skills = user.codex_home.join("skills");
        if same(&skills) {
            RootKind::CodexHome
        } else if same(&skills.join(".system")) {
            RootKind::System
        } else if same(&user.home.join(".agents").join("skills")) {
            RootKind::UserAgents
        } else {
            RootKind::Repo
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_kinds_and_their_orders() {
        let user = UserFolders {
            home: "/h".into(),
            codex_home: "/h/.codex".into(),
        };
        let of = |p: &str| RootKind::of(Path::new(p), Some(&user));
        assert_eq!(of("/h/.codex/skills"), RootKind::CodexHome);
        assert_eq!(of("/h/.codex/skills/.system"), RootKind::System);
        assert_eq!(of("/h/.agents/skills"), RootKind::UserAgents);
        assert_eq!(of("/repo/.agents/skills"), RootKind::Repo);
        assert_eq!(
            RootKind::of(Path::new("/h/.agents/skills"), None),
            RootKind::Repo
        );
        let mut kinds = [
            RootKind::UserAgents,
            RootKind::Repo,
            RootKind::CodexHome,
            RootKind::System,
        ];
        kinds.sort();
        assert_eq!(
            kinds,
            [
                RootKind::CodexHome,
                RootKind::UserAgents,
                RootKind::System,
                RootKind::Repo
            ]
        );
        kinds.sort_by_key(|k| k.list_rank());
        assert_eq!(
            kinds,
            [
                RootKind::System,
                RootKind::Repo,
                RootKind::CodexHome,
                RootKind::UserAgents
            ]
        );
    }
}

//! Qwen Code's two levels (`project`, `user`) and which one a `SKILL.md`
//! path is at when its discovery origin is not at hand: what its catalog
//! shows where other clients show a path.

use std::path::Path;

use skills_core::client::Client;

/// A skill's level, as Qwen Code shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// In a project's folder (or a path named directly).
    Project,
    /// In the user's folders.
    User,
}

impl Level {
    /// `project` or `user`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Project => "project",
            Level::User => "user",
        }
    }
}

/// The level of the `SKILL.md` at `path` when its origin is not at hand:
/// `user` below one of the user's Qwen Code folders in `HOME`, else
/// `project`.
pub fn level_of(path: &Path) -> Level {
    let Some(user) = crate::discover::UserFolders::from_env() else {
        return Level::Project;
    };
    let info = Client::QwenCode.info();
    let mine = info
        .user_folders
        .iter()
        .any(|f| path.starts_with(user.home.join(f.rel)));
    if mine { Level::User } else { Level::Project }
}

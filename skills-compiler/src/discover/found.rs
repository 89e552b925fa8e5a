//! What discovery returns: each skill directory found ([`FoundSkill`]),
//! with the client's skills folder it was found in ([`Origin`]).

use std::path::PathBuf;

use skills_core::client::{Client, Levels, UserBase};

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

/// The skills folder a skill was found in, and where: enough to tell which
/// clients read it ([`Origin::read_by`]), since several clients share a
/// folder (`.agents/skills` is Codex's, Gemini CLI's and OpenCode's) and
/// each scans it, and a project's levels, its own way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The first client of the registry that reads the folder (for
    /// messages naming "its" client).
    pub client: Client,
    /// The skills folder, as discovery built it.
    pub folder: PathBuf,
    /// The folder as the registry names it: `.agents/skills`, or `skills`
    /// below Codex's home.
    pub rel: &'static str,
    /// A project's folder or the user's, and which.
    pub place: Place,
    /// How many directories below the folder the skill is: 1 for a child of
    /// the folder, 0 for a `SKILL.md` in the folder itself.
    pub depth: usize,
    /// Whether a directory between the folder and the skill (the skill's
    /// own included) is hidden (`.name`).
    pub hidden: bool,
}

/// Whether a skills folder is a project's, at which level, or the user's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In a project: `level` directories above the start directory (0: the
    /// start directory itself); `outside_repository` when the project is in
    /// no git repository and the level is a parent of it.
    Project {
        /// Directories above the start directory.
        level: usize,
        /// A parent of a project that is in no repository.
        outside_repository: bool,
        /// The level is the root of the project's git repository (the
        /// start directory, when the project is in none).
        top: bool,
    },
    /// One of the user's folders, below this home.
    User(UserBase),
}

impl Origin {
    /// Whether the folder is the user's own.
    pub fn is_user(&self) -> bool {
        matches!(self.place, Place::User(_))
    }

    /// Whether `client` reads this skill: it reads the folder (at this
    /// level of the project, or as the user's), and its scan of the folder
    /// reaches the skill.
    pub fn read_by(&self, client: Client) -> bool {
        self.folder_read_by(client) && client.info().scan.reaches(self.depth, self.hidden)
    }

    /// Whether `client` reads the skills folder at its place, whatever its
    /// scan of the folder reaches.
    pub fn folder_read_by(&self, client: Client) -> bool {
        let info = client.info();
        match self.place {
            Place::User(base) => info
                .user_folders
                .iter()
                .any(|f| f.base == base && f.rel == self.rel),
            Place::Project {
                level,
                outside_repository,
                top,
            } => {
                info.project_folders.contains(&self.rel)
                    && match info.levels {
                        Levels::Start => level == 0,
                        Levels::UpToRepository => !outside_repository,
                        Levels::UpToRepositoryOrRoot => true,
                        Levels::RepositoryRoot => top,
                    }
            }
        }
    }

    /// The clients that read this skill, in the registry's order.
    pub fn readers(&self) -> impl Iterator<Item = Client> + '_ {
        Client::ALL.into_iter().filter(move |c| self.read_by(*c))
    }
}

//! Where a lock's skills are installed and where the lock itself lives: one
//! rule for every reader of a lock (the CLI, `skills_bundle::installed` at
//! an agent's start, `skills_bundle!(lock = …)` at build time).
//!
//! - A **project**: the lock is `<root>/skb.lock`, and each `installed`
//!   entry is a skill's folder in a skills folder of the project,
//!   `<folder>/<name>` (`.claude/skills/pdf`), relative to the root: a
//!   client's skills folder, or a folder named `skills` that `skb add --dir`
//!   was given (`tools/agent/skills/pdf`), never inside `.git` or skb's
//!   state folder `.skb`. A project's lock never names `~/…`: the lock is
//!   committed, so a pull request that could point it at the home folder
//!   would make `skb install` write there; and because every folder it
//!   names ends in `skills/<name>`, it cannot make `skb install` write a
//!   repository's hooks or a CI workflow folder either.
//! - The **user's scope** (`skb add --global`): each entry is below the
//!   home folder, written `~/…` (`~/.claude/skills/pdf`), and the lock is
//!   in skb's configuration folder: `$XDG_CONFIG_HOME/skb/skb.lock` when
//!   `XDG_CONFIG_HOME` is an absolute path, else `~/.config/skb/skb.lock`.
//!   The home folder is `HOME` (`USERPROFILE` on Windows), which must be
//!   set and absolute: a missing home is an error, never a skip.
//!
//! Inside the project nothing is read through a symbolic link (see
//! `lock::installed`); in the user's scope the folders leading to a
//! client's skills folder may be links the user made (a dotfiles checkout
//! linked as `~/.claude`), and the skill folders themselves may not.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};

use super::model::{FILE_NAME, Lock};
use crate::client::INSTALL_TARGETS;

/// Where a lock's `installed` entries are, and where the lock is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scope {
    /// A project: entries relative to `root`, the lock `<root>/skb.lock`.
    Project {
        /// The project's folder.
        root: PathBuf,
    },
    /// The user's scope: entries `~/…` below `home`, the lock at `lock`.
    User {
        /// The home folder, absolute.
        home: PathBuf,
        /// The user's lock file.
        lock: PathBuf,
    },
}

/// Why the home folder is not known.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HomeError {
    /// `HOME` is not set.
    NotSet,
    /// `HOME` is set to a relative path (or to nothing).
    NotAbsolute(PathBuf),
}

impl fmt::Display for HomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HomeError::NotSet => {
                f.write_str("HOME is not set, so the user's folders and lock cannot be found")
            }
            HomeError::NotAbsolute(p) => write!(
                f,
                "HOME is `{}`, not an absolute path, so the user's folders and lock cannot be found",
                p.display()
            ),
        }
    }
}

impl std::error::Error for HomeError {}

/// An `installed` entry the lock's scope does not allow, naming the skill
/// and the entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeError {
    /// The skill.
    pub skill: String,
    /// The entry, as the lock has it.
    pub installed: String,
    /// Which rule it breaks.
    pub rule: Rule,
}

/// The rules of [`Scope`] an `installed` entry can break.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// A project's lock names a folder below `~/`.
    HomeInProject,
    /// The user's lock names a folder that is not below `~/`.
    OutsideHome,
    /// Not a skill's folder in a skills folder: a project entry must be
    /// `<folder>/<name>` with a client folder skb installs into or a folder
    /// named `skills` outside `.git` and `.skb`; a user entry
    /// `~/<folder>/<name>`.
    NotASkillFolder,
    /// Another skill (named here) is installed in the same folder.
    SharedWith(String),
}

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (skill, path) = (&self.skill, &self.installed);
        match &self.rule {
            Rule::HomeInProject => write!(
                f,
                "skill `{skill}`: `{path}` is in the user's home; a project's lock installs only inside the project (`--global` installs in the home, with the user's lock)"
            ),
            Rule::OutsideHome => write!(
                f,
                "skill `{skill}`: `{path}` is not below `~/`; the user's lock installs only in the home folder"
            ),
            Rule::NotASkillFolder => write!(
                f,
                "skill `{skill}`: `{path}` is not a skill's folder in a skills folder (a client's: {}; or a folder named `skills`, outside `.git` and `.skb`)",
                client_folders().join(", ")
            ),
            Rule::SharedWith(other) => write!(
                f,
                "skills `{other}` and `{skill}` are both installed in `{path}`"
            ),
        }
    }
}

impl std::error::Error for ScopeError {}

/// The skills folders a project's lock may install into, in table order,
/// each once.
fn client_folders() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for t in &INSTALL_TARGETS {
        if !out.contains(&t.project) {
            out.push(t.project);
        }
    }
    out
}

/// The home folder: `HOME` (then `USERPROFILE` on Windows), absolute.
pub fn home_from_env() -> Result<PathBuf, HomeError> {
    let value = std::env::var_os("HOME");
    #[cfg(windows)]
    let value = value.or_else(|| std::env::var_os("USERPROFILE"));
    let home = PathBuf::from(value.ok_or(HomeError::NotSet)?);
    if home.is_absolute() {
        Ok(home)
    } else {
        Err(HomeError::NotAbsolute(home))
    }
}

impl Scope {
    /// The project at `root`.
    pub fn project(root: impl Into<PathBuf>) -> Scope {
        Scope::Project { root: root.into() }
    }

    /// The user's scope for the home folder `home` (absolute), its lock in
    /// `config_home` (the value of `XDG_CONFIG_HOME`, used when absolute)
    /// or else in `<home>/.config`.
    pub fn user(home: &Path, config_home: Option<&OsStr>) -> Result<Scope, HomeError> {
        if !home.is_absolute() {
            return Err(HomeError::NotAbsolute(home.to_path_buf()));
        }
        let config = config_home
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .unwrap_or_else(|| home.join(".config"));
        Ok(Scope::User {
            home: home.to_path_buf(),
            lock: config.join("skb").join(FILE_NAME),
        })
    }

    /// The user's scope from the environment: `HOME` and `XDG_CONFIG_HOME`.
    pub fn user_from_env() -> Result<Scope, HomeError> {
        Scope::user(
            &home_from_env()?,
            std::env::var_os("XDG_CONFIG_HOME").as_deref(),
        )
    }

    /// The folder `installed` entries are relative to: the project's root,
    /// or the home folder.
    pub fn root(&self) -> &Path {
        match self {
            Scope::Project { root } => root,
            Scope::User { home, .. } => home,
        }
    }

    /// The lock file.
    pub fn lock_path(&self) -> PathBuf {
        match self {
            Scope::Project { root } => root.join(FILE_NAME),
            Scope::User { lock, .. } => lock.clone(),
        }
    }

    /// Whether this is the user's scope.
    pub fn is_user(&self) -> bool {
        matches!(self, Scope::User { .. })
    }

    /// The `/`-separated path below [`Scope::root`] of the entry
    /// `installed`, when the entry is of this scope (see [`Scope::check`]).
    pub fn below_root<'a>(&self, installed: &'a str) -> Option<&'a str> {
        let rel = match self {
            Scope::Project { .. } if installed.starts_with("~/") => return None,
            Scope::Project { .. } => installed,
            Scope::User { .. } => installed.strip_prefix("~/")?,
        };
        crate::path::is_normal(rel).then_some(rel)
    }

    /// The folder of the entry `installed`, when it is of this scope.
    pub fn folder(&self, installed: &str) -> Option<PathBuf> {
        self.below_root(installed).map(|rel| self.root().join(rel))
    }

    /// How the lock records the folder `rel` (`/`-separated, below
    /// [`Scope::root`]): `rel` in a project, `~/rel` in the user's scope.
    pub fn record(&self, rel: &str) -> String {
        match self {
            Scope::Project { .. } => rel.to_string(),
            Scope::User { .. } => format!("~/{rel}"),
        }
    }

    /// Whether the folders from [`Scope::root`] down to a client's skills
    /// folder may be symbolic links: in the user's scope only (a home's
    /// layout is the user's own); inside a project nothing is read through
    /// a link.
    pub fn follows_links_to_client_folders(&self) -> bool {
        self.is_user()
    }

    /// Whether `rel` (`/`-separated, below [`Scope::root`]) is a skill's
    /// folder in a skills folder: `<folder>/<name>` with `folder` one that
    /// [`Scope::holds_skills`].
    pub fn is_skill_folder(&self, rel: &str) -> bool {
        crate::path::is_normal(rel)
            && rel
                .rsplit_once('/')
                .is_some_and(|(parent, _)| self.holds_skills(parent))
    }

    /// Whether the folder `rel` (`/`-separated, below [`Scope::root`]) may
    /// hold installed skills: in a project, a client's skills folder or a
    /// folder named `skills` with no `.git` or `.skb` on the way; below the
    /// home folder, any folder.
    pub fn holds_skills(&self, rel: &str) -> bool {
        if !crate::path::is_normal(rel) {
            return false;
        }
        if self.is_user() {
            return true;
        }
        client_folders().contains(&rel)
            || (rel.rsplit('/').next() == Some("skills")
                && !rel.split('/').any(|c| c == ".git" || c == ".skb"))
    }

    /// Checks that every `installed` entry of `lock` is a skill folder of
    /// this scope and that no two skills share one.
    pub fn check(&self, lock: &Lock) -> Result<(), ScopeError> {
        let mut all: Vec<(&str, &str)> = Vec::new();
        for skill in &lock.skills {
            for installed in &skill.installed {
                let fail = |rule| ScopeError {
                    skill: skill.name.clone(),
                    installed: installed.clone(),
                    rule,
                };
                let rel = match (self, installed.strip_prefix("~/")) {
                    (Scope::Project { .. }, Some(_)) => return Err(fail(Rule::HomeInProject)),
                    (Scope::User { .. }, None) => return Err(fail(Rule::OutsideHome)),
                    (_, rel) => rel.unwrap_or(installed),
                };
                if !self.is_skill_folder(rel) {
                    return Err(fail(Rule::NotASkillFolder));
                }
                all.push((installed, &skill.name));
            }
        }
        all.sort_unstable();
        match all.windows(2).find(|w| w[0].0 == w[1].0) {
            Some(w) => Err(ScopeError {
                skill: w[1].1.to_string(),
                installed: w[1].0.to_string(),
                rule: Rule::SharedWith(w[0].1.to_string()),
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::tests::local;

    fn lock(entries: &[(&str, &[&str])]) -> Lock {
        let mut l = Lock::default();
        for (name, installed) in entries {
            l.insert(local(
                name,
                installed.iter().map(|s| (*s).to_string()).collect(),
                Vec::new(),
            ));
        }
        l
    }

    fn rule(scope: &Scope, entries: &[(&str, &[&str])]) -> Option<Rule> {
        scope.check(&lock(entries)).err().map(|e| e.rule)
    }

    #[test]
    fn a_project_lock_holds_skill_folders_in_client_folders_only() {
        let p = Scope::project("/p");
        assert_eq!(
            rule(&p, &[("a", &[".claude/skills/a", ".agents/skills/a"])]),
            None
        );
        assert_eq!(
            rule(&p, &[("a", &["~/.claude/skills/a"])]),
            Some(Rule::HomeInProject)
        );
        for good in ["tools/agent/skills/a", ".windsurf/skills/a", "skills/a"] {
            assert_eq!(rule(&p, &[("a", &[good])]), None, "{good}");
        }
        for bad in [
            ".git/hooks",
            "a",
            ".claude/skills",
            ".claude/skills/a/b",
            ".git/skills/hooks",
            "x/.git/skills/a",
            ".skb/skills/a",
            ".github/workflows",
            "src/skill/a",
        ] {
            assert_eq!(
                rule(&p, &[("a", &[bad])]),
                Some(Rule::NotASkillFolder),
                "{bad}"
            );
        }
        let e = p
            .check(&lock(&[("pdf", &["~/.claude/skills/pdf"])]))
            .expect_err("home in a project");
        assert!(
            e.to_string()
                .starts_with("skill `pdf`: `~/.claude/skills/pdf` is in the user's home"),
            "{e}"
        );
        assert_eq!(p.folder("~/.claude/skills/pdf"), None);
        assert_eq!(
            p.folder(".claude/skills/pdf"),
            Some(PathBuf::from("/p/.claude/skills/pdf"))
        );
    }

    #[test]
    fn the_users_lock_holds_folders_below_home_only() {
        let u = Scope::user(Path::new("/home/u"), None).expect("absolute");
        assert_eq!(rule(&u, &[("a", &["~/.claude/skills/a"])]), None);
        assert_eq!(
            rule(&u, &[("a", &[".claude/skills/a"])]),
            Some(Rule::OutsideHome)
        );
        assert_eq!(rule(&u, &[("a", &["~/a"])]), Some(Rule::NotASkillFolder));
        assert_eq!(
            u.folder("~/.claude/skills/a"),
            Some(PathBuf::from("/home/u/.claude/skills/a"))
        );
        assert_eq!(u.record(".claude/skills/a"), "~/.claude/skills/a");
    }

    #[test]
    fn two_skills_in_one_folder_are_refused() {
        let p = Scope::project("/p");
        assert_eq!(
            rule(
                &p,
                &[("a", &[".claude/skills/x"]), ("b", &[".claude/skills/x"])]
            ),
            Some(Rule::SharedWith("a".into()))
        );
    }

    #[test]
    fn the_users_lock_is_in_xdg_config_home_when_absolute() {
        let home = Path::new("/home/u");
        let at = |config: Option<&str>| {
            Scope::user(home, config.map(OsStr::new))
                .expect("absolute")
                .lock_path()
        };
        assert_eq!(at(None), PathBuf::from("/home/u/.config/skb/skb.lock"));
        assert_eq!(at(Some("/cfg")), PathBuf::from("/cfg/skb/skb.lock"));
        assert_eq!(
            at(Some("relative")),
            PathBuf::from("/home/u/.config/skb/skb.lock")
        );
        assert_eq!(at(Some("")), PathBuf::from("/home/u/.config/skb/skb.lock"));
        assert_eq!(
            Scope::user(Path::new("home"), None),
            Err(HomeError::NotAbsolute(PathBuf::from("home")))
        );
        assert_eq!(
            Scope::user(Path::new(""), None),
            Err(HomeError::NotAbsolute(PathBuf::new()))
        );
        assert_eq!(
            Scope::project("/p").lock_path(),
            PathBuf::from("/p/skb.lock")
        );
    }
}

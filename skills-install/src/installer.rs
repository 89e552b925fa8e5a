//! [`Installer`]: what every operation starts from (the project, the
//! trusted keys, how skills are validated, who is told of progress) and the
//! operations themselves, each in its own module.

use std::path::PathBuf;

use skills_supply::trust::{self, TrustStore};

use crate::error::{Error, ErrorKind, Result, Stage};
use crate::observe::Observer;
use crate::project::Project;
use crate::validate::Validation;

/// A project, its trust store and the options every operation shares.
pub struct Installer<'a> {
    /// The project (or the user's scope) changed.
    pub project: Project,
    /// The trusted keys and pins: the project's `skills-trust.json` merged
    /// with the user's.
    pub trust: TrustStore,
    /// How fetched skills are validated.
    pub validation: Validation,
    /// The folder relative source paths are read from.
    pub cwd: PathBuf,
    /// Told of progress, diagnostics and notes.
    pub observer: &'a dyn Observer,
    /// Fetch over plain-text transports (`http://`, `git://`, a registry
    /// over `http://`) from hosts other than this machine. Off: only a
    /// loopback host may be reached without TLS.
    pub allow_plain_text: bool,
    /// The commit cache git sources are fetched into and checked out
    /// from; `None` fetches each into a throwaway repository. Default:
    /// [`crate::git_cache_dir`].
    pub git_cache: Option<PathBuf>,
}

impl std::fmt::Debug for Installer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Installer")
            .field("project", &self.project)
            .field("validation", &self.validation)
            .field("cwd", &self.cwd)
            .finish_non_exhaustive()
    }
}

impl<'a> Installer<'a> {
    /// An installer for `project` with its trust store (the project's file
    /// and the user's, [`trust::user_file`]), the default validation, and
    /// the current folder for relative sources.
    pub fn new(project: Project, observer: &'a dyn Observer) -> Result<Installer<'a>> {
        let user = trust::user_file();
        let store = TrustStore::load(&project.root, user.as_deref())
            .map_err(|e| Error::new(Stage::Lock, ErrorKind::Refused, e.to_string()))?;
        let cwd = std::env::current_dir()
            .map_err(|e| Error::io(Stage::Resolve, std::path::Path::new("."), e))?;
        Ok(Installer {
            project,
            trust: store,
            validation: Validation::default(),
            cwd,
            observer,
            allow_plain_text: false,
            git_cache: crate::cache_dir::git_cache_dir(),
        })
    }
}

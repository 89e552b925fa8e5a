//! How git is run: the program, the time one call may take, the transports
//! allowed and what a checkout may fetch and write.

use std::path::PathBuf;
use std::time::Duration;

use super::GitLimits;

/// How git is run.
#[derive(Debug, Clone)]
pub struct GitOptions {
    /// The longest one call ([`resolve`](super::resolve), [`checkout`](super::checkout), [`fetch`](super::fetch)) may take,
    /// all its git runs together; the run in progress is killed then.
    pub timeout: Duration,
    /// The git program: a name looked up in `PATH`, or a path.
    pub git: PathBuf,
    /// Allows the plain-text transports (`http://`, `git://`) to hosts that
    /// are not loopback. Default `false`: plain text only to `127.0.0.0/8`,
    /// `[::1]` or `localhost`, as for HTTPS downloads.
    pub allow_plain_text: bool,
    /// What a checkout may fetch and write.
    pub limits: GitLimits,
    /// The commit cache: a folder holding a bare repository per source,
    /// which a checkout fetches into and checks out from, so that a commit
    /// already there is not fetched again (see [`checkout`](super::checkout)).
    /// Created readable by this user only; refused when it is a symbolic
    /// link, another user's or writable by others. Default `None`: each
    /// checkout fetches into a throwaway repository.
    pub cache: Option<PathBuf>,
}

impl Default for GitOptions {
    /// Five minutes, `git` from `PATH`, no plain text to other hosts than
    /// loopback, [`GitLimits::default`], no cache.
    fn default() -> Self {
        GitOptions {
            timeout: Duration::from_secs(300),
            git: PathBuf::from("git"),
            allow_plain_text: false,
            limits: GitLimits::default(),
            cache: None,
        }
    }
}

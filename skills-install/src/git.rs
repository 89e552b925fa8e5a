//! Git sources: the repository checked out at one commit (through
//! `skills_supply::git`, which runs the `git` program without prompts,
//! hooks or helpers) into a private temporary folder, pinned by that commit.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use skills_core::lock::Resolved;
use skills_supply::git::{self, GitError, GitOptions, GitSpec};

use crate::fetched::{FetchOptions, Fetched};
use crate::input::Inputs;
use crate::ioerr::invalid;

fn git_error(e: GitError) -> io::Error {
    let kind = match e {
        GitError::RefNotFound { .. }
        | GitError::CommitNotFound { .. }
        | GitError::SubpathNotFound { .. } => io::ErrorKind::NotFound,
        GitError::BadSpec { .. } => io::ErrorKind::InvalidInput,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, e.to_string())
}

/// The URL as the lock records it: any `user:password@` taken out.
pub(crate) fn without_credentials(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_once('/').map_or((rest, ""), |(a, p)| (a, p));
            let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            if path.is_empty() && !rest.contains('/') {
                format!("{scheme}://{host}")
            } else {
                format!("{scheme}://{host}/{path}")
            }
        }
        None => url.to_string(),
    }
}

/// Fetches the repository `text` names, at the ref it names (default
/// branch otherwise).
pub(crate) fn fetch(text: &str, fetch: &FetchOptions<'_>) -> io::Result<Fetched> {
    let spec = GitSpec::parse(text).map_err(git_error)?;
    let opts = options(fetch);
    let commit = git::resolve(&spec, &opts).map_err(git_error)?;
    checkout(&spec, &commit, &opts)
}

/// Fetches exactly `commit` of `url` (and `path` in it): what the lock pins.
pub(crate) fn fetch_pinned(
    url: &str,
    commit: &str,
    path: Option<&str>,
    fetch: &FetchOptions<'_>,
) -> io::Result<Fetched> {
    let spec = GitSpec {
        url: url.to_string(),
        reference: Some(commit.to_string()),
        subpath: path.map(String::from),
    };
    checkout(&spec, commit, &options(fetch))
}

/// git's options for this fetch.
fn options(fetch: &FetchOptions<'_>) -> GitOptions {
    GitOptions {
        allow_plain_text: fetch.allow_plain_text,
        ..GitOptions::default()
    }
}

fn checkout(spec: &GitSpec, commit: &str, opts: &GitOptions) -> io::Result<Fetched> {
    let tmp = tempfile::Builder::new().prefix("skills-git-").tempdir()?;
    let dest = tmp.path().join("checkout");
    git::checkout(&spec.url, commit, spec.subpath.as_deref(), &dest, opts).map_err(git_error)?;
    let root = git::subpath_dir(&dest, spec).map_err(git_error)?;
    if !root.is_dir() {
        return Err(invalid(format!("{spec}: not a folder")));
    }
    let url = without_credentials(&spec.url);
    let mut inputs = Inputs::default();
    inputs.add_temporary(tmp, root, Path::new(&url));
    Ok(Fetched {
        inputs,
        resolved: Resolved::Git {
            url: url.clone(),
            commit: commit.to_string(),
            path: spec.subpath.clone(),
        },
        per_skill: BTreeMap::new(),
        signer: None,
        per_skill_signer: BTreeMap::new(),
        pinned: None,
        // Fetched through git, even from `file://`: the trust store's rule.
        remote: true,
        locations: vec![spec.url.clone()],
        per_skill_locations: BTreeMap::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_stay_out_of_the_lock() {
        assert_eq!(
            without_credentials("https://user:tok@github.com/a/b.git"),
            "https://github.com/a/b.git"
        );
        assert_eq!(
            without_credentials("https://github.com/a/b.git"),
            "https://github.com/a/b.git"
        );
        assert_eq!(
            without_credentials("git@github.com:a/b.git"),
            "git@github.com:a/b.git"
        );
    }
}

//! Git sources: the repository checked out at one commit (through
//! `skills_supply::git`, which runs the `git` program without prompts,
//! hooks or helpers) into a private temporary folder, pinned by that commit,
//! and the signature of what was checked out (the signed tag the ref named,
//! else the commit), checked with the trust store's SSH and OpenPGP keys,
//! as the policy's signer ([`crate::policy`] decides whether that key may
//! sign this source).

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use skills_core::lock::{GitSigned, Resolved};
use skills_supply::git::{self, GitError, GitOptions, GitSignature, GitSpec, TagRef};
use skills_supply::trust::{Signer, TrustedKey};

use crate::fetched::{FetchOptions, Fetched, Signed};
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
    let resolved = git::resolve_ref(&spec, &opts).map_err(git_error)?;
    checkout(&spec, &resolved.commit, resolved.tag.as_ref(), &opts, fetch)
}

/// Fetches exactly `commit` of `url` (and `path` in it): what the lock pins.
/// With the `tag` the lock's signature was made through, that tag is read
/// again: while it still names `commit` its signature is checked; once it
/// has moved or is gone, the commit's alone is (and the lock's record no
/// longer matches).
pub(crate) fn fetch_pinned(
    url: &str,
    commit: &str,
    path: Option<&str>,
    tag: Option<&str>,
    fetch: &FetchOptions<'_>,
) -> io::Result<Fetched> {
    let opts = options(fetch);
    let tag = match tag {
        Some(name) => {
            let named = GitSpec {
                url: url.to_string(),
                reference: Some(format!("refs/tags/{name}")),
                subpath: None,
            };
            match git::resolve_ref(&named, &opts) {
                Ok(now) => now.tag.filter(|_| now.commit == commit),
                // A removed tag vouches for nothing: the commit's own
                // signature is checked, and the lock's record then differs.
                Err(GitError::RefNotFound { .. }) => None,
                Err(e) => return Err(git_error(e)),
            }
        }
        None => None,
    };
    let spec = GitSpec {
        url: url.to_string(),
        reference: Some(commit.to_string()),
        subpath: path.map(String::from),
    };
    checkout(&spec, commit, tag.as_ref(), &opts, fetch)
}

/// git's options for this fetch.
fn options(fetch: &FetchOptions<'_>) -> GitOptions {
    GitOptions {
        allow_plain_text: fetch.allow_plain_text,
        cache: fetch.git_cache.map(Path::to_path_buf),
        ..GitOptions::default()
    }
}

fn checkout(
    spec: &GitSpec,
    commit: &str,
    tag: Option<&TagRef>,
    opts: &GitOptions,
    fetch: &FetchOptions<'_>,
) -> io::Result<Fetched> {
    let mut tmp = tempfile::Builder::new();
    tmp.prefix("skills-git-");
    // Private (0700) wherever it is.
    let tmp = match fetch.scratch {
        Some(scratch) => tmp.tempdir_in(scratch)?,
        None => tmp.tempdir()?,
    };
    let dest = tmp.path().join("checkout");
    let keys: Vec<&TrustedKey> = fetch
        .trust
        .publishers()
        .into_iter()
        .flat_map(|p| &p.keys)
        .collect();
    let signature = git::checkout_signed(
        &spec.url,
        commit,
        tag,
        spec.subpath.as_deref(),
        &dest,
        opts,
        &keys,
    )
    .map_err(git_error)?;
    let root = git::subpath_dir(&dest, spec).map_err(git_error)?;
    if !root.is_dir() {
        return Err(invalid(format!("{spec}: not a folder")));
    }
    let url = without_credentials(&spec.url);
    let checkout = fetch.scratch.map(|_| root.clone());
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
        signer: signature.map(signed),
        per_skill_signer: BTreeMap::new(),
        pinned: None,
        // Fetched through git, even from `file://`: the trust store's rule.
        remote: true,
        locations: vec![spec.url.clone()],
        per_skill_locations: BTreeMap::new(),
        checkout,
    })
}

/// A git signature as the policy's signer: the commit is the release (what
/// a retired key may still verify), the signed tag's name its version (a
/// leading `v` left out when the rest is a version) and the signed time its
/// time. A key the store does not hold claims nothing.
fn signed(signature: GitSignature) -> Signed {
    let tag = signature.tag.as_ref();
    let version = tag.map(|t| {
        let bare = t.name.strip_prefix('v').unwrap_or(&t.name);
        if skills_core::pack::signature::is_version(bare) {
            bare.to_owned()
        } else {
            t.name.clone()
        }
    });
    let trusted = signature.trusted_key;
    Signed {
        signer: Signer {
            key_id: signature.key_id.clone(),
            digest: trusted.then(|| signature.commit.clone()),
            version: version.filter(|_| trusted),
            timestamp: signature.time.filter(|_| trusted),
            sigstore: None,
        },
        text: String::new(),
        git: Some(GitSigned {
            kind: signature.kind.as_str().to_owned(),
            commit: signature.commit,
            tag: tag.map(|t| t.name.clone()),
            tag_object: tag.map(|t| t.object.clone()),
        }),
    }
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

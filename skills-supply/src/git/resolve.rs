//! Which commit a ref names now, asked of the server with `git ls-remote`
//! (no clone): a branch before a tag of the same name (as `git clone
//! --branch` does), an annotated tag peeled to its commit, and a full
//! commit id taken as it is.

use std::ffi::OsStr;
use std::time::Instant;

use super::error::with_redirect_hint;
use super::run::{Head, RunError, Runner};
use super::{GitError, GitOptions, GitSpec, spec, transport};

/// ls-remote's output for the few patterns of one ref is small; a listing of
/// every branch and tag (for the "it has …" hint) may be long and is cut.
const LS_REMOTE_LIMIT: usize = 4 * 1024 * 1024;

/// How many branch and tag names a `RefNotFound` error lists.
const LISTED: usize = 8;

/// What a ref names now: the commit, and the tag it was read through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The commit (full id, lowercase).
    pub commit: String,
    /// The tag the ref named, when it named one.
    pub tag: Option<TagRef>,
}

/// A tag as the server lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagRef {
    /// Its name, without `refs/tags/`.
    pub name: String,
    /// The tag object's id for an annotated tag; `None` for a lightweight
    /// tag, which is a name for the commit and carries no signature.
    pub object: Option<String>,
}

pub(super) fn resolve(
    spec: &GitSpec,
    opts: &GitOptions,
    deadline: Instant,
) -> Result<String, GitError> {
    resolve_ref(spec, opts, deadline).map(|r| r.commit)
}

pub(super) fn resolve_ref(
    spec: &GitSpec,
    opts: &GitOptions,
    deadline: Instant,
) -> Result<Resolution, GitError> {
    spec::check_url(&spec.url).map_err(|reason| GitError::BadSpec {
        spec: spec.url.clone(),
        reason: reason.to_owned(),
    })?;
    let runner = Runner {
        opts,
        deadline,
        protocols: transport::protocols(&spec.url, opts.allow_plain_text)?,
    };
    let reference = spec.reference.as_deref().unwrap_or("HEAD");
    if let Some(commit) = full_commit_id(reference) {
        return Ok(Resolution { commit, tag: None });
    }
    spec::check_ref(reference).map_err(|reason| GitError::BadSpec {
        spec: spec.to_string(),
        reason: reason.to_owned(),
    })?;
    let candidates = candidates(reference);
    let mut patterns: Vec<String> = Vec::new();
    for name in &candidates {
        // An annotated tag is listed twice: the tag, then `<name>^{}`, its
        // commit.
        patterns.push(name.clone());
        patterns.push(format!("{name}^{{}}"));
    }
    let listing = ls_remote(spec, &runner, &patterns)?;
    for name in &candidates {
        let peeled = format!("{name}^{{}}");
        let found = listing
            .iter()
            .find(|(_, n)| *n == peeled)
            .or_else(|| listing.iter().find(|(_, n)| n == name));
        if let Some((id, _)) = found {
            let tag = name.strip_prefix("refs/tags/").map(|short| TagRef {
                name: short.to_owned(),
                // Listed peeled: the unpeeled line is the tag object.
                object: listing
                    .iter()
                    .any(|(_, n)| *n == peeled)
                    .then(|| listing.iter().find(|(_, n)| n == name))
                    .flatten()
                    .map(|(object, _)| object.clone()),
            });
            return Ok(Resolution {
                commit: id.clone(),
                tag,
            });
        }
    }
    Err(ref_not_found(spec, &runner, reference))
}

/// A 40- (SHA-1) or 64-digit (SHA-256) hex string, lowercased.
pub(super) fn full_commit_id(s: &str) -> Option<String> {
    ((s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| s.to_ascii_lowercase())
}

/// The full ref names `reference` may stand for, in order of preference.
fn candidates(reference: &str) -> Vec<String> {
    if reference == "HEAD" || reference.starts_with("refs/") {
        vec![reference.to_owned()]
    } else {
        vec![
            format!("refs/heads/{reference}"),
            format!("refs/tags/{reference}"),
        ]
    }
}

/// `git ls-remote -- <url> <patterns…>`, read into `(id, name)` pairs.
fn ls_remote(
    spec: &GitSpec,
    runner: &Runner<'_>,
    patterns: &[String],
) -> Result<Vec<(String, String)>, GitError> {
    let mut args: Vec<&OsStr> = vec!["ls-remote".as_ref(), "--".as_ref(), spec.url.as_ref()];
    args.extend(patterns.iter().map(|p| OsStr::new(p.as_str())));
    let head = Head::new(LS_REMOTE_LIMIT);
    let out = runner.run(&args, head, None).map_err(|e| match e {
        RunError::NotFound(program) => GitError::GitNotFound { program },
        RunError::Timeout => GitError::Timeout {
            url: spec.url.clone(),
            reference: spec.reference.clone(),
            step: "ls-remote",
            after: runner.opts.timeout,
        },
        RunError::Stopped(e) => e,
        RunError::Io(e) => GitError::Failed {
            url: spec.url.clone(),
            reference: spec.reference.clone(),
            step: "ls-remote",
            detail: e.to_string(),
        },
    })?;
    if !out.status.success() {
        return Err(GitError::Unreachable {
            url: spec.url.clone(),
            reference: spec.reference.clone(),
            detail: if out.stderr.is_empty() {
                format!("git {}", out.status)
            } else {
                with_redirect_hint(out.stderr)
            },
        });
    }
    Ok(parse_listing(&out.stdout.bytes, out.stdout.truncated))
}

/// `<id>\t<name>` lines; lines that are not (a server's oddity, or the last
/// line of a cut listing) are skipped.
fn parse_listing(stdout: &[u8], truncated: bool) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(stdout);
    let mut lines: Vec<&str> = text.lines().collect();
    if truncated {
        lines.pop();
    }
    lines
        .into_iter()
        .filter_map(|line| {
            let (id, name) = line.split_once('\t')?;
            Some((full_commit_id(id)?, name.to_owned()))
        })
        .collect()
}

/// The error for a ref the server does not have, with a few of the names
/// it does have (sorted: branches, then tags), when it lists them in time.
fn ref_not_found(spec: &GitSpec, runner: &Runner<'_>, reference: &str) -> GitError {
    let names = ls_remote(
        spec,
        runner,
        &["refs/heads/*".to_owned(), "refs/tags/*".to_owned()],
    )
    .map(|listing| {
        // ls-remote sorts by name: branches come before tags.
        listing
            .into_iter()
            .filter(|(_, name)| !name.ends_with("^{}"))
            .filter_map(|(_, name)| {
                let short = name
                    .strip_prefix("refs/heads/")
                    .or_else(|| name.strip_prefix("refs/tags/"))?;
                Some(short.to_owned())
            })
            .collect::<Vec<_>>()
    })
    .ok();
    let more = names.as_ref().map_or(0, |n| n.len().saturating_sub(LISTED));
    GitError::RefNotFound {
        url: spec.url.clone(),
        reference: reference.to_owned(),
        available: names.map(|n| n.into_iter().take(LISTED).collect()),
        more,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_ids() {
        let sha1 = "0123456789ABCDEF0123456789abcdef01234567";
        assert_eq!(full_commit_id(sha1), Some(sha1.to_ascii_lowercase()));
        assert_eq!(full_commit_id(&"a".repeat(64)), Some("a".repeat(64)));
        assert_eq!(full_commit_id(&"a".repeat(41)), None);
        assert_eq!(full_commit_id("abc1234"), None);
        assert_eq!(full_commit_id(&"g".repeat(40)), None);
    }

    #[test]
    fn listing_lines() {
        let a = "a".repeat(40);
        let b = "b".repeat(64);
        let out = format!(
            "{a}\tHEAD\n{b}\trefs/tags/v1^{{}}\nnot a line\nzz\trefs/x\n{a}\trefs/heads/cut"
        );
        assert_eq!(
            parse_listing(out.as_bytes(), false),
            vec![
                (a.clone(), "HEAD".to_owned()),
                (b.clone(), "refs/tags/v1^{}".to_owned()),
                (a.clone(), "refs/heads/cut".to_owned()),
            ]
        );
        assert_eq!(parse_listing(out.as_bytes(), true).len(), 2);
    }

    #[test]
    fn names_tried() {
        assert_eq!(candidates("HEAD"), ["HEAD"]);
        assert_eq!(candidates("refs/pull/1/head"), ["refs/pull/1/head"]);
        assert_eq!(candidates("v1"), ["refs/heads/v1", "refs/tags/v1"]);
    }
}

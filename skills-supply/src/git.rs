//! Skills from git repositories: a source such as `owner/repo`,
//! `owner/repo/skills/pdf@v1` or `https://host/r.git#v1:skills` read into a
//! [`GitSpec`], the commit its ref names now ([`resolve`], without cloning),
//! and the tree of exactly that commit written into a folder ([`checkout`];
//! [`fetch`] does both). The lock records the commit, so `install --frozen`
//! checks out the same tree even after the branch has moved.
//!
//! # Through the `git` program
//!
//! As Vercel's `npx skills` and `gh skill` do, this runs the `git` program
//! rather than linking libgit2 or gix: nothing more to build (libgit2 is a C
//! library with OpenSSL or a TLS backend; gix is hundreds of crates), and
//! the user's own git setup keeps working: credential helpers, SSH keys and
//! agents, `url.<base>.insteadOf`, proxies and CA settings, so a private
//! repository that `git clone` can read, `skb add` can read. A machine
//! without git gets [`GitError::GitNotFound`] naming what to install.
//!
//! # What a repository cannot make git do
//!
//! Every run (see `run.rs`):
//! - never prompts: `GIT_TERMINAL_PROMPT=0`, stdin closed (SSH may still ask
//!   on the terminal, as it does for `git clone`);
//! - runs no hook (`core.hooksPath=/dev/null`; the empty repository is made
//!   with no template), no fsmonitor, no submodule, no background `gc`;
//! - uses only the transports `file`, `https` and `ssh`, and `git` and
//!   `http` only for a source written with them whose host is loopback
//!   (unless [`GitOptions::allow_plain_text`]), whatever `insteadOf`
//!   rewrites it to (`GIT_ALLOW_PROTOCOL`, and `protocol.ext.allow=never`):
//!   no remote helper, and no plain text to another host; a plain-text
//!   source to another host is refused before git runs
//!   ([`GitError::Insecure`]);
//! - follows no redirect (`http.followRedirects=false`): the URL fetched
//!   is the URL given, so a pin on it means what it says;
//! - reads the user's global configuration (credentials) but not the system
//!   one (`GIT_CONFIG_NOSYSTEM=1`, except on Windows, where Git for Windows
//!   keeps its credential manager and CA bundle there), and no variable that
//!   points at another repository (`GIT_DIR`, `GIT_INDEX_FILE`, ... are
//!   removed: `skb` may run inside a git hook);
//! - converts no line endings (`core.autocrlf=false`, `core.eol=lf`) and
//!   refuses paths special on Windows or macOS on every system, so a commit
//!   checks out as the same bytes on every machine (a repository's own
//!   `.gitattributes` and filters the user has installed, such as Git LFS,
//!   still apply);
//! - is given every URL and ref after `--` where git takes one, and a source
//!   starting with `-` is refused before git sees it (option injection);
//! - keeps at most a bounded stdout (a tree's listing is read as it
//!   streams, and stopped at a limit) and the last 4 KiB of stderr (control
//!   characters removed, for the error message), and is killed when the
//!   call's [`GitOptions::timeout`] runs out (the whole call, not each read);
//! - checks every object it receives as `git fsck` would
//!   (`transfer.fsckObjects`), and never fetches an object it was not told
//!   to (`GIT_NO_LAZY_FETCH`, and no promisor in a repository's own
//!   configuration);
//! - fetches and writes within [`GitLimits`]: the fetch is measured while
//!   it arrives; the tree's sizes, file count and path lengths are read
//!   (`git ls-tree -r -l`) and checked before anything is checked out; what
//!   git writes is measured too, since a filter may write more than the
//!   tree records.
//!
//! Symbolic links are checked out as git writes them, pointing wherever the
//! repository says: the installer's validator decides what a link in a
//! skill may point to. [`subpath_dir`] refuses a subpath that leaves the
//! checkout through one.

mod cache;
mod checkout;
mod error;
mod limits;
mod options;
mod resolve;
mod run;
pub mod signature;
mod spec;
mod transport;
mod tree;

use std::path::Path;
use std::time::Instant;

pub use checkout::subpath_dir;
pub use error::GitError;
pub use limits::{GitLimit, GitLimits};
pub use options::GitOptions;
pub use resolve::{Resolution, TagRef};
pub use signature::{GitSignature, SignedTag};
pub use spec::GitSpec;

use crate::trust::TrustedKey;

/// The commit (40 hex digits, or 64 in a SHA-256 repository, lowercase)
/// that `spec.reference` names now, asked of the server with `git
/// ls-remote`; no clone. No ref is the default branch (`HEAD`); a name is
/// a branch, else a tag (annotated tags peeled to their commit); `refs/…`
/// is taken as it is; a full commit id is returned as it is (whether the
/// repository has it is [`checkout`]'s to find out).
pub fn resolve(spec: &GitSpec, opts: &GitOptions) -> Result<String, GitError> {
    resolve::resolve(spec, opts, Instant::now() + opts.timeout)
}

/// Writes the tree of `commit` from the repository at `url` into `dest`, an
/// empty folder (created if absent, in a parent that must exist; a link is
/// refused), with no `.git` left in it; with a `subpath`, only that folder
/// of the tree, at the same place under `dest` (`dest/<subpath>`; see
/// [`subpath_dir`]).
///
/// With [`GitOptions::cache`], a commit the cache holds is not fetched: its
/// objects there are hashed again (one that does not match its id gets the
/// cache's repository of that URL thrown away and the commit fetched
/// again), and its signature checked there as it would be on a fresh
/// fetch. Otherwise fetches that one commit (`--depth 1`; with a subpath,
/// its trees first and then only the subpath's files, where the server
/// allows filters); a server that refuses a commit by
/// id gets a fetch of all its branches and tags, then the commit must be
/// among them ([`GitError::CommitNotFound`]). The fetch is stopped when it
/// passes [`GitLimits::max_fetch_bytes`]. Before anything is written to
/// `dest`, the tree (or the subpath's part of it) is listed with its sizes
/// and checked against the other [`GitLimits`] ([`GitError::OverLimit`]),
/// and a subpath that is missing, or is a file or a link, is refused
/// ([`GitError::SubpathNotFound`]). Checks that the checked-out `HEAD` is
/// `commit`. On any error `dest` is left as it was: empty, or absent.
pub fn checkout(
    url: &str,
    commit: &str,
    subpath: Option<&str>,
    dest: &Path,
    opts: &GitOptions,
) -> Result<(), GitError> {
    checkout::checkout(
        url,
        commit,
        subpath,
        dest,
        opts,
        Instant::now() + opts.timeout,
        None,
    )
    .map(|_| ())
}

/// [`resolve`], saying also the tag the ref was read through (an annotated
/// tag's object id, for [`checkout_signed`]).
pub fn resolve_ref(spec: &GitSpec, opts: &GitOptions) -> Result<Resolution, GitError> {
    resolve::resolve_ref(spec, opts, Instant::now() + opts.timeout)
}

/// [`checkout`], and the signature of what was checked out, checked with
/// the SSH and OpenPGP keys of `keys` (see [`signature`]): `tag`'s when it
/// is an annotated, signed tag (fetched too, and bound to `commit`), else
/// the commit's; `None` when neither is signed. A signature that does not
/// hold is an error, and nothing is left in `dest`.
pub fn checkout_signed(
    url: &str,
    commit: &str,
    tag: Option<&TagRef>,
    subpath: Option<&str>,
    dest: &Path,
    opts: &GitOptions,
    keys: &[&TrustedKey],
) -> Result<Option<GitSignature>, GitError> {
    checkout::checkout(
        url,
        commit,
        subpath,
        dest,
        opts,
        Instant::now() + opts.timeout,
        Some(checkout::Verify { tag, keys }),
    )
}

/// [`resolve`] then [`checkout`] of the spec's subpath into `dest`, within
/// one timeout; returns the commit. The subpath's folder is
/// `dest/<subpath>`: see [`subpath_dir`].
pub fn fetch(spec: &GitSpec, dest: &Path, opts: &GitOptions) -> Result<String, GitError> {
    let deadline = Instant::now() + opts.timeout;
    let commit = resolve::resolve(spec, opts, deadline)?;
    checkout::checkout(
        &spec.url,
        &commit,
        spec.subpath.as_deref(),
        dest,
        opts,
        deadline,
        None,
    )?;
    Ok(commit)
}

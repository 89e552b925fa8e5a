//! The tree of one commit (or one folder of it) written into an empty
//! folder, with no `.git` left behind, after its listing was checked
//! against the limits; and the folder a subpath names in it.
//!
//! The objects come from a store (`cache.rs`): the commit cache, where a
//! commit already fetched is used once its objects hash to their ids again,
//! or a throwaway repository in `<dest>/.git`. A commit is fetched alone
//! (`--depth 1`), and without its blobs when only a subpath is wanted
//! (`--filter=blob:none`, where the server allows filters: one that does
//! not sends them all, as a plain shallow fetch would); the subpath's files
//! are then listed, counted against the limits, and the blobs of those the
//! store lacks fetched by id. The tree is written from the store through an
//! index of the checkout's own, so the store is only ever read and added
//! to.

use std::cell::Cell;
use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::cache::Store;
use super::error::with_redirect_hint;
use super::resolve::TagRef;
use super::resolve::full_commit_id;
use super::run::{Head, Output, RunError, Runner, Stdout, Watch};
use super::signature::{self, GitSignature, TAG_REF};
use super::tree::{Listing, Missing, Problem};
use super::{GitError, GitLimit, GitOptions, GitSpec, spec, transport};
use crate::trust::TrustedKey;

/// What a checkout checks the signature of, and with which keys.
#[derive(Clone, Copy)]
pub(super) struct Verify<'a> {
    /// The tag the ref was resolved through, if any.
    pub(super) tag: Option<&'a TagRef>,
    /// The trust store's keys (its SSH and OpenPGP ones are used).
    pub(super) keys: &'a [&'a TrustedKey],
}

/// Output kept from commands whose stdout is one line or nothing.
const SMALL_OUTPUT: usize = 64 * 1024;

pub(super) fn checkout(
    url: &str,
    commit: &str,
    subpath: Option<&str>,
    dest: &Path,
    opts: &GitOptions,
    deadline: Instant,
    verify: Option<Verify<'_>>,
) -> Result<Option<GitSignature>, GitError> {
    spec::check_url(url).map_err(|reason| GitError::BadSpec {
        spec: url.to_owned(),
        reason: reason.to_owned(),
    })?;
    let protocols = transport::protocols(url, opts.allow_plain_text)?;
    let Some(commit) = full_commit_id(commit) else {
        return Err(GitError::BadSpec {
            spec: format!("{url}#{commit}"),
            reason: "a commit must be 40 or 64 hex digits".to_owned(),
        });
    };
    let subpath = match subpath.map(spec::normalize_subpath) {
        None => None,
        Some(Ok(normal)) => normal,
        Some(Err(reason)) => {
            return Err(GitError::BadSpec {
                spec: format!("{url}#{commit}:{}", subpath.unwrap_or_default()),
                reason: reason.to_owned(),
            });
        }
    };
    if let Some(tag) = verify.and_then(|v| v.tag) {
        spec::check_ref(&tag.name).map_err(|reason| GitError::BadSpec {
            spec: format!("{url}#{}", tag.name),
            reason: reason.to_owned(),
        })?;
    }
    let created = prepare_dest(dest)?;
    let store = match &opts.cache {
        Some(root) => Store::cached(root, url, commit.len() == 64, deadline),
        None => Ok(Store::temporary(dest.join(".git"))),
    };
    let checked_out = store.and_then(|store| {
        Git {
            url,
            commit: &commit,
            subpath: subpath.as_deref(),
            dest,
            runner: Runner {
                opts,
                deadline,
                protocols,
            },
            verify,
            store: &store,
            fetch_base: Cell::new(None),
        }
        .checkout()
    });
    match checked_out {
        Ok(signed) => Ok(signed),
        Err(e) => {
            // Leave the folder as it was found: empty, or absent. A failure
            // here would hide the first error, which matters more.
            let _ = empty_dir(dest);
            if created {
                let _ = fs::remove_dir(dest);
            }
            Err(e)
        }
    }
}

/// The folder `spec.subpath` names under `root` (a checkout), refused when
/// it is missing, not a folder, or reaches outside `root` through a
/// symbolic link.
pub fn subpath_dir(root: &Path, spec: &GitSpec) -> Result<PathBuf, GitError> {
    let Some(subpath) = spec.subpath.as_deref() else {
        return Ok(root.to_path_buf());
    };
    let missing = |reason| GitError::SubpathNotFound {
        url: spec.url.clone(),
        reference: spec.reference.clone(),
        subpath: subpath.to_owned(),
        reason,
    };
    // `parse` refuses these; a `GitSpec` built by hand is checked here too.
    if subpath
        .split('/')
        .any(|c| c.is_empty() || c == "." || c == ".." || c.contains(['\\', ':']))
    {
        return Err(missing("is not a relative path within"));
    }
    let io_err = |path: &Path, source| GitError::Io {
        path: path.to_path_buf(),
        source,
    };
    let real_root = fs::canonicalize(root).map_err(|e| io_err(root, e))?;
    // Component by component, so a link out of the tree is named as such
    // even when what lies beyond it does not exist.
    let mut dir = root.to_path_buf();
    for component in subpath.split('/') {
        dir.push(component);
        let real = match fs::canonicalize(&dir) {
            Ok(real) => real,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let broken_link = fs::symlink_metadata(&dir).is_ok();
                return Err(missing(if broken_link {
                    "is a broken symbolic link in"
                } else {
                    "is not in the repository"
                }));
            }
            Err(e) => return Err(io_err(&dir, e)),
        };
        if !real.starts_with(&real_root) {
            return Err(missing("leaves the repository through a symbolic link in"));
        }
        if !real.is_dir() {
            return Err(missing("is a file, not a folder, in"));
        }
    }
    Ok(dir)
}

/// Creates `dest` if absent (returns whether it did); refuses a `dest`
/// that is not an empty folder.
fn prepare_dest(dest: &Path) -> Result<bool, GitError> {
    let refuse = |reason: &str| GitError::Dest {
        path: dest.to_path_buf(),
        reason: reason.to_owned(),
    };
    match fs::symlink_metadata(dest) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir(dest).map_err(|source| GitError::Io {
                path: dest.to_path_buf(),
                source,
            })?;
            Ok(true)
        }
        Err(source) => Err(GitError::Io {
            path: dest.to_path_buf(),
            source,
        }),
        Ok(meta) if !meta.is_dir() => Err(refuse("it is not a folder")),
        Ok(_) => {
            let mut entries = fs::read_dir(dest).map_err(|source| GitError::Io {
                path: dest.to_path_buf(),
                source,
            })?;
            match entries.next() {
                None => Ok(false),
                Some(_) => Err(refuse("it is not empty")),
            }
        }
    }
}

/// Removes everything in `dir`, keeping `dir`.
fn empty_dir(dir: &Path) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            fs::remove_dir_all(entry.path())?;
        } else {
            fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// The bytes of the files under `dir` (links not followed), leaving out
/// its top-level entry `skip`: what git has written so far. Entries that
/// vanish while git renames them are not counted.
fn disk_bytes(dir: &Path, skip: Option<&OsStr>) -> u64 {
    let mut total = 0u64;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            if folder == dir && skip.is_some_and(|skip| entry.file_name() == skip) {
                continue;
            }
            match entry.metadata() {
                Ok(meta) if meta.is_dir() => stack.push(entry.path()),
                Ok(meta) => total = total.saturating_add(meta.len()),
                Err(_) => {}
            }
        }
    }
    total
}

/// How many blob ids one `git fetch` asks for (on its command line, so
/// about 41 KiB of arguments).
const BLOB_BATCH: usize = 1000;

/// Whether an error ends the checkout even when it came from the cache
/// (anything else there is a repository to throw away and fetch again).
fn is_final(e: &GitError) -> bool {
    matches!(
        e,
        GitError::Timeout { .. } | GitError::GitNotFound { .. } | GitError::OverLimit { .. }
    )
}

/// One checkout in progress.
struct Git<'a> {
    url: &'a str,
    commit: &'a str,
    /// The folder of the tree to check out; `None` for all of it.
    subpath: Option<&'a str>,
    dest: &'a Path,
    runner: Runner<'a>,
    verify: Option<Verify<'a>>,
    /// Where the objects are fetched to and read from.
    store: &'a Store,
    /// The store's size when its first fetch of this checkout began: what a
    /// fetch adds to it is what [`GitLimits::max_fetch_bytes`] bounds.
    fetch_base: Cell<Option<u64>>,
}

impl Git<'_> {
    /// `<dest>/.git`: the index of the checkout, and the throwaway store
    /// when there is no cache; removed at the end.
    fn work_dir(&self) -> PathBuf {
        self.dest.join(".git")
    }

    fn checkout(&self) -> Result<Option<GitSignature>, GitError> {
        let work = self.work_dir();
        if self.store.cached {
            fs::create_dir(&work).map_err(|source| GitError::Io {
                path: work.clone(),
                source,
            })?;
        }
        // A commit in the cache is used once every object of it there has
        // hashed to its id again; a cache that fails that (or whose
        // missing blobs cannot be added to it) is thrown away and the
        // commit fetched again.
        let mut from_cache = false;
        if self.store.cached && self.store.exists() && self.has_commit()? {
            match self
                .blobs_to_fetch(true)
                .and_then(|missing| self.fetch_blobs(&missing))
            {
                Ok(()) => from_cache = true,
                Err(e) if is_final(&e) => return Err(e),
                Err(_) => Store::remove(&self.store.git_dir)?,
            }
        }
        if !from_cache {
            self.init_store()?;
            // A cache may hold another commit fetched without its blobs (a
            // subpath's checkout): the server, told we have that commit,
            // leaves out every object it shares with this one, so a fetch
            // of a whole tree can lack blobs too. Only a new, empty store
            // is sure to have all of an unfiltered fetch.
            if self.fetch_commit()? || self.store.cached {
                let missing = self.blobs_to_fetch(false)?;
                self.fetch_blobs(&missing)?;
            }
        }
        self.check_tree()?;
        let signed = match self.verify {
            Some(verify) => {
                let tag = verify
                    .tag
                    .and_then(|t| Some((t.name.as_str(), t.object.as_deref()?)));
                if let Some((name, _)) = tag {
                    self.fetch_tag(name)?;
                }
                signature::examine(
                    &self.runner,
                    &self.store.git_dir,
                    self.url,
                    self.commit,
                    tag,
                    verify.keys,
                )?
            }
            None => None,
        };
        // The index of exactly what was listed, every path checked as a
        // checkout checks it (`.git`, and names special on Windows or macOS,
        // are refused), with nothing written to the work tree yet.
        let tree = match self.subpath {
            Some(subpath) => format!("{}:{subpath}", self.commit),
            None => self.commit.to_owned(),
        };
        let mut read_tree = vec!["read-tree".to_owned()];
        read_tree.extend(self.subpath.map(|subpath| format!("--prefix={subpath}/")));
        read_tree.push(tree);
        let read_tree: Vec<&str> = read_tree.iter().map(String::as_str).collect();
        self.ok("read-tree", &self.in_repo(&read_tree))?;
        self.write_index()?;
        fs::remove_dir_all(&work).map_err(|source| GitError::Io { path: work, source })?;
        Ok(signed)
    }

    /// Whether the store holds the commit.
    fn has_commit(&self) -> Result<bool, GitError> {
        let object = format!("{}^{{commit}}", self.commit);
        let check = self.in_repo(&["cat-file", "-e", &object]);
        let out = self.run("cat-file", &check, Head::new(SMALL_OUTPUT), None)?;
        Ok(out.status.success())
    }

    /// Creates the store's bare repository, unless it is there: the cache's
    /// made aside and renamed into place.
    fn init_store(&self) -> Result<(), GitError> {
        if self.store.cached && self.store.exists() {
            return Ok(());
        }
        let made = if self.store.cached {
            self.store.staging_dir()
        } else {
            self.store.git_dir.clone()
        };
        Store::remove(&made)?;
        let mut init: Vec<OsString> = vec![
            "init".into(),
            "--bare".into(),
            "--quiet".into(),
            "--template=".into(),
        ];
        if self.commit.len() == 64 {
            init.push("--object-format=sha256".into());
        }
        init.extend(["--".into(), made.as_os_str().to_owned()]);
        self.ok("init", &init)?;
        if made != self.store.git_dir {
            fs::rename(&made, &self.store.git_dir).map_err(|source| GitError::Io {
                path: self.store.git_dir.clone(),
                source,
            })?;
        }
        Ok(())
    }

    /// Fetches the commit with its trees, and with its blobs unless only a
    /// subpath is wanted and the server filters (then the subpath's blobs
    /// are fetched next, by id). Returns whether blobs were filtered out.
    fn fetch_commit(&self) -> Result<bool, GitError> {
        let filtered = self.subpath.is_some();
        if let Err(first) = self.fetch_by_id(filtered) {
            // Objects git's checks refuse are refused, whatever else the
            // server would send.
            let refused =
                matches!(&first, GitError::Failed { detail, .. } if detail.contains("fsck"));
            if is_final(&first) || refused {
                return Err(first);
            }
            self.fetch_all(filtered)?;
        }
        Ok(filtered)
    }

    /// The blobs of the tree (or the subpath's part) the store does not
    /// hold; with `verify`, every object of the commit the store holds is
    /// hashed again (`rev-list --verify-objects`), and one that does not
    /// hash to its id is an error. A subpath's files are listed and
    /// counted against the limits first.
    fn blobs_to_fetch(&self, verify: bool) -> Result<Vec<String>, GitError> {
        let wanted = match self.subpath {
            Some(_) => Some(self.list_blobs()?),
            None => None,
        };
        let mut args = vec![
            "rev-list",
            "--objects",
            "--missing=print",
            "--no-object-names",
        ];
        if verify {
            args.push("--verify-objects");
        }
        args.extend([self.commit, "--"]);
        let reader = Missing::new(wanted, self.runner.opts.limits.max_files);
        let mut out = self.run("rev-list", &self.in_repo(&args), reader, None)?;
        if let Some(problem) = out.stdout.problem.take() {
            return Err(match problem {
                Problem::Over(limit, detail) => self.over(limit, detail),
                Problem::Malformed(detail) => self.failed("rev-list", detail),
            });
        }
        if out.status.success() {
            Ok(out.stdout.found)
        } else {
            Err(self.failed("rev-list", self.detail(&out)))
        }
    }

    /// The blob ids of the subpath's files, listed without their sizes (a
    /// blob not fetched yet has none) and checked against the limits on
    /// files, path lengths and depth.
    fn list_blobs(&self) -> Result<HashSet<String>, GitError> {
        let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", self.commit];
        if let Some(subpath) = self.subpath {
            args.extend(["--", subpath]);
        }
        let listing = Listing::ids(self.runner.opts.limits, self.subpath);
        let mut out = self.run("ls-tree", &self.literal(&args), listing, None)?;
        out.stdout.finish();
        match out.stdout.problem.take() {
            Some(Problem::Over(limit, detail)) => Err(self.over(limit, detail)),
            Some(Problem::Malformed(detail)) => Err(self.failed("ls-tree", detail)),
            None if out.status.success() => Ok(std::mem::take(&mut out.stdout.blobs)),
            None => Err(self.failed("ls-tree", self.detail(&out))),
        }
    }

    /// Fetches `ids` (blobs) by id, a batch at a time; a server that will
    /// not send objects by id gets the commit fetched again with every
    /// blob.
    fn fetch_blobs(&self, ids: &[String]) -> Result<(), GitError> {
        for batch in ids.chunks(BLOB_BATCH) {
            let mut args = vec![
                "fetch",
                "--quiet",
                "--no-tags",
                "--recurse-submodules=no",
                "--filter=blob:none",
                "--",
                "origin",
            ];
            args.extend(batch.iter().map(String::as_str));
            let out = self.fetch(&self.in_repo(&args))?;
            if !out.status.success() {
                let args = self.in_repo(&[
                    "fetch",
                    "--quiet",
                    "--no-tags",
                    "--recurse-submodules=no",
                    "--refetch",
                    "--depth=1",
                    "--",
                    "origin",
                    self.commit,
                ]);
                let out = self.fetch(&args)?;
                return if out.status.success() {
                    Ok(())
                } else {
                    Err(self.failed("fetch", self.detail(&out)))
                };
            }
        }
        Ok(())
    }

    /// The annotated tag `name`, fetched to [`TAG_REF`] for its signature.
    fn fetch_tag(&self, name: &str) -> Result<(), GitError> {
        let refspec = format!("+refs/tags/{name}:{TAG_REF}");
        let args = self.in_repo(&[
            "fetch",
            "--quiet",
            "--no-tags",
            "--recurse-submodules=no",
            "--depth=1",
            "--",
            "origin",
            &refspec,
        ]);
        let out = self.fetch(&args)?;
        if out.status.success() {
            Ok(())
        } else {
            Err(self.failed("fetch", self.detail(&out)))
        }
    }

    /// `fetch --depth 1 <url> <commit>`: what servers that allow asking for
    /// a commit by id (protocol v2, GitHub, GitLab) answer with one commit;
    /// `filtered`, without its blobs where the server filters (one that
    /// does not sends them, and says so).
    fn fetch_by_id(&self, filtered: bool) -> Result<(), GitError> {
        let mut args = vec![
            "fetch",
            "--quiet",
            "--no-tags",
            "--recurse-submodules=no",
            "--depth=1",
        ];
        if filtered {
            args.push("--filter=blob:none");
        }
        args.extend(["--", "origin", self.commit]);
        let out = self.fetch(&self.in_repo(&args))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(self.failed("fetch", self.detail(&out)))
        }
    }

    /// Every branch and tag, for servers that refuse a commit by id
    /// (protocol v0 without `uploadpack.allowReachableSHA1InWant`, dumb
    /// HTTP); then the commit must be among what came.
    fn fetch_all(&self, filtered: bool) -> Result<(), GitError> {
        let mut args = vec!["fetch", "--quiet", "--no-tags", "--recurse-submodules=no"];
        if filtered {
            args.push("--filter=blob:none");
        }
        args.extend([
            "--",
            "origin",
            "+refs/heads/*:refs/skb/heads/*",
            "+refs/tags/*:refs/skb/tags/*",
        ]);
        let out = self.fetch(&self.in_repo(&args))?;
        if !out.status.success() {
            return Err(GitError::Unreachable {
                url: self.url.to_owned(),
                reference: Some(self.commit.to_owned()),
                detail: with_redirect_hint(self.detail(&out)),
            });
        }
        if self.has_commit()? {
            Ok(())
        } else {
            Err(GitError::CommitNotFound {
                url: self.url.to_owned(),
                commit: self.commit.to_owned(),
            })
        }
    }

    /// Runs a fetch into the store, stopped when what this checkout's
    /// fetches added to it passes [`GitLimits::max_fetch_bytes`]
    /// (super::GitLimits). The URL is the remote `origin`, given on the
    /// command line (a credential in it is never written to a file), and a
    /// promisor (blobs a filtered fetch left out may come later, always by
    /// an explicit fetch); every object received is checked as `git fsck`
    /// checks it. What a stopped or failed fetch left half-written in the
    /// cache is removed.
    fn fetch(&self, args: &[OsString]) -> Result<Output<Head>, GitError> {
        let git_dir = &self.store.git_dir;
        let base = match self.fetch_base.get() {
            Some(base) => base,
            None => {
                let base = disk_bytes(git_dir, None);
                self.fetch_base.set(Some(base));
                base
            }
        };
        let limit = self.runner.opts.limits.max_fetch_bytes;
        let mut watch = || {
            if disk_bytes(git_dir, None).saturating_sub(base) > limit {
                Err(self.over(
                    GitLimit::FetchBytes,
                    format!("what git fetched passed {limit} bytes"),
                ))
            } else {
                Ok(())
            }
        };
        let mut all: Vec<OsString> = Vec::with_capacity(args.len() + 8);
        for setting in [
            format!("remote.origin.url={}", self.url),
            "remote.origin.promisor=true".to_owned(),
            "transfer.fsckObjects=true".to_owned(),
        ] {
            all.push("-c".into());
            all.push(setting.into());
        }
        all.extend(args.iter().cloned());
        let out = self.run("fetch", &all, Head::new(SMALL_OUTPUT), Some(&mut watch));
        if self.store.cached && !out.as_ref().is_ok_and(|o| o.status.success()) {
            remove_half_fetched(git_dir);
        }
        out
    }

    /// Lists the tree of the commit (or the subpath's part) with the sizes
    /// git records, as it streams, against the limits. Nothing is written
    /// to the work tree.
    fn check_tree(&self) -> Result<(), GitError> {
        let mut args = vec!["ls-tree", "-r", "-l", "-z", "--full-tree", self.commit];
        if let Some(subpath) = self.subpath {
            args.extend(["--", subpath]);
        }
        let listing = Listing::new(self.runner.opts.limits, self.subpath);
        let mut out = self.run("ls-tree", &self.literal(&args), listing, None)?;
        out.stdout.finish();
        match out.stdout.problem.take() {
            Some(Problem::Over(limit, detail)) => return Err(self.over(limit, detail)),
            Some(Problem::Malformed(detail)) if out.status.success() => {
                return Err(self.failed("ls-tree", detail));
            }
            _ => {}
        }
        if !out.status.success() {
            return Err(self.failed("ls-tree", self.detail(&out)));
        }
        if let Some(subpath) = self.subpath {
            let reason = match (out.stdout.files, out.stdout.subpath_mode.as_deref()) {
                (0, _) => Some("is not in the repository"),
                (_, Some("120000")) => Some("is a symbolic link, not a folder, in"),
                (_, Some(_)) => Some("is a file, not a folder, in"),
                (_, None) => None,
            };
            if let Some(reason) = reason {
                return Err(GitError::SubpathNotFound {
                    url: self.url.to_owned(),
                    reference: Some(self.commit.to_owned()),
                    subpath: subpath.to_owned(),
                    reason,
                });
            }
        }
        Ok(())
    }

    /// Writes the files of the index (`checkout-index --all`), stopped when
    /// what git writes passes [`GitLimits::max_total_bytes`]
    /// (super::GitLimits): a filter may write more than the tree records.
    fn write_index(&self) -> Result<(), GitError> {
        let limit = self.runner.opts.limits.max_total_bytes;
        let mut watch = || {
            if disk_bytes(self.dest, Some(OsStr::new(".git"))) > limit {
                Err(self.over(
                    GitLimit::TotalBytes,
                    format!(
                        "the files git wrote add up to more than {limit} bytes, more than \
                         the tree records (a filter, such as Git LFS, wrote them)"
                    ),
                ))
            } else {
                Ok(())
            }
        };
        let args = self.in_repo(&["checkout-index", "--all", "--quiet"]);
        let out = self.run(
            "checkout-index",
            &args,
            Head::new(SMALL_OUTPUT),
            Some(&mut watch),
        )?;
        if out.status.success() {
            Ok(())
        } else {
            Err(self.failed("checkout-index", self.detail(&out)))
        }
    }

    /// `--git-dir=<store> --work-tree=<dest> <args…>`: no discovery, so
    /// no other repository is ever touched.
    fn in_repo(&self, args: &[&str]) -> Vec<OsString> {
        let mut git_dir = OsString::from("--git-dir=");
        git_dir.push(&self.store.git_dir);
        let mut work_tree = OsString::from("--work-tree=");
        work_tree.push(self.dest);
        let mut all = vec![git_dir, work_tree];
        all.extend(args.iter().map(OsString::from));
        all
    }

    /// [`Git::in_repo`] with paths taken literally (`--literal-pathspecs`):
    /// a subpath is a path, never a pattern.
    fn literal(&self, args: &[&str]) -> Vec<OsString> {
        let mut all = self.in_repo(&["--literal-pathspecs"]);
        all.extend(args.iter().map(OsString::from));
        all
    }

    /// Runs `args` with the checkout's index (`<dest>/.git/skb-index`, not
    /// the store's) and no lazy fetch of a missing object (git 2.44 and
    /// later; older ones never fetch one either, as the store's own
    /// configuration names no promisor), mapping a start failure, a timeout
    /// or a stop to its error.
    fn run<S: Stdout>(
        &self,
        step: &'static str,
        args: &[OsString],
        stdout: S,
        watch: Option<Watch<'_>>,
    ) -> Result<Output<S>, GitError> {
        let args: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        let index = self.work_dir().join("skb-index");
        let env = [
            ("GIT_INDEX_FILE", index.as_os_str()),
            ("GIT_NO_LAZY_FETCH", OsStr::new("1")),
        ];
        self.runner
            .run_env(&args, stdout, watch, &env)
            .map_err(|e| match e {
                RunError::NotFound(program) => GitError::GitNotFound { program },
                RunError::Timeout => GitError::Timeout {
                    url: self.url.to_owned(),
                    reference: Some(self.commit.to_owned()),
                    step,
                    after: self.runner.opts.timeout,
                },
                RunError::Stopped(e) => e,
                RunError::Io(e) => self.failed(step, e.to_string()),
            })
    }

    /// Runs `args`; a non-zero exit is `GitError::Failed` with git's words.
    fn ok(&self, step: &'static str, args: &[OsString]) -> Result<Output<Head>, GitError> {
        let out = self.run(step, args, Head::new(SMALL_OUTPUT), None)?;
        if out.status.success() {
            Ok(out)
        } else {
            Err(self.failed(step, self.detail(&out)))
        }
    }

    /// git's words for a failed run, or its exit status.
    fn detail<S>(&self, out: &Output<S>) -> String {
        if out.stderr.is_empty() {
            format!("git {}", out.status)
        } else {
            out.stderr.clone()
        }
    }

    fn failed(&self, step: &'static str, detail: String) -> GitError {
        GitError::Failed {
            url: self.url.to_owned(),
            reference: Some(self.commit.to_owned()),
            step,
            detail,
        }
    }

    fn over(&self, limit: GitLimit, detail: String) -> GitError {
        GitError::OverLimit {
            url: self.url.to_owned(),
            commit: self.commit.to_owned(),
            limit,
            detail,
        }
    }
}

/// Removes the temporary packs a stopped or failed fetch left in the
/// store (`objects/pack/tmp_*`); git's own `gc`, which would, never runs.
fn remove_half_fetched(git_dir: &Path) {
    let packs = git_dir.join("objects").join("pack");
    let Ok(entries) = fs::read_dir(&packs) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with("tmp_") {
            let _ = fs::remove_file(entry.path());
        }
    }
}

//! The tree of one commit (or one folder of it) written into an empty
//! folder, with no `.git` left behind, after its listing was checked
//! against the limits; and the folder a subpath names in it.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::error::with_redirect_hint;
use super::resolve::TagRef;
use super::resolve::full_commit_id;
use super::run::{Head, Output, RunError, Runner, Stdout, Watch};
use super::signature::{self, GitSignature, TAG_REF};
use super::tree::{Listing, Problem};
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
    let git = Git {
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
    };
    match git.checkout() {
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

/// One checkout in progress.
struct Git<'a> {
    url: &'a str,
    commit: &'a str,
    /// The folder of the tree to check out; `None` for all of it.
    subpath: Option<&'a str>,
    dest: &'a Path,
    runner: Runner<'a>,
    verify: Option<Verify<'a>>,
}

impl Git<'_> {
    fn checkout(&self) -> Result<Option<GitSignature>, GitError> {
        let git_dir = self.dest.join(".git");
        let mut init: Vec<OsString> = vec!["init".into(), "--quiet".into(), "--template=".into()];
        if self.commit.len() == 64 {
            init.push("--object-format=sha256".into());
        }
        init.extend(["--".into(), self.dest.as_os_str().to_owned()]);
        self.ok("init", &init)?;
        if let Err(first) = self.fetch_by_id() {
            if matches!(
                first,
                GitError::Timeout { .. }
                    | GitError::GitNotFound { .. }
                    | GitError::OverLimit { .. }
            ) {
                return Err(first);
            }
            self.fetch_all()?;
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
                    &git_dir,
                    self.url,
                    self.commit,
                    tag,
                    verify.keys,
                )?
            }
            None => None,
        };
        self.ok(
            "update-ref",
            &self.in_repo(&["update-ref", "--no-deref", "HEAD", self.commit]),
        )?;
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
        let head = self.ok(
            "rev-parse",
            &self.in_repo(&["rev-parse", "--verify", "HEAD"]),
        )?;
        let head = String::from_utf8_lossy(&head.stdout.bytes);
        if head.trim() != self.commit {
            return Err(self.failed(
                "rev-parse",
                format!("HEAD is `{}` after the checkout", head.trim()),
            ));
        }
        fs::remove_dir_all(&git_dir).map_err(|source| GitError::Io {
            path: git_dir,
            source,
        })?;
        Ok(signed)
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
            self.url,
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
    /// a commit by id (protocol v2, GitHub, GitLab) answer with one commit.
    fn fetch_by_id(&self) -> Result<(), GitError> {
        let args = self.in_repo(&[
            "fetch",
            "--quiet",
            "--no-tags",
            "--recurse-submodules=no",
            "--depth=1",
            "--",
            self.url,
            self.commit,
        ]);
        let out = self.fetch(&args)?;
        if out.status.success() {
            Ok(())
        } else {
            Err(self.failed("fetch", self.detail(&out)))
        }
    }

    /// Every branch and tag, for servers that refuse a commit by id
    /// (protocol v0 without `uploadpack.allowReachableSHA1InWant`, dumb
    /// HTTP); then the commit must be among what came.
    fn fetch_all(&self) -> Result<(), GitError> {
        let args = self.in_repo(&[
            "fetch",
            "--quiet",
            "--no-tags",
            "--recurse-submodules=no",
            "--",
            self.url,
            "+refs/heads/*:refs/skb/heads/*",
            "+refs/tags/*:refs/skb/tags/*",
        ]);
        let out = self.fetch(&args)?;
        if !out.status.success() {
            return Err(GitError::Unreachable {
                url: self.url.to_owned(),
                reference: Some(self.commit.to_owned()),
                detail: with_redirect_hint(self.detail(&out)),
            });
        }
        let object = format!("{}^{{commit}}", self.commit);
        let check = self.in_repo(&["cat-file", "-e", &object]);
        let out = self.run("cat-file", &check, Head::new(SMALL_OUTPUT), None)?;
        if out.status.success() {
            Ok(())
        } else {
            Err(GitError::CommitNotFound {
                url: self.url.to_owned(),
                commit: self.commit.to_owned(),
            })
        }
    }

    /// Runs a fetch, stopped when what it wrote under `.git` passes
    /// [`GitLimits::max_fetch_bytes`](super::GitLimits).
    fn fetch(&self, args: &[OsString]) -> Result<Output<Head>, GitError> {
        let git_dir = self.dest.join(".git");
        let limit = self.runner.opts.limits.max_fetch_bytes;
        let mut watch = || {
            if disk_bytes(&git_dir, None) > limit {
                Err(self.over(
                    GitLimit::FetchBytes,
                    format!("what git fetched passed {limit} bytes"),
                ))
            } else {
                Ok(())
            }
        };
        self.run("fetch", args, Head::new(SMALL_OUTPUT), Some(&mut watch))
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

    /// `--git-dir=<dest>/.git --work-tree=<dest> <args…>`: no discovery, so
    /// no other repository is ever touched.
    fn in_repo(&self, args: &[&str]) -> Vec<OsString> {
        let mut git_dir = OsString::from("--git-dir=");
        git_dir.push(self.dest.join(".git"));
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

    /// Runs `args`, mapping a start failure, a timeout or a stop to its
    /// error.
    fn run<S: Stdout>(
        &self,
        step: &'static str,
        args: &[OsString],
        stdout: S,
        watch: Option<Watch<'_>>,
    ) -> Result<Output<S>, GitError> {
        let args: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        self.runner.run(&args, stdout, watch).map_err(|e| match e {
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

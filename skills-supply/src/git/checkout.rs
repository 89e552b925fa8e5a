//! The tree of one commit written into an empty folder, with no `.git`
//! left behind, and the folder a subpath names in it.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::resolve::full_commit_id;
use super::run::{self, Output, RunError};
use super::{GitError, GitOptions, GitSpec, spec};

/// Output kept from commands whose stdout is one line or nothing.
const SMALL_OUTPUT: usize = 64 * 1024;

pub(super) fn checkout(
    url: &str,
    commit: &str,
    dest: &Path,
    opts: &GitOptions,
    deadline: Instant,
) -> Result<(), GitError> {
    spec::check_url(url).map_err(|reason| GitError::BadSpec {
        spec: url.to_owned(),
        reason: reason.to_owned(),
    })?;
    let Some(commit) = full_commit_id(commit) else {
        return Err(GitError::BadSpec {
            spec: format!("{url}#{commit}"),
            reason: "a commit must be 40 or 64 hex digits".to_owned(),
        });
    };
    let created = prepare_dest(dest)?;
    let git = Git {
        url,
        commit: &commit,
        dest,
        opts,
        deadline,
    };
    match git.checkout() {
        Ok(()) => Ok(()),
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

/// One checkout in progress.
struct Git<'a> {
    url: &'a str,
    commit: &'a str,
    dest: &'a Path,
    opts: &'a GitOptions,
    deadline: Instant,
}

impl Git<'_> {
    fn checkout(&self) -> Result<(), GitError> {
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
                GitError::Timeout { .. } | GitError::GitNotFound { .. }
            ) {
                return Err(first);
            }
            self.fetch_all()?;
        }
        self.ok(
            "checkout",
            &self.in_repo(&["checkout", "--quiet", "--detach", self.commit, "--"]),
        )?;
        let head = self.ok(
            "rev-parse",
            &self.in_repo(&["rev-parse", "--verify", "HEAD"]),
        )?;
        let head = String::from_utf8_lossy(&head.stdout);
        if head.trim() != self.commit {
            return Err(self.failed(
                "rev-parse",
                format!("HEAD is `{}` after the checkout", head.trim()),
            ));
        }
        fs::remove_dir_all(&git_dir).map_err(|source| GitError::Io {
            path: git_dir,
            source,
        })
    }

    /// `fetch --depth 1 <url> <commit>`: what servers that allow asking for
    /// a commit by id (protocol v2, GitHub, GitLab) answer with one commit.
    fn fetch_by_id(&self) -> Result<Output, GitError> {
        self.ok(
            "fetch",
            &self.in_repo(&[
                "fetch",
                "--quiet",
                "--no-tags",
                "--recurse-submodules=no",
                "--depth=1",
                "--",
                self.url,
                self.commit,
            ]),
        )
    }

    /// Every branch and tag, for servers that refuse a commit by id
    /// (protocol v0 without `uploadpack.allowReachableSHA1InWant`, dumb
    /// HTTP); then the commit must be among what came.
    fn fetch_all(&self) -> Result<(), GitError> {
        let fetched = self.in_repo(&[
            "fetch",
            "--quiet",
            "--no-tags",
            "--recurse-submodules=no",
            "--",
            self.url,
            "+refs/heads/*:refs/skb/heads/*",
            "+refs/tags/*:refs/skb/tags/*",
        ]);
        match self.ok("fetch", &fetched) {
            Ok(_) => {}
            Err(GitError::Failed { detail, .. }) => {
                return Err(GitError::Unreachable {
                    url: self.url.to_owned(),
                    reference: Some(self.commit.to_owned()),
                    detail,
                });
            }
            Err(e) => return Err(e),
        }
        let object = format!("{}^{{commit}}", self.commit);
        let check = self.in_repo(&["cat-file", "-e", &object]);
        let out = self.run("cat-file", &check)?;
        if out.status.success() {
            Ok(())
        } else {
            Err(GitError::CommitNotFound {
                url: self.url.to_owned(),
                commit: self.commit.to_owned(),
            })
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

    /// Runs `args`, mapping a start failure or a timeout to its error.
    fn run(&self, step: &'static str, args: &[OsString]) -> Result<Output, GitError> {
        let args: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        run::run(self.opts, &args, self.deadline, SMALL_OUTPUT).map_err(|e| match e {
            RunError::NotFound(program) => GitError::GitNotFound { program },
            RunError::Timeout => GitError::Timeout {
                url: self.url.to_owned(),
                reference: Some(self.commit.to_owned()),
                step,
                after: self.opts.timeout,
            },
            RunError::Io(e) => self.failed(step, e.to_string()),
        })
    }

    /// Runs `args`; a non-zero exit is `GitError::Failed` with git's words.
    fn ok(&self, step: &'static str, args: &[OsString]) -> Result<Output, GitError> {
        let out = self.run(step, args)?;
        if out.status.success() {
            Ok(out)
        } else {
            let detail = if out.stderr.is_empty() {
                format!("git {}", out.status)
            } else {
                out.stderr.clone()
            };
            Err(self.failed(step, detail))
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
}

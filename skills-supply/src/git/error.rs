//! What can go wrong fetching from a git repository, each error naming the
//! repository (with any password in its URL masked) and the ref or commit.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

use super::GitLimit;

/// Why a git source could not be parsed, resolved or checked out.
#[derive(Debug)]
#[non_exhaustive]
pub enum GitError {
    /// The source is not one this module accepts (`reason` says why).
    BadSpec {
        /// The source as written.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The `git` program could not be started.
    GitNotFound {
        /// The program looked for ([`GitOptions::git`](super::GitOptions)).
        program: PathBuf,
    },
    /// git could not read the repository: it does not exist, the host is
    /// unreachable, or the credentials were refused.
    Unreachable {
        /// The repository's URL.
        url: String,
        /// The ref or commit asked for, if any.
        reference: Option<String>,
        /// The end of git's own message.
        detail: String,
    },
    /// The repository has no branch or tag of that name.
    RefNotFound {
        /// The repository's URL.
        url: String,
        /// The ref asked for (`HEAD` for the default branch).
        reference: String,
        /// A few of the branches and tags it does have (branches first, each
        /// sorted), or `None` when listing them failed.
        available: Option<Vec<String>>,
        /// How many more it has.
        more: usize,
    },
    /// The repository does not hold that commit (any more).
    CommitNotFound {
        /// The repository's URL.
        url: String,
        /// The commit asked for.
        commit: String,
    },
    /// A git run took longer than [`GitOptions::timeout`](super::GitOptions)
    /// allowed and was stopped.
    Timeout {
        /// The repository's URL.
        url: String,
        /// The ref or commit asked for, if any.
        reference: Option<String>,
        /// The git command that was stopped (`ls-remote`, `fetch`, ...).
        step: &'static str,
        /// The time allowed.
        after: Duration,
    },
    /// git failed in a way none of the above describes.
    Failed {
        /// The repository's URL.
        url: String,
        /// The ref or commit asked for, if any.
        reference: Option<String>,
        /// The git command that failed.
        step: &'static str,
        /// The end of git's own message, or what was wrong with its output.
        detail: String,
    },
    /// The subpath is not a folder of the checked-out tree.
    SubpathNotFound {
        /// The repository's URL.
        url: String,
        /// The ref asked for, if any.
        reference: Option<String>,
        /// The subpath, `/`-separated.
        subpath: String,
        /// Why (`is not in the repository`, ...).
        reason: &'static str,
    },
    /// The destination folder cannot receive a checkout.
    Dest {
        /// The destination.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A plain-text transport (`http://`, `git://`) to a host that is not
    /// loopback, without [`GitOptions::allow_plain_text`](super::GitOptions);
    /// git was not run.
    Insecure {
        /// The repository's URL.
        url: String,
    },
    /// The repository is over one of the [`GitLimits`](super::GitLimits):
    /// its tree (read before anything is written to the destination), what
    /// git fetched, or what it wrote. The destination is left as it was.
    OverLimit {
        /// The repository's URL.
        url: String,
        /// The commit.
        commit: String,
        /// Which limit.
        limit: GitLimit,
        /// What is over it, with the figures.
        detail: String,
    },
    /// A program git needs to check a signature (`ssh-keygen`, `gpg`) is
    /// not in `PATH`.
    ProgramNotFound {
        /// The program.
        program: &'static str,
        /// The Debian package that has it.
        package: &'static str,
    },
    /// A signature on what was fetched does not hold, or cannot be checked
    /// (see `signature.rs`); nothing was installed.
    Signature {
        /// The repository's URL (empty for the trust store's own keys).
        url: String,
        /// What was signed (`commit <id>`).
        object: String,
        /// Why.
        detail: String,
    },
    /// The commit cache ([`GitOptions::cache`](super::GitOptions)) cannot
    /// be used: its folder is a link, another user's or writable by others,
    /// or another process held its lock too long.
    Cache {
        /// The folder or file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A local file operation failed.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitError::BadSpec { spec, reason } => {
                write!(f, "`{}` is not a git source: {reason}", redact_url(spec))
            }
            GitError::GitNotFound { program } => write!(
                f,
                "the git program `{}` was not found: install git \
                 (`apt-get install git`, `brew install git`, https://git-scm.com)",
                program.display()
            ),
            GitError::Unreachable {
                url,
                reference,
                detail,
            } => {
                write!(f, "cannot read the git repository `{}`", redact_url(url))?;
                write_at(f, reference.as_deref())?;
                write_detail(f, detail)
            }
            GitError::RefNotFound {
                url,
                reference,
                available,
                more,
            } => {
                let url = redact_url(url);
                if reference == "HEAD" {
                    write!(f, "`{url}` has no default branch (HEAD)")?;
                } else {
                    write!(f, "`{url}` has no branch or tag `{reference}`")?;
                }
                match available.as_deref() {
                    None => {}
                    Some([]) => f.write_str("; it has no branches or tags")?,
                    Some(names) => {
                        f.write_str("; it has ")?;
                        for (i, name) in names.iter().enumerate() {
                            let sep = if i == 0 { "" } else { ", " };
                            write!(f, "{sep}`{name}`")?;
                        }
                        if *more > 0 {
                            write!(f, " and {more} more")?;
                        }
                    }
                }
                if is_short_hex(reference) {
                    f.write_str(" (a commit id must be given in full)")?;
                }
                Ok(())
            }
            GitError::CommitNotFound { url, commit } => write!(
                f,
                "commit `{commit}` is not in `{}` (not reachable from its branches and tags)",
                redact_url(url)
            ),
            GitError::Timeout {
                url,
                reference,
                step,
                after,
            } => {
                write!(f, "`git {step}` of `{}`", redact_url(url))?;
                write_at(f, reference.as_deref())?;
                write!(
                    f,
                    " did not finish within {}s and was stopped",
                    after.as_secs_f64()
                )
            }
            GitError::Failed {
                url,
                reference,
                step,
                detail,
            } => {
                write!(f, "`git {step}` failed for `{}`", redact_url(url))?;
                write_at(f, reference.as_deref())?;
                write_detail(f, detail)
            }
            GitError::SubpathNotFound {
                url,
                reference,
                subpath,
                reason,
            } => {
                write!(f, "`{subpath}` {reason} `{}`", redact_url(url))?;
                write_at(f, reference.as_deref())
            }
            GitError::Dest { path, reason } => {
                write!(f, "cannot check out into `{}`: {reason}", path.display())
            }
            GitError::Io { path, source } => write!(f, "`{}`: {source}", path.display()),
            GitError::Cache { path, reason } => write!(
                f,
                "the git cache `{}` is not used: {reason}; fix or remove it, or pass \
                 `--no-cache` (or set `SKB_NO_CACHE=1`)",
                path.display()
            ),
            GitError::ProgramNotFound { program, package } => write!(
                f,
                "`{program}` was not found in PATH: it checks the signatures of git commits \
                 and tags; install it (`apt-get install {package}`)"
            ),
            GitError::Signature {
                url,
                object,
                detail,
            } if url.is_empty() => write!(f, "{object}: {detail}"),
            GitError::Signature {
                url,
                object,
                detail,
            } => write!(
                f,
                "the signature of `{}` at {object} does not hold: {detail}",
                redact_url(url)
            ),
            GitError::Insecure { url } => write!(
                f,
                "`{}` is plain-text git (`http://` or `git://`) to a host that is not \
                 loopback: refused; use `https://` or `ssh://` (plain text is allowed to \
                 loopback hosts, or when `GitOptions::allow_plain_text` says so)",
                redact_url(url)
            ),
            GitError::OverLimit {
                url,
                commit,
                limit,
                detail,
            } => write!(
                f,
                "`{}` at `{commit}`: {detail} ({limit}); nothing was checked out",
                redact_url(url)
            ),
        }
    }
}

impl std::error::Error for GitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GitError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

fn write_at(f: &mut fmt::Formatter<'_>, reference: Option<&str>) -> fmt::Result {
    match reference {
        Some(r) => write!(f, " at `{r}`"),
        None => Ok(()),
    }
}

/// git's words for a failed request, with what a redirect answer means:
/// git is told not to follow redirects (the URL fetched is the URL given),
/// and says only `The requested URL returned error: 302`.
pub(super) fn with_redirect_hint(detail: String) -> String {
    let redirected = ["301", "302", "303", "307", "308"]
        .iter()
        .any(|code| detail.contains(&format!("returned error: {code}")));
    if redirected {
        format!(
            "{detail} (the server redirects elsewhere; redirects are not followed, so that \
             what is fetched is what the source names: give the URL it redirects to)"
        )
    } else {
        detail
    }
}

fn write_detail(f: &mut fmt::Formatter<'_>, detail: &str) -> fmt::Result {
    if detail.is_empty() {
        Ok(())
    } else {
        write!(f, ": {detail}")
    }
}

/// 7 to 39 hex digits: what a user copies from `git log --oneline`.
fn is_short_hex(s: &str) -> bool {
    (7..40).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `url` with the password (or a lone token) of its userinfo replaced by
/// `***`, for messages: `https://user:secret@host/x` shows as
/// `https://user:***@host/x`, `https://ghp_x@host/x` as `https://***@host/x`.
/// `ssh://git@host/x` and scp-like `git@host:x` are left as they are.
pub(crate) fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_owned();
    };
    let rest = &url[scheme_end + 3..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let Some(at) = authority.rfind('@') else {
        return url.to_owned();
    };
    let userinfo = &authority[..at];
    let masked = match userinfo.split_once(':') {
        Some((user, _)) => format!("{user}:***"),
        None if userinfo == "git" => return url.to_owned(),
        None => "***".to_owned(),
    };
    format!(
        "{}{masked}{}",
        &url[..scheme_end + 3],
        &rest[at..] // from the `@` on
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_passwords_and_tokens() {
        assert_eq!(
            redact_url("https://me:s3cret@example.com/r.git"),
            "https://me:***@example.com/r.git"
        );
        assert_eq!(
            redact_url("https://ghp_abc@github.com/o/r.git"),
            "https://***@github.com/o/r.git"
        );
        assert_eq!(
            redact_url("ssh://git@example.com/r.git"),
            "ssh://git@example.com/r.git"
        );
        assert_eq!(
            redact_url("git@github.com:o/r.git"),
            "git@github.com:o/r.git"
        );
        assert_eq!(
            redact_url("https://example.com/a@b/r.git"),
            "https://example.com/a@b/r.git"
        );
    }

    #[test]
    fn ref_not_found_lists_what_exists() {
        let e = GitError::RefNotFound {
            url: "https://example.com/r.git".into(),
            reference: "v9".into(),
            available: Some(vec!["main".into(), "v1".into()]),
            more: 3,
        };
        assert_eq!(
            e.to_string(),
            "`https://example.com/r.git` has no branch or tag `v9`; it has `main`, `v1` and 3 more"
        );
        let e = GitError::RefNotFound {
            url: "u".into(),
            reference: "abc1234".into(),
            available: None,
            more: 0,
        };
        assert!(
            e.to_string()
                .ends_with("(a commit id must be given in full)")
        );
    }
}

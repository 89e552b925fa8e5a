//! What a SOURCE argument names: a path on this machine, a download, a
//! well-known index, a git repository or an OCI artifact.
//!
//! The rules, in order: `oci://` is a registry; an `http(s)://` URL whose
//! path ends in `.skillpack`, `.skill`, `.zip` or `SKILL.md` is a download;
//! then what `skills_supply::git` calls git is git (`ssh://`, `git://`,
//! `file://`, `git@host:path`, a URL on a known forge or ending in `.git`,
//! and GitHub's `owner/repo[/path][#ref]`); any other `http(s)://` URL is a
//! well-known index (a site, or its `index.json`); the rest is a path.
//!
//! A text that is both (a folder `acme/skills` in the working folder, and
//! GitHub's `acme/skills`) is refused as ambiguous rather than guessed: a
//! folder committed to a repository must not shadow the publisher the
//! user named, nor the other way round. `./acme/skills` names the folder,
//! `https://github.com/acme/skills` the repository.
//!
//! As in Vercel's `npx skills add owner/repo@skill`, an `@skill` after the
//! shorthand picks a skill (a ref is written `#ref`), so the commands
//! skills.sh prints work as they are.

use std::path::{Path, PathBuf};

use skills_supply::git::GitSpec;

/// A classified SOURCE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A folder, a `SKILL.md`, a pack or a zip on this machine.
    Path(PathBuf),
    /// A pack, zip or `SKILL.md` over HTTP(S), with its optional pin
    /// (`#sha256=<hex>`).
    Url {
        /// The URL, without the pin.
        url: String,
        /// The SHA-256 the bytes must have, hex.
        sha256: Option<String>,
    },
    /// A well-known index, or the site serving one.
    Index(String),
    /// A git repository.
    Git {
        /// The repository, ref and subpath, as `skills_supply::git` reads them.
        spec: String,
        /// The skill an `@skill` suffix picks.
        skill: Option<String>,
    },
    /// An OCI artifact.
    Oci(String),
}

/// A source text that names both a folder here and a git repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ambiguous {
    /// The text.
    pub text: String,
}

impl std::fmt::Display for Ambiguous {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{0}` is both a folder here and GitHub's `{0}`: write `./{0}` for the folder or `https://github.com/{0}` for the repository",
            self.text
        )
    }
}

impl std::error::Error for Ambiguous {}

/// Classifies `text`; relative paths are relative to `cwd`.
pub fn classify(text: &str, cwd: &Path) -> Result<Source, Ambiguous> {
    if text.starts_with("oci://") {
        return Ok(Source::Oci(text.to_string()));
    }
    let http = text.starts_with("https://") || text.starts_with("http://");
    if http {
        let (without_pin, pin) = match text.split_once("#sha256=") {
            Some((u, h)) => (u, Some(h.to_ascii_lowercase())),
            None => (text, None),
        };
        let path = without_pin
            .split(['?', '#'])
            .next()
            .unwrap_or(without_pin)
            .to_ascii_lowercase();
        if [".skillpack", ".skill", ".zip", "/skill.md"]
            .iter()
            .any(|e| path.ends_with(e))
        {
            return Ok(Source::Url {
                url: without_pin.to_string(),
                sha256: pin,
            });
        }
    }
    let exists = |p: &str| std::fs::symlink_metadata(cwd.join(p)).is_ok();
    // `owner/repo@skill`: no scheme, not scp-like (`user@host:path`, its
    // `:` before any `/`).
    let scp_like = match (text.find(':'), text.find('/')) {
        (Some(colon), Some(slash)) => colon < slash,
        (Some(_), None) => true,
        _ => false,
    };
    let (spec, skill) = match text.rsplit_once('@') {
        Some((spec, skill))
            if !text.contains("://")
                && !scp_like
                && !skill.is_empty()
                && !skill.contains(['/', ':', '#']) =>
        {
            (spec, Some(skill.to_string()))
        }
        _ => (text, None),
    };
    let git = GitSpec::is_git_like(spec, &|_| false);
    if git && (exists(spec) || exists(text)) {
        return Err(Ambiguous {
            text: text.to_string(),
        });
    }
    if git {
        return Ok(Source::Git {
            spec: spec.to_string(),
            skill,
        });
    }
    if http {
        return Ok(Source::Index(text.to_string()));
    }
    Ok(Source::Path(PathBuf::from(text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Source {
        classify(s, Path::new("/nonexistent-skb-test")).expect("not ambiguous")
    }

    fn git(spec: &str, skill: Option<&str>) -> Source {
        Source::Git {
            spec: spec.into(),
            skill: skill.map(String::from),
        }
    }

    #[test]
    fn each_kind_of_source_is_told_apart() {
        assert_eq!(
            c("oci://127.0.0.1:5000/a/b:1"),
            Source::Oci("oci://127.0.0.1:5000/a/b:1".into())
        );
        assert_eq!(
            c("https://x.dev/p/pdf.skill#sha256=AB"),
            Source::Url {
                url: "https://x.dev/p/pdf.skill".into(),
                sha256: Some("ab".into())
            }
        );
        assert!(matches!(
            c("https://x.dev/pdf/SKILL.md"),
            Source::Url { sha256: None, .. }
        ));
        assert!(matches!(c("https://x.dev/a.skillpack"), Source::Url { .. }));
        assert_eq!(
            c("https://github.com/a/b"),
            git("https://github.com/a/b", None)
        );
        assert_eq!(
            c("https://git.x.dev/a/b.git"),
            git("https://git.x.dev/a/b.git", None)
        );
        assert_eq!(c("https://x.dev"), Source::Index("https://x.dev".into()));
        assert!(matches!(
            c("http://127.0.0.1:8000/.well-known/agent-skills/index.json"),
            Source::Index(_)
        ));
        assert_eq!(
            c("git@github.com:a/b.git"),
            git("git@github.com:a/b.git", None)
        );
        assert_eq!(c("file:///tmp/repo"), git("file:///tmp/repo", None));
        assert_eq!(c("acme/skills"), git("acme/skills", None));
        assert_eq!(c("acme/skills#v1"), git("acme/skills#v1", None));
        assert_eq!(c("acme/skills@pdf"), git("acme/skills", Some("pdf")));
        assert_eq!(
            c("acme/skills#v1:sub@pdf"),
            git("acme/skills#v1:sub", Some("pdf"))
        );
        assert_eq!(c("./acme/skills"), Source::Path("./acme/skills".into()));
        assert_eq!(c("skills"), Source::Path("skills".into()));
        assert_eq!(c("/abs/dir"), Source::Path("/abs/dir".into()));
    }

    #[test]
    fn a_folder_shadowing_the_shorthand_is_ambiguous() {
        let tmp = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(tmp.path().join("acme/skills")).expect("mkdir");
        for text in ["acme/skills", "acme/skills@pdf", "acme/skills#v1"] {
            std::fs::create_dir_all(tmp.path().join(text)).expect("mkdir");
            let e = classify(text, tmp.path()).expect_err(text);
            assert!(e.to_string().contains("./"), "{e}");
        }
        assert_eq!(
            classify("./acme/skills", tmp.path()),
            Ok(Source::Path("./acme/skills".into()))
        );
        assert!(matches!(
            classify("https://github.com/acme/skills", tmp.path()),
            Ok(Source::Git { .. })
        ));
    }
}

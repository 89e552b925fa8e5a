//! What a SOURCE argument names: a path on this machine, a download, a
//! well-known index, a git repository or an OCI artifact.
//!
//! The rules, in order: `oci://` is a registry; `http(s)://` is a download
//! when its path ends in `.skillpack`, `.skill`, `.zip` or `SKILL.md`, a git
//! repository on a known forge (`github.com`, `gitlab.com`, `codeberg.org`,
//! `bitbucket.org`) or when it ends in `.git`, else a well-known index (a
//! site, or an `index.json`); `git@`, `ssh://`, `git://` and `file://` are
//! git; then an existing path is a path, and so is anything starting with
//! `.`, `/` or `~`; what is left and reads `owner/repo[/path][@ref]` is
//! GitHub shorthand. A folder named like `owner/repo` that exists wins over
//! the shorthand (write `./owner/repo` to be explicit either way).

use std::path::{Path, PathBuf};

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
    /// A git repository (the text as given, parsed by the git module).
    Git(String),
    /// An OCI artifact.
    Oci(String),
}

const FORGES: [&str; 4] = ["github.com", "gitlab.com", "codeberg.org", "bitbucket.org"];

/// Classifies `text`; relative paths are relative to `cwd`.
pub fn classify(text: &str, cwd: &Path) -> Source {
    if text.starts_with("oci://") {
        return Source::Oci(text.to_string());
    }
    if let Some(rest) = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
    {
        let (without_pin, pin) = match text.split_once("#sha256=") {
            Some((u, h)) => (u, Some(h.to_ascii_lowercase())),
            None => (text, None),
        };
        let path = without_pin
            .split(['?', '#'])
            .next()
            .unwrap_or(without_pin)
            .to_ascii_lowercase();
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        if [".skillpack", ".skill", ".zip", "/skill.md"]
            .iter()
            .any(|e| path.ends_with(e))
        {
            return Source::Url {
                url: without_pin.to_string(),
                sha256: pin,
            };
        }
        if FORGES.contains(&host) || path.ends_with(".git") {
            return Source::Git(text.to_string());
        }
        return Source::Index(text.to_string());
    }
    if ["git@", "ssh://", "git://", "file://"]
        .iter()
        .any(|p| text.starts_with(p))
    {
        return Source::Git(text.to_string());
    }
    let path = cwd.join(text);
    if std::fs::symlink_metadata(&path).is_ok()
        || text.starts_with(['.', '/', '~'])
        || !is_shorthand(text)
    {
        return Source::Path(PathBuf::from(text));
    }
    Source::Git(text.to_string())
}

/// `owner/repo`, `owner/repo/sub/path`, each with an optional `@ref`.
fn is_shorthand(text: &str) -> bool {
    let repo = text.split_once('@').map_or(text, |(r, _)| r);
    let parts: Vec<&str> = repo.split('/').collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            !p.is_empty()
                && *p != "."
                && *p != ".."
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Source {
        classify(s, Path::new("/nonexistent-skb-test"))
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
            Source::Git("https://github.com/a/b".into())
        );
        assert_eq!(
            c("https://git.x.dev/a/b.git"),
            Source::Git("https://git.x.dev/a/b.git".into())
        );
        assert_eq!(c("https://x.dev"), Source::Index("https://x.dev".into()));
        assert!(matches!(
            c("http://127.0.0.1:8000/.well-known/agent-skills/index.json"),
            Source::Index(_)
        ));
        assert!(matches!(c("git@github.com:a/b.git"), Source::Git(_)));
        assert!(matches!(c("file:///tmp/repo"), Source::Git(_)));
        assert_eq!(c("acme/skills"), Source::Git("acme/skills".into()));
        assert_eq!(
            c("acme/skills/pdf@v1"),
            Source::Git("acme/skills/pdf@v1".into())
        );
        assert_eq!(c("./acme/skills"), Source::Path("./acme/skills".into()));
        assert_eq!(c("skills"), Source::Path("skills".into()));
        assert_eq!(c("a/../b"), Source::Path("a/../b".into()));
        assert_eq!(c("/abs/dir"), Source::Path("/abs/dir".into()));
    }

    #[test]
    fn an_existing_folder_wins_over_the_shorthand() {
        let tmp = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(tmp.path().join("acme/skills")).expect("mkdir");
        assert_eq!(
            classify("acme/skills", tmp.path()),
            Source::Path("acme/skills".into())
        );
    }
}

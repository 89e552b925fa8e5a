//! What a user writes to name a git source, read into a URL, an optional
//! ref and an optional subpath, refusing anything git would read as an
//! option or a command, and any subpath that could leave the checkout.

use std::fmt;

use super::GitError;
use super::error::redact_url;

/// A git source: the repository, the ref to resolve, and the folder in it.
///
/// Accepted forms (`GitSpec::parse`):
///
/// | written                                      | url                                   | ref   | subpath |
/// |----------------------------------------------|---------------------------------------|-------|---------|
/// | `owner/repo`                                 | `https://github.com/owner/repo.git`   |       |         |
/// | `owner/repo/skills/x@v1`                     | `https://github.com/owner/repo.git`   | `v1`  | `skills/x` |
/// | `owner/repo#v1:skills/x`                     | `https://github.com/owner/repo.git`   | `v1`  | `skills/x` |
/// | `https://github.com/o/r/tree/main/skills/x`  | `https://github.com/o/r.git`          | `main`| `skills/x` |
/// | `https://gitlab.com/g/p/-/tree/main/x`       | `https://gitlab.com/g/p.git`          | `main`| `x`     |
/// | `https://host/r.git#v1:x`, `ssh://…`, `git://…`, `file://…`, `git@host:o/r.git` | as written, fragment removed | after `#` | after `:` |
///
/// A ref is a branch or tag name, `refs/…`, or a full commit id; none means
/// the repository's default branch (`HEAD`). In a `/tree/<ref>/<path>` URL
/// the ref is the first segment: a branch with a `/` in its name needs the
/// `#ref:path` form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSpec {
    /// The repository, as git is given it.
    pub url: String,
    /// The branch, tag, `refs/…` name or full commit id; `None` for `HEAD`.
    pub reference: Option<String>,
    /// The folder in the repository, `/`-separated, normalised (no `.`,
    /// no empty or trailing components); `None` for the root.
    pub subpath: Option<String>,
}

/// URL schemes handed to git. Remote helpers (`ext::`, `fd::`, `<name>::`)
/// and any other scheme are refused.
const SCHEMES: &[&str] = &["https", "http", "ssh", "git", "file", "git+ssh", "ssh+git"];

/// Hosts whose https URLs are git repositories even without `.git`.
const GIT_HOSTS: &[&str] = &[
    "github.com",
    "www.github.com",
    "gitlab.com",
    "bitbucket.org",
    "codeberg.org",
];

/// The longest source, ref or subpath accepted, in bytes.
const MAX_LEN: usize = 4096;

impl GitSpec {
    /// Reads a git source written by a user (see the table on [`GitSpec`]).
    ///
    /// Refused, with the reason: control characters, a leading `-` (git
    /// would read it as an option), remote-helper syntax (`ext::…`),
    /// unknown schemes, a ref git would not accept as a name, and a subpath
    /// that is absolute or holds `..`, `\`, `:` or an empty component.
    pub fn parse(spec: &str) -> Result<GitSpec, GitError> {
        let bad = |reason: &str| GitError::BadSpec {
            spec: spec.to_owned(),
            reason: reason.to_owned(),
        };
        check_url(spec).map_err(bad)?;
        let (base, fragment) = match spec.split_once('#') {
            Some((base, fragment)) => (base, Some(fragment)),
            None => (spec, None),
        };
        let from_fragment = match fragment {
            Some(fragment) => Some(parse_fragment(fragment).map_err(bad)?),
            None => None,
        };
        let parsed = if let Some(scheme_end) = base.find("://") {
            parse_url(base, scheme_end)
        } else if is_scp_like(base) {
            parse_scp(base)
        } else {
            parse_shorthand(base)
        }
        .map_err(bad)?;
        let Some((reference, subpath)) = from_fragment else {
            return Ok(parsed);
        };
        if parsed.reference.is_some() || parsed.subpath.is_some() {
            return Err(bad(
                "it names a ref or folder twice (in the path and after `#`)",
            ));
        }
        Ok(GitSpec {
            url: parsed.url,
            reference,
            subpath,
        })
    }

    /// Whether `arg` names a git source rather than a local folder or a
    /// download: `exists` is asked whether `arg` is a path on the disk (an
    /// existing folder named `owner/repo` wins over the GitHub shorthand).
    ///
    /// `./x`, `../x`, `/abs`, `~/x`, `.`, `C:\x` are paths. `ssh://`,
    /// `git://`, `file://` URLs, `git@host:path` and the shorthand are git;
    /// an `http(s)` URL is git when its host is a known git host (GitHub,
    /// GitLab, Bitbucket, Codeberg), or its path ends in `.git` or holds
    /// `/-/tree/`; any other `http(s)` URL is left to the caller (a pack, a
    /// zip, a `SKILL.md`, a well-known index: a `#…` after it may be a
    /// digest pin, not a ref), which may still `parse` it as git when told.
    pub fn is_git_like(arg: &str, exists: &dyn Fn(&str) -> bool) -> bool {
        if looks_like_path(arg) || exists(arg) || GitSpec::parse(arg).is_err() {
            return false;
        }
        let Some(scheme_end) = arg.find("://") else {
            return true;
        };
        let scheme = arg[..scheme_end].to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return true;
        }
        let rest = &arg[scheme_end + 3..];
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let host = host_of(authority).to_ascii_lowercase();
        let path = path.split(['?', '#']).next().unwrap_or("");
        GIT_HOSTS.contains(&host.as_str())
            || path.trim_end_matches('/').ends_with(".git")
            || path.contains("/-/tree/")
    }
}

/// Written back in the `url#ref:subpath` form `parse` reads, with any
/// password in the URL masked (for messages; the fields hold the real URL).
impl fmt::Display for GitSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&redact_url(&self.url))?;
        match (&self.reference, &self.subpath) {
            (None, None) => Ok(()),
            (Some(r), None) => write!(f, "#{r}"),
            (r, Some(s)) => write!(f, "#{}:{s}", r.as_deref().unwrap_or("")),
        }
    }
}

/// What every URL handed to git must satisfy (also checked on URLs read
/// back from a lock): not empty, bounded, no control characters, no leading
/// `-`, no remote-helper `<transport>::<address>` syntax.
pub(crate) fn check_url(url: &str) -> Result<(), &'static str> {
    if url.is_empty() {
        return Err("it is empty");
    }
    if url.len() > MAX_LEN {
        return Err("it is longer than 4096 bytes");
    }
    if url.chars().any(char::is_control) {
        return Err("it holds a control character");
    }
    if url.starts_with('-') {
        return Err("it starts with `-`, which git would read as an option");
    }
    if let Some((transport, _)) = url.split_once("::")
        && !transport.is_empty()
        && transport
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'_'))
    {
        return Err("remote-helper syntax (`<transport>::<address>`) is not accepted");
    }
    // `ssh://-oProxyCommand=…/r`, `-oProxyCommand=…@host:r`: options to ssh.
    let authority = match url.find("://") {
        Some(i) => url[i + 3..].split('/').next().unwrap_or(""),
        None => url.split_once(':').map_or("", |(head, _)| head),
    };
    if authority.starts_with('-') || host_of(authority).starts_with('-') {
        return Err("its user or host starts with `-`, which ssh would read as an option");
    }
    Ok(())
}

fn parse_url(base: &str, scheme_end: usize) -> Result<GitSpec, &'static str> {
    let scheme = base[..scheme_end].to_ascii_lowercase();
    if !SCHEMES.contains(&scheme.as_str()) {
        return Err("the scheme is not one of https, http, ssh, git, file");
    }
    let rest = &base[scheme_end + 3..];
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    if authority.is_empty() && scheme != "file" {
        return Err("the URL has no host");
    }
    if path.trim_matches('/').is_empty() {
        return Err("the URL has no repository path");
    }
    if scheme == "https" || scheme == "http" {
        let host = host_of(authority).to_ascii_lowercase();
        if host == "github.com" || host == "www.github.com" {
            return parse_github_web(authority, path);
        }
        if let Some(web) = parse_gitlab_web(&scheme, authority, path)? {
            return Ok(web);
        }
    }
    Ok(GitSpec {
        url: base.to_owned(),
        reference: None,
        subpath: None,
    })
}

/// `https://github.com/o/r[.git][/tree/<ref>[/<path>]]`.
fn parse_github_web(authority: &str, path: &str) -> Result<GitSpec, &'static str> {
    let path = path.split('?').next().unwrap_or("");
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let [owner, repo, rest @ ..] = segments.as_slice() else {
        return Err("a GitHub URL needs an owner and a repository");
    };
    let userinfo = authority.rfind('@').map_or("", |at| &authority[..=at]);
    let url = github_url(userinfo, owner, repo)?;
    match rest {
        [] => Ok(GitSpec {
            url,
            reference: None,
            subpath: None,
        }),
        ["tree", reference, sub @ ..] => Ok(GitSpec {
            url,
            reference: Some(check_ref(reference)?.to_owned()),
            subpath: normalize_subpath(&sub.join("/"))?,
        }),
        ["blob", ..] => Err("it links to a file; give its folder (`/tree/<ref>/<folder>`)"),
        _ => Err("it is a GitHub page, not a repository or `/tree/` URL"),
    }
}

/// `https://host/group[/sub]/project/-/tree/<ref>[/<path>]` (any GitLab).
fn parse_gitlab_web(
    scheme: &str,
    authority: &str,
    path: &str,
) -> Result<Option<GitSpec>, &'static str> {
    if path.contains("/-/blob/") {
        return Err("it links to a file; give its folder (`/-/tree/<ref>/<folder>`)");
    }
    let Some((project, tail)) = path.split_once("/-/tree/") else {
        return Ok(None);
    };
    if project.trim_matches('/').is_empty() {
        return Err("the URL has no repository path");
    }
    let tail = tail.split('?').next().unwrap_or("");
    let (reference, sub) = tail.split_once('/').unwrap_or((tail, ""));
    let project = project.trim_end_matches('/');
    let dot_git = if project.ends_with(".git") {
        ""
    } else {
        ".git"
    };
    Ok(Some(GitSpec {
        url: format!("{scheme}://{authority}{project}{dot_git}"),
        reference: Some(check_ref(reference)?.to_owned()),
        subpath: normalize_subpath(sub)?,
    }))
}

/// `[user@]host:path`: a `:` before any `/`, and more than one letter
/// before it (`C:` is a Windows drive).
fn is_scp_like(base: &str) -> bool {
    match base.find(':') {
        Some(colon) => !base[..colon].contains('/') && colon > 1,
        None => false,
    }
}

fn parse_scp(base: &str) -> Result<GitSpec, &'static str> {
    let (host, path) = base.split_once(':').unwrap_or((base, ""));
    if host_of(host).is_empty() {
        return Err("the scp-like address has no host");
    }
    if path.trim_matches('/').is_empty() {
        return Err("the scp-like address has no repository path");
    }
    Ok(GitSpec {
        url: base.to_owned(),
        reference: None,
        subpath: None,
    })
}

/// `owner/repo[/sub/path][@ref]`, for GitHub.
fn parse_shorthand(base: &str) -> Result<GitSpec, &'static str> {
    let (path, reference) = match base.split_once('@') {
        Some((path, reference)) => (path, Some(check_ref(reference)?.to_owned())),
        None => (base, None),
    };
    let mut parts = path.splitn(3, '/');
    let owner = parts.next().unwrap_or("");
    let Some(repo) = parts.next() else {
        return Err("not a URL, an scp-like address, or GitHub's `owner/repo`");
    };
    Ok(GitSpec {
        url: github_url("", owner, repo)?,
        reference,
        subpath: normalize_subpath(parts.next().unwrap_or(""))?,
    })
}

fn github_url(userinfo: &str, owner: &str, repo: &str) -> Result<String, &'static str> {
    let name_ok = |s: &str| {
        !s.is_empty()
            && s.len() <= 100
            && !s.starts_with(['.', '-'])
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    };
    let repo = repo.strip_suffix(".git").unwrap_or(repo);
    if !name_ok(owner) {
        return Err("the GitHub owner must be letters, digits, `-`, `_` or `.`");
    }
    if !name_ok(repo) {
        return Err("the GitHub repository name must be letters, digits, `-`, `_` or `.`");
    }
    Ok(format!("https://{userinfo}github.com/{owner}/{repo}.git"))
}

/// `ref`, `ref:subpath` or `:subpath` (the default branch).
fn parse_fragment(fragment: &str) -> Result<(Option<String>, Option<String>), &'static str> {
    let (reference, subpath) = fragment.split_once(':').unwrap_or((fragment, ""));
    let subpath = normalize_subpath(subpath)?;
    if reference.is_empty() {
        return match subpath {
            Some(_) => Ok((None, subpath)),
            None => Err("nothing follows `#`"),
        };
    }
    Ok((Some(check_ref(reference)?.to_owned()), subpath))
}

/// The host of an authority `[user[:pass]@]host[:port]`.
fn host_of(authority: &str) -> &str {
    let host = authority
        .rfind('@')
        .map_or(authority, |at| &authority[at + 1..]);
    if host.starts_with('[') {
        // An IPv6 literal: `[::1]:9418`.
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    host.split(':').next().unwrap_or(host)
}

/// A ref git would accept as a name (the rules of `git check-ref-format`,
/// plus no leading `-`), or a full commit id.
pub(crate) fn check_ref(reference: &str) -> Result<&str, &'static str> {
    if reference.is_empty() {
        return Err("the ref is empty");
    }
    if reference.len() > 255 {
        return Err("the ref is longer than 255 bytes");
    }
    if reference.starts_with('-') {
        return Err("the ref starts with `-`, which git would read as an option");
    }
    if reference
        .chars()
        .any(|c| c.is_control() || c.is_whitespace() || "~^:?*[\\".contains(c))
    {
        return Err("the ref holds a space, a control character or one of ~ ^ : ? * [ \\");
    }
    if reference.contains("..") || reference.contains("@{") || reference == "@" {
        return Err("the ref holds `..` or `@{`, or is `@`");
    }
    if reference.starts_with('/')
        || reference.ends_with('/')
        || reference.ends_with('.')
        || reference.contains("//")
    {
        return Err("the ref starts or ends with `/`, ends with `.`, or holds `//`");
    }
    if reference
        .split('/')
        .any(|c| c.starts_with('.') || c.ends_with(".lock"))
    {
        return Err("a component of the ref starts with `.` or ends with `.lock`");
    }
    Ok(reference)
}

/// The subpath, `/`-separated and normalised (`a/b/` is `a/b`; empty is
/// `None`), or why it is refused.
pub(super) fn normalize_subpath(subpath: &str) -> Result<Option<String>, &'static str> {
    if subpath.len() > MAX_LEN {
        return Err("the subpath is longer than 4096 bytes");
    }
    if subpath.starts_with('/') {
        return Err("the subpath is absolute; give it relative to the repository's root");
    }
    if subpath
        .chars()
        .any(|c| c.is_control() || c == '\\' || c == ':')
    {
        return Err("the subpath holds a control character, `\\` or `:`");
    }
    let trimmed = subpath.strip_suffix('/').unwrap_or(subpath);
    if trimmed.is_empty() {
        return Ok(None);
    }
    for component in trimmed.split('/') {
        match component {
            "" => return Err("the subpath has an empty component (`//`)"),
            "." | ".." => return Err("the subpath holds `.` or `..`"),
            _ => {}
        }
    }
    Ok(Some(trimmed.to_owned()))
}

/// `./x`, `../x`, `/x`, `~/x`, `.`, `..`, `C:\x`, `C:/x`, `\\server\x`.
fn looks_like_path(arg: &str) -> bool {
    let b = arg.as_bytes();
    arg == "."
        || arg == ".."
        || arg.starts_with("./")
        || arg.starts_with("../")
        || arg.starts_with(".\\")
        || arg.starts_with("..\\")
        || arg.starts_with(['/', '\\', '~'])
        || (b.len() >= 3
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'/' | b'\\'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(spec: &str) -> (String, Option<String>, Option<String>) {
        match GitSpec::parse(spec) {
            Ok(s) => (s.url, s.reference, s.subpath),
            Err(e) => panic!("{spec}: {e}"),
        }
    }

    fn gh(
        repo: &str,
        reference: Option<&str>,
        subpath: Option<&str>,
    ) -> (String, Option<String>, Option<String>) {
        (
            format!("https://github.com/{repo}.git"),
            reference.map(str::to_owned),
            subpath.map(str::to_owned),
        )
    }

    fn reason(spec: &str) -> String {
        match GitSpec::parse(spec) {
            Ok(s) => panic!("{spec:?} was accepted as {s:?}"),
            Err(GitError::BadSpec { reason, .. }) => reason,
            Err(e) => panic!("{spec:?}: not a BadSpec: {e}"),
        }
    }

    #[test]
    fn shorthand() {
        assert_eq!(ok("o/r"), gh("o/r", None, None));
        assert_eq!(ok("o/r.git"), gh("o/r", None, None));
        assert_eq!(ok("o/r@v1.2"), gh("o/r", Some("v1.2"), None));
        assert_eq!(ok("o/r/skills/x"), gh("o/r", None, Some("skills/x")));
        assert_eq!(ok("o/r/skills/x/"), gh("o/r", None, Some("skills/x")));
        assert_eq!(
            ok("o/r/skills/x@feature/y"),
            gh("o/r", Some("feature/y"), Some("skills/x"))
        );
        assert_eq!(ok("o/r#dev"), gh("o/r", Some("dev"), None));
        assert_eq!(ok("o/r#dev:a/b"), gh("o/r", Some("dev"), Some("a/b")));
        assert_eq!(ok("o/r#:a"), gh("o/r", None, Some("a")));
        assert_eq!(
            ok("Some-Org/my_repo.v2@refs/pull/1/head"),
            gh("Some-Org/my_repo.v2", Some("refs/pull/1/head"), None)
        );
    }

    #[test]
    fn github_web_urls() {
        assert_eq!(ok("https://github.com/o/r"), gh("o/r", None, None));
        assert_eq!(ok("https://github.com/o/r/"), gh("o/r", None, None));
        assert_eq!(ok("https://github.com/o/r.git"), gh("o/r", None, None));
        assert_eq!(ok("http://www.GitHub.com/o/r"), gh("o/r", None, None));
        assert_eq!(
            ok("https://github.com/o/r/tree/main"),
            gh("o/r", Some("main"), None)
        );
        assert_eq!(
            ok("https://github.com/o/r/tree/v1/skills/pdf?x=1"),
            gh("o/r", Some("v1"), Some("skills/pdf"))
        );
        assert_eq!(
            ok("https://github.com/o/r#v2:s"),
            gh("o/r", Some("v2"), Some("s"))
        );
        assert_eq!(
            ok("https://tok:x@github.com/o/r").0,
            "https://tok:x@github.com/o/r.git"
        );
        assert!(reason("https://github.com/o/r/blob/main/SKILL.md").contains("file"));
        assert!(reason("https://github.com/o").contains("owner"));
        assert!(reason("https://github.com/o/r/issues/3").contains("page"));
        assert!(reason("https://github.com/o/r/tree/main#v1").contains("twice"));
        assert!(reason("https://github.com/o/r/tree/main/../x").contains(".."));
    }

    #[test]
    fn gitlab_web_urls() {
        assert_eq!(
            ok("https://gitlab.com/g/sub/p/-/tree/main/skills/x"),
            (
                "https://gitlab.com/g/sub/p.git".into(),
                Some("main".into()),
                Some("skills/x".into())
            )
        );
        assert_eq!(
            ok("https://git.example.org/g/p.git/-/tree/v1"),
            (
                "https://git.example.org/g/p.git".into(),
                Some("v1".into()),
                None
            )
        );
        assert!(reason("https://gitlab.com/g/p/-/blob/main/SKILL.md").contains("file"));
        assert!(reason("https://gitlab.com/-/tree/main").contains("path"));
    }

    #[test]
    fn other_urls_kept_as_written() {
        for url in [
            "https://example.com/r.git",
            "https://example.com:8443/scm/r",
            "http://127.0.0.1:9/r.git",
            "ssh://git@example.com:2222/o/r.git",
            "git://127.0.0.1:9418/r.git",
            "git+ssh://example.com/r",
            "file:///tmp/some%20repo",
            "file:///tmp/with space/r",
            "git@github.com:o/r.git",
            "host:r.git",
            "user@[::1]:r.git",
        ] {
            assert_eq!(ok(url), (url.to_owned(), None, None), "{url}");
        }
        assert_eq!(
            ok("https://example.com/r.git#v1:skills/a"),
            (
                "https://example.com/r.git".into(),
                Some("v1".into()),
                Some("skills/a".into())
            )
        );
        assert_eq!(
            ok("git@host:o/r.git#0123456789abcdef0123456789abcdef01234567"),
            (
                "git@host:o/r.git".into(),
                Some("0123456789abcdef0123456789abcdef01234567".into()),
                None
            )
        );
    }

    #[test]
    fn hostile_sources_are_refused() {
        assert!(reason("").contains("empty"));
        assert!(reason("-uecho").contains("`-`"));
        assert!(reason("--upload-pack=touch /tmp/x").contains("`-`"));
        assert!(reason("ext::sh -c touch% /tmp/pwned").contains("remote-helper"));
        assert!(reason("fd::17").contains("remote-helper"));
        assert!(reason("ssh://-oProxyCommand=touch%20x/r").contains("ssh"));
        assert!(reason("ssh://-oProxyCommand=x@host/r").contains("ssh"));
        assert!(reason("ssh://user@-oProxyCommand=x/r").contains("ssh"));
        assert!(reason("git@-oProxyCommand=x:r").contains("ssh"));
        assert!(reason("o/r\0").contains("control"));
        assert!(reason("o/r\n--x").contains("control"));
        assert!(reason("ftp://example.com/r.git").contains("scheme"));
        assert!(reason("https://").contains("host"));
        assert!(reason("https://example.com/").contains("path"));
        assert!(reason("file://").contains("path"));
        assert!(reason(":r.git").contains("not a URL"));
        assert!(reason("o/r@-x").contains("`-`"));
        assert!(reason("o/r@--upload-pack=x").contains("`-`"));
        assert!(reason("o/r@a..b").contains(".."));
        assert!(reason("o/r@a b").contains("space"));
        assert!(reason("o/r@HEAD~1").contains("~"));
        assert!(reason("o/r@x@{1}").contains("@{"));
        assert!(reason("o/r@.hidden").contains("`.`"));
        assert!(reason("o/r@x.lock").contains(".lock"));
        assert!(reason("o/r@").contains("empty"));
        assert!(reason("o/r/../../etc").contains(".."));
        assert!(reason("o/r/a/./b").contains(".."));
        assert!(reason("o/r/a//b").contains("empty component"));
        assert!(reason("o/r#v1:/etc").contains("absolute"));
        assert!(reason("o/r#v1:a\\b").contains("\\"));
        assert!(reason("o/r#v1:C:x").contains(":"));
        assert!(reason("o/r#").contains("nothing"));
        assert!(reason("o/r@v1#v2").contains("twice"));
        assert!(reason("-o/r").contains("`-`"));
        assert!(reason(".o/r").contains("owner"));
        assert!(reason("o/..").contains("repository name"));
        assert!(reason("o/r$x").contains("repository name"));
        assert!(reason("owner").contains("not a URL"));
        assert!(reason(&"a".repeat(5000)).contains("4096"));
        assert!(reason(&format!("o/r@{}", "a".repeat(300))).contains("255"));
    }

    #[test]
    fn display_reads_back() {
        for spec in [
            "o/r",
            "o/r@v1",
            "o/r/a/b",
            "o/r/a@v1",
            "https://e.com/r.git#:x",
        ] {
            let parsed = GitSpec::parse(spec).unwrap_or_else(|e| panic!("{e}"));
            let again = GitSpec::parse(&parsed.to_string()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parsed, again, "{spec} -> {parsed}");
        }
        let with_password =
            GitSpec::parse("https://me:pw@e.com/r.git#v1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(with_password.to_string(), "https://me:***@e.com/r.git#v1");
    }

    #[test]
    fn git_like_versus_paths_and_downloads() {
        let none = |_: &str| false;
        for arg in [
            "o/r",
            "o/r/skills/x@v1",
            "git@github.com:o/r.git",
            "ssh://h/r",
            "git://h/r",
            "file:///srv/r",
            "https://github.com/o/r",
            "https://gitlab.example/g/p/-/tree/main",
            "https://example.com/r.git",
            "https://example.com/r.git/",
            "https://example.com/r.git#v1",
        ] {
            assert!(GitSpec::is_git_like(arg, &none), "{arg}");
        }
        for arg in [
            "./o/r",
            "../r",
            "/srv/skills",
            "~/skills",
            ".",
            "C:\\skills",
            "C:/skills",
            "https://example.com/x.skill",
            "https://example.com/x.skill#sha256=00ff",
            "https://example.com/.well-known/agent-skills/index.json",
            "-x",
            "ext::sh",
            "skill",
        ] {
            assert!(!GitSpec::is_git_like(arg, &none), "{arg}");
        }
        let exists = |p: &str| p == "o/r";
        assert!(!GitSpec::is_git_like("o/r", &exists));
        assert!(GitSpec::is_git_like("o/r2", &exists));
    }
}

//! Which transports git may use for one URL. Plain text (`http://`,
//! `git://`) is for a loopback host only, the host judged by the rule
//! [`crate::http`] applies to its own `http://` downloads (`127.0.0.0/8` in
//! any spelling, `[::1]`, `localhost`), unless
//! [`GitOptions::allow_plain_text`](super::GitOptions) says otherwise. What
//! git is then allowed (`GIT_ALLOW_PROTOCOL`, which also binds the user's
//! `url.<base>.insteadOf` rewrites and what curl may be redirected to) is
//! the encrypted transports and local files, plus `git` and `http` only for
//! a URL that passed: an `https://` source can never be fetched in plain
//! text.

use url::Url;

use super::GitError;
use crate::http;

/// Transports every run may use: local files and the encrypted ones.
pub(super) const ENCRYPTED: &str = "file:https:ssh";
/// The same with the plain-text transports, for a URL allowed to use them.
const WITH_PLAIN_TEXT: &str = "file:git:http:https:ssh";

/// The `GIT_ALLOW_PROTOCOL` for runs that reach `url`, or
/// [`GitError::Insecure`] when `url` is plain text to a host that is not
/// loopback and `allow_plain_text` is off. A URL without `://` (scp-like
/// `host:path`, which is ssh, or a local path) is not plain text.
pub(super) fn protocols(url: &str, allow_plain_text: bool) -> Result<&'static str, GitError> {
    let Some((scheme, _)) = url.split_once("://") else {
        return Ok(ENCRYPTED);
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "git" {
        return Ok(ENCRYPTED);
    }
    if allow_plain_text || is_loopback(url) {
        Ok(WITH_PLAIN_TEXT)
    } else {
        Err(GitError::Insecure {
            url: url.to_owned(),
        })
    }
}

/// Whether the host of a `http://` or `git://` URL is loopback, as an
/// `http://` download to that host would judge it. `git://` is not a scheme
/// the URL standard knows, so its host is read as written (`127.1` stays
/// text) and judged as the host of an `http://` URL (where `127.1` is
/// `127.0.0.1`, as it is to the resolver git uses). Anything unreadable
/// is not loopback.
fn is_loopback(url: &str) -> bool {
    let Some(host) = Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
    else {
        return false;
    };
    http::check_hop(None, &format!("http://{host}/"), false).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_for_loopback_hosts() {
        for url in [
            "http://127.0.0.1:9/r.git",
            "http://localhost/r.git",
            "HTTP://[::1]:8080/r.git",
            "git://127.0.0.1:9418/r.git",
            "git://127.1/r.git",
            "git://0x7f000001/r.git",
            "git://user@localhost/r.git",
            "git://[::1]/r.git",
        ] {
            assert_eq!(protocols(url, false).ok(), Some(WITH_PLAIN_TEXT), "{url}");
        }
        for url in [
            "http://example.com/r.git",
            "git://example.com/r.git",
            "git://10.0.0.1/r.git",
            "http://127.0.0.1.example.com/r.git",
            "git://localhost.example.com/r.git",
            "git://[::2]/r.git",
            "git:///r.git",
            "http://127.0.0.1@example.com/r.git",
        ] {
            let err = protocols(url, false);
            assert!(matches!(err, Err(GitError::Insecure { .. })), "{url}");
            assert_eq!(protocols(url, true).ok(), Some(WITH_PLAIN_TEXT), "{url}");
        }
    }

    #[test]
    fn other_transports_never_allow_plain_text() {
        for url in [
            "https://example.com/r.git",
            "ssh://git@example.com/r.git",
            "git@example.com:o/r.git",
            "file:///srv/r",
            "/srv/r",
        ] {
            assert_eq!(protocols(url, false).ok(), Some(ENCRYPTED), "{url}");
            assert_eq!(protocols(url, true).ok(), Some(ENCRYPTED), "{url}");
        }
    }
}

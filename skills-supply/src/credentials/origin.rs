//! The origin a credential is for: scheme, host and port, in one form.
//!
//! Written as `[scheme://]host[:port]` (`https://` when no scheme is
//! given; `https` and `http` only); compared as the URL standard reads a
//! host (lowercase, IDNA, an IPv4 address in dotted decimal whatever its
//! spelling, IPv6 compressed), one trailing dot dropped, the scheme's
//! default port filled in. So `https://Example.COM.:443` and `example.com`
//! are one origin, and `example.com:8443`, `http://example.com` and
//! `sub.example.com` are three others.

use std::fmt;

use url::Url;

/// Scheme, host and port.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// The origin of `url`, if it is `http(s)://` with a host.
    pub fn of(url: &Url) -> Option<Origin> {
        if !matches!(url.scheme(), "https" | "http") {
            return None;
        }
        let host = url.host_str()?;
        let host = host.strip_suffix('.').unwrap_or(host);
        if host.is_empty() {
            return None;
        }
        Some(Origin {
            scheme: url.scheme().to_owned(),
            host: host.to_owned(),
            port: url.port_or_known_default()?,
        })
    }

    /// Reads `[scheme://]host[:port]`; `None` when `text` is anything else
    /// (a path, a user, a query, another scheme).
    pub fn parse(text: &str) -> Option<Origin> {
        let text = text.trim();
        let full = if text.contains("://") {
            text.to_owned()
        } else {
            format!("https://{text}")
        };
        let url = Url::parse(&full).ok()?;
        let bare = url.path() == "/"
            && url.username().is_empty()
            && url.password().is_none()
            && url.query().is_none()
            && url.fragment().is_none();
        if !bare {
            return None;
        }
        Origin::of(&url)
    }

    /// The host, without the port.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Whether this is `http://`.
    pub(crate) fn is_plain(&self) -> bool {
        self.scheme == "http"
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        let default = if self.scheme == "https" { 443 } else { 80 };
        if self.port != default {
            write!(f, ":{}", self.port)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(text: &str) -> Origin {
        Origin::parse(text).unwrap_or_else(|| panic!("{text}"))
    }

    #[test]
    fn one_form_for_each_spelling() {
        for (a, b) in [
            ("example.com", "https://EXAMPLE.com."),
            ("example.com", "https://example.com:443/"),
            ("127.0.0.1:8080", "https://127.1:8080"),
            ("http://[::1]", "http://[0:0:0:0:0:0:0:1]:80"),
        ] {
            assert_eq!(origin(a), origin(b), "{a} {b}");
        }
        for (a, b) in [
            ("example.com", "example.com:8443"),
            ("example.com", "http://example.com"),
            ("example.com", "sub.example.com"),
            ("example.com", "example.com.evil.example"),
        ] {
            assert_ne!(origin(a), origin(b), "{a} {b}");
        }
        assert_eq!(
            origin("Example.com:8443").to_string(),
            "https://example.com:8443"
        );
        assert_eq!(origin("http://h:80").to_string(), "http://h");
    }

    #[test]
    fn anything_but_an_origin_is_refused() {
        for text in [
            "",
            "example.com/path",
            "user@example.com",
            "example.com?x",
            "example.com#x",
            "ftp://example.com",
            "a b",
        ] {
            assert_eq!(Origin::parse(text), None, "{text}");
        }
    }
}

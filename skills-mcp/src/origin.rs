//! Which web pages may call the HTTP server: the browser's `Origin` header
//! against an exact list.
//!
//! The server has no authentication, so a page the user visits must not be
//! able to call its tools. A browser names the page's origin in `Origin`;
//! a client outside a browser sends none and passes. Allowed are the
//! server's own origins (`http://127.0.0.1:PORT`, `http://localhost:PORT`,
//! `http://[::1]:PORT`, for the port it listens on) and those the operator
//! adds: an exact scheme, host and port each, so a page of another local
//! server (a development server on `localhost:3000`) is refused. A request
//! with more than one `Origin` header is refused whatever they say, since
//! which one a check reads is a guess.

use std::fmt;
use std::str::FromStr;

use hyper::header::{HeaderMap, ORIGIN};

/// A browser origin: `scheme://host:port`, lowercase, with the scheme's
/// default port written out; or `null` (a sandboxed or local-file page).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin(String);

/// Why a text is not an origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadOrigin(String);

impl fmt::Display for BadOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not an origin; write `http://HOST:PORT` or `https://HOST:PORT` (no path)",
            self.0
        )
    }
}

impl std::error::Error for BadOrigin {}

impl FromStr for Origin {
    type Err = BadOrigin;

    fn from_str(value: &str) -> Result<Origin, BadOrigin> {
        if value == "null" {
            return Ok(Origin(value.to_string()));
        }
        let bad = || BadOrigin(value.to_string());
        let uri = value.parse::<hyper::Uri>().map_err(|_| bad())?;
        let scheme = uri
            .scheme_str()
            .map(str::to_ascii_lowercase)
            .ok_or_else(bad)?;
        let default_port = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return Err(bad()),
        };
        let authority = uri.authority().ok_or_else(bad)?;
        let plain = !authority.as_str().contains('@') && uri.query().is_none();
        if !plain || !matches!(uri.path(), "" | "/") || value.ends_with('/') {
            return Err(bad());
        }
        let host = authority.host().to_ascii_lowercase();
        let port = authority.port_u16().unwrap_or(default_port);
        Ok(Origin(format!("{scheme}://{host}:{port}")))
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The origins a server accepts.
#[derive(Debug, Clone)]
pub(super) struct Origins(Vec<Origin>);

impl Origins {
    /// The server's own origins on `port`, then `extra`.
    pub(super) fn new(port: u16, extra: &[Origin]) -> Origins {
        let own =
            ["127.0.0.1", "localhost", "[::1]"].map(|host| Origin(format!("http://{host}:{port}")));
        Origins(own.into_iter().chain(extra.iter().cloned()).collect())
    }

    /// `Ok` for a request without `Origin` or with one allowed; else why
    /// it is refused (the body of a 403).
    pub(super) fn check(&self, headers: &HeaderMap) -> Result<(), &'static str> {
        let mut values = headers.get_all(ORIGIN).iter();
        let Some(value) = values.next() else {
            return Ok(());
        };
        if values.next().is_some() {
            return Err("Forbidden: more than one `Origin` header");
        }
        let allowed = value
            .to_str()
            .ok()
            .and_then(|v| v.parse::<Origin>().ok())
            .is_some_and(|origin| self.0.contains(&origin));
        if allowed {
            Ok(())
        } else {
            Err(
                "Forbidden: this `Origin` may not call the server; start it with `--allow-origin ORIGIN` to allow a page",
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use hyper::header::HeaderValue;

    use super::*;

    fn origin(value: &str) -> Result<String, BadOrigin> {
        value.parse::<Origin>().map(|o| o.to_string())
    }

    #[test]
    fn origins_are_normalised_and_anything_else_refused() {
        for (value, normal) in [
            ("http://localhost:8080", "http://localhost:8080"),
            ("HTTP://LocalHost:8080", "http://localhost:8080"),
            ("http://localhost", "http://localhost:80"),
            ("https://app.example", "https://app.example:443"),
            ("http://[::1]:9", "http://[::1]:9"),
            ("null", "null"),
        ] {
            assert_eq!(origin(value).as_deref(), Ok(normal), "{value}");
        }
        for value in [
            "localhost:8080",
            "ftp://localhost:21",
            "http://localhost:8080/",
            "http://localhost:8080/x",
            "http://localhost:8080?x",
            "http://user@localhost:8080",
            "http://",
            "",
            "*",
        ] {
            assert_eq!(origin(value), Err(BadOrigin(value.into())), "{value}");
        }
    }

    #[test]
    fn only_the_servers_own_origins_and_the_configured_ones_pass() {
        let extra = ["https://app.example".parse().expect("origin")];
        let origins = Origins::new(8123, &extra);
        let check = |values: &[&str]| {
            let mut headers = HeaderMap::new();
            for v in values {
                headers.append(ORIGIN, HeaderValue::from_str(v).expect("header"));
            }
            origins.check(&headers).is_ok()
        };
        assert!(check(&[]));
        for ok in [
            "http://127.0.0.1:8123",
            "http://localhost:8123",
            "http://LOCALHOST:8123",
            "http://[::1]:8123",
            "https://app.example",
            "https://app.example:443",
        ] {
            assert!(check(&[ok]), "{ok}");
        }
        for refused in [
            "http://localhost:3000",
            "http://127.0.0.1:8124",
            "https://localhost:8123",
            "http://localhost",
            "https://evil.example",
            "http://app.example",
            "null",
            "http://localhost:8123/",
        ] {
            assert!(!check(&[refused]), "{refused}");
        }
        assert!(!check(&["http://localhost:8123", "http://localhost:8123"]));
        assert!(!check(&["http://localhost:8123", "https://evil.example"]));
    }
}

//! Which locations a key pin applies to: pins as `*` patterns over the
//! canonical form of [`crate::canonical`].
//!
//! A pin that fails to match lets any trusted key sign, so matching errs
//! towards matching. A pattern is canonicalised as sources are (so
//! `https://GitHub.com/Acme/*`, `acme/*` and `github.com/acme/*` are one
//! pin), and applies to a location when any of its readings matches it:
//!
//! - `*` matches any run of characters, `/` included;
//! - a pattern whose host names no port matches the host on every port (a
//!   publisher's host serves its own content whatever the port):
//!   `127.0.0.1/acme/*` applies to `127.0.0.1:8080/acme/x`;
//! - a pattern ending in `/*` also matches what precedes it:
//!   `acme.dev/*` applies to the site `acme.dev` itself.
//!
//! Which locations a decision is about, and how the pins of several
//! combine, is the policy's business (`policy.rs`).

use crate::canonical;

/// Whether `source` is written as a path on this machine (`./x`, `../x`,
/// `/x`, `~/x`, `C:\x`); anything else, `file://` URLs included, reads as
/// a source fetched from elsewhere. A helper for a caller that has only the
/// text: the policy does not guess from spelling, its caller says which
/// kind of source it fetched ([`super::Provenance`]).
pub fn is_local(source: &str) -> bool {
    let s = source.trim();
    let drive = s.as_bytes();
    matches!(s, "." | "..")
        || ["/", "./", "../", "~/", ".\\", "..\\", "\\"]
            .iter()
            .any(|prefix| s.starts_with(prefix))
        || (drive.len() > 2
            && drive[0].is_ascii_alphabetic()
            && drive[1] == b':'
            && matches!(drive[2], b'\\' | b'/'))
}

/// Whether the pin `pattern` (as written in a trust file) applies to
/// `location` (a canonical reading, see [`canonical`]).
pub(crate) fn pin_applies(pattern: &str, location: &str) -> bool {
    let bare = without_port(location);
    canonical::readings(pattern).iter().any(|pattern| {
        covers(pattern, location)
            || (port_colon(pattern).is_none()
                && bare.as_deref().is_some_and(|bare| covers(pattern, bare)))
    })
}

/// `matches`, and a pattern `x/*` matching `x`.
fn covers(pattern: &str, location: &str) -> bool {
    matches(pattern, location)
        || (pattern.ends_with("/*") && matches(pattern, &format!("{location}/")))
}

/// Where the authority of a canonical form starts (after `scheme://` or
/// `//`) and ends: a form's path never holds `//`, its host never `/`.
fn authority(form: &str) -> (usize, usize) {
    let start = form.find("//").map_or(0, |i| i + 2);
    let end = form[start..].find('/').map_or(form.len(), |i| start + i);
    (start, end)
}

/// The index of the `:` before a canonical form's port, if it has one (a
/// canonical host holds no `:` outside brackets).
fn port_colon(form: &str) -> Option<usize> {
    let (start, end) = authority(form);
    let host = &form[start..end];
    let skip = if host.starts_with('[') {
        host.find(']').map_or(host.len(), |i| i + 1)
    } else {
        0
    };
    host[skip..].find(':').map(|i| start + skip + i)
}

/// A canonical form without its port, if it has one.
fn without_port(form: &str) -> Option<String> {
    let colon = port_colon(form)?;
    let (_, end) = authority(form);
    Some(format!("{}{}", &form[..colon], &form[end..]))
}

/// Whether `pattern` (canonical) matches `text` (canonical): `*` matches any
/// run of characters, everything else itself. Linear in practice: one
/// backtrack point, the last `*`.
pub(crate) fn matches(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some(b'*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::identity as canonical;

    #[test]
    fn one_repository_written_many_ways_is_one_source() {
        for written in [
            "acme/skills",
            "Acme/Skills",
            "github.com/acme/skills",
            "https://github.com/acme/skills",
            "https://github.com/acme/skills.git",
            "https://github.com/acme/skills/",
            "git+https://github.com/acme/skills#v1.0.0",
            "git@github.com:acme/skills.git",
            "ssh://git@github.com/acme/skills",
            "https://token@github.com/acme/skills?ref=main",
        ] {
            assert_eq!(canonical(written), "github.com/acme/skills", "{written}");
        }
        assert_eq!(
            canonical("oci://GHCR.io/acme/skills:1.0"),
            "oci://ghcr.io/acme/skills:1.0"
        );
        assert_eq!(
            canonical("https://acme.dev/.well-known/agent-skills/index.json"),
            "acme.dev/.well-known/agent-skills/index.json"
        );
        assert_eq!(canonical("https://host:8443/x"), "host:8443/x");
        assert_eq!(canonical("*"), "*");
        assert_eq!(canonical("acme/*"), "github.com/acme/*");
        assert_eq!(canonical("*/skills"), "*/skills");
    }

    #[test]
    fn stars_match_any_run() {
        let yes = [
            ("github.com/acme/*", "github.com/acme/skills"),
            ("github.com/acme/*", "github.com/acme/skills/sub/dir"),
            ("*", "anything"),
            ("*", ""),
            (
                "oci://ghcr.io/acme/*",
                "oci://ghcr.io/acme/skills@sha256:00",
            ),
            ("github.com/*/skills", "github.com/acme/skills"),
            ("a*b*c", "aXXbYYbZc"),
            ("exact", "exact"),
        ];
        for (pattern, text) in yes {
            assert!(matches(pattern, text), "{pattern} {text}");
        }
        let no = [
            ("github.com/acme/*", "github.com/acme-evil/skills"),
            ("github.com/acme/*", "github.com/acme"),
            ("oci://ghcr.io/acme/*", "ghcr.io/acme/skills"),
            ("a*b*c", "aXXbYYbZ"),
            ("exact", "exactly"),
            ("", "x"),
        ];
        for (pattern, text) in no {
            assert!(!matches(pattern, text), "{pattern} {text}");
        }
    }

    #[test]
    fn local_sources_are_paths() {
        for local in [
            ".", "./skills", "../x", "/abs/x", "~/skills", "C:\\x", "c:/x",
        ] {
            assert!(is_local(local), "{local}");
        }
        for remote in [
            "acme/skills",
            "skills",
            "file:///tmp/repo",
            "https://x/y",
            "oci://h/r",
            "C:",
        ] {
            assert!(!is_local(remote), "{remote}");
        }
    }
}

//! Which sources a key pin applies to: sources and pins in one canonical
//! form, and `*` patterns over it.
//!
//! Sources are written many ways (`acme/skills`, `https://github.com/acme/skills.git`,
//! `git@github.com:acme/skills`); a pin must apply to all of them, because a
//! pin that fails to match lets any trusted key sign. So both sides are
//! brought to one form before matching, erring towards matching: lower
//! case, no scheme (except `oci://`, kept so registry pins stay apart from
//! web hosts), no user, no `.git`, no query or fragment, and `owner/repo`
//! read as GitHub's. A `*` in a pattern matches any run of characters,
//! `/` included.

/// The schemes dropped from a source: what follows them names the same
/// repository or file whichever is used.
const SCHEMES: [&str; 6] = [
    "git+https://",
    "git+ssh://",
    "https://",
    "http://",
    "ssh://",
    "git://",
];

/// Whether `source` is a folder or file on this machine (`./x`, `../x`, `/x`,
/// `~/x`, `C:\x`), which may be installed unsigned. Anything else, `file://`
/// URLs included, is fetched like a remote source and obeys its rules.
pub(crate) fn is_local(source: &str) -> bool {
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

/// The canonical form of a source or a pattern.
pub(crate) fn canonical(source: &str) -> String {
    let mut s = source.trim().to_ascii_lowercase();
    if let Some(end) = s.find(['#', '?']) {
        s.truncate(end);
    }
    if s.starts_with("oci://") {
        return s.trim_end_matches('/').to_owned();
    }
    let mut schemed = false;
    for scheme in SCHEMES {
        if let Some(rest) = s.strip_prefix(scheme) {
            s = rest.to_owned();
            schemed = true;
            break;
        }
    }
    // `user@host`: the user is no part of what is fetched.
    let host_end = s.find('/').unwrap_or(s.len());
    if let Some(at) = s[..host_end].rfind('@') {
        s.drain(..=at);
    }
    // scp-like `host:owner/repo`, only without a scheme (else `:` is a port).
    let host_end = s.find('/').unwrap_or(s.len());
    if !schemed && let Some(colon) = s[..host_end].find(':') {
        s.replace_range(colon..=colon, "/");
    }
    let mut s = s.trim_end_matches('/').to_owned();
    if let Some(stripped) = s.strip_suffix(".git") {
        s = stripped.to_owned();
    }
    // `owner/repo`: GitHub's shorthand, as every installer reads it.
    let first = s.split('/').next().unwrap_or_default();
    if !schemed && s.contains('/') && !first.contains(['.', '*', ':']) && !first.is_empty() {
        s = format!("github.com/{s}");
    }
    s
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

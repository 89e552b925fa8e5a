//! One canonical spelling for every way of writing a source's location,
//! which key pins are matched against and a lock can record.
//!
//! A pin that fails to match lets any trusted key sign the source, so every
//! decision here errs towards two spellings being the same location. Both
//! sources and pin patterns go through it; a `*` in a pattern is kept (it
//! is a sub-delimiter, never encoded or decoded).
//!
//! # The form
//!
//! `host[:port][/path]`, without a scheme for the transports that reach the
//! same content whichever is used (`https`, `http`, `git+https`,
//! `git+http`, `ssh`, `git+ssh`, `ssh+git`, `git`), with `scheme://` kept
//! for the others (`oci://ghcr.io/acme/skills:1.0`, `file:///srv/repo`), so
//! that registry pins stay apart from web hosts. GitHub's `owner/repo`
//! shorthand is `github.com/owner/repo`; scp-like `user@host:path` is
//! `host/path`. A form that would read back as the shorthand or as a URL
//! (a host without a dot, `https` as a host name) starts with `//`, RFC
//! 3986's network-path reference (`//intranet/acme/skills`), so that
//! [`identity`] is idempotent.
//!
//! # Decisions
//!
//! - **Structure** follows the readers that fetch: `http(s):` as WHATWG
//!   URLs (any run of `/` or `\` after the colon, the authority ended by
//!   `/`, `\`, `?` or `#`, the user ended by the last `@`); other schemes
//!   only before `//`; without a scheme, a `:` before the first `/` is
//!   scp-like (git's rule), else `owner/repo` (a first segment without `.`,
//!   `:`, `*`, `@`) is GitHub's, else `host/path`. Leading and trailing
//!   spaces and controls are trimmed and tabs and newlines dropped, as
//!   WHATWG does; the query, the fragment and the user are no part of the
//!   location.
//! - **Host**: one form for every scheme, by the `url` crate's host parser
//!   (WHATWG's: percent-decoding, IDNA (UTS 46) to lower-case punycode,
//!   IPv4 in every `inet_aton` spelling (`127.1`, `2130706433`,
//!   `0x7f.0.0.1`, `0177.0.0.1`), IPv6 compressed in lower case), then:
//!   trailing dots dropped (`github.com.` is `github.com`); every address
//!   of this machine's loopback (`127.0.0.0/8`, `0.0.0.0`, `::1`, `::`,
//!   `localhost`, `*.localhost`, an IPv4-mapped one) is `127.0.0.1`, since a
//!   server listening on one is usually reached by all; an IPv4-mapped IPv6
//!   address is its IPv4 address; `www.github.com` is `github.com`, as
//!   [`crate::git`] reads it. Names are not resolved: a name and the
//!   address it resolves to are different locations. A host the parser
//!   refuses (no fetch reaches it) is kept as written, lower-cased, with
//!   `:`, spaces, controls and non-ASCII bytes percent-encoded.
//! - **Port**: the scheme's default is dropped (443 for `https` and
//!   `oci`, 80 for `http`, 22 for `ssh`, 9418 for `git`), leading zeros
//!   too; a port that is not a number up to 65535 (or, in a pattern, digits
//!   and `*`) is part of the host, which then matches nothing fetched.
//! - **Path** (RFC 3986 6.2.2): percent-encodings of unreserved characters
//!   decoded (`%61` is `a`, `%2E` is `.`), other encodings' hex in upper
//!   case, characters outside RFC 3986's `pchar` encoded as UTF-8, `\` read
//!   as `/` (as WHATWG reads it in `http(s)` URLs); dot segments removed (RFC
//!   3986 5.2.4, on the segments as written, as a client sends them); then
//!   empty segments dropped (servers merge `//`), the trailing `/` and any
//!   trailing `.git` too; ASCII letters lower-cased (GitHub's and most
//!   forges' names are case-insensitive). One known difference from the
//!   `url` crate, which [`crate::http`] builds its requests with: it does not
//!   let `..` remove a segment like a Windows drive letter (`c:`, `c|`) in
//!   an `http(s)` URL (WHATWG does that only in `file:` URLs), so
//!   `http://h/a/c:/../b` is fetched as `/a/c:/b` where the form says
//!   `h/a/b`; the reading with dot segments kept (below) still puts it
//!   under `h/a/c:/`, and so does the URL fetched given to
//!   [`Provenance::through`](crate::trust::Provenance::through).
//!
//! # Readings
//!
//! Where readers disagree, a text has several canonical readings (a
//! source's are its first [`Provenance::locations`](crate::trust::Provenance::locations)); the first is its
//! [`identity`]. A source must satisfy the pins of every reading (pins only
//! narrow), and a pattern applies when any of its readings matches.
//! Besides the identity:
//!
//! - an encoded slash (`%2F`, `%5C`) read as a separator, dot segments then
//!   removed again: what a server that decodes before routing serves
//!   (`x/..%2Facme` is `acme`, while `acme/..%2F..%2Fbob` stays under
//!   `acme` in the identity);
//! - dot segments kept: what a reader that splits the text as written sees
//!   (the GitHub and GitLab web forms of [`crate::git`]);
//! - `host:port/path` without a scheme: also with the port dropped if it is
//!   the default of `https` or `http`, and as scp-like `host` with the path
//!   `port/path`, which is how git reads it;
//! - `https:host/path` without `//`: also as scp-like, which is how git
//!   reads it.

use std::net::{Ipv4Addr, Ipv6Addr};

use url::Host;

/// The canonical identity of `source`: the one spelling of the location it
/// names, as the module documentation describes
/// (`Https://GitHub.com:443/x/../Acme/skills.git` is
/// `github.com/acme/skills`). Any text has one, paths on this machine
/// included (they are not told apart here); the form is idempotent:
/// `identity(&identity(s)) == identity(s)`. A lock records it as what a
/// trust decision was made about.
pub fn identity(source: &str) -> String {
    readings(source).into_iter().next().unwrap_or_default()
}

/// Every canonical reading of `text`, its [`identity`] first, without
/// repeats; never empty.
pub(crate) fn readings(text: &str) -> Vec<String> {
    let cleaned = clean(text);
    let located = cleaned.split(['?', '#']).next().unwrap_or_default();
    let mut all: Vec<String> = Vec::new();
    for location in locations(located) {
        for reading in location.render() {
            if !all.contains(&reading) {
                all.push(reading);
            }
        }
    }
    all
}

/// The loopback form every address of this machine takes.
const LOOPBACK: &str = "127.0.0.1";

/// Schemes WHATWG reads with any run of slashes after the colon, and their
/// default ports.
const SPECIAL: [(&str, u16); 2] = [("https", 443), ("http", 80)];

/// Schemes dropped from the form, and their default ports: each reaches
/// the same repository or file as the others.
const DROPPED: [(&str, u16); 6] = [
    ("git+https", 443),
    ("git+http", 80),
    ("ssh", 22),
    ("git+ssh", 22),
    ("ssh+git", 22),
    ("git", 9418),
];

/// Schemes kept in the form that have a default port.
const KEPT_DEFAULTS: [(&str, u16); 1] = [("oci", 443)];

/// One way of reading a text: a location, not yet normalised.
struct Location<'a> {
    /// The scheme kept in the form (`oci`), if any.
    scheme: Option<String>,
    /// The host as written (userinfo removed).
    host: &'a str,
    /// The port as written, if a `:` follows the host.
    port: Option<&'a str>,
    /// The port that is this location's default, dropped from the form.
    default: Option<u16>,
    /// The path as written, `/` first or relative (scp-like, shorthand).
    path: &'a str,
}

/// `text` as WHATWG reads it before parsing: without leading and trailing
/// controls and spaces, and without tabs and newlines anywhere.
fn clean(text: &str) -> String {
    text.trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect()
}

/// The ways `text` (without query or fragment) may be read, the primary
/// first.
fn locations(text: &str) -> Vec<Location<'_>> {
    let Some((scheme, rest)) = scheme_of(text) else {
        return schemeless(text);
    };
    let default = |table: &[(&str, u16)]| {
        table
            .iter()
            .find(|(name, _)| *name == scheme)
            .map(|&(_, port)| port)
    };
    if let Some(port) = default(&SPECIAL) {
        let after = rest.trim_start_matches(['/', '\\']);
        let mut all = vec![url_location(None, after, Some(port))];
        if !rest.starts_with("//") {
            // git reads `https:host/path` as scp-like.
            all.extend(schemeless(text));
        }
        return all;
    }
    let after = rest.strip_prefix("//").unwrap_or(rest);
    if let Some(port) = default(&DROPPED) {
        return vec![url_location(None, after, Some(port))];
    }
    let port = default(&KEPT_DEFAULTS);
    vec![url_location(Some(scheme), after, port)]
}

/// The lower-cased scheme of `text` and what follows its `:`, when the
/// scheme makes `text` a URL: `http(s):` whatever follows, any other
/// scheme only before `//`.
fn scheme_of(text: &str) -> Option<(String, &str)> {
    let colon = text.find(':')?;
    let name = &text[..colon];
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let scheme = name.to_ascii_lowercase();
    let rest = &text[colon + 1..];
    let special = SPECIAL.iter().any(|(name, _)| *name == scheme);
    (valid && (special || rest.starts_with("//"))).then_some((scheme, rest))
}

/// The readings of a text without a scheme.
fn schemeless(text: &str) -> Vec<Location<'_>> {
    if let Some(rest) = text.strip_prefix("//") {
        return vec![url_location(None, rest, None)];
    }
    if is_shorthand(text) {
        return vec![Location {
            scheme: None,
            host: "github.com",
            port: None,
            default: None,
            path: text,
        }];
    }
    let Some(colon) = scp_colon(text) else {
        return vec![url_location(None, text, None)];
    };
    let (left, right) = (&text[..colon], &text[colon + 1..]);
    let scp = Location {
        scheme: None,
        host: after_userinfo(left),
        port: None,
        default: None,
        path: right,
    };
    let port = &right[..right.find(['/', '\\']).unwrap_or(right.len())];
    if port.bytes().all(|b| b.is_ascii_digit() || b == b'*') {
        return vec![
            url_location(None, text, None),
            url_location(None, text, Some(443)),
            url_location(None, text, Some(80)),
            scp,
        ];
    }
    vec![scp]
}

/// GitHub's `owner/repo[/…]`: a `/`, and a first segment that names no
/// host (no `.`, `:`, `*`, `@`, `[` or `\`).
fn is_shorthand(text: &str) -> bool {
    text.split_once('/').is_some_and(|(first, _)| {
        !first.is_empty() && !first.contains(['.', ':', '*', '@', '[', '\\'])
    })
}

/// The `:` of scp-like `[user@]host:path`: the first outside brackets and
/// before the first `/` or `\`.
fn scp_colon(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '/' | '\\' => return None,
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ':' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// What follows the last `@` of an authority.
fn after_userinfo(authority: &str) -> &str {
    authority
        .rfind('@')
        .map_or(authority, |at| &authority[at + 1..])
}

/// A URL's location, `text` starting at its authority.
fn url_location(scheme: Option<String>, text: &str, default: Option<u16>) -> Location<'_> {
    let (authority, path) = text.split_at(text.find(['/', '\\']).unwrap_or(text.len()));
    let (host, port) = split_port(after_userinfo(authority));
    Location {
        scheme,
        host,
        port,
        default,
        path,
    }
}

/// `host` and `port` of `host[:port]`, `[v6][:port]`.
fn split_port(authority: &str) -> (&str, Option<&str>) {
    if authority.starts_with('[') {
        let Some(close) = authority.find(']') else {
            return (authority, None);
        };
        let (host, rest) = authority.split_at(close + 1);
        return match rest.strip_prefix(':') {
            Some(port) => (host, Some(port)),
            None if rest.is_empty() => (host, None),
            None => (authority, None),
        };
    }
    match authority.split_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (authority, None),
    }
}

impl Location<'_> {
    /// Its canonical readings: one per reading of the path.
    fn render(&self) -> Vec<String> {
        let authority = self.authority();
        let mut prefix = String::new();
        if let Some(scheme) = &self.scheme {
            prefix.push_str(scheme);
            prefix.push_str("://");
        }
        paths(self.path)
            .into_iter()
            .map(|segments| {
                let mut form = format!("{prefix}{authority}");
                for segment in segments {
                    form.push('/');
                    form.push_str(&segment);
                }
                if self.scheme.is_none() && (is_shorthand(&form) || scheme_of(&form).is_some()) {
                    form.insert_str(0, "//");
                }
                form
            })
            .collect()
    }

    /// `host[:port]`, canonical.
    fn authority(&self) -> String {
        let host = host_form(self.host);
        let Some(port) = self.port else {
            return host;
        };
        if port.is_empty() {
            return host;
        }
        if port.bytes().all(|b| b.is_ascii_digit()) {
            let digits = port.trim_start_matches('0');
            return match digits.parse::<u16>() {
                Ok(n) if self.default == Some(n) => host,
                Ok(n) => format!("{host}:{n}"),
                Err(_) if digits.is_empty() => format!("{host}:0"),
                Err(_) => fallback(&format!("{}:{port}", self.host)),
            };
        }
        if port.bytes().all(|b| b.is_ascii_digit() || b == b'*') {
            return format!("{host}:{port}");
        }
        fallback(&format!("{}:{port}", self.host))
    }
}

/// A host in its one form.
fn host_form(host: &str) -> String {
    match Host::parse(host) {
        Ok(Host::Domain(domain)) => domain_form(domain),
        Ok(Host::Ipv4(ip)) => ipv4_form(ip),
        Ok(Host::Ipv6(ip)) => ipv6_form(ip),
        Err(_) => fallback(host),
    }
}

/// A parsed domain without trailing dots, loopback names and GitHub's
/// `www.` alias folded.
fn domain_form(domain: String) -> String {
    let trimmed = domain.trim_end_matches('.');
    if trimmed.is_empty() {
        return domain;
    }
    if trimmed.len() != domain.len() {
        // Without its dots it may be an IPv4 address (`0x7f.1..`).
        return host_form(trimmed);
    }
    if domain == "localhost" || domain.ends_with(".localhost") {
        return LOOPBACK.to_owned();
    }
    if domain == "www.github.com" {
        return "github.com".to_owned();
    }
    domain
}

fn ipv4_form(ip: Ipv4Addr) -> String {
    if ip.is_loopback() || ip.is_unspecified() {
        LOOPBACK.to_owned()
    } else {
        ip.to_string()
    }
}

fn ipv6_form(ip: Ipv6Addr) -> String {
    if ip.is_loopback() || ip.is_unspecified() {
        return LOOPBACK.to_owned();
    }
    match ip.to_ipv4_mapped() {
        Some(v4) => ipv4_form(v4),
        None => Host::<String>::Ipv6(ip).to_string(),
    }
}

/// A host no fetch can reach, as written: lower case, valid escapes with
/// upper-case hex, and `%`, `:`, spaces, controls and non-ASCII bytes
/// encoded (so that it reads back as the same unreachable host).
fn fallback(host: &str) -> String {
    let bytes = host.as_bytes();
    let mut out = String::with_capacity(host.len());
    let mut i = 0;
    while i < bytes.len() {
        if let Some(value) = escape_at(bytes, i) {
            push_escape(&mut out, value);
            i += 3;
            continue;
        }
        match bytes[i] {
            c @ 0x21..=0x7E if c != b'%' && c != b':' => {
                out.push(char::from(c.to_ascii_lowercase()))
            }
            c => push_escape(&mut out, c),
        }
        i += 1;
    }
    out
}

/// The byte `%XX` at `i` encodes, if a valid escape starts there.
fn escape_at(bytes: &[u8], i: usize) -> Option<u8> {
    if bytes.get(i) != Some(&b'%') {
        return None;
    }
    let hex = |b: &u8| char::from(*b).to_digit(16);
    let high = hex(bytes.get(i + 1)?)?;
    let low = hex(bytes.get(i + 2)?)?;
    u8::try_from(high * 16 + low).ok()
}

/// Appends `%XX`, upper-case hex.
fn push_escape(out: &mut String, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('%');
    out.push(char::from(HEX[usize::from(byte >> 4)]));
    out.push(char::from(HEX[usize::from(byte & 15)]));
}

/// RFC 3986's unreserved characters.
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986's `pchar` outside escapes: what a path segment holds as is.
fn is_pchar(b: u8) -> bool {
    is_unreserved(b)
        || matches!(
            b,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
        )
}

/// The segment lists of a path's readings: dot segments removed (the
/// identity), `%2F` and `%5C` read as separators, dot segments kept.
fn paths(raw: &str) -> Vec<Vec<String>> {
    let text = normalise_path(raw);
    let decoded = text.replace("%2F", "/").replace("%5C", "/");
    vec![
        segments(&text, true),
        segments(&decoded, true),
        segments(&text, false),
    ]
}

/// `raw` with escapes normalised, `\` as `/` and ASCII letters lower-cased.
fn normalise_path(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while i < bytes.len() {
        if let Some(value) = escape_at(bytes, i) {
            if is_unreserved(value) {
                out.push(char::from(value.to_ascii_lowercase()));
            } else {
                push_escape(&mut out, value);
            }
            i += 3;
            continue;
        }
        match bytes[i] {
            b'/' | b'\\' => out.push('/'),
            c if is_pchar(c) => out.push(char::from(c.to_ascii_lowercase())),
            c => push_escape(&mut out, c),
        }
        i += 1;
    }
    out
}

/// The segments of a normalised path: dot segments removed when `resolve`
/// (RFC 3986 5.2.4, empty segments counted as written), then empty
/// segments and any trailing `.git` dropped.
fn segments(path: &str, resolve: bool) -> Vec<String> {
    let mut kept: Vec<&str> = Vec::new();
    for segment in path.strip_prefix('/').unwrap_or(path).split('/') {
        match segment {
            "." if resolve => {}
            ".." if resolve => {
                kept.pop();
            }
            other => kept.push(other),
        }
    }
    let mut kept: Vec<String> = kept
        .into_iter()
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    while let Some(last) = kept.last_mut() {
        match last.strip_suffix(".git") {
            Some(stem) if !matches!(stem, "" | "." | "..") => {
                let stem = stem.len();
                last.truncate(stem);
            }
            _ => break,
        }
    }
    kept
}

#[cfg(test)]
mod props;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_take_rfc_3986_normal_form() {
        let cases = [
            ("HTTPS://GitHub.COM/acme/skills", "github.com/acme/skills"),
            (
                "https://github.com/x/../acme/./skills",
                "github.com/acme/skills",
            ),
            (
                "https://github.com//acme///skills//",
                "github.com/acme/skills",
            ),
            (
                "https://github.com/%61%63me/%7Eskills",
                "github.com/acme/~skills",
            ),
            ("https://x.dev/a%2fb/%3f%c3%a9", "x.dev/a%2Fb/%3F%C3%A9"),
            ("https://x.dev/é x|^\"", "x.dev/%C3%A9%20x%7C%5E%22"),
            ("https://x.dev/100%", "x.dev/100%25"),
            ("https://x.dev/a//../b", "x.dev/a/b"),
            (
                "https://github.com:443/acme/skills",
                "github.com/acme/skills",
            ),
            ("http://x.dev:80/x", "x.dev/x"),
            ("http://x.dev:0080/x", "x.dev/x"),
            ("https://x.dev:80/x", "x.dev:80/x"),
            ("https://x.dev:000/x", "x.dev:0/x"),
            ("ssh://git@x.dev:22/x.git", "x.dev/x"),
            ("git://x.dev:9418/x", "x.dev/x"),
            (
                "oci://GHCR.io:443/acme/skills:1.0",
                "oci://ghcr.io/acme/skills:1.0",
            ),
            ("oci://ghcr.io:5000/acme", "oci://ghcr.io:5000/acme"),
            ("file:///srv/repo/", "file:///srv/repo"),
            ("https://x.dev", "x.dev"),
            ("https://x.dev/a/..", "x.dev"),
            ("https://x.dev/skills.git.git", "x.dev/skills"),
            ("https://x.dev/.git", "x.dev/.git"),
            ("https://x.dev/..git", "x.dev/..git"),
            ("https:\\\\x.dev\\a\\b", "x.dev/a/b"),
            (
                "https://evil.com\\@github.com/acme",
                "evil.com/@github.com/acme",
            ),
            ("https://github.com@evil.com/acme", "evil.com/acme"),
            (" \thttps://x.dev/a\nb \u{1}", "x.dev/ab"),
        ];
        for (written, form) in cases {
            assert_eq!(identity(written), form, "{written}");
        }
    }

    #[test]
    fn hosts_take_one_form() {
        let cases = [
            ("http://127.1/", "127.0.0.1"),
            ("http://2130706433/", "127.0.0.1"),
            ("http://0x7f000001/", "127.0.0.1"),
            ("http://0177.0.0.1/", "127.0.0.1"),
            ("http://10.1/", "10.0.0.1"),
            ("http://0x0a.0.0.1./", "10.0.0.1"),
            ("http://10.0.0.1../", "10.0.0.1"),
            ("http://127.0.0.9/", "127.0.0.1"),
            ("http://0.0.0.0/", "127.0.0.1"),
            ("http://localhost/", "127.0.0.1"),
            ("http://x.LOCALHOST./", "127.0.0.1"),
            ("http://[::1]/", "127.0.0.1"),
            ("http://[::]/", "127.0.0.1"),
            ("http://[::ffff:10.0.0.1]/", "10.0.0.1"),
            ("http://[2001:DB8:0:0::1]/", "[2001:db8::1]"),
            ("http://[2001:db8::1]:8080/", "[2001:db8::1]:8080"),
            ("https://github.com./", "github.com"),
            ("https://www.github.com/", "github.com"),
            ("https://bücher.example/", "xn--bcher-kva.example"),
            ("https://%62ücher.example/", "xn--bcher-kva.example"),
            ("https://ＧＩＴＨＵＢ。com/", "github.com"),
        ];
        for (written, form) in cases {
            assert_eq!(identity(written), form, "{written}");
        }
    }

    /// Hosts no parser accepts stay as written, in a form that reads back
    /// as itself and reaches nothing.
    #[test]
    fn unreachable_hosts_are_kept_apart() {
        let cases = [
            ("https://a b.dev/x", "a%20b.dev/x"),
            ("https://999.1.1.1/x", "999.1.1.1/x"),
            ("https://x.dev:99999/x", "x.dev%3A99999/x"),
            ("https://x.dev:8o/x", "x.dev%3A8o/x"),
            ("https://[zz]/x", "[zz]/x"),
            ("https://xn--zz.dev/x", "xn--zz.dev/x"),
        ];
        for (written, form) in cases {
            assert_eq!(identity(written), form, "{written}");
            assert_eq!(identity(form), form, "{form} reads back as itself");
        }
    }

    #[test]
    fn forms_that_would_read_back_otherwise_are_marked() {
        let cases = [
            ("https://intranet/acme/skills", "//intranet/acme/skills"),
            ("https://intranet", "intranet"),
            ("https://xn--zz/x", "//xn--zz/x"),
            ("ssh://https:8080/x", "//https:8080/x"),
            ("https://x.dev/x", "x.dev/x"),
        ];
        for (written, form) in cases {
            assert_eq!(identity(written), form, "{written}");
            assert_eq!(identity(form), form, "{form}");
        }
    }

    #[test]
    fn sources_without_a_scheme() {
        let cases = [
            ("acme/skills", "github.com/acme/skills"),
            ("acme/skills/sub#v1", "github.com/acme/skills/sub"),
            ("git@github.com:acme/skills.git", "github.com/acme/skills"),
            ("git@GitHub.com.:/acme/skills", "github.com/acme/skills"),
            ("git@[::1]:acme/x", "127.0.0.1/acme/x"),
            ("github.com/acme/skills", "github.com/acme/skills"),
            ("127.0.0.1:8080/acme", "127.0.0.1:8080/acme"),
            ("//intranet/x", "//intranet/x"),
            ("*", "*"),
            ("*/skills", "*/skills"),
            ("*.acme.dev/*", "*.acme.dev/*"),
            ("x.dev:*/x", "x.dev:*/x"),
            ("", ""),
        ];
        for (written, form) in cases {
            assert_eq!(identity(written), form, "{written}");
        }
    }

    #[test]
    fn ambiguous_texts_have_every_reading() {
        let cases: [(&str, &[&str]); 7] = [
            (
                "https://github.com/acme/skills",
                &["github.com/acme/skills"],
            ),
            (
                "https://x.dev/x/..%2Facme/s",
                &["x.dev/x/..%2Facme/s", "x.dev/acme/s"],
            ),
            (
                "https://x.dev/acme/..%2F..%2Fbob",
                &["x.dev/acme/..%2F..%2Fbob", "x.dev/bob"],
            ),
            (
                "https://x.dev/x/../acme",
                &["x.dev/acme", "x.dev/x/../acme"],
            ),
            ("x.dev:8080/acme", &["x.dev:8080/acme", "x.dev/8080/acme"]),
            (
                "x.dev:443/acme",
                &["x.dev:443/acme", "x.dev/acme", "x.dev/443/acme"],
            ),
            (
                "https:github.com/acme",
                &["github.com/acme", "//https/github.com/acme"],
            ),
        ];
        for (written, all) in cases {
            assert_eq!(readings(written), all, "{written}");
        }
    }
}

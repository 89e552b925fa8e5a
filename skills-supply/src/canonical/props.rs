//! Properties of the canonical form on generated texts: it never panics
//! and is idempotent; spellings of one location (percent-encoded
//! unreserved characters, dot segments inserted and cancelled, `//`, host
//! case, IPv4 and IPv6 spellings, IDNA, a default port, trailing dots, a
//! user, a query) have one form; and on every `http(s)` URL the `url` crate
//! accepts, the form agrees with `url`'s host and path (the same fuzzed by
//! `fuzz/fuzz_targets/canonical_source.rs`).

use proptest::prelude::*;
use url::{Host, Url};

use super::{identity, readings};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 400,
        // Keep the source tree clean: no `proptest-regressions/` files.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Pieces that make URL structure and its edge cases likely.
const TOKENS: [&str; 40] = [
    "https://",
    "http:",
    "HTTP://",
    "ssh://",
    "oci://",
    "git@",
    "//",
    "\\",
    "/",
    "/",
    "/",
    ":",
    ":443",
    ":8080",
    "@",
    "[",
    "]",
    "::1",
    "[::ffff:7f00:1]",
    "127",
    ".1",
    "0x7F",
    "0177",
    ".",
    "..",
    "%2e",
    "%2F",
    "%5c",
    "%41",
    "%",
    "%4",
    "a",
    "B",
    "é",
    "。",
    "localhost",
    ".git",
    "*",
    "?",
    "#",
];

/// Texts made of URL pieces and arbitrary characters.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(TOKENS.as_slice()).prop_map(str::to_owned),
        1 => any::<char>().prop_map(String::from),
        1 => "[a-zA-Z0-9 .:/@%-]{1,6}",
    ];
    prop::collection::vec(piece, 0..16).prop_map(|pieces| pieces.concat())
}

/// The host a form names: after any `scheme://` or `//`, up to the path,
/// without the port.
fn host_of(form: &str) -> &str {
    let start = form.find("//").map_or(0, |i| i + 2);
    let rest = &form[start..];
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    if authority.starts_with('[') {
        return &authority[..authority.find(']').map_or(authority.len(), |i| i + 1)];
    }
    authority.split(':').next().unwrap_or(authority)
}

/// The host `url` parsed, with the module's documented decisions applied
/// (written apart from the module's code): trailing dots dropped, this
/// machine's addresses `127.0.0.1`, IPv4-mapped IPv6 as IPv4,
/// `www.github.com` as `github.com`.
fn decided(host: Host<&str>) -> String {
    match host {
        Host::Domain(domain) => {
            let trimmed = domain.trim_end_matches('.');
            if trimmed.is_empty() {
                return domain.to_owned();
            }
            if trimmed != domain {
                return match Host::parse(trimmed) {
                    Ok(Host::Domain(d)) => decided(Host::Domain(d.as_str())),
                    Ok(Host::Ipv4(ip)) => decided(Host::Ipv4(ip)),
                    Ok(Host::Ipv6(ip)) => decided(Host::Ipv6(ip)),
                    Err(_) => trimmed.to_owned(),
                };
            }
            if domain == "localhost" || domain.ends_with(".localhost") {
                "127.0.0.1".into()
            } else if domain == "www.github.com" {
                "github.com".into()
            } else {
                domain.to_owned()
            }
        }
        Host::Ipv4(ip) if ip.is_loopback() || ip.is_unspecified() => "127.0.0.1".into(),
        Host::Ipv4(ip) => ip.to_string(),
        Host::Ipv6(ip) if ip.is_loopback() || ip.is_unspecified() => "127.0.0.1".into(),
        Host::Ipv6(ip) => match ip.to_ipv4_mapped() {
            Some(v4) => decided(Host::Ipv4(v4)),
            None => Host::<&str>::Ipv6(ip).to_string(),
        },
    }
}

/// Checks the form of `text` against `url`'s reading of it, when `url`
/// reads it as an `http(s)` URL.
fn agrees_with_url(text: &str) -> Result<(), TestCaseError> {
    let Ok(parsed) = Url::parse(text) else {
        return Ok(());
    };
    if !matches!(parsed.scheme(), "http" | "https") {
        return Ok(());
    }
    let Some(host) = parsed.host() else {
        return Ok(());
    };
    let ours = identity(text);
    prop_assert_eq!(host_of(&ours), decided(host), "host of {:?}", text);
    // `url`'s own normal form, without what the form leaves out (user,
    // query, fragment), read by us: only our extra steps apply to it.
    let port = parsed.port().map(|p| format!(":{p}")).unwrap_or_default();
    let host = parsed.host_str().unwrap_or_default();
    let normal = format!("{}://{host}{port}{}", parsed.scheme(), parsed.path());
    if !drive_letter_quirk(text, parsed.path()) {
        prop_assert_eq!(
            &ours,
            &identity(&normal),
            "{:?} as url reads it: {:?}",
            text,
            normal
        );
    }
    Ok(())
}

/// Whether `url` may have resolved a dot segment of `text` its own way: it
/// does not let `..` remove a segment like a Windows drive letter (`c:`,
/// `c|`) in `http(s)` URLs, which WHATWG does only in `file:` URLs; the
/// module follows RFC 3986 and WHATWG there (see its documentation).
fn drive_letter_quirk(text: &str, path: &str) -> bool {
    let drive = path.split('/').any(|s| {
        let b = s.as_bytes();
        b.len() == 2 && b[0].is_ascii_alphabetic() && matches!(b[1], b':' | b'|')
    });
    drive && (text.contains('.') || text.to_ascii_lowercase().contains("%2e"))
}

/// An IPv4 address spelled as `inet_aton` reads it: one to four parts,
/// each decimal, octal or hex.
fn ipv4_spelling(ip: u32) -> impl Strategy<Value = String> {
    let spell = |value: u32, style: u8| match style {
        0 => value.to_string(),
        1 => format!("0{value:o}"),
        2 => format!("0x{value:x}"),
        _ => format!("0X{value:X}"),
    };
    (1usize..=4, prop::collection::vec(0u8..4, 4)).prop_map(move |(count, styles)| {
        let bytes = ip.to_be_bytes().map(u32::from);
        let parts: Vec<u32> = match count {
            4 => bytes.to_vec(),
            3 => vec![bytes[0], bytes[1], bytes[2] << 8 | bytes[3]],
            2 => vec![bytes[0], bytes[1] << 16 | bytes[2] << 8 | bytes[3]],
            _ => vec![ip],
        };
        parts
            .iter()
            .zip(&styles)
            .map(|(&value, &style)| spell(value, style))
            .collect::<Vec<_>>()
            .join(".")
    })
}

/// A host and spellings of it that name the same location.
fn host_spelling() -> impl Strategy<Value = (String, String)> {
    let named = |plain: &'static str| {
        let variants = [
            plain.to_owned(),
            plain.to_ascii_uppercase(),
            format!("{plain}."),
            format!("%{:02X}{}", plain.as_bytes()[0], &plain[1..]),
        ];
        prop::sample::select(variants.to_vec()).prop_map(move |v| (plain.to_owned(), v))
    };
    let fixed = |plain: &'static str, spellings: &'static [&'static str]| {
        prop::sample::select(spellings).prop_map(move |v| (plain.to_owned(), v.to_owned()))
    };
    prop_oneof![
        named("github.com"),
        named("x.dev"),
        ipv4_spelling(0x0A01_0203).prop_map(|s| ("10.1.2.3".to_owned(), s)),
        ipv4_spelling(0x7F00_0001).prop_map(|s| ("127.0.0.1".to_owned(), s)),
        fixed(
            "127.0.0.1",
            &[
                "localhost",
                "LOCALHOST.",
                "[::1]",
                "[0:0:0:0:0:0:0:1]",
                "127.0.0.7",
                "0.0.0.0"
            ]
        ),
        fixed(
            "[2001:db8::1]",
            &[
                "[2001:DB8::1]",
                "[2001:0db8:0:0:0:0:0:0001]",
                "[2001:db8::0:1]"
            ]
        ),
        fixed(
            "bücher.example",
            &[
                "xn--bcher-kva.example",
                "BÜCHER.example",
                "b%C3%BCcher.example"
            ]
        ),
        fixed(
            "github.com",
            &["www.github.com", "ＧＩＴＨＵＢ。com", "github.com.."]
        ),
    ]
}

/// A path segment: unreserved characters, not a dot segment, not ending in
/// `.git`.
fn segment() -> impl Strategy<Value = String> {
    "[a-z0-9._~-]{1,8}"
        .prop_filter("a dot segment", |s| s != "." && s != "..")
        .prop_filter("a `.git` suffix", |s| !s.ends_with(".git"))
}

/// `segment` with some characters percent-encoded (either hex case) and
/// some letters upper-cased.
fn segment_spelling(segment: String) -> impl Strategy<Value = String> {
    let n = segment.len();
    prop::collection::vec(0u8..5, n).prop_map(move |choices| {
        segment
            .bytes()
            .zip(&choices)
            .map(|(b, &c)| match c {
                0 => format!("%{b:02X}"),
                1 => format!("%{b:02x}"),
                2 => char::from(b.to_ascii_uppercase()).to_string(),
                _ => char::from(b).to_string(),
            })
            .collect()
    })
}

/// What may be put before a segment without changing the location.
const DETOURS: [&str; 7] = ["", "", "./", "%2E/", "zz/../", "zz/%2e%2E/", "/"];

/// A location (host and segments) and a spelling of it.
fn spelling() -> impl Strategy<Value = (String, String)> {
    (host_spelling(), prop::collection::vec(segment(), 1..4))
        .prop_flat_map(|((host, host_written), segments)| {
            let plain = format!("https://{host}/{}", segments.join("/"));
            let spelled: Vec<_> = segments
                .iter()
                .map(|s| {
                    (
                        prop::sample::select(DETOURS.as_slice()),
                        segment_spelling(s.clone()),
                    )
                })
                .collect();
            (
                Just(plain),
                prop::sample::select(
                    ["https://", "HTTPS://", "https:", "https:\\\\", "https:///"].as_slice(),
                ),
                prop::sample::select(["", "user@", "u:p@"].as_slice()),
                Just(host_written),
                prop::sample::select(["", ":443", ":0443", ":"].as_slice()),
                spelled,
                prop::sample::select(
                    ["", "/", "/.", "/zz/..", ".git", "?q=1", "#f", "/?q#f"].as_slice(),
                ),
                any::<bool>(),
            )
        })
        .prop_map(
            |(plain, scheme, user, host, port, segments, tail, backslashes)| {
                let separator = if backslashes { "\\" } else { "/" };
                let mut written = format!("{scheme}{user}{host}{port}");
                for (detour, segment) in segments {
                    written.push_str(separator);
                    written.push_str(&detour.replace('/', separator));
                    written.push_str(&segment);
                }
                written.push_str(tail);
                (plain, written)
            },
        )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_form_is_idempotent_and_first_of_the_readings(text in text()) {
        let form = identity(&text);
        prop_assert_eq!(identity(&form), form.clone(), "{:?}", text);
        let all = readings(&text);
        prop_assert_eq!(all.first(), Some(&form));
        for (i, reading) in all.iter().enumerate() {
            prop_assert!(!all[..i].contains(reading), "{:?} twice in {:?}", reading, all);
        }
        agrees_with_url(&text)?;
    }

    #[test]
    fn spellings_of_one_location_have_one_form((plain, written) in spelling()) {
        prop_assert_eq!(identity(&written), identity(&plain), "{:?}", written);
        agrees_with_url(&written)?;
    }
}

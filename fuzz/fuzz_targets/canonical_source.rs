//! Fuzzes the canonical form of a location (`skills_supply::canonical`),
//! which key pins are matched against: it never panics and is idempotent;
//! and on every `http(s)` URL the `url` crate accepts, its host is `url`'s
//! host after the module's documented decisions (trailing dots dropped,
//! this machine's addresses `127.0.0.1`, IPv4-mapped IPv6 as IPv4,
//! `www.github.com` as `github.com`), and the whole form is that of `url`'s
//! own normal form of the URL (so the path is `url`'s path after the
//! module's extra steps: unreserved percent-decoding, case, empty segments,
//! `.git`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_supply::canonical::identity;
use url::{Host, Url};

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let form = identity(text);
    assert_eq!(identity(&form), form, "not idempotent on {text:?}");
    let Ok(parsed) = Url::parse(text) else {
        return;
    };
    if !matches!(parsed.scheme(), "http" | "https") {
        return;
    }
    let Some(host) = parsed.host() else {
        return;
    };
    assert_eq!(host_of(&form), decided(host), "host of {text:?}");
    let port = parsed.port().map(|p| format!(":{p}")).unwrap_or_default();
    let shown = parsed.host_str().unwrap_or_default();
    let normal = format!("{}://{shown}{port}{}", parsed.scheme(), parsed.path());
    if !drive_letter_quirk(text, parsed.path()) {
        assert_eq!(
            form,
            identity(&normal),
            "{text:?} as url reads it: {normal:?}"
        );
    }
});

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

/// `url`'s host with the documented decisions applied.
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

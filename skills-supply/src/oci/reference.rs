//! `oci://host[:port]/repo/path[:tag][@sha256:hex]`: what names an artifact in
//! a registry, parsed strictly to the distribution spec's grammar (lowercase
//! path components joined by `.`, `_`, `__` or dashes; tags of at most 128
//! characters; `sha256` digests of 64 lowercase hex digits), so that a
//! reference either means one thing or is refused before any request.

use std::fmt;

use super::OciError;

/// Where an artifact lives: the registry's host (and port), the repository
/// path within it, and a tag, a digest or both (the digest wins for pulls).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// `host` or `host:port` (`[v6addr]:port` for IPv6), as written.
    pub registry: String,
    /// The repository path, e.g. `team/skills`.
    pub repository: String,
    /// The tag after `:`, if any.
    pub tag: Option<String>,
    /// The digest after `@`, `sha256:` and 64 lowercase hex digits, if any.
    pub digest: Option<String>,
}

/// The scheme every reference starts with.
const SCHEME: &str = "oci://";
/// The distribution spec's limit on a tag.
const TAG_MAX: usize = 128;
/// What most registries accept for a repository path (Docker's limit).
const REPOSITORY_MAX: usize = 255;

impl Reference {
    /// Parses `oci://host[:port]/repo/path:tag`, `…@sha256:<hex>` or both
    /// (`…:tag@sha256:<hex>`); a reference with neither tag nor digest is
    /// refused, so nothing is pulled from an implied `latest`.
    pub fn parse(text: &str) -> Result<Reference, OciError> {
        let bad = |why: &str| OciError::Reference {
            reference: text.to_owned(),
            why: why.to_owned(),
        };
        let rest = text
            .strip_prefix(SCHEME)
            .ok_or_else(|| bad("an OCI reference starts with `oci://`"))?;
        let (registry, path) = rest
            .split_once('/')
            .ok_or_else(|| bad("no repository after the registry host"))?;
        let (path, digest) = match path.split_once('@') {
            Some((path, digest)) => (path, Some(digest.to_owned())),
            None => (path, None),
        };
        let (repository, tag) = match path.split_once(':') {
            Some((repository, tag)) => (repository, Some(tag.to_owned())),
            None => (path, None),
        };
        let reference = Reference {
            registry: registry.to_owned(),
            repository: repository.to_owned(),
            tag,
            digest,
        };
        reference.check()?;
        Ok(reference)
    }

    /// Checks every field against the grammar (the fields are public, so a
    /// reference built by hand is checked before any request is made from it).
    pub fn check(&self) -> Result<(), OciError> {
        let bad = |why: String| OciError::Reference {
            reference: self.to_string(),
            why,
        };
        check_registry(&self.registry).map_err(bad)?;
        check_repository(&self.repository).map_err(bad)?;
        if let Some(tag) = &self.tag {
            check_tag(tag).map_err(bad)?;
        }
        if let Some(digest) = &self.digest {
            check_digest(digest).map_err(bad)?;
        }
        if self.tag.is_none() && self.digest.is_none() {
            return Err(bad(
                "no tag or digest: add `:TAG` or `@sha256:…` to the repository".to_owned(),
            ));
        }
        Ok(())
    }

    /// The tag or digest that names the manifest in `/v2/<repo>/manifests/<it>`:
    /// the digest when there is one ([`Reference::check`] ensures one of them).
    pub(crate) fn manifest_key(&self) -> &str {
        self.digest
            .as_deref()
            .or(self.tag.as_deref())
            .unwrap_or_default()
    }
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{SCHEME}{}/{}", self.registry, self.repository)?;
        if let Some(tag) = &self.tag {
            write!(f, ":{tag}")?;
        }
        if let Some(digest) = &self.digest {
            write!(f, "@{digest}")?;
        }
        Ok(())
    }
}

/// The host of `host[:port]`, brackets kept for IPv6.
fn host_of(registry: &str) -> &str {
    if registry.starts_with('[') {
        return registry.find(']').map_or(registry, |end| &registry[..=end]);
    }
    registry.split_once(':').map_or(registry, |(host, _)| host)
}

fn check_registry(registry: &str) -> Result<(), String> {
    let host = host_of(registry);
    let port = &registry[host.len()..];
    if let Some(v6) = host.strip_prefix('[') {
        let inner = v6.strip_suffix(']').unwrap_or(v6);
        if inner.parse::<std::net::Ipv6Addr>().is_err() {
            return Err(format!("`{host}` is not an IPv6 address"));
        }
    } else {
        let label_ok = |label: &str| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        };
        if host.is_empty() || host.len() > 253 || !host.split('.').all(label_ok) {
            return Err(format!("`{host}` is not a registry host name"));
        }
    }
    if !port.is_empty() {
        let digits = port.strip_prefix(':').unwrap_or(port);
        if !port.starts_with(':') || digits.parse::<u16>().map_or(true, |p| p == 0) {
            return Err(format!("`{port}` is not a port (`:1` to `:65535`)"));
        }
    }
    Ok(())
}

/// `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*` per component, components joined by `/`.
fn check_repository(repository: &str) -> Result<(), String> {
    if repository.is_empty() {
        return Err("no repository after the registry host".to_owned());
    }
    if repository.len() > REPOSITORY_MAX {
        return Err(format!(
            "the repository is {} characters; the limit is {REPOSITORY_MAX}",
            repository.len()
        ));
    }
    for component in repository.split('/') {
        if !component_ok(component) {
            return Err(format!(
                "repository component `{component}` must be lowercase letters and digits, \
                 separated by one `.`, one or two `_`, or dashes"
            ));
        }
    }
    Ok(())
}

fn component_ok(component: &str) -> bool {
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let bytes = component.as_bytes();
    let mut i = 0;
    loop {
        let start = i;
        while i < bytes.len() && alnum(bytes[i]) {
            i += 1;
        }
        if i == start {
            return false;
        }
        if i == bytes.len() {
            return true;
        }
        let sep_start = i;
        while i < bytes.len() && !alnum(bytes[i]) {
            i += 1;
        }
        let sep = &component[sep_start..i];
        if !(sep == "." || sep == "_" || sep == "__" || sep.bytes().all(|b| b == b'-')) {
            return false;
        }
    }
}

/// `[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}`.
fn check_tag(tag: &str) -> Result<(), String> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let ok = tag.len() <= TAG_MAX
        && tag.bytes().next().is_some_and(word)
        && tag.bytes().all(|b| word(b) || b == b'.' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "tag `{tag}` must be up to {TAG_MAX} letters, digits, `_`, `.` or `-`, \
             not starting with `.` or `-`"
        ))
    }
}

/// `sha256:` and 64 lowercase hex digits: the one algorithm registries and
/// this crate all compute.
pub(crate) fn check_digest(digest: &str) -> Result<(), String> {
    let hex = digest.strip_prefix("sha256:").ok_or_else(|| {
        format!("digest `{digest}` must be `sha256:` followed by 64 lowercase hex digits")
    })?;
    if hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(())
    } else {
        Err(format!(
            "digest `{digest}` must be `sha256:` followed by 64 lowercase hex digits"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn parses_tags_digests_and_ports() {
        let r = Reference::parse("oci://127.0.0.1:5000/team/skills:v1.2").unwrap();
        assert_eq!(r.registry, "127.0.0.1:5000");
        assert_eq!(r.repository, "team/skills");
        assert_eq!(r.tag.as_deref(), Some("v1.2"));
        assert!(r.digest.is_none());
        let text = format!("oci://ghcr.io/a.b/c__d/e--f:t@sha256:{HEX}");
        let r = Reference::parse(&text).unwrap();
        assert_eq!(r.manifest_key(), format!("sha256:{HEX}"));
        assert_eq!(r.to_string(), text);
        let r = Reference::parse("oci://[::1]:5000/x@sha256:".to_owned().as_str());
        assert!(r.is_err());
        let r = Reference::parse(&format!("oci://[::1]:5000/x@sha256:{HEX}")).unwrap();
        assert_eq!(r.registry, "[::1]:5000");
    }

    #[test]
    fn refuses_what_the_grammar_does_not_allow() {
        for bad in [
            "ghcr.io/a:b",
            "oci://ghcr.io",
            "oci://ghcr.io/",
            "oci://ghcr.io/a",
            "oci://ghcr.io/A:b",
            "oci://ghcr.io/a//b:c",
            "oci://ghcr.io/a..b:c",
            "oci://ghcr.io/a___b:c",
            "oci://ghcr.io/-a:c",
            "oci://ghcr.io/a:.c",
            "oci://ghcr.io/a:",
            "oci://ghcr.io:0/a:c",
            "oci://ghcr.io:99999/a:c",
            "oci://gh_cr.io/a:c",
            "oci://ghcr.io/a@sha256:ABC",
            "oci://ghcr.io/a@sha512:abc",
        ] {
            assert!(Reference::parse(bad).is_err(), "{bad}");
        }
        let long_tag = format!("oci://h/a:{}", "t".repeat(129));
        assert!(Reference::parse(&long_tag).is_err());
        let err = Reference::parse("oci://h/a").unwrap_err().to_string();
        assert!(err.contains("no tag or digest"), "{err}");
        let by_hand = Reference {
            registry: "h".into(),
            repository: "a/../b".into(),
            tag: Some("t".into()),
            digest: None,
        };
        assert!(by_hand.check().is_err());
    }
}

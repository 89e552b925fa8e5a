//! `file:` URIs, the protocol's names for documents, to paths and back:
//! percent-decoding and -encoding of the path, nothing else (a document
//! that is not a local file has no skill folder around it and gets no
//! diagnostics).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;

/// The local path `uri` names, when it is a `file:` URI whose path decodes
/// to text.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///p` (no host) or `file://localhost/p`.
    let path = match rest.strip_prefix("localhost") {
        Some(p) => p,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let decoded = decode(path)?;
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of `path`.
pub fn from_path(path: &Path) -> Option<Uri> {
    let text = path.to_str()?;
    let mut out = String::from("file://");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_spaces_and_non_ascii() {
        let path = Path::new("/tmp/my skills/café/SKILL.md");
        let uri = from_path(path);
        assert_eq!(
            uri.as_ref().map(|u| u.as_str()),
            Some("file:///tmp/my%20skills/caf%C3%A9/SKILL.md")
        );
        assert_eq!(uri.as_ref().and_then(to_path).as_deref(), Some(path));
        let other = Uri::from_str("untitled:Untitled-1").ok();
        assert_eq!(other.as_ref().and_then(to_path), None);
        let bad = Uri::from_str("file:///a%zz").ok();
        assert_eq!(bad.as_ref().and_then(to_path), None);
    }
}

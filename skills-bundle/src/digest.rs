//! Content hashes: one file's SHA-256, and the digest of a whole bundle.
//!
//! The bundle digest names the content, not the way it was stored: the same
//! skills give the same digest whether compiled into a binary or (later)
//! written to a pack, whatever the compression. It is the SHA-256 of this
//! canonical listing, UTF-8, one line per entry:
//!
//! ```text
//! skills-digest-v1
//! skill <qualified name>
//! file <sha256 hex> <mode 644|755> <size> <relative path>
//! ```
//!
//! with skills sorted by name and files by path (byte-wise), each `file` line
//! under its `skill` line.

use sha2::{Digest, Sha256};

/// SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// One file, as the digest sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DigestFile<'a> {
    /// Relative path.
    pub path: &'a str,
    /// Uncompressed size.
    pub size: u64,
    /// SHA-256 of the uncompressed bytes.
    pub sha256: &'a [u8; 32],
    /// Whether the file is executable.
    pub executable: bool,
}

/// The bundle digest (hex) of skills given as `(name, files)`; sorts both.
pub fn bundle_digest<'a>(
    skills: impl IntoIterator<Item = (&'a str, Vec<DigestFile<'a>>)>,
) -> String {
    let mut skills: Vec<(&str, Vec<DigestFile<'_>>)> = skills.into_iter().collect();
    skills.sort_by(|a, b| a.0.cmp(b.0));
    let mut h = Sha256::new();
    h.update(b"skills-digest-v1\n");
    for (name, mut files) in skills {
        files.sort_by(|a, b| a.path.cmp(b.path));
        h.update(format!("skill {name}\n").as_bytes());
        for f in files {
            let mode = if f.executable { 755 } else { 644 };
            h.update(format!("file {} {mode} {} {}\n", hex(f.sha256), f.size, f.path).as_bytes());
        }
    }
    hex(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_empty() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn digest_ignores_input_order() {
        let h = sha256(b"x");
        let f = |p| DigestFile {
            path: p,
            size: 1,
            sha256: &h,
            executable: false,
        };
        let a = bundle_digest([("b", vec![f("2"), f("1")]), ("a", vec![f("1")])]);
        let b = bundle_digest([("a", vec![f("1")]), ("b", vec![f("1"), f("2")])]);
        assert_eq!(a, b);
        assert_ne!(a, bundle_digest([("a", vec![f("1")])]));
    }
}

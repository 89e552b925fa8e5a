//! Content hashes: one file's SHA-256, and the digest of a whole bundle.
//!
//! The bundle digest names everything the runtime obeys, not the way it was
//! stored: each skill's metadata (the fields a pack's manifest carries) and
//! each file's content, mode and size. The same skills give the same digest
//! whether compiled into a binary or written to a pack, whatever the
//! compression; editing any field a runtime reads (a widened
//! `allowed-tools` rule, a moved body range) changes it. It is the SHA-256
//! of this canonical listing, UTF-8, one line per item, every text (names,
//! paths, keys, values, patterns) a JSON string literal (so no value can end its line or forge another) with
//! `"`, `\`, newline, return and tab escaped as `\"`, `\\`, `\n`, `\r`,
//! `\t`, other control characters as `\u00xx`, and nothing else:
//!
//! ```text
//! skills-digest-v2
//! skill <name>
//! description <text>
//! license <text or null>
//! compatibility <text or null>
//! metadata <key> <value>                  one line per pair, in order
//! allowed-tool <tool> <pattern or null>   one line per rule, in order
//! extension <key> <value>                 one line per key, in order
//! skill-md <path> <body start> <body end>
//! file <sha256 hex> <mode 644|755> <size> <path>
//! ```
//!
//! with skills sorted by name and files by path (byte-wise), each skill's
//! lines under its `skill` line. Version 1 (`skills-digest-v1`) listed the
//! `skill` and `file` lines only.

use sha2::{Digest, Sha256};

use crate::json::quote;

/// The listing's first line, which names the encoding.
pub const VERSION: &str = "skills-digest-v2";

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

/// One skill, as the digest sees it: every field the runtime reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestSkill<'a> {
    /// Qualified name.
    pub name: &'a str,
    /// Description.
    pub description: &'a str,
    /// `license`.
    pub license: Option<&'a str>,
    /// `compatibility`.
    pub compatibility: Option<&'a str>,
    /// `metadata` pairs, in order.
    pub metadata: &'a [(String, String)],
    /// `allowed-tools` rules: (tool, pattern), in order.
    pub allowed_tools: &'a [(String, Option<String>)],
    /// Keys outside the specification, values as JSON text, in order.
    pub extensions: &'a [(String, String)],
    /// The path of `SKILL.md` among the files.
    pub skill_md: &'a str,
    /// The body's byte range inside `SKILL.md`.
    pub body: (u32, u32),
    /// The files.
    pub files: Vec<DigestFile<'a>>,
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

/// The bundle digest (hex) of `skills`; sorts skills and files.
pub fn bundle_digest<'a>(skills: impl IntoIterator<Item = DigestSkill<'a>>) -> String {
    let mut skills: Vec<DigestSkill<'a>> = skills.into_iter().collect();
    skills.sort_by(|a, b| a.name.cmp(b.name));
    let mut h = Sha256::new();
    let mut line = |text: String| {
        h.update(text.as_bytes());
        h.update(b"\n");
    };
    line(VERSION.to_string());
    for mut s in skills {
        s.files.sort_by(|a, b| a.path.cmp(b.path));
        line(format!("skill {}", quote(s.name)));
        line(format!("description {}", quote(s.description)));
        line(format!("license {}", or_null(s.license)));
        line(format!("compatibility {}", or_null(s.compatibility)));
        for (k, v) in s.metadata {
            line(format!("metadata {} {}", quote(k), quote(v)));
        }
        for (tool, pattern) in s.allowed_tools {
            line(format!(
                "allowed-tool {} {}",
                quote(tool),
                or_null(pattern.as_deref())
            ));
        }
        for (k, v) in s.extensions {
            line(format!("extension {} {}", quote(k), quote(v)));
        }
        line(format!(
            "skill-md {} {} {}",
            quote(s.skill_md),
            s.body.0,
            s.body.1
        ));
        for f in s.files {
            let mode = if f.executable { 755 } else { 644 };
            line(format!(
                "file {} {mode} {} {}",
                hex(f.sha256),
                f.size,
                quote(f.path)
            ));
        }
    }
    hex(&h.finalize())
}

fn or_null(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_string(), quote)
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

    fn skill<'a>(name: &'a str, files: Vec<DigestFile<'a>>) -> DigestSkill<'a> {
        DigestSkill {
            name,
            description: "",
            license: None,
            compatibility: None,
            metadata: &[],
            allowed_tools: &[],
            extensions: &[],
            skill_md: "SKILL.md",
            body: (0, 0),
            files,
        }
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
        let a = bundle_digest([skill("b", vec![f("2"), f("1")]), skill("a", vec![f("1")])]);
        let b = bundle_digest([skill("a", vec![f("1")]), skill("b", vec![f("1"), f("2")])]);
        assert_eq!(a, b);
        assert_ne!(a, bundle_digest([skill("a", vec![f("1")])]));
    }

    #[test]
    fn the_listing_is_the_documented_text() {
        let h = sha256(b"#!/bin/sh\n");
        let metadata = [("k".to_string(), "v \"q\"\n".to_string())];
        let tools = [
            ("Bash".to_string(), Some("python3:*".to_string())),
            ("Read".to_string(), None),
        ];
        let extensions = [("model".to_string(), "\"x\"".to_string())];
        let calc = DigestSkill {
            description: "Adds. Use when adding.",
            license: Some("MIT"),
            metadata: &metadata,
            allowed_tools: &tools,
            extensions: &extensions,
            body: (40, 52),
            ..skill(
                "calc",
                vec![DigestFile {
                    path: "run.sh",
                    size: 10,
                    sha256: &h,
                    executable: true,
                }],
            )
        };
        let listing = format!(
            "skills-digest-v2\n\
             skill \"calc\"\n\
             description \"Adds. Use when adding.\"\n\
             license \"MIT\"\n\
             compatibility null\n\
             metadata \"k\" \"v \\\"q\\\"\\n\"\n\
             allowed-tool \"Bash\" \"python3:*\"\n\
             allowed-tool \"Read\" null\n\
             extension \"model\" \"\\\"x\\\"\"\n\
             skill-md \"SKILL.md\" 40 52\n\
             file {} 755 10 \"run.sh\"\n",
            hex(&h)
        );
        assert_eq!(bundle_digest([calc]), hex(&sha256(listing.as_bytes())));
    }

    /// Every field the runtime reads changes the digest, including an edit
    /// that tries to forge a line of its own.
    #[test]
    fn every_field_is_bound() {
        let h = sha256(b"x");
        let file = DigestFile {
            path: "SKILL.md",
            size: 1,
            sha256: &h,
            executable: false,
        };
        let pairs = [("k".to_string(), "v".to_string())];
        let narrow = [("Bash".to_string(), Some("python3:*".to_string()))];
        let wide = [("Bash".to_string(), None)];
        let base = DigestSkill {
            allowed_tools: &narrow,
            ..skill("a", vec![file])
        };
        let digest = |s: DigestSkill<'_>| bundle_digest([s]);
        let edits: Vec<(&str, DigestSkill<'_>)> = vec![
            (
                "name",
                DigestSkill {
                    name: "b",
                    ..base.clone()
                },
            ),
            (
                "description",
                DigestSkill {
                    description: "x",
                    ..base.clone()
                },
            ),
            (
                "license",
                DigestSkill {
                    license: Some(""),
                    ..base.clone()
                },
            ),
            (
                "compatibility",
                DigestSkill {
                    compatibility: Some("x"),
                    ..base.clone()
                },
            ),
            (
                "metadata",
                DigestSkill {
                    metadata: &pairs,
                    ..base.clone()
                },
            ),
            (
                "allowed-tools",
                DigestSkill {
                    allowed_tools: &wide,
                    ..base.clone()
                },
            ),
            (
                "extensions",
                DigestSkill {
                    extensions: &pairs,
                    ..base.clone()
                },
            ),
            (
                "skill_md",
                DigestSkill {
                    skill_md: "skill.md",
                    ..base.clone()
                },
            ),
            (
                "body start",
                DigestSkill {
                    body: (1, 0),
                    ..base.clone()
                },
            ),
            (
                "body end",
                DigestSkill {
                    body: (0, 1),
                    ..base.clone()
                },
            ),
            (
                "forged line",
                DigestSkill {
                    description: "\"\nlicense \"MIT",
                    ..base.clone()
                },
            ),
        ];
        let original = digest(base.clone());
        for (field, edited) in edits {
            assert_ne!(digest(edited), original, "{field}");
        }
    }
}

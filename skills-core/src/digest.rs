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
//! allow-implicit-invocation <true|false>  only when set
//! frontmatter <JSON text>                 only when not empty
//! file <sha256 hex> <mode 644|755> <size> <path>
//! ```
//!
//! with skills sorted by name and files by path (byte-wise), each skill's
//! lines under its `skill` line. Version 1 (`skills-digest-v1`) listed the
//! `skill` and `file` lines only.

use sha2::{Digest, Sha256};

use crate::json::quote;
use crate::meta::{FileMeta, SkillMeta};

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

/// The bundle digest (hex) of `skills`, each a skill's metadata and its
/// files; sorts skills by name and files by path.
pub fn bundle_digest<'a>(
    skills: impl IntoIterator<Item = (&'a SkillMeta, Vec<&'a FileMeta>)>,
) -> String {
    listing_digest(&bundle_listing(skills))
}

/// The canonical listing the bundle digest hashes, one line per item,
/// without line ends, the [`VERSION`] line first (see the module
/// documentation).
pub fn bundle_listing<'a>(
    skills: impl IntoIterator<Item = (&'a SkillMeta, Vec<&'a FileMeta>)>,
) -> Vec<String> {
    let mut skills: Vec<(&SkillMeta, Vec<&FileMeta>)> = skills.into_iter().collect();
    skills.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let mut lines = vec![VERSION.to_string()];
    let mut line = |text: String| lines.push(text);
    for (s, mut files) in skills {
        files.sort_by(|a, b| a.path.cmp(&b.path));
        line(format!("skill {}", quote(&s.name)));
        line(format!("description {}", quote(&s.description)));
        line(format!("license {}", or_null(s.license.as_deref())));
        line(format!(
            "compatibility {}",
            or_null(s.compatibility.as_deref())
        ));
        for (k, v) in s.metadata.iter() {
            line(format!("metadata {} {}", quote(k), quote(v)));
        }
        for (tool, pattern) in s.allowed_tools.iter() {
            line(format!(
                "allowed-tool {} {}",
                quote(tool),
                or_null(pattern.as_deref())
            ));
        }
        for (k, v) in s.extensions.iter() {
            line(format!("extension {} {}", quote(k), quote(v)));
        }
        line(format!(
            "skill-md {} {} {}",
            quote(&s.skill_md),
            s.body.0,
            s.body.1
        ));
        // Only when set: every digest of a skill without it is unchanged.
        if let Some(allow) = s.allow_implicit_invocation {
            line(format!("allow-implicit-invocation {allow}"));
        }
        // Likewise: a pack written before the field keeps its digest.
        if !s.frontmatter.is_empty() {
            line(format!("frontmatter {}", quote(&s.frontmatter)));
        }
        for f in files {
            line(file_line(&hex(&f.sha256), f.executable, f.size, &f.path));
        }
    }
    lines
}

/// One `file` line of a listing: `file <sha256> <mode> <size> <path>`.
pub fn file_line(sha256_hex: &str, executable: bool, size: u64, path: &str) -> String {
    let mode = if executable { 755 } else { 644 };
    format!("file {sha256_hex} {mode} {size} {}", quote(path))
}

/// SHA-256 (hex) of a listing's lines, each ended by a newline: what
/// [`bundle_digest`] returns for the skills `lines` lists.
pub fn listing_digest<S: AsRef<str>>(lines: &[S]) -> String {
    let mut h = Sha256::new();
    for l in lines {
        h.update(l.as_ref().as_bytes());
        h.update(b"\n");
    }
    hex(&h.finalize())
}

fn or_null(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_string(), quote)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::pairs;

    #[test]
    fn sha256_of_empty() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    fn skill(name: &'static str) -> SkillMeta {
        SkillMeta {
            name: name.into(),
            skill_md: "SKILL.md".into(),
            ..SkillMeta::default()
        }
    }

    fn file(path: &'static str, bytes: &[u8], executable: bool) -> FileMeta {
        FileMeta {
            path: path.into(),
            size: bytes.len() as u64,
            sha256: sha256(bytes),
            executable,
        }
    }

    #[test]
    fn digest_ignores_input_order() {
        let (a, b) = (skill("a"), skill("b"));
        let (one, two) = (file("1", b"x", false), file("2", b"x", false));
        let x = bundle_digest([(&b, vec![&two, &one]), (&a, vec![&one])]);
        let y = bundle_digest([(&a, vec![&one]), (&b, vec![&one, &two])]);
        assert_eq!(x, y);
        assert_ne!(x, bundle_digest([(&a, vec![&one])]));
    }

    #[test]
    fn the_listing_is_the_documented_text() {
        let run = file("run.sh", b"#!/bin/sh\n", true);
        let calc = SkillMeta {
            description: "Adds. Use when adding.".into(),
            license: Some("MIT".into()),
            metadata: pairs(vec![("k".into(), "v \"q\"\n".into())]),
            allowed_tools: vec![
                ("Bash".into(), Some("python3:*".into())),
                ("Read".into(), None),
            ]
            .into(),
            extensions: pairs(vec![("model".into(), "\"x\"".into())]),
            body: (40, 52),
            frontmatter: r#"{"name":"calc","model":"x"}"#.into(),
            ..skill("calc")
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
             frontmatter \"{{\\\"name\\\":\\\"calc\\\",\\\"model\\\":\\\"x\\\"}}\"\n\
             file {} 755 10 \"run.sh\"\n",
            hex(&run.sha256)
        );
        assert_eq!(
            bundle_digest([(&calc, vec![&run])]),
            hex(&sha256(listing.as_bytes()))
        );
    }

    /// Every field the runtime reads changes the digest, including an edit
    /// that tries to forge a line of its own.
    #[test]
    fn every_field_is_bound() {
        let md = file("SKILL.md", b"x", false);
        let base = SkillMeta {
            allowed_tools: vec![("Bash".into(), Some("python3:*".into()))].into(),
            ..skill("a")
        };
        let pairs = || pairs(vec![("k".into(), "v".into())]);
        let edits: Vec<(&str, SkillMeta)> = vec![
            (
                "name",
                SkillMeta {
                    name: "b".into(),
                    ..base.clone()
                },
            ),
            (
                "description",
                SkillMeta {
                    description: "x".into(),
                    ..base.clone()
                },
            ),
            (
                "license",
                SkillMeta {
                    license: Some("".into()),
                    ..base.clone()
                },
            ),
            (
                "compatibility",
                SkillMeta {
                    compatibility: Some("x".into()),
                    ..base.clone()
                },
            ),
            (
                "metadata",
                SkillMeta {
                    metadata: pairs(),
                    ..base.clone()
                },
            ),
            (
                "allowed-tools",
                SkillMeta {
                    allowed_tools: vec![("Bash".into(), None)].into(),
                    ..base.clone()
                },
            ),
            (
                "extensions",
                SkillMeta {
                    extensions: pairs(),
                    ..base.clone()
                },
            ),
            (
                "skill_md",
                SkillMeta {
                    skill_md: "skill.md".into(),
                    ..base.clone()
                },
            ),
            (
                "body start",
                SkillMeta {
                    body: (1, 0),
                    ..base.clone()
                },
            ),
            (
                "body end",
                SkillMeta {
                    body: (0, 1),
                    ..base.clone()
                },
            ),
            (
                "allow_implicit_invocation false",
                SkillMeta {
                    allow_implicit_invocation: Some(false),
                    ..base.clone()
                },
            ),
            (
                "allow_implicit_invocation true",
                SkillMeta {
                    allow_implicit_invocation: Some(true),
                    ..base.clone()
                },
            ),
            (
                "frontmatter",
                SkillMeta {
                    frontmatter: "{}".into(),
                    ..base.clone()
                },
            ),
            (
                "forged line",
                SkillMeta {
                    description: "\"\nlicense \"MIT".into(),
                    ..base.clone()
                },
            ),
        ];
        let original = bundle_digest([(&base, vec![&md])]);
        for (field, edited) in &edits {
            assert_ne!(bundle_digest([(edited, vec![&md])]), original, "{field}");
        }
        let exec = FileMeta {
            executable: true,
            ..md.clone()
        };
        assert_ne!(bundle_digest([(&base, vec![&exec])]), original, "mode");
    }
}

//! What an index holds: its entries, the names and constants of the format,
//! and the checks every entry passes, shared by the reader and the
//! publisher.

use skills_core::digest::{hex, sha256};

/// The `$schema` of a 0.2.0 index.
pub const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/// Where a site's index lives, under its root.
pub const WELL_KNOWN: &str = ".well-known/agent-skills";
/// The index's file name.
pub const INDEX_FILE: &str = "index.json";
/// The largest index read, in bytes: 8 MiB, checked before the index is
/// parsed (and while it downloads, whatever the download limit). The
/// largest index seen in the wild is a few hundred KiB; 8 MiB holds over
/// 30,000 entries with full descriptions.
pub const MAX_INDEX_BYTES: u64 = 8 << 20;
/// The most entries an index may have: 10,000 (a site publishes its own
/// skills; [`publish`](super::publish) writes one entry per skill).
pub const MAX_ENTRIES: usize = 10_000;
/// What an archive's signature adds to the archive's URL or file name.
pub const SIGNATURE_SUFFIX: &str = ".minisig";

/// A parsed index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    /// The `$schema` URI (always [`SCHEMA`] once parsed).
    pub schema: String,
    /// The entries, in the index's order.
    pub skills: Vec<Entry>,
}

/// One skill of an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The skill's name.
    pub name: String,
    /// What it does and when to use it.
    pub description: String,
    /// What the artifact is.
    pub kind: EntryKind,
    /// The artifact's URL as written (maybe relative: see [`entry_url`](super::entry_url)).
    pub url: String,
    /// `sha256:<hex>` of the artifact's bytes.
    pub digest: String,
    /// The version, when the publisher says (our own field).
    pub version: Option<String>,
}

/// An entry's `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// `skill-md`: the artifact is one `SKILL.md`.
    SkillMd,
    /// `archive`: a `.zip` or `.tar.gz` whose root is the skill's folder.
    Archive,
}

impl EntryKind {
    /// The `type` value.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::SkillMd => "skill-md",
            EntryKind::Archive => "archive",
        }
    }
}

/// The schema's name rule (the Agent Skills name rule).
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    if ok {
        Ok(())
    } else {
        Err(format!(
            "name `{}` breaks the rule: 1-64 of `a-z`, `0-9` and `-`, \
             no leading, trailing or doubled `-`",
            name.escape_debug()
        ))
    }
}

/// The schema's description rule.
pub(crate) fn check_description(description: &str) -> Result<(), String> {
    let n = description.chars().count();
    if n == 0 {
        Err("`description` is empty".into())
    } else if n > 1024 {
        Err(format!(
            "`description` is {n} characters; the limit is 1,024"
        ))
    } else {
        Ok(())
    }
}

/// `sha256:` and 64 lowercase hex digits.
pub(crate) fn check_digest(digest: &str) -> Result<(), String> {
    let ok = digest.strip_prefix("sha256:").is_some_and(|h| {
        h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`digest` `{}` is not `sha256:` and 64 lowercase hex digits",
            digest.escape_debug()
        ))
    }
}

/// `sha256:<hex>` of `bytes`, as an index writes it.
pub fn digest_of(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&sha256(bytes)))
}

//! What `skills_bundle!` expands to refers to these, and nothing else.
//!
//! Not public API: the generated code builds these statics through public
//! fields, and the paths may change in any release.

#![doc(hidden)]

pub use phf;
pub use std::sync::OnceLock;

pub use crate::file::Cached;
#[cfg(feature = "macros")]
pub use skills_macros::skills_bundle;

/// A compiled bundle.
#[derive(Debug)]
pub struct BundleData {
    /// Skills, sorted by name.
    pub skills: &'static [SkillData],
    /// Name → index into `skills`.
    pub index: phf::Map<&'static str, u32>,
    /// The `<available_skills>` block.
    pub catalog: &'static str,
    /// The bundle digest (hex).
    pub digest: &'static str,
    /// One lazily filled slot per compressed file (`FileData::slot`).
    pub cache: &'static [OnceLock<Cached>],
}

/// One compiled skill.
#[derive(Debug)]
pub struct SkillData {
    /// Name (`plugin:skill` inside a plugin).
    pub name: &'static str,
    /// Description, stripped.
    pub description: &'static str,
    /// `license`.
    pub license: Option<&'static str>,
    /// `compatibility`.
    pub compatibility: Option<&'static str>,
    /// `metadata` pairs, values as strings.
    pub metadata: &'static [(&'static str, &'static str)],
    /// `allowed-tools`, split: (tool, pattern).
    pub allowed_tools: &'static [(&'static str, Option<&'static str>)],
    /// Keys outside the specification (profile `claude-code`), values as JSON.
    pub extensions: &'static [(&'static str, &'static str)],
    /// The source directory, relative to the crate that compiled it.
    pub source_dir: &'static str,
    /// Files, sorted by path.
    pub files: &'static [FileData],
    /// Path → index into `files`.
    pub paths: phf::Map<&'static str, u32>,
    /// Index of `SKILL.md` in `files`.
    pub skill_md: u32,
    /// Byte range of the body inside `SKILL.md`.
    pub body: (u32, u32),
}

/// One compiled file.
#[derive(Debug)]
pub struct FileData {
    /// Relative path, `/`-separated.
    pub path: &'static str,
    /// The stored bytes: raw deflate when `deflated`, else the file itself.
    pub stored: &'static [u8],
    /// Whether `stored` is raw deflate.
    pub deflated: bool,
    /// Uncompressed size.
    pub size: u64,
    /// SHA-256 of the uncompressed bytes.
    pub sha256: [u8; 32],
    /// Whether the file is executable.
    pub executable: bool,
    /// Cache slot in `BundleData::cache` (deflated files only).
    pub slot: u32,
}

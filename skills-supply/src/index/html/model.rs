//! What a browsable page shows of one skill: the model [`read_site`](super::read_site)
//! fills from the published folder and the caller completes, and
//! [`render`](super::render) writes.

use std::path::PathBuf;

use skills_core::lock::FindingCounts;

/// The file name of every page.
pub const PAGE_FILE: &str = "index.html";

/// One skill as its page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillPage {
    /// The skill's name, as in the index.
    pub name: String,
    /// Its description, as in the index.
    pub description: String,
    /// Its published versions, newest first; empty for an entry with no
    /// version folder.
    pub versions: Vec<String>,
    /// The site index's `digest` of the newest artifact.
    pub digest: String,
    /// The key id of the newest version's signature, when signed.
    pub key_id: Option<String>,
    /// The newest version's files, with their sizes, sorted by path.
    pub files: Vec<(String, u64)>,
    /// What the scanner found in them, when the caller scanned them.
    pub scan: Option<ScanSummary>,
    /// The Claude Code plugin the skill was published from, if any.
    pub plugin: Option<PluginSource>,
}

/// A scan's summary, for a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanSummary {
    /// The scanner and its version (`skills-scan 0.3.0`).
    pub engine: String,
    /// Findings per severity.
    pub counts: FindingCounts,
    /// Each rule reported: its code, its severity and how many times,
    /// sorted by severity (highest first), then code.
    pub rules: Vec<(String, String, usize)>,
}

/// A plugin in a Claude Code marketplace: what `/plugin install` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginSource {
    /// The plugin's name.
    pub plugin: String,
    /// The marketplace's name.
    pub marketplace: String,
}

/// A page's file: its path below the well-known folder and its bytes.
pub type PageFile = (PathBuf, Vec<u8>);

/// An archive's files: each path, `/`-separated, with its bytes.
pub type ArchiveFiles = Vec<(String, Vec<u8>)>;

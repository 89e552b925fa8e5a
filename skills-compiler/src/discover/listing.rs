//! What discovery and [`files`](crate::files) share about a directory's
//! entries: sorted listings ([`list_dir`]), the names of the layouts
//! (`.claude-plugin`, `SKILL.md`) and the names the walk skips.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use skills_core::listing::Listing;

use crate::diag::{Code, Diagnostic, Severity};

pub(super) const MANIFEST_DIR: &str = ".claude-plugin";
pub(super) const PLUGIN_JSON: &str = "plugin.json";
pub(super) const MARKETPLACE_JSON: &str = "marketplace.json";
pub(super) const DEFAULT_SKILLS_DIR: &str = "skills";
/// Directory names the walk never enters (besides hidden ones).
pub(super) const SKIPPED_DIRS: &[&str] = &["node_modules", "__pycache__", "target"];
/// The largest manifest read, in bytes.
pub(super) const MAX_MANIFEST_BYTES: u64 = 1 << 20;
/// How deeply JSON arrays and objects may nest in a manifest.
pub(super) const MAX_JSON_DEPTH: usize = 64;

pub(crate) use skills_core::listing::EntryKind;

/// One directory entry.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) name: OsString,
    pub(crate) path: PathBuf,
    pub(crate) kind: EntryKind,
}

/// The entries of `dir`, sorted byte-wise by name. An unreadable directory
/// is an `SK005` warning and has none.
pub(crate) fn list_dir(dir: &Path, diags: &mut Vec<Diagnostic>) -> Vec<Entry> {
    read_listing(dir, Listing::read(dir), diags)
        .map(|listing| entries(dir, &listing))
        .unwrap_or_default()
}

/// `listing`, the listing of `dir`, or its error as an `SK005` warning.
pub(crate) fn read_listing<'a>(
    dir: &Path,
    listing: io::Result<Listing<'a>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Listing<'a>> {
    listing
        .map_err(|e| {
            diags.push(Diagnostic::new(
                Code::Io,
                Severity::Warning,
                dir,
                format!("cannot read directory `{}`: {e}", dir.display()),
            ));
        })
        .ok()
}

/// The entries of `listing`, the listing of `dir`, in its order.
pub(crate) fn entries(dir: &Path, listing: &Listing<'_>) -> Vec<Entry> {
    listing
        .entries()
        .iter()
        .map(|(name, kind)| Entry {
            path: dir.join(name),
            name: name.clone(),
            kind: *kind,
        })
        .collect()
}

/// Whether `dir` holds `SKILL.md` (or `skill.md`) and no plugin manifest:
/// rule 3 without listing the directory.
pub(super) fn is_plain_skill(dir: &Path) -> bool {
    let exists = |rel: &str| fs::symlink_metadata(dir.join(rel)).is_ok();
    (exists("SKILL.md") || exists("skill.md")) && !exists(".claude-plugin")
}

pub(super) fn has_entry(entries: &[Entry], name: &str) -> bool {
    entries.iter().any(|e| e.name == name)
}

pub(super) fn has_skill_md(entries: &[Entry]) -> bool {
    has_entry(entries, "SKILL.md") || has_entry(entries, "skill.md")
}

/// Whether the walk leaves a directory of this name alone.
pub(super) fn is_skipped(name: &OsStr) -> bool {
    let bytes = name.as_encoded_bytes();
    bytes.starts_with(b".") || SKIPPED_DIRS.iter().any(|s| s.as_bytes() == bytes)
}

/// Whether the path's file name is `skill.md` in any letter case.
pub(super) fn is_skill_md_name(path: &Path) -> bool {
    path.file_name()
        .and_then(OsStr::to_str)
        .is_some_and(|n| n.to_lowercase() == "skill.md")
}

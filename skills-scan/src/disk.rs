//! Scanning a skill folder on the disk: every regular file below it, links
//! never followed, each read with the size bound the scan allows (a larger
//! file only as far as telling binary data from text needs).
//!
//! What is not read (a link, a fifo or device, a name that is not UTF-8, a
//! folder nested too deep, a file that could not be read) is listed as not
//! scanned and reported (`SK643`): an agent reading the folder may read it.
//! `.git` is not walked: version-control data, written by the tool that
//! cloned the folder, is never skill content.
//!
//! A plugin, a marketplace or a project with agent settings is scanned the
//! same way ([`is_plugin_root`]); when the folder holds no `SKILL.md`, the
//! skills and plugins below it are left to their own scans, as each is
//! installed and loaded on its own.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use skills_core::fsread::{Dir, read_open};
use skills_core::listing::{EntryKind, Listing};

use crate::engine::{HEAD, Input};
use crate::{Options, Report};

/// The most files one skill folder may hold for a scan.
const MAX_FILES: usize = 10_000;
/// How deep folders may nest below the skill.
const MAX_DEPTH: usize = 32;

/// A skill folder that could not be scanned.
#[derive(Debug)]
pub struct ScanError {
    path: PathBuf,
    error: io::Error,
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot scan `{}`: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for ScanError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Files whose presence makes a folder a plugin, a marketplace or a
/// project whose agent runs commands of its own (hooks, MCP servers).
const PLUGIN_MARKERS: [&str; 8] = [
    ".claude-plugin/plugin.json",
    ".claude-plugin/marketplace.json",
    ".mcp.json",
    "hooks/hooks.json",
    "gemini-extension.json",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".cursor/mcp.json",
];

/// Whether `dir` is a plugin or a marketplace (Claude Code's
/// `.claude-plugin/`, a Gemini extension), or holds MCP servers or hooks
/// an agent starts by itself (`.mcp.json`, `hooks/hooks.json`, a
/// project's `.claude/settings.json`): scanned as a skill is, even without
/// a `SKILL.md`, since its attack may be only in those files.
pub fn is_plugin_root(dir: &Path) -> bool {
    PLUGIN_MARKERS.iter().any(|m| {
        std::fs::symlink_metadata(dir.join(m)).is_ok_and(|meta| !meta.file_type().is_dir())
    })
}

/// Whether `dir` holds an entry named `SKILL.md` in any letter case.
fn holds_skill_md(dir: &Path) -> bool {
    Listing::read(dir).is_ok_and(|l| {
        l.entries().iter().any(|(name, kind)| {
            *kind != EntryKind::Dir
                && name
                    .to_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"))
        })
    })
}

/// Scans the skill folder at `dir`: every regular file below it, each
/// read without following links and with `options.max_file_bytes` as its
/// bound; what is not read is reported (see the module's documentation).
/// A folder without a `SKILL.md` (a plugin, a marketplace) is scanned
/// without the skills and plugins below it.
pub fn scan_dir(dir: &Path, options: &Options) -> Result<Report, ScanError> {
    let fail = |error| ScanError {
        path: dir.to_path_buf(),
        error,
    };
    let root = Dir::open(dir).map_err(fail)?;
    let mut paths = Vec::new();
    let mut unread = Vec::new();
    let nested = !holds_skill_md(dir);
    walk(dir, "", 0, nested, &mut paths, &mut unread).map_err(fail)?;
    let mut contents = Vec::with_capacity(paths.len());
    for rel in paths {
        match read(&root, &rel, options.max_file_bytes) {
            Ok((bytes, size)) => contents.push((rel, bytes, size)),
            Err(e) => unread.push((rel, e)),
        }
    }
    let files: Vec<Input<'_>> = contents
        .iter()
        .map(|(path, bytes, size)| Input {
            path,
            bytes,
            size: *size,
        })
        .collect();
    let mut report = crate::engine::scan_inputs(&files, options, unread);
    report.skipped.sort();
    Ok(report)
}

/// The file at `rel` and its size: whole when it is within `limit`, else
/// its first [`HEAD`] bytes.
fn read(root: &Dir, rel: &str, limit: u64) -> Result<(Vec<u8>, u64), String> {
    let (mut file, meta) = root
        .open_file(Path::new(rel))
        .map_err(|e| format!("not read: {}", e.reason))?;
    let size = meta.len();
    if size > limit {
        let mut head = Vec::with_capacity(HEAD);
        file.take(HEAD as u64)
            .read_to_end(&mut head)
            .map_err(|e| format!("not read: {e}"))?;
        return Ok((head, size));
    }
    let bytes = read_open(&mut file, &meta, limit).map_err(|e| format!("not read: {e}"))?;
    let size = bytes.len() as u64;
    Ok((bytes, size))
}

/// Lists the files below `base/rel`; `nested`: leaving out the folders
/// scanned on their own (skills, plugins).
fn walk(
    base: &Path,
    rel: &str,
    depth: usize,
    nested: bool,
    out: &mut Vec<String>,
    skipped: &mut Vec<(String, String)>,
) -> io::Result<()> {
    let here = if rel.is_empty() {
        base.to_path_buf()
    } else {
        base.join(rel)
    };
    let listing = Listing::read(&here)?;
    for (name, kind) in listing.entries() {
        let Some(name) = name.to_str() else {
            skipped.push((
                format!("{rel}/{}", name.to_string_lossy()),
                "a name that is not UTF-8, not read".into(),
            ));
            continue;
        };
        let path = if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        };
        match kind {
            EntryKind::File => {
                if out.len() >= MAX_FILES {
                    return Err(io::Error::other(format!("more than {MAX_FILES} files")));
                }
                out.push(path);
            }
            EntryKind::Dir if name == ".git" => {}
            EntryKind::Dir
                if nested && {
                    let sub = base.join(&path);
                    holds_skill_md(&sub) || is_plugin_root(&sub)
                } => {}
            EntryKind::Dir if depth < MAX_DEPTH => {
                walk(base, &path, depth + 1, nested, out, skipped)?;
            }
            EntryKind::Dir => skipped.push((
                path,
                format!("a folder nested deeper than {MAX_DEPTH} folders, not read"),
            )),
            EntryKind::Symlink => skipped.push((
                path,
                "a symbolic link, not followed: what it points at was not read".into(),
            )),
            EntryKind::Other => skipped.push((
                path,
                "not a regular file (a fifo, socket or device), not read".into(),
            )),
        }
    }
    Ok(())
}

//! The browsable pages of a published index: `index.html` beside the site
//! index and `<name>/index.html` beside each skill's version folders,
//! rebuilt from what the folder holds after [`publish`](super::publish).
//!
//! What a page shows is read back from the published files, not from the
//! publication that wrote them, so a page never disagrees with the index
//! and a skill published by an earlier run keeps its page: the versions
//! are the version folders, the files and the signer's key id come from
//! the newest version's archive and `.minisig`. Two things a folder cannot
//! say come from the caller: the scan summary (the caller scans the files
//! [`read_site`] returns) and the Claude Code plugin a skill came from.
//! An entry of the index with no version folder (kept from a hand-written
//! index) is listed with its description only.
//!
//! The pages are plain HTML with their style inline and no external
//! resource; a Content-Security-Policy allows only that style and the one
//! small script (both by hash), which adds a filter box: without it, the
//! index is grouped by first letter with a letter list to jump from, and
//! every page works. The same input gives the same bytes. Markup and
//! escaping are in `page.rs`.

use std::path::{Path, PathBuf};

use skills_core::pack::signature::{MAX_SIGNATURE_FILE, signature_key_id};
use skills_core::zip::{Archive, Kind, Limits};

use super::publish::{archive_path, existing, signature_path, sorted_dirs, write_atomic};
use super::{INDEX_FILE, Index, IndexError, WELL_KNOWN, version};

mod model;
mod page;

pub use model::{ArchiveFiles, PAGE_FILE, PageFile, PluginSource, ScanSummary, SkillPage};
pub use page::render;

/// The most a zip adds to each entry's bytes, for the bound on an archive
/// read back: its local and central headers with a name of up to 255
/// bytes, rounded up.
const ENTRY_OVERHEAD: u64 = 1024;

/// The pages of `index` (the site index [`publish`](super::publish)
/// returned) as the folder `out_dir` holds them, each with the newest
/// archive's files (path and bytes) for the caller to scan. Archives are
/// read within `limits`; one that is not a zip we accept is an error.
pub fn read_site(
    out_dir: &Path,
    index: &Index,
    limits: &Limits,
) -> Result<Vec<(SkillPage, ArchiveFiles)>, IndexError> {
    let root = out_dir.join(WELL_KNOWN);
    let mut pages = Vec::with_capacity(index.skills.len());
    for entry in &index.skills {
        let dir = root.join(&entry.name);
        let versions = versions_of(&dir)?;
        let mut page = SkillPage {
            name: entry.name.clone(),
            description: entry.description.clone(),
            versions,
            digest: entry.digest.clone(),
            key_id: None,
            files: Vec::new(),
            scan: None,
            plugin: None,
        };
        let mut contents = Vec::new();
        if let Some(newest) = page.versions.first() {
            let archive = archive_path(out_dir, &entry.name, newest);
            let most = limits
                .max_total_size
                .saturating_add(limits.max_entries as u64 * ENTRY_OVERHEAD);
            if let Some(bytes) = bounded(&archive, most)? {
                contents = archive_files(&archive, &bytes, limits)?;
                page.files = contents
                    .iter()
                    .map(|(p, b)| (p.clone(), b.len() as u64))
                    .collect();
            }
            let sig = signature_path(out_dir, &entry.name, newest);
            page.key_id = bounded(&sig, MAX_SIGNATURE_FILE)?
                .and_then(|b| String::from_utf8(b).ok())
                .and_then(|s| signature_key_id(&s));
        }
        pages.push((page, contents));
    }
    Ok(pages)
}

/// Writes `files` (from [`render`]) under `out_dir`'s well-known folder,
/// each through a temporary file, skipping those already as they would be
/// written. Returns the paths written and those unchanged.
pub fn write_pages(
    out_dir: &Path,
    files: &[PageFile],
) -> Result<(Vec<PathBuf>, Vec<PathBuf>), IndexError> {
    let root = out_dir.join(WELL_KNOWN);
    let mut written = Vec::new();
    let mut unchanged = Vec::new();
    for (rel, bytes) in files {
        let path = root.join(rel);
        if existing(&path)?.as_deref() == Some(bytes.as_slice()) {
            unchanged.push(path);
        } else {
            write_atomic(&path, bytes, true)?;
            written.push(path);
        }
    }
    Ok((written, unchanged))
}

/// A file's bytes when it is at most `most` bytes long (checked before
/// it is read); `None` when there is none; an error naming it when larger.
fn bounded(path: &Path, most: u64) -> Result<Option<Vec<u8>>, IndexError> {
    let io = |source| IndexError::Io {
        path: path.to_path_buf(),
        source,
    };
    match std::fs::metadata(path) {
        Ok(meta) if meta.len() > most => Err(IndexError::Publication {
            name: path.display().to_string(),
            message: format!(
                "{} bytes: over the {most} read back for its page",
                meta.len()
            ),
        }),
        Ok(_) => existing(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(e)),
    }
}

/// The versions published under a skill's folder (those with a version
/// index), newest first.
fn versions_of(dir: &Path) -> Result<Vec<String>, IndexError> {
    let io = |source| IndexError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut versions: Vec<String> = sorted_dirs(dir)
        .map_err(io)?
        .iter()
        .filter(|v| v.join(INDEX_FILE).is_file())
        .filter_map(|v| v.file_name().and_then(|n| n.to_str()).map(str::to_string))
        .filter(|v| version::check(v).is_ok())
        .collect();
    versions.sort_by(|a, b| version::compare(b, a));
    Ok(versions)
}

/// The files of a published archive, sorted by path.
fn archive_files(path: &Path, bytes: &[u8], limits: &Limits) -> Result<ArchiveFiles, IndexError> {
    let bad = |e: skills_core::zip::ZipError| IndexError::Publication {
        name: path.display().to_string(),
        message: format!("the published archive is not a zip we accept: {e}"),
    };
    let archive = Archive::parse(bytes, limits).map_err(bad)?;
    let mut files = Vec::new();
    for entry in archive.entries() {
        if matches!(entry.kind, Kind::Dir) {
            continue;
        }
        files.push((entry.path().to_string(), entry.read(bytes).map_err(bad)?));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(files)
}

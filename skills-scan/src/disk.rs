//! Scanning a skill folder on the disk: every regular file below it, links
//! never followed, each read with the size bound the scan allows.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use skills_core::fsread::Dir;
use skills_core::listing::{EntryKind, Listing};

use crate::{Options, Report, SkillFile};

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

/// Scans the skill folder at `dir`: every regular file below it (links,
/// fifos and devices are skipped and reported as skipped), each read without
/// following links and with `options.max_file_bytes` as its bound.
pub fn scan_dir(dir: &Path, options: &Options) -> Result<Report, ScanError> {
    let fail = |error| ScanError {
        path: dir.to_path_buf(),
        error,
    };
    let root = Dir::open(dir).map_err(fail)?;
    let mut paths = Vec::new();
    let mut skipped = Vec::new();
    walk(dir, "", 0, &mut paths, &mut skipped).map_err(fail)?;
    let mut contents = Vec::with_capacity(paths.len());
    for rel in paths {
        match root.read(Path::new(&rel), options.max_file_bytes) {
            Ok(bytes) => contents.push((rel, bytes)),
            Err(e) => skipped.push((rel, e.to_string())),
        }
    }
    let files: Vec<SkillFile<'_>> = contents
        .iter()
        .map(|(path, bytes)| SkillFile { path, bytes })
        .collect();
    let mut report = crate::scan(&files, options);
    report.skipped.extend(skipped);
    report.skipped.sort();
    Ok(report)
}

fn walk(
    base: &Path,
    rel: &str,
    depth: usize,
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
                "a name that is not UTF-8".into(),
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
            EntryKind::Dir if depth < MAX_DEPTH => walk(base, &path, depth + 1, out, skipped)?,
            EntryKind::Dir => {
                skipped.push((path, format!("nested deeper than {MAX_DEPTH} folders")))
            }
            other => skipped.push((path, format!("not a regular file ({other:?})"))),
        }
    }
    Ok(())
}

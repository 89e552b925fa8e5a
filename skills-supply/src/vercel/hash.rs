//! Vercel's `computedHash` of a skill folder, reproduced byte for byte.
//!
//! What the CLI hashes: every regular file below the folder, found by a walk
//! that does not follow symbolic links (a link, to a file or a directory, is
//! left out, as are fifos and devices) and skips every directory named
//! `.git` or `node_modules` at any depth. The files are ordered by their
//! paths relative to the folder, `/`-separated, compared as JavaScript's
//! `localeCompare` does: ICU's collation for the machine's locale, which is
//! the root collation for `en-US`, `C` and most locales (`ICU4X`'s collator
//! here). Then one SHA-256 over, for each file in turn, its relative path in
//! UTF-8 followed by its bytes, with no separator, in lowercase hex.
//!
//! Two paths the collation calls equal (they differ only by characters it
//! ignores, such as control characters, or by Unicode normalization) keep
//! the CLI's order of discovery, which depends on its reads' timing: here
//! they fall back to the order of their bytes. A machine whose locale
//! tailors the collation (Swedish: `å` after `z`) may get another hash from
//! the CLI for names outside ASCII.
//!
//! The walk is bounded ([`MAX_FILES`], [`MAX_TOTAL_BYTES`], [`MAX_DEPTH`]),
//! opens every directory and file below the folder through
//! [`skills_core::fsread::Dir`], which refuses a link swapped in after the
//! listing, and hashes one file at a time.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use icu_collator::options::CollatorOptions;
use icu_collator::{CollatorBorrowed, CollatorPreferences};
use sha2::{Digest, Sha256};
use skills_core::fsread::Dir;
use skills_core::listing::{EntryKind, Listing};

use super::VercelError;

/// The most files a hashed folder may hold.
pub const MAX_FILES: usize = 10_000;
/// The most bytes its files may hold together.
pub const MAX_TOTAL_BYTES: u64 = 256 << 20;
/// The deepest directory below it that is walked.
pub const MAX_DEPTH: usize = 64;

/// Directory names the CLI's walk skips at any depth.
const SKIPPED_DIRS: [&str; 2] = [".git", "node_modules"];

/// The `computedHash` Vercel's CLI records for the folder `skill_dir`.
pub fn computed_hash(skill_dir: &Path) -> Result<String, VercelError> {
    let dir = Dir::open(skill_dir).map_err(|source| VercelError::List {
        path: skill_dir.to_path_buf(),
        source,
    })?;
    hash_open(&dir)
}

/// [`computed_hash`] of a folder the caller opened (below a project's root,
/// without following a link).
pub(super) fn hash_open(dir: &Dir) -> Result<String, VercelError> {
    let skill_dir = dir.path();
    let mut files = Vec::new();
    walk(dir, String::new(), 0, &mut files)?;
    // No file-name-dependent tailoring: the default preferences are the root.
    let collator =
        CollatorBorrowed::try_new(CollatorPreferences::default(), CollatorOptions::default())
            .map_err(|e| VercelError::Collator(e.to_string()))?;
    files.sort_by(|a, b| match collator.compare(a, b) {
        Ordering::Equal => a.as_bytes().cmp(b.as_bytes()),
        other => other,
    });
    let mut hash = Sha256::new();
    let mut left = MAX_TOTAL_BYTES;
    for rel in &files {
        let bytes = dir.read(Path::new(rel), left).map_err(|e| match e.reason {
            skills_core::fsread::Reason::TooLarge { .. } => too_large(
                skill_dir,
                format!("its files hold more than {MAX_TOTAL_BYTES} bytes together"),
            ),
            _ => VercelError::Read(e),
        })?;
        // `read` stopped at `left`, so this cannot go below zero.
        left = left.saturating_sub(bytes.len() as u64);
        hash.update(rel.as_bytes());
        hash.update(&bytes);
    }
    Ok(skills_core::digest::hex(&hash.finalize()))
}

/// Adds the regular files below `rel` (`""` for the folder itself) to
/// `files`, as `/`-separated paths relative to the folder.
fn walk(dir: &Dir, rel: String, depth: usize, files: &mut Vec<String>) -> Result<(), VercelError> {
    if depth > MAX_DEPTH {
        return Err(too_large(
            dir.path(),
            format!("`{rel}` is more than {MAX_DEPTH} directories deep"),
        ));
    }
    let here = dir.path().join(&rel);
    // Below the folder, each directory is opened without following a link
    // (the listing said "directory"; a link swapped in since is refused).
    let sub;
    let listing = if rel.is_empty() {
        Listing::of(dir)
    } else {
        sub = dir.open_dir(Path::new(&rel)).map_err(VercelError::Read)?;
        Listing::of(&sub)
    }
    .map_err(|source| VercelError::List {
        path: here.clone(),
        source,
    })?;
    for (name, kind) in listing.entries() {
        let Some(name) = name.to_str() else {
            return Err(VercelError::NonUtf8 {
                path: here.join(name),
            });
        };
        let path = if rel.is_empty() {
            name.to_owned()
        } else {
            format!("{rel}/{name}")
        };
        match kind {
            EntryKind::Dir if SKIPPED_DIRS.contains(&name) => {}
            EntryKind::Dir => walk(dir, path, depth + 1, files)?,
            EntryKind::File => {
                if files.len() >= MAX_FILES {
                    return Err(too_large(
                        dir.path(),
                        format!("it holds more than {MAX_FILES} files"),
                    ));
                }
                files.push(path);
            }
            EntryKind::Symlink | EntryKind::Other => {}
        }
    }
    Ok(())
}

fn too_large(path: &Path, what: String) -> VercelError {
    VercelError::TooLarge {
        path: PathBuf::from(path),
        what,
    }
}

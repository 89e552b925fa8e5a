//! The symbolic-link policy of discovery and of [`files`](crate::files):
//! a link is followed only inside a boundary (a skill's or a root's
//! canonical directory), dangling links are `SK005`, escaping ones `SK008`.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic, Severity};

/// Where a followed symbolic link leads.
#[derive(Debug)]
pub(crate) enum Target {
    /// A directory; its canonical path.
    Dir(PathBuf),
    /// A regular file: its canonical path and metadata.
    File(PathBuf, fs::Metadata),
    /// Something else (fifo, socket, device): its canonical path.
    Other(PathBuf),
}

/// Warning `SK005` for a link that cannot be followed: dangling (naming
/// where it points) or unreadable.
pub(crate) fn unfollowable_link(link: &Path, e: &io::Error) -> Diagnostic {
    let message = match (e.kind(), fs::read_link(link)) {
        (io::ErrorKind::NotFound, Ok(to)) => format!(
            "symbolic link `{}` points to `{}`, which does not exist; it was skipped",
            link.display(),
            to.display()
        ),
        _ => format!(
            "cannot follow symbolic link `{}`: {e}; it was skipped",
            link.display()
        ),
    };
    Diagnostic::new(Code::Io, Severity::Warning, link, message)
        .help("remove the link or restore its target")
}

/// Follows the link at `link` if its target stays inside `boundary`
/// (canonical). Dangling links give `SK005`, escaping ones `SK008`; both
/// return `None`. With `dirs_only`, links to anything but a directory return
/// `None` without a diagnostic.
pub(crate) fn follow_link(
    link: &Path,
    boundary: &Path,
    boundary_shown: &Path,
    dirs_only: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Target> {
    let canon = match fs::canonicalize(link) {
        Ok(canon) => canon,
        Err(e) => {
            diags.push(unfollowable_link(link, &e));
            return None;
        }
    };
    let meta = match fs::metadata(&canon) {
        Ok(meta) => meta,
        Err(e) => {
            diags.push(Diagnostic::new(
                Code::Io,
                Severity::Warning,
                link,
                format!(
                    "cannot read `{}`, the target of `{}`: {e}",
                    canon.display(),
                    link.display()
                ),
            ));
            return None;
        }
    };
    if dirs_only && !meta.is_dir() {
        return None;
    }
    if !canon.starts_with(boundary) {
        diags.push(
            Diagnostic::new(
                Code::SymlinkEscape,
                Severity::Warning,
                link,
                format!(
                    "symbolic link `{}` points to `{}`, outside `{}`; it was not followed",
                    link.display(),
                    canon.display(),
                    boundary_shown.display()
                ),
            )
            .help("copy the target inside instead of linking to it"),
        );
        return None;
    }
    Some(if meta.is_dir() {
        Target::Dir(canon)
    } else if meta.is_file() {
        Target::File(canon, meta)
    } else {
        Target::Other(canon)
    })
}

/// The canonical path of `base` joined with `parts` (plain names), given
/// `base`'s canonical path `base_canon`: one `lstat` per part while none is
/// a link, and `fs::canonicalize` (a `readlink` per component of the whole
/// path) only once one is. Errors as `fs::canonicalize` gives them.
pub(crate) fn canonical_below<P: AsRef<Path>>(
    base: &Path,
    base_canon: &Path,
    parts: &[P],
) -> io::Result<PathBuf> {
    let mut shown = base.to_path_buf();
    let mut canon = base_canon.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        shown.push(part);
        if fs::symlink_metadata(&shown)?.file_type().is_symlink() {
            shown.extend(parts.iter().skip(i + 1));
            return fs::canonicalize(&shown);
        }
        canon.push(part);
    }
    Ok(canon)
}

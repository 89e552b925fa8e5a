//! Paths given to `validate`, `pack`, `inspect` and `diff`: directories as
//! they are, archives (`.skill`, `.zip`, `.skillpack`) extracted first.
//!
//! An archive is extracted, through the same checks as `skb unpack`,
//! into a private temporary directory that lives as long as the [`Inputs`];
//! the skills are then discovered and validated there like any directory,
//! and [`Inputs::relabel`] rewrites the temporary paths in diagnostics back
//! to `<archive>/<path inside it>`. An archive holding a `SKILL.md` at its
//! top is one skill, extracted into a directory named after the archive.

use std::io;
use std::path::{Path, PathBuf};

use skills_bundle::pack::Trust;
use skills_bundle::zip::{Kind, Limits};
use skills_compiler::{Checked, Diagnostic};

use crate::extract::{self, Opened};

/// The extensions read as archives (compared case-insensitively).
const ARCHIVES: [&str; 3] = ["skill", "zip", "skillpack"];

/// The roots to check, with the temporary directories behind archives.
#[derive(Debug, Default)]
pub struct Inputs {
    /// One root per path given, in order.
    pub roots: Vec<PathBuf>,
    /// Each directory an archive was extracted into, with the archive.
    staged: Vec<(PathBuf, PathBuf)>,
    /// The temporary directories, removed when dropped.
    temporary: Vec<tempfile::TempDir>,
}

/// Whether `path` names an archive rather than a directory or `SKILL.md`.
pub fn is_archive(path: &Path) -> bool {
    path.is_file()
        && path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ARCHIVES.iter().any(|a| a.eq_ignore_ascii_case(e)))
}

/// Extracts the archives among `paths`, each within `limits`.
pub fn prepare(paths: &[PathBuf], limits: &Limits) -> io::Result<Inputs> {
    let mut inputs = Inputs::default();
    for path in paths {
        if is_archive(path) {
            let bytes = extract::read_archive(path)?;
            inputs.add_archive(path, &bytes, limits)?;
        } else {
            inputs.roots.push(path.clone());
        }
    }
    Ok(inputs)
}

impl Inputs {
    /// Adds the archive `bytes` (already read, and checked by the caller
    /// where a signature was asked for), extracted into a temporary
    /// directory; diagnostics name it as `label`.
    pub fn add_archive(&mut self, label: &Path, bytes: &[u8], limits: &Limits) -> io::Result<()> {
        let tmp = tempfile::Builder::new().prefix("skills-input-").tempdir()?;
        let stem = label.file_stem().map_or_else(
            || "archive".to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        let root = match extract::open(label, bytes, Trust::Unsigned, limits)? {
            Opened::Pack(pack) => {
                extract::write_pack(&pack, tmp.path())?;
                tmp.path().to_path_buf()
            }
            Opened::Zip(archive) => {
                let single = archive.entries().iter().any(|e| {
                    matches!(e.kind, Kind::File { .. }) && e.name.eq_ignore_ascii_case("SKILL.md")
                });
                let root = if single {
                    tmp.path().join(&stem)
                } else {
                    tmp.path().to_path_buf()
                };
                extract::write_zip(bytes, &archive, &root)?;
                if single {
                    root
                } else {
                    tmp.path().to_path_buf()
                }
            }
        };
        self.roots.push(root);
        self.staged
            .push((tmp.path().to_path_buf(), label.to_path_buf()));
        self.temporary.push(tmp);
        Ok(())
    }

    /// Adds a directory that lives as long as these inputs (a checkout, a
    /// download), labelled as `label` in diagnostics; `root` is a path
    /// inside `tmp`.
    pub fn add_temporary(&mut self, tmp: tempfile::TempDir, root: PathBuf, label: &Path) {
        self.staged
            .push((tmp.path().to_path_buf(), label.to_path_buf()));
        self.roots.push(root);
        self.temporary.push(tmp);
    }

    /// One root, `dir`, holding what was extracted from `archive` (and
    /// labelled as inside it); `dir` is someone else's to remove.
    pub fn extracted(dir: &Path, archive: &Path) -> Inputs {
        Inputs {
            roots: vec![dir.to_path_buf()],
            staged: vec![(dir.to_path_buf(), archive.to_path_buf())],
            temporary: Vec::new(),
        }
    }

    /// Rewrites temporary paths in `checked` to the archives they came from.
    pub fn relabel(&self, checked: &mut Checked) {
        if self.staged.is_empty() {
            return;
        }
        for (root, diags) in &mut checked.roots {
            *root = self.label(root);
            for d in diags.iter_mut() {
                self.relabel_diagnostic(d);
            }
        }
        for skill in &mut checked.skills {
            skill.dir = self.label(&skill.dir);
            if let Some(md) = &skill.skill_md {
                skill.skill_md = Some(self.label(md));
            }
            for d in &mut skill.diagnostics {
                self.relabel_diagnostic(d);
            }
        }
    }

    /// `path` with a temporary prefix replaced by its archive.
    pub fn label(&self, path: &Path) -> PathBuf {
        for (tmp, archive) in &self.staged {
            match path.strip_prefix(tmp) {
                Ok(rest) if rest.as_os_str().is_empty() => return archive.clone(),
                Ok(rest) => return archive.join(rest),
                Err(_) => {}
            }
        }
        path.to_path_buf()
    }

    fn relabel_diagnostic(&self, d: &mut Diagnostic) {
        for (tmp, archive) in &self.staged {
            skills_compiler::embed::relabel(d, tmp, archive);
        }
    }
}

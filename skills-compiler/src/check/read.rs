//! The read stage of a skill's check: the skill directory is opened and
//! its `SKILL.md` (else `skill.md`) read once, through
//! [`skills_core::fsread`]: below the skill's open directory, a fifo or
//! device refused for what it is (`SK004`), at most [`MAX_SKILL_MD`] bytes.
//! A `SKILL.md` that is a symbolic link is read where it leads only when
//! that is inside the skill; a link out of it is error `SK008` (elsewhere in
//! a skill, an escaping link is a warning and the file is left out; here
//! the skill has nothing else to read), and not a byte of the target is
//! read, so none can reach a diagnostic.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use skills_core::fsread::{Dir, FileError, Reason};

use crate::diag::{Code, Diagnostic, Severity};
use crate::discover::{Target, follow_link};
use crate::profile::Profile;

/// The largest `SKILL.md` read, in bytes.
pub const MAX_SKILL_MD: u64 = 8 * 1024 * 1024;

/// What the read stage found.
#[derive(Debug)]
pub(crate) struct Read {
    /// The skill directory, open, when it could be opened.
    pub(crate) dir: Option<Dir>,
    /// `SKILL.md` (or `skill.md`), when there is one.
    pub(crate) skill_md: Option<PathBuf>,
    /// Its bytes, when they were read.
    pub(crate) bytes: Option<Vec<u8>>,
    /// The problems found, in the order found.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl Read {
    /// Nothing to read further: only the diagnostics that say why.
    fn stopped(diagnostics: Vec<Diagnostic>) -> Read {
        Read {
            dir: None,
            skill_md: None,
            bytes: None,
            diagnostics,
        }
    }
}

/// The text of a skill's `SKILL.md` given instead of read from the disk
/// (an editor's unsaved buffer): the file's name in the skill folder
/// (`SKILL.md` or `skill.md`) and its bytes.
#[derive(Debug, Clone, Copy)]
pub struct Given<'a> {
    /// The file's name in the skill folder.
    pub name: &'a str,
    /// Its bytes.
    pub bytes: &'a [u8],
}

/// Opens the skill directory `dir` and reads its `SKILL.md`, or takes
/// `given` for it (the rest of the folder is still the disk's).
pub(crate) fn read(dir: &Path, profile: Profile, given: Option<Given<'_>>) -> Read {
    let mut diagnostics = Vec::new();
    let diags = &mut diagnostics;
    let report = |diags: &mut Vec<Diagnostic>, code, path: &Path, msg: String| {
        diags.push(Diagnostic::new(code, profile.severity(code), path, msg));
        diags.len() - 1
    };
    let skill_dir = match Dir::open(dir) {
        Ok(d) => d,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let i = report(
                diags,
                Code::PathNotFound,
                dir,
                format!("`{}` does not exist", dir.display()),
            );
            diags[i].reference = Some(format!("Path does not exist: {}", dir.display()));
            return Read::stopped(diagnostics);
        }
        Err(e) if e.kind() == ErrorKind::NotADirectory => {
            let i = report(
                diags,
                Code::NotADirectory,
                dir,
                format!("`{}` is not a directory", dir.display()),
            );
            diags[i].reference = Some(format!("Not a directory: {}", dir.display()));
            return Read::stopped(diagnostics);
        }
        Err(e) => {
            report(
                diags,
                Code::Io,
                dir,
                format!("cannot read `{}`: {e}", dir.display()),
            );
            return Read::stopped(diagnostics);
        }
    };
    let found = match given {
        Some(given) => Some(take_given(&skill_dir, given)),
        None => read_skill_md(&skill_dir, diags),
    };
    let Some((path, read)) = found else {
        let i = report(
            diags,
            Code::MissingSkillMd,
            dir,
            format!("no `SKILL.md` in `{}`", dir.display()),
        );
        diags[i].help = Some("create `SKILL.md` starting with `---`, `name:` and `description:` lines and a closing `---`, or remove the directory".into());
        diags[i].reference = Some("Missing required file: SKILL.md".into());
        return Read {
            dir: Some(skill_dir),
            ..Read::stopped(diagnostics)
        };
    };
    if path.file_name().is_some_and(|n| n == "skill.md") {
        let i = report(
            diags,
            Code::LowercaseSkillMd,
            &path,
            "the file is named `skill.md`".into(),
        );
        diags[i].help =
            Some("rename it to `SKILL.md`: some clients only look for that name".into());
    }
    let bytes = match read {
        Ok(b) => Some(b),
        Err(d) => {
            diags.push(d);
            None
        }
    };
    Read {
        dir: Some(skill_dir),
        skill_md: Some(path),
        bytes,
        diagnostics,
    }
}

/// Reads `SKILL.md`, else `skill.md` (the reference prefers them in that
/// order), from the open skill directory, never following a link out of it:
/// a `SKILL.md` that is a symbolic link is read where it leads only when
/// that is inside the skill (else error `SK008`, and nothing of the target
/// is read). Returns the path shown and the bytes, or the diagnostic that
/// stops the check; `None` when there is no such file (a dangling link
/// counts as none, with its warning).
fn read_skill_md(
    dir: &Dir,
    diags: &mut Vec<Diagnostic>,
) -> Option<(PathBuf, Result<Vec<u8>, Diagnostic>)> {
    let mut boundary = None;
    for name in ["SKILL.md", "skill.md"] {
        let path = dir.path().join(name);
        let error = match dir.read(Path::new(name), MAX_SKILL_MD) {
            Ok(bytes) => return Some((path, Ok(bytes))),
            Err(e) if e.is_not_found() => continue,
            Err(e) => e,
        };
        if !matches!(error.reason, Reason::Link) {
            return Some((path, Err(read_error(&error))));
        }
        let boundary = match boundary.get_or_insert_with(|| std::fs::canonicalize(dir.path())) {
            Ok(b) => b.clone(),
            Err(e) => {
                let message = format!("cannot resolve `{}`: {e}", dir.path().display());
                return Some((path.clone(), Err(error_at(Code::Io, &path, message))));
            }
        };
        let mut found = Vec::new();
        let target = follow_link(&path, &boundary, dir.path(), false, &mut found);
        if let Some(i) = found.iter().position(|d| d.code == Code::SymlinkEscape) {
            // The skill has no `SKILL.md` of its own: an error, not the
            // warning an escaping link elsewhere gets.
            let mut escape = found.remove(i);
            escape.severity = Severity::Error;
            diags.append(&mut found);
            return Some((path, Err(escape)));
        }
        diags.append(&mut found);
        let Some(Target::Dir(canon) | Target::File(canon, _) | Target::Other(canon)) = target
        else {
            continue;
        };
        let Ok(inside) = canon.strip_prefix(&boundary) else {
            continue;
        };
        let read = dir.read(inside, MAX_SKILL_MD).map_err(|e| {
            let mut d = read_error(&e);
            d.path = path.clone();
            d
        });
        return Some((path, read));
    }
    None
}

/// The path and bytes of a `SKILL.md` given, bounded as a read is: more
/// than [`MAX_SKILL_MD`] bytes is the error a read of such a file gives.
fn take_given(dir: &Dir, given: Given<'_>) -> (PathBuf, Result<Vec<u8>, Diagnostic>) {
    let path = dir.path().join(given.name);
    if given.bytes.len() as u64 > MAX_SKILL_MD {
        let message = format!(
            "`{}` is larger than the {} bytes a `SKILL.md` may hold",
            path.display(),
            MAX_SKILL_MD
        );
        return (path.clone(), Err(error_at(Code::Io, &path, message)));
    }
    (path, Ok(given.bytes.to_vec()))
}

/// The diagnostic for a `SKILL.md` that could not be read: `SK004` for
/// something that is not a file (saying what it is), else `SK005`.
fn read_error(e: &FileError) -> Diagnostic {
    let code = match e.reason {
        Reason::NotFile(_) => Code::SkillMdNotFile,
        _ => Code::Io,
    };
    error_at(code, &e.path, e.to_string())
}

fn error_at(code: Code, path: &Path, message: String) -> Diagnostic {
    Diagnostic::new(code, Severity::Error, path, message)
}

//! Writing a skill's files to disk, once, into a private cache.
//!
//! A skill lands in `<cache root>/<name>/`, where the name is 32 hex digits
//! of a SHA-256 over the skill's name and each file's path, mode and
//! SHA-256 ([`cache_dir_name`]): a changed skill gets a new directory, so a
//! directory is never updated in place. The cache root is created with mode
//! 0700 and refused when it is a symlink, owned by another user, or group-
//! or world-writable. A skill is written into a fresh temporary directory
//! beside its final one (files 0755 or 0644 from the hash-checked bytes,
//! directories 0700) and renamed into place, so a reader sees all of it or
//! none.
//!
//! An existing directory is verified before every reuse: it must hold
//! exactly the skill's files, each a regular file with its mode, size and
//! SHA-256, and the directories leading to them. Anything else below it is
//! a change: a symlink, and any added file or directory, since a script
//! another skill wrote there (or a module, or a `__pycache__`, that an
//! interpreter would load) would otherwise run next time; the skill
//! directory itself turned into a symlink or made writable by others too.
//! A changed directory is never used and never left broken: it is renamed
//! aside (atomically, so a concurrent run sees the old directory or none),
//! the skill is written again from the bundle's hash-checked bytes, and the
//! copy set aside is deleted. The repair is logged (a `log` warning naming
//! the skill, the first difference found and where) and returned in
//! [`Materialised::rebuilt`], so a script that writes into its own
//! directory (which is its working directory) costs its next run a rewrite,
//! not every later run an error. A run still in progress in the directory
//! set aside keeps its open files, but the files it had not opened yet are
//! gone: a script should write its output elsewhere (a temporary directory,
//! or a path it is given); the executor starts Python with
//! `PYTHONDONTWRITEBYTECODE=1` for this. Problems with the cache root
//! itself are errors ([`ExecError::UnsafeCache`]): the root is the user's,
//! and nothing in it is moved. Verifying re-reads the skill's files on each
//! run, which is cheap for skills' usual sizes.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, DirBuilder, OpenOptions, Permissions};
use std::io::{ErrorKind, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

use super::ExecError;
use crate::Skill;
use skills_core::fsread::{Dir, Reason, read_open};
use skills_core::{digest, path};

/// The default cache root: `$XDG_CACHE_HOME/skills`, else
/// `$HOME/.cache/skills`; `None` when neither is set (or they are relative).
pub fn default_cache_root() -> Option<PathBuf> {
    skills_core::userdir::base("XDG_CACHE_HOME", ".cache", "skills")
}

/// The directory name of `skill` in the cache: 32 hex digits of SHA-256
/// over `skills-exec-v1`, the name, and one `<sha256> <mode> <path>` line
/// per file.
pub fn cache_dir_name(skill: &Skill<'_>) -> String {
    let mut h = Sha256::new();
    h.update(b"skills-exec-v1\n");
    h.update(format!("skill {}\n", skill.name()).as_bytes());
    for f in skill.files() {
        let mode = if f.is_executable() { 755 } else { 644 };
        h.update(format!("file {} {mode} {}\n", f.sha256_hex(), f.path()).as_bytes());
    }
    let full = digest::hex(&h.finalize());
    full.get(..32).unwrap_or(&full).to_string()
}

/// A skill's directory in the cache, from [`materialise`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Materialised {
    /// The skill's directory, absolute.
    pub dir: PathBuf,
    /// Set when the directory had been changed and was written again.
    pub rebuilt: Option<Rebuilt>,
}

/// A changed cache directory that [`materialise`] set aside and wrote again.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rebuilt {
    /// The first difference found: the file or directory (the skill's
    /// directory itself when that was the problem).
    pub path: PathBuf,
    /// What differed, as [`ExecError::CacheTampered`] or
    /// [`ExecError::UnsafeCache`] would say it.
    pub reason: String,
    /// Where the changed copy still is, when deleting it failed (it is
    /// inside the private cache root and never used again).
    pub left_at: Option<PathBuf>,
}

/// Writes `skill`'s files under `cache_root`, or reuses and verifies the
/// copy already there, rebuilding it when it was changed (see the module
/// documentation).
pub fn materialise(skill: &Skill<'_>, cache_root: &Path) -> Result<Materialised, ExecError> {
    let root =
        std::path::absolute(cache_root).map_err(|e| ExecError::io("resolve", cache_root, e))?;
    if fs::symlink_metadata(&root).is_err() {
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&root)
            .map_err(|e| ExecError::io("create", &root, e))?;
    }
    check_private_dir(&root)?;
    let expected = expected_files(skill)?;
    let name = cache_dir_name(skill);
    let dir = root.join(&name);
    let mut rebuilt = None;
    if fs::symlink_metadata(&dir).is_ok() {
        let Err(found) = verify(&dir, &expected) else {
            return Ok(Materialised { dir, rebuilt });
        };
        let (path, reason) = match found {
            ExecError::CacheTampered { path, reason } | ExecError::UnsafeCache { path, reason } => {
                (path, reason)
            }
            other => (dir.clone(), other.to_string()),
        };
        let left_at = set_aside(&root, &name, &dir)?;
        log::warn!(
            "the cached copy of skill `{}` was changed ({reason}: `{}`); it was set aside and written again from the bundle",
            skill.name(),
            path.display()
        );
        if let Some(left) = &left_at {
            log::warn!(
                "the changed copy could not be deleted and is left at `{}`",
                left.display()
            );
        }
        rebuilt = Some(Rebuilt {
            path,
            reason,
            left_at,
        });
    }
    let tmp = write_temp(&root, &expected)?;
    match fs::rename(&tmp, &dir) {
        Ok(()) => Ok(Materialised { dir, rebuilt }),
        // Another process put the same skill in place first: use its copy,
        // once verified.
        Err(_) if fs::symlink_metadata(&dir).is_ok() => {
            remove_temp(&tmp);
            verify(&dir, &expected)?;
            Ok(Materialised { dir, rebuilt })
        }
        Err(e) => {
            remove_temp(&tmp);
            Err(ExecError::io("rename into", &dir, e))
        }
    }
}

/// Renames the changed directory `dir` aside, under a name no other run
/// uses, then deletes it. Returns where it is left when deleting failed.
/// A directory another run already moved is no error.
fn set_aside(root: &Path, name: &str, dir: &Path) -> Result<Option<PathBuf>, ExecError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let aside = loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let aside = root.join(format!(".changed-{name}-{}-{n}", std::process::id()));
        if fs::symlink_metadata(&aside).is_err() {
            break aside;
        }
    };
    match fs::rename(dir, &aside) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ExecError::io("set aside", dir, e)),
    }
    Ok(remove_tree(&aside).err().map(|_| aside))
}

/// Deletes `top` and everything below it without following a symlink,
/// first making each directory writable (a script may have made one
/// read-only). Iterative: a script may have nested directories deeper than
/// any stack.
fn remove_tree(top: &Path) -> std::io::Result<()> {
    if !fs::symlink_metadata(top)?.is_dir() {
        return fs::remove_file(top);
    }
    // Directories to empty, each with whether its entries were handled.
    let mut stack = vec![(top.to_path_buf(), false)];
    while let Some((dir, emptied)) = stack.pop() {
        if emptied {
            fs::remove_dir(&dir)?;
            continue;
        }
        if fs::symlink_metadata(&dir)?.mode() & 0o700 != 0o700 {
            fs::set_permissions(&dir, Permissions::from_mode(0o700))?;
        }
        let entries = fs::read_dir(&dir)?;
        stack.push((dir, true));
        for entry in entries {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                stack.push((entry.path(), false));
            } else {
                fs::remove_file(entry.path())?;
            }
        }
    }
    Ok(())
}

/// One file to write or verify.
struct Expected<'a> {
    bytes: &'a [u8],
    sha256: &'a [u8; 32],
    mode: u32,
}

/// The skill's files by normal path, each read (and so hash-checked) once.
fn expected_files<'a>(skill: &Skill<'a>) -> Result<BTreeMap<String, Expected<'a>>, ExecError> {
    let mut out = BTreeMap::new();
    for f in skill.files() {
        let rel = path::normalize(f.path()).map_err(|reason| ExecError::BadPath {
            path: f.path().to_string(),
            reason,
        })?;
        let bytes = f.bytes().map_err(|reason| ExecError::Corrupt {
            path: f.path().to_string(),
            reason,
        })?;
        let mode = if f.is_executable() { 0o755 } else { 0o644 };
        out.insert(
            rel,
            Expected {
                bytes,
                sha256: f.sha256(),
                mode,
            },
        );
    }
    Ok(out)
}

/// Refuses a directory that someone else could change.
fn check_private_dir(dir: &Path) -> Result<(), ExecError> {
    let meta = fs::symlink_metadata(dir).map_err(|e| ExecError::io("inspect", dir, e))?;
    let unsafe_cache = |reason: &str| {
        Err(ExecError::UnsafeCache {
            path: dir.to_path_buf(),
            reason: reason.to_string(),
        })
    };
    if meta.file_type().is_symlink() {
        return unsafe_cache("it is a symlink");
    }
    if !meta.is_dir() {
        return unsafe_cache("it is not a directory");
    }
    if meta.uid() != rustix::process::getuid().as_raw() {
        return unsafe_cache("it is owned by another user");
    }
    if meta.mode() & 0o022 != 0 {
        return unsafe_cache("it is writable by group or others; `chmod 700` it");
    }
    Ok(())
}

/// Writes every file into a new temporary directory under `root`.
fn write_temp(root: &Path, files: &BTreeMap<String, Expected<'_>>) -> Result<PathBuf, ExecError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let tmp = loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = root.join(format!(".tmp-{}-{n}", std::process::id()));
        match DirBuilder::new().mode(0o700).create(&tmp) {
            Ok(()) => break tmp,
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(ExecError::io("create", &tmp, e)),
        }
    };
    for (rel, f) in files {
        if let Err(e) = write_file(&tmp, rel, f) {
            remove_temp(&tmp);
            return Err(e);
        }
    }
    Ok(tmp)
}

fn write_file(tmp: &Path, rel: &str, f: &Expected<'_>) -> Result<(), ExecError> {
    let path = tmp.join(rel);
    if let Some(parent) = path.parent() {
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)
            .map_err(|e| ExecError::io("create", parent, e))?;
    }
    let mut out = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(f.mode)
        .open(&path)
        .map_err(|e| ExecError::io("create", &path, e))?;
    out.write_all(f.bytes)
        .map_err(|e| ExecError::io("write", &path, e))?;
    // The umask may have narrowed the mode; the cache records it exactly.
    out.set_permissions(Permissions::from_mode(f.mode))
        .map_err(|e| ExecError::io("chmod", &path, e))?;
    Ok(())
}

/// Best-effort cleanup of a temporary directory this process made.
fn remove_temp(tmp: &Path) {
    let _ = remove_tree(tmp);
}

/// Checks an existing skill directory against the skill: exactly its files
/// and their directories (see the module documentation).
fn verify(dir: &Path, expected: &BTreeMap<String, Expected<'_>>) -> Result<(), ExecError> {
    check_private_dir(dir)?;
    let tampered = |path: &Path, reason: &str| ExecError::CacheTampered {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    // Every directory leading to a file: `a` and `a/b` for `a/b/c`.
    let dirs: BTreeSet<&str> = expected
        .keys()
        .flat_map(|rel| rel.match_indices('/').filter_map(|(at, _)| rel.get(..at)))
        .collect();
    // Every entry below, each directory's in name order, so the entry
    // reported is the same on every file system. No symlink anywhere (so no
    // expected path can lead outside), nothing added.
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((d, prefix)) = stack.pop() {
        let mut entries = fs::read_dir(&d)
            .and_then(|entries| entries.collect::<Result<Vec<_>, _>>())
            .map_err(|e| ExecError::io("read", &d, e))?;
        entries.sort_by_key(fs::DirEntry::file_name);
        for entry in entries {
            let path = entry.path();
            let kind = entry
                .file_type()
                .map_err(|e| ExecError::io("inspect", &path, e))?;
            // A name that is not UTF-8 is no file of a skill.
            let rel = entry.file_name().to_str().map(|n| format!("{prefix}{n}"));
            let is_file = rel.as_ref().is_some_and(|r| expected.contains_key(r));
            let is_dir = rel.as_deref().is_some_and(|r| dirs.contains(r));
            let reason = if kind.is_symlink() {
                "a symlink was added"
            } else if kind.is_dir() && is_dir {
                stack.push((path, format!("{}/", rel.unwrap_or_default())));
                continue;
            } else if kind.is_file() && is_file {
                continue;
            } else if is_file {
                "not a regular file"
            } else if is_dir {
                "not a directory"
            } else if kind.is_dir() {
                "a directory was added"
            } else {
                "a file was added"
            };
            return Err(tampered(&path, reason));
        }
    }
    // Each file opened once, below the directory and without following a
    // link (one swapped in after the walk above is refused too), then
    // checked on the open descriptor and read within its expected size.
    let cache = Dir::open(dir).map_err(|e| ExecError::io("open", dir, e))?;
    for (rel, f) in expected {
        let path = dir.join(rel);
        let (mut file, meta) = match cache.open_file(Path::new(rel)) {
            Ok(opened) => opened,
            Err(e) if e.is_not_found() => return Err(tampered(&path, "the file is missing")),
            Err(e) => {
                return Err(match e.reason {
                    Reason::Link => tampered(&path, "a symlink was added"),
                    Reason::NotFile(_) => tampered(&path, "not a regular file"),
                    Reason::Io(source) => ExecError::io("open", &path, source),
                    Reason::TooLarge { .. } => tampered(&path, "its size changed"),
                    _ => tampered(&path, "it cannot be read as written"),
                });
            }
        };
        if meta.mode() & 0o7777 != f.mode {
            return Err(tampered(&path, "its mode changed"));
        }
        if meta.len() != f.bytes.len() as u64 {
            return Err(tampered(&path, "its size changed"));
        }
        let bytes = match read_open(&mut file, &meta, meta.len()) {
            Ok(bytes) => bytes,
            Err(Reason::Io(e)) => return Err(ExecError::io("read", &path, e)),
            Err(_) => return Err(tampered(&path, "its size changed")),
        };
        if digest::sha256(&bytes) != *f.sha256 {
            return Err(tampered(&path, "its contents changed"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;
    use crate::exec::testing::bundle;

    const SCRIPT: &[u8] = b"#!/bin/sh\necho hi\n";
    const DATA: &[u8] = b"some data\n";

    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).expect("exists").mode() & 0o7777
    }

    /// Materialises `skill` again, which must rebuild it; returns the
    /// difference found and checks the copy is whole and nothing is left
    /// beside it.
    fn rebuilt(skill: &Skill<'_>, root: &Path) -> (PathBuf, String) {
        let done = materialise(skill, root).expect("rebuilds");
        let Some(r) = done.rebuilt else {
            panic!("expected a rebuild of {}", done.dir.display());
        };
        assert_eq!(r.left_at, None);
        let again = materialise(skill, root).expect("reuses");
        assert_eq!((again.dir, again.rebuilt), (done.dir, None));
        let names: Vec<_> = fs::read_dir(root)
            .expect("read")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        (r.path, r.reason)
    }

    #[test]
    fn writes_private_dirs_exact_bytes_and_modes_then_reuses() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().join("a/cache");
        let b = bundle(
            "demo",
            &[
                ("scripts/run.sh", SCRIPT, true),
                ("refs/data.txt", DATA, false),
            ],
        );
        let skill = b.get("demo").expect("skill");
        let dir = materialise(&skill, &root).expect("materialises").dir;
        assert_eq!(dir, root.join(cache_dir_name(&skill)));
        assert_eq!(cache_dir_name(&skill).len(), 32);
        for d in [&root, &dir, &dir.join("scripts"), &dir.join("refs")] {
            assert_eq!(mode(d), 0o700, "{}", d.display());
        }
        assert_eq!(fs::read(dir.join("scripts/run.sh")).expect("read"), SCRIPT);
        assert_eq!(mode(&dir.join("scripts/run.sh")), 0o755);
        assert_eq!(fs::read(dir.join("refs/data.txt")).expect("read"), DATA);
        assert_eq!(mode(&dir.join("refs/data.txt")), 0o644);
        assert!(dir.join("SKILL.md").is_file());
        // Reused as it is, and no temporary directory is left behind.
        let reused = materialise(&skill, &root).expect("reuses");
        assert_eq!((reused.dir, reused.rebuilt), (dir.clone(), None));
        let names: Vec<_> = fs::read_dir(&root)
            .expect("read")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, [dir.file_name().expect("name")]);
    }

    #[test]
    fn a_changed_skill_gets_a_new_directory() {
        let a = bundle("demo", &[("x.txt", b"one", false)]);
        let b = bundle("demo", &[("x.txt", b"two", false)]);
        let c = bundle("demo", &[("x.txt", b"one", true)]);
        let d = bundle("other", &[("x.txt", b"one", false)]);
        let names: std::collections::BTreeSet<String> =
            [a.get("demo"), b.get("demo"), c.get("demo"), d.get("other")]
                .iter()
                .map(|s| cache_dir_name(&s.expect("skill")))
                .collect();
        assert_eq!(names.len(), 4);
    }

    #[test]
    fn a_changed_cache_is_rebuilt_from_the_bundle() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = &tmp.path().join("cache");
        let b = bundle("demo", &[("scripts/run.sh", SCRIPT, true)]);
        let skill = b.get("demo").expect("skill");
        let dir = materialise(&skill, root).expect("materialises").dir;
        let script = dir.join("scripts/run.sh");
        let same = |what: &str| {
            assert_eq!(fs::read(&script).expect("read"), SCRIPT, "{what}");
            assert_eq!(mode(&script), 0o755, "{what}");
        };

        // Same size, other bytes.
        fs::write(&script, b"#!/bin/sh\necho no\n").expect("write");
        assert_eq!(
            rebuilt(&skill, root),
            (script.clone(), "its contents changed".into())
        );
        same("rewritten");

        fs::set_permissions(&script, Permissions::from_mode(0o777)).expect("chmod");
        assert_eq!(rebuilt(&skill, root).1, "its mode changed");
        same("chmod");

        // Anything added, at any depth: output a script wrote into its own
        // directory, a file another skill's script wrote, a directory, a
        // `__pycache__` Python would load.
        for (added, reason) in [
            ("out.txt", "a file was added"),
            ("scripts/helper.py", "a file was added"),
            ("hooks", "a directory was added"),
            ("scripts/__pycache__", "a directory was added"),
        ] {
            let path = dir.join(added);
            if added.ends_with(".txt") || added.ends_with(".py") {
                fs::write(&path, b"import os\n").expect("write");
            } else {
                fs::create_dir(&path).expect("mkdir");
            }
            assert_eq!(rebuilt(&skill, root), (path.clone(), reason.into()));
            assert!(!path.exists(), "{added} is still there");
            same(added);
        }
        // An expected directory turned into a file.
        let scripts = dir.join("scripts");
        fs::remove_dir_all(&scripts).expect("rm");
        fs::write(&scripts, b"").expect("write");
        assert_eq!(rebuilt(&skill, root).1, "not a directory");
        same("dir to file");

        symlink("/etc/passwd", dir.join("scripts/planted")).expect("symlink");
        assert_eq!(rebuilt(&skill, root).1, "a symlink was added");
        assert!(fs::symlink_metadata("/etc/passwd").is_ok_and(|m| m.is_file()));

        // An expected file replaced by a symlink to identical bytes.
        let copy = tmp.path().join("copy");
        fs::write(&copy, SCRIPT).expect("write");
        fs::remove_file(&script).expect("rm");
        symlink(&copy, &script).expect("symlink");
        assert_eq!(rebuilt(&skill, root).1, "a symlink was added");
        assert_eq!(fs::read(&copy).expect("kept"), SCRIPT);
        fs::remove_file(&copy).expect("rm");
        fs::remove_file(&script).expect("rm");
        assert_eq!(rebuilt(&skill, root).1, "the file is missing");
        same("removed");

        // Read-only directories, nested deeper than a recursive delete's
        // stack would like, are deleted too.
        let mut deep = dir.join("scripts");
        for _ in 0..200 {
            deep.push("d");
        }
        fs::create_dir_all(&deep).expect("mkdir");
        fs::set_permissions(dir.join("scripts/d"), Permissions::from_mode(0o500)).expect("chmod");
        fs::set_permissions(&dir, Permissions::from_mode(0o500)).expect("chmod");
        assert_eq!(rebuilt(&skill, root).1, "a directory was added");
        same("read-only tree");
        // The skill directory made writable by others.
        fs::set_permissions(&dir, Permissions::from_mode(0o777)).expect("chmod");
        assert_eq!(
            rebuilt(&skill, root),
            (
                dir.clone(),
                "it is writable by group or others; `chmod 700` it".into()
            )
        );
        assert_eq!(mode(&dir), 0o700);
    }

    #[test]
    fn an_unsafe_cache_root_is_refused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let b = bundle("demo", &[]);
        let skill = b.get("demo").expect("skill");
        let real = tmp.path().join("real");
        fs::create_dir(&real).expect("mkdir");
        fs::set_permissions(&real, Permissions::from_mode(0o700)).expect("chmod");
        let link = tmp.path().join("link");
        symlink(&real, &link).expect("symlink");
        let unsafe_reason = |root: &Path| match materialise(&skill, root) {
            Err(ExecError::UnsafeCache { reason, .. }) => reason,
            other => panic!("expected a refusal, got {other:?}"),
        };
        assert!(unsafe_reason(&link).contains("symlink"));
        fs::set_permissions(&real, Permissions::from_mode(0o777)).expect("chmod");
        assert!(unsafe_reason(&real).contains("writable"));
        fs::set_permissions(&real, Permissions::from_mode(0o700)).expect("chmod");
        let file = tmp.path().join("file");
        fs::write(&file, b"").expect("write");
        assert!(unsafe_reason(&file).contains("not a directory"));
        // Nothing in an unsafe root is moved or written.
        fs::set_permissions(&real, Permissions::from_mode(0o770)).expect("chmod");
        let before: Vec<_> = fs::read_dir(&real).expect("read").collect();
        assert!(unsafe_reason(&real).contains("writable"));
        assert_eq!(fs::read_dir(&real).expect("read").count(), before.len());
    }
}

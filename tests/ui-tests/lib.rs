//! Where trybuild's crate finds the cases' skill trees.
//!
//! trybuild compiles every case as a binary of a crate it generates in
//! `<target>/tests/trybuild/skills-ui-tests/`, so that directory is the
//! `CARGO_MANIFEST_DIR` the macro resolves paths against. A path climbing out
//! of it (`"../../../../tests/ui/skills/…"`) only works while the target
//! directory is `<workspace>/target`, and breaks under `CARGO_TARGET_DIR`.
//! Instead, [`link_fixtures`] asks `cargo metadata` for the target directory,
//! exactly as trybuild does, and makes `<that crate>/ui` a symbolic link to
//! this crate's `ui/` (a fresh copy where links are not available). A
//! case then names `"ui/skills/<case>"`, and the snapshots show the same short
//! paths wherever the target directory is.

#![allow(clippy::unwrap_used)] // test support: setup errors fail loudly

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The target directory, as `cargo metadata` (and so trybuild) sees it.
pub fn target_dir() -> PathBuf {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--format-version=1", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo metadata failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    PathBuf::from(meta["target_directory"].as_str().unwrap())
}

/// Makes `ui/` of trybuild's crate this crate's `ui/`.
pub fn link_fixtures() {
    let project = target_dir()
        .join("tests/trybuild")
        .join(env!("CARGO_PKG_NAME"));
    std::fs::create_dir_all(&project).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui");
    let link = project.join("ui");
    if std::fs::read_link(&link).is_ok_and(|to| to == fixtures) {
        return;
    }
    match std::fs::symlink_metadata(&link) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(&link).unwrap(),
        Ok(_) => std::fs::remove_file(&link).unwrap(),
        Err(_) => {}
    }
    if symlink_dir(&fixtures, &link).is_err() {
        copy_tree(&fixtures, &link);
    }
}

#[cfg(unix)]
fn symlink_dir(target: &Path, link: &Path) -> std::io::Result<()> {
    match std::os::unix::fs::symlink(target, link) {
        // Another run made the same link first.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    }
}

#[cfg(windows)]
fn symlink_dir(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link)
}

#[cfg(not(any(unix, windows)))]
fn symlink_dir(_target: &Path, _link: &Path) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

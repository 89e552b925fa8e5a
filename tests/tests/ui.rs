//! `skills_bundle!` as a user's compiler shows it: one trybuild case per
//! mistake in `tests/ui/<mistake>.rs`, each with its `.stderr` snapshot (the
//! code, `file:line:col`, snippet and help are the product's interface), and
//! `tests/ui/pass/*.rs` cases that must compile without a warning and run.
//! Each case embeds its own small skill tree under `tests/ui/skills/<case>/`.
//!
//! **Where the fixtures are found.** trybuild compiles every case as a binary
//! of a crate it generates in `<target>/tests/trybuild/skills-tests/`, so that
//! directory is the `CARGO_MANIFEST_DIR` the macro resolves paths against. A
//! path climbing out of it (`"../../../../tests/ui/skills/…"`) only works while
//! the target directory is `<workspace>/target`, and breaks under
//! `CARGO_TARGET_DIR`. Instead, [`link_fixtures`] asks `cargo metadata` for the
//! target directory, exactly as trybuild does, and makes `<that crate>/ui` a
//! symbolic link to this crate's `tests/ui` (a fresh copy where links are not
//! available). A case then names `"ui/skills/<case>"`, which is also the
//! fixture's path relative to this crate, and the snapshots show the same short
//! paths wherever the target directory is.
//!
//! After changing the compiler's messages, regenerate the snapshots with
//! `TRYBUILD=overwrite cargo test -p skills-tests --test ui` and read every diff.
//!
//! A crate that depends on `skills-bundle` under another name cannot be a
//! trybuild case: trybuild's crate inherits this crate's `skills-bundle`
//! dev-dependency, and Cargo refuses one package under two names in one crate.
//! [`renamed_dependency_compiles`] builds such a crate with Cargo instead.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use skills_tests::{tempdir, workspace, write_tree};

#[test]
fn ui() {
    link_fixtures();
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}

/// The target directory, as `cargo metadata` (and so trybuild) sees it.
fn target_dir() -> PathBuf {
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

/// Makes `ui/` of trybuild's crate this crate's `tests/ui` (see the module docs).
fn link_fixtures() {
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

/// A crate whose only name for `skills-bundle` is `renamed_bundle` compiles
/// `renamed_bundle::skills_bundle!` and reads the embedded skill: generated
/// code reaches the crate through `$crate`, never `::skills_bundle`.
#[test]
fn renamed_dependency_compiles() {
    let dir = tempdir();
    let bundle = workspace().join("skills-bundle");
    let manifest = format!(
        "[package]\nname = \"renamed-user\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nrenamed_bundle = {{ package = \"skills-bundle\", path = {:?} }}\n\n\
         [workspace]\n",
        bundle.display().to_string()
    );
    let main = r#"#![deny(warnings)]

static SKILLS: renamed_bundle::Bundle = renamed_bundle::skills_bundle!("skills");

fn main() {
    let greeter = SKILLS.get("greeter").expect("embedded");
    print!("{}", greeter.read_to_str("references/phrases.md").expect("read"));
}
"#;
    write_tree(
        dir.path(),
        &[
            ("Cargo.toml", manifest.as_bytes()),
            ("src/main.rs", main.as_bytes()),
            (
                "skills/greeter/SKILL.md",
                b"---\nname: greeter\ndescription: Greets people. Use when the user says hello.\n---\nGreet them.\n",
            ),
            ("skills/greeter/references/phrases.md", b"Hello, friend!\n"),
        ],
    );
    // The workspace's lock file: the same dependency versions, resolved offline.
    std::fs::copy(
        workspace().join("Cargo.lock"),
        dir.path().join("Cargo.lock"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["run", "--quiet", "--offline"])
        .current_dir(dir.path())
        .env("CARGO_TARGET_DIR", target_dir().join("scratch"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo run failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Hello, friend!\n");
}

/// The pack fixtures are what `skills pack` makes of `ui/skills/valid` today,
/// signed by `test.pub`, and the tampered copy differs from it in one byte.
#[test]
fn fixtures_match_a_fresh_pack() {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui");
    let dir = tempdir();
    let fresh = dir.path().join("fresh.skillpack");
    let out = skills_tests::skills()
        .arg("pack")
        .arg(ui.join("skills/valid"))
        .arg("-o")
        .arg(&fresh)
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fixture = std::fs::read(ui.join("packs/greeter.skillpack")).unwrap();
    assert!(
        std::fs::read(&fresh).unwrap() == fixture,
        "tests/ui/packs/greeter.skillpack is stale: regenerate it (tests/ui/packs/README.md)"
    );
    let key = std::fs::read_to_string(ui.join("packs/test.pub")).unwrap();
    let sig = std::fs::read_to_string(ui.join("packs/greeter.skillpack.minisig")).unwrap();
    skills_bundle::pack::signature::verify(&fixture, &key, Some(&sig)).unwrap();
    let tampered = std::fs::read(ui.join("packs/tampered.skillpack")).unwrap();
    assert_eq!(tampered.len(), fixture.len());
    let differing = fixture
        .iter()
        .zip(&tampered)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, 1);
}

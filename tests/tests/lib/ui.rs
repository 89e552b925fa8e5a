//! A crate that depends on `skills-bundle` under another name compiles
//! `skills_bundle!`. It cannot be a trybuild case (the `skills-ui-tests`
//! crate, `tests/ui-tests`, holds those): trybuild's crate inherits that
//! crate's `skills-bundle` dependency, and Cargo refuses one package under
//! two names in one crate. So it is built here with Cargo, in the scratch
//! target directory the rebuild tests use.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;
use skills_tests::{tempdir, workspace, write_tree};

/// The target directory, as `cargo metadata` sees it.
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

//! Rebuild tracking, proved with real Cargo builds of scratch crates: with
//! `skills_bundle::build::watch("skills")` in `build.rs`, editing, adding and
//! deleting a skill file each change what the rebuilt binary prints.
//! Without it, an edit is still seen (every embedded file is an
//! `include_bytes!`) but an added file is not, which is why the helper exists.
//!
//! The scratch crates live in temporary directories and share a target
//! directory under this workspace's `target/`, so `skills-bundle` and its
//! dependencies are compiled once, not on every run. Cargo judges freshness by
//! modification time, so [`Scratch::settle`] lets more than a second pass
//! after each build before the next change: a file system that keeps whole
//! seconds would otherwise give the change the same time as the build.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;
use skills_tests::{tempdir, workspace, write_tree};

/// Prints every `skill/path` in the bundle, then one file's text.
const MAIN: &str = r#"use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("skills");

fn main() {
    for skill in SKILLS.skills() {
        for file in skill.files() {
            println!("{}/{}", skill.name(), file.path());
        }
    }
    let notes = SKILLS.get("notes").expect("the notes skill");
    print!("{}", notes.read_to_str("references/tip.md").expect("tip.md"));
}
"#;

const BUILD_RS: &str = r#"fn main() {
    skills_bundle::build::watch("skills");
}
"#;

fn skill_md(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Keeps {name}. Use when asked to.\n---\nSee `references/tip.md`.\n"
    )
}

/// A crate depending on this workspace's `skills-bundle`, built with Cargo.
struct Scratch {
    dir: tempfile::TempDir,
    /// When the last build finished.
    built: Instant,
}

impl Scratch {
    /// A crate holding skill `notes` with `references/tip.md`, with or without
    /// the `build.rs` that watches `skills/`.
    fn new(name: &str, build_rs: bool) -> Scratch {
        let dir = tempdir();
        let bundle = format!(
            "{:?}",
            workspace().join("skills-bundle").display().to_string()
        );
        let mut manifest = format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nskills-bundle = {{ path = {bundle} }}\n"
        );
        if build_rs {
            manifest.push_str(&format!(
                "\n[build-dependencies]\nskills-bundle = {{ path = {bundle}, default-features = false }}\n"
            ));
            write_tree(dir.path(), &[("build.rs", BUILD_RS.as_bytes())]);
        }
        // Not part of any workspace the temporary directory may sit in.
        manifest.push_str("\n[workspace]\n");
        write_tree(
            dir.path(),
            &[
                ("Cargo.toml", manifest.as_bytes()),
                ("src/main.rs", MAIN.as_bytes()),
                ("skills/notes/SKILL.md", skill_md("notes").as_bytes()),
                ("skills/notes/references/tip.md", b"Tip one.\n"),
            ],
        );
        // The workspace's lock file: the same dependency versions, resolved offline.
        std::fs::copy(
            workspace().join("Cargo.lock"),
            dir.path().join("Cargo.lock"),
        )
        .unwrap();
        Scratch {
            dir,
            built: Instant::now(),
        }
    }

    /// `cargo build`, then the binary: what it prints, and which targets
    /// Cargo compiled (rather than found fresh) on the way.
    fn run(&mut self) -> Run {
        let out = Command::new(env!("CARGO"))
            .args(["build", "--offline", "--message-format=json"])
            .current_dir(self.dir.path())
            .env("CARGO_TARGET_DIR", scratch_target())
            .output()
            .unwrap();
        self.built = Instant::now();
        let messages: Vec<Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        assert!(
            out.status.success(),
            "cargo build failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stderr),
            rendered(&messages)
        );
        let artifacts = || {
            messages
                .iter()
                .filter(|m| m["reason"] == "compiler-artifact")
        };
        let compiled = artifacts()
            .filter(|m| m["fresh"] == false)
            .map(|m| m["target"]["name"].as_str().unwrap_or("").to_string())
            .collect();
        let exe = artifacts()
            .filter(|m| m["target"]["kind"][0] == "bin")
            .find_map(|m| m["executable"].as_str())
            .expect("cargo names the executable");
        let out = Command::new(exe).output().unwrap();
        assert!(out.status.success(), "{exe} failed: {out:?}");
        Run {
            stdout: String::from_utf8(out.stdout).unwrap(),
            compiled,
        }
    }

    /// Waits until a change made now gets a later modification time than the
    /// last build's outputs, even on a file system that keeps whole seconds.
    fn settle(&self) {
        let wait = Duration::from_millis(1100).saturating_sub(self.built.elapsed());
        std::thread::sleep(wait);
    }

    fn write(&self, rel: &str, text: &str) {
        self.settle();
        write_tree(self.dir.path(), &[(rel, text.as_bytes())]);
    }

    fn remove(&self, rel: &str) {
        self.settle();
        std::fs::remove_file(self.dir.path().join(rel)).unwrap();
    }
}

/// What one build and run of a scratch crate gave.
#[derive(Debug)]
struct Run {
    /// What the binary printed.
    stdout: String,
    /// The targets Cargo compiled rather than found fresh.
    compiled: Vec<String>,
}

/// The compiler messages of a JSON build, as rustc rendered them.
fn rendered(messages: &[Value]) -> String {
    messages
        .iter()
        .filter_map(|m| m["message"]["rendered"].as_str())
        .collect()
}

/// `scratch/` in the target directory (as `cargo metadata` finds it): where
/// every scratch crate builds, so dependencies are compiled once.
fn scratch_target() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = Command::new(env!("CARGO"))
            .args(["metadata", "--no-deps", "--format-version=1", "--offline"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(out.status.success(), "cargo metadata failed");
        let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
        Path::new(meta["target_directory"].as_str().unwrap()).join("scratch")
    })
}

#[test]
fn watch_in_build_rs_tracks_edits_additions_and_deletions() {
    let mut krate = Scratch::new("rebuild-watched", true);
    assert_eq!(
        krate.run().stdout,
        "notes/SKILL.md\nnotes/references/tip.md\nTip one.\n"
    );

    krate.write("skills/notes/references/tip.md", "Tip two.\n");
    assert_eq!(
        krate.run().stdout,
        "notes/SKILL.md\nnotes/references/tip.md\nTip two.\n",
        "an edited file is re-embedded"
    );

    krate.write("skills/notes/references/extra.md", "More.\n");
    krate.write("skills/todo/SKILL.md", &skill_md("todo"));
    assert_eq!(
        krate.run().stdout,
        "notes/SKILL.md\nnotes/references/extra.md\nnotes/references/tip.md\n\
         todo/SKILL.md\nTip two.\n",
        "an added file and an added skill are embedded"
    );

    krate.remove("skills/notes/references/extra.md");
    assert_eq!(
        krate.run().stdout,
        "notes/SKILL.md\nnotes/references/tip.md\ntodo/SKILL.md\nTip two.\n",
        "a deleted file is dropped"
    );
}

#[test]
fn without_build_rs_an_added_file_goes_unnoticed() {
    // If `skills-bundle` itself changes meanwhile (someone is editing the
    // workspace), Cargo rebuilds everything and the observation is void:
    // start again.
    for _attempt in 0..3 {
        let mut krate = Scratch::new("rebuild-unwatched", false);
        let before = krate.run().stdout;
        assert_eq!(
            before,
            "notes/SKILL.md\nnotes/references/tip.md\nTip one.\n"
        );

        krate.write("skills/notes/references/extra.md", "More.\n");
        let after = krate.run();
        if !after.compiled.is_empty() && after.compiled != ["rebuild-unwatched"] {
            continue;
        }
        assert!(
            after.compiled.is_empty(),
            "no build.rs: Cargo has no reason to rebuild for a new file"
        );
        assert_eq!(after.stdout, before);

        // An edit to an embedded file is tracked all the same, and the rebuild
        // it causes picks up the earlier addition too.
        krate.write("skills/notes/references/tip.md", "Tip two.\n");
        let edited = krate.run();
        assert!(edited.compiled.iter().any(|t| t == "rebuild-unwatched"));
        assert_eq!(
            edited.stdout,
            "notes/SKILL.md\nnotes/references/extra.md\nnotes/references/tip.md\nTip two.\n"
        );
        return;
    }
    panic!("`skills-bundle` kept changing during the test");
}

//! Helpers shared by the integration tests in `tests/tests/`.
//!
//! The tests drive the real `skills` binary; [`skills_bin`] finds it next to
//! the test executable and builds it once when a bare `cargo test -p
//! skills-tests` did not.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// `../shared`, beside the workspace.
pub fn shared() -> PathBuf {
    workspace().join("../shared")
}

/// Path of the `skills` binary, built if needed.
pub fn skills_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let exe = std::env::current_exe().expect("test executable path");
        // target/<profile>/deps/<test> -> target/<profile>/skills
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>")
            .to_path_buf();
        let bin = profile_dir.join(format!("skills{}", std::env::consts::EXE_SUFFIX));
        let release = profile_dir.file_name().is_some_and(|n| n == "release");
        let mut build = Command::new(env!("CARGO"));
        build.current_dir(workspace()).args([
            "build",
            "--quiet",
            "-p",
            "skills-cli",
            "--bin",
            "skills",
        ]);
        if release {
            build.arg("--release");
        }
        let status = build.status().expect("run cargo build");
        assert!(status.success(), "building the skills binary failed");
        bin
    })
}

/// A `Command` for the `skills` binary.
pub fn skills() -> Command {
    Command::new(skills_bin())
}

/// A fresh temporary directory.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// Writes `files` (relative path → bytes) under `dir`.
pub fn write_tree(dir: &Path, files: &[(&str, &[u8])]) {
    for (rel, bytes) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create directories");
        }
        std::fs::write(&path, bytes).expect("write file");
    }
}

/// Decodes standard base64 (the golden cases store file bytes that way).
pub fn base64_decode(s: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let clean: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    for chunk in clean.chunks(4) {
        let data: Vec<u8> = chunk.iter().copied().filter(|&c| c != b'=').collect();
        let mut n = 0u32;
        for (i, &c) in data.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..data.len().max(1)]);
    }
    out
}

/// One case of `../shared/golden/cases.json`, materialised under a temporary root.
#[derive(Debug)]
pub struct GoldenCase {
    /// The case's JSON record.
    pub json: serde_json::Value,
    /// `<ROOT>`: the folder holding the case's directory.
    pub root: tempfile::TempDir,
}

impl GoldenCase {
    /// The case id.
    pub fn id(&self) -> &str {
        self.json["id"].as_str().unwrap_or("")
    }

    /// `<ROOT>/<dirname>`.
    pub fn dir(&self) -> PathBuf {
        self.root
            .path()
            .join(self.json["dirname"].as_str().unwrap_or(""))
    }

    /// Replaces the temporary root with `<ROOT>`, as the recorded output does.
    pub fn anonymise(&self, text: &str) -> String {
        text.replace(&self.root.path().display().to_string(), "<ROOT>")
    }
}

/// Every golden case, materialised (symbolic links included).
pub fn golden_cases() -> Vec<GoldenCase> {
    let path = shared().join("golden/cases.json");
    let text = std::fs::read_to_string(&path).expect("../shared/golden/cases.json");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("cases.json is JSON");
    let cases = doc["cases"].as_array().expect("cases array").clone();
    cases
        .into_iter()
        .map(|json| {
            let root = tempdir();
            let dirname = json["dirname"].as_str().expect("dirname");
            let real = json["dir_is_symlink_to"].as_str().unwrap_or(dirname);
            let dir = root.path().join(real);
            std::fs::create_dir_all(&dir).expect("case directory");
            if let Some(files) = json["files"].as_object() {
                for (rel, spec) in files {
                    let target = dir.join(rel);
                    if let Some(parent) = target.parent() {
                        std::fs::create_dir_all(parent).expect("parent");
                    }
                    if let Some(link) = spec["symlink"].as_str() {
                        symlink(Path::new(link), &target);
                    } else {
                        let bytes = base64_decode(spec["b64"].as_str().expect("b64"));
                        std::fs::write(&target, bytes).expect("write case file");
                    }
                }
            }
            if real != dirname {
                symlink(Path::new(real), &root.path().join(dirname));
            }
            GoldenCase { json, root }
        })
        .collect()
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("create symlink");
}

#[cfg(not(unix))]
fn symlink(_target: &Path, _link: &Path) {}

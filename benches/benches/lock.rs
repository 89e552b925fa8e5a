//! Reading `skb.lock` and checking the installed tree against it: the work
//! `skb list`, `skb verify --installed` and an agent's start-up check do.
//!
//! Run with `cargo bench -p skills-benches --bench lock`.
//!
//! - `read_lock`: `Lock::parse` of a lock holding one skill with 1,000,
//!   10,000 and 100,000 file entries (the target: 100,000 in under
//!   100 ms; the duplicate-key check used to compare every pair of keys
//!   and took 49 s there).
//! - `verify_corpus_two_clients`: `skills_core::lock::installed::verify`
//!   over the 454 skills of the shared corpus (`../shared/corpus`)
//!   installed for two clients (`.claude/skills` and `.agents/skills`),
//!   every file re-hashed, every folder walked without following links.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use divan::Bencher;
use skills_core::lock::installed::verify;
use skills_core::lock::tree::hash_files;
use skills_core::lock::{Lock, LockedSkill, Resolved, Scope};

fn main() {
    divan::main();
}

/// A lock of one skill with `files` file entries.
fn lock_with_files(files: usize) -> String {
    let names: Vec<String> = (0..files)
        .map(|i| format!("dir{}/file{i}.md", i % 97))
        .collect();
    let mut lock = Lock::default();
    lock.insert(LockedSkill {
        name: "big".into(),
        origin: None,
        accepted: Vec::new(),
        source: "./big".into(),
        resolved: Resolved::Folder {
            path: "./big".into(),
        },
        digest: format!("sha256:{}", "0".repeat(64)),
        signer: None,
        unsigned: None,
        profile: None,
        scan: None,
        installed: vec![".claude/skills/big".into()],
        files: hash_files(names.iter().map(|n| (n.as_str(), n.as_bytes(), false))),
    });
    lock.to_json()
}

#[divan::bench(args = [1_000, 10_000, 100_000], sample_count = 10)]
fn read_lock(bencher: Bencher, files: usize) {
    let text = lock_with_files(files);
    bencher.bench(|| match Lock::parse(divan::black_box(&text)) {
        Ok(lock) => lock,
        Err(e) => panic!("{e}"),
    });
}

/// The corpus installed for two clients in a temporary project, with its
/// lock.
struct Installed {
    _tmp: tempfile::TempDir,
    scope: Scope,
    lock: Lock,
}

static INSTALLED: LazyLock<Result<Installed, String>> = LazyLock::new(install_corpus);

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/collections")
}

/// The folders holding a `SKILL.md` at or below `dir`.
fn find_skills(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if dir.join("SKILL.md").is_file() {
        out.push(dir.to_path_buf());
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            find_skills(&entry.path(), out)?;
        }
    }
    Ok(())
}

/// Every regular file below `dir`: path relative to it and contents.
fn read_files(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let kind = entry.file_type()?;
        if kind.is_dir() {
            read_files(&entry.path(), &rel, out)?;
        } else if kind.is_file() {
            out.push((rel, std::fs::read(entry.path())?));
        }
    }
    Ok(())
}

fn install_corpus() -> Result<Installed, String> {
    let root = corpus_root();
    let mut dirs = Vec::new();
    find_skills(&root, &mut dirs).map_err(|e| format!("`{}`: {e}", root.display()))?;
    dirs.sort();
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut lock = Lock::default();
    for dir in &dirs {
        let base = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Six corpus skills share a folder name with another collection's.
        let mut name = base.clone();
        let mut n = 1;
        while lock.get(&name).is_some() {
            n += 1;
            name = format!("{base}-{n}");
        }
        let mut files = Vec::new();
        read_files(dir, "", &mut files).map_err(|e| format!("`{}`: {e}", dir.display()))?;
        let mut installed = Vec::new();
        for client in [".agents/skills", ".claude/skills"] {
            let rel = format!("{client}/{name}");
            for (path, bytes) in &files {
                let to = tmp.path().join(&rel).join(path);
                if let Some(parent) = to.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
                }
                std::fs::write(&to, bytes).map_err(|e| e.to_string())?;
            }
            installed.push(rel);
        }
        lock.insert(LockedSkill {
            name: name.clone(),
            origin: None,
            accepted: Vec::new(),
            source: dir.display().to_string(),
            resolved: Resolved::Folder {
                path: dir.display().to_string(),
            },
            digest: format!("sha256:{}", "0".repeat(64)),
            signer: None,
            unsigned: None,
            profile: None,
            scan: None,
            installed,
            files: hash_files(files.iter().map(|(p, b)| (p.as_str(), b.as_slice(), false))),
        });
    }
    let scope = Scope::project(tmp.path());
    let report = verify(&scope, &lock, &[]).map_err(|e| e.to_string())?;
    if !report.is_clean() {
        return Err(format!(
            "the installed corpus differs: {:?}",
            report.findings
        ));
    }
    Ok(Installed {
        _tmp: tmp,
        scope,
        lock,
    })
}

#[divan::bench(sample_count = 20)]
fn verify_corpus_two_clients(bencher: Bencher) {
    let installed = match INSTALLED.as_ref() {
        Ok(i) => i,
        Err(e) => panic!("{e}"),
    };
    bencher.bench(|| match verify(&installed.scope, &installed.lock, &[]) {
        Ok(report) => report,
        Err(e) => panic!("{e}"),
    });
}

//! The security scanner in process, on the shared corpus
//! (`../shared/corpus/collections`, 454 real public skills).
//!
//! Run with `cargo bench -p skills-benches --bench scan`. Throughputs are in
//! bytes of the skills' files.
//!
//! - `scan_corpus`: `skills_scan::scan` of every skill, one after the other
//!   on one thread, from files read into memory before the timing: the
//!   scanner's own cost.
//! - `scan_dir_corpus`: `skills_scan::scan_dir` of every skill folder: the
//!   same plus walking and reading the folders (from a warm page cache),
//!   which is what `skb scan` adds per skill.
//!
//! End-to-end figures against the peers (cisco-ai-skill-scanner,
//! agent-skill-scanner) come from `scripts/bench-scan.sh`; see
//! `BENCHMARKS.md`.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use skills_scan::{Options, SkillFile, scan, scan_dir};

/// One skill, read into memory.
struct Skill {
    dir: PathBuf,
    /// Every regular file below the folder: path relative to it
    /// (`/`-separated) and contents.
    files: Vec<(String, Vec<u8>)>,
}

static CORPUS: LazyLock<Result<Vec<Skill>, String>> = LazyLock::new(load);

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/collections")
}

fn load() -> Result<Vec<Skill>, String> {
    let root = corpus_root();
    let mut dirs = Vec::new();
    find_skills(&root, &mut dirs).map_err(|e| format!("`{}`: {e}", root.display()))?;
    dirs.sort();
    let mut skills = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let mut files = Vec::new();
        read_files(&dir, "", &mut files).map_err(|e| format!("`{}`: {e}", dir.display()))?;
        files.sort();
        skills.push(Skill { dir, files });
    }
    if skills.is_empty() {
        return Err(format!("no skill below `{}`", root.display()));
    }
    Ok(skills)
}

/// The folders holding a `SKILL.md` at or below `dir`, links not followed.
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

/// Every regular file below `dir`, as `scan_dir` reads them.
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

fn corpus() -> &'static [Skill] {
    match CORPUS.as_ref() {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

fn corpus_bytes() -> BytesCount {
    BytesCount::new(
        corpus()
            .iter()
            .flat_map(|s| &s.files)
            .map(|(_, b)| b.len())
            .sum::<usize>(),
    )
}

fn main() {
    match CORPUS.as_ref() {
        Ok(skills) => {
            let files: usize = skills.iter().map(|s| s.files.len()).sum();
            let bytes: usize = skills
                .iter()
                .flat_map(|s| &s.files)
                .map(|(_, b)| b.len())
                .sum();
            let options = Options::default();
            let findings: usize = skills
                .iter()
                .map(|s| {
                    let files: Vec<SkillFile<'_>> = s
                        .files
                        .iter()
                        .map(|(path, bytes)| SkillFile { path, bytes })
                        .collect();
                    scan(&files, &options).findings.len()
                })
                .sum();
            eprintln!(
                "scan bench: {} skills, {files} files, {bytes} bytes; {findings} findings",
                skills.len()
            );
        }
        Err(e) => {
            eprintln!(
                "scan bench: skipped: {e} (check out ../shared beside the repository; corpus `{}`)",
                corpus_root().display()
            );
            return;
        }
    }
    divan::main();
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn scan_corpus(bencher: Bencher) {
    let skills = corpus();
    let inputs: Vec<Vec<SkillFile<'_>>> = skills
        .iter()
        .map(|s| {
            s.files
                .iter()
                .map(|(path, bytes)| SkillFile { path, bytes })
                .collect()
        })
        .collect();
    let options = Options::default();
    bencher.counter(corpus_bytes()).bench(|| {
        inputs
            .iter()
            .map(|files| scan(divan::black_box(files), &options).findings.len())
            .sum::<usize>()
    });
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn scan_dir_corpus(bencher: Bencher) {
    let skills = corpus();
    let options = Options::default();
    bencher.counter(corpus_bytes()).bench(|| {
        skills
            .iter()
            .map(|s| match scan_dir(divan::black_box(&s.dir), &options) {
                Ok(report) => report.findings.len(),
                Err(e) => panic!("{e}"),
            })
            .sum::<usize>()
    });
}

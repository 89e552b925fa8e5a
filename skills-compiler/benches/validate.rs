//! Micro-benchmarks of the compiler core on the shared corpus
//! (`../shared/corpus/collections`, 454 real skills).
//!
//! Run with `cargo bench -p skills-compiler --bench validate`.
//! Without the corpus beside the checkout the benchmarks are skipped with a
//! message. End-to-end figures against the reference validator come from
//! `scripts/bench-validate.sh`; see `BENCHMARKS.md`.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use skills_compiler::{self as compiler, Options, frontmatter, yaml};

/// What the benchmarks read, loaded once.
struct Corpus {
    /// The corpus root.
    root: PathBuf,
    /// The skill whose `SKILL.md` has the median size.
    median_dir: PathBuf,
    /// That `SKILL.md`'s bytes.
    median_md: Vec<u8>,
}

static CORPUS: LazyLock<Option<Corpus>> = LazyLock::new(load);

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/collections")
}

fn load() -> Option<Corpus> {
    let root = corpus_root();
    let mut found = Vec::new();
    collect_skill_mds(&root, &mut found);
    found.sort();
    let mut sized: Vec<(u64, PathBuf)> = found
        .into_iter()
        .filter_map(|p| Some((fs::metadata(&p).ok()?.len(), p)))
        .collect();
    sized.sort();
    let (_, median) = sized.get(sized.len() / 2)?.clone();
    let median_md = fs::read(&median).ok()?;
    let median_dir = median.parent()?.to_path_buf();
    Some(Corpus {
        root,
        median_dir,
        median_md,
    })
}

/// Every `SKILL.md` under `dir`, skipping hidden directories.
fn collect_skill_mds(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && !entry.file_name().to_string_lossy().starts_with('.') {
            collect_skill_mds(&path, out);
        } else if kind.is_file() && entry.file_name() == "SKILL.md" {
            out.push(path);
        }
    }
}

fn corpus() -> &'static Corpus {
    match CORPUS.as_ref() {
        Some(c) => c,
        None => unreachable!("main() skips the benchmarks without a corpus"),
    }
}

fn main() {
    match CORPUS.as_ref() {
        None => eprintln!(
            "validate bench: skipped: no skills under `{}` (check out ../shared beside the repository)",
            corpus_root().display()
        ),
        Some(c) => {
            eprintln!(
                "validate bench: median SKILL.md is {} ({} bytes)",
                c.median_dir.display(),
                c.median_md.len()
            );
            divan::main();
        }
    }
}

/// `check_dir` on the skill with the median-sized `SKILL.md`: read, split,
/// parse, every rule and lint, file walk of the skill.
#[divan::bench]
fn check_dir_median_skill() -> compiler::CheckedSkill {
    compiler::check_dir(divan::black_box(&corpus().median_dir), &Options::default())
}

/// `check` over the whole corpus (discovery plus all skills), on 1 and 2
/// worker threads.
#[divan::bench(args = [1, 2], sample_count = 30)]
fn check_corpus(threads: usize) -> compiler::Checked {
    let options = Options {
        threads,
        ..Options::default()
    };
    compiler::check(&[divan::black_box(corpus().root.clone())], &options)
}

/// Frontmatter split of the median `SKILL.md`, held in memory.
#[divan::bench]
fn split_median() -> Option<frontmatter::Split> {
    frontmatter::split(divan::black_box(&corpus().median_md)).ok()
}

/// Frontmatter split plus YAML parse of the median `SKILL.md`, in memory.
#[divan::bench]
fn split_and_parse_median() -> Option<yaml::Parsed> {
    let bytes = divan::black_box(&corpus().median_md);
    let split = frontmatter::split(bytes).ok()?;
    let text = std::str::from_utf8(bytes).ok()?;
    Some(yaml::parse(text, split.yaml.start, split.yaml.end))
}

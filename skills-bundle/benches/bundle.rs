//! Run-time costs of a compiled bundle, next to `include_dir` as the peer.
//!
//! Run with `cargo bench -p skills-bundle --bench bundle`. The shared corpus
//! (`../shared/corpus/collections`, 454 skills) is embedded twice at build
//! time, with `skills_bundle!` and with `include_dir!`, so the bench needs
//! `../shared` beside the checkout to compile (as `tests/tests/embed.rs`
//! does). The reference skill is the one whose `SKILL.md` has the median size.
//!
//! - `lookup`: a skill by name (`Bundle::get`, one perfect-hash probe) against
//!   `include_dir`'s `get_dir` / `get_file` by path (a depth-first walk of the
//!   tree comparing `Path`s); `lookup_all` does every skill, per lookup.
//! - `first_read`: a file's first read inflates and hashes it, then caches it
//!   in a `OnceLock` that cannot be reset from outside, so it is measured on
//!   its parts: the same `skills_core::deflate::inflate` + SHA-256 +
//!   `into_boxed_slice` that `File::bytes` runs, on the median `SKILL.md`'s
//!   stored bytes (`File::stored`, `File::size`), with and without the lookup
//!   in front. The `OnceLock` set itself is not counted. `miniz_oxide`'s
//!   inflater, which `deflate::inflate` replaced, is the peer.
//! - `cached_read`: later reads, by path (`Skill::read`) and through a held
//!   `File`, against `include_dir`'s `get_file(..).contents()`.
//! - `catalog`: the prompt block, a `&'static str`.
//!
//! Build time and binary size against `include_dir` come from
//! `scripts/bench-embed.sh`.

use std::path::PathBuf;
use std::sync::LazyLock;

use divan::{Bencher, black_box, counter::ItemsCount};
use include_dir::{Dir, include_dir};
use skills_bundle::{Bundle, File, Skill, skills_bundle};

static CORPUS: Bundle = skills_bundle!(
    "../../shared/corpus/collections",
    profile = "claude-code",
    warnings = "allow"
);

static EXAMPLES: Bundle = skills_bundle!("../skills", warnings = "allow");

static CORPUS_DIR: Dir<'static> =
    include_dir!("$CARGO_MANIFEST_DIR/../../shared/corpus/collections");

/// Iterations per sample for the nanosecond benchmarks: divan sizes samples
/// from a first timing, and one slow first run (cold caches) can leave them at
/// one iteration, below the timer's precision.
const NS_SAMPLE: u32 = 1000;

/// The skill with the median-sized `SKILL.md`, and where `include_dir` has it.
struct Median {
    skill: Skill<'static>,
    md: File<'static>,
    /// The skill directory, relative to the corpus root.
    dir: PathBuf,
    /// Its `SKILL.md`, relative to the corpus root.
    md_path: PathBuf,
}

static MEDIAN: LazyLock<Median> = LazyLock::new(|| {
    let mut sized: Vec<(u64, Skill<'static>)> = CORPUS
        .skills()
        .filter_map(|s| Some((s.file("SKILL.md").ok()?.size(), s)))
        .collect();
    sized.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name().cmp(b.1.name())));
    let Some(&(_, skill)) = sized.get(sized.len() / 2) else {
        panic!("no skill in the corpus bundle")
    };
    let Ok(md) = skill.file("SKILL.md") else {
        unreachable!("filtered above")
    };
    let dir = PathBuf::from(skill.source_dir());
    let md_path = dir.join("SKILL.md");
    Median {
        skill,
        md,
        dir,
        md_path,
    }
});

/// Every skill's name and directory (relative to the corpus root).
static ALL: LazyLock<Vec<(&'static str, PathBuf)>> = LazyLock::new(|| {
    CORPUS
        .skills()
        .map(|s| (s.name(), PathBuf::from(s.source_dir())))
        .collect()
});

fn main() {
    let m = &*MEDIAN;
    let (stored, deflated) = m.md.stored();
    assert!(
        CORPUS_DIR.get_file(&m.md_path).map(|f| f.contents()) == m.skill.read("SKILL.md").ok(),
        "include_dir and skills_bundle! disagree on {}",
        m.md_path.display()
    );
    assert!(ALL.iter().all(|(_, dir)| CORPUS_DIR.get_dir(dir).is_some()));
    eprintln!(
        "bundle bench: {} skills; median SKILL.md: `{}` ({}), {} bytes, stored as {} bytes{}",
        CORPUS.len(),
        m.skill.name(),
        m.md_path.display(),
        m.md.size(),
        stored.len(),
        if deflated {
            " of raw deflate"
        } else {
            " uncompressed"
        }
    );
    divan::main();
}

mod lookup {
    use super::*;

    /// `Bundle::get` on the corpus bundle.
    #[divan::bench(sample_size = NS_SAMPLE)]
    fn skills_bundle_get(bencher: Bencher) {
        let name = MEDIAN.skill.name();
        bencher.bench(|| CORPUS.get(black_box(name)));
    }

    /// `Bundle::get` on the five example skills.
    #[divan::bench(sample_size = NS_SAMPLE)]
    fn skills_bundle_get_examples(bencher: Bencher) {
        bencher.bench(|| EXAMPLES.get(black_box("calculator")));
    }

    /// `Bundle::get` of a name that is not there.
    #[divan::bench(sample_size = NS_SAMPLE)]
    fn skills_bundle_get_missing(bencher: Bencher) {
        bencher.bench(|| CORPUS.get(black_box("no-such-skill")));
    }

    /// `include_dir`: the skill's directory by path.
    #[divan::bench]
    fn include_dir_get_dir(bencher: Bencher) {
        let dir = MEDIAN.dir.as_path();
        bencher.bench(|| CORPUS_DIR.get_dir(black_box(dir)));
    }

    /// `include_dir`: the skill's `SKILL.md` by path.
    #[divan::bench]
    fn include_dir_get_file(bencher: Bencher) {
        let md = MEDIAN.md_path.as_path();
        bencher.bench(|| CORPUS_DIR.get_file(black_box(md)));
    }
}

mod lookup_all {
    use super::*;

    /// `Bundle::get` of every skill, by name.
    #[divan::bench]
    fn skills_bundle_get(bencher: Bencher) {
        bencher.counter(ItemsCount::new(ALL.len())).bench(|| {
            for (name, _) in ALL.iter() {
                black_box(CORPUS.get(black_box(name)));
            }
        });
    }

    /// `include_dir`'s `get_dir` of every skill, by path.
    #[divan::bench(sample_count = 20)]
    fn include_dir_get_dir(bencher: Bencher) {
        bencher.counter(ItemsCount::new(ALL.len())).bench(|| {
            for (_, dir) in ALL.iter() {
                black_box(CORPUS_DIR.get_dir(black_box(dir)));
            }
        });
    }
}

/// What `File::bytes` does on a first read, without the `OnceLock` set.
fn inflate_and_check(stored: &[u8], size: u64, sha256: &[u8; 32]) -> Option<Box<[u8]>> {
    let limit = usize::try_from(size).ok()?;
    let out = skills_core::deflate::inflate(stored, limit).ok()?;
    if skills_core::digest::sha256(&out) != *sha256 {
        return None;
    }
    Some(out.into_boxed_slice())
}

mod first_read {
    use super::*;

    /// Inflate + SHA-256 of the median `SKILL.md`'s stored bytes.
    #[divan::bench]
    fn inflate_and_hash(bencher: Bencher) {
        let md = MEDIAN.md;
        let (stored, _) = md.stored();
        bencher.bench(|| inflate_and_check(black_box(stored), md.size(), md.sha256()));
    }

    /// The same, after `Bundle::get` and `Skill::file("SKILL.md")`.
    #[divan::bench]
    fn lookup_then_inflate_and_hash(bencher: Bencher) {
        let name = MEDIAN.skill.name();
        bencher.bench(|| {
            let md = CORPUS.get(black_box(name))?.file("SKILL.md").ok()?;
            inflate_and_check(md.stored().0, md.size(), md.sha256())
        });
    }

    /// Inflate alone, no hash: `skills_core::deflate::inflate`.
    #[divan::bench]
    fn inflate_only(bencher: Bencher) {
        let md = MEDIAN.md;
        let (stored, _) = md.stored();
        let limit = usize::try_from(md.size()).unwrap_or(usize::MAX);
        bencher.bench(|| skills_core::deflate::inflate(black_box(stored), limit).ok());
    }

    /// The peer: `miniz_oxide`'s `decompress_to_vec_with_limit` (a growing
    /// `Vec`).
    #[divan::bench]
    fn miniz_oxide_to_vec(bencher: Bencher) {
        let md = MEDIAN.md;
        let (stored, _) = md.stored();
        let limit = usize::try_from(md.size()).unwrap_or(usize::MAX);
        bencher.bench(|| {
            miniz_oxide::inflate::decompress_to_vec_with_limit(black_box(stored), limit).ok()
        });
    }

    /// SHA-256 alone, of the decompressed bytes.
    #[divan::bench]
    fn hash_only(bencher: Bencher) {
        let bytes = MEDIAN.skill.read("SKILL.md").unwrap_or_default();
        bencher.bench(|| skills_core::digest::sha256(black_box(bytes)));
    }

    /// The peer: `miniz_oxide`'s core API into a buffer of the recorded
    /// size (one allocation), what `deflate::inflate` ran before.
    #[divan::bench]
    fn miniz_oxide_exact(bencher: Bencher) {
        use miniz_oxide::inflate::TINFLStatus;
        use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};
        let md = MEDIAN.md;
        let (stored, _) = md.stored();
        let size = usize::try_from(md.size()).unwrap_or(0);
        bencher.bench(|| {
            let mut state = Box::<DecompressorOxide>::default();
            let mut out = vec![0u8; size].into_boxed_slice();
            let (status, _, written) = decompress(
                &mut state,
                black_box(stored),
                &mut out,
                0,
                inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
            );
            (status == TINFLStatus::Done && written == size).then_some(out)
        });
    }

    /// `include_dir` has nothing to inflate: its first read is a lookup.
    #[divan::bench]
    fn include_dir_get_file_contents(bencher: Bencher) {
        let md = MEDIAN.md_path.as_path();
        bencher.bench(|| CORPUS_DIR.get_file(black_box(md)).map(|f| f.contents()));
    }
}

mod cached_read {
    use super::*;

    fn warm() {
        let _ = MEDIAN.skill.read("SKILL.md");
    }

    /// `Skill::read("SKILL.md")` on a held `Skill`: path check and
    /// normalisation, perfect-hash probe, cached bytes.
    #[divan::bench(sample_size = NS_SAMPLE)]
    fn skill_read(bencher: Bencher) {
        warm();
        let skill = MEDIAN.skill;
        bencher.bench(|| skill.read(black_box("SKILL.md")).map(<[u8]>::len));
    }

    /// `Bundle::get` then `Skill::read`.
    #[divan::bench(sample_size = NS_SAMPLE)]
    fn get_then_read(bencher: Bencher) {
        warm();
        let name = MEDIAN.skill.name();
        bencher.bench(|| {
            CORPUS
                .get(black_box(name))
                .and_then(|s| s.read("SKILL.md").ok())
                .map(<[u8]>::len)
        });
    }

    /// `File::bytes` on a held `File`: the cache alone.
    #[divan::bench(sample_size = NS_SAMPLE)]
    fn file_bytes(bencher: Bencher) {
        warm();
        let md = MEDIAN.md;
        bencher.bench(|| black_box(md).bytes().map(<[u8]>::len));
    }

    /// `include_dir`: `get_file(path).contents()`.
    #[divan::bench]
    fn include_dir_get_file_contents(bencher: Bencher) {
        let md = MEDIAN.md_path.as_path();
        bencher.bench(|| {
            CORPUS_DIR
                .get_file(black_box(md))
                .map(|f| f.contents().len())
        });
    }
}

/// `Bundle::catalog`: the `<available_skills>` block rendered at build time.
#[divan::bench(sample_size = NS_SAMPLE)]
fn catalog() -> usize {
    black_box(&CORPUS).catalog().len()
}

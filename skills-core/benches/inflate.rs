//! Inflating the corpus's `SKILL.md` files: ours against `miniz_oxide`.
//!
//! Run with `cargo bench -p skills-core --bench inflate` (needs `../shared`
//! beside the checkout). Every `SKILL.md` under
//! `../shared/corpus/collections` is deflated at [`deflate::LEVEL`], as
//! `skills_bundle!` and `skb pack` store it, then inflated back into a
//! buffer of its recorded size by:
//!
//! - `ours`: [`deflate::inflate`], what every first read runs;
//! - `miniz_oxide_exact`: `miniz_oxide`'s core decompressor into a buffer of
//!   the recorded size (what `deflate::inflate` ran before);
//! - `miniz_oxide_to_vec`: `decompress_to_vec_with_limit`, a growing `Vec`.
//!
//! `median` is the `SKILL.md` of median size; `all` is every one of them,
//! counted in bytes of output. Other inflaters (libdeflate, zune-inflate,
//! zlib-rs) were compared once with `scripts/bench-inflaters.sh`.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use divan::{Bencher, black_box, counter::BytesCount};
use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};
use skills_core::deflate;

/// A file as stored: raw deflate and the recorded size.
struct Stored {
    path: PathBuf,
    deflated: Vec<u8>,
    size: usize,
}

fn skill_mds(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => skill_mds(&path, found),
            Ok(t) if t.is_file() && entry.file_name() == "SKILL.md" => found.push(path),
            _ => {}
        }
    }
}

/// Every compressible `SKILL.md` of the corpus, smallest first.
static FILES: LazyLock<Vec<Stored>> = LazyLock::new(|| {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/collections");
    let mut paths = Vec::new();
    skill_mds(&root, &mut paths);
    let mut files: Vec<Stored> = paths
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).ok()?;
            let deflated = deflate::compress(&bytes)?;
            let path = path.strip_prefix(&root).ok()?.to_path_buf();
            Some(Stored {
                path,
                deflated,
                size: bytes.len(),
            })
        })
        .collect();
    files.sort_by(|a, b| a.size.cmp(&b.size).then_with(|| a.path.cmp(&b.path)));
    assert!(!files.is_empty(), "no SKILL.md under {}", root.display());
    files
});

fn median() -> &'static Stored {
    &FILES[FILES.len() / 2]
}

fn total() -> usize {
    FILES.iter().map(|f| f.size).sum()
}

fn ours(f: &Stored) -> Option<Vec<u8>> {
    deflate::inflate(&f.deflated, f.size).ok()
}

fn miniz_exact(f: &Stored) -> Option<Vec<u8>> {
    let mut out = vec![0; f.size];
    let mut state = Box::<DecompressorOxide>::default();
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let (status, consumed, written) = decompress(&mut state, &f.deflated, &mut out, 0, flags);
    (status == TINFLStatus::Done && written == f.size && consumed == f.deflated.len())
        .then_some(out)
}

fn miniz_to_vec(f: &Stored) -> Option<Vec<u8>> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(&f.deflated, f.size).ok()
}

fn main() {
    for f in FILES.iter() {
        let want = miniz_to_vec(f);
        assert!(want.is_some(), "{}", f.path.display());
        assert!(ours(f) == want, "ours differs on {}", f.path.display());
        assert!(miniz_exact(f) == want, "{}", f.path.display());
    }
    let m = median();
    eprintln!(
        "inflate bench: {} SKILL.md files, {} bytes; median `{}`, {} bytes stored as {}",
        FILES.len(),
        total(),
        m.path.display(),
        m.size,
        m.deflated.len()
    );
    divan::main();
}

mod median {
    use super::*;

    #[divan::bench]
    fn ours(bencher: Bencher) {
        let f = median();
        bencher
            .counter(BytesCount::new(f.size))
            .bench(|| super::ours(black_box(f)));
    }

    #[divan::bench]
    fn miniz_oxide_exact(bencher: Bencher) {
        let f = median();
        bencher
            .counter(BytesCount::new(f.size))
            .bench(|| miniz_exact(black_box(f)));
    }

    #[divan::bench]
    fn miniz_oxide_to_vec(bencher: Bencher) {
        let f = median();
        bencher
            .counter(BytesCount::new(f.size))
            .bench(|| miniz_to_vec(black_box(f)));
    }
}

mod all {
    use super::*;

    fn each(bencher: Bencher, inflate: fn(&Stored) -> Option<Vec<u8>>) {
        bencher.counter(BytesCount::new(total())).bench(|| {
            for f in FILES.iter() {
                black_box(inflate(black_box(f)));
            }
        });
    }

    #[divan::bench(sample_count = 30)]
    fn ours(bencher: Bencher) {
        each(bencher, super::ours);
    }

    #[divan::bench(sample_count = 30)]
    fn miniz_oxide_exact(bencher: Bencher) {
        each(bencher, miniz_exact);
    }

    #[divan::bench(sample_count = 30)]
    fn miniz_oxide_to_vec(bencher: Bencher) {
        each(bencher, miniz_to_vec);
    }
}

#!/usr/bin/env bash
# Inflaters compared on the corpus's `SKILL.md` files: skills-core's own
# (`deflate::inflate`) against miniz_oxide (what it replaced), libdeflate (C,
# through libdeflater), zune-inflate and zlib-rs (pure Rust).
#
# Usage (from the repository root): bash scripts/bench-inflaters.sh
#
# Creates a scratch crate under $BENCH_DIR (default /tmp/skills-bench-inflaters),
# never inside the repository, with a divan bench: every `SKILL.md` under
# $CORPUS is deflated at `deflate::LEVEL` (as bundles and packs store it) and
# inflated into a buffer of its recorded size by each inflater; the bench
# first checks that every inflater gives every file back byte for byte.
# `median` is the median-sized file, `all` every file (bytes of output).
# The candidates stay out of the workspace: libdeflater builds C, and only
# this comparison needs them. `cargo bench -p skills-core --bench inflate`
# keeps ours against miniz_oxide.
#
# Environment: CORPUS (../shared/corpus/collections), BENCH_DIR.
set -euo pipefail

die() { echo "bench-inflaters: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$root"
CORPUS=${CORPUS:-../shared/corpus/collections}
BENCH_DIR=${BENCH_DIR:-/tmp/skills-bench-inflaters}
[[ -d $CORPUS ]] || die "corpus \`$CORPUS\` not found; check out ../shared beside the repository"
corpus=$(cd "$CORPUS" && pwd -P)
mkdir -p "$BENCH_DIR/benches" "$BENCH_DIR/src"
BENCH_DIR=$(cd "$BENCH_DIR" && pwd -P)
case $BENCH_DIR/ in
    "$root"/*) die "BENCH_DIR must be outside the repository (got $BENCH_DIR)" ;;
esac

cat >"$BENCH_DIR/Cargo.toml" <<EOF
[package]
name = "inflaters"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
skills-core = { path = "$root/skills-core" }
miniz_oxide = { version = "0.9", default-features = false, features = ["with-alloc"] }
libdeflater = "1.26"
zune-inflate = { version = "0.2", default-features = false }
zlib-rs = "0.6"
divan = "0.1"

[[bench]]
name = "inflaters"
harness = false

[workspace]
EOF
echo "//! Empty: see benches/inflaters.rs." >"$BENCH_DIR/src/lib.rs"
cp Cargo.lock "$BENCH_DIR/Cargo.lock"

cat >"$BENCH_DIR/benches/inflaters.rs" <<EOF
//! Inflaters on every \`SKILL.md\` of $corpus.
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use divan::{Bencher, black_box, counter::BytesCount};
use skills_core::deflate;

struct Stored {
    path: PathBuf,
    deflated: Vec<u8>,
    size: usize,
}

fn skill_mds(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => skill_mds(&path, found),
            Ok(t) if t.is_file() && entry.file_name() == "SKILL.md" => found.push(path),
            _ => {}
        }
    }
}

static FILES: LazyLock<Vec<Stored>> = LazyLock::new(|| {
    let root = Path::new("$corpus");
    let mut paths = Vec::new();
    skill_mds(root, &mut paths);
    let mut files: Vec<Stored> = paths
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).ok()?;
            let deflated = deflate::compress(&bytes)?;
            Some(Stored { path, deflated, size: bytes.len() })
        })
        .collect();
    files.sort_by(|a, b| a.size.cmp(&b.size).then_with(|| a.path.cmp(&b.path)));
    files
});

fn ours(f: &Stored) -> Option<Vec<u8>> {
    deflate::inflate(&f.deflated, f.size).ok()
}

fn miniz_oxide(f: &Stored) -> Option<Vec<u8>> {
    use miniz_oxide::inflate::TINFLStatus;
    use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};
    let mut out = vec![0; f.size];
    let mut state = Box::<DecompressorOxide>::default();
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let (status, consumed, written) = decompress(&mut state, &f.deflated, &mut out, 0, flags);
    (status == TINFLStatus::Done && written == f.size && consumed == f.deflated.len()).then_some(out)
}

fn libdeflate(f: &Stored) -> Option<Vec<u8>> {
    let mut out = vec![0; f.size];
    let n = libdeflater::Decompressor::new().deflate_decompress(&f.deflated, &mut out).ok()?;
    (n == f.size).then_some(out)
}

fn zune_inflate(f: &Stored) -> Option<Vec<u8>> {
    let options = zune_inflate::DeflateOptions::default().set_limit(f.size).set_size_hint(f.size);
    let out = zune_inflate::DeflateDecoder::new_with_options(&f.deflated, options).decode_deflate().ok()?;
    (out.len() == f.size).then_some(out)
}

fn zlib_rs(f: &Stored) -> Option<Vec<u8>> {
    let mut out = vec![0; f.size];
    let config = zlib_rs::InflateConfig { window_bits: -15 };
    let (written, code) = zlib_rs::decompress_slice(&mut out, &f.deflated, config);
    (code == zlib_rs::ReturnCode::Ok && written.len() == f.size).then_some(out)
}

const ALL: [(&str, fn(&Stored) -> Option<Vec<u8>>); 5] = [
    ("ours", ours),
    ("miniz_oxide", miniz_oxide),
    ("libdeflate", libdeflate),
    ("zune_inflate", zune_inflate),
    ("zlib_rs", zlib_rs),
];

fn main() {
    assert!(!FILES.is_empty(), "no SKILL.md found");
    for f in FILES.iter() {
        let want = ours(f);
        assert!(want.is_some(), "{}", f.path.display());
        for (name, inflate) in ALL {
            assert!(inflate(f) == want, "{name} differs on {}", f.path.display());
        }
    }
    let m = &FILES[FILES.len() / 2];
    eprintln!(
        "{} SKILL.md files, {} bytes; median {} ({} bytes, {} deflated)",
        FILES.len(),
        FILES.iter().map(|f| f.size).sum::<usize>(),
        m.path.display(),
        m.size,
        m.deflated.len()
    );
    divan::main();
}

#[divan::bench(args = ["ours", "miniz_oxide", "libdeflate", "zune_inflate", "zlib_rs"])]
fn median(bencher: Bencher, name: &str) {
    let inflate = ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f).unwrap_or(ours);
    let f = &FILES[FILES.len() / 2];
    bencher.counter(BytesCount::new(f.size)).bench(|| inflate(black_box(f)));
}

#[divan::bench(args = ["ours", "miniz_oxide", "libdeflate", "zune_inflate", "zlib_rs"], sample_count = 30)]
fn all(bencher: Bencher, name: &str) {
    let inflate = ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f).unwrap_or(ours);
    let total: usize = FILES.iter().map(|f| f.size).sum();
    bencher.counter(BytesCount::new(total)).bench(|| {
        for f in FILES.iter() {
            black_box(inflate(black_box(f)));
        }
    });
}
EOF

echo "== $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(rustc --version)"
cargo bench --manifest-path "$BENCH_DIR/Cargo.toml" --bench inflaters
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"

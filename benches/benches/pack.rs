//! Skill packs in process, on the shared corpus (`../shared/corpus/collections`,
//! 454 skills, profile `claude-code`): writing one from a computed plan, and
//! every step of opening and verifying it.
//!
//! Run with `cargo bench -p skills-benches --bench pack`.
//! Throughputs are in bytes of the files' contents (22.16 MB) where the
//! benchmark inflates them, and in bytes of the pack (7.92 MB) where it only
//! walks the pack.
//!
//! - `write_pack_of_plan`: `compiler::pack::write_pack` of an already computed plan
//!   (compressed and hashed): manifest, headers, copying; no file-system walk.
//! - `plan`: `compiler::embed::plan` of the checked corpus: read, SHA-256,
//!   CRC-32 and deflate every file, which `skb pack` adds to the walk.
//! - `deflate`: `miniz_oxide` over every file's contents in memory, one
//!   thread, at level 6 (the packs' level) and 9; `main` prints the sizes.
//! - `archive_parse`: `zip::Archive::parse` alone: the central directory,
//!   every local header, names, limits, overlaps.
//! - `manifest_parse`: `Manifest::parse` of `skillpack.json`.
//! - `open_unsigned`: `Pack::open` with `Trust::Unsigned`: archive, manifest,
//!   listing, runtime tables; nothing inflated but the manifest.
//! - `read_every_file`: on an opened pack, every file's `File::bytes`:
//!   inflate and SHA-256 (the pack is opened outside the timing).
//! - `verify_unsigned`: `open_unsigned` then `read_every_file`, which is what
//!   `skb verify --unsigned` does in process.
//! - `unzip_every_entry`: the in-process peer of `unzip -t`: `Archive::parse`
//!   then `Entry::read` of every entry (inflate into an exact-size buffer,
//!   CRC-32), no manifest and no SHA-256.
//! - `signed::signature`: `pack::signature::verify` over the whole pack
//!   (BLAKE2b-512, then Ed25519).
//! - `signed::open` and `signed::verify`: as above with `Trust::Signed`;
//!   `signed::verify` is what `skb verify PACK -p KEY` does in process.
//!
//! The runtime crate only verifies, so the signed pack is made by the `skb`
//! binary (`skb keygen -W`, then `skb pack --sign`) in a temporary
//! directory: `$SKILLS_BIN`, else `target/release/skb` (build it first with
//! `cargo build --release -p skb`). Without it the `signed` benchmarks
//! are skipped with a message. End-to-end figures against `zip`, `unzip -t`,
//! `minisign` and `package_skill.py` come from `scripts/bench-pack.sh`; see
//! `BENCHMARKS.md`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use skills_bundle::pack::{MANIFEST_NAME, Manifest, Pack, Trust, signature};
use skills_bundle::zip::{Archive, Limits};
use skills_compiler::embed::{self, Plan};
use skills_compiler::pack::write_pack;
use skills_compiler::{self as compiler, Checked, Options, Profile};
use skills_core::zip::write::DosTime;

/// What the benchmarks use, made once.
struct Fixture {
    /// The collection directories, as `skb pack` is given them.
    roots: Vec<PathBuf>,
    /// The checked corpus.
    checked: Checked,
    /// Its plan: every file compressed and hashed.
    plan: Plan,
    /// The pack written from `plan`.
    pack: Vec<u8>,
    /// Its manifest's text.
    manifest: String,
    /// Every file's contents.
    contents: Vec<Vec<u8>>,
    /// The sum of their sizes.
    content_bytes: u64,
    /// The same pack, signed by the `skb` binary.
    signed: Option<Signed>,
}

/// A pack, its `.minisig` and the public key, made by the CLI.
struct Signed {
    pack: Vec<u8>,
    signature: String,
    public_key: String,
}

static FIXTURE: LazyLock<Result<Fixture, String>> = LazyLock::new(load);

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/collections")
}

fn skills_bin() -> PathBuf {
    std::env::var_os("SKILLS_BIN").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/skb"),
        PathBuf::from,
    )
}

fn load() -> Result<Fixture, String> {
    let root = corpus_root();
    let mut roots: Vec<PathBuf> = std::fs::read_dir(&root)
        .map_err(|e| format!("`{}`: {e}", root.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    roots.sort();
    let options = Options {
        profile: Profile::ClaudeCode,
        ..Options::default()
    };
    let checked = compiler::check(&roots, &options);
    let plan = embed::plan(&checked, &roots, &[]).map_err(|e| e.message)?;
    if plan.skills.is_empty() {
        return Err(format!("no skills under `{}`", root.display()));
    }
    let pack = write_pack(&plan, DosTime::EPOCH)?;
    let archive = Archive::parse(&pack, &Limits::default()).map_err(|e| e.to_string())?;
    let manifest = archive
        .find(MANIFEST_NAME)
        .ok_or("no manifest")?
        .read(&pack)
        .map_err(|e| e.to_string())?;
    let manifest = String::from_utf8(manifest).map_err(|e| e.to_string())?;
    let opened = Pack::open(&pack, Trust::Unsigned).map_err(|e| e.to_string())?;
    let mut contents = Vec::new();
    for skill in opened.bundle().skills() {
        for file in skill.files() {
            contents.push(file.bytes().map_err(|e| e.to_string())?.to_vec());
        }
    }
    let content_bytes = contents.iter().map(|c| c.len() as u64).sum();
    let signed = match sign(&roots, &pack) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("pack bench: skipping the `signed` benchmarks: {e}");
            None
        }
    };
    Ok(Fixture {
        roots,
        checked,
        plan,
        pack,
        manifest,
        contents,
        content_bytes,
        signed,
    })
}

/// Signs the corpus with a throw-away key, through the `skb` binary.
fn sign(roots: &[PathBuf], pack: &[u8]) -> Result<Signed, String> {
    let bin = skills_bin();
    if !bin.is_file() {
        return Err(format!(
            "no `{}` (run `cargo build --release -p skb`, or set SKILLS_BIN)",
            bin.display()
        ));
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (public, secret, out) = (
        dir.path().join("k.pub"),
        dir.path().join("k.key"),
        dir.path().join("corpus.skillpack"),
    );
    let run = |command: &mut Command| -> Result<(), String> {
        let output = command
            .env_remove("SOURCE_DATE_EPOCH")
            .output()
            .map_err(|e| format!("`{}`: {e}", bin.display()))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&output.stderr).into_owned())
        }
    };
    run(Command::new(&bin)
        .args(["keygen", "-W", "-p"])
        .arg(&public)
        .arg("-s")
        .arg(&secret))?;
    run(Command::new(&bin)
        .args(["pack", "--profile", "claude-code"])
        .args(roots)
        .arg("-o")
        .arg(&out)
        .arg("--sign")
        .arg(&secret))?;
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("`{}`: {e}", p.display()));
    let signed = Signed {
        pack: read(&out)?,
        signature: String::from_utf8_lossy(&read(&dir.path().join("corpus.skillpack.minisig"))?)
            .into_owned(),
        public_key: String::from_utf8_lossy(&read(&public)?).into_owned(),
    };
    eprintln!(
        "pack bench: the CLI's pack is {} the in-process `write_pack` output",
        if signed.pack == pack {
            "byte for byte"
        } else {
            "NOT byte for byte"
        }
    );
    Ok(signed)
}

fn fixture() -> &'static Fixture {
    match FIXTURE.as_ref() {
        Ok(f) => f,
        Err(_) => unreachable!("main() skips the benchmarks without a corpus"),
    }
}

fn signed() -> &'static Signed {
    match fixture().signed.as_ref() {
        Some(s) => s,
        None => unreachable!("main() skips the `signed` benchmarks without a signature"),
    }
}

fn trust(s: &'static Signed) -> Trust<'static> {
    Trust::Signed {
        public_key: &s.public_key,
        signature: Some(&s.signature),
    }
}

fn main() {
    let f = match FIXTURE.as_ref() {
        Ok(f) => f,
        Err(e) => {
            eprintln!(
                "pack bench: skipped: {e} (check out ../shared beside the repository; corpus `{}`)",
                corpus_root().display()
            );
            return;
        }
    };
    let files: usize = f.plan.skills.iter().map(|s| s.files.len()).sum();
    let stored: usize = f
        .plan
        .skills
        .iter()
        .flat_map(|s| &s.files)
        .map(|p| p.stored.len())
        .sum();
    eprintln!(
        "pack bench: {} skills, {files} files, {} bytes of contents, stored as {stored}; pack {} bytes, manifest {} bytes",
        f.plan.skills.len(),
        f.content_bytes,
        f.pack.len(),
        f.manifest.len()
    );
    for level in [6, 9, 10] {
        let deflated: usize = f.contents.iter().map(|c| deflated_len(c, level)).sum();
        eprintln!(
            "pack bench: every file at miniz_oxide level {level}: {deflated} bytes (each file stored raw when deflate does not shrink it)"
        );
    }
    let mut divan = divan::Divan::from_args();
    if f.signed.is_none() {
        divan = divan.skip_regex("^signed::");
    }
    divan.main();
}

/// What one file costs in a pack at `level`: its deflate, or itself when that
/// is not smaller.
fn deflated_len(bytes: &[u8], level: u8) -> usize {
    miniz_oxide::deflate::compress_to_vec(bytes, level)
        .len()
        .min(bytes.len())
}

fn content_count() -> BytesCount {
    BytesCount::new(fixture().content_bytes)
}

/// Reads every file of `pack` (inflate plus SHA-256), returning the bytes read.
fn read_all(pack: &Pack) -> usize {
    let mut total = 0;
    for skill in pack.bundle().skills() {
        for file in skill.files() {
            match file.bytes() {
                Ok(b) => total += b.len(),
                Err(e) => panic!("`{}`: {e}", file.path()),
            }
        }
    }
    total
}

#[divan::bench(sample_count = 30)]
fn write_pack_of_plan(bencher: Bencher) {
    let f = fixture();
    bencher
        .counter(BytesCount::of_slice(&f.pack))
        .bench(|| write_pack(divan::black_box(&f.plan), DosTime::EPOCH));
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn plan(bencher: Bencher) {
    let f = fixture();
    bencher
        .counter(content_count())
        .bench(|| embed::plan(divan::black_box(&f.checked), &f.roots, &[]).map(|p| p.digest));
}

#[divan::bench(args = [6, 9], sample_count = 5, sample_size = 1)]
fn deflate(bencher: Bencher, level: u8) {
    let f = fixture();
    bencher.counter(content_count()).bench(|| {
        divan::black_box(&f.contents)
            .iter()
            .map(|c| deflated_len(c, level))
            .sum::<usize>()
    });
}

#[divan::bench(sample_count = 50)]
fn archive_parse(bencher: Bencher) {
    let f = fixture();
    bencher.counter(BytesCount::of_slice(&f.pack)).bench(|| {
        Archive::parse(divan::black_box(&f.pack), &Limits::default()).map(|a| a.entries().len())
    });
}

#[divan::bench(sample_count = 50)]
fn manifest_parse(bencher: Bencher) {
    let f = fixture();
    bencher
        .counter(BytesCount::of_str(&f.manifest))
        .bench(|| Manifest::parse(divan::black_box(&f.manifest)).map(|m| m.skills.len()));
}

#[divan::bench(sample_count = 50)]
fn open_unsigned(bencher: Bencher) {
    let f = fixture();
    bencher
        .counter(BytesCount::of_slice(&f.pack))
        .bench(|| Pack::open(divan::black_box(&f.pack), Trust::Unsigned).is_ok());
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn read_every_file(bencher: Bencher) {
    let f = fixture();
    bencher
        .counter(content_count())
        .with_inputs(|| match Pack::open(&f.pack, Trust::Unsigned) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        })
        .bench_local_refs(|pack| read_all(pack));
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn verify_unsigned(bencher: Bencher) {
    let f = fixture();
    bencher.counter(content_count()).bench(|| {
        match Pack::open(divan::black_box(&f.pack), Trust::Unsigned) {
            Ok(p) => read_all(&p),
            Err(e) => panic!("{e}"),
        }
    });
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn unzip_every_entry(bencher: Bencher) {
    let f = fixture();
    bencher.counter(content_count()).bench(|| {
        let bytes = divan::black_box(&f.pack);
        let archive = match Archive::parse(bytes, &Limits::default()) {
            Ok(a) => a,
            Err(e) => panic!("{e}"),
        };
        let mut total = 0;
        for entry in archive.entries().iter().skip(1) {
            match entry.read(bytes) {
                Ok(b) => total += b.len(),
                Err(e) => panic!("{e}"),
            }
        }
        total
    });
}

mod signed {
    use super::*;

    #[divan::bench(sample_count = 50)]
    fn signature(bencher: Bencher) {
        let s = signed();
        bencher.counter(BytesCount::of_slice(&s.pack)).bench(|| {
            signature::verify(divan::black_box(&s.pack), &s.public_key, Some(&s.signature)).is_ok()
        });
    }

    #[divan::bench(sample_count = 50)]
    fn open(bencher: Bencher) {
        let s = signed();
        bencher
            .counter(BytesCount::of_slice(&s.pack))
            .bench(|| Pack::open(divan::black_box(&s.pack), trust(s)).is_ok());
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn verify(bencher: Bencher) {
        let s = signed();
        bencher.counter(content_count()).bench(|| {
            match Pack::open(divan::black_box(&s.pack), trust(s)) {
                Ok(p) => read_all(&p),
                Err(e) => panic!("{e}"),
            }
        });
    }
}

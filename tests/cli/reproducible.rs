//! Reproducible packs: the bytes depend on the skills' contents, names and
//! executable bits, and on `SOURCE_DATE_EPOCH`; on nothing else.
//!
//! The repository's `skills/` and the shared corpus (454 skills, packed
//! under the `claude-code` profile, which accepts every one of them) are
//! each copied twice, in two styles that differ in everything a pack must
//! ignore: absolute path and depth, modification times, permission bits
//! other than "executable or not", and the order files and directories were
//! created in. Both copies must give the same bytes, as a skill pack and as
//! `.skill` archives, and the packs must hash to the values recorded in
//! `tests/fixtures/pack-hashes.txt`, so a run on a clean checkout proves its
//! packs equal the ones recorded there. A pack made with `SOURCE_DATE_EPOCH`
//! differs from the default one in its timestamps only, and is itself
//! reproducible.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::skills;
use sha2::{Digest, Sha256};
use skills_bundle::pack::{Pack, Trust};
use skills_tests::{
    CopyStyle, copy_tree, corpus_roots, printed_digest, run_ok, tempdir, workspace, zip_records,
};

/// Owner-only modes, old times, sorted creation.
const PRIVATE: CopyStyle = CopyStyle {
    file_mode: 0o600,
    exec_mode: 0o700,
    dir_mode: 0o700,
    mtime_seed: 1,
    reverse: false,
};

/// Group-writable modes, other times, reversed creation.
const SHARED: CopyStyle = CopyStyle {
    file_mode: 0o664,
    exec_mode: 0o775,
    dir_mode: 0o775,
    mtime_seed: 2,
    reverse: true,
};

/// 2023-11-14 22:13:20 UTC.
const EPOCH: &str = "1700000000";
/// That instant as an MS-DOS date and time.
const EPOCH_DOS: (u16, u16) = (43 << 9 | 11 << 5 | 14, 22 << 11 | 13 << 5 | 10);
/// 1980-01-01 00:00:00, the default.
const DEFAULT_DOS: (u16, u16) = (1 << 5 | 1, 0);

/// What is packed: the roots given to `skb pack`, and its options.
struct Source {
    label: &'static str,
    roots: Vec<PathBuf>,
    args: &'static [&'static str],
    /// Whether the second copy gives the roots other names (only where a
    /// root's name cannot become part of a skill's name).
    rename_roots: bool,
}

/// Runs `skb pack <roots> <args> -o <out>` with `SOURCE_DATE_EPOCH` as
/// given (unset for `None`); returns the printed digest.
fn pack(roots: &[PathBuf], args: &[&str], out: &Path, epoch: Option<&str>) -> String {
    let mut command = skills();
    command
        .arg("pack")
        .args(roots)
        .args(args)
        .arg("-o")
        .arg(out);
    match epoch {
        Some(value) => command.env("SOURCE_DATE_EPOCH", value),
        None => command.env_remove("SOURCE_DATE_EPOCH"),
    };
    printed_digest(&run_ok(&mut command))
}

/// Copies every root of `source` into `base/<depth…>/`, in `style`.
fn copy(source: &Source, base: &Path, style: &CopyStyle, rename: bool) -> Vec<PathBuf> {
    source
        .roots
        .iter()
        .map(|root| {
            let name = root.file_name().unwrap().to_string_lossy();
            let target = base.join(if rename {
                format!("copy-of-{name}")
            } else {
                name.into_owned()
            });
            copy_tree(root, &target, style);
            target
        })
        .collect()
}

/// Every file under `dir`, by relative path.
fn files_in(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    skills_tests::files_under(dir)
        .into_iter()
        .map(|(rel, path)| (rel, std::fs::read(path).unwrap()))
        .collect()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The `(sha256, size)` recorded for `label` in `tests/fixtures/pack-hashes.txt`.
fn recorded(label: &str) -> (String, usize) {
    let path = workspace().join("tests/fixtures/pack-hashes.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [name, hash, size] if name == label => Some((hash.to_string(), size.parse().unwrap())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no `{label}` line in {}", path.display()))
}

/// The byte ranges of every timestamp (local header and central record).
fn timestamp_fields(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    zip_records(bytes)
        .iter()
        .flat_map(|r| [r.local + 10..r.local + 14, r.central + 12..r.central + 16])
        .collect()
}

/// Asserts that every entry of `bytes` is dated `(date, time)`, in its local
/// header and in the central directory.
fn assert_dated(bytes: &[u8], (date, time): (u16, u16), what: &str) {
    let records = zip_records(bytes);
    assert!(!records.is_empty(), "{what}: no entries");
    for r in &records {
        let local = (
            u16::from_le_bytes([bytes[r.local + 12], bytes[r.local + 13]]),
            u16::from_le_bytes([bytes[r.local + 10], bytes[r.local + 11]]),
        );
        assert_eq!(
            ((r.dos_date, r.dos_time), local),
            ((date, time), (date, time)),
            "{what}: `{}`",
            r.name
        );
    }
}

/// Asserts that `dated` differs from `plain` only inside timestamp fields.
fn assert_only_timestamps_differ(plain: &[u8], dated: &[u8], what: &str) {
    assert_eq!(plain.len(), dated.len(), "{what}: sizes differ");
    let fields = timestamp_fields(plain);
    let stray: Vec<usize> = (0..plain.len())
        .filter(|&i| plain[i] != dated[i])
        .filter(|i| !fields.iter().any(|f| f.contains(i)))
        .collect();
    assert!(
        stray.is_empty(),
        "{what}: bytes outside timestamps differ at {stray:?}"
    );
}

/// Packs two copies of `source` every way and compares everything.
fn check(source: &Source) {
    let tmp = tempdir();
    let t = tmp.path();
    let a = copy(source, &t.join("a"), &PRIVATE, false);
    let b = copy(
        source,
        &t.join("b/deeper/than/the/other"),
        &SHARED,
        source.rename_roots,
    );
    let out = &t.join("out");
    std::fs::create_dir(out).unwrap();
    let args = source.args;
    let [digest, digest_a, digest_b] = std::thread::scope(|s| {
        [
            (&source.roots, "original.skillpack", None),
            (&a, "a.skillpack", None),
            (&b, "b.skillpack", None),
        ]
        .map(|(roots, name, epoch)| s.spawn(move || pack(roots, args, &out.join(name), epoch)))
        .map(|h| h.join().unwrap())
    });
    assert_eq!((&digest_a, &digest_b), (&digest, &digest));
    let original = std::fs::read(out.join("original.skillpack")).unwrap();
    for copy in ["a.skillpack", "b.skillpack"] {
        let bytes = std::fs::read(out.join(copy)).unwrap();
        assert!(
            bytes == original,
            "{}: the pack of {copy} differs from the original's",
            source.label
        );
    }
    assert_dated(&original, DEFAULT_DOS, source.label);
    // Real skills, the whole corpus in one pack, pass the default limits,
    // and every manifest field agrees with the `SKILL.md` it came from.
    if let Err(e) = Pack::open(&original, Trust::Unsigned) {
        panic!("{}: the pack is refused: {e}", source.label);
    }
    let verified = run_ok(
        skills()
            .args(["verify", "--unsigned"])
            .arg(out.join("original.skillpack")),
    );
    assert!(
        verified.contains(" skills agree with their `SKILL.md`\nverified "),
        "{}: {verified}",
        source.label
    );

    let (hash, size) = recorded(source.label);
    println!(
        "{}: {} bytes, sha256 {}, digest {digest}",
        source.label,
        original.len(),
        sha256_hex(&original)
    );
    assert_eq!(
        (sha256_hex(&original), original.len()),
        (hash, size),
        "{}: the pack is not the one recorded in tests/fixtures/pack-hashes.txt \
         (regenerate it as its header says if the format, the tool version or the inputs changed)",
        source.label
    );

    // SOURCE_DATE_EPOCH: timestamps only, reproducibly.
    std::thread::scope(|s| {
        let ha = s.spawn(|| pack(&a, args, &out.join("a-dated.skillpack"), Some(EPOCH)));
        let hb = s.spawn(|| pack(&b, args, &out.join("b-dated.skillpack"), Some(EPOCH)));
        assert_eq!(ha.join().unwrap(), digest);
        assert_eq!(hb.join().unwrap(), digest);
    });
    let dated = std::fs::read(out.join("a-dated.skillpack")).unwrap();
    assert!(
        dated == std::fs::read(out.join("b-dated.skillpack")).unwrap(),
        "{}: the dated packs of the two copies differ",
        source.label
    );
    assert_dated(&dated, EPOCH_DOS, source.label);
    assert_only_timestamps_differ(&original, &dated, source.label);

    // `--format skill`: a directory of `.skill` archives.
    let per_copy = std::thread::scope(|s| {
        [(&a, "skill-a"), (&b, "skill-b")]
            .map(|(roots, name)| {
                s.spawn(move || {
                    let dir = out.join(name);
                    let mut command = skills();
                    command.arg("pack").args(roots.iter()).args(args);
                    command.args(["--format", "skill", "-o"]).arg(&dir);
                    run_ok(command.env_remove("SOURCE_DATE_EPOCH"));
                    files_in(&dir)
                })
            })
            .map(|h| h.join().unwrap())
    });
    let (skill_a, skill_b) = (&per_copy[0], &per_copy[1]);
    assert!(!skill_a.is_empty(), "{}: no `.skill` written", source.label);
    assert_eq!(
        skill_a.keys().collect::<Vec<_>>(),
        skill_b.keys().collect::<Vec<_>>(),
        "{}: the two copies give different `.skill` files",
        source.label
    );
    let differing: Vec<&String> = skill_a
        .iter()
        .filter(|(name, bytes)| skill_b[*name] != **bytes)
        .map(|(name, _)| name)
        .collect();
    assert!(
        differing.is_empty(),
        "{}: `.skill` archives differ between the copies: {differing:?}",
        source.label
    );
    for (name, bytes) in skill_a {
        assert_dated(bytes, DEFAULT_DOS, name);
    }
    println!(
        "{}: {} `.skill` archives, {} bytes in all",
        source.label,
        skill_a.len(),
        skill_a.values().map(Vec::len).sum::<usize>()
    );
}

#[test]
fn packs_of_the_example_skills_are_reproducible() {
    check(&Source {
        label: "skills",
        roots: vec![workspace().join("skills")],
        args: &[],
        rename_roots: true,
    });
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn packs_of_the_corpus_are_reproducible() {
    check(&Source {
        label: "corpus",
        roots: corpus_roots(),
        args: &["--profile", "claude-code"],
        rename_roots: false,
    });
}

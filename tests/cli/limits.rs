//! No command exits 0 with less than it was given (issue 17, item 6).
//!
//! A property over generated skills, with every limit set through its flag
//! just under, at or just over what the skill needs: `validate` passes
//! exactly when the skill is within its limits; `pack` (both formats)
//! then writes every file, and otherwise writes nothing; `unpack` and
//! `verify` of that pack, under archive limits around its own entry count
//! and sizes, either give back every file, byte for byte and mode for
//! mode, or fail naming a flag and leave nothing behind.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Output, Stdio};

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use skills_tests::{files_under, is_executable, set_mode, tempdir, zip_records};

use crate::skills;

const SKILL_MD: &[u8] =
    b"---\nname: s\ndescription: A generated skill. Use when testing limits.\n---\nbody\n";

/// A skill's files, `SKILL.md` included: path -> (bytes, executable).
type Tree = BTreeMap<String, (Vec<u8>, bool)>;

/// Up to 7 files besides `SKILL.md`, each 0 to 3 directories down, of 0 to
/// 300 bytes, some executable.
fn tree() -> impl Strategy<Value = Tree> {
    proptest::collection::vec((0usize..4, 0usize..300, any::<bool>()), 0..8).prop_map(|files| {
        let mut tree = Tree::new();
        tree.insert("SKILL.md".into(), (SKILL_MD.to_vec(), false));
        for (i, (depth, size, executable)) in files.into_iter().enumerate() {
            let dirs: String = (0..depth).map(|d| format!("d{d}/")).collect();
            let bytes = (0..size).map(|b| (b * 7 + i) as u8).collect();
            tree.insert(format!("{dirs}f{i}.txt"), (bytes, executable));
        }
        tree
    })
}

/// What the tree needs: files, bytes, directory levels below the skill.
fn needs(tree: &Tree) -> (u64, u64, u64) {
    let files = tree.len() as u64;
    let bytes = tree.values().map(|(b, _)| b.len() as u64).sum();
    let depth = tree.keys().map(|p| p.matches('/').count() as u64).max();
    (files, bytes, depth.unwrap_or(0))
}

/// `need` moved by `offset` (-1, 0 or 1), at least 0.
fn around(need: u64, offset: i64) -> u64 {
    need.saturating_add_signed(offset)
}

/// Each flag followed by its value.
fn flags(pairs: [(&str, u64); 3]) -> Vec<String> {
    pairs
        .iter()
        .flat_map(|(flag, value)| [flag.to_string(), value.to_string()])
        .collect()
}

fn run(dir: &Path, args: &[String]) -> Output {
    skills()
        .current_dir(dir)
        .args(args)
        .env_remove("SOURCE_DATE_EPOCH")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn shown(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Whether `output` failed naming one of `flags` as the way to raise it.
fn names_a_flag(output: &Output, flags: &[&str]) -> bool {
    let text = shown(output);
    flags.iter().any(|f| {
        text.contains(&format!("raise it with `{f}`"))
            || text.contains(&format!("raise the limit with `{f}`"))
    })
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every file under `dir` with its bytes and executable bit.
fn read_tree(dir: &Path) -> Tree {
    files_under(dir)
        .into_iter()
        .map(|(rel, path)| {
            let bytes = std::fs::read(&path).unwrap();
            (rel, (bytes, is_executable(&path)))
        })
        .collect()
}

const SKILL_FLAGS: [&str; 3] = ["--max-files", "--max-skill-size", "--max-skill-depth"];
const ARCHIVE_FLAGS: [&str; 3] = ["--max-entries", "--max-entry-size", "--max-total-size"];

fn check(
    tree: &Tree,
    skill_offsets: (i64, i64, i64),
    archive_offsets: (i64, i64, i64),
) -> Result<(), TestCaseError> {
    let tmp = tempdir();
    let d = tmp.path();
    for (rel, (bytes, executable)) in tree {
        let path = d.join("s").join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        set_mode(&path, if *executable { 0o755 } else { 0o644 });
    }
    let (files, bytes, depth) = needs(tree);
    let (f, b, l) = skill_offsets;
    let limits = [around(files, f), around(bytes, b), around(depth, l)];
    let within = files <= limits[0] && bytes <= limits[1] && depth <= limits[2];
    let skill_limits = flags([
        (SKILL_FLAGS[0], limits[0]),
        (SKILL_FLAGS[1], limits[1]),
        (SKILL_FLAGS[2], limits[2]),
    ]);
    let with = |base: &[&str]| [args(base), skill_limits.clone()].concat();

    let validated = run(d, &with(&["validate", "s"]));
    prop_assert_eq!(validated.status.success(), within, "{}", shown(&validated));
    if !within {
        prop_assert_eq!(validated.status.code(), Some(1));
        prop_assert!(
            names_a_flag(&validated, &SKILL_FLAGS),
            "{}",
            shown(&validated)
        );
    }

    let packed = run(d, &with(&["pack", "s", "-o", "p.skillpack"]));
    let written = run(d, &with(&["pack", "s", "--format", "skill", "-o", "out"]));
    for output in [&packed, &written] {
        prop_assert_eq!(output.status.success(), within, "{}", shown(output));
    }
    if !within {
        prop_assert!(names_a_flag(&packed, &SKILL_FLAGS), "{}", shown(&packed));
        prop_assert_eq!(listing(d), ["s"]);
        return Ok(());
    }
    // The `.skill` holds every file, under the skill's directory.
    let archive = std::fs::read(d.join("out/s.skill")).unwrap();
    let names: Vec<String> = zip_records(&archive).into_iter().map(|r| r.name).collect();
    let expected: Vec<String> = tree.keys().map(|k| format!("s/{k}")).collect();
    prop_assert_eq!(names, expected);

    // Archive limits around the pack's own: its entries (the manifest
    // and every file), its largest entry and its total size.
    let pack = std::fs::read(d.join("p.skillpack")).unwrap();
    let records = zip_records(&pack);
    let entries = records.len() as u64;
    let largest = records.iter().map(|r| r.size as u64).max().unwrap_or(0);
    let total = records.iter().map(|r| r.size as u64).sum();
    let (e, x, t) = archive_offsets;
    let limits = [around(entries, e), around(largest, x), around(total, t)];
    let opens = entries <= limits[0] && largest <= limits[1] && total <= limits[2];
    let archive_limits = flags([
        (ARCHIVE_FLAGS[0], limits[0]),
        (ARCHIVE_FLAGS[1], limits[1]),
        (ARCHIVE_FLAGS[2], limits[2]),
    ]);
    let unpack_args = [
        args(&["unpack", "p.skillpack", "-o", "back"]),
        archive_limits.clone(),
        skill_limits.clone(),
    ]
    .concat();
    let unpacked = run(d, &unpack_args);
    prop_assert_eq!(unpacked.status.success(), opens, "{}", shown(&unpacked));
    if opens {
        prop_assert_eq!(&read_tree(&d.join("back/s")), tree);
    } else {
        prop_assert!(
            names_a_flag(&unpacked, &ARCHIVE_FLAGS),
            "{}",
            shown(&unpacked)
        );
        prop_assert!(!d.join("back").exists());
    }

    let verify_args = [
        args(&["verify", "--unsigned", "p.skillpack"]),
        archive_limits,
    ]
    .concat();
    let verified = run(d, &verify_args);
    prop_assert_eq!(verified.status.success(), opens, "{}", shown(&verified));
    if opens {
        let all = format!("{files} of {files} match their SHA-256");
        prop_assert!(shown(&verified).contains(&all), "{}", shown(&verified));
    } else {
        prop_assert!(
            names_a_flag(&verified, &ARCHIVE_FLAGS),
            "{}",
            shown(&verified)
        );
    }
    Ok(())
}

/// -1 (the limit one under the need) a quarter of the time, else 0 or 1:
/// about half the skills are within all three limits.
fn offset() -> impl Strategy<Value = i64> {
    prop_oneof![1 => Just(-1i64), 3 => 0i64..=1]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(32),
        // Keep the source tree clean: no `proptest-regressions/` files.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Each limit just under, at or just over what the skill and its pack
    /// need.
    #[test]
    fn no_command_exits_0_with_less_than_it_was_given(
        tree in tree(),
        skill_offsets in (offset(), offset(), offset()),
        archive_offsets in (offset(), offset(), offset()),
    ) {
        check(&tree, skill_offsets, archive_offsets)?;
    }
}

/// `skb run` kept the first 1 MiB of a command's output and exited
/// with the command's status: 0 with less than the command wrote. Output
/// cut at `--max-output` now fails the run, saying so and naming the flag;
/// raised, the whole output passes.
#[test]
fn run_fails_when_the_output_is_cut_naming_the_flag() {
    let cache = tempdir();
    let run = |max: &str, expression: &str| {
        skills()
            .current_dir(skills_tests::workspace())
            .env("XDG_CACHE_HOME", cache.path())
            .args(["run", "calculator", "--from", "skills", "--max-output", max])
            .args(["--", "python3", "scripts/calc.py", expression])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    // 2**200 has 61 digits.
    let whole = "1606938044258990275541962092341162602522202993782792835301376\n";
    let cut = run("10", "2**200");
    assert_eq!(cut.status.code(), Some(1), "{}", shown(&cut));
    assert_eq!(
        String::from_utf8_lossy(&cut.stdout),
        "1606938044\n[output truncated at 10 bytes]\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&cut.stderr),
        "skb: the command's stdout went past 10 bytes and was cut; raise the limit with `--max-output`\n"
    );
    let raised = run("62", "2**200");
    assert_eq!(raised.status.code(), Some(0), "{}", shown(&raised));
    assert_eq!(String::from_utf8_lossy(&raised.stdout), whole);
    // A command that fails keeps its own status.
    let failed = run("10", "1/0");
    assert_eq!(failed.status.code(), Some(1), "{}", shown(&failed));
}

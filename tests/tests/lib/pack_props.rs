//! Properties of packs: whatever the tree, a pack reads back as exactly the
//! files it was made from, with the plan's digest, and is the same bytes
//! every time; whatever the bytes (random, or a valid pack with random
//! edits), opening and reading never panics and never returns bytes that
//! differ from what was packed.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;

use proptest::prelude::*;
use skills_bundle::pack::{Pack, Trust};
use skills_compiler::pack::write_pack;
use skills_compiler::{self as compiler, Options, embed};
use skills_core::zip::write::DosTime;
use skills_tests::tempdir;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(cases),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A relative path of one to three components from a small alphabet, so
/// that paths share directories.
fn rel_path() -> impl Strategy<Value = String> {
    proptest::collection::vec("[a-c]{1,3}(\\.md|\\.py|)", 1..=3).prop_map(|parts| parts.join("/"))
}

/// A skill's files: path → (bytes, executable).
type Files = BTreeMap<String, (Vec<u8>, bool)>;

/// A skill: extra files.
fn skill_files() -> impl Strategy<Value = Files> {
    proptest::collection::btree_map(
        rel_path(),
        (
            prop_oneof![
                proptest::collection::vec(any::<u8>(), 0..300),
                "[ -~]{0,40}".prop_map(|s| s.repeat(20).into_bytes()),
            ],
            any::<bool>(),
        ),
        0..6,
    )
}

/// Writes skills `s0`, `s1`, ... under a fresh root; drops files whose path
/// is a prefix directory of another (a file cannot also be a directory).
fn tree(skills: &[Files]) -> (tempfile::TempDir, Vec<Files>) {
    let root = tempdir();
    let mut kept = Vec::new();
    for (i, files) in skills.iter().enumerate() {
        let name = format!("s{i}");
        let dir = root.path().join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        let md = format!(
            "---\nname: {name}\ndescription: Use when testing packs, case {i}.\n---\n# {name}\n"
        );
        let mut mine = BTreeMap::new();
        mine.insert("SKILL.md".to_string(), (md.into_bytes(), false));
        for (path, content) in files {
            let clash = files
                .keys()
                .chain(std::iter::once(&"SKILL.md".to_string()))
                .any(|other| {
                    other != path
                        && (other.starts_with(&format!("{path}/"))
                            || path.starts_with(&format!("{other}/")))
                });
            if !clash && path != "SKILL.md" {
                mine.insert(path.clone(), content.clone());
            }
        }
        for (path, (bytes, exec)) in &mine {
            let file = dir.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, bytes).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = if *exec { 0o755 } else { 0o644 };
                std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
            }
        }
        kept.push(mine);
    }
    (root, kept)
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn a_pack_reads_back_as_its_tree(skills in proptest::collection::vec(skill_files(), 1..4)) {
        let (root, expected) = tree(&skills);
        let roots = vec![root.path().to_path_buf()];
        let options = Options { lints: false, ..Options::default() };
        let checked = compiler::check(&roots, &options);
        prop_assert!(checked.is_valid(), "{:?}", checked.diagnostics().collect::<Vec<_>>());
        let plan = embed::plan(&checked, &roots, &[]).unwrap();
        let bytes = write_pack(&plan, DosTime::EPOCH).unwrap();
        prop_assert_eq!(&bytes, &write_pack(&plan, DosTime::EPOCH).unwrap());
        let pack = Pack::open(&bytes, Trust::Unsigned).unwrap();
        let bundle = pack.bundle();
        prop_assert_eq!(bundle.digest(), plan.digest.as_str());
        prop_assert_eq!(bundle.len(), expected.len());
        for (i, files) in expected.iter().enumerate() {
            let skill = bundle.get(&format!("s{i}")).unwrap();
            let got: Files = skill
                .files()
                .map(|f| (f.path().to_string(), (f.bytes().unwrap().to_vec(), f.is_executable())))
                .collect();
            #[cfg(unix)]
            prop_assert_eq!(&got, files);
            #[cfg(not(unix))]
            prop_assert_eq!(got.keys().collect::<Vec<_>>(), files.keys().collect::<Vec<_>>());
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Ok(pack) = Pack::open(&bytes, Trust::Unsigned) {
            for skill in pack.bundle().skills() {
                for file in skill.files() {
                    let _ = file.bytes();
                }
            }
        }
    }

    #[test]
    fn edited_packs_never_panic_or_lie(
        files in skill_files(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let (root, expected) = tree(&[files]);
        let roots = vec![root.path().to_path_buf()];
        let checked = compiler::check(&roots, &Options { lints: false, ..Options::default() });
        let plan = embed::plan(&checked, &roots, &[]).unwrap();
        let mut bytes = write_pack(&plan, DosTime::EPOCH).unwrap();
        for (at, byte, kind) in edits {
            if bytes.is_empty() {
                break;
            }
            let i = at.index(bytes.len());
            match kind {
                0 => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ => {
                    bytes.remove(i);
                }
            }
        }
        if let Ok(pack) = Pack::open(&bytes, Trust::Unsigned) {
            for skill in pack.bundle().skills() {
                for file in skill.files() {
                    if let Ok(read) = file.bytes() {
                        // Whatever survived the edits is the original content.
                        let original = skill.name() == "s0"
                            && expected[0].get(file.path()).is_some_and(|(b, _)| b == read);
                        prop_assert!(original, "{} read back altered bytes", file.path());
                    }
                }
            }
        }
    }
}

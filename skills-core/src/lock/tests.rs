use super::*;

/// A skill locked from a local folder `s`, with no signer, allowance or
/// scan: the fixture the lock's modules test their own parts with.
pub(super) fn local(name: &str, installed: Vec<String>, files: Vec<LockedFile>) -> LockedSkill {
    LockedSkill {
        name: name.into(),
        origin: None,
        accepted: Vec::new(),
        source: "s".into(),
        resolved: Resolved::Folder { path: "s".into() },
        digest: format!("sha256:{}", "0".repeat(64)),
        signer: None,
        unsigned: None,
        profile: None,
        scan: None,
        installed,
        files,
    }
}

fn file(path: &str, byte: u8, executable: bool) -> LockedFile {
    let bytes = vec![byte; 3];
    LockedFile {
        path: path.into(),
        size: 3,
        sha256: crate::digest::hex(&crate::digest::sha256(&bytes)),
        executable,
    }
}

fn sample() -> Lock {
    let mut lock = Lock::default();
    lock.insert(LockedSkill {
        name: "pdf".into(),
        source: "acme/skills@v1".into(),
        origin: Some("https://github.com/acme/skills".into()),
        accepted: vec![
            "publisher change: key 0000000000000001 to 1A2B3C4D5E6F7A8B, --allow-publisher-change"
                .into(),
        ],
        resolved: Resolved::Git {
            url: "https://github.com/acme/skills.git".into(),
            commit: "a".repeat(40),
            path: Some("skills/pdf".into()),
        },
        digest: format!("sha256:{}", "b".repeat(64)),
        signer: Some(Signer {
            key: "1A2B3C4D5E6F7A8B".into(),
            digest: Some("e".repeat(64)),
            version: Some("1.2.0".into()),
            timestamp: Some(1_764_200_000),
            signature: Some(SignatureRecord {
                line: "RUQ=".into(),
                comment: format!("skills-digest-v2:{} version:1.2.0", "e".repeat(64)),
                global: "Zm9v".into(),
            }),
            git: None,
            sigstore: None,
        }),
        unsigned: None,
        profile: None,
        scan: Some(LockedScan {
            engine: "skills-scan 0.1.0".into(),
            fail_on: "high".into(),
            findings: FindingCounts {
                high: 1,
                low: 2,
                ..FindingCounts::default()
            },
            allowed: vec![format!("SK604:{}", "f".repeat(24))],
        }),
        installed: vec![".agents/skills/pdf".into(), ".claude/skills/pdf".into()],
        files: vec![
            file("SKILL.md", b'a', false),
            file("scripts/fill.py", b'b', true),
        ],
    });
    lock.insert(LockedSkill {
        name: "docx".into(),
        source: "oci://127.0.0.1:5000/acme/docx:1".into(),
        origin: None,
        accepted: Vec::new(),
        resolved: Resolved::Oci {
            reference: "oci://127.0.0.1:5000/acme/docx".into(),
            tag: Some("1".into()),
            digest: format!("sha256:{}", "c".repeat(64)),
        },
        digest: format!("sha256:{}", "d".repeat(64)),
        signer: None,
        unsigned: Some("--allow-unsigned".into()),
        profile: Some("claude-code".into()),
        scan: None,
        installed: vec!["~/.claude/skills/docx".into()],
        files: vec![file("SKILL.md", b'c', false)],
    });
    lock.keep_listing(
        "e".repeat(64),
        vec!["skill \"pdf\"".into(), "file x".into()],
    );
    lock
}

#[test]
fn a_lock_reads_back_what_was_written_in_one_layout() {
    let lock = sample();
    let text = lock.to_json();
    assert_eq!(Lock::parse(&text).as_ref(), Ok(&lock));
    assert_eq!(Lock::parse(&text).map(|l| l.to_json()), Ok(text.clone()));
    // Skills by name, one file per line.
    assert!(text.find("\"docx\"") < text.find("\"pdf\""));
    assert!(text.contains("\n        \"scripts/fill.py\": { \"size\": 3, \"sha256\": \""));
    assert!(text.ends_with("}\n"));
    assert!(
        text.contains(&format!(
            "\n      \"scan\": {{ \"engine\": \"skills-scan 0.1.0\", \"fail_on\": \"high\", \"findings\": {{ \"high\": 1, \"low\": 2 }}, \"allowed\": [\"SK604:{}\"] }},\n",
            "f".repeat(24)
        )),
        "{text}"
    );
    assert_eq!(
        Lock::default().to_json(),
        "{\n  \"version\": 2,\n  \"skills\": {}\n}\n"
    );
}

#[test]
fn every_source_kind_round_trips() {
    let kinds = [
        Resolved::Folder {
            path: "../x".into(),
        },
        Resolved::File {
            path: "a.skillpack".into(),
            sha256: "e".repeat(64),
        },
        Resolved::Url {
            url: "https://x/a.skill".into(),
            sha256: "e".repeat(64),
        },
        Resolved::Index {
            url: "https://x/.well-known/agent-skills/index.json".into(),
            entry: "https://x/a.zip".into(),
            version: None,
            sha256: "e".repeat(64),
        },
    ];
    for resolved in kinds {
        let mut lock = sample();
        lock.skills[0].resolved = resolved;
        assert_eq!(Lock::parse(&lock.to_json()), Ok(lock));
    }
}

/// A git signature's record round trips, and what it may hold is checked.
#[test]
fn a_git_signature_round_trips_and_is_checked() {
    let mut lock = sample();
    let commit = "a".repeat(40);
    lock.skills[1].resolved = Resolved::Git {
        url: "https://github.com/acme/skills".into(),
        commit: commit.clone(),
        path: None,
    };
    lock.skills[1].signer = Some(Signer {
        key: "SHA256:zJ6r4ceeUc7PQ7MHu8cjKILgx1eNNKpNjFZycWpioFI".into(),
        digest: None,
        version: Some("v1.2.0".into()),
        timestamp: Some(1_796_644_273),
        signature: None,
        git: Some(GitSigned {
            kind: "ssh".into(),
            commit: commit.clone(),
            tag: Some("v1.2.0".into()),
            tag_object: Some("c".repeat(40)),
        }),
        sigstore: None,
    });
    let text = lock.to_json();
    assert_eq!(Lock::parse(&text), Ok(lock.clone()));
    let tag_object = format!(", \"tag_object\": \"{}\"", "c".repeat(40));
    let bad = [
        (text.replacen("SHA256:zJ6r", "SHA256:zJ6", 1), "43"),
        (
            text.replacen("\"ssh\"", "\"x509\"", 1),
            "`ssh` or `openpgp`",
        ),
        (text.replacen(&tag_object, "", 1), "`tag` is given with"),
        (
            text.replacen("\"kind\": \"ssh\"", "\"kind\": \"openpgp\"", 1),
            "40 uppercase hex",
        ),
    ];
    for (text, want) in bad {
        let e = Lock::parse(&text).expect_err(want);
        assert!(e.message.contains(want), "{want}: {e}");
    }
    // The record names the commit the lock pins.
    assert_eq!(attest::check(&lock, &|_| None).len(), 0);
    let mut moved = lock.clone();
    moved.skills[1].resolved = Resolved::Git {
        url: "https://github.com/acme/skills".into(),
        commit: "b".repeat(40),
        path: None,
    };
    let problems = attest::check(&moved, &|_| None);
    assert!(problems[0].message.contains("pins commit"), "{problems:?}");
}

/// A Sigstore signature's record round trips, what it may hold is
/// checked, and it must name the archive the lock pins.
#[test]
fn a_sigstore_signature_round_trips_and_names_the_pinned_archive() {
    let mut lock = sample();
    let archive = "d".repeat(64);
    lock.skills[1].resolved = Resolved::File {
        path: "vendor/a.zip".into(),
        sha256: archive.clone(),
    };
    lock.skills[1].signer = Some(Signer {
        key: "sigstore:0123456789ABCDEF".into(),
        digest: Some(archive.clone()),
        version: None,
        timestamp: Some(1_710_869_186),
        signature: None,
        git: None,
        sigstore: Some(SigstoreSigned {
            identity: "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/v1"
                .into(),
            issuer: "https://token.actions.githubusercontent.com".into(),
            log_index: 79_571_823,
            integrated_time: 1_710_869_186,
            bundle: "0123456789abcdef".repeat(4),
        }),
    });
    let text = lock.to_json();
    assert_eq!(Lock::parse(&text), Ok(lock.clone()));
    let bad = [
        (
            text.replacen("sigstore:0123", "sigstore:x123", 1),
            "`sigstore:` and 16",
        ),
        (
            text.replacen(&"0123456789abcdef".repeat(4), "0123", 1),
            "`bundle` must be 64",
        ),
        (
            text.replacen("\"log_index\": 79571823, ", "", 1),
            "`log_index` is missing",
        ),
        (
            text.replacen(&format!("\"digest\": \"{archive}\", "), "", 1),
            "keeps the archive's `digest`",
        ),
    ];
    for (text, want) in bad {
        let e = Lock::parse(&text).expect_err(want);
        assert!(e.message.contains(want), "{want}: {e}");
    }
    assert_eq!(attest::check(&lock, &|_| None).len(), 0);
    let mut other = lock.clone();
    other.skills[1].resolved = Resolved::File {
        path: "vendor/a.zip".into(),
        sha256: "e".repeat(64),
    };
    let problems = attest::check(&other, &|_| None);
    assert!(
        problems[0].message.contains("the lock pins"),
        "{problems:?}"
    );
}

#[test]
fn a_lock_written_before_the_scan_gate_reads_without_a_scan() {
    let mut lock = sample();
    lock.skills[1].scan = None;
    let text = lock.to_json();
    assert!(!text.contains("\"scan\""), "{text}");
    assert_eq!(Lock::parse(&text), Ok(lock));
}

#[test]
fn a_scan_with_nothing_found_or_allowed_round_trips() {
    let mut lock = sample();
    lock.skills[1].scan = Some(LockedScan {
        engine: "skills-scan 0.2.0".into(),
        fail_on: "none".into(),
        findings: FindingCounts::default(),
        allowed: Vec::new(),
    });
    let text = lock.to_json();
    assert!(
        text.contains("\"fail_on\": \"none\", \"findings\": {}, \"allowed\": [] }"),
        "{text}"
    );
    assert_eq!(Lock::parse(&text), Ok(lock));
}

#[test]
fn hand_edits_of_the_scan_record_are_errors() {
    let text = sample().to_json();
    let fp = "f".repeat(24);
    let bad = [
        (
            text.replacen("\"fail_on\": \"high\"", "\"fail_on\": \"severe\"", 1),
            "`fail_on` must be one of",
        ),
        (
            text.replacen("\"high\": 1", "\"urgent\": 1", 1),
            "unknown severity `urgent`",
        ),
        (
            text.replacen("\"high\": 1", "\"high\": -1", 1),
            "whole number",
        ),
        (
            text.replacen(&format!("SK604:{fp}"), "SK604", 1),
            "`CODE:fingerprint`",
        ),
        (
            text.replacen(&format!("SK604:{fp}"), &format!("sk604:{fp}"), 1),
            "`CODE:fingerprint`",
        ),
        (
            text.replacen(&format!("SK604:{fp}"), "SK604:XYZ", 1),
            "`CODE:fingerprint`",
        ),
        (
            text.replacen("\"allowed\": [", "\"accepted\": [", 1),
            "unknown key `accepted`",
        ),
        (
            text.replacen("\"engine\": \"skills-scan 0.1.0\", ", "", 1),
            "`engine` is missing",
        ),
        (
            text.replacen(
                "\"findings\": { \"high\": 1, \"low\": 2 }",
                "\"findings\": 3",
                1,
            ),
            "`findings` must be an object",
        ),
    ];
    for (text, want) in bad {
        let e = Lock::parse(&text).expect_err(want);
        assert!(e.message.contains(want), "{want}: {e}");
    }
}

#[test]
fn allowed_entries_are_a_code_and_a_fingerprint() {
    assert!(is_allowed_entry("SK604:0123456789abcdef01234567"));
    assert!(is_allowed_entry("X1:01234567"));
    for bad in [
        "SK604",
        ":0123456789abcdef",
        "SK604:",
        "SK604:0123",
        "1SK:0123456789abcdef",
        "SK604:0123456789ABCDEF",
        "SK-604:0123456789abcdef",
        "SK604:0123456789abcdef:00",
    ] {
        assert!(!is_allowed_entry(bad), "{bad}");
    }
    assert!(!is_allowed_entry(&format!("SK604:{}", "a".repeat(65))));
}

#[test]
fn hand_edits_that_change_what_is_fetched_are_errors() {
    let text = sample().to_json();
    let bad = [
        (text.replace("\"version\": 2", "\"version\": 3"), "newer"),
        // A version 1 lock carries none of version 2's records.
        (
            text.replace("\"version\": 2", "\"version\": 1"),
            "unknown key",
        ),
        (
            text.replacen("\"source\"", "\"sauce\"", 1),
            "unknown key `sauce`",
        ),
        (text.replacen(&"a".repeat(40), "main", 1), "full commit id"),
        (
            text.replacen("\"type\": \"git\"", "\"type\": \"svn\"", 1),
            "unknown type",
        ),
        (
            text.replacen("\"SKILL.md\"", "\"../SKILL.md\"", 1),
            "not a relative path",
        ),
        (
            text.replacen(".claude/skills/pdf", "/etc", 1),
            "not a folder inside",
        ),
        (
            text.replacen("\"size\": 3", "\"size\": -3", 1),
            "whole number",
        ),
        (
            text.replacen("\"size\": 3", "\"size\": 99999999999999999999999", 1),
            "too large",
        ),
        (
            text.replacen("1A2B3C4D5E6F7A8B", "1a2b", 1),
            "16 uppercase hex",
        ),
        ("[]".to_string(), "must be an object"),
        ("{\"version\": 1}".to_string(), "`skills` is missing"),
        (
            "{\"version\": 1, \"version\": 1, \"skills\": {}}".to_string(),
            "appears twice",
        ),
    ];
    for (text, want) in bad {
        let e = Lock::parse(&text).expect_err(want);
        assert!(e.message.contains(want), "{want}: {e}");
    }
}

#[test]
fn lookups_insertions_and_removals_keep_the_order() {
    let mut lock = sample();
    assert_eq!(
        lock.get("pdf").map(|s| s.source.as_str()),
        Some("acme/skills@v1")
    );
    assert!(lock.get("nope").is_none());
    let pdf = lock.remove("pdf").expect("present");
    assert!(lock.get("pdf").is_none());
    lock.insert(pdf);
    assert_eq!(lock, sample());
}

#[cfg(feature = "fs")]
mod folders {
    use super::super::tree::{Change, check, hash_files};
    use std::fs;

    #[test]
    fn a_folder_matches_what_was_hashed_and_each_change_is_named() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("pdf");
        fs::create_dir_all(dir.join("scripts")).expect("mkdir");
        fs::write(dir.join("SKILL.md"), "---\nname: pdf\n---\n").expect("write");
        fs::write(dir.join("scripts/a.sh"), "echo").expect("write");
        fs::write(dir.join("scripts/b.sh"), "echo b").expect("write");
        let files = hash_files([
            ("SKILL.md", &b"---\nname: pdf\n---\n"[..], false),
            ("scripts/a.sh", &b"echo"[..], false),
            ("scripts/b.sh", &b"echo b"[..], false),
        ]);
        assert_eq!(check(&dir, &files).expect("check"), vec![]);

        fs::write(dir.join("scripts/a.sh"), "echo pwned").expect("write");
        fs::remove_file(dir.join("scripts/b.sh")).expect("rm");
        fs::write(dir.join("scripts/c.sh"), "new").expect("write");
        #[cfg(unix)]
        std::os::unix::fs::symlink("/dev/zero", dir.join("z")).expect("link");
        let drift: Vec<String> = check(&dir, &files)
            .expect("check")
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut want = vec![
            "edited: scripts/a.sh",
            "removed: scripts/b.sh",
            "added: scripts/c.sh",
        ];
        #[cfg(unix)]
        want.push("a symbolic link to `/dev/zero`, not followed: z");
        assert_eq!(drift, want);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_swapped_for_a_link_to_dev_zero_is_drift_and_costs_nothing() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("s");
        fs::create_dir_all(&dir).expect("mkdir");
        std::os::unix::fs::symlink("/dev/zero", dir.join("SKILL.md")).expect("link");
        let files = hash_files([("SKILL.md", &b"x"[..], false)]);
        let drift = check(&dir, &files).expect("check");
        assert_eq!(drift.len(), 1);
        assert!(matches!(drift[0].change, Change::Link { .. }));
    }

    #[cfg(unix)]
    #[test]
    fn a_mode_change_is_named() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().expect("tempdir");
        fs::write(tmp.path().join("run.sh"), "x").expect("write");
        fs::set_permissions(tmp.path().join("run.sh"), fs::Permissions::from_mode(0o755))
            .expect("chmod");
        let files = hash_files([("run.sh", &b"x"[..], false)]);
        let drift = check(tmp.path(), &files).expect("check");
        assert_eq!(drift.len(), 1);
        assert_eq!(drift[0].change, Change::Mode);
    }

    #[test]
    fn a_missing_folder_is_every_file_removed() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let files = hash_files([("SKILL.md", &b"x"[..], false)]);
        let drift = check(&tmp.path().join("gone"), &files).expect("check");
        assert_eq!(drift[0].change, Change::Removed);
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn name() -> impl Strategy<Value = String> {
        "[a-z][a-z0-9-]{0,12}"
    }

    fn locked_file() -> impl Strategy<Value = LockedFile> {
        (
            "[a-z]{1,6}(/[a-z][a-z.]{0,5}){0,2}",
            any::<u32>(),
            "[0-9a-f]{64}",
            any::<bool>(),
        )
            .prop_map(|(path, size, sha256, executable)| LockedFile {
                path,
                size: u64::from(size),
                sha256,
                executable,
            })
    }

    fn scan() -> impl Strategy<Value = LockedScan> {
        (
            "\\PC{0,20}",
            proptest::sample::select(FAIL_ON.to_vec()),
            proptest::array::uniform5(0u64..4),
            proptest::collection::btree_set("SK[6-7][0-9]{2}:[0-9a-f]{24}", 0..4),
        )
            .prop_map(
                |(engine, fail_on, [critical, high, medium, low, info], allowed)| LockedScan {
                    engine,
                    fail_on: fail_on.to_string(),
                    findings: FindingCounts {
                        critical,
                        high,
                        medium,
                        low,
                        info,
                    },
                    allowed: allowed.into_iter().collect(),
                },
            )
    }

    fn skill() -> impl Strategy<Value = LockedSkill> {
        (
            name(),
            "\\PC{0,20}",
            "[0-9a-f]{40}",
            "[0-9a-f]{64}",
            proptest::option::of((
                "[0-9A-F]{16}",
                proptest::option::of("[0-9]\\.[0-9]\\.[0-9]"),
                any::<Option<u32>>(),
            )),
            proptest::collection::vec(locked_file(), 0..4),
            proptest::option::of(scan()),
        )
            .prop_map(|(name, source, commit, digest, signer, mut files, scan)| {
                files.sort_by(|a, b| a.path.cmp(&b.path));
                files.dedup_by(|a, b| a.path == b.path);
                LockedSkill {
                    installed: vec![format!(".claude/skills/{name}")],
                    name,
                    origin: Some(source.clone()),
                    accepted: Vec::new(),
                    source,
                    resolved: Resolved::Git {
                        url: "https://github.com/a/b.git".into(),
                        commit,
                        path: None,
                    },
                    digest: format!("sha256:{digest}"),
                    signer: signer.map(|(key, version, t)| Signer {
                        key,
                        digest: None,
                        version,
                        timestamp: t.map(u64::from),
                        signature: None,
                        git: None,
                        sigstore: None,
                    }),
                    unsigned: None,
                    profile: None,
                    scan,
                    files,
                }
            })
    }

    proptest! {
        #[test]
        fn any_lock_reads_back_as_written(skills in proptest::collection::vec(skill(), 0..5)) {
            let mut lock = Lock::default();
            for s in skills {
                lock.insert(s);
            }
            let text = lock.to_json();
            prop_assert_eq!(Lock::parse(&text), Ok(lock));
        }

        #[test]
        fn no_text_makes_the_reader_panic(text in "\\PC{0,200}") {
            let _ = Lock::parse(&text);
        }

        #[test]
        fn no_edit_of_a_lock_makes_the_reader_panic(at in any::<prop::sample::Index>(), with in "\\PC{0,3}") {
            let text = sample().to_json();
            let mut cut = at.index(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let edited = format!("{}{with}{}", &text[..cut], &text[cut..]);
            let _ = Lock::parse(&edited);
        }
    }
}

//! Every byte of a small pack, flipped: a signed pack refuses each flip at
//! the signature, before anything is parsed; an unsigned pack may open, but
//! never hands out bytes other than the ones packed.
//!
//! The pack is made by the CLI as a user makes one (`skb keygen -W`,
//! `skb pack --sign`) and holds one skill with two stored files
//! (`SKILL.md`, `scripts/run.sh`) and a deflated one (`references/notes.md`),
//! about 1.1 KB in all. Each
//! byte is flipped whole (`^ 0xFF`) and by its lowest bit (`^ 0x01`).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;

use crate::skills;
use skills_bundle::ReadError;
use skills_bundle::pack::{Pack, PackError, SignatureError, Trust};
use skills_tests::{tempdir, write_tree};

const MASKS: [u8; 2] = [0xFF, 0x01];

/// The pack, its `.minisig` and the public key.
struct Signed {
    pack: Vec<u8>,
    signature: String,
    public_key: String,
}

fn run_ok(dir: &Path, args: &[&str]) {
    let output = skills().current_dir(dir).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "skills {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn signed_pack() -> Signed {
    let dir = tempdir();
    let d = dir.path();
    let notes = "- a pack is a zip file, signed as a whole.\n".repeat(8);
    write_tree(
        d,
        &[
            (
                "tiny/SKILL.md",
                b"---\nname: tiny\ndescription: A tiny skill. Use when testing.\n---\nHello $ARGUMENTS\n",
            ),
            ("tiny/references/notes.md", notes.as_bytes()),
            ("tiny/scripts/run.sh", b"#!/bin/sh\necho ok\n"),
        ],
    );
    run_ok(d, &["keygen", "-W", "-p", "k.pub", "-s", "k.key"]);
    run_ok(d, &["pack", "tiny", "-o", "t.skillpack", "--sign", "k.key"]);
    let read = |name: &str| std::fs::read_to_string(d.join(name)).unwrap();
    Signed {
        pack: std::fs::read(d.join("t.skillpack")).unwrap(),
        signature: read("t.skillpack.minisig"),
        public_key: read("k.pub"),
    }
}

/// Every file of an opened pack: `skill/path` and what reading it gave.
fn read_all(pack: &Pack) -> Vec<(String, Result<Vec<u8>, ReadError>)> {
    let bundle = pack.bundle();
    bundle
        .skills()
        .flat_map(|skill| {
            skill.files().map(move |file| {
                let key = format!("{}/{}", skill.name(), file.path());
                (key, skill.read(file.path()).map(<[u8]>::to_vec))
            })
        })
        .collect()
}

#[test]
fn a_signed_pack_refuses_every_flipped_byte_at_the_signature() {
    let s = signed_pack();
    assert!(
        (1000..2000).contains(&s.pack.len()),
        "{} bytes",
        s.pack.len()
    );
    let trust = Trust::Signed {
        public_key: &s.public_key,
        signature: Some(&s.signature),
    };
    assert!(Pack::open(&s.pack, trust).is_ok());
    let expected = PackError::Signature(SignatureError::Invalid);
    let mut flipped = s.pack.clone();
    for at in 0..s.pack.len() {
        for mask in MASKS {
            flipped[at] ^= mask;
            assert_eq!(
                Pack::open(&flipped, trust).unwrap_err(),
                expected,
                "byte {at} ^ {mask:#04x}"
            );
            flipped[at] ^= mask;
        }
    }
}

#[test]
fn an_unsigned_pack_never_reads_back_other_bytes() {
    let pack = signed_pack().pack;
    let opened = Pack::open(&pack, Trust::Unsigned).unwrap();
    let original = read_all(&opened);
    assert_eq!(original.len(), 3);
    assert!(original.iter().all(|(_, bytes)| bytes.is_ok()));
    let deflated: Vec<bool> = opened
        .bundle()
        .skills()
        .flat_map(|s| s.files().map(|f| f.stored().1))
        .collect();
    assert_eq!(
        deflated,
        [false, true, false],
        "only the notes are deflated"
    );

    let (mut refused, mut caught_on_read, mut harmless) = (0, 0, 0);
    let mut flipped = pack.clone();
    for at in 0..pack.len() {
        for mask in MASKS {
            flipped[at] ^= mask;
            if let Ok(opened) = Pack::open(&flipped, Trust::Unsigned) {
                let read = read_all(&opened);
                assert_eq!(read.len(), original.len(), "byte {at} ^ {mask:#04x}");
                for ((key, bytes), (want_key, want)) in read.iter().zip(&original) {
                    assert_eq!(key, want_key, "byte {at} ^ {mask:#04x}");
                    assert!(
                        matches!(bytes, Err(ReadError::Corrupt { .. })) || bytes == want,
                        "byte {at} ^ {mask:#04x}: {key:?} reads back {bytes:?}"
                    );
                }
                if read == original {
                    harmless += 1;
                } else {
                    caught_on_read += 1;
                }
            } else {
                refused += 1;
            }
            flipped[at] ^= mask;
        }
    }
    // Some flips hit timestamps and attributes; some hit file data, which
    // only a read can check.
    assert!(refused > 0 && caught_on_read > 0 && harmless > 0);
}

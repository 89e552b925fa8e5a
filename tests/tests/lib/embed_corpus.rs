//! The whole shared corpus compiled into this test binary (the acceptance
//! tier: `main.rs` declares this module only with `SKILLS_ACCEPTANCE=1`,
//! since it cannot compile without `../shared`).
//!
//! All 454 skills of `../shared/corpus/collections` are embedded with the
//! `claude-code` profile; every embedded file must read back byte-identical
//! to the file on disk with the recorded SHA-256, and the bundle digest must
//! equal the one computed by an independent walk of the same tree.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use sha2::{Digest, Sha256};
use skills_bundle::{Bundle, skills_bundle};

use crate::embed::independent_digest;

static CORPUS: Bundle = skills_bundle!(
    "../../shared/corpus/collections",
    profile = "claude-code",
    warnings = "allow"
);

fn collections() -> PathBuf {
    skills_tests::tier::shared_path("corpus/collections")
}

#[test]
fn every_corpus_file_reads_back_byte_identical() {
    // 454 skill directories; names found twice (the same skill published in
    // two collections) keep the first, as discovery documents.
    assert!(CORPUS.len() > 400, "{} skills", CORPUS.len());
    let mut files = 0;
    for skill in CORPUS.skills() {
        let dir = collections().join(skill.source_dir());
        for file in skill.files() {
            let on_disk = std::fs::read(dir.join(file.path())).unwrap();
            let embedded = skill.read(file.path()).unwrap();
            assert_eq!(
                embedded,
                on_disk.as_slice(),
                "{}/{}",
                skill.name(),
                file.path()
            );
            assert_eq!(file.sha256(), &<[u8; 32]>::from(Sha256::digest(&on_disk)));
            assert_eq!(file.size(), on_disk.len() as u64);
            // The second read is the cached one: the same bytes, the same address.
            assert!(std::ptr::eq(embedded, skill.read(file.path()).unwrap()));
            files += 1;
        }
    }
    assert!(files > 2000, "{files} files");
}

#[test]
fn digest_equals_an_independent_walk() {
    assert_eq!(CORPUS.digest(), independent_digest(&CORPUS, &collections()));
}

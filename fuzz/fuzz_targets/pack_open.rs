//! Fuzzes opening a skill pack without a signature, as
//! `Bundle::from_pack(bytes, Trust::Unsigned)` does for any download.
//!
//! Any input must be refused or give a bundle whose every file can be read
//! and every skill activated without a panic; a file that reads must have
//! the size and SHA-256 the manifest records, since an unsigned pack's only
//! integrity guarantee is that check.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_core::digest;
use skills_bundle::pack::{Pack, Trust};

fuzz_target!(|bytes: &[u8]| {
    let Ok(pack) = Pack::open(bytes, Trust::Unsigned) else {
        return;
    };
    let bundle = pack.bundle();
    let _ = bundle.catalog();
    for skill in bundle.skills() {
        assert!(bundle.get(skill.name()).is_some(), "{skill:?}");
        for file in skill.files() {
            if let Ok(data) = file.bytes() {
                assert_eq!(data.len() as u64, file.size(), "{file:?}");
                assert_eq!(&digest::sha256(data), file.sha256(), "{file:?}");
            }
            let _ = skill.read(file.path());
        }
        let _ = skill.activate("fuzz $ARGUMENTS");
    }
});

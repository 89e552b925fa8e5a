//! Fuzzes the hostile-input zip reader, `skills_bundle::zip`.
//!
//! Any input must parse to an error or to entries that lie inside the input,
//! and reading an entry must give exactly its declared size or an error;
//! nothing may panic, hang or allocate beyond `Limits`. Parsing is also
//! checked to be monotone in the limits: what passes tight limits passes the
//! defaults with the same entries.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_bundle::zip::{Archive, Limits};

/// Limits small enough for a fuzz input to reach every one of them.
const TIGHT: Limits = Limits::DEFAULT
    .with_max_entries(4)
    .with_max_entry_size(4096)
    .with_max_total_size(8192)
    .with_max_ratio(8);

fuzz_target!(|bytes: &[u8]| {
    let Ok(archive) = Archive::parse(bytes, &Limits::default()) else {
        assert!(Archive::parse(bytes, &TIGHT).is_err());
        return;
    };
    if let Ok(tight) = Archive::parse(bytes, &TIGHT) {
        assert_eq!(tight, archive);
    }
    for entry in archive.entries() {
        assert!(entry.data.end <= bytes.len(), "{entry:?}");
        if let Ok(data) = entry.read(bytes) {
            assert_eq!(data.len() as u64, entry.size, "{entry:?}");
        }
    }
});

//! Fuzzes the Sigstore verifier (`skills_supply::sigstore`) on hostile
//! bundles and trusted roots: the bytes as a bundle verified against the
//! built-in public-good root, and as a trusted root. None may panic, and
//! no bundle made of the bytes verifies: nothing here was signed by a
//! Fulcio certificate and logged in Rekor for this artifact.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_supply::sigstore::{self, Policy, TrustedRoot};

fuzz_target!(|bytes: &[u8]| {
    let _ = TrustedRoot::parse(bytes);
    let Ok(root) = TrustedRoot::public_good() else {
        return;
    };
    let policy = Policy::new("*", "https://token.actions.githubusercontent.com");
    let verified = sigstore::verify(bytes, b"fuzz artifact\n", &root, &policy, 1_800_000_000);
    assert!(verified.is_err(), "{verified:?}");
});

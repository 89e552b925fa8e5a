//! Verifying a Sigstore bundle offline (`skills_supply::sigstore`).
//!
//! Run with `cargo bench -p skills-benches --bench sigstore`. The bundles
//! are sigstore's conformance fixtures committed in
//! `tests/fixtures/sigstore-conformance`, verified against the built-in
//! public-good trusted root:
//!
//! - `message`: `happy-path-v0.3`, a message signature over `a.txt`;
//! - `dsse`: `happy-path-intoto-in-dsse-v3`, a DSSE in-toto statement (the
//!   shape of a GitHub artifact attestation);
//! - `trusted_root`: reading the built-in trusted root, which `verify`
//!   takes already read.

use std::path::{Path, PathBuf};

use divan::black_box;
use skills_supply::sigstore::{self, Policy, TrustedRoot};

const IDENTITY: &str = "https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main";
const ISSUER: &str = "https://token.actions.githubusercontent.com";
/// A time after the fixtures were signed.
const NOW: u64 = 1_800_000_000;

fn main() {
    divan::main();
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sigstore-conformance")
}

fn case(name: &str) -> (Vec<u8>, Vec<u8>) {
    let bundle = std::fs::read(fixtures().join(name).join("bundle.sigstore.json"))
        .expect("the conformance fixtures are committed");
    let artifact = std::fs::read(fixtures().join("a.txt")).expect("`a.txt` is committed");
    (bundle, artifact)
}

fn bench_verify(bencher: divan::Bencher, name: &str) {
    let (bundle, artifact) = case(name);
    let root = TrustedRoot::public_good().expect("the built-in root reads");
    let policy = Policy::new(IDENTITY, ISSUER);
    sigstore::verify(&bundle, &artifact, &root, &policy, NOW).expect("the fixture verifies");
    bencher.bench(|| sigstore::verify(black_box(&bundle), &artifact, &root, &policy, NOW).is_ok());
}

#[divan::bench]
fn message(bencher: divan::Bencher) {
    bench_verify(bencher, "happy-path-v0.3");
}

#[divan::bench]
fn dsse(bencher: divan::Bencher) {
    bench_verify(bencher, "happy-path-intoto-in-dsse-v3");
}

#[divan::bench]
fn trusted_root() -> bool {
    TrustedRoot::public_good().is_ok()
}

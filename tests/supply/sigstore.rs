//! Sigstore bundles against sigstore's conformance fixtures
//! (`tests/fixtures/sigstore-conformance`, see its `NOTICE`): every
//! committed case, its outcome asserted: a `_fail` case refused for the
//! reason the table names, a passing case verified, and a passing case
//! this verifier does not check (RFC 3161 timestamps, Rekor v2, public-key
//! bundles) refused as unsupported rather than passed.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use skills_supply::sigstore::{self, ErrorKind, Policy, TrustedRoot};

/// The identity and issuer the fixtures were signed with, unless a case
/// names its own (`identity`, `issuer`).
const IDENTITY: &str = "https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main";
const ISSUER: &str = "https://token.actions.githubusercontent.com";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sigstore-conformance")
}

/// Each case's expected outcome: `None` verified, `Some(kind)` refused
/// for that kind of reason. Every committed case must be listed.
fn expected(case: &str) -> Option<ErrorKind> {
    use ErrorKind::*;
    let kind = match case {
        "happy-path-intoto-in-dsse-v3"
        | "happy-path-v0.1"
        | "happy-path-v0.2"
        | "happy-path-v0.3"
        | "happy-path-v0.3-new-mediaType"
        | "trust-root-tlog-validity-end-inclusive" => return None,
        // Passing cases this verifier refuses rather than checks: RFC 3161
        // timestamps (and with them Rekor v2), keys instead of certificates.
        "bundle-with-sct-with-extensions"
        | "intoto-with-custom-trust-root"
        | "managed-key-and-trusted-root"
        | "managed-key-happy-path"
        | "rekor2-dsse-happy-path"
        | "rekor2-happy-path" => Unsupported,
        // Failing cases refused before their flaw is reached, for the same
        // reasons; and `intoto` entries, a kind this verifier does not read.
        "intoto-tsa-timestamp-outside-cert-validity_fail"
        | "intoto-log-entry-mismatch_fail"
        | "managed-key-no-key_fail"
        | "managed-key-wrong-key_fail" => Unsupported,
        "bundle-empty-certificate-chain_fail"
        | "bundle-invalid-base64-signature_fail"
        | "bundle-malformed-json_fail"
        | "bundle-negative-log-index_fail"
        | "bundle-unknown-version_fail"
        | "bundle-with-root-cert_fail"
        | "intoto-missing-inclusion-proof_fail"
        | "invalid-inclusion-proof_fail"
        | "trust-root-tlog-missing-validity-start_fail" => Malformed,
        "bundle-from-wrong-instance_fail"
        | "checkpoint-bad-keyhint_fail"
        | "dsse-invalid-sig_fail"
        | "inclusion-proof-corrupted-hash_fail"
        | "incorrect-public-key_fail"
        | "integrated-time-in-future_fail"
        | "intoto-expired-certificate_fail"
        | "intoto-set-outside-signing-cert-validity_fail"
        | "invalid-checkpoint-signature_fail"
        | "invalid-ct-key_fail"
        | "set-invalid-signature_fail"
        | "signature-mismatch_fail" => Untrusted,
        "checkpoint-wrong-roothash_fail"
        | "dsse-mismatch-envelope_fail"
        | "dsse-mismatch-sig_fail"
        | "message-digest-mismatch_fail"
        | "wrong-hashedrekord-artifact_fail"
        | "wrong-hashedrekord-cert-and-sig_fail"
        | "wrong-hashedrekord-entry_fail"
        | "wrong-material_fail" => Mismatch,
        _ => panic!("case `{case}` is not in the table"),
    };
    Some(kind)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text_or(dir: &Path, name: &str, default: &str) -> String {
    match std::fs::read_to_string(dir.join(name)) {
        Ok(text) => text.trim().to_owned(),
        Err(_) => default.to_owned(),
    }
}

#[test]
fn every_committed_conformance_case() {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let public_good = TrustedRoot::public_good().unwrap();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let mut report = Vec::new();
    for dir in &cases {
        let name = dir.file_name().unwrap().to_str().unwrap();
        let artifact = match std::fs::read(dir.join("artifact")) {
            Ok(bytes) => bytes,
            Err(_) => read(&fixtures().join("a.txt")),
        };
        let outcome = match std::fs::read(dir.join("trusted_root.json")) {
            Ok(json) => TrustedRoot::parse(&json),
            Err(_) => Ok(public_good.clone()),
        }
        .and_then(|root| {
            let policy = Policy::new(
                text_or(dir, "identity", IDENTITY),
                text_or(dir, "issuer", ISSUER),
            );
            sigstore::verify(
                &read(&dir.join("bundle.sigstore.json")),
                &artifact,
                &root,
                &policy,
                now,
            )
        });
        let want = expected(name);
        assert!(
            want.is_some() || !name.ends_with("_fail"),
            "`{name}` must fail"
        );
        match (&outcome, want) {
            (Ok(verified), None) => {
                assert_eq!(
                    verified.signer.issuer,
                    text_or(dir, "issuer", ISSUER),
                    "{name}"
                );
            }
            (Err(e), Some(kind)) if e.kind() == kind => {}
            _ => report.push(format!("{name}: expected {want:?}, got {outcome:?}")),
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

fn case(name: &str) -> (Vec<u8>, Vec<u8>) {
    let dir = fixtures().join(name);
    let artifact =
        std::fs::read(dir.join("artifact")).unwrap_or_else(|_| read(&fixtures().join("a.txt")));
    (read(&dir.join("bundle.sigstore.json")), artifact)
}

/// A time after every fixture was signed.
const LATER: u64 = 1_800_000_000;

#[test]
fn the_policy_decides_who_may_sign() {
    let root = TrustedRoot::public_good().unwrap();
    let (bundle, artifact) = case("happy-path-v0.3");
    let verify = |identity: &str, issuer: &str| {
        sigstore::verify(
            &bundle,
            &artifact,
            &root,
            &Policy::new(identity, issuer),
            LATER,
        )
    };
    let verified = verify(IDENTITY, ISSUER).unwrap();
    assert_eq!(verified.signer.identity, IDENTITY);
    assert_eq!(verified.log_index, 79_571_823);
    assert_eq!(verified.integrated_time, 1_710_869_186);
    // A pattern over the repository's workflows.
    assert!(
        verify(
            "https://github.com/sigstore-conformance/*/.github/workflows/*@refs/heads/main",
            ISSUER
        )
        .is_ok()
    );
    for (identity, issuer) in [
        ("https://github.com/sigstore-conformance/other/*", ISSUER),
        (&IDENTITY[..IDENTITY.len() - 1], ISSUER),
        (IDENTITY, "https://accounts.google.com"),
        (IDENTITY, "https://token.actions.githubusercontent.com/"),
    ] {
        assert_eq!(
            verify(identity, issuer).unwrap_err().kind(),
            ErrorKind::Policy,
            "{identity} {issuer}"
        );
    }
}

#[test]
fn a_bundle_from_the_future_or_for_other_bytes_is_refused() {
    let root = TrustedRoot::public_good().unwrap();
    let policy = Policy::new(IDENTITY, ISSUER);
    for name in ["happy-path-v0.1", "happy-path-intoto-in-dsse-v3"] {
        let (bundle, artifact) = case(name);
        // The present is before the log integrated the entry.
        let err = sigstore::verify(&bundle, &artifact, &root, &policy, 1_689_177_395).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Untrusted, "{name}: {err}");
        let mut other = artifact.clone();
        other.push(b'\n');
        assert!(
            sigstore::verify(&bundle, &other, &root, &policy, LATER).is_err(),
            "{name}"
        );
        assert!(
            sigstore::verify(&bundle, b"", &root, &policy, LATER).is_err(),
            "{name}"
        );
    }
}

/// Every string of `value`, by its path.
fn strings(value: &serde_json::Value, path: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(_) => out.push(path),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                strings(item, format!("{path}/{i}"), out);
            }
        }
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                strings(
                    item,
                    format!("{path}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
}

mod mutations {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    use proptest::prelude::*;

    use super::*;

    /// `bundle` with the string at the `pick`-th path changed: a bit of its
    /// decoded bytes flipped when it is base64, else a character changed.
    fn mutate(bundle: &[u8], pick: usize, bit: usize) -> Option<Vec<u8>> {
        let mut value: serde_json::Value = serde_json::from_slice(bundle).ok()?;
        let mut paths = Vec::new();
        strings(&value, String::new(), &mut paths);
        let path = paths.get(pick % paths.len())?.clone();
        let slot = value.pointer_mut(&path)?;
        let text = slot.as_str()?.to_owned();
        let changed = match STANDARD.decode(&text) {
            Ok(mut bytes) if !bytes.is_empty() => {
                let i = bit / 8 % bytes.len();
                bytes[i] ^= 1 << (bit % 8);
                STANDARD.encode(bytes)
            }
            _ if !text.is_empty() => {
                let mut chars: Vec<char> = text.chars().collect();
                let i = bit % chars.len();
                chars[i] = if chars[i] == 'x' { 'y' } else { 'x' };
                chars.into_iter().collect()
            }
            _ => return None,
        };
        *slot = serde_json::Value::String(changed);
        serde_json::to_vec(&value).ok()
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 256,
            // Keep the source tree clean: no `proptest-regressions/` files.
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// A changed field is refused (or, in a field nothing signs and
        /// nothing reads, verifies as the original did); never a panic.
        #[test]
        fn a_changed_field_never_verifies_as_something_else(
            which in 0usize..3,
            pick in any::<usize>(),
            bit in any::<usize>(),
        ) {
            let name = ["happy-path-v0.1", "happy-path-v0.3", "happy-path-intoto-in-dsse-v3"][which];
            let root = TrustedRoot::public_good().unwrap();
            let policy = Policy::new(IDENTITY, ISSUER);
            let (bundle, artifact) = case(name);
            let original = sigstore::verify(&bundle, &artifact, &root, &policy, LATER).unwrap();
            if let Some(changed) = mutate(&bundle, pick, bit)
                && let Ok(verified) = sigstore::verify(&changed, &artifact, &root, &policy, LATER)
            {
                prop_assert_eq!(verified, original);
            }
        }

        /// Bytes flipped anywhere in the bundle's JSON, or cut short: no
        /// panic, and nothing verifies differently.
        #[test]
        fn flipped_or_truncated_bytes_never_panic(
            which in 0usize..3,
            at in any::<usize>(),
            byte in any::<u8>(),
            cut in any::<bool>(),
        ) {
            let name = ["happy-path-v0.2", "happy-path-v0.3-new-mediaType", "happy-path-intoto-in-dsse-v3"][which];
            let root = TrustedRoot::public_good().unwrap();
            let policy = Policy::new(IDENTITY, ISSUER);
            let (mut bundle, artifact) = case(name);
            let original = sigstore::verify(&bundle, &artifact, &root, &policy, LATER).unwrap();
            let at = at % bundle.len();
            if cut {
                bundle.truncate(at);
            } else {
                bundle[at] ^= byte.max(1);
            }
            if let Ok(verified) = sigstore::verify(&bundle, &artifact, &root, &policy, LATER) {
                prop_assert_eq!(verified, original);
            }
        }
    }
}

/// The trust store's `sigstore` entries decide who may sign a verified
/// bundle: the exact issuer and an identity pattern, pinned per source.
#[test]
fn the_trust_store_decides_who_may_sign_a_bundle() {
    use skills_supply::trust::{Decision, PolicyFlags, Provenance, TrustStore, sigstore_signer};

    let root = TrustedRoot::public_good().unwrap();
    let (bundle, artifact) = case("happy-path-v0.3");
    let signer = sigstore_signer(&bundle, &artifact, &root, LATER).unwrap();
    assert_eq!(signer.timestamp, Some(1_710_869_186));
    let dir = tempfile::tempdir().unwrap();
    let store = |entries: &[(&str, &str, &str, &str)]| {
        let publishers: Vec<String> = entries
            .iter()
            .map(|(name, issuer, identity, pin)| {
                format!(
                    r#""{name}": {{"keys": [{{"kind": "sigstore", "key": "{issuer} {identity}"}}], "sources": ["{pin}"]}}"#
                )
            })
            .collect();
        std::fs::write(
            dir.path().join("skills-trust.json"),
            format!(
                r#"{{"version": 1, "publishers": {{{}}}}}"#,
                publishers.join(", ")
            ),
        )
        .unwrap();
        TrustStore::load(dir.path(), None).unwrap()
    };
    let from = Provenance::remote("https://skills.example.org/a.zip");
    let decide =
        |store: &TrustStore| store.check(&from, "a", Some(&signer), None, &PolicyFlags::default());
    let repo = "https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon";
    let workflow = format!("{repo}/.github/workflows/extremely-dangerous-oidc-beacon.yml");
    // The workflow at any branch, pinned to the source.
    let trusted = store(&[(
        "beacon",
        ISSUER,
        &format!("{workflow}@refs/heads/*"),
        "skills.example.org/*",
    )]);
    match decide(&trusted) {
        Ok(Decision::Signed {
            publisher, key_id, ..
        }) => {
            assert_eq!(publisher, "beacon");
            assert!(key_id.starts_with("sigstore:"), "{key_id}");
        }
        other => panic!("{other:?}"),
    }
    // Another workflow, a pattern whose `*` would have to cross `/`, another
    // issuer, and an entry pinned to another source: each refused, naming
    // the signer.
    for (issuer, identity, pin) in [
        (
            ISSUER,
            format!("{repo}/.github/workflows/release.yml@refs/heads/*"),
            "skills.example.org/*",
        ),
        (
            ISSUER,
            format!("{repo}/*@refs/heads/main"),
            "skills.example.org/*",
        ),
        (
            "https://accounts.google.com",
            IDENTITY.to_owned(),
            "skills.example.org/*",
        ),
    ] {
        let refusal = decide(&store(&[("beacon", issuer, &identity, pin)])).unwrap_err();
        let said = refusal.to_string();
        assert!(
            said.contains(IDENTITY) && said.contains("--sigstore-identity"),
            "{said}"
        );
    }
    let elsewhere = store(&[
        ("beacon", ISSUER, IDENTITY, "github.com/beacon/*"),
        (
            "other",
            ISSUER,
            &format!("{workflow}@refs/tags/*"),
            "skills.example.org/*",
        ),
    ]);
    let said = decide(&elsewhere).unwrap_err().to_string();
    assert!(said.contains("pin: other"), "{said}");
}

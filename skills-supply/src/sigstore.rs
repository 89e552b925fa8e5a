//! Sigstore bundles (`*.sigstore.json`, the format of GitHub's artifact
//! attestations), verified offline against a trusted root, on the crypto
//! the workspace already links: `ring` for signatures and `rustls-webpki`
//! for the certificate path, with a small DER reader for what webpki does
//! not expose.
//!
//! [`verify`] fails closed, in this order:
//!
//! 1. the bundle is a Sigstore bundle 0.1 to 0.3 within its size bounds
//!    (`bundle.rs`); what this verifier does not check (RFC 3161
//!    timestamps, Rekor v2 entries, public-key bundles) is refused as
//!    [`ErrorKind::Unsupported`];
//! 2. its Rekor entry was logged by a log of the trusted root (`root.rs`):
//!    the signed entry timestamp verifies with the log's key, the inclusion
//!    proof hashes to the root a checkpoint signed by that key commits to
//!    (`tlog.rs`), and the log's key was valid at the integrated time,
//!    which is not in the future: the signing time;
//! 3. the leaf certificate chains to a Fulcio CA of the trusted root valid
//!    at the signing time, for code signing (`chain.rs`), with an SCT of a
//!    CT log of the root (`sct.rs`);
//! 4. the certificate's key signed the artifact (a message signature) or
//!    the DSSE envelope, whose in-toto statement names the artifact's
//!    SHA-256 among its subjects (`dsse.rs`);
//! 5. the log entry's body names this bundle's signature, certificate and
//!    digest (`body.rs`);
//! 6. the certificate's identity and OIDC issuer satisfy the [`Policy`]
//!    (`identity.rs`).
//!
//! Tested on sigstore's conformance fixtures
//! (`tests/fixtures/sigstore-conformance`, run by `tests/supply/sigstore.rs`).
//!
//! ```no_run
//! use skills_supply::sigstore::{self, Policy, TrustedRoot};
//!
//! let bundle = std::fs::read("skills.zip.sigstore.json")?;
//! let artifact = std::fs::read("skills.zip")?;
//! let policy = Policy::new(
//!     "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/*",
//!     "https://token.actions.githubusercontent.com",
//! );
//! let now = std::time::SystemTime::now()
//!     .duration_since(std::time::UNIX_EPOCH)?
//!     .as_secs();
//! let root = TrustedRoot::public_good()?;
//! let verified = sigstore::verify(&bundle, &artifact, &root, &policy, now)?;
//! println!("signed by {} (log index {})", verified.signer.identity, verified.log_index);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod body;
mod bundle;
mod chain;
mod der;
mod dsse;
mod error;
mod identity;
mod root;
mod sct;
mod tlog;
mod x509;

use sha2::{Digest as _, Sha256};

pub use bundle::MAX_BUNDLE_BYTES;
pub use error::{ErrorKind, SigstoreError};
pub use identity::{Policy, Signer, identity_matches};
pub use root::{MAX_ROOT_BYTES, TrustedRoot};

use bundle::{Bundle, Content};
use error::{mismatch, untrusted};
use x509::{Certificate, PublicKey};

/// What a verified bundle says: who signed, and where the log recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The certificate's identity and OIDC issuer.
    pub signer: Signer,
    /// The Rekor entry's index.
    pub log_index: u64,
    /// When the log integrated the entry (Unix seconds): the signing time.
    pub integrated_time: u64,
}

/// Verifies the bundle `bundle_json` for `artifact` against `root`, and
/// its signer against `policy`; `now` (Unix seconds) bounds the signing
/// time. See the module documentation for what is checked.
pub fn verify(
    bundle_json: &[u8],
    artifact: &[u8],
    root: &TrustedRoot,
    policy: &Policy,
    now: u64,
) -> Result<Verified, SigstoreError> {
    let bundle = Bundle::parse(bundle_json)?;
    let digest: [u8; 32] = Sha256::digest(artifact).into();
    let entry = &bundle.entry;

    let Some(log) = root.tlog(&entry.log_key_id) else {
        return untrusted("log entry: not from a transparency log of the trusted root");
    };
    tlog::verify_promise(entry, log)?;
    tlog::verify_inclusion(entry, log)?;
    let time = entry.integrated_time;
    if time > now {
        return untrusted("log entry: integrated after the present time");
    }
    if !log.valid.contains(time) {
        return untrusted("log entry: the log's key was not valid at the integrated time");
    }

    let leaf = Certificate::parse(&bundle.leaf)?;
    let issuer_spki = chain::verify(&bundle.leaf, root, time)?;
    sct::verify(&leaf, &issuer_spki, root)?;

    let key = PublicKey::from_spki(leaf.spki)?;
    match &bundle.content {
        Content::Message {
            digest: hint,
            signature,
        } => {
            if hint.is_some_and(|hint| hint != digest) {
                return mismatch("bundle: the message digest is not the artifact's");
            }
            if !key.verifies(artifact, signature) {
                return untrusted(
                    "bundle: the signature is not the certificate's over the artifact",
                );
            }
        }
        Content::Dsse {
            payload_type,
            payload,
            signature,
        } => {
            if !key.verifies(&dsse::pae(payload_type, payload), signature) {
                return untrusted("bundle: the DSSE signature is not the certificate's");
            }
            dsse::check_subject(payload_type, payload, &digest)?;
        }
    }
    body::check(entry, &bundle.leaf, &bundle.content, &digest)?;
    let signer = policy.check(&leaf)?;
    Ok(Verified {
        signer,
        log_index: entry.log_index,
        integrated_time: time,
    })
}

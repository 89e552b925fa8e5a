//! Reading a signature found beside fetched bytes. A minisign signature
//! (`<archive>.minisig`): its key id, and, when the trust store has that
//! key, the signature checked over the bytes and the claims of its trusted
//! comment. Else a Sigstore bundle (`<archive>.sigstore.json`): verified
//! offline over the bytes against the trusted root (the built-in
//! public-good one, or the `trusted_root.json` that
//! `SKB_SIGSTORE_TRUSTED_ROOT` names), whoever signed it; a bundle that
//! does not verify is an error, never taken as unsigned. Whether that key
//! or signer may sign the source is the policy's decision
//! ([`crate::policy::decide`]).

use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use skills_core::digest::{hex, sha256};
use skills_core::pack::signature;
use skills_supply::sigstore::{self, ErrorKind, TrustedRoot};
use skills_supply::trust::TrustStore;

use crate::fetched::Signed;

use crate::ioerr::invalid;

/// Reads the signature at `sig_path`, if there is one, over `bytes`.
pub(crate) fn check_signature(
    bytes: &[u8],
    sig_path: &Path,
    source: &str,
    trust: &TrustStore,
) -> io::Result<Option<Signed>> {
    let text = match skills_core::fsread::read_file(sig_path, signature::MAX_SIGNATURE_FILE) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(invalid(e.to_string())),
    };
    check_signature_text(bytes, &text, source, trust).map(Some)
}

/// What follows an archive's name to name its Sigstore bundle.
pub(crate) const BUNDLE_SUFFIX: &str = ".sigstore.json";

/// The environment variable naming a `trusted_root.json` to verify Sigstore
/// bundles against instead of the built-in public-good root (a private
/// Sigstore instance, or a root newer than this build's).
pub const TRUSTED_ROOT_VAR: &str = "SKB_SIGSTORE_TRUSTED_ROOT";

/// `<archive>.sigstore.json`.
pub(crate) fn bundle_path(archive: &Path) -> PathBuf {
    let mut s = archive.as_os_str().to_owned();
    s.push(BUNDLE_SUFFIX);
    PathBuf::from(s)
}

/// The signature beside the local archive `path`: its `.minisig`, else its
/// `.sigstore.json` bundle, else none.
pub(crate) fn check_beside(
    bytes: &[u8],
    path: &Path,
    source: &str,
    trust: &TrustStore,
) -> io::Result<Option<Signed>> {
    if let Some(signed) = check_signature(bytes, &signature::minisig_path(path), source, trust)? {
        return Ok(Some(signed));
    }
    match skills_core::fsread::read_file(&bundle_path(path), sigstore::MAX_BUNDLE_BYTES as u64) {
        Ok(bundle) => check_bundle(bytes, &bundle, source).map(Some),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(invalid(e.to_string())),
    }
}

/// Verifies the Sigstore bundle `bundle` over `bytes`: an error naming why
/// it does not verify (another artifact's, an unsupported kind, a broken
/// chain or log proof); else who signed it, for the policy to match
/// against the store's `sigstore` entries.
pub(crate) fn check_bundle(bytes: &[u8], bundle: &[u8], source: &str) -> io::Result<Signed> {
    let root = trusted_root()?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let signer = skills_supply::trust::sigstore_signer(bundle, bytes, &root, now).map_err(|e| {
        let why = match e.kind() {
            ErrorKind::Mismatch => "it is not a bundle for these bytes",
            ErrorKind::Unsupported => "it is a kind of bundle skb does not verify",
            ErrorKind::Malformed => "it is malformed",
            _ => "it does not verify against the trusted root",
        };
        invalid(format!(
            "`{source}`: its Sigstore bundle is refused: {why} ({e}); nothing was installed"
        ))
    })?;
    Ok(Signed {
        signer,
        text: String::from_utf8_lossy(bundle).into_owned(),
        git: None,
    })
}

/// What the lock records of the Sigstore bundle `signed`: its signer,
/// log entry and digest.
pub(crate) fn bundle_record(signed: &Signed) -> Option<skills_core::lock::SigstoreSigned> {
    let verified = signed.signer.sigstore.as_ref()?;
    Some(skills_core::lock::SigstoreSigned {
        identity: verified.signer.identity.clone(),
        issuer: verified.signer.issuer.clone(),
        log_index: verified.log_index,
        integrated_time: verified.integrated_time,
        bundle: hex(&sha256(signed.text.as_bytes())),
    })
}

/// Whether `signed` is the Sigstore bundle the lock records as `locked`.
pub(crate) fn same_bundle(signed: &Signed, locked: &skills_core::lock::SigstoreSigned) -> bool {
    bundle_record(signed).as_ref() == Some(locked)
}

/// The built-in public-good root, or the one [`TRUSTED_ROOT_VAR`] names
/// (an error when it is set and cannot be read as one: never a silent
/// fall back).
fn trusted_root() -> io::Result<TrustedRoot> {
    let refused = |e: &dyn std::fmt::Display| invalid(format!("the Sigstore trusted root: {e}"));
    match std::env::var_os(TRUSTED_ROOT_VAR) {
        None => TrustedRoot::public_good().map_err(|e| refused(&e)),
        Some(path) => {
            let path = PathBuf::from(path);
            let bytes = skills_core::fsread::read_file(&path, sigstore::MAX_ROOT_BYTES as u64)
                .map_err(|e| refused(&format!("`{TRUSTED_ROOT_VAR}`: {e}")))?;
            TrustedRoot::parse(&bytes).map_err(|e| refused(&format!("`{}`: {e}", path.display())))
        }
    }
}

/// Reads the minisign signature `text` over `bytes`: an error when it is
/// not a signature, or when it is made with a trusted key and does not
/// check (the bytes or the signature were changed).
pub(crate) fn check_signature_text(
    bytes: &[u8],
    text: &str,
    source: &str,
    trust: &TrustStore,
) -> io::Result<Signed> {
    let signer = trust.signer(bytes, text).map_err(|e| {
        let key = signature::signature_key_id(text).unwrap_or_else(|| "(unreadable)".into());
        invalid(format!(
            "`{source}`: the signature by key {key} does not check ({e}); nothing was installed"
        ))
    })?;
    Ok(Signed {
        signer,
        text: text.to_string(),
        git: None,
    })
}

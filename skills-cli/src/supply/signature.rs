//! Checking a minisign signature found beside fetched bytes against the
//! keys trusted for the run, and what the lock records of it.

use std::io;
use std::path::Path;

use skills_core::lock::Signer;
use skills_core::pack::signature;

use super::fetched::{Keys, Sig};
use super::project::invalid;

/// Checks the signature at `sig_path` (if there is one) over `bytes` with
/// the trusted keys: `None` when unsigned, an error when signed by no
/// trusted key or not matching.
pub fn check_signature(
    bytes: &[u8],
    sig_path: &Path,
    source: &str,
    keys: &Keys,
) -> io::Result<Option<Sig>> {
    let text = match skills_core::fsread::read_file(sig_path, signature::MAX_SIGNATURE_FILE) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(invalid(e.to_string())),
    };
    check_signature_text(bytes, &text, source, keys).map(Some)
}

/// Checks the minisign signature `text` over `bytes` with the trusted key
/// it names: [`Sig::Untrusted`] when no trusted key has its id, an error
/// when the key is trusted and the signature does not check (the bytes or
/// the signature were changed).
pub fn check_signature_text(
    bytes: &[u8],
    text: &str,
    source: &str,
    keys: &Keys,
) -> io::Result<Sig> {
    let Some(key_id) = signature_key_id(text) else {
        return Err(invalid(format!(
            "`{source}`: its signature is not a minisign signature"
        )));
    };
    let Some(key) = keys
        .keys
        .iter()
        .find(|k| public_key_id(k).as_deref() == Some(&*key_id))
    else {
        return Ok(Sig::Untrusted(key_id));
    };
    let comment = signature::verify(bytes, key, Some(text)).map_err(|e| {
        invalid(format!(
            "`{source}`: the signature by trusted key {key_id} does not check ({e}); nothing was installed"
        ))
    })?;
    Ok(Sig::Trusted(signer_of(key_id, &comment)))
}

/// The lock's record of a checked signature: its key and what its trusted
/// comment claims.
fn signer_of(key: String, _comment: &str) -> Signer {
    Signer {
        key,
        version: None,
        timestamp: None,
    }
}

/// The key id a minisign signature names (16 uppercase hex digits).
pub fn signature_key_id(text: &str) -> Option<String> {
    let line = text
        .lines()
        .find(|l| !l.starts_with("untrusted comment:") && !l.trim().is_empty())?;
    keynum_hex(line.trim(), 2)
}

/// The key id of a base64 minisign public key.
pub fn public_key_id(key: &str) -> Option<String> {
    keynum_hex(key.trim(), 2)
}

fn keynum_hex(b64: &str, at: usize) -> Option<String> {
    use ct_codecs::{Base64, Decoder};
    let bytes = Base64::decode_to_vec(b64, None).ok()?;
    let num = bytes.get(at..at + 8)?;
    Some(num.iter().rev().map(|b| format!("{b:02X}")).collect())
}

//! minisign signatures over a whole pack file.
//!
//! A pack is signed as any file is signed with minisign: the detached
//! `<pack>.minisig` holds an Ed25519 signature of the BLAKE2b-512 hash of
//! every byte of the pack, and a signed "trusted comment". `skills` writes
//! `skills-digest-v2:<digest>` there, binding the signature to the pack's
//! content digest as well as its bytes; a pack signed by the stock
//! `minisign -S` (whose comment holds a timestamp and a file name) verifies
//! on its bytes alone. Verification uses `minisign-verify`: pure Rust, no
//! dependencies, verify-only.

use std::fmt;

use minisign_verify::{PublicKey, Signature};

use crate::digest;

/// The largest `.minisig` file read: 16 KiB. minisign writes about 300
/// bytes; its comments are at most 1,024 (untrusted) and 8,192 (trusted).
pub const MAX_SIGNATURE_FILE: u64 = 16 << 10;

/// The largest minisign key file read, public or secret: 4 KiB (minisign
/// writes under 300 bytes, comment lines of at most 1,024).
pub const MAX_KEY_FILE: u64 = 4 << 10;

/// Why a signature was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureError {
    /// No signature was given where one is required.
    Missing,
    /// The public key is not a minisign public key.
    PublicKey,
    /// The signature is not a minisign signature.
    Malformed,
    /// The signature was made with another key.
    WrongKey,
    /// The signature does not match the bytes (or its trusted comment).
    Invalid,
    /// A legacy (not prehashed) signature, which is refused.
    Legacy,
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SignatureError::Missing => "the pack is not signed, and a signature is required",
            SignatureError::PublicKey => "the public key is not a minisign public key",
            SignatureError::Malformed => "the signature is not a minisign signature",
            SignatureError::WrongKey => "the pack was signed with another key",
            SignatureError::Invalid => {
                "the signature does not match: the pack or its signature was altered"
            }
            SignatureError::Legacy => {
                "legacy (non-prehashed) minisign signatures are not accepted; re-sign with a current minisign"
            }
        })
    }
}

impl std::error::Error for SignatureError {}

/// Checks `signature` (the text of a `.minisig` file; `None`, when there is
/// none, is [`SignatureError::Missing`]) over `bytes` with `public_key` (a
/// bare base64 key, or the text of a `.pub` file). Returns the trusted
/// comment.
pub fn verify(
    bytes: &[u8],
    public_key: &str,
    signature: Option<&str>,
) -> Result<String, SignatureError> {
    let key = public_key.trim();
    let key = if key.contains('\n') {
        PublicKey::decode(key)
    } else {
        PublicKey::from_base64(key)
    }
    .map_err(|_| SignatureError::PublicKey)?;
    let signature = signature.ok_or(SignatureError::Missing)?;
    let sig = Signature::decode(signature.trim_start()).map_err(|_| SignatureError::Malformed)?;
    key.verify(bytes, &sig, false).map_err(|e| match e {
        minisign_verify::Error::UnexpectedKeyId => SignatureError::WrongKey,
        minisign_verify::Error::UnexpectedAlgorithm => SignatureError::Legacy,
        _ => SignatureError::Invalid,
    })?;
    Ok(sig.trusted_comment().to_string())
}

/// The digest a trusted comment names, if it names one.
pub fn signed_digest(trusted_comment: &str) -> Option<&str> {
    trusted_comment
        .split_whitespace()
        .find_map(|word| word.strip_prefix(digest::VERSION)?.strip_prefix(':'))
}

/// The trusted comment `skills` signs a pack with.
pub fn trusted_comment(digest: &str) -> String {
    format!("{}:{digest}", digest::VERSION)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trusted_comment_names_the_digest_and_its_version() {
        let comment = trusted_comment("00ff");
        assert_eq!(comment, "skills-digest-v2:00ff");
        assert_eq!(signed_digest(&comment), Some("00ff"));
        assert_eq!(
            signed_digest("timestamp:1 file:x skills-digest-v2:ab"),
            Some("ab")
        );
        assert_eq!(signed_digest("skills-digest-v1:00ff"), None);
        assert_eq!(signed_digest("skills-digest-v2"), None);
    }
}

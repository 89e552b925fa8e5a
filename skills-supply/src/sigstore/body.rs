//! Whether the Rekor entry is about this bundle: its body (the
//! `canonicalizedBody` the log signed) must name the same kind and version
//! as the entry, and the same signature, certificate and digest as the
//! bundle. Kinds: `hashedrekord` 0.0.1 for a message signature, `dsse`
//! 0.0.1 for a DSSE envelope; others are refused.

use serde::Deserialize;
use sha2::{Digest as _, Sha256};

use super::bundle::{Content, Entry, base64};
use super::error::{SigstoreError, malformed, mismatch, unsupported};

/// Checks the entry's body against the bundle's `leaf` certificate (DER),
/// `content` and the artifact's SHA-256 `digest`.
pub(crate) fn check(
    entry: &Entry,
    leaf: &[u8],
    content: &Content,
    digest: &[u8; 32],
) -> Result<(), SigstoreError> {
    let head: Head = parse(&entry.body)?;
    if head.kind != entry.kind || head.api_version != entry.version {
        return mismatch(format!(
            "log entry: the body is a `{}` {} entry, the bundle says `{}` {}",
            head.kind, head.api_version, entry.kind, entry.version
        ));
    }
    match (head.kind.as_str(), head.api_version.as_str(), content) {
        ("hashedrekord", "0.0.1", Content::Message { signature, .. }) => {
            let body: HashedRekord = parse(&entry.body)?;
            let spec = body.spec;
            if spec.data.hash.algorithm != "sha256" || !same_hex(&spec.data.hash.value, digest) {
                return mismatch("log entry: logged for another artifact digest");
            }
            if base64(&spec.signature.content, "log entry signature")? != *signature {
                return mismatch("log entry: logged with another signature");
            }
            if pem_certificate(&spec.signature.public_key.content)? != leaf {
                return mismatch("log entry: logged with another certificate");
            }
            Ok(())
        }
        (
            "dsse",
            "0.0.1",
            Content::Dsse {
                payload, signature, ..
            },
        ) => {
            let body: Dsse = parse(&entry.body)?;
            let spec = body.spec;
            if spec.payload_hash.algorithm != "sha256"
                || !same_hex(&spec.payload_hash.value, &Sha256::digest(payload).into())
            {
                return mismatch("log entry: logged for another DSSE payload");
            }
            let [logged] = spec.signatures.as_slice() else {
                return mismatch("log entry: logged with another number of DSSE signatures");
            };
            if base64(&logged.signature, "log entry signature")? != *signature {
                return mismatch("log entry: logged with another DSSE signature");
            }
            if pem_certificate(&logged.verifier)? != leaf {
                return mismatch("log entry: logged with another certificate");
            }
            Ok(())
        }
        ("hashedrekord" | "dsse", _, _) => mismatch(format!(
            "log entry: a `{}` {} entry for a bundle of the other kind, or a version this verifier does not read",
            head.kind, head.api_version
        )),
        _ => unsupported(format!("log entry: kind `{}` is not checked", head.kind)),
    }
}

fn parse<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Result<T, SigstoreError> {
    serde_json::from_slice(body).map_err(|e| {
        SigstoreError::new(super::ErrorKind::Malformed, format!("log entry body: {e}"))
    })
}

/// Whether lowercase or uppercase hex `text` spells `bytes`.
fn same_hex(text: &str, bytes: &[u8; 32]) -> bool {
    text.len() == 64
        && text.as_bytes().chunks(2).zip(bytes).all(|(pair, b)| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                == Some(*b)
        })
}

/// The DER of a base64-encoded PEM certificate, as Rekor stores keys.
fn pem_certificate(base64_pem: &str) -> Result<Vec<u8>, SigstoreError> {
    let pem = base64(base64_pem, "log entry public key")?;
    let Ok(pem) = std::str::from_utf8(&pem) else {
        return malformed("log entry: a public key that is not PEM");
    };
    let inner = pem
        .trim()
        .strip_prefix("-----BEGIN CERTIFICATE-----")
        .and_then(|p| p.strip_suffix("-----END CERTIFICATE-----"));
    let Some(inner) = inner else {
        return malformed("log entry: a public key that is not a PEM certificate");
    };
    let text: String = inner.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    base64(&text, "log entry certificate")
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Head {
    kind: String,
    api_version: String,
}

#[derive(Debug, Deserialize)]
struct HashedRekord {
    spec: HashedRekordSpec,
}

#[derive(Debug, Deserialize)]
struct HashedRekordSpec {
    data: HashedRekordData,
    signature: HashedRekordSignature,
}

#[derive(Debug, Deserialize)]
struct HashedRekordData {
    hash: Hash,
}

#[derive(Debug, Deserialize)]
struct Hash {
    algorithm: String,
    value: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct HashedRekordSignature {
    content: String,
    public_key: Content64,
}

#[derive(Debug, Deserialize)]
struct Content64 {
    content: String,
}

#[derive(Debug, Deserialize)]
struct Dsse {
    spec: DsseSpec,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DsseSpec {
    payload_hash: Hash,
    #[serde(default)]
    signatures: Vec<DsseSignature>,
}

#[derive(Debug, Deserialize)]
struct DsseSignature {
    signature: String,
    verifier: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_hex_in_either_case() {
        let mut bytes = [0u8; 32];
        bytes[0] = 0xab;
        let lower = format!("ab{}", "00".repeat(31));
        assert!(same_hex(&lower, &bytes));
        assert!(same_hex(&lower.to_uppercase(), &bytes));
        assert!(!same_hex(&lower[2..], &bytes));
        assert!(!same_hex(&format!("ac{}", "00".repeat(31)), &bytes));
        assert!(!same_hex(&format!("é{}", "0".repeat(62)), &bytes));
    }
}

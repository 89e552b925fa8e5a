//! The Sigstore bundle (`*.sigstore.json`, the format of GitHub's artifact
//! attestations): its JSON read into checked, decoded fields.
//!
//! Accepted: media types `application/vnd.dev.sigstore.bundle+json;version=`
//! 0.1, 0.2 and 0.3 and `application/vnd.dev.sigstore.bundle.v0.3+json`;
//! a leaf certificate (`certificate`, or the first of
//! `x509CertificateChain`, whose other members must not be roots); one
//! Rekor v1 entry with its signed entry timestamp and an inclusion proof
//! with a checkpoint; a message signature or a DSSE envelope with one
//! signature. Refused as unsupported rather than passed unchecked: a
//! public-key bundle, RFC 3161 timestamps, several log entries, an entry
//! without a signed entry timestamp (a Rekor v2 entry, whose time only a
//! timestamp authority vouches for). Sizes are bounded before anything is
//! read.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;

use super::error::{SigstoreError, malformed, unsupported};
use super::x509::Certificate;

/// The largest bundle read: GitHub's provenance attestations are tens of
/// kilobytes; an SBOM predicate can reach megabytes.
pub const MAX_BUNDLE_BYTES: usize = 8 << 20;
/// The most hashes an inclusion proof may hold (a tree of 2^64 leaves
/// needs 64).
const MAX_PROOF_HASHES: usize = 64;
/// The most certificates a bundle's chain may hold.
const MAX_CHAIN: usize = 8;

/// A bundle's fields, decoded and checked for shape (not yet for trust).
#[derive(Debug, Clone)]
pub(crate) struct Bundle {
    pub(crate) leaf: Vec<u8>,
    pub(crate) entry: Entry,
    pub(crate) content: Content,
}

/// What the leaf certificate's key signed.
#[derive(Debug, Clone)]
pub(crate) enum Content {
    /// The artifact's bytes, signed directly; with the digest the bundle
    /// says they have (a hint, checked against the artifact).
    Message {
        digest: Option<[u8; 32]>,
        signature: Vec<u8>,
    },
    /// A DSSE envelope over an in-toto statement.
    Dsse {
        payload_type: String,
        payload: Vec<u8>,
        signature: Vec<u8>,
    },
}

/// The one Rekor entry.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) log_index: u64,
    pub(crate) log_key_id: Vec<u8>,
    pub(crate) kind: String,
    pub(crate) version: String,
    pub(crate) integrated_time: u64,
    /// `canonicalizedBody` as written (the signed entry timestamp signs
    /// this text) and decoded.
    pub(crate) body_base64: String,
    pub(crate) body: Vec<u8>,
    pub(crate) signed_entry_timestamp: Vec<u8>,
    pub(crate) proof: Proof,
}

/// An RFC 6962 inclusion proof and the checkpoint it leads to.
#[derive(Debug, Clone)]
pub(crate) struct Proof {
    pub(crate) log_index: u64,
    pub(crate) tree_size: u64,
    pub(crate) root_hash: [u8; 32],
    pub(crate) hashes: Vec<[u8; 32]>,
    pub(crate) checkpoint: String,
}

impl Bundle {
    /// Reads a bundle from its JSON.
    pub(crate) fn parse(json: &[u8]) -> Result<Bundle, SigstoreError> {
        if json.len() > MAX_BUNDLE_BYTES {
            return malformed(format!(
                "bundle: {} bytes; the limit is {MAX_BUNDLE_BYTES}",
                json.len()
            ));
        }
        let raw: RawBundle = serde_json::from_slice(json)
            .map_err(|e| SigstoreError::new(super::ErrorKind::Malformed, format!("bundle: {e}")))?;
        raw.check()
    }
}

/// A protobuf `int64`, which JSON writes as a string (or, by some
/// writers, a number); never negative here.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Int {
    Number(u64),
    Text(String),
}

impl Int {
    fn value(&self, what: &str) -> Result<u64, SigstoreError> {
        match self {
            Int::Number(n) => Ok(*n),
            Int::Text(text) => match text.parse::<u64>() {
                Ok(n) if !text.starts_with('+') => Ok(n),
                _ => malformed(format!("bundle: `{what}` is `{text}`, not a count")),
            },
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawBundle {
    media_type: String,
    verification_material: RawMaterial,
    message_signature: Option<RawMessageSignature>,
    dsse_envelope: Option<RawEnvelope>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawMaterial {
    certificate: Option<RawBytes>,
    x509_certificate_chain: Option<RawChain>,
    public_key: Option<serde_json::Value>,
    #[serde(default)]
    tlog_entries: Vec<RawEntry>,
    timestamp_verification_data: Option<RawTimestamps>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawBytes {
    raw_bytes: String,
}

#[derive(Debug, Deserialize)]
struct RawChain {
    #[serde(default)]
    certificates: Vec<RawBytes>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawTimestamps {
    #[serde(default)]
    rfc3161_timestamps: Vec<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawEntry {
    log_index: Int,
    log_id: RawLogId,
    kind_version: RawKindVersion,
    integrated_time: Option<Int>,
    inclusion_promise: Option<RawPromise>,
    inclusion_proof: Option<RawProof>,
    canonicalized_body: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawLogId {
    key_id: String,
}

#[derive(Debug, Deserialize)]
struct RawKindVersion {
    kind: String,
    version: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawPromise {
    signed_entry_timestamp: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawProof {
    log_index: Int,
    root_hash: String,
    tree_size: Int,
    #[serde(default)]
    hashes: Vec<String>,
    checkpoint: Option<RawCheckpoint>,
}

#[derive(Debug, Deserialize)]
struct RawCheckpoint {
    envelope: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawMessageSignature {
    message_digest: Option<RawDigest>,
    signature: String,
}

#[derive(Debug, Deserialize)]
struct RawDigest {
    algorithm: String,
    digest: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawEnvelope {
    payload: String,
    payload_type: String,
    #[serde(default)]
    signatures: Vec<RawSignature>,
}

#[derive(Debug, Deserialize)]
struct RawSignature {
    sig: String,
}

const MEDIA_TYPES: [&str; 4] = [
    "application/vnd.dev.sigstore.bundle+json;version=0.1",
    "application/vnd.dev.sigstore.bundle+json;version=0.2",
    "application/vnd.dev.sigstore.bundle+json;version=0.3",
    "application/vnd.dev.sigstore.bundle.v0.3+json",
];

impl RawBundle {
    fn check(self) -> Result<Bundle, SigstoreError> {
        if !MEDIA_TYPES.contains(&self.media_type.as_str()) {
            return malformed(format!(
                "bundle: media type `{}` is not a Sigstore bundle 0.1 to 0.3",
                self.media_type
            ));
        }
        let material = self.verification_material;
        if material.public_key.is_some() {
            return unsupported("bundle: signed by a bare public key, not a Fulcio certificate");
        }
        if material
            .timestamp_verification_data
            .is_some_and(|t| !t.rfc3161_timestamps.is_empty())
        {
            return unsupported(
                "bundle: carries RFC 3161 timestamps, which this verifier does not check",
            );
        }
        let leaf = match (material.certificate, material.x509_certificate_chain) {
            (Some(cert), None) => base64(&cert.raw_bytes, "certificate")?,
            (None, Some(chain)) => leaf_of_chain(chain)?,
            _ => return malformed("bundle: neither one `certificate` nor one certificate chain"),
        };
        let mut entries = material.tlog_entries.into_iter();
        let entry = match (entries.next(), entries.next()) {
            (Some(entry), None) => entry.check()?,
            (None, _) => return malformed("bundle: no transparency log entry"),
            (Some(_), Some(_)) => {
                return unsupported("bundle: several transparency log entries");
            }
        };
        let content = match (self.message_signature, self.dsse_envelope) {
            (Some(message), None) => Content::Message {
                digest: match message.message_digest {
                    None => None,
                    Some(d) if d.algorithm == "SHA2_256" => {
                        Some(hash32(&d.digest, "messageDigest.digest")?)
                    }
                    Some(d) => {
                        return unsupported(format!(
                            "bundle: message digest algorithm `{}`",
                            d.algorithm
                        ));
                    }
                },
                signature: base64(&message.signature, "messageSignature.signature")?,
            },
            (None, Some(envelope)) => {
                let mut signatures = envelope.signatures.into_iter();
                let signature = match (signatures.next(), signatures.next()) {
                    (Some(sig), None) => base64(&sig.sig, "dsseEnvelope.signatures")?,
                    _ => return malformed("bundle: a DSSE envelope without exactly one signature"),
                };
                Content::Dsse {
                    payload_type: envelope.payload_type,
                    payload: base64(&envelope.payload, "dsseEnvelope.payload")?,
                    signature,
                }
            }
            _ => return malformed("bundle: neither one message signature nor one DSSE envelope"),
        };
        Ok(Bundle {
            leaf,
            entry,
            content,
        })
    }
}

/// The chain's leaf; the rest may be intermediates (ignored: the trusted
/// root supplies the path) but never a root.
fn leaf_of_chain(chain: RawChain) -> Result<Vec<u8>, SigstoreError> {
    if chain.certificates.len() > MAX_CHAIN {
        return malformed(format!("bundle: more than {MAX_CHAIN} certificates"));
    }
    let mut certs = chain.certificates.iter();
    let leaf = match certs.next() {
        Some(leaf) => base64(&leaf.raw_bytes, "x509CertificateChain")?,
        None => return malformed("bundle: an empty certificate chain"),
    };
    for cert in certs {
        let der = base64(&cert.raw_bytes, "x509CertificateChain")?;
        if Certificate::parse(&der)?.is_self_issued() {
            return malformed("bundle: the certificate chain holds a root certificate");
        }
    }
    Ok(leaf)
}

impl RawEntry {
    fn check(self) -> Result<Entry, SigstoreError> {
        let promise = match self.inclusion_promise {
            Some(promise) => promise,
            None => {
                return unsupported(
                    "bundle: the log entry has no signed entry timestamp (a Rekor v2 entry, \
                     whose time needs an RFC 3161 timestamp)",
                );
            }
        };
        let proof = match self.inclusion_proof {
            Some(proof) => proof,
            None => return malformed("bundle: the log entry has no inclusion proof"),
        };
        if proof.hashes.len() > MAX_PROOF_HASHES {
            return malformed("bundle: an inclusion proof of more than 64 hashes");
        }
        let checkpoint = match proof.checkpoint {
            Some(checkpoint) => checkpoint.envelope,
            None => return malformed("bundle: the inclusion proof has no checkpoint"),
        };
        Ok(Entry {
            log_index: self.log_index.value("logIndex")?,
            log_key_id: base64(&self.log_id.key_id, "logId.keyId")?,
            kind: self.kind_version.kind,
            version: self.kind_version.version,
            integrated_time: match self.integrated_time {
                Some(time) => time.value("integratedTime")?,
                None => return malformed("bundle: the log entry has no integrated time"),
            },
            body: base64(&self.canonicalized_body, "canonicalizedBody")?,
            body_base64: self.canonicalized_body,
            signed_entry_timestamp: base64(
                &promise.signed_entry_timestamp,
                "inclusionPromise.signedEntryTimestamp",
            )?,
            proof: Proof {
                log_index: proof.log_index.value("inclusionProof.logIndex")?,
                tree_size: proof.tree_size.value("inclusionProof.treeSize")?,
                root_hash: hash32(&proof.root_hash, "inclusionProof.rootHash")?,
                hashes: proof
                    .hashes
                    .iter()
                    .map(|h| hash32(h, "inclusionProof.hashes"))
                    .collect::<Result<_, _>>()?,
                checkpoint,
            },
        })
    }
}

/// Standard base64 (padded), as protobuf's JSON writes bytes.
pub(crate) fn base64(text: &str, what: &str) -> Result<Vec<u8>, SigstoreError> {
    STANDARD
        .decode(text)
        .or_else(|_| base64::engine::general_purpose::URL_SAFE.decode(text))
        .map_err(|_| {
            SigstoreError::new(
                super::ErrorKind::Malformed,
                format!("bundle: `{what}` is not base64"),
            )
        })
}

/// A SHA-256 value written in base64.
fn hash32(text: &str, what: &str) -> Result<[u8; 32], SigstoreError> {
    base64(text, what)?.try_into().map_err(|_| {
        SigstoreError::new(
            super::ErrorKind::Malformed,
            format!("bundle: `{what}` is not a SHA-256 value"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bundle of the right shape whose values verify nothing.
    fn shaped(media_type: &str, log_index: &str) -> String {
        format!(
            r#"{{"mediaType":"{media_type}","verificationMaterial":{{"certificate":{{"rawBytes":"AAAA"}},
            "tlogEntries":[{{"logIndex":{log_index},"logId":{{"keyId":"AAAA"}},
            "kindVersion":{{"kind":"hashedrekord","version":"0.0.1"}},"integratedTime":"5",
            "inclusionPromise":{{"signedEntryTimestamp":"AAAA"}},
            "inclusionProof":{{"logIndex":"1","rootHash":"{hash}","treeSize":"2","hashes":["{hash}"],
            "checkpoint":{{"envelope":"x"}}}},"canonicalizedBody":"e30="}}]}},
            "messageSignature":{{"signature":"AAAA"}}}}"#,
            hash = STANDARD.encode([0u8; 32]),
        )
    }

    #[test]
    fn reads_counts_as_strings_or_numbers_never_negative() {
        let v3 = "application/vnd.dev.sigstore.bundle.v0.3+json";
        assert_eq!(
            Bundle::parse(shaped(v3, "\"7\"").as_bytes())
                .unwrap()
                .entry
                .log_index,
            7
        );
        assert_eq!(
            Bundle::parse(shaped(v3, "7").as_bytes())
                .unwrap()
                .entry
                .log_index,
            7
        );
        for bad in [
            "\"-1\"",
            "-1",
            "\"+7\"",
            "\"\"",
            "1.5",
            "\"18446744073709551616\"",
        ] {
            let err = Bundle::parse(shaped(v3, bad).as_bytes()).unwrap_err();
            assert_eq!(err.kind(), super::super::ErrorKind::Malformed, "{bad}");
        }
    }

    #[test]
    fn reads_only_known_media_types() {
        for good in MEDIA_TYPES {
            assert!(
                Bundle::parse(shaped(good, "1").as_bytes()).is_ok(),
                "{good}"
            );
        }
        for bad in [
            "application/vnd.dev.sigstore.bundle+json;version=0.4",
            "application/vnd.dev.sigstore.bundle.v0.4+json",
            "application/json",
            "",
        ] {
            assert!(Bundle::parse(shaped(bad, "1").as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn bounds_the_bundle_before_reading_it() {
        let big = vec![b' '; MAX_BUNDLE_BYTES + 1];
        assert!(
            Bundle::parse(&big)
                .unwrap_err()
                .to_string()
                .contains("the limit")
        );
    }
}

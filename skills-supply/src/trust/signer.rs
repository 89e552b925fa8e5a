//! What a verified signature says: the key that made it and the claims of
//! its trusted comment; or, for a Sigstore bundle, the verified signer.

/// What a verified signature says (see [`TrustStore::signer`](super::TrustStore::signer)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    /// The id of the key that made it (16 uppercase hex digits); for a
    /// Sigstore bundle, its identity and issuer as messages name them.
    pub key_id: String,
    /// The content digest it signs, when its trusted comment names one.
    pub digest: Option<String>,
    /// The release version it signs, if any.
    pub version: Option<String>,
    /// The time it claims to have been made, in Unix seconds, if any.
    pub timestamp: Option<u64>,
    /// For a Sigstore bundle: who signed (certificate identity and OIDC
    /// issuer) and where the log recorded it. The trust store's `sigstore`
    /// entries are matched against it, not against `key_id`.
    pub sigstore: Option<crate::sigstore::Verified>,
}

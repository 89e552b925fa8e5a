//! Why a Sigstore bundle was refused: one error type for every step, with a
//! kind a caller (and a test) can match on and a message naming the field.

use std::fmt;

/// What kind of failure refused a bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The bundle or trusted root is not well formed (JSON, base64, DER, a
    /// missing or out-of-range field, a size over its bound).
    Malformed,
    /// Well formed, but something this verifier does not check (an RFC 3161
    /// timestamp, a Rekor v2 entry, a public-key bundle): refused rather
    /// than passed unchecked.
    Unsupported,
    /// A signature, chain, proof or validity window that does not verify
    /// against the trusted root.
    Untrusted,
    /// Two parts that must agree do not: the log entry and the bundle, the
    /// artifact and the signed digest.
    Mismatch,
    /// Verified, but signed by an identity or issuer the policy does not
    /// accept.
    Policy,
}

/// Why a Sigstore bundle was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigstoreError {
    kind: ErrorKind,
    message: String,
}

impl SigstoreError {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> SigstoreError {
        SigstoreError {
            kind,
            message: message.into(),
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for SigstoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SigstoreError {}

/// `Err` of kind `Malformed`.
pub(crate) fn malformed<T>(message: impl Into<String>) -> Result<T, SigstoreError> {
    Err(SigstoreError::new(ErrorKind::Malformed, message))
}

/// `Err` of kind `Unsupported`.
pub(crate) fn unsupported<T>(message: impl Into<String>) -> Result<T, SigstoreError> {
    Err(SigstoreError::new(ErrorKind::Unsupported, message))
}

/// `Err` of kind `Untrusted`.
pub(crate) fn untrusted<T>(message: impl Into<String>) -> Result<T, SigstoreError> {
    Err(SigstoreError::new(ErrorKind::Untrusted, message))
}

/// `Err` of kind `Mismatch`.
pub(crate) fn mismatch<T>(message: impl Into<String>) -> Result<T, SigstoreError> {
    Err(SigstoreError::new(ErrorKind::Mismatch, message))
}

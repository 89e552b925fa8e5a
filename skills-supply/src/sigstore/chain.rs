//! The leaf certificate's chain: issued by a Fulcio CA of the trusted root
//! whose window holds the signing time, valid at that time, for code
//! signing. Path building, signatures, validity and basic constraints are
//! `rustls-webpki`'s (the verifier rustls uses, on `ring`).

use std::time::Duration;

use rustls_pki_types::{CertificateDer, UnixTime};
use webpki::{EndEntityCert, KeyUsage, anchor_from_trusted_cert};

use super::error::{SigstoreError, malformed, untrusted};
use super::root::TrustedRoot;

/// `id-kp-codeSigning` (1.3.6.1.5.5.7.3.3), the extended key usage
/// Fulcio gives its certificates.
const CODE_SIGNING: &[u8] = &[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x03];

/// The algorithms a Fulcio chain may be signed with.
const ALGORITHMS: &[&dyn rustls_pki_types::SignatureVerificationAlgorithm] = &[
    webpki::ring::ECDSA_P256_SHA256,
    webpki::ring::ECDSA_P256_SHA384,
    webpki::ring::ECDSA_P384_SHA256,
    webpki::ring::ECDSA_P384_SHA384,
    webpki::ring::ED25519,
];

/// Verifies that `leaf` chains to a CA of `root` valid at `time` (Unix
/// seconds), itself valid then and for code signing; returns the DER
/// `SubjectPublicKeyInfo` of its issuer (what its SCTs commit to).
pub(crate) fn verify(leaf: &[u8], root: &TrustedRoot, time: u64) -> Result<Vec<u8>, SigstoreError> {
    let leaf = CertificateDer::from(leaf);
    let end_entity = EndEntityCert::try_from(&leaf).map_err(|e| {
        SigstoreError::new(super::ErrorKind::Malformed, format!("certificate: {e}"))
    })?;
    let at = UnixTime::since_unix_epoch(Duration::from_secs(time));
    let mut last = None;
    for authority in root.cas.iter().filter(|ca| ca.valid.contains(time)) {
        let Some((anchor, intermediates)) = authority.chain.split_last() else {
            return malformed("trusted root: a certificate authority with no certificate");
        };
        let anchor_der = CertificateDer::from(anchor.as_slice());
        let anchor = anchor_from_trusted_cert(&anchor_der).map_err(|e| {
            SigstoreError::new(super::ErrorKind::Malformed, format!("trusted root: {e}"))
        })?;
        let intermediates: Vec<CertificateDer<'_>> = intermediates
            .iter()
            .map(|c| CertificateDer::from(c.as_slice()))
            .collect();
        let anchors = [anchor];
        match end_entity.verify_for_usage(
            ALGORITHMS,
            &anchors,
            &intermediates,
            at,
            KeyUsage::required(CODE_SIGNING),
            None,
            None,
        ) {
            Ok(path) => return Ok(path.issuer_spki().as_ref().to_vec()),
            Err(e) => last = Some(e),
        }
    }
    match last {
        Some(e) => untrusted(format!(
            "certificate: does not chain to a Fulcio CA of the trusted root at the signing time ({e})"
        )),
        None => {
            untrusted("certificate: no Fulcio CA of the trusted root was valid at the signing time")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_outside_its_window_issues_nothing() {
        let root = TrustedRoot::public_good().unwrap();
        // The intermediate is a CA certificate, never a code-signing leaf;
        // and before 2021 no CA of the root was valid at all.
        let intermediate = &root.cas[1].chain[0];
        let err = verify(intermediate, &root, 1_000_000_000).unwrap_err();
        assert!(err.to_string().contains("no Fulcio CA"), "{err}");
        let err = verify(intermediate, &root, 1_700_000_000).unwrap_err();
        assert_eq!(err.kind(), crate::sigstore::ErrorKind::Untrusted, "{err}");
        assert!(verify(b"\x30\x00", &root, 1_700_000_000).is_err());
    }
}

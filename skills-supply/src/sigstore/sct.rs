//! Certificate transparency for the leaf certificate (RFC 6962): at least
//! one of the signed certificate timestamps embedded in it must be signed
//! by a CT log of the trusted root valid at the timestamp's time, over the
//! precertificate (the certificate's to-be-signed part without the SCT
//! extension) and its issuer's key hash.
//!
//! A trusted root that lists no CT log asks for none (a private instance
//! may run without one); one that lists any requires a verified SCT.

use sha2::{Digest as _, Sha256};

use super::der::{self, Reader};
use super::error::{SigstoreError, malformed, untrusted};
use super::root::TrustedRoot;
use super::x509::Certificate;

/// The SCT list extension, 1.3.6.1.4.1.11129.2.4.2.
const SCT_LIST: &[u8] = &[0x2b, 0x06, 0x01, 0x04, 0x01, 0xd6, 0x79, 0x02, 0x04, 0x02];
/// The most SCTs looked at.
const MAX_SCTS: usize = 16;

/// Verifies the leaf's SCTs as the module says; `issuer_spki` is its
/// issuer's DER `SubjectPublicKeyInfo`.
pub(crate) fn verify(
    leaf: &Certificate<'_>,
    issuer_spki: &[u8],
    root: &TrustedRoot,
) -> Result<(), SigstoreError> {
    if root.ctlogs.is_empty() {
        return Ok(());
    }
    let Some(value) = leaf.extension(SCT_LIST) else {
        return untrusted("certificate: no signed certificate timestamp");
    };
    let list = Reader::new(value).expect(der::OCTET_STRING)?.content;
    let mut tls = Tls(list);
    let mut entries = Tls(tls.vector16()?);
    if !tls.0.is_empty() {
        return malformed("certificate: bytes after the SCT list");
    }
    let precert = precertificate(leaf);
    let issuer_key_hash = Sha256::digest(issuer_spki);
    let mut seen = 0;
    while !entries.0.is_empty() {
        seen += 1;
        if seen > MAX_SCTS {
            return malformed("certificate: too many SCTs");
        }
        let sct = Sct::parse(entries.vector16()?)?;
        if sct.verifies(&precert, &issuer_key_hash, root) {
            return Ok(());
        }
    }
    untrusted("certificate: no SCT signed by a CT log of the trusted root")
}

/// The to-be-signed part of `cert` without its SCT list extension, as the
/// CT log signed it.
fn precertificate(cert: &Certificate<'_>) -> Vec<u8> {
    let mut tbs = Vec::new();
    for field in &cert.tbs_fields {
        if field.tag == 0xa3 {
            let kept: Vec<u8> = cert
                .extensions
                .iter()
                .filter(|e| e.oid != SCT_LIST)
                .flat_map(|e| e.whole.iter().copied())
                .collect();
            tbs.extend(der::encode(0xa3, &der::encode(der::SEQUENCE, &kept)));
        } else {
            tbs.extend_from_slice(field.whole);
        }
    }
    der::encode(der::SEQUENCE, &tbs)
}

/// One SCT (RFC 6962 section 3.2), version 1.
struct Sct<'a> {
    log_id: &'a [u8],
    timestamp: u64,
    extensions: &'a [u8],
    signature: &'a [u8],
}

impl<'a> Sct<'a> {
    fn parse(bytes: &'a [u8]) -> Result<Sct<'a>, SigstoreError> {
        let mut r = Tls(bytes);
        if r.take(1)? != [0] {
            return malformed("certificate: an SCT of a version other than 1");
        }
        let log_id = r.take(32)?;
        let timestamp = u64::from_be_bytes(r.take(8)?.try_into().map_err(|_| short())?);
        let extensions = r.vector16()?;
        // hash algorithm and signature algorithm, then the signature; the
        // log's key decides how it is checked.
        r.take(2)?;
        let signature = r.vector16()?;
        if !r.0.is_empty() {
            return malformed("certificate: bytes after an SCT");
        }
        Ok(Sct {
            log_id,
            timestamp,
            extensions,
            signature,
        })
    }

    fn verifies(&self, precert: &[u8], issuer_key_hash: &[u8], root: &TrustedRoot) -> bool {
        let Some(log) = root.ctlogs.iter().find(|log| log.key_id == self.log_id) else {
            return false;
        };
        if !log.valid.contains(self.timestamp / 1000) {
            return false;
        }
        let (Ok(tbs_len), Ok(ext_len)) = (
            u32::try_from(precert.len()),
            u16::try_from(self.extensions.len()),
        ) else {
            return false;
        };
        if tbs_len >= 1 << 24 {
            return false;
        }
        let mut signed = Vec::with_capacity(precert.len() + self.extensions.len() + 50);
        signed.extend([0u8, 0]); // version 1, certificate_timestamp
        signed.extend(self.timestamp.to_be_bytes());
        signed.extend([0u8, 1]); // precert_entry
        signed.extend_from_slice(issuer_key_hash);
        signed.extend(tbs_len.to_be_bytes().get(1..).unwrap_or_default());
        signed.extend_from_slice(precert);
        signed.extend(ext_len.to_be_bytes());
        signed.extend_from_slice(self.extensions);
        log.key.verifies(&signed, self.signature)
    }
}

/// A reader of TLS presentation-language fields.
struct Tls<'a>(&'a [u8]);

impl<'a> Tls<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], SigstoreError> {
        let (head, rest) = self.0.split_at_checked(n).ok_or_else(short)?;
        self.0 = rest;
        Ok(head)
    }

    /// A vector with a 16-bit length.
    fn vector16(&mut self) -> Result<&'a [u8], SigstoreError> {
        let len: [u8; 2] = self.take(2)?.try_into().map_err(|_| short())?;
        let len = usize::from(u16::from_be_bytes(len));
        self.take(len)
    }
}

fn short() -> SigstoreError {
    SigstoreError::new(super::ErrorKind::Malformed, "certificate: a truncated SCT")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_without_scts_is_its_own_precertificate() {
        let root = TrustedRoot::public_good().unwrap();
        for der in root.cas.iter().flat_map(|ca| &ca.chain) {
            let cert = Certificate::parse(der).unwrap();
            let mut outer = Reader::new(der);
            let mut parts = Reader::new(outer.expect(der::SEQUENCE).unwrap().content);
            let tbs = parts.expect(der::SEQUENCE).unwrap().whole;
            assert_eq!(precertificate(&cert), tbs);
        }
    }

    #[test]
    fn a_root_with_ct_logs_needs_an_sct() {
        let root = TrustedRoot::public_good().unwrap();
        let der = &root.cas[1].chain[0];
        let cert = Certificate::parse(der).unwrap();
        let err = verify(&cert, &[], &root).unwrap_err();
        assert!(
            err.to_string().contains("no signed certificate timestamp"),
            "{err}"
        );
        let without = TrustedRoot {
            ctlogs: Vec::new(),
            ..root.clone()
        };
        assert!(verify(&cert, &[], &without).is_ok());
    }

    #[test]
    fn reads_tls_vectors_within_bounds() {
        assert_eq!(Tls(&[0, 2, 7, 8, 9]).vector16().unwrap(), &[7, 8]);
        assert!(Tls(&[0, 3, 7, 8]).vector16().is_err());
        assert!(Tls(&[0]).vector16().is_err());
        assert!(Sct::parse(&[1]).is_err());
        assert!(Sct::parse(&[0; 10]).is_err());
    }
}

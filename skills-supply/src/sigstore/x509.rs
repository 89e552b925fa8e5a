//! The fields of an X.509 certificate that webpki does not expose, read
//! with [`super::der`]: the to-be-signed part split into its fields, the
//! extensions by OID, the subject public key; and public keys (a
//! certificate's, or a log's `SubjectPublicKeyInfo` from the trusted root)
//! turned into something `ring` verifies with.

use ring::signature::{self, UnparsedPublicKey, VerificationAlgorithm};

use super::der::{self, Item, Reader};
use super::error::{SigstoreError, malformed, unsupported};

/// A certificate read far enough to find its extensions and public key.
#[derive(Debug, Clone)]
pub(crate) struct Certificate<'a> {
    /// The fields of `tbsCertificate`, in order, each whole.
    pub(crate) tbs_fields: Vec<Item<'a>>,
    pub(crate) issuer: &'a [u8],
    pub(crate) subject: &'a [u8],
    /// `subjectPublicKeyInfo`, whole.
    pub(crate) spki: &'a [u8],
    pub(crate) extensions: Vec<Extension<'a>>,
}

/// One extension.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Extension<'a> {
    /// The OID's content octets.
    pub(crate) oid: &'a [u8],
    /// The `extnValue` octets.
    pub(crate) value: &'a [u8],
    /// The whole encoding.
    pub(crate) whole: &'a [u8],
}

/// The most extensions read (a Fulcio certificate has about 25).
const MAX_EXTENSIONS: usize = 64;

/// Context tag `[3]` (constructed) around the extensions.
const EXTENSIONS_TAG: u8 = 0xa3;

impl<'a> Certificate<'a> {
    pub(crate) fn parse(der: &'a [u8]) -> Result<Certificate<'a>, SigstoreError> {
        let mut outer = Reader::new(der);
        let cert = outer.expect(der::SEQUENCE)?;
        if !outer.is_empty() {
            return malformed("certificate: bytes after the certificate");
        }
        let mut parts = Reader::new(cert.content);
        let tbs = parts.expect(der::SEQUENCE)?;
        let mut fields = Vec::new();
        let mut reader = Reader::new(tbs.content);
        while !reader.is_empty() {
            if fields.len() == 12 {
                return malformed("certificate: too many fields");
            }
            fields.push(reader.item()?);
        }
        // version [0], serial, signature, issuer, validity, subject, spki.
        let field = |i: usize, tag: u8| match fields.get(i) {
            Some(item) if item.tag == tag => Ok(*item),
            _ => malformed("certificate: not a version 3 certificate"),
        };
        field(0, 0xa0)?;
        let issuer = field(3, der::SEQUENCE)?.whole;
        let subject = field(5, der::SEQUENCE)?.whole;
        let spki = field(6, der::SEQUENCE)?.whole;
        let mut extensions = Vec::new();
        if let Some(exts) = fields.iter().find(|f| f.tag == EXTENSIONS_TAG) {
            let mut list = Reader::new(exts.content);
            let mut seq = Reader::new(list.expect(der::SEQUENCE)?.content);
            while !seq.is_empty() {
                if extensions.len() == MAX_EXTENSIONS {
                    return malformed("certificate: too many extensions");
                }
                let item = seq.expect(der::SEQUENCE)?;
                let mut ext = Reader::new(item.content);
                let oid = ext.expect(der::OID)?.content;
                ext.optional(der::BOOLEAN)?;
                let value = ext.expect(der::OCTET_STRING)?.content;
                if extensions.iter().any(|e: &Extension<'_>| e.oid == oid) {
                    return malformed("certificate: an extension twice");
                }
                extensions.push(Extension {
                    oid,
                    value,
                    whole: item.whole,
                });
            }
        }
        Ok(Certificate {
            tbs_fields: fields,
            issuer,
            subject,
            spki,
            extensions,
        })
    }

    /// The value of the extension `oid` (content octets), if present.
    pub(crate) fn extension(&self, oid: &[u8]) -> Option<&'a [u8]> {
        self.extensions
            .iter()
            .find(|e| e.oid == oid)
            .map(|e| e.value)
    }

    /// Whether the certificate names itself as its issuer (a root).
    pub(crate) fn is_self_issued(&self) -> bool {
        self.issuer == self.subject
    }
}

/// The kinds of public key this verifier accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyType {
    /// ECDSA on P-256, verifying SHA-256 signatures.
    P256,
    /// ECDSA on P-384, verifying SHA-384 signatures.
    P384,
    /// Ed25519.
    Ed25519,
}

impl KeyType {
    /// The name a trusted root gives it (`keyDetails`).
    pub(crate) fn details(self) -> &'static str {
        match self {
            KeyType::P256 => "PKIX_ECDSA_P256_SHA_256",
            KeyType::P384 => "PKIX_ECDSA_P384_SHA_384",
            KeyType::Ed25519 => "PKIX_ED25519",
        }
    }

    fn algorithm(self) -> &'static dyn VerificationAlgorithm {
        match self {
            KeyType::P256 => &signature::ECDSA_P256_SHA256_ASN1,
            KeyType::P384 => &signature::ECDSA_P384_SHA384_ASN1,
            KeyType::Ed25519 => &signature::ED25519,
        }
    }
}

/// A public key `ring` verifies with.
#[derive(Debug, Clone)]
pub(crate) struct PublicKey {
    pub(crate) kind: KeyType,
    bytes: Vec<u8>,
}

/// `id-ecPublicKey`, `prime256v1`, `secp384r1`, `id-Ed25519`.
const EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const P384: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x22];
const ED25519: &[u8] = &[0x2b, 0x65, 0x70];

impl PublicKey {
    /// The key of a DER `SubjectPublicKeyInfo`: ECDSA P-256, P-384 or
    /// Ed25519; anything else is refused.
    pub(crate) fn from_spki(spki: &[u8]) -> Result<PublicKey, SigstoreError> {
        let mut outer = Reader::new(spki);
        let mut info = Reader::new(outer.expect(der::SEQUENCE)?.content);
        if !outer.is_empty() {
            return malformed("public key: bytes after the key");
        }
        let mut algorithm = Reader::new(info.expect(der::SEQUENCE)?.content);
        let key = der::bit_string_bytes(info.expect(der::BIT_STRING)?)?;
        let oid = algorithm.expect(der::OID)?.content;
        let kind = if oid == EC_PUBLIC_KEY {
            let curve = algorithm.expect(der::OID)?.content;
            if curve == P256 {
                KeyType::P256
            } else if curve == P384 {
                KeyType::P384
            } else {
                return unsupported("public key: an elliptic curve other than P-256 or P-384");
            }
        } else if oid == ED25519 {
            KeyType::Ed25519
        } else {
            return unsupported("public key: not ECDSA P-256, P-384 or Ed25519");
        };
        Ok(PublicKey {
            kind,
            bytes: key.to_vec(),
        })
    }

    /// Whether `signature` is this key's over `message`.
    pub(crate) fn verifies(&self, message: &[u8], signature: &[u8]) -> bool {
        UnparsedPublicKey::new(self.kind.algorithm(), &self.bytes)
            .verify(message, signature)
            .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sigstore::TrustedRoot;

    #[test]
    fn reads_the_public_good_chain() {
        let root = TrustedRoot::public_good().unwrap();
        let chain = &root.cas[1].chain;
        let intermediate = Certificate::parse(&chain[0]).unwrap();
        let anchor = Certificate::parse(&chain[1]).unwrap();
        assert!(!intermediate.is_self_issued());
        assert!(anchor.is_self_issued());
        assert_eq!(intermediate.issuer, anchor.subject);
        assert_eq!(
            PublicKey::from_spki(anchor.spki).unwrap().kind,
            KeyType::P384
        );
        // basicConstraints, 2.5.29.19, is there; subjectAltName is not.
        assert!(anchor.extension(&[0x55, 0x1d, 0x13]).is_some());
        assert!(anchor.extension(&[0x55, 0x1d, 0x11]).is_none());
        let mut trailing = chain[1].clone();
        trailing.push(0);
        assert!(Certificate::parse(&trailing).is_err());
        assert!(Certificate::parse(&chain[1][..chain[1].len() - 1]).is_err());
    }

    #[test]
    fn refuses_keys_of_other_kinds() {
        // An RSA `SubjectPublicKeyInfo` header (rsaEncryption, NULL).
        let rsa = der::encode(
            der::SEQUENCE,
            &[
                der::encode(
                    der::SEQUENCE,
                    &[
                        der::encode(
                            der::OID,
                            &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01],
                        ),
                        vec![0x05, 0x00],
                    ]
                    .concat(),
                ),
                der::encode(der::BIT_STRING, &[0, 1, 2, 3]),
            ]
            .concat(),
        );
        let err = PublicKey::from_spki(&rsa).unwrap_err();
        assert_eq!(err.kind(), crate::sigstore::ErrorKind::Unsupported);
    }
}

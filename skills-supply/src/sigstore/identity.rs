//! Who signed: the leaf certificate's identity (its one subject
//! alternative name, a URI such as a GitHub workflow's
//! `https://github.com/OWNER/REPO/.github/workflows/release.yml@refs/tags/v1`
//! or an email address) and the OIDC issuer Fulcio recorded (extension
//! 1.3.6.1.4.1.57264.1.8, else the older 1.3.6.1.4.1.57264.1.1), and the
//! policy that says which identity and issuer a caller accepts.
//!
//! An identity pattern's `*` matches a run of one or more characters
//! other than `/` and `@` ([`identity_matches`]): one path segment, one
//! ref name, one email local part. So
//! `https://github.com/acme/*/.github/workflows/release.yml@refs/tags/*`
//! accepts acme's `release.yml` in any repository at any tag without a
//! `/`, and `https://github.com/acme/*` accepts no workflow at all (a
//! workflow identity has more segments). This is stricter than the trust
//! store's source pins, whose `*` crosses `/`: a signing identity names a
//! workflow file and a ref, and a pattern that silently took any workflow
//! of any repository would trust far more than its writer meant.

use super::der::{self, Reader};
use super::error::{ErrorKind, SigstoreError, malformed};
use super::x509::Certificate;

/// `subjectAltName`, 2.5.29.17.
const SUBJECT_ALT_NAME: &[u8] = &[0x55, 0x1d, 0x11];
/// Fulcio's OIDC issuer extensions: 1.3.6.1.4.1.57264.1.8 (a DER
/// UTF8String) and the older 1.3.6.1.4.1.57264.1.1 (the raw text).
const ISSUER_V2: &[u8] = &[0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xbf, 0x30, 0x01, 0x08];
const ISSUER_V1: &[u8] = &[0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xbf, 0x30, 0x01, 0x01];
/// `rfc822Name [1]` and `uniformResourceIdentifier [6]`, implicit.
const EMAIL: u8 = 0x81;
const URI: u8 = 0x86;

/// Which signers a caller accepts: an identity pattern (see
/// [`identity_matches`]) and the exact OIDC issuer; or anyone, for a caller
/// that decides afterwards from the [`Signer`] returned (the trust store).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    accepts: Option<(String, String)>,
}

impl Policy {
    /// A policy accepting identities matching `identity` (see
    /// [`identity_matches`]) issued by `issuer` exactly.
    pub fn new(identity: impl Into<String>, issuer: impl Into<String>) -> Policy {
        Policy {
            accepts: Some((identity.into(), issuer.into())),
        }
    }

    /// A policy accepting every signer: the bundle is verified, and who
    /// signed it is the caller's to judge.
    pub fn any() -> Policy {
        Policy { accepts: None }
    }

    /// The signer of `cert` if this policy accepts it.
    pub(crate) fn check(&self, cert: &Certificate<'_>) -> Result<Signer, SigstoreError> {
        let signer = Signer::of(cert)?;
        let Some((identity, issuer)) = &self.accepts else {
            return Ok(signer);
        };
        if signer.issuer != *issuer {
            return Err(SigstoreError::new(
                ErrorKind::Policy,
                format!(
                    "signed through issuer `{}`, not `{}`",
                    signer.issuer, issuer
                ),
            ));
        }
        if !identity_matches(identity, &signer.identity) {
            return Err(SigstoreError::new(
                ErrorKind::Policy,
                format!(
                    "signed by `{}`, which `{}` does not match",
                    signer.identity, identity
                ),
            ));
        }
        Ok(signer)
    }
}

/// A certificate's identity and OIDC issuer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    /// The subject alternative name: a URI or an email address.
    pub identity: String,
    /// The OIDC issuer that vouched for it.
    pub issuer: String,
}

impl Signer {
    fn of(cert: &Certificate<'_>) -> Result<Signer, SigstoreError> {
        let Some(san) = cert.extension(SUBJECT_ALT_NAME) else {
            return malformed("certificate: no subject alternative name");
        };
        let mut names = Reader::new(Reader::new(san).expect(der::SEQUENCE)?.content);
        let name = names.item()?;
        if !names.is_empty() {
            return malformed("certificate: more than one subject alternative name");
        }
        if name.tag != EMAIL && name.tag != URI {
            return malformed(
                "certificate: a subject alternative name that is neither a URI nor an email",
            );
        }
        let identity = text(name.content, "subject alternative name")?;
        let issuer = match (cert.extension(ISSUER_V2), cert.extension(ISSUER_V1)) {
            (Some(v2), _) => text(
                Reader::new(v2).expect(der::UTF8_STRING)?.content,
                "OIDC issuer",
            )?,
            (None, Some(v1)) => text(v1, "OIDC issuer")?,
            (None, None) => return malformed("certificate: no OIDC issuer extension"),
        };
        Ok(Signer { identity, issuer })
    }
}

/// Whether the identity pattern `pattern` accepts `identity`: equal
/// character for character, except that each `*` stands for one or more
/// characters other than `/` and `@`.
pub fn identity_matches(pattern: &str, identity: &str) -> bool {
    // `reach[j]`: the pattern read so far can match `identity[..j]`.
    let identity: Vec<char> = identity.chars().collect();
    let mut reach = vec![false; identity.len() + 1];
    let mut next = reach.clone();
    reach[0] = true;
    for p in pattern.chars() {
        next[0] = false;
        for (j, c) in identity.iter().enumerate() {
            next[j + 1] = if p == '*' {
                !matches!(c, '/' | '@') && (reach[j] || next[j])
            } else {
                reach[j] && *c == p
            };
        }
        std::mem::swap(&mut reach, &mut next);
    }
    reach[identity.len()]
}

fn text(bytes: &[u8], what: &str) -> Result<String, SigstoreError> {
    match std::str::from_utf8(bytes) {
        Ok(s) if !s.is_empty() && !s.chars().any(char::is_control) => Ok(s.to_owned()),
        _ => malformed(format!("certificate: the {what} is not printable text")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sigstore::TrustedRoot;

    #[test]
    fn a_certificate_without_an_identity_signs_for_no_one() {
        let root = TrustedRoot::public_good().unwrap();
        let cert = Certificate::parse(&root.cas[1].chain[1]).unwrap();
        let err = Policy::new("*", "*").check(&cert).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Malformed);
        assert!(
            err.to_string().contains("subject alternative name"),
            "{err}"
        );
    }

    #[test]
    fn a_star_stays_within_one_segment() {
        let workflow =
            "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/v1.2";
        for (pattern, want) in [
            (workflow, true),
            (
                "https://github.com/acme/*/.github/workflows/release.yml@refs/tags/*",
                true,
            ),
            (
                "https://github.com/acme/skills/.github/workflows/*.yml@refs/tags/v*",
                true,
            ),
            ("https://github.com/acme/*", false),
            ("https://github.com/*", false),
            ("*", false),
            (
                "https://github.com/acme/skills/.github/workflows/release.yml@*",
                false,
            ),
            (
                "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/v1.2*",
                false,
            ),
            (
                "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/v1.",
                false,
            ),
        ] {
            assert_eq!(identity_matches(pattern, workflow), want, "{pattern}");
        }
        assert!(identity_matches("*@acme.dev", "ci@acme.dev"));
        assert!(!identity_matches("*@acme.dev", "ci@evil.dev@acme.dev"));
        assert!(!identity_matches("*", ""));
    }

    #[test]
    fn names_are_printable_text() {
        assert_eq!(text(b"a@b.c", "x").unwrap(), "a@b.c");
        for bad in [&b""[..], b"a\nb", b"\xff"] {
            assert!(text(bad, "x").is_err());
        }
    }
}

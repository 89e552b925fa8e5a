//! Sigstore signers as the trust store holds them: an OIDC issuer, exact,
//! and an identity pattern (a workflow URI or an email address) that a
//! certificate's identity must match ([`crate::sigstore::identity_matches`]:
//! `*` stays within one path segment, ref name or email local part).
//!
//! The store keeps one as the text `<issuer> <identity pattern>` (neither
//! holds a space), of kind `sigstore`, and names it by the id
//! `sigstore:` + the first 16 hex digits of the SHA-256 of
//! `<issuer>\n<identity pattern>`, which can never be another kind's id.
//!
//! What a pattern may say: the issuer is an `https://` URL; the identity
//! is an `https://` URI or an email address, and its host (or email
//! domain) is written out, never a `*`: a pattern that any host or domain
//! could satisfy trusts whoever controls one.

use sha2::{Digest, Sha256};

use super::Signer;
use crate::sigstore::{self, Policy, SigstoreError, TrustedRoot, identity_matches};

/// The longest issuer or identity pattern read.
const MAX_TEXT: usize = 1024;

/// The prefix of a Sigstore entry's id.
pub(crate) const ID_PREFIX: &str = "sigstore:";

/// How a Sigstore signer's [`Signer::key_id`] starts.
pub(super) const SIGNER_PREFIX: &str = "Sigstore identity ";

/// Reads `text` as `<issuer> <identity pattern>`: `Ok(None)` when it does
/// not start with an `https://` URL followed by one more word, an error
/// naming the fault when it does and is not a valid entry; else the text
/// the store keeps and its id.
pub(super) fn parse(text: &str) -> Result<Option<(String, String)>, String> {
    let mut words = text.split_whitespace();
    let (Some(issuer), Some(identity), None) = (words.next(), words.next(), words.next()) else {
        return Ok(None);
    };
    if !issuer.starts_with("https://") {
        return Ok(None);
    }
    check(issuer, identity)?;
    Ok(Some((key_text(issuer, identity), id(issuer, identity))))
}

/// The text the store keeps for `issuer` and `identity`.
pub fn key_text(issuer: &str, identity: &str) -> String {
    format!("{issuer} {identity}")
}

/// Whether the entry `key` (as the store keeps it) accepts `signer`: the
/// same issuer, and an identity its pattern matches.
pub fn accepts(key: &str, signer: &sigstore::Signer) -> bool {
    key.split_once(' ').is_some_and(|(issuer, pattern)| {
        issuer == signer.issuer && identity_matches(pattern, &signer.identity)
    })
}

/// What the Sigstore bundle `bundle` says of `artifact`, verified against
/// `root` at `now` (Unix seconds) whoever signed it: the policy
/// ([`super::TrustStore::check`]) then matches its signer against the
/// `sigstore` entries pinned for the source. Its digest is the artifact's
/// SHA-256 (hex), its time the log's integrated time.
pub fn sigstore_signer(
    bundle: &[u8],
    artifact: &[u8],
    root: &TrustedRoot,
    now: u64,
) -> Result<Signer, SigstoreError> {
    let verified = sigstore::verify(bundle, artifact, root, &Policy::any(), now)?;
    let digest: String = Sha256::digest(artifact)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(Signer {
        key_id: format!(
            "{SIGNER_PREFIX}`{}` (issuer `{}`)",
            verified.signer.identity, verified.signer.issuer
        ),
        digest: Some(digest),
        version: None,
        timestamp: Some(verified.integrated_time),
        sigstore: Some(verified),
    })
}

fn id(issuer: &str, identity: &str) -> String {
    let digest = Sha256::digest(format!("{issuer}\n{identity}"));
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02X}")).collect();
    format!("{ID_PREFIX}{hex}")
}

/// The rules of the module documentation.
fn check(issuer: &str, identity: &str) -> Result<(), String> {
    let printable = |s: &str| s.len() <= MAX_TEXT && !s.chars().any(char::is_control);
    if !printable(issuer) || !printable(identity) {
        return Err(format!(
            "a Sigstore issuer or identity is printable text of at most {MAX_TEXT} bytes"
        ));
    }
    let issuer_host = host(issuer.strip_prefix("https://").unwrap_or_default());
    if issuer_host.is_empty() || issuer.contains('*') {
        return Err(format!(
            "the Sigstore issuer `{issuer}` must be an `https://` URL, written out \
             (`https://token.actions.githubusercontent.com` for GitHub Actions)"
        ));
    }
    let fixed = match identity.strip_prefix("https://") {
        Some(rest) => host(rest),
        None => identity.rsplit_once('@').map_or("", |(_, domain)| domain),
    };
    if fixed.is_empty() || fixed.contains('*') {
        return Err(format!(
            "the Sigstore identity `{identity}` must be an `https://` URI (a workflow: \
             `https://github.com/OWNER/REPO/.github/workflows/FILE.yml@refs/tags/*`) or an \
             email address, its host or domain written out, not a `*`"
        ));
    }
    Ok(())
}

/// The host of `rest`, the part of a URL after `https://`.
fn host(rest: &str) -> &str {
    rest.split(['/', '?', '#']).next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUER: &str = "https://token.actions.githubusercontent.com";
    const RELEASE: &str =
        "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/*";

    fn signer(identity: &str, issuer: &str) -> sigstore::Signer {
        sigstore::Signer {
            identity: identity.into(),
            issuer: issuer.into(),
        }
    }

    #[test]
    fn an_entry_is_read_with_its_id_and_matches_issuer_and_identity() {
        let (key, id) = parse(&format!("{ISSUER}  {RELEASE}\n"))
            .expect("valid")
            .expect("a sigstore entry");
        assert_eq!(key, format!("{ISSUER} {RELEASE}"));
        assert!(
            id.starts_with(ID_PREFIX) && id.len() == ID_PREFIX.len() + 16,
            "{id}"
        );
        let tag = "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/v1.0.0";
        assert!(accepts(&key, &signer(tag, ISSUER)));
        assert!(!accepts(&key, &signer(tag, "https://accounts.google.com")));
        let branch = "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main";
        assert!(!accepts(&key, &signer(branch, ISSUER)));
        let other = "https://github.com/acme/other/.github/workflows/release.yml@refs/tags/v1";
        assert!(!accepts(&key, &signer(other, ISSUER)));
    }

    #[test]
    fn only_an_issuer_url_and_a_pattern_with_a_fixed_host_are_entries() {
        assert_eq!(parse("RWQ… comment"), Ok(None));
        assert_eq!(parse(ISSUER), Ok(None));
        assert_eq!(parse(&format!("{ISSUER} {RELEASE} more")), Ok(None));
        for bad in [
            format!("{ISSUER} https://*/acme/x"),
            format!("{ISSUER} https://*.github.com/acme/x"),
            format!("{ISSUER} *"),
            format!("{ISSUER} ci@*"),
            format!("{ISSUER} ci"),
            format!("https://* {RELEASE}"),
            format!("https:// {RELEASE}"),
        ] {
            assert!(parse(&bad).is_err(), "{bad}");
        }
        assert!(parse("https://accounts.google.com *@acme.dev").is_ok_and(|e| e.is_some()));
    }
}

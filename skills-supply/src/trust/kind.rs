//! The kinds of public key the trust store holds, each read from the text a
//! publisher hands out, with the id refusals, pins and the lock name it by:
//!
//! | kind       | text                                          | id                                            |
//! |------------|-----------------------------------------------|-----------------------------------------------|
//! | `minisign` | `.pub` file or base64 key (`RWQ…`)            | 16 uppercase hex digits, as minisign prints   |
//! | `ssh`      | a `.pub` line (`ssh-ed25519 AAAA… comment`)   | `SHA256:…`, as `ssh-keygen -l` prints         |
//! | `openpgp`  | an armored public key block                   | the primary key's fingerprint, 40 hex digits  |
//! | `sigstore` | `<OIDC issuer> <identity pattern>`            | `sigstore:` and 16 hex digits                 |
//!
//! minisign keys sign packs and indexes; SSH and OpenPGP keys sign git
//! commits and tags (`crate::git::signature`); a `sigstore` entry is not a
//! key but who may sign a Sigstore bundle beside an archive (an issuer and
//! an identity pattern, `identity.rs`). The four kinds of id never collide
//! (16 hex digits, `SHA256:`, 40 hex digits, `sigstore:`), so a signature of
//! one kind can never be taken for a key of another.
//!
//! An OpenPGP fingerprint is the SHA-1 of the key packet, which this crate
//! does not link: the trust file keeps the fingerprint beside the block,
//! [`crate::git::signature`] computes it with `gpg` when a key is added, and
//! checks it again, fail closed, each time the block is put in a keyring.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use sha2::{Digest, Sha256};
use skills_core::pack::signature::{key_line, public_key_id};

/// The largest public key text read: an armored RSA-4096 key with a few
/// user ids and subkeys is about 10 KiB.
pub const MAX_KEY_TEXT: usize = 64 * 1024;

/// What kind of key a trusted key is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyKind {
    /// A minisign public key: signs packs and index entries.
    Minisign,
    /// An SSH public key: signs git commits and tags (`gpg.format ssh`).
    Ssh,
    /// An OpenPGP public key: signs git commits and tags.
    OpenPgp,
    /// A Sigstore signer: an OIDC issuer and an identity pattern, for
    /// Sigstore bundles beside archives.
    Sigstore,
}

impl KeyKind {
    /// The name the trust file, the lock and messages use.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyKind::Minisign => "minisign",
            KeyKind::Ssh => "ssh",
            KeyKind::OpenPgp => "openpgp",
            KeyKind::Sigstore => "sigstore",
        }
    }

    /// The kind called `name` (see [`as_str`](Self::as_str)).
    pub fn from_name(name: &str) -> Option<KeyKind> {
        [
            KeyKind::Minisign,
            KeyKind::Ssh,
            KeyKind::OpenPgp,
            KeyKind::Sigstore,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }
}

impl fmt::Display for KeyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A public key read from its text: its kind, the text the store keeps and
/// its id (`None` for an OpenPGP key, whose fingerprint is given or
/// computed by `gpg`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedKey {
    /// Its kind.
    pub kind: KeyKind,
    /// What the trust file keeps: the base64 minisign key, the SSH key as
    /// `<type> <base64>` (comment left out), or the armored block.
    pub key: String,
    /// Its id, when it can be computed here.
    pub id: Option<String>,
}

const PGP_BEGIN: &str = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
const PGP_END: &str = "-----END PGP PUBLIC KEY BLOCK-----";

/// Reads `text` as a public key of any kind, or says what it is not.
pub fn parse(text: &str) -> Result<ParsedKey, String> {
    let text = text.trim();
    if text.len() > MAX_KEY_TEXT {
        return Err(format!(
            "a public key of {} bytes is longer than the {MAX_KEY_TEXT} read",
            text.len()
        ));
    }
    if text.starts_with(PGP_BEGIN) {
        return openpgp_block(text).map(|key| ParsedKey {
            kind: KeyKind::OpenPgp,
            key,
            id: None,
        });
    }
    if let Some(id) = public_key_id(text) {
        let key = key_line(text).unwrap_or(text).trim().to_owned();
        return Ok(ParsedKey {
            kind: KeyKind::Minisign,
            key,
            id: Some(id),
        });
    }
    if let Some((key, id)) = ssh_key(text)? {
        return Ok(ParsedKey {
            kind: KeyKind::Ssh,
            key,
            id: Some(id),
        });
    }
    if let Some((key, id)) = super::identity::parse(text)? {
        return Ok(ParsedKey {
            kind: KeyKind::Sigstore,
            key,
            id: Some(id),
        });
    }
    Err(format!(
        "{:?} is not a minisign public key (`RWQ…` or its `.pub` file), nor an SSH public key \
         (`ssh-ed25519 AAAA…`, a `.pub` file), nor an armored OpenPGP public key \
         (`gpg --armor --export FINGERPRINT`), nor a Sigstore issuer and identity \
         (`https://token.actions.githubusercontent.com https://github.com/…`)",
        shorten(text)
    ))
}

/// Whether `id` is an OpenPGP fingerprint as the store writes it: 40
/// uppercase hex digits (a v4 key's).
pub fn is_openpgp_fingerprint(id: &str) -> bool {
    id.len() == 40
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase() && b.is_ascii_hexdigit())
}

/// An SSH public key line, `<type> <base64> [comment]`, as the store keeps
/// it (`<type> <base64>`) and its fingerprint; `Ok(None)` when `text` does
/// not start like one, an error when it does and is malformed.
fn ssh_key(text: &str) -> Result<Option<(String, String)>, String> {
    let mut words = text.split_whitespace();
    let (Some(kind), Some(base64)) = (words.next(), words.next()) else {
        return Ok(None);
    };
    let known = kind.starts_with("ssh-")
        || kind.starts_with("ecdsa-sha2-")
        || kind.starts_with("sk-ssh-")
        || kind.starts_with("sk-ecdsa-");
    if !known {
        return Ok(None);
    }
    if text.lines().count() > 1 {
        return Err("an SSH public key is one line: give one key".to_owned());
    }
    let blob = STANDARD
        .decode(base64)
        .map_err(|_| format!("the SSH public key's `{}` is not base64", shorten(base64)))?;
    // The blob is SSH strings (a big-endian length, then the bytes), all
    // of it: the key type, which must be the one written before it, then
    // the key's fields.
    let mut fields = Vec::new();
    let mut rest = blob.as_slice();
    while !rest.is_empty() {
        let field = rest
            .get(..4)
            .and_then(|len| <[u8; 4]>::try_from(len).ok())
            .map(|len| u32::from_be_bytes(len) as usize)
            .and_then(|len| rest.get(4..4usize.checked_add(len)?));
        let Some(field) = field else {
            return Err(
                "the SSH public key's data is cut short (a line cut or edited?)".to_owned(),
            );
        };
        rest = &rest[4 + field.len()..];
        fields.push(field);
    }
    if fields.len() < 2 || fields.first() != Some(&kind.as_bytes()) {
        return Err(format!(
            "the SSH public key's data is not an `{kind}` key (a line cut or edited?)"
        ));
    }
    let id = format!("SHA256:{}", STANDARD_NO_PAD.encode(Sha256::digest(&blob)));
    Ok(Some((format!("{kind} {base64}"), id)))
}

/// One armored public key block, trimmed to its markers; text around or
/// after it is refused.
fn openpgp_block(text: &str) -> Result<String, String> {
    let Some(end) = text.find(PGP_END) else {
        return Err("the OpenPGP public key block has no END line".to_owned());
    };
    let block = &text[..end + PGP_END.len()];
    if !text[block.len()..].trim().is_empty() || block[PGP_BEGIN.len()..].contains(PGP_BEGIN) {
        return Err("give one armored OpenPGP public key block, and nothing else".to_owned());
    }
    let body_ok = block.lines().skip(1).all(|line| {
        line.is_ascii()
            && !line
                .chars()
                .any(|c| c.is_control() && c != '\t' && c != '\r')
    });
    if !body_ok {
        return Err("the OpenPGP public key block is not armored text".to_owned());
    }
    Ok(block.replace("\r\n", "\n"))
}

/// The start of `text` for a message.
fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ssh-keygen -t ed25519`'s public key and `ssh-keygen -lf`'s
    /// fingerprint of it.
    const SSH: &str =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIN7ddr9NB3fwP482JUoSL9F5oQ/D1Tz55cxp6sPF3FXw k1";
    const SSH_ID: &str = "SHA256:zJ6r4ceeUc7PQ7MHu8cjKILgx1eNNKpNjFZycWpioFI";
    const MINISIGN: &str = "RWQF5xph8jCG4/OjEU48pItL8GxHOPv6n7U5LKQfMBz5eY34pEEONwVU";

    #[test]
    fn each_kind_is_read_with_its_id() {
        let ssh = parse(SSH).expect("an SSH key");
        assert_eq!(ssh.kind, KeyKind::Ssh);
        assert_eq!(ssh.id.as_deref(), Some(SSH_ID));
        assert_eq!(ssh.key, SSH.trim_end_matches(" k1"));
        let minisign = parse(MINISIGN).expect("a minisign key");
        assert_eq!(minisign.kind, KeyKind::Minisign);
        assert_eq!(minisign.id.as_deref(), Some("E38630F2611AE705"));
        let block = format!("{PGP_BEGIN}\n\nmDMEZ0\n=abcd\n{PGP_END}\n");
        let pgp = parse(&block).expect("an armored block");
        assert_eq!((pgp.kind, pgp.id), (KeyKind::OpenPgp, None));
        for kind in [
            KeyKind::Minisign,
            KeyKind::Ssh,
            KeyKind::OpenPgp,
            KeyKind::Sigstore,
        ] {
            assert_eq!(KeyKind::from_name(kind.as_str()), Some(kind));
        }
    }

    #[test]
    fn malformed_keys_are_refused_with_a_reason() {
        let cut = &SSH[..60];
        assert!(parse(cut).expect_err("a cut key").contains("cut short"));
        let relabelled = SSH.replacen("ssh-ed25519", "ssh-rsa", 1);
        assert!(
            parse(&relabelled)
                .expect_err("wrong type")
                .contains("ssh-rsa")
        );
        assert!(
            parse("hello world")
                .expect_err("text")
                .contains("is not a minisign public key")
        );
        let two = format!("{PGP_BEGIN}\nA\n{PGP_END}\n{PGP_BEGIN}\nB\n{PGP_END}");
        assert!(parse(&two).expect_err("two blocks").contains("one armored"));
        assert!(parse(PGP_BEGIN).expect_err("no end").contains("no END"));
        assert!(parse(&"A".repeat(MAX_KEY_TEXT + 1)).is_err());
        assert!(is_openpgp_fingerprint(
            "1F86E4068CA2C6C775D978587D1139CC94BB9C1C"
        ));
        assert!(!is_openpgp_fingerprint(
            "1f86e4068ca2c6c775d978587d1139cc94bb9c1c"
        ));
        assert!(!is_openpgp_fingerprint("E38630F2611AE705"));
    }
}

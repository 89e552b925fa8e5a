//! minisign signatures over a whole pack file.
//!
//! A pack is signed as any file is signed with minisign: the detached
//! `<pack>.minisig` holds an Ed25519 signature of the BLAKE2b-512 hash of
//! every byte of the pack, and a signed "trusted comment". `skills` writes
//! `skills-digest-v2:<digest>` there, binding the signature to the pack's
//! content digest as well as its bytes; a pack signed by the stock
//! `minisign -S` (whose comment holds a timestamp and a file name) verifies
//! on its bytes alone. Verification uses `minisign-verify`: pure Rust, no
//! dependencies, verify-only.

use std::fmt;
#[cfg(feature = "fs")]
use std::path::Path;
use std::path::PathBuf;

use minisign_verify::{PublicKey, Signature};

use crate::digest;
#[cfg(feature = "fs")]
use crate::fsread::{self, FileError};

/// What the first line of a minisign key file starts with.
pub const UNTRUSTED_PREFIX: &str = "untrusted comment:";

/// `<pack>.minisig`: where a pack's detached signature is.
pub fn minisig_path(pack: &std::path::Path) -> PathBuf {
    let mut s = pack.as_os_str().to_owned();
    s.push(".minisig");
    PathBuf::from(s)
}

/// The base64 key of a minisign key file's text: the line after the first,
/// which must be an untrusted comment.
pub fn key_line(text: &str) -> Option<&str> {
    let mut lines = text.lines();
    if !lines.next()?.starts_with(UNTRUSTED_PREFIX) {
        return None;
    }
    Some(lines.next()?.trim()).filter(|line| !line.is_empty())
}

/// Whether `s` is a base64 minisign public key: `Ed`, key id, Ed25519 key.
pub fn is_public_key(s: &str) -> bool {
    PublicKey::from_base64(s).is_ok()
}

/// A public key, and the file it was read from unless it was given bare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedKey {
    /// The base64 key.
    pub key: String,
    /// The `.pub` file read, if any.
    pub file: Option<PathBuf>,
}

/// Why a public key argument gave no key.
#[cfg(feature = "fs")]
#[derive(Debug)]
pub enum KeyError {
    /// Neither a base64 key nor the path of a file.
    NotFound,
    /// The file exists and could not be read.
    File(FileError),
    /// The file does not start with an `untrusted comment:` line and a key.
    NoKeyLine,
    /// The file's key line is not a public key.
    NotAKey,
}

#[cfg(feature = "fs")]
impl KeyError {
    /// Why the argument is no public key; `None` for a file that could not
    /// be read (its [`FileError`] says why).
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            KeyError::NotFound => Some("no such file, and not a base64 key either"),
            KeyError::File(_) => None,
            KeyError::NoKeyLine => {
                Some("expected an `untrusted comment:` line, then the base64 key")
            }
            KeyError::NotAKey => Some("the key line is not a base64 Ed25519 public key"),
        }
    }
}

#[cfg(feature = "fs")]
impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, self.reason()) {
            (KeyError::File(e), _) => write!(f, "{}", e.reason),
            (_, reason) => f.write_str(reason.unwrap_or_default()),
        }
    }
}

#[cfg(feature = "fs")]
impl std::error::Error for KeyError {}

/// Reads a public key given as the bare base64 key (what `minisign -P`
/// takes) or as the path of a minisign `.pub` file relative to `base`
/// (read bounded by [`MAX_KEY_FILE`]). The one reading of a `pubkey`
/// argument, for `skb` and `skills_bundle!` alike.
#[cfg(feature = "fs")]
pub fn load_public_key(arg: &str, base: &Path) -> Result<LoadedKey, KeyError> {
    let bare = arg.trim();
    if is_public_key(bare) {
        return Ok(LoadedKey {
            key: bare.to_owned(),
            file: None,
        });
    }
    let path = base.join(arg);
    let bytes = match fsread::read_file(&path, MAX_KEY_FILE) {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => return Err(KeyError::NotFound),
        Err(e) => return Err(KeyError::File(e)),
    };
    let line = std::str::from_utf8(&bytes)
        .ok()
        .and_then(key_line)
        .ok_or(KeyError::NoKeyLine)?;
    if is_public_key(line) {
        Ok(LoadedKey {
            key: line.to_owned(),
            file: Some(path),
        })
    } else {
        Err(KeyError::NotAKey)
    }
}

/// The largest `.minisig` file read: 16 KiB. minisign writes about 300
/// bytes; its comments are at most 1,024 (untrusted) and 8,192 (trusted).
pub const MAX_SIGNATURE_FILE: u64 = 16 << 10;

/// The largest minisign key file read, public or secret: 4 KiB (minisign
/// writes under 300 bytes, comment lines of at most 1,024).
pub const MAX_KEY_FILE: u64 = 4 << 10;

/// Why a signature was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignatureError {
    /// No signature was given where one is required.
    Missing,
    /// The public key is not a minisign public key.
    PublicKey,
    /// The signature is not a minisign signature.
    Malformed,
    /// The signature was made with another key.
    WrongKey,
    /// The signature does not match the bytes (or its trusted comment).
    Invalid,
    /// A legacy (not prehashed) signature, which is refused.
    Legacy,
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SignatureError::Missing => "the pack is not signed, and a signature is required",
            SignatureError::PublicKey => "the public key is not a minisign public key",
            SignatureError::Malformed => "the signature is not a minisign signature",
            SignatureError::WrongKey => "the pack was signed with another key",
            SignatureError::Invalid => {
                "the signature does not match: the pack or its signature was altered"
            }
            SignatureError::Legacy => {
                "legacy (non-prehashed) minisign signatures are not accepted; re-sign with a current minisign"
            }
        })
    }
}

impl std::error::Error for SignatureError {}

/// Checks `signature` (the text of a `.minisig` file; `None`, when there is
/// none, is [`SignatureError::Missing`]) over `bytes` with `public_key` (a
/// bare base64 key, or the text of a `.pub` file). Returns the trusted
/// comment.
pub fn verify(
    bytes: &[u8],
    public_key: &str,
    signature: Option<&str>,
) -> Result<String, SignatureError> {
    // The text of a `.pub` file is read by the rule a `pubkey` argument is.
    let key = public_key.trim();
    let key = if key.contains('\n') {
        key_line(key).ok_or(SignatureError::PublicKey)?
    } else {
        key
    };
    let key = PublicKey::from_base64(key).map_err(|_| SignatureError::PublicKey)?;
    let signature = signature.ok_or(SignatureError::Missing)?;
    let sig = Signature::decode(signature.trim_start()).map_err(|_| SignatureError::Malformed)?;
    key.verify(bytes, &sig, false).map_err(|e| match e {
        minisign_verify::Error::UnexpectedKeyId => SignatureError::WrongKey,
        minisign_verify::Error::UnexpectedAlgorithm => SignatureError::Legacy,
        _ => SignatureError::Invalid,
    })?;
    Ok(sig.trusted_comment().to_string())
}

/// The digest a trusted comment names, if it names one.
pub fn signed_digest(trusted_comment: &str) -> Option<&str> {
    trusted_comment
        .split_whitespace()
        .find_map(|word| word.strip_prefix(digest::VERSION)?.strip_prefix(':'))
}

/// The trusted comment `skills` signs a pack with.
pub fn trusted_comment(digest: &str) -> String {
    format!("{}:{digest}", digest::VERSION)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3";

    #[test]
    fn a_signature_sits_beside_its_pack() {
        assert_eq!(
            minisig_path(std::path::Path::new("out/x.skillpack")),
            PathBuf::from("out/x.skillpack.minisig")
        );
    }

    #[test]
    fn key_lines_follow_an_untrusted_comment() {
        assert!(is_public_key(KEY));
        assert!(!is_public_key(&KEY[..55]));
        assert_eq!(
            key_line(&format!("untrusted comment: k\n {KEY} \n")),
            Some(KEY)
        );
        assert_eq!(key_line(&format!("comment: k\n{KEY}\n")), None);
        assert_eq!(key_line("untrusted comment: k\n\n"), None);
    }

    /// `verify` reads the text of a `.pub` file by [`key_line`]: the key
    /// is taken (the missing signature is what fails) only after an
    /// untrusted comment.
    #[test]
    fn verify_reads_key_files_by_the_one_rule() {
        let file = format!("untrusted comment: k\n{KEY}\n");
        assert_eq!(verify(b"", &file, None), Err(SignatureError::Missing));
        assert_eq!(verify(b"", KEY, None), Err(SignatureError::Missing));
        let no_comment = format!("k\n{KEY}\n");
        assert_eq!(
            verify(b"", &no_comment, None),
            Err(SignatureError::PublicKey)
        );
    }

    #[cfg(feature = "fs")]
    #[test]
    fn a_key_is_bare_or_read_from_a_file() {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let bare = load_public_key(&format!(" {KEY}\n"), tmp.path()).expect("bare");
        assert_eq!(
            bare,
            LoadedKey {
                key: KEY.into(),
                file: None
            }
        );
        std::fs::write(
            tmp.path().join("k.pub"),
            format!("untrusted comment: k\n{KEY}\n"),
        )
        .expect("writes the key");
        let file = load_public_key("k.pub", tmp.path()).expect("file");
        assert_eq!(file.key, KEY);
        assert_eq!(file.file, Some(tmp.path().join("k.pub")));
        std::fs::write(
            tmp.path().join("bad.pub"),
            format!("untrusted comment: k\n{}\n", &KEY[..50]),
        )
        .expect("writes the key");
        assert!(matches!(
            load_public_key("bad.pub", tmp.path()),
            Err(KeyError::NotAKey)
        ));
        std::fs::write(tmp.path().join("none.pub"), KEY).expect("writes the key");
        assert!(matches!(
            load_public_key("none.pub", tmp.path()),
            Err(KeyError::NoKeyLine)
        ));
        let missing = load_public_key("missing.pub", tmp.path());
        assert_eq!(
            missing.map_err(|e| e.to_string()),
            Err("no such file, and not a base64 key either".to_string())
        );
    }

    #[test]
    fn the_trusted_comment_names_the_digest_and_its_version() {
        let comment = trusted_comment("00ff");
        assert_eq!(comment, "skills-digest-v2:00ff");
        assert_eq!(signed_digest(&comment), Some("00ff"));
        assert_eq!(
            signed_digest("timestamp:1 file:x skills-digest-v2:ab"),
            Some("ab")
        );
        assert_eq!(signed_digest("skills-digest-v1:00ff"), None);
        assert_eq!(signed_digest("skills-digest-v2"), None);
    }
}

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
//!
//! The trusted comment may also carry the release a publisher signed:
//! `skills-digest-v2:<digest> version:<semver> timestamp:<unix seconds>`
//! ([`SignedClaims`]). Both are signed, so an installer can refuse a pack
//! older than the one it locked (rollback); the timestamp orders the releases
//! of a publisher who gives no versions. Readers that know only the digest
//! still find it, and comments holding only the digest still verify.

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

/// The trusted comment `skills` signs a pack with, naming only its digest
/// (see [`SignedClaims`] for one naming the release too).
pub fn trusted_comment(digest: &str) -> String {
    SignedClaims {
        digest: digest.to_owned(),
        version: None,
        timestamp: None,
    }
    .to_string()
}

/// What a pack's trusted comment claims, signed with the pack: its content
/// digest and, when the publisher gave them, its release version and the
/// time it was signed. Displayed, it is the trusted comment itself:
/// `skills-digest-v2:<digest> version:<version> timestamp:<seconds>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedClaims {
    /// The pack's content digest (64 lowercase hex digits).
    pub digest: String,
    /// The release version, `MAJOR.MINOR.PATCH[-pre][+build]` ([`is_version`]).
    pub version: Option<String>,
    /// When it was signed, in seconds since 1970-01-01 UTC: what orders the
    /// releases of a publisher who gives no versions.
    pub timestamp: Option<u64>,
}

/// The key of the version claim in a trusted comment.
const VERSION_KEY: &str = "version";
/// The key of the time claim; stock minisign writes the same key, meaning
/// the same thing, in its default trusted comment.
const TIMESTAMP_KEY: &str = "timestamp";

impl fmt::Display for SignedClaims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", digest::VERSION, self.digest)?;
        if let Some(version) = &self.version {
            write!(f, " {VERSION_KEY}:{version}")?;
        }
        if let Some(timestamp) = self.timestamp {
            write!(f, " {TIMESTAMP_KEY}:{timestamp}")?;
        }
        Ok(())
    }
}

/// Reads the claims of a trusted comment: words separated by white space,
/// each `key:value`. The digest is required; `version` and `timestamp` are
/// optional. Strict where it matters: a digest that is not 64 lowercase hex
/// digits, a version that is not [`is_version`], a timestamp that is not
/// decimal seconds, or any of the three given twice, is no claim at all
/// (`None`). Other words (stock minisign's `file:` and `hashed`) are left
/// alone, so a digest added to minisign's own comment still reads.
pub fn claims(trusted_comment: &str) -> Option<SignedClaims> {
    let (mut digest, mut version, mut timestamp) = (None, None, None);
    for word in trusted_comment.split_whitespace() {
        let Some((key, value)) = word.split_once(':') else {
            continue;
        };
        let slot = match key {
            k if k == digest::VERSION => {
                let ok = value.len() == 64
                    && value
                        .bytes()
                        .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
                set_once(&mut digest, ok.then(|| value.to_owned()))
            }
            VERSION_KEY => set_once(&mut version, is_version(value).then(|| value.to_owned())),
            TIMESTAMP_KEY => {
                let ok = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
                set_once(&mut timestamp, value.parse().ok().filter(|_| ok))
            }
            _ => Some(()),
        };
        slot?;
    }
    Some(SignedClaims {
        digest: digest?,
        version,
        timestamp,
    })
}

/// Fills an empty `slot` with `value`; `None` for a second value or an
/// invalid one.
fn set_once<T>(slot: &mut Option<T>, value: Option<T>) -> Option<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(value?);
    Some(())
}

/// Whether `s` is a version as SemVer 2.0 writes one:
/// `MAJOR.MINOR.PATCH`, then `-` and dot-separated pre-release identifiers,
/// then `+` and dot-separated build identifiers. Numbers have no leading
/// zero and fit in 64 bits; identifiers are non-empty `[0-9A-Za-z-]`, and a
/// numeric pre-release identifier has no leading zero either. No `v` prefix.
pub fn is_version(s: &str) -> bool {
    let (rest, build) = match s.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (s, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let number = |n: &str| {
        n.bytes().all(|b| b.is_ascii_digit())
            && (n == "0" || !n.starts_with('0'))
            && n.parse::<u64>().is_ok()
    };
    let identifier =
        |i: &str| !i.is_empty() && i.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|n| number(n))
        && pre.is_none_or(|pre| {
            pre.split('.').all(|i| {
                identifier(i)
                    && (!i.bytes().all(|b| b.is_ascii_digit()) || i == "0" || !i.starts_with('0'))
            })
        })
        && build.is_none_or(|build| build.split('.').all(identifier))
}

/// A minisign key id as minisign prints it: the 8 bytes read as a
/// little-endian number, in 16 uppercase hex digits (`495409519A1C6C90`).
pub fn key_id_hex(keynum: [u8; 8]) -> String {
    format!("{:016X}", u64::from_le_bytes(keynum))
}

/// The key id ([`key_id_hex`]) of a public key: the bare base64 key or the
/// text of a `.pub` file; `None` when it is no minisign public key.
pub fn public_key_id(public_key: &str) -> Option<String> {
    let key = public_key.trim();
    let key = if key.contains('\n') {
        key_line(key)?
    } else {
        key
    };
    PublicKey::from_base64(key).ok()?;
    keynum_of(key)
}

/// The key id ([`key_id_hex`]) of the key that made a signature (the text
/// of a `.minisig` file); `None` when it is no minisign signature.
pub fn signature_key_id(signature: &str) -> Option<String> {
    let text = signature.trim_start();
    Signature::decode(text).ok()?;
    keynum_of(text.lines().nth(1)?.trim())
}

/// The key id in a base64 key or signature line already checked by
/// `minisign-verify`: bytes 2..10, after the algorithm, decoded from the
/// first 16 characters (12 bytes).
fn keynum_of(base64: &str) -> Option<String> {
    let mut bytes = [0u8; 12];
    let mut bits = 0u32;
    for (i, c) in base64.bytes().take(16).enumerate() {
        let sextet = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        bits = bits << 6 | u32::from(sextet);
        if i % 4 == 3 {
            let group = bytes.get_mut(i / 4 * 3..i / 4 * 3 + 3)?;
            group.copy_from_slice(&bits.to_be_bytes()[1..]);
            bits = 0;
        }
    }
    let keynum: [u8; 8] = bytes.get(2..10)?.try_into().ok()?;
    Some(key_id_hex(keynum))
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

    /// A key made by the stock `minisign -G`, whose file names its id, and
    /// its signature of `pack` (`minisign -S -t 'skills-digest-v2:00ff'`).
    const STOCK_KEY: &str = "untrusted comment: minisign public key A9E9E80522092621
RWQhJgkiBejpqduoHhSi3GyBdGqeElszs4xpwt5Sl9vP3RxJb3BnAem0
";
    const STOCK_SIGNATURE: &str = "untrusted comment: signature from minisign secret key
RUQhJgkiBejpqaIXjMo6nYL93TcKIdRnfx6s2Z75TsXfhaNNm97KBEa+9wRGeY12tH82d4ZQZggOWAWM941WMeU1lzP5xFCF8gc=
trusted comment: skills-digest-v2:00ff
FC+nSNitzyRMwbqsLjfO9OH8tb7w+nz/BCVDKzvDQkthyr7XEGj0sU0E0O8rUSxmNxlFpZ0wRQiHp/iFLu0ZDA==
";

    #[test]
    fn key_ids_read_as_minisign_prints_them() {
        assert_eq!(
            key_id_hex([0x90, 0x6C, 0x1C, 0x9A, 0x51, 0x09, 0x54, 0x49]),
            "495409519A1C6C90"
        );
        assert_eq!(
            verify(b"pack", STOCK_KEY, Some(STOCK_SIGNATURE)).as_deref(),
            Ok("skills-digest-v2:00ff")
        );
        let id = Some("A9E9E80522092621".to_owned());
        assert_eq!(public_key_id(STOCK_KEY), id);
        assert_eq!(
            public_key_id(STOCK_KEY.lines().nth(1).unwrap_or_default()),
            id
        );
        assert_eq!(signature_key_id(STOCK_SIGNATURE), id);
        assert_eq!(public_key_id(&KEY[..40]), None);
        assert_eq!(public_key_id("RWQ"), None);
        assert_eq!(signature_key_id("untrusted comment: x\nRUQ\n"), None);
        assert_eq!(signature_key_id(""), None);
    }

    const HEX: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn claims_read_back_what_is_signed() {
        let full = SignedClaims {
            digest: HEX.into(),
            version: Some("1.2.3-rc.1+build.5".into()),
            timestamp: Some(1_700_000_000),
        };
        let comment = full.to_string();
        assert_eq!(
            comment,
            format!("skills-digest-v2:{HEX} version:1.2.3-rc.1+build.5 timestamp:1700000000")
        );
        assert_eq!(claims(&comment), Some(full));
        assert_eq!(
            signed_digest(&comment),
            Some(HEX),
            "old readers find the digest"
        );
        let old = claims(&trusted_comment(HEX)).expect("digest-only comments still read");
        assert_eq!((old.version, old.timestamp), (None, None));
        let stock =
            format!("timestamp:1633700835\tfile:x.skillpack\thashed skills-digest-v2:{HEX}");
        assert_eq!(
            claims(&stock).and_then(|c| c.timestamp),
            Some(1_633_700_835)
        );
    }

    #[test]
    fn claims_are_strict() {
        let bad = [
            String::new(),
            "version:1.0.0".to_owned(),
            "skills-digest-v2:00ff".to_owned(),
            format!("skills-digest-v2:{}", HEX.to_uppercase()),
            format!("skills-digest-v2:{HEX} skills-digest-v2:{HEX}"),
            format!("skills-digest-v2:{HEX} version:1.0"),
            format!("skills-digest-v2:{HEX} version:v1.0.0"),
            format!("skills-digest-v2:{HEX} version:1.0.0 version:1.0.0"),
            format!("skills-digest-v2:{HEX} version:"),
            format!("skills-digest-v2:{HEX} timestamp:-1"),
            format!("skills-digest-v2:{HEX} timestamp:+1"),
            format!("skills-digest-v2:{HEX} timestamp:1 timestamp:2"),
            format!("skills-digest-v2:{HEX} timestamp:99999999999999999999"),
        ];
        for comment in bad {
            assert_eq!(claims(&comment), None, "{comment:?}");
        }
    }

    #[test]
    fn versions_follow_semver_2() {
        for good in [
            "0.0.0",
            "1.2.3",
            "10.20.30",
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-0.3.7",
            "1.0.0-x.7.z.92",
            "1.0.0-x-y-z.--",
            "1.0.0-alpha+001",
            "1.0.0+20130313144700",
            "1.0.0-beta+exp.sha.5114f85",
            "18446744073709551615.0.0",
        ] {
            assert!(is_version(good), "{good}");
        }
        for bad in [
            "",
            "1",
            "1.2",
            "1.2.3.4",
            "01.2.3",
            "1.02.3",
            "v1.2.3",
            "1.2.3-",
            "1.2.3+",
            "1.2.3-01",
            "1.2.3-a..b",
            "1.2.3+a..b",
            "1.2.3-a_b",
            "1.2.3 ",
            "-1.2.3",
            "1.2.-3",
            "18446744073709551616.0.0",
            "1.2.3-\u{e9}",
        ] {
            assert!(!is_version(bad), "{bad}");
        }
    }
}

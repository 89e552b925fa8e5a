//! Signing a pack: minisign key pairs, secret keys, and the `.minisig` text.
//!
//! The write half of [`signature`], as [`write`](super::write) is the write
//! half of [`open`](super::open): the format and its verification live in
//! [`signature`]; generating a key pair, reading a secret key and signing
//! bytes live here, behind the `sign` feature, so that an agent binary, which
//! only verifies, links no scrypt. It speaks minisign's own file formats, so
//! a key from `minisign -G` signs packs here and `minisign -Vm` verifies what
//! is signed here. The cryptography is the `minisign` crate's (by minisign's
//! author). This module adds what that crate leaves to its callers: it
//! inspects a key file before decrypting it, so a damaged file and a wrong
//! password are two errors that each name the file; it never lets the crate
//! prompt on its own (where a password comes from is the caller's); and it
//! refuses trusted comments that would not survive the round trip through a
//! `.minisig` file.
//!
//! Signatures are prehashed (`ED`: Ed25519 over the BLAKE2b-512 of the data),
//! the default of minisign since 0.8. Signing is hedged with random noise, so
//! signing the same bytes twice gives two different, equally valid, files.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use ct_codecs::{Base64, Decoder};
use minisign::{ErrorKind, KeyPair, PError, PublicKey, SecretKeyBox};

use super::signature::{self, KeyError, MAX_KEY_FILE, UNTRUSTED_PREFIX, key_line};
use crate::fsread::{self, FileError};

/// The untrusted comment of the `.minisig` files written by [`sign`].
const SIGNATURE_COMMENT: &str = "signature from skills secret key";
/// The untrusted comments of the secret key files written by [`keygen`].
const SECRET_KEY_COMMENT: &str = "skills secret key";
const ENCRYPTED_SECRET_KEY_COMMENT: &str = "skills encrypted secret key";

/// Decoded sizes: `Ed`, key id (8), Ed25519 key (32) for a public key; `Ed`,
/// KDF and checksum algorithms, salt (32), scrypt limits (2 × 8), key id,
/// secret key (64) and BLAKE2b checksum (32) for a secret key.
const PUBLIC_KEY_BYTES: usize = 42;
const SECRET_KEY_BYTES: usize = 158;
/// Where the checksum starts in a decoded secret key.
const CHECKSUM_OFFSET: usize = 126;

/// The longest trusted comment accepted, in bytes: stock minisign reads the
/// line into 8,192 bytes, with the 17-byte `trusted comment: `, the newline
/// and a NUL (`minisign -Vm` says "Trusted comment too long" beyond).
pub const MAX_TRUSTED_COMMENT: usize = 8_173;

/// A key's identifier, displayed as minisign does (`495409519A1C6C90`) by
/// [`signature::key_id_hex`], the one rendering of key ids.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct KeyId([u8; 8]);

impl KeyId {
    /// Keeps minisign's 8-byte key number (always 8 bytes from the crate).
    fn from_keynum(keynum: &[u8]) -> Self {
        let mut id = [0; 8];
        id.iter_mut().zip(keynum).for_each(|(to, from)| *to = *from);
        Self(id)
    }
}

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&signature::key_id_hex(self.0))
    }
}

impl fmt::Debug for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyId({self})")
    }
}

/// A decrypted secret key, ready to sign.
pub struct SecretKey {
    key: minisign::SecretKey,
    public: PublicKey,
    id: KeyId,
}

impl SecretKey {
    /// The key's identifier, as printed in its public key file.
    pub fn id(&self) -> KeyId {
        self.id
    }
}

impl fmt::Debug for SecretKey {
    /// Shows the key id only: the key itself stays out of logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretKey")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// Why a key could not be generated or loaded, or data not signed.
#[derive(Debug)]
#[non_exhaustive]
pub enum SignError {
    /// A key file could not be read (or is not a file, or is too large).
    File(FileError),
    /// Creating or writing a file failed.
    Io {
        /// What was being done (`create`, `write`, ...).
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// [`keygen`] would replace an existing file.
    Exists(PathBuf),
    /// [`keygen`] was given one path for both keys.
    SamePath(PathBuf),
    /// A secret key file is not in minisign's format, or is damaged.
    Malformed {
        /// The key file.
        path: PathBuf,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An empty password was given for a new key.
    EmptyPassword,
    /// The password does not decrypt the secret key.
    WrongPassword(PathBuf),
    /// The trusted comment cannot be carried by a `.minisig` file.
    TrustedComment(String),
    /// A public key argument is neither a key file nor a base64 key.
    PublicKey {
        /// The argument as given.
        arg: String,
        /// Why it is no key.
        reason: &'static str,
    },
    /// The `minisign` crate failed (randomness, key derivation, encoding).
    Minisign {
        /// What was being done.
        context: String,
        /// The crate's error.
        source: PError,
    },
}

impl fmt::Display for SignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io {
                action,
                path,
                source,
            } => write!(f, "cannot {action} `{}`: {source}", path.display()),
            Self::File(e) => write!(f, "{e}"),
            Self::Exists(path) => write!(f, "`{}` already exists", path.display()),
            Self::SamePath(path) => write!(
                f,
                "`{}` is given as both the public and the secret key file",
                path.display()
            ),
            Self::Malformed { path, reason } => write!(
                f,
                "`{}` is not a minisign secret key: {reason}",
                path.display()
            ),
            Self::EmptyPassword => write!(f, "an empty password protects nothing"),
            Self::WrongPassword(path) => write!(f, "wrong password for `{}`", path.display()),
            Self::TrustedComment(reason) => write!(f, "the trusted comment {reason}"),
            Self::PublicKey { arg, reason } => {
                write!(f, "`{arg}` is not a minisign public key: {reason}")
            }
            Self::Minisign { context, source } => write!(f, "{context}: {source}"),
        }
    }
}

impl std::error::Error for SignError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            Self::Minisign { source, .. } => Some(source),
            Self::File(e) => Some(e),
            _ => None,
        }
    }
}

/// Generates a key pair and writes it in minisign's formats: `pk_path` gets
/// `untrusted comment: minisign public key <ID>` and the base64 key, as
/// `minisign -G` writes it; `sk_path` (mode 0600 on Unix) gets the secret key,
/// encrypted with `password` (scrypt), or unencrypted for `None` (`minisign
/// -W`). Existing files are an error unless `force`; missing directories are
/// created.
pub fn keygen(
    pk_path: &Path,
    sk_path: &Path,
    password: Option<&str>,
    force: bool,
) -> Result<KeyId, SignError> {
    check_destinations(pk_path, sk_path, force)?;
    let (pair, comment) = match password {
        None => (KeyPair::generate_unencrypted_keypair(), SECRET_KEY_COMMENT),
        Some("") => return Err(SignError::EmptyPassword),
        Some(password) => (
            KeyPair::generate_encrypted_keypair(Some(password.to_owned())),
            ENCRYPTED_SECRET_KEY_COMMENT,
        ),
    };
    let failed = |source| SignError::Minisign {
        context: "cannot generate a key pair".to_owned(),
        source,
    };
    let pair = pair.map_err(failed)?;
    let sk_text = pair.sk.to_box(Some(comment)).map_err(failed)?.into_string();
    let id = KeyId::from_keynum(pair.pk.keynum());
    // The crate's own box says `public key: <ID>`; this is minisign's line.
    let pk_text = format!(
        "{UNTRUSTED_PREFIX} minisign public key {id}\n{}\n",
        pair.pk.to_base64()
    );
    write_key(sk_path, &sk_text, true, force)?;
    write_key(pk_path, &pk_text, false, force)?;
    Ok(id)
}

/// Whether [`keygen`] may write `pk_path` and `sk_path`: two different
/// paths, neither existing unless `force`. Callers check this before asking
/// for a password, so nobody types one twice to be told the file exists.
pub fn check_destinations(pk_path: &Path, sk_path: &Path, force: bool) -> Result<(), SignError> {
    if pk_path == sk_path {
        return Err(SignError::SamePath(pk_path.to_path_buf()));
    }
    match [sk_path, pk_path]
        .into_iter()
        .find(|path| !force && path.symlink_metadata().is_ok())
    {
        Some(path) => Err(SignError::Exists(path.to_path_buf())),
        None => Ok(()),
    }
}

/// Loads a secret key file in minisign's format, encrypted or not, calling
/// `password` only if the key is encrypted, and only once the file is known
/// to hold a well-formed encrypted key. The caller's errors (no password at
/// hand, a failed prompt) come back as they are.
pub fn read_secret_key<E: From<SignError>>(
    path: &Path,
    password: impl FnOnce() -> Result<String, E>,
) -> Result<SecretKey, E> {
    let malformed = |reason| SignError::Malformed {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = fsread::read_file(path, MAX_KEY_FILE).map_err(SignError::File)?;
    let encoded = std::str::from_utf8(&bytes)
        .ok()
        .and_then(key_line)
        .ok_or_else(|| malformed("expected an `untrusted comment:` line, then the base64 key"))?;
    let decoded = Base64::decode_to_vec(encoded, None)
        .map_err(|_| malformed("the key line is not base64"))?;
    let (kdf, checksum) = match decoded.as_slice() {
        [b'E', b'd', kdf0, kdf1, b'B', b'2', ..] if decoded.len() == SECRET_KEY_BYTES => (
            [*kdf0, *kdf1],
            decoded.get(CHECKSUM_OFFSET..).unwrap_or_default(),
        ),
        [b'E', b'd', _, _, b'B', b'2', ..] if decoded.len() == PUBLIC_KEY_BYTES => {
            return Err(malformed("this is a public key").into());
        }
        [b'E', b'd', ..] if decoded.len() == SECRET_KEY_BYTES => {
            return Err(malformed("its checksum algorithm is not BLAKE2b (`B2`)").into());
        }
        _ => return Err(malformed("the key line holds no Ed25519 secret key").into()),
    };
    // Rebuilt so the crate sees exactly the two lines just checked.
    let sk_box = SecretKeyBox::from(format!("{UNTRUSTED_PREFIX} \n{encoded}\n"));
    // The crate reports a failed consistency check as `Verify`: damage for
    // an unencrypted key, most likely a wrong password for an encrypted one.
    let mismatch = |e: PError, meaning: SignError| match e.kind() {
        ErrorKind::Verify => meaning,
        _ => minisign_error(path, e),
    };
    let key = match &kdf {
        // `minisign -G -W` leaves the checksum of an unencrypted key zero,
        // and minisign never checks it; the probe below still catches a
        // damaged key.
        [0, 0] if checksum.iter().all(|&byte| byte == 0) => {
            minisign::SecretKey::from_bytes(&decoded).map_err(|e| minisign_error(path, e))?
        }
        [0, 0] => minisign::SecretKey::from_unencrypted_box(sk_box).map_err(|e| {
            mismatch(
                e,
                malformed("its checksum does not match: the file is damaged"),
            )
        })?,
        b"Sc" => minisign::SecretKey::from_box(sk_box, Some(password()?))
            .map_err(|e| mismatch(e, SignError::WrongPassword(path.to_path_buf())))?,
        _ => return Err(malformed("it is encrypted with an unknown algorithm").into()),
    };
    let public = PublicKey::from_secret_key(&key).map_err(|e| minisign_error(path, e))?;
    // Signing checks the signature against the public half of the key.
    minisign::sign(
        Some(&public),
        &key,
        io::empty(),
        Some("probe"),
        Some("probe"),
    )
    .map_err(|e| {
        mismatch(
            e,
            malformed("it does not sign for its own public key: the file is damaged"),
        )
    })?;
    let id = KeyId::from_keynum(key.keynum());
    Ok(SecretKey { key, public, id })
}

/// Signs `data`, returning the text of its `.minisig` file: the untrusted
/// comment `signature from skills secret key`, a prehashed (`ED`) signature,
/// `trusted comment: <trusted_comment>` and the signature over both, checked
/// against the key's public half before it is returned.
pub fn sign(key: &SecretKey, data: &[u8], trusted_comment: &str) -> Result<String, SignError> {
    check_trusted_comment(trusted_comment)?;
    minisign::sign(
        Some(&key.public),
        &key.key,
        data,
        Some(trusted_comment),
        Some(SIGNATURE_COMMENT),
    )
    .map(minisign::SignatureBox::into_string)
    .map_err(|source| SignError::Minisign {
        context: "cannot sign".to_owned(),
        source,
    })
}

/// The trusted comment of `signature` (the text of a `.minisig` file) when
/// it is a prehashed signature by `key` over `data` whose trusted comment
/// is signed too; `None` for anything else. Signing is hedged, so the same
/// bytes signed again are new bytes: this is how a publisher tells that a
/// signature already published is one it would make now.
pub fn signed_by(key: &SecretKey, data: &[u8], signature: &str) -> Option<String> {
    let sig = minisign::SignatureBox::from_string(signature).ok()?;
    if !sig.is_prehashed() {
        return None;
    }
    let comment = sig.trusted_comment().ok()?;
    minisign::verify(&key.public, &sig, io::Cursor::new(data), true, false, false).ok()?;
    Some(comment)
}

/// Reads a public key given as the path of a minisign `.pub` file or as the
/// bare base64 key (what `minisign -P` takes), returning the base64 key.
pub fn load_public_key(arg: &str) -> Result<String, SignError> {
    signature::load_public_key(arg, Path::new(""))
        .map(|loaded| loaded.key)
        .map_err(|e| match (e, arg) {
            (KeyError::File(e), _) => SignError::File(e),
            (e, arg) => SignError::PublicKey {
                arg: arg.to_owned(),
                reason: e.reason().unwrap_or_default(),
            },
        })
}

/// The error for a key file the `minisign` crate could not use.
fn minisign_error(path: &Path, source: PError) -> SignError {
    SignError::Minisign {
        context: format!("cannot load `{}`", path.display()),
        source,
    }
}

/// Refuses trusted comments that would not read back as written: minisign
/// stores the comment on one line and trims it when verifying.
fn check_trusted_comment(comment: &str) -> Result<(), SignError> {
    let reason = if comment.is_empty() {
        "is empty".to_owned()
    } else if comment.len() > MAX_TRUSTED_COMMENT {
        format!(
            "is {} bytes long; the limit is {MAX_TRUSTED_COMMENT}",
            comment.len()
        )
    } else if comment.chars().any(|c| c.is_control() && c != '\t') {
        "contains a line break or another control character".to_owned()
    } else if comment.trim() != comment {
        "starts or ends with white space".to_owned()
    } else {
        return Ok(());
    };
    Err(SignError::TrustedComment(reason))
}

/// Writes a new key file, replacing an existing one only if `force`.
fn write_key(path: &Path, text: &str, secret: bool, force: bool) -> Result<(), SignError> {
    let io_error = |action, path: &Path| {
        let path = path.to_path_buf();
        move |source| SignError::Io {
            action,
            path,
            source,
        }
    };
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io_error("create the directory", dir))?;
    }
    if force {
        // Removed rather than truncated, so the new file gets the new mode.
        match fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(io_error("replace", path)(e));
            }
            _ => {}
        }
    }
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    if secret {
        owner_only(&mut options);
    }
    let mut file = options.open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            SignError::Exists(path.to_path_buf())
        } else {
            io_error("create", path)(e)
        }
    })?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io_error("write", path))
}

/// Makes a file readable by its owner only.
#[cfg(unix)]
fn owner_only(options: &mut OpenOptions) {
    use std::os::unix::fs::OpenOptionsExt;
    options.mode(0o600);
}

/// Leaves the platform's default permissions.
#[cfg(not(unix))]
fn owner_only(_: &mut OpenOptions) {}

#[cfg(test)]
mod tests {
    //! Round trips with the stock `minisign` binary in both directions, and
    //! the errors for missing, damaged and wrongly unlocked keys.

    use std::process::{Command, Output, Stdio};

    use ct_codecs::Encoder;

    use super::*;
    use crate::pack::SignatureError;

    const PASSWORD: &str = "correct horse";
    const COMMENT: &str = "skills-digest-v2:00ff file:demo.skillpack";
    const DATA: &[u8] = b"the bytes of a skill pack\n";

    /// Runs the stock `minisign` in `dir`, typing `input` on its stdin.
    fn minisign(dir: &Path, args: &[&str], input: &str) -> Output {
        let mut child = Command::new("minisign")
            .current_dir(dir)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot run `minisign` ({e}): these tests need it: `apt-get install minisign`"
                )
            });
        if let Some(mut stdin) = child.stdin.take() {
            // minisign may exit without reading (`-W`): a closed pipe is fine.
            let _ = stdin.write_all(input.as_bytes());
        }
        let output = child.wait_with_output().expect("wait for minisign");
        assert!(
            output.status.success(),
            "`minisign {}` failed:\n{}",
            args.join(" "),
            text(&output)
        );
        output
    }

    /// stdout and stderr together.
    fn text(output: &Output) -> String {
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr)
    }

    /// Signs `DATA` into `dir/data` + `dir/data.minisig`; checks that stock
    /// `minisign -Vm` accepts it and shows the trusted comment.
    fn sign_and_verify_with_stock(dir: &Path, key: &SecretKey, pk_file: &str) {
        fs::write(dir.join("data"), DATA).expect("write data");
        let signature = sign(key, DATA, COMMENT).expect("sign");
        fs::write(dir.join("data.minisig"), signature).expect("write signature");
        let output = minisign(dir, &["-Vm", "data", "-p", pk_file], "");
        assert!(
            text(&output).contains(&format!("Trusted comment: {COMMENT}")),
            "{}",
            text(&output)
        );
    }

    fn with_password(password: &str) -> impl FnOnce() -> Result<String, SignError> {
        let password = password.to_owned();
        move || Ok(password)
    }

    fn no_password() -> Result<String, SignError> {
        panic!("the password of an unencrypted key was asked for")
    }

    /// Rewrites the base64 line of a key file after changing its bytes.
    fn rewrite_key(file: &Path, change: impl FnOnce(&mut Vec<u8>)) {
        let text = fs::read_to_string(file).expect("read key");
        let line = key_line(&text).expect("key line");
        let mut bytes = Base64::decode_to_vec(line, None).expect("base64");
        change(&mut bytes);
        let line = ct_codecs::Base64::encode_to_string(&bytes).expect("encode");
        fs::write(file, format!("untrusted comment: changed\n{line}\n")).expect("write key");
    }

    #[test]
    fn unencrypted_keys_from_keygen_interoperate_with_stock_minisign() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (pk, sk) = (dir.path().join("key.pub"), dir.path().join("key.sec"));
        let id = keygen(&pk, &sk, None, false).expect("keygen");
        let pk_text = fs::read_to_string(&pk).expect("read public key");
        assert!(pk_text.starts_with(&format!("untrusted comment: minisign public key {id}\n")));
        let key = read_secret_key(&sk, no_password).expect("load");
        assert_eq!(key.id(), id);
        assert_eq!(
            format!("{key:?}"),
            format!("SecretKey {{ id: KeyId({id}), .. }}")
        );
        sign_and_verify_with_stock(dir.path(), &key, "key.pub");
        // And stock minisign signs with the secret key written here.
        minisign(
            dir.path(),
            &["-S", "-s", "key.sec", "-m", "data", "-x", "stock.minisig"],
            "",
        );
        let signature = minisign_verify::Signature::from_file(dir.path().join("stock.minisig"))
            .expect("stock signature");
        let public = load_public_key(pk.to_str().expect("UTF-8 path")).expect("public key");
        minisign_verify::PublicKey::from_base64(&public)
            .expect("public key")
            .verify(DATA, &signature, false)
            .expect("stock signature verifies");
    }

    #[test]
    fn encrypted_keys_from_keygen_interoperate_with_stock_minisign() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (pk, sk) = (dir.path().join("key.pub"), dir.path().join("key.sec"));
        let id = keygen(&pk, &sk, Some(PASSWORD), false).expect("keygen");
        let key = read_secret_key(&sk, with_password(PASSWORD)).expect("load");
        assert_eq!(key.id(), id);
        sign_and_verify_with_stock(dir.path(), &key, "key.pub");
        let input = format!("{PASSWORD}\n");
        minisign(dir.path(), &["-S", "-s", "key.sec", "-m", "data"], &input);
        minisign(dir.path(), &["-Vm", "data", "-p", "key.pub"], "");
    }

    #[test]
    fn unencrypted_keys_from_stock_minisign_sign_here() {
        let dir = tempfile::tempdir().expect("temp dir");
        minisign(
            dir.path(),
            &["-G", "-p", "stock.pub", "-s", "stock.key", "-W"],
            "",
        );
        let stock = dir.path().join("stock.key");
        let key = read_secret_key(&stock, no_password).expect("load");
        sign_and_verify_with_stock(dir.path(), &key, "stock.pub");
        // Its checksum is zero, so damage shows when the key fails to sign.
        let damaged = dir.path().join("damaged.key");
        for i in [62, 100, 125] {
            fs::copy(&stock, &damaged).expect("copy key");
            rewrite_key(&damaged, |bytes| bytes[i] ^= 1);
            let err = read_secret_key(&damaged, no_password).expect_err("damaged");
            assert!(
                err.to_string()
                    .contains("does not sign for its own public key"),
                "{err}"
            );
        }
    }

    #[test]
    fn encrypted_keys_from_stock_minisign_sign_here() {
        let dir = tempfile::tempdir().expect("temp dir");
        let input = format!("{PASSWORD}\n{PASSWORD}\n");
        minisign(
            dir.path(),
            &["-G", "-p", "stock.pub", "-s", "stock.key"],
            &input,
        );
        let key =
            read_secret_key(&dir.path().join("stock.key"), with_password(PASSWORD)).expect("load");
        sign_and_verify_with_stock(dir.path(), &key, "stock.pub");
    }

    #[test]
    fn stock_signatures_verify_against_either_form_of_public_key() {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::write(dir.path().join("data"), DATA).expect("write data");
        minisign(
            dir.path(),
            &["-G", "-p", "stock.pub", "-s", "stock.key", "-W"],
            "",
        );
        minisign(
            dir.path(),
            &["-S", "-s", "stock.key", "-m", "data", "-t", COMMENT],
            "",
        );
        let signature = minisign_verify::Signature::from_file(dir.path().join("data.minisig"))
            .expect("stock signature");
        assert_eq!(signature.trusted_comment(), COMMENT);
        let file = dir.path().join("stock.pub");
        let from_file = load_public_key(file.to_str().expect("UTF-8 path")).expect("file");
        let bare = load_public_key(&format!(" {from_file}\n")).expect("bare key");
        assert_eq!(bare, from_file);
        let stock_text = fs::read_to_string(&file).expect("read public key");
        assert_eq!(stock_text.lines().nth(1), Some(from_file.as_str()));
        minisign_verify::PublicKey::from_base64(&bare)
            .expect("public key")
            .verify(DATA, &signature, false)
            .expect("verifies");
    }

    #[test]
    fn a_signature_is_known_as_the_keys_own_over_the_same_bytes_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let new_key = |n: &str| {
            let (pk, sk) = (
                dir.path().join(format!("{n}.pub")),
                dir.path().join(format!("{n}.key")),
            );
            keygen(&pk, &sk, None, false).expect("keygen");
            read_secret_key(&sk, no_password).expect("load")
        };
        let (key, other) = (new_key("a"), new_key("b"));
        let sig = sign(&key, b"data", "claims").expect("sign");
        assert_ne!(sign(&key, b"data", "claims").expect("sign"), sig, "hedged");
        assert_eq!(signed_by(&key, b"data", &sig).as_deref(), Some("claims"));
        assert_eq!(signed_by(&key, b"datA", &sig), None);
        assert_eq!(signed_by(&other, b"data", &sig), None);
        assert_eq!(signed_by(&key, b"data", "not a signature"), None);
    }

    #[test]
    fn signatures_are_prehashed_and_carry_the_comments() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (pk, sk) = (dir.path().join("k.pub"), dir.path().join("k.key"));
        keygen(&pk, &sk, None, false).expect("keygen");
        let key = read_secret_key(&sk, no_password).expect("load");
        let comment = "digest\twith a tab";
        let text = sign(&key, DATA, comment).expect("sign");
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("untrusted comment: signature from skills secret key")
        );
        let raw = Base64::decode_to_vec(lines.next().expect("signature line"), None);
        assert!(raw.expect("base64").starts_with(b"ED"), "prehashed");
        let signature = minisign_verify::Signature::decode(&text).expect("decode");
        assert_eq!(signature.trusted_comment(), comment);
        let public = load_public_key(pk.to_str().expect("UTF-8 path")).expect("public key");
        let public = minisign_verify::PublicKey::from_base64(&public).expect("public key");
        // `false`: legacy (non-prehashed) signatures would be refused.
        public.verify(DATA, &signature, false).expect("verifies");
        assert!(public.verify(b"other bytes", &signature, false).is_err());
    }

    #[test]
    fn trusted_comments_that_would_not_read_back_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (pk, sk) = (dir.path().join("k.pub"), dir.path().join("k.key"));
        keygen(&pk, &sk, None, false).expect("keygen");
        let key = read_secret_key(&sk, no_password).expect("load");
        let long = "a".repeat(MAX_TRUSTED_COMMENT + 1);
        for bad in [
            "",
            "two\nlines",
            "cr\r",
            " leading",
            "trailing ",
            "\u{1b}[31mred",
            &long,
        ] {
            let err = sign(&key, DATA, bad).expect_err(bad);
            assert!(matches!(err, SignError::TrustedComment(_)), "{err}");
        }
        // The longest comment accepted is one stock minisign still verifies.
        let longest = "a".repeat(MAX_TRUSTED_COMMENT);
        fs::write(dir.path().join("data"), DATA).expect("write data");
        let signature = sign(&key, DATA, &longest).expect("sign");
        fs::write(dir.path().join("data.minisig"), signature).expect("write signature");
        minisign(dir.path(), &["-Vm", "data", "-p", "k.pub", "-q"], "");
    }

    #[test]
    fn keygen_replaces_files_only_when_forced() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (pk, sk) = (dir.path().join("new/k.pub"), dir.path().join("new/k.key"));
        let first = keygen(&pk, &sk, None, false).expect("keygen");
        let err = keygen(&pk, &sk, None, false).expect_err("exists");
        assert!(matches!(&err, SignError::Exists(p) if *p == sk), "{err}");
        assert!(err.to_string().contains("k.key` already exists"), "{err}");
        fs::remove_file(&sk).expect("remove secret key");
        let err = keygen(&pk, &sk, None, false).expect_err("exists");
        assert!(matches!(&err, SignError::Exists(p) if *p == pk), "{err}");
        assert!(!sk.exists(), "nothing is written when one file exists");
        let second = keygen(&pk, &sk, None, true).expect("forced keygen");
        assert_ne!(first, second);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&sk).expect("metadata").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let err = keygen(&pk, &pk, None, true).expect_err("same path");
        assert!(matches!(err, SignError::SamePath(_)), "{err}");
        let err = keygen(&pk, &sk, Some(""), true).expect_err("empty password");
        assert!(matches!(err, SignError::EmptyPassword), "{err}");
    }

    #[test]
    fn a_wrong_password_names_the_key() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (pk, sk) = (dir.path().join("k.pub"), dir.path().join("k.key"));
        keygen(&pk, &sk, Some(PASSWORD), false).expect("keygen");
        let err = read_secret_key(&sk, with_password("wrong")).expect_err("wrong password");
        assert!(
            matches!(&err, SignError::WrongPassword(p) if *p == sk),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            format!("wrong password for `{}`", sk.display())
        );
        // The caller's error for a missing password comes back as it is.
        let err = read_secret_key(&sk, || Err(SignError::EmptyPassword)).expect_err("no password");
        assert!(matches!(err, SignError::EmptyPassword), "{err}");
    }

    #[test]
    fn missing_files_are_named() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = dir.path().join("missing.key");
        let err = read_secret_key(&missing, no_password).expect_err("missing");
        assert!(
            matches!(&err, SignError::File(e) if e.path == missing && e.is_not_found()),
            "{err}"
        );
        assert!(err.to_string().starts_with("cannot read `"), "{err}");
        assert!(err.to_string().contains("missing.key`"), "{err}");
        let err = load_public_key("missing.pub").expect_err("missing");
        assert!(err.to_string().starts_with("`missing.pub` is not"), "{err}");
    }

    #[test]
    fn damaged_secret_keys_are_errors_not_panics() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (pk, sk) = (dir.path().join("k.pub"), dir.path().join("k.key"));
        keygen(&pk, &sk, None, false).expect("keygen");
        let good = fs::read_to_string(&sk).expect("read key");
        let line = key_line(&good).expect("key line").to_owned();
        let damaged = dir.path().join("damaged.key");
        let load = |text: &str| {
            fs::write(&damaged, text).expect("write key");
            read_secret_key(&damaged, no_password)
        };
        let public = fs::read_to_string(&pk).expect("read public key");
        let mut cases = vec![
            String::new(),
            "untrusted comment: only\n".to_owned(),
            format!("{line}\n"),
            format!("untrusted comment: x\n{}\n", line.replace('A', "*")),
            public,
        ];
        cases.extend((0..line.len()).map(|n| format!("untrusted comment: x\n{}\n", &line[..n])));
        for case in &cases {
            let err = load(case).expect_err(case);
            assert!(matches!(err, SignError::Malformed { .. }), "{case}: {err}");
            assert!(
                err.to_string()
                    .contains("damaged.key` is not a minisign secret key")
            );
        }
        assert!(load(&good.replace('\n', "\r\n")).is_ok(), "CRLF line ends");
        fs::write(&damaged, [0xff, 0xfe, b'\n']).expect("write key");
        assert!(read_secret_key(&damaged, no_password).is_err());

        // Every byte flipped in turn: an error or, where minisign ignores the
        // bytes of an unencrypted key (salt, scrypt limits), the same key.
        for i in 0..SECRET_KEY_BYTES {
            fs::copy(&sk, &damaged).expect("copy key");
            rewrite_key(&damaged, |bytes| bytes[i] ^= 0x20);
            if let Ok(key) = read_secret_key(&damaged, || Err(SignError::EmptyPassword)) {
                assert!((6..54).contains(&i), "byte {i} changed unnoticed");
                sign(&key, DATA, COMMENT).expect("sign");
            }
        }
        fs::copy(&sk, &damaged).expect("copy key");
        rewrite_key(&damaged, |bytes| bytes[2..4].copy_from_slice(b"Xy"));
        let err = read_secret_key(&damaged, no_password).expect_err("unknown KDF");
        assert!(err.to_string().contains("unknown algorithm"), "{err}");
    }

    #[test]
    fn damaged_encrypted_keys_are_errors() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (pk, sk) = (dir.path().join("k.pub"), dir.path().join("k.key"));
        keygen(&pk, &sk, Some(PASSWORD), false).expect("keygen");
        // Key number, secret key, checksum: all under the password.
        for i in [54, 100, 157] {
            let damaged = dir.path().join(format!("damaged{i}.key"));
            fs::copy(&sk, &damaged).expect("copy key");
            rewrite_key(&damaged, |bytes| bytes[i] ^= 1);
            let err = read_secret_key(&damaged, with_password(PASSWORD)).expect_err("damaged");
            assert!(matches!(err, SignError::WrongPassword(_)), "{err}");
        }
    }

    #[test]
    fn public_keys_are_checked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (pk, sk) = (dir.path().join("k.pub"), dir.path().join("k.key"));
        keygen(&pk, &sk, None, false).expect("keygen");
        let public = load_public_key(pk.to_str().expect("UTF-8 path")).expect("public key");
        assert_eq!(load_public_key(&public).expect("bare"), public);
        let bad = dir.path().join("bad.pub");
        for text in [
            "",
            "untrusted comment: x\n",
            "untrusted comment: x\nRWQ=\n",
            "RWQ\n",
        ] {
            fs::write(&bad, text).expect("write key");
            let err = load_public_key(bad.to_str().expect("UTF-8 path")).expect_err(text);
            assert!(matches!(err, SignError::PublicKey { .. }), "{err}");
        }
        let err = load_public_key(sk.to_str().expect("UTF-8 path")).expect_err("secret key");
        assert!(
            err.to_string().contains("not a base64 Ed25519 public key"),
            "{err}"
        );
        let err = load_public_key(&public[..55]).expect_err("truncated");
        assert!(matches!(err, SignError::PublicKey { .. }), "{err}");
    }

    /// A fresh unencrypted key pair in `dir`: the secret key and the public
    /// key's base64.
    fn pair(dir: &Path, name: &str) -> (SecretKey, String) {
        let (pk, sk) = (
            dir.join(format!("{name}.pub")),
            dir.join(format!("{name}.key")),
        );
        keygen(&pk, &sk, None, false).expect("keygen");
        let key = read_secret_key(&sk, no_password).expect("load");
        let public = load_public_key(pk.to_str().expect("UTF-8 path")).expect("public key");
        (key, public)
    }

    #[test]
    fn what_is_signed_here_verifies_by_the_one_verifier() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (key, public) = pair(dir.path(), "k");
        let text = sign(&key, DATA, COMMENT).expect("sign");
        let comment = signature::verify(DATA, &public, Some(&text)).expect("verifies");
        assert_eq!(comment, COMMENT);
        assert_eq!(
            signature::signature_key_id(&text),
            Some(key.id().to_string())
        );
        assert_eq!(
            signature::public_key_id(&public),
            Some(key.id().to_string())
        );
        // The text of the `.pub` file verifies as the bare key does.
        let pub_text = fs::read_to_string(dir.path().join("k.pub")).expect("read public key");
        assert_eq!(
            signature::verify(DATA, &pub_text, Some(&text)).as_deref(),
            Ok(COMMENT)
        );
    }

    #[test]
    fn tampered_bytes_comments_and_keys_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (key, public) = pair(dir.path(), "k");
        let (_, other) = pair(dir.path(), "other");
        let text = sign(&key, DATA, COMMENT).expect("sign");
        // Other bytes under the same signature.
        let mut tampered = DATA.to_vec();
        tampered[0] ^= 1;
        assert_eq!(
            signature::verify(&tampered, &public, Some(&text)),
            Err(SignatureError::Invalid)
        );
        // The trusted comment changed, its global signature kept.
        let forged = text.replace(COMMENT, "skills-digest-v2:11ff file:demo.skillpack");
        assert_ne!(forged, text);
        assert_eq!(
            signature::verify(DATA, &public, Some(&forged)),
            Err(SignatureError::Invalid)
        );
        // Another signer's key.
        assert_eq!(
            signature::verify(DATA, &other, Some(&text)),
            Err(SignatureError::WrongKey)
        );
        // A signature line with one byte changed.
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let mut raw = Base64::decode_to_vec(&lines[1], None).expect("base64");
        raw[20] ^= 1;
        lines[1] = ct_codecs::Base64::encode_to_string(&raw).expect("encode");
        let altered = lines.join("\n") + "\n";
        assert_eq!(
            signature::verify(DATA, &public, Some(&altered)),
            Err(SignatureError::Invalid)
        );
    }

    #[test]
    fn malformed_signatures_and_keys_are_errors_not_panics() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (key, public) = pair(dir.path(), "k");
        let text = sign(&key, DATA, COMMENT).expect("sign");
        // Cut anywhere before its last line ends (the final newline is optional).
        for n in 0..text.trim_end().len() {
            let Some(cut) = text.get(..n) else { continue };
            assert!(signature::verify(DATA, &public, Some(cut)).is_err(), "{n}");
        }
        for n in 0..public.len() {
            assert!(signature::verify(DATA, &public[..n], Some(&text)).is_err());
            assert!(load_public_key(&public[..n]).is_err());
        }
        assert_eq!(
            signature::verify(DATA, &public, None),
            Err(SignatureError::Missing)
        );
    }
}

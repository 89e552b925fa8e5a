//! What `--pubkey KEY [--signature FILE]` asks of a pack: its signer's
//! public key and its detached signature, loaded once for `verify`,
//! `unpack` and `serve` alike, so that the three read them, and fail on
//! them, the same way.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use skills_bundle::fsread::{self, FileError};
use skills_bundle::pack::Trust;
use skills_bundle::pack::signature::MAX_SIGNATURE_FILE;

use skills_core::pack::minisig_path;
use skills_core::pack::sign::{self, SignError};

/// A public key and the signature to check with it.
#[derive(Debug)]
pub struct Signed {
    /// The base64 public key.
    pub public_key: String,
    /// The text of the `.minisig` file.
    pub signature: String,
}

impl Signed {
    /// Reads the key `pubkey` (a `.pub` file or a bare base64 key) and the
    /// signature of `pack` (`signature`, else `<pack>.minisig`).
    pub fn load(pubkey: &str, signature: Option<&Path>, pack: &Path) -> Result<Signed, TrustError> {
        let public_key = sign::load_public_key(pubkey).map_err(TrustError::Key)?;
        let sig = signature.map_or_else(|| minisig_path(pack), Path::to_path_buf);
        let bytes = fsread::read_file(&sig, MAX_SIGNATURE_FILE).map_err(|e| {
            if e.is_not_found() {
                TrustError::NotSigned {
                    pack: pack.to_path_buf(),
                    sig: sig.clone(),
                }
            } else {
                TrustError::Read(e)
            }
        })?;
        // Bytes that are not UTF-8 make no minisign signature: kept (lossily)
        // for the check to say so.
        let signature = String::from_utf8_lossy(&bytes).into_owned();
        Ok(Signed {
            public_key,
            signature,
        })
    }

    /// The [`Trust`] for `Pack::open`.
    pub fn trust(&self) -> Trust<'_> {
        Trust::Signed {
            public_key: &self.public_key,
            signature: Some(&self.signature),
        }
    }
}

/// Why the key or the signature could not be had.
#[derive(Debug)]
pub enum TrustError {
    /// The key is neither a key file nor a base64 key, or unreadable.
    Key(SignError),
    /// The pack has no signature file: bad input, exit status 1.
    NotSigned { pack: PathBuf, sig: PathBuf },
    /// The signature file exists and cannot be read (or is not a file, or
    /// is too large).
    Read(FileError),
}

impl fmt::Display for TrustError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrustError::Key(e) => write!(f, "{e}"),
            TrustError::NotSigned { pack, sig } => write!(
                f,
                "`{}` is not signed: no `{}` (pass --signature, or --unsigned to check integrity only)",
                pack.display(),
                sig.display()
            ),
            TrustError::Read(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TrustError {}

impl From<TrustError> for io::Error {
    fn from(e: TrustError) -> io::Error {
        match e {
            TrustError::Key(_) => io::Error::other(e.to_string()),
            TrustError::NotSigned { .. } => {
                io::Error::new(io::ErrorKind::InvalidData, e.to_string())
            }
            TrustError::Read(e) => io::Error::from(e),
        }
    }
}

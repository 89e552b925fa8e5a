//! What `--pubkey KEY [--signature FILE]` asks of a pack: its signer's
//! public key and its detached signature, loaded once for `verify`,
//! `unpack` and `serve` alike, so that the three read them, and fail on
//! them, the same way.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use skills_bundle::pack::Trust;

use crate::cmd::pack::minisig_path;
use crate::sign::{self, SignError};

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
        let signature = std::fs::read_to_string(&sig).map_err(|source| {
            if source.kind() == io::ErrorKind::NotFound {
                TrustError::NotSigned {
                    pack: pack.to_path_buf(),
                    sig,
                }
            } else {
                TrustError::Read { sig, source }
            }
        })?;
        Ok(Signed {
            public_key,
            signature,
        })
    }

    /// The [`Trust`] for `Pack::open`.
    pub fn trust(&self) -> Trust<'_> {
        Trust::Signed {
            public_key: &self.public_key,
            signature: &self.signature,
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
    /// The signature file exists and cannot be read.
    Read { sig: PathBuf, source: io::Error },
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
            TrustError::Read { sig, source } => write!(f, "`{}`: {source}", sig.display()),
        }
    }
}

impl std::error::Error for TrustError {}

impl From<TrustError> for io::Error {
    fn from(e: TrustError) -> io::Error {
        let kind = match &e {
            TrustError::Key(_) => io::ErrorKind::Other,
            TrustError::NotSigned { .. } => io::ErrorKind::InvalidData,
            TrustError::Read { source, .. } => source.kind(),
        };
        io::Error::new(kind, e.to_string())
    }
}

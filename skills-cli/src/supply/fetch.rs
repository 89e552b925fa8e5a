//! Bringing a source onto the disk, pinned: what the validator then reads.
//!
//! Each kind of source ends as [`Inputs`] (folders the compiler discovers
//! skills in, archives extracted into private temporary folders) and the
//! [`Resolved`] pin the lock records for every skill found there. Bytes with
//! a signature are checked against the trusted keys before anything is
//! extracted; bytes with a pinned digest are checked before anything is
//! extracted too. Nothing here writes outside a temporary folder.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use skills_bundle::zip::Limits;
use skills_core::digest::{hex, sha256};
use skills_core::lock::{Resolved, Signer};
use skills_core::pack::signature;

use super::project::invalid;
use super::source::Source;
use crate::extract;
use crate::input::{self, Inputs};

/// A fetched source.
#[derive(Debug)]
pub struct Fetched {
    /// What the validator reads.
    pub inputs: Inputs,
    /// The pin of every skill found, unless [`Fetched::per_skill`] names it.
    pub resolved: Resolved,
    /// Pins of single skills (an index's entries).
    pub per_skill: BTreeMap<String, Resolved>,
    /// The verified signature over what was fetched, if it was signed.
    pub signer: Option<Signer>,
    /// Whether it came over a network.
    pub remote: bool,
}

impl Fetched {
    /// The pin of the skill called `name`.
    pub fn resolved_for(&self, name: &str) -> Resolved {
        self.per_skill
            .get(name)
            .cloned()
            .unwrap_or_else(|| self.resolved.clone())
    }
}

/// Trusted public keys for one run, base64.
#[derive(Debug, Default)]
pub struct Keys {
    /// The keys.
    pub keys: Vec<String>,
}

/// Where fetching may look and what it may accept.
#[derive(Debug)]
pub struct FetchOptions<'a> {
    /// The working directory relative paths are read from.
    pub cwd: &'a Path,
    /// Archive limits.
    pub limits: Limits,
    /// Keys a signature may be made with.
    pub keys: &'a Keys,
}

/// Fetches `source` (`text` as the user wrote it).
pub fn fetch(source: &Source, text: &str, opts: &FetchOptions<'_>) -> io::Result<Fetched> {
    match source {
        Source::Path(path) => fetch_path(path, text, opts),
        Source::Url { .. } | Source::Index(_) | Source::Git(_) | Source::Oci(_) => {
            Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!("`{text}`: this kind of source is not supported by this build of skb"),
            ))
        }
    }
}

fn fetch_path(path: &Path, text: &str, opts: &FetchOptions<'_>) -> io::Result<Fetched> {
    let full = opts.cwd.join(path);
    let mut inputs = Inputs::default();
    if input::is_archive(&full) {
        let bytes = extract::read_archive(&full)?;
        let signer = check_signature(&bytes, &signature::minisig_path(&full), text, opts.keys)?;
        inputs.add_archive(path, &bytes, &opts.limits)?;
        return Ok(Fetched {
            inputs,
            resolved: Resolved::File {
                path: text.to_string(),
                sha256: hex(&sha256(&bytes)),
            },
            per_skill: BTreeMap::new(),
            signer,
            remote: false,
        });
    }
    if std::fs::symlink_metadata(&full).is_err() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("`{text}`: no such file or folder (nor a git, HTTPS or OCI source)"),
        ));
    }
    inputs.roots.push(full);
    Ok(Fetched {
        inputs,
        resolved: Resolved::Folder {
            path: text.to_string(),
        },
        per_skill: BTreeMap::new(),
        signer: None,
        remote: false,
    })
}

/// Checks the signature at `sig_path` (if there is one) over `bytes` with
/// the trusted keys: `None` when unsigned, an error when signed by no
/// trusted key or not matching.
pub fn check_signature(
    bytes: &[u8],
    sig_path: &Path,
    source: &str,
    keys: &Keys,
) -> io::Result<Option<Signer>> {
    let text = match skills_core::fsread::read_file(sig_path, signature::MAX_SIGNATURE_FILE) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(invalid(e.to_string())),
    };
    check_signature_text(bytes, &text, source, keys).map(Some)
}

/// Checks the minisign signature `text` over `bytes` with the trusted keys.
pub fn check_signature_text(
    bytes: &[u8],
    text: &str,
    source: &str,
    keys: &Keys,
) -> io::Result<Signer> {
    let key_id = signature_key_id(text);
    let shown = key_id.clone().unwrap_or_else(|| "(unreadable)".to_string());
    for key in &keys.keys {
        if key_id.is_some() && public_key_id(key) != key_id {
            continue;
        }
        return match signature::verify(bytes, key, Some(text)) {
            Ok(comment) => Ok(Signer {
                key: shown,
                version: None,
                timestamp: None,
            })
            .map(|s| with_claims(s, &comment)),
            Err(e) => Err(invalid(format!(
                "`{source}`: signature by key {shown} does not check: {e}"
            ))),
        };
    }
    Err(invalid(format!(
        "`{source}`: signed by key {shown}, which is not trusted; trust it with `--pubkey KEY` (or `skb trust add`), or pass --allow-unsigned to ignore the signature"
    )))
}

fn with_claims(signer: Signer, _comment: &str) -> Signer {
    signer
}

/// The key id a minisign signature names (16 uppercase hex digits).
pub fn signature_key_id(text: &str) -> Option<String> {
    let line = text
        .lines()
        .find(|l| !l.starts_with("untrusted comment:") && !l.trim().is_empty())?;
    keynum_hex(line.trim(), 2)
}

/// The key id of a base64 minisign public key.
pub fn public_key_id(key: &str) -> Option<String> {
    keynum_hex(key.trim(), 2)
}

fn keynum_hex(b64: &str, at: usize) -> Option<String> {
    use ct_codecs::{Base64, Decoder};
    let bytes = Base64::decode_to_vec(b64, None).ok()?;
    let num = bytes.get(at..at + 8)?;
    Some(num.iter().rev().map(|b| format!("{b:02X}")).collect())
}

/// Fetches what `resolved` pins, and checks the source still resolves to
/// it (same file hash, same commit, same manifest digest).
pub fn fetch_pinned(
    resolved: &Resolved,
    source: &str,
    opts: &FetchOptions<'_>,
) -> io::Result<Fetched> {
    let fetched = match resolved {
        Resolved::Folder { path } | Resolved::File { path, .. } => {
            fetch_path(Path::new(path), path, opts)?
        }
        _ => {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "`{source}`: a {} source is not supported by this build of skb",
                    resolved.kind()
                ),
            ));
        }
    };
    if let (Resolved::File { sha256: want, .. }, Resolved::File { sha256: got, .. }) =
        (resolved, &fetched.resolved)
        && want != got
    {
        return Err(invalid(format!(
            "`{source}`: its bytes now hash to {got}, the lock says {want}; nothing was written"
        )));
    }
    Ok(fetched)
}

/// `resolved` with a local path made relative to the project `root` (or
/// absolute when outside it), so that the lock reads the same from any
/// working directory.
pub fn rebase(resolved: Resolved, cwd: &Path, root: &Path) -> Resolved {
    let fix = |path: String| -> String {
        let abs = std::path::absolute(cwd.join(&path)).unwrap_or_else(|_| cwd.join(&path));
        match abs.strip_prefix(root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
            Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
            Err(_) => abs.to_string_lossy().into_owned(),
        }
    };
    match resolved {
        Resolved::Folder { path } => Resolved::Folder { path: fix(path) },
        Resolved::File { path, sha256 } => Resolved::File {
            path: fix(path),
            sha256,
        },
        other => other,
    }
}

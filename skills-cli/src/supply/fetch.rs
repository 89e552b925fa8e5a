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
use super::remote;
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
    /// The signature over what was fetched, if it was signed.
    pub signer: Option<Sig>,
    /// Signatures of single skills (an index's entries).
    pub per_skill_signer: BTreeMap<String, Sig>,
    /// Why an unsigned remote source is trusted anyway (a pinned digest).
    pub pinned: Option<String>,
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

    /// The signature over the skill called `name`, if it was signed.
    pub fn signer_for(&self, name: &str) -> Option<Sig> {
        self.per_skill_signer
            .get(name)
            .cloned()
            .or_else(|| self.signer.clone())
    }
}

/// A signature found beside what was fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sig {
    /// Made by a trusted key, and checked.
    Trusted(Signer),
    /// Made by a key that is not trusted (so not checked): the key id.
    Untrusted(String),
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
    /// The skills asked for (an index fetches only those; empty: all).
    pub skills: &'a [String],
}

/// Fetches `source` (`text` as the user wrote it).
pub fn fetch(source: &Source, text: &str, opts: &FetchOptions<'_>) -> io::Result<Fetched> {
    match source {
        Source::Path(path) => fetch_path(path, text, opts),
        Source::Url { url, sha256 } => fetch_url(url, sha256.as_deref(), text, opts),
        Source::Index(site) => remote::fetch_index(site, text, opts),
        Source::Git { spec, .. } => super::git::fetch(spec),
        Source::Oci(_) => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("`{text}`: this kind of source is not supported by this build of skb"),
        )),
    }
}

/// A pack, zip or `SKILL.md` over HTTP(S), checked against `pin` (hex)
/// and its `.minisig` (when the server has one) before it is extracted.
fn fetch_url(
    url: &str,
    pin: Option<&str>,
    text: &str,
    opts: &FetchOptions<'_>,
) -> io::Result<Fetched> {
    let bytes = remote::get(url)?;
    let sha = hex(&sha256(&bytes));
    if let Some(pin) = pin
        && pin != sha
    {
        return Err(invalid(format!(
            "`{text}`: downloaded bytes hash to {sha}, not the pinned {pin}; nothing was installed"
        )));
    }
    let signer = match remote::get_optional(&format!("{url}.minisig"))? {
        Some(sig) => Some(check_signature_text(
            &bytes,
            &String::from_utf8_lossy(&sig),
            text,
            opts.keys,
        )?),
        None => None,
    };
    let mut inputs = Inputs::default();
    let path_part = url.split(['?', '#']).next().unwrap_or(url);
    let mut segments = path_part.rsplit('/');
    let file = segments.next().unwrap_or("download");
    if file.eq_ignore_ascii_case("SKILL.md") {
        let dir = segments.next().filter(|s| !s.is_empty()).unwrap_or("skill");
        remote::add_skill_md(&mut inputs, dir, &bytes, Path::new(url))?;
    } else {
        inputs.add_archive(Path::new(file), &bytes, &opts.limits)?;
    }
    Ok(Fetched {
        inputs,
        resolved: Resolved::Url {
            url: url.to_string(),
            sha256: sha,
        },
        per_skill: BTreeMap::new(),
        signer,
        per_skill_signer: BTreeMap::new(),
        pinned: pin.map(|p| format!("pinned by sha256 {p}")),
        remote: true,
    })
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
            per_skill_signer: BTreeMap::new(),
            pinned: None,
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
        per_skill_signer: BTreeMap::new(),
        pinned: None,
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
) -> io::Result<Option<Sig>> {
    let text = match skills_core::fsread::read_file(sig_path, signature::MAX_SIGNATURE_FILE) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(invalid(e.to_string())),
    };
    check_signature_text(bytes, &text, source, keys).map(Some)
}

/// Checks the minisign signature `text` over `bytes` with the trusted key
/// it names: [`Sig::Untrusted`] when no trusted key has its id, an error
/// when the key is trusted and the signature does not check (the bytes or
/// the signature were changed).
pub fn check_signature_text(
    bytes: &[u8],
    text: &str,
    source: &str,
    keys: &Keys,
) -> io::Result<Sig> {
    let Some(key_id) = signature_key_id(text) else {
        return Err(invalid(format!(
            "`{source}`: its signature is not a minisign signature"
        )));
    };
    let Some(key) = keys
        .keys
        .iter()
        .find(|k| public_key_id(k).as_deref() == Some(&*key_id))
    else {
        return Ok(Sig::Untrusted(key_id));
    };
    let comment = signature::verify(bytes, key, Some(text)).map_err(|e| {
        invalid(format!(
            "`{source}`: the signature by trusted key {key_id} does not check ({e}); nothing was installed"
        ))
    })?;
    Ok(Sig::Trusted(signer_of(key_id, &comment)))
}

/// The lock's record of a checked signature: its key and what its trusted
/// comment claims.
fn signer_of(key: String, _comment: &str) -> Signer {
    Signer {
        key,
        version: None,
        timestamp: None,
    }
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
        Resolved::Url { url, sha256 } => fetch_url(url, Some(sha256), source, opts)?,
        Resolved::Index {
            url,
            entry,
            version,
            sha256,
        } => remote::fetch_entry_pinned(url, entry, version.as_deref(), sha256, source, opts)?,
        Resolved::Git { url, commit, path } => {
            super::git::fetch_pinned(url, commit, path.as_deref())?
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

//! Opening a pack: every check, in order, before anything is exposed.
//!
//! Shared by the runtime loader (`Bundle::from_pack`) and by
//! `skills_bundle!(pack = ...)`, which runs the same checks at compile
//! time: the signature over the whole file, the zip structure, the
//! manifest, and the entry-by-entry agreement of archive and manifest.

use std::collections::HashMap;
use std::fmt;

use crate::pack::signature::{self, SignatureError};
use crate::pack::{MANIFEST_NAME, Manifest};
use crate::zip::{Archive, Entry, Kind, Limits, ZipError, printable};

/// The largest manifest read: 64 MiB (the shared corpus of 454 skills needs
/// under 1 MiB).
pub const MAX_MANIFEST: u64 = 64 << 20;

/// The largest pack file read (by `skb` and `skills_bundle!`): 2 GiB,
/// over anything the zip limits let a pack hold (1 GiB of contents), so it
/// only stops a file that could never open, before it fills memory.
pub const MAX_PACK_FILE: u64 = 2 << 30;

/// What a pack must prove before it is opened.
#[derive(Debug, Clone, Copy)]
pub enum Trust<'a> {
    /// A minisign signature by this key is required.
    Signed {
        /// The public key: bare base64, or the text of a `.pub` file.
        public_key: &'a str,
        /// The text of the `.minisig` file, or `None` when the caller has
        /// none: the pack is then refused with
        /// [`SignatureError::Missing`].
        signature: Option<&'a str>,
    },
    /// No signature is checked: the pack's integrity is still verified
    /// (structure, manifest, digest, and each file's SHA-256 on read), but
    /// not who made it.
    Unsigned,
}

/// Why a pack was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PackError {
    /// The signature is missing, malformed, from another key, or does not
    /// match.
    Signature(SignatureError),
    /// The signed trusted comment names another digest than the manifest.
    SignedDigest {
        /// The digest in the trusted comment.
        signed: String,
        /// The digest in the manifest.
        manifest: String,
    },
    /// The zip structure is unsafe or damaged.
    Archive(ZipError),
    /// The first entry is not `skillpack.json`.
    NoManifest,
    /// The manifest is malformed.
    Manifest(String),
    /// The archive and the manifest disagree.
    Mismatch(String),
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::Signature(e) => write!(f, "signature: {e}"),
            PackError::SignedDigest { signed, manifest } => write!(
                f,
                "signature: the signed digest {} is not the manifest's digest {}",
                printable(signed),
                printable(manifest)
            ),
            PackError::Archive(e) => write!(f, "archive: {e}"),
            PackError::NoManifest => {
                write!(
                    f,
                    "manifest: the first entry is not `{MANIFEST_NAME}`; not a skill pack"
                )
            }
            // Both quote names from the pack.
            PackError::Manifest(e) => write!(f, "manifest: {}", printable(e)),
            PackError::Mismatch(e) => write!(f, "manifest: {}", printable(e)),
        }
    }
}

impl std::error::Error for PackError {}

impl From<ZipError> for PackError {
    fn from(e: ZipError) -> Self {
        PackError::Archive(e)
    }
}

fn read_manifest(archive: &Archive, bytes: &[u8]) -> Result<Manifest, PackError> {
    let first = archive
        .entries()
        .first()
        .filter(|e| e.name == MANIFEST_NAME)
        .ok_or(PackError::NoManifest)?;
    if first.size > MAX_MANIFEST {
        return Err(PackError::Manifest(format!(
            "{} bytes, over the limit of {MAX_MANIFEST}",
            first.size
        )));
    }
    let raw = first.read(bytes)?;
    let text =
        String::from_utf8(raw).map_err(|_| PackError::Manifest("not valid UTF-8".to_string()))?;
    Manifest::parse(&text).map_err(PackError::Manifest)
}

/// A pack whose signature, structure and manifest were checked; file
/// contents are not yet read.
#[derive(Debug)]
pub struct Checked {
    /// The manifest.
    pub manifest: Manifest,
    /// The signature's trusted comment, when a signature was checked.
    pub trusted_comment: Option<String>,
    /// The archive.
    pub archive: Archive,
    /// For each skill of the manifest and each of its files, the index of
    /// its entry in `archive.entries()`.
    pub entries: Vec<Vec<usize>>,
}

/// Checks `bytes` as `trust` asks, then the archive (within `limits`) and
/// the manifest, and runs `build` on what it checked, in one step: with a
/// signature to check, the signature is verified on a second thread while
/// this one parses the archive and the manifest and runs `build`. The
/// signature's verdict comes first: a pack whose signature fails gives that
/// error whatever the parse found, and nothing parsed or built from it is
/// returned. Parsing before the verdict is what `Trust::Unsigned` does to
/// every pack anyway; the parser is bounded and fuzzed (`fuzz/`). For the
/// 454-skill corpus (7.9 MB) this takes the signature's 11 ms off the
/// critical path.
pub fn open_with<T>(
    bytes: &[u8],
    trust: Trust<'_>,
    limits: &Limits,
    build: impl FnOnce(&Checked) -> Result<T, PackError>,
) -> Result<(Checked, T), PackError> {
    let parse = || parse(bytes, limits).and_then(|c| build(&c).map(|t| (c, t)));
    let (trusted_comment, parsed) = match trust {
        Trust::Unsigned => (None, parse()),
        Trust::Signed {
            public_key,
            signature: sig,
        } => std::thread::scope(|scope| {
            let verdict = scope.spawn(|| signature::verify(bytes, public_key, sig));
            let parsed = parse();
            let verdict = verdict
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (Some(verdict), parsed)
        }),
    };
    let trusted_comment = trusted_comment.transpose().map_err(PackError::Signature)?;
    let (mut checked, built) = parsed?;
    if let Some(signed) = trusted_comment
        .as_deref()
        .and_then(signature::signed_digest)
        && signed != checked.manifest.digest
    {
        return Err(PackError::SignedDigest {
            signed: signed.to_string(),
            manifest: checked.manifest.digest.clone(),
        });
    }
    checked.trusted_comment = trusted_comment;
    Ok((checked, built))
}

/// The archive (within `limits`) and the manifest, and that they agree.
fn parse(bytes: &[u8], limits: &Limits) -> Result<Checked, PackError> {
    let archive = Archive::parse(bytes, limits)?;
    let manifest = read_manifest(&archive, bytes)?;
    let entries = match_entries(&manifest, &archive)?;
    Ok(Checked {
        manifest,
        trusted_comment: None,
        archive,
        entries,
    })
}

/// Every entry after the manifest is a file the manifest lists, with the
/// size and mode it lists, and every listed file has an entry.
fn match_entries(manifest: &Manifest, archive: &Archive) -> Result<Vec<Vec<usize>>, PackError> {
    let listed = manifest.entries();
    let all = archive.entries();
    let files = all.len().saturating_sub(1);
    if files != listed.len() {
        // Names are unique in the archive and in the listing, so a count
        // mismatch means one side has a name the other lacks: find it.
        if let Some(extra) = all.iter().skip(1).find(|e| {
            listed
                .binary_search_by(|(n, _, _)| n.as_str().cmp(&e.name))
                .is_err()
        }) {
            return Err(PackError::Mismatch(format!(
                "entry `{}` is not listed in the manifest",
                extra.name
            )));
        }
    }
    let by_name: HashMap<&str, usize> = all
        .iter()
        .enumerate()
        .map(|(i, e): (usize, &Entry)| (e.name.as_str(), i))
        .collect();
    let index = |name: &str| by_name.get(name).copied();
    let mut out = Vec::with_capacity(manifest.skills.len());
    for s in &manifest.skills {
        let mut files = Vec::with_capacity(s.files.len());
        for f in &s.files {
            let name = s.entry_name(f);
            let Some(i) = index(&name).filter(|&i| i > 0) else {
                return Err(PackError::Mismatch(format!(
                    "`{name}` is listed in the manifest but not in the archive"
                )));
            };
            let entry = &all[i];
            let executable = match entry.kind {
                Kind::File { executable } => executable,
                Kind::Dir => return Err(PackError::Mismatch(format!("`{name}` is a directory"))),
            };
            if entry.size != f.size || executable != f.executable {
                return Err(PackError::Mismatch(format!(
                    "`{name}`: the archive has {} bytes, mode {}; the manifest {} bytes, mode {}",
                    entry.size,
                    mode(executable),
                    f.size,
                    mode(f.executable)
                )));
            }
            files.push(i);
        }
        out.push(files);
    }
    if files != listed.len() {
        return Err(PackError::Mismatch(
            "the archive has entries the manifest does not list".into(),
        ));
    }
    Ok(out)
}

fn mode(executable: bool) -> &'static str {
    if executable { "0755" } else { "0644" }
}

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

use skills_core::digest::{hex, sha256};
use skills_core::lock::Resolved;

use crate::extract;
use crate::fetched::{FetchOptions, Fetched};
use crate::input::{self, Inputs};
use crate::ioerr::{self, invalid};
use crate::remote;
use crate::signature::check_beside;
use crate::source::Source;

/// Fetches `source` (`text` as the user wrote it).
pub(crate) fn fetch(source: &Source, text: &str, opts: &FetchOptions<'_>) -> io::Result<Fetched> {
    match source {
        Source::Path(path) => fetch_path(path, text, opts),
        Source::Url { url, sha256 } => fetch_url(url, sha256.as_deref(), text, opts),
        Source::Index(site) => remote::fetch_index(site, text, opts),
        Source::Git { spec, .. } => super::git::fetch(spec, opts),
        Source::Oci(reference) => super::oci::fetch(reference, opts),
    }
}

/// A pack, zip or `SKILL.md` over HTTP(S), checked against `pin` (hex)
/// and its `.minisig`, else its `.sigstore.json` bundle (when the server
/// has one) before it is extracted.
fn fetch_url(
    url: &str,
    pin: Option<&str>,
    text: &str,
    opts: &FetchOptions<'_>,
) -> io::Result<Fetched> {
    let download = remote::get(url, opts)?;
    let bytes = download.bytes;
    let sha = hex(&sha256(&bytes));
    if let Some(pin) = pin
        && pin != sha
    {
        return Err(invalid(format!(
            "`{text}`: downloaded bytes hash to {sha}, not the pinned {pin}; nothing was installed"
        )));
    }
    let signer = remote::signature_beside(url, &bytes, text, opts)?;
    let mut inputs = Inputs::default();
    let path_part = url.split(['?', '#']).next().unwrap_or(url);
    let mut segments = path_part.rsplit('/');
    let file = segments.next().unwrap_or("download");
    if file.eq_ignore_ascii_case("SKILL.md") {
        let dir = segments.next().filter(|s| !s.is_empty()).unwrap_or("skill");
        remote::add_skill_md(&mut inputs, dir, &bytes, Path::new(url))?;
    } else {
        inputs
            .add_archive(Path::new(file), &bytes, &opts.limits)
            .map_err(|e| ioerr::named(e, text))?;
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
        locations: download.urls,
        per_skill_locations: BTreeMap::new(),
        checkout: None,
    })
}

fn fetch_path(path: &Path, text: &str, opts: &FetchOptions<'_>) -> io::Result<Fetched> {
    let full = opts.cwd.join(path);
    let mut inputs = Inputs::default();
    if input::is_archive(&full) {
        let bytes = extract::read_archive(&full)?;
        let signer = check_beside(&bytes, &full, text, opts.trust)?;
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
            locations: Vec::new(),
            per_skill_locations: BTreeMap::new(),
            checkout: None,
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
        locations: Vec::new(),
        per_skill_locations: BTreeMap::new(),
        checkout: None,
    })
}

/// Fetches what `resolved` pins, and checks the source still resolves to
/// it (same file hash, same commit, same manifest digest); for a git
/// source, `tag` is the tag the lock's signature was made through.
pub(crate) fn fetch_pinned(
    resolved: &Resolved,
    source: &str,
    tag: Option<&str>,
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
            super::git::fetch_pinned(url, commit, path.as_deref(), tag, opts)?
        }
        Resolved::Oci {
            reference, digest, ..
        } => super::oci::fetch_pinned(reference, digest, source, opts)?,
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
pub(crate) fn rebase(resolved: Resolved, cwd: &Path, root: &Path) -> Resolved {
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

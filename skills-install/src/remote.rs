//! The sources fetched over HTTP(S): downloads and well-known indexes,
//! through `skills_supply`'s bounded client, with progress on a terminal.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use skills_core::lock::Resolved;
use skills_core::pack::signature;
use skills_supply::http::{self, HttpError, HttpOptions};
use skills_supply::index::{self, Entry, EntryKind, Index};
use skills_supply::sigstore;

use crate::fetched::{FetchOptions, Fetched, Signed};
use crate::input::Inputs;
use crate::ioerr::invalid;
use crate::observe::Event;
use crate::signature::{BUNDLE_SUFFIX, check_bundle, check_signature_text};

/// The client's options: the defaults (`https://`, or `http://` to a
/// loopback host; 256 MiB; retries with backoff).
fn options(allow_plain_text: bool) -> HttpOptions {
    HttpOptions {
        allow_http: allow_plain_text,
        ..HttpOptions::default()
    }
}

fn http_error(e: HttpError) -> io::Error {
    let kind = match e {
        HttpError::Status { code: 404, .. } => io::ErrorKind::NotFound,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, e.to_string())
}

/// GETs `url`, its progress told to the observer; returns the bytes and
/// every URL they came through (`url`, then each redirect).
pub(crate) fn get(url: &str, opts: &FetchOptions<'_>) -> io::Result<http::Download> {
    let observer = opts.observer;
    let got = http::download(url, &options(opts.allow_plain_text), &mut |done, total| {
        observer.event(Event::Transfer { url, done, total });
    });
    observer.event(Event::TransferDone { url });
    got.map_err(http_error)
}

/// GETs `url`; `None` when the server says 404 (a signature that is not
/// there).
fn get_optional(url: &str, max_bytes: u64, opts: &FetchOptions<'_>) -> io::Result<Option<Vec<u8>>> {
    let options = HttpOptions {
        max_bytes,
        ..options(opts.allow_plain_text)
    };
    match http::get(url, &options, &mut |_, _| {}) {
        Ok(b) => Ok(Some(b)),
        Err(HttpError::Status { code: 404, .. }) => Ok(None),
        Err(e) => Err(http_error(e)),
    }
}

/// The signature a server keeps beside the download `url` (whose bytes are
/// `bytes`; `text` is the source as written): its `.minisig`, else its
/// `.sigstore.json` bundle, else none. Each is read no further than a
/// signature file or a bundle can be, so a server cannot make a signature
/// cost what an archive may.
pub(crate) fn signature_beside(
    url: &str,
    bytes: &[u8],
    text: &str,
    opts: &FetchOptions<'_>,
) -> io::Result<Option<Signed>> {
    let minisig = format!("{url}{}", index::SIGNATURE_SUFFIX);
    if let Some(sig) = get_optional(&minisig, signature::MAX_SIGNATURE_FILE, opts)? {
        let signature_text = String::from_utf8_lossy(&sig);
        return check_signature_text(bytes, &signature_text, text, opts.trust).map(Some);
    }
    let bundle_url = format!("{url}{BUNDLE_SUFFIX}");
    match get_optional(&bundle_url, sigstore::MAX_BUNDLE_BYTES as u64, opts)? {
        Some(bundle) => check_bundle(bytes, &bundle, text).map(Some),
        None => Ok(None),
    }
}

/// Adds one downloaded `SKILL.md` as the skill folder `dir`.
pub(crate) fn add_skill_md(
    inputs: &mut Inputs,
    dir: &str,
    bytes: &[u8],
    label: &Path,
) -> io::Result<()> {
    if !skills_core::path::is_normal(dir) || dir.contains('/') {
        return Err(invalid(format!(
            "{}: no usable folder name",
            label.display()
        )));
    }
    let tmp = tempfile::Builder::new().prefix("skills-input-").tempdir()?;
    let root = tmp.path().join(dir);
    crate::extract::write_file(&root, "SKILL.md", bytes, false)?;
    inputs.add_temporary(tmp, root, label);
    Ok(())
}

/// Reads the well-known index `site` names and fetches the entries asked
/// for, each checked against its digest (and its signature, when the
/// publisher put one beside it) before anything is extracted.
/// The well-known index of `site`: its URL and what it lists, fetched once
/// (no entry is downloaded).
pub(crate) fn read_index(site: &str, opts: &FetchOptions<'_>) -> io::Result<(String, Index)> {
    let url = index::index_url(site);
    let observer = opts.observer;
    let idx = index::fetch_index(&url, &options(opts.allow_plain_text), &mut |done, total| {
        observer.event(Event::Transfer {
            url: &url,
            done,
            total,
        });
    });
    observer.event(Event::TransferDone { url: &url });
    let idx = idx.map_err(|e| io::Error::other(e.to_string()))?;
    Ok((url, idx))
}

pub(crate) fn fetch_index(site: &str, text: &str, opts: &FetchOptions<'_>) -> io::Result<Fetched> {
    let (url, idx) = read_index(site, opts)?;
    for want in opts.skills {
        if !idx.skills.iter().any(|e| &e.name == want) {
            let have: Vec<&str> = idx.skills.iter().map(|e| e.name.as_str()).collect();
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "`{text}` has no skill `{want}` (it has: {})",
                    have.join(", ")
                ),
            ));
        }
    }
    let mut fetched = Fetched {
        inputs: Inputs::default(),
        resolved: Resolved::Index {
            url: url.clone(),
            entry: String::new(),
            version: None,
            sha256: String::new(),
        },
        per_skill: BTreeMap::new(),
        signer: None,
        per_skill_signer: BTreeMap::new(),
        pinned: None,
        remote: true,
        locations: vec![url.clone()],
        per_skill_locations: BTreeMap::new(),
        checkout: None,
    };
    for entry in idx
        .skills
        .iter()
        .filter(|e| opts.skills.is_empty() || opts.skills.contains(&e.name))
    {
        add_entry(&mut fetched, &url, entry, text, opts)?;
    }
    Ok(fetched)
}

fn add_entry(
    fetched: &mut Fetched,
    index_url: &str,
    entry: &Entry,
    text: &str,
    opts: &FetchOptions<'_>,
) -> io::Result<()> {
    let entry_url = index::entry_url(index_url, entry).map_err(|e| invalid(e.to_string()))?;
    let observer = opts.observer;
    let bytes = index::fetch_entry(
        index_url,
        entry,
        &options(opts.allow_plain_text),
        &mut |done, total| {
            observer.event(Event::Transfer {
                url: &entry_url,
                done,
                total,
            });
        },
    );
    observer.event(Event::TransferDone { url: &entry_url });
    let bytes = bytes.map_err(|e| invalid(format!("`{text}`: {e}; nothing was installed")))?;
    if let Some(signer) = signature_beside(&entry_url, &bytes, text, opts)? {
        fetched.per_skill_signer.insert(entry.name.clone(), signer);
    }
    match entry.kind {
        EntryKind::SkillMd => add_skill_md(
            &mut fetched.inputs,
            &entry.name,
            &bytes,
            Path::new(&entry_url),
        )?,
        EntryKind::Archive => fetched
            .inputs
            .add_archive(
                Path::new(&format!("{}.zip", entry.name)),
                &bytes,
                &opts.limits,
            )
            .map_err(|e| crate::ioerr::named(e, text))?,
    }
    let sha = entry
        .digest
        .strip_prefix("sha256:")
        .unwrap_or(&entry.digest);
    fetched
        .per_skill_locations
        .insert(entry.name.clone(), vec![entry_url.clone()]);
    fetched.per_skill.insert(
        entry.name.clone(),
        Resolved::Index {
            url: index_url.to_string(),
            entry: entry_url,
            version: entry.version.clone(),
            sha256: sha.to_string(),
        },
    );
    Ok(())
}

/// Fetches one locked index entry again: its URL (immutable once
/// published), its bytes checked against the locked digest.
pub(crate) fn fetch_entry_pinned(
    index_url: &str,
    entry_url: &str,
    version: Option<&str>,
    sha256: &str,
    text: &str,
    opts: &FetchOptions<'_>,
) -> io::Result<Fetched> {
    let name = entry_url
        .rsplit('/')
        .next()
        .and_then(|f| f.strip_suffix(".zip").or_else(|| f.strip_suffix(".md")))
        .unwrap_or("skill")
        .to_string();
    let entry = Entry {
        name: name.clone(),
        description: String::new(),
        kind: if entry_url.to_ascii_lowercase().ends_with("skill.md") {
            EntryKind::SkillMd
        } else {
            EntryKind::Archive
        },
        url: entry_url.to_string(),
        digest: format!("sha256:{sha256}"),
        version: version.map(String::from),
    };
    let mut fetched = Fetched {
        inputs: Inputs::default(),
        resolved: Resolved::Index {
            url: index_url.to_string(),
            entry: entry_url.to_string(),
            version: version.map(String::from),
            sha256: sha256.to_string(),
        },
        per_skill: BTreeMap::new(),
        signer: None,
        per_skill_signer: BTreeMap::new(),
        pinned: None,
        remote: true,
        locations: vec![index_url.to_string()],
        per_skill_locations: BTreeMap::new(),
        checkout: None,
    };
    add_entry(&mut fetched, index_url, &entry, text, opts)?;
    fetched.per_skill.clear();
    Ok(fetched)
}

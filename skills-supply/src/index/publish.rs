//! Writing a static well-known index that any static host can serve:
//! immutable versioned files, then the site's index of the newest
//! versions (the layout is in the parent module's doc).
//!
//! Under `<out>/.well-known/agent-skills/`:
//!
//! ```text
//! index.json                         newest version of each skill (rewritten)
//! <name>/<version>/<name>.zip        the archive            (never rewritten)
//! <name>/<version>/<name>.zip.minisig its signature, if any  (never rewritten)
//! <name>/<version>/index.json        that version's index   (never rewritten)
//! ```
//!
//! Every check (the existing `index.json` must parse) runs before the
//! first write, so a refused publish changes nothing; each file is
//! written to a temporary file in its folder and renamed into place (an immutable file with a rename that refuses to
//! replace), in the order archive, signature, version index, site index,
//! so a reader never sees an index naming a file not yet there. The site
//! index is rebuilt from the version indexes on disk, so older versions
//! stay listed as versions and the newest (by `version.rs`'s order)
//! is the one named; entries of the existing `index.json` whose names have
//! no version folder (written by hand or another tool) are kept, with the
//! fields this module reads. The JSON is laid out by a fixed struct (keys
//! in schema order, two-space indent, a final newline), skills sorted by
//! name.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use skills_core::zip::{Archive, Limits};
use url::Url;

use super::{
    Entry, EntryKind, INDEX_FILE, Index, IndexError, SCHEMA, SIGNATURE_SUFFIX, WELL_KNOWN,
    check_description, check_name, digest_of, parse, version,
};

/// One skill version to publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Publication {
    /// The skill's name (the index's name rule).
    pub name: String,
    /// Its description (1–1,024 characters).
    pub description: String,
    /// The version, which names its folder: 1–64 of `A-Z a-z 0-9 . _ + -`,
    /// starting with a letter or digit. The newest is chosen by semantic
    /// versioning's order (`1.10.0` after `1.9.0`, `1.0.0-rc.1` before
    /// `1.0.0`).
    pub version: String,
    /// A zip of the skill's folder, `SKILL.md` at its root: what the
    /// index's readers (Vercel's CLI among them) unpack as the skill's
    /// folder for `type` `archive`. A pack, whose root holds a manifest
    /// and one folder per skill, is refused: they would not find the skill.
    pub archive: Vec<u8>,
    /// The archive's minisign signature (the `.minisig` file's text).
    pub signature: Option<String>,
}

/// What [`publish`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishReport {
    /// The site index as written.
    pub index: Index,
    /// Files written, sorted.
    pub written: Vec<PathBuf>,
    /// Files already there with the same content, sorted.
    pub unchanged: Vec<PathBuf>,
}

/// Publishes `items` into `out_dir` (see the module doc). With
/// `base_url` (the site's root, `https://example.com`), the site index's
/// URLs are absolute; without, relative to the index.
pub fn publish(
    out_dir: &Path,
    base_url: Option<&str>,
    items: &[Publication],
) -> Result<PublishReport, IndexError> {
    let base = base_url.map(check_base).transpose()?;
    let root = out_dir.join(WELL_KNOWN);
    let old = old_entries(&root)?;
    let mut plan: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut unchanged = Vec::new();
    for (i, item) in items.iter().enumerate() {
        check_item(item)?;
        let clash = |other: &&Publication| {
            other.name == item.name
                && other.version == item.version
                && (other.archive != item.archive
                    || other.description != item.description
                    || other.signature != item.signature)
        };
        if items[..i].iter().any(|other| clash(&other)) {
            return Err(IndexError::Publication {
                name: item.name.clone(),
                message: format!(
                    "two skills of this publication are version {} of it, with other content; \
                     an index lists each name and version once (rename one, or publish them \
                     to different sites)",
                    item.version
                ),
            });
        }
        for (path, bytes) in files_of(out_dir, item) {
            if plan.iter().any(|(p, b)| *p == path && *b != bytes) {
                return Err(immutable(item, path));
            }
            match existing(&path)? {
                None if plan.iter().any(|(p, _)| *p == path) => {}
                None => plan.push((path, bytes)),
                Some(old) if same_file(&path, &old, &bytes) => unchanged.push(path),
                Some(_) => return Err(immutable(item, path)),
            }
        }
    }
    let mut written = Vec::new();
    for (path, bytes) in &plan {
        write_atomic(path, bytes, false)?;
        written.push(path.clone());
    }
    let index = site_index(&root, base.as_deref(), old)?;
    let text = to_json(&index);
    let path = root.join(INDEX_FILE);
    if existing(&path)?.as_deref() == Some(text.as_bytes()) {
        unchanged.push(path);
    } else {
        write_atomic(&path, text.as_bytes(), true)?;
        written.push(path);
    }
    written.sort();
    unchanged.sort();
    unchanged.dedup();
    Ok(PublishReport {
        index,
        written,
        unchanged,
    })
}

/// The index as JSON, laid out the same way every time.
pub fn to_json(index: &Index) -> String {
    #[derive(Serialize)]
    struct IndexOut<'a> {
        #[serde(rename = "$schema")]
        schema: &'a str,
        skills: Vec<EntryOut<'a>>,
    }
    #[derive(Serialize)]
    struct EntryOut<'a> {
        name: &'a str,
        #[serde(rename = "type")]
        kind: &'a str,
        description: &'a str,
        url: &'a str,
        digest: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        version: Option<&'a str>,
    }
    let out = IndexOut {
        schema: &index.schema,
        skills: index
            .skills
            .iter()
            .map(|e| EntryOut {
                name: &e.name,
                kind: e.kind.as_str(),
                description: &e.description,
                url: &e.url,
                digest: &e.digest,
                version: e.version.as_deref(),
            })
            .collect(),
    };
    // Serialising plain strings into a String cannot fail.
    let mut text = serde_json::to_string_pretty(&out).unwrap_or_default();
    text.push('\n');
    text
}

/// The site's root URL, checked, without a trailing `/`.
fn check_base(base: &str) -> Result<String, IndexError> {
    let bad = |message: String| IndexError::Publication {
        name: base.to_string(),
        message,
    };
    let url = Url::parse(base).map_err(|e| bad(format!("base URL: {e}")))?;
    if !matches!(url.scheme(), "https" | "http") || url.query().is_some() {
        return Err(bad(
            "the base URL must be an `https://` site root without a query".into(),
        ));
    }
    Ok(url.as_str().trim_end_matches('/').to_string())
}

/// Checks one publication's fields and archive.
fn check_item(item: &Publication) -> Result<(), IndexError> {
    let bad = |message: String| IndexError::Publication {
        name: item.name.clone(),
        message,
    };
    check_name(&item.name).map_err(bad)?;
    check_description(&item.description).map_err(bad)?;
    version::check(&item.version).map_err(bad)?;
    let archive = Archive::parse(&item.archive, &Limits::default())
        .map_err(|e| bad(format!("the archive is not a zip we accept: {e}")))?;
    if archive.find("SKILL.md").is_none() {
        return Err(bad(
            "the archive has no `SKILL.md` at its root: readers of the index unpack it as the \
             skill's folder; give a zip of one skill's folder (a pack holds several skills \
             in folders)"
                .into(),
        ));
    }
    Ok(())
}

/// Where version `version` of the skill `name` keeps its archive under
/// the publication folder `out_dir`.
pub fn archive_path(out_dir: &Path, name: &str, version: &str) -> PathBuf {
    version_dir(out_dir, name, version).join(archive_file(name))
}

/// The folder of version `version` of the skill `name` under the
/// publication folder `out_dir`.
fn version_dir(out_dir: &Path, name: &str, version: &str) -> PathBuf {
    out_dir.join(WELL_KNOWN).join(name).join(version)
}

/// Where version `version` of the skill `name` keeps its archive's
/// signature under the publication folder `out_dir`.
pub fn signature_path(out_dir: &Path, name: &str, version: &str) -> PathBuf {
    let mut path = archive_path(out_dir, name, version).into_os_string();
    path.push(SIGNATURE_SUFFIX);
    PathBuf::from(path)
}

/// The immutable files of one version, with their bytes.
fn files_of(out_dir: &Path, item: &Publication) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = version_dir(out_dir, &item.name, &item.version);
    let mut files = vec![(
        archive_path(out_dir, &item.name, &item.version),
        item.archive.clone(),
    )];
    if let Some(sig) = &item.signature {
        let path = signature_path(out_dir, &item.name, &item.version);
        files.push((path, sig.as_bytes().to_vec()));
    }
    let one = Index {
        schema: SCHEMA.to_string(),
        skills: vec![Entry {
            name: item.name.clone(),
            description: item.description.clone(),
            kind: EntryKind::Archive,
            url: archive_file(&item.name),
            digest: digest_of(&item.archive),
            version: Some(item.version.clone()),
        }],
    };
    files.push((dir.join(INDEX_FILE), to_json(&one).into_bytes()));
    files
}

/// The archive's file name in its version folder.
fn archive_file(name: &str) -> String {
    format!("{name}.zip")
}

/// Whether a file on disk holds what would be written: the same bytes, or
/// for a version index, the same entry (so a change of layout in a later
/// release of this crate does not count as a change of content).
fn same_file(path: &Path, old: &[u8], new: &[u8]) -> bool {
    old == new
        || (path.file_name().is_some_and(|n| n == INDEX_FILE)
            && matches!((parse(old), parse(new)), (Ok(a), Ok(b)) if a == b))
}

/// The refusal to change a published version.
fn immutable(item: &Publication, path: PathBuf) -> IndexError {
    IndexError::Immutable {
        name: item.name.clone(),
        version: item.version.clone(),
        path,
    }
}

/// A file's bytes, or `None` when there is none.
pub(super) fn existing(path: &Path) -> Result<Option<Vec<u8>>, IndexError> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(IndexError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The entries of the site index already there (none without one); an
/// index that does not parse is an error, not something to overwrite.
fn old_entries(root: &Path) -> Result<Vec<Entry>, IndexError> {
    let path = root.join(INDEX_FILE);
    let Some(bytes) = existing(&path)? else {
        return Ok(Vec::new());
    };
    let index = parse(&bytes).map_err(|e| IndexError::At {
        url: path.display().to_string(),
        source: Box::new(e),
    })?;
    Ok(index.skills)
}

/// The site index: the newest version of each skill with a version
/// folder, and the `old` index's entries for other names.
fn site_index(root: &Path, base: Option<&str>, old: Vec<Entry>) -> Result<Index, IndexError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| IndexError::Io { path, source }
    };
    let mut skills = Vec::new();
    for dir in sorted_dirs(root).map_err(io(root))? {
        let Some(name) = dir.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if check_name(name).is_err() {
            continue;
        }
        let mut newest: Option<Entry> = None;
        for vdir in sorted_dirs(&dir).map_err(io(&dir))? {
            let Some(v) = vdir.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            if version::check(v).is_err() {
                continue;
            }
            let path = vdir.join(INDEX_FILE);
            let Some(bytes) = existing(&path)? else {
                continue;
            };
            let entry = version_entry(&path, &bytes, name, v)?;
            if newest.as_ref().is_none_or(|n| {
                version::compare(n.version.as_deref().unwrap_or_default(), v).is_lt()
            }) {
                let url = format!("{name}/{v}/{}", entry.url);
                let url = match base {
                    Some(b) => format!("{b}/{WELL_KNOWN}/{url}"),
                    None => url,
                };
                newest = Some(Entry { url, ..entry });
            }
        }
        skills.extend(newest);
    }
    let ours: Vec<String> = skills.iter().map(|e| e.name.clone()).collect();
    skills.extend(old.into_iter().filter(|e| !ours.contains(&e.name)));
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Index {
        schema: SCHEMA.to_string(),
        skills,
    })
}

/// The entry of a version index, checked to be the version its folder says.
fn version_entry(path: &Path, bytes: &[u8], name: &str, v: &str) -> Result<Entry, IndexError> {
    let at = |source: IndexError| IndexError::At {
        url: path.display().to_string(),
        source: Box::new(source),
    };
    let index = parse(bytes).map_err(at)?;
    match index.skills.as_slice() {
        [e] if e.name == name && e.version.as_deref() == Some(v) && !e.url.contains('/') => {
            Ok(e.clone())
        }
        _ => Err(at(IndexError::Json {
            message: format!(
                "a version index must hold one entry, `{name}` version `{v}`, \
                 whose `url` is a file beside it"
            ),
        })),
    }
}

/// The sub-folders of `dir`, sorted; none when `dir` does not exist.
pub(super) fn sorted_dirs(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut dirs = Vec::new();
    for entry in entries {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            dirs.push(entry.path());
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// Writes `bytes` to `path` through a temporary file in the same folder;
/// with `replace` false, refuses to replace a file that appeared meanwhile.
pub(super) fn write_atomic(path: &Path, bytes: &[u8], replace: bool) -> Result<(), IndexError> {
    let io = |source| IndexError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".publish-")
        .tempfile_in(dir)
        .map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    // A static host serves files readable by all, as any other it serves.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o644)).map_err(io)?;
    }
    if replace {
        tmp.persist(path).map_err(|e| io(e.error))?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| io(e.error))?;
    }
    Ok(())
}

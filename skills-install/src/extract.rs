//! Writing archive contents to disk without escaping or half-writing.
//!
//! Every name written has already passed `zip::Archive::parse` (normal
//! relative paths, no links or devices, no case collisions), and is checked
//! again here before it is joined to the target. Files are created with
//! `create_new`, so nothing existing is followed or overwritten. [`Staging`]
//! writes into a fresh hidden directory beside the target and renames it
//! into place only when everything was written; dropped before that, it
//! removes what it wrote.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use skills_bundle::Skill;
use skills_bundle::pack::{MAX_PACK_FILE, ManifestSkill, Pack, PackError, Trust, plugin_of};
use skills_bundle::zip::{Archive, Kind, Limits, ZipError};
use skills_compiler::client::codex::OPENAI_YAML;
use skills_compiler::parallel;
use skills_compiler::rederive::{self, Disagreement};
use skills_core::fsread;
use skills_core::path;

/// A directory being filled, renamed to its target on [`Staging::commit`].
///
/// It is `<parent>/.<name>.partial-XXXX/<name>`: private while it fills
/// (the outer directory is 0700), and already named as the target, so a
/// skill at its top is checked under the name it will have.
#[derive(Debug)]
pub struct Staging {
    tmp: PathBuf,
    dir: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl Staging {
    /// Starts filling `target`, which must not exist (its parent is created
    /// if needed).
    pub fn new(target: &Path) -> io::Result<Staging> {
        if fs::symlink_metadata(target).is_ok() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "`{}` already exists; unpack writes a new directory",
                    target.display()
                ),
            ));
        }
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the output has no name"))?;
        fs::create_dir_all(&parent).map_err(|e| annotate(e, &parent))?;
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{}.partial-", name.to_string_lossy()))
            .tempdir_in(&parent)
            .map_err(|e| annotate(e, &parent))?
            .keep();
        let dir = tmp.join(name);
        let staging = Staging {
            tmp,
            dir,
            target: target.to_path_buf(),
            committed: false,
        };
        fs::create_dir(&staging.dir).map_err(|e| annotate(e, &staging.dir))?;
        Ok(staging)
    }

    /// The directory being filled.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Renames the filled directory to the target.
    pub fn commit(mut self) -> io::Result<()> {
        if fs::symlink_metadata(&self.target).is_ok() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "`{}` appeared while unpacking; nothing was written",
                    self.target.display()
                ),
            ));
        }
        fs::rename(&self.dir, &self.target).map_err(|e| annotate(e, &self.target))?;
        self.committed = true;
        // Now empty; the target is in place whatever happens to it.
        let _ = fs::remove_dir(&self.tmp);
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.tmp);
        }
    }
}

/// Writes `bytes` at `rel` (a normal relative path) under `root`, creating
/// parent directories; mode 0755 when `executable`, else 0644.
pub fn write_file(root: &Path, rel: &str, bytes: &[u8], executable: bool) -> io::Result<()> {
    if !path::is_normal(rel) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("refusing to write `{rel}`: not a normal relative path"),
        ));
    }
    let dest = root.join(rel);
    if let Some(parent) = dest.parent() {
        fs::create_dir_all(parent).map_err(|e| annotate(e, parent))?;
    }
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(if executable { 0o755 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = executable;
    let mut file = options.open(&dest).map_err(|e| annotate(e, &dest))?;
    file.write_all(bytes).map_err(|e| annotate(e, &dest))?;
    Ok(())
}

/// Writes every file of an opened pack under `root`, each hash-checked as
/// it is read, and for each plugin a `.claude-plugin/plugin.json` naming it,
/// so that the tree is discovered under the pack's names. Returns the number
/// of files.
pub fn write_pack(pack: &Pack, root: &Path) -> io::Result<usize> {
    let mut count = 0;
    let mut plugins: Vec<&str> = pack
        .manifest()
        .skills
        .iter()
        .filter_map(|s| plugin_of(&s.meta.name))
        .collect();
    plugins.sort_unstable();
    plugins.dedup();
    for plugin in plugins {
        let manifest = format!("{}\n", serde_json::json!({ "name": plugin }));
        write_file(
            root,
            &format!("{plugin}/.claude-plugin/plugin.json"),
            manifest.as_bytes(),
            false,
        )?;
    }
    for skill in pack.bundle().skills() {
        for file in skill.files() {
            let bytes = file.bytes().map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}/{}: {e}", skill.source_dir(), file.path()),
                )
            })?;
            let rel = format!("{}/{}", skill.source_dir(), file.path());
            write_file(root, &rel, bytes, file.is_executable())?;
            count += 1;
        }
    }
    Ok(count)
}

/// Writes every entry of a zip archive under `root`, each CRC-checked.
/// Returns the number of files.
pub fn write_zip(bytes: &[u8], archive: &Archive, root: &Path) -> io::Result<usize> {
    let mut count = 0;
    for entry in archive.entries() {
        match entry.kind {
            Kind::Dir => {
                let dir = root.join(entry.name.trim_end_matches('/'));
                fs::create_dir_all(&dir).map_err(|e| annotate(e, &dir))?;
            }
            Kind::File { executable } => {
                let data = entry
                    .read(bytes)
                    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
                write_file(root, &entry.name, &data, executable)?;
                count += 1;
            }
        }
    }
    Ok(count)
}

/// What an archive file on disk turned out to be.
#[derive(Debug)]
pub enum Opened {
    /// A skill pack (its manifest is the first entry), checked without a
    /// signature.
    Pack(Box<Pack>),
    /// Any other zip (a Claude `.skill`, a `.zip` of skills).
    Zip(Archive),
}

/// Reads and parses `path` as a pack or a zip, within `limits`. A
/// signature that `trust` asks for is checked over every byte of either; a
/// pack whose manifest disagrees with its own `SKILL.md` files is refused.
pub fn open(path: &Path, bytes: &[u8], trust: Trust<'_>, limits: &Limits) -> io::Result<Opened> {
    let bad = |e: String| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {e}", path.display()),
        )
    };
    let archive = Archive::parse(bytes, limits).map_err(|e| bad(zip_message(&e)))?;
    let is_pack = archive
        .entries()
        .first()
        .is_some_and(|e| e.name == skills_bundle::pack::MANIFEST_NAME);
    if is_pack {
        let pack =
            Pack::open_with_limits(bytes, trust, limits).map_err(|e| bad(pack_message(&e)))?;
        let found = disagreements(&pack).map_err(|e| bad(e.to_string()))?;
        if !found.is_empty() {
            let each: Vec<String> = found.iter().map(ToString::to_string).collect();
            return Err(bad(format!(
                "manifest: {}; the manifest was edited after packing",
                each.join("; ")
            )));
        }
        Ok(Opened::Pack(Box::new(pack)))
    } else {
        if let Trust::Signed {
            public_key,
            signature,
        } = trust
        {
            skills_bundle::pack::signature::verify(bytes, public_key, signature)
                .map_err(|e| bad(format!("signature: {e}")))?;
        }
        Ok(Opened::Zip(archive))
    }
}

/// `e`'s message and, for a limit, the flag that raises it.
pub fn zip_message(e: &ZipError) -> String {
    let flag = match e {
        ZipError::TooManyEntries { .. } => "--max-entries",
        ZipError::EntryTooLarge { .. } => "--max-entry-size",
        ZipError::TotalTooLarge { .. } => "--max-total-size",
        ZipError::RatioTooHigh { .. } | ZipError::ArchiveRatioTooHigh { .. } => "--max-ratio",
        _ => return e.to_string(),
    };
    format!("{e}; if the archive is trusted, raise the limit with `{flag}`")
}

/// `e`'s message, with [`zip_message`]'s advice for a limit.
pub fn pack_message(e: &PackError) -> String {
    match e {
        PackError::Archive(z) => format!("archive: {}", zip_message(z)),
        e => e.to_string(),
    }
}

/// Every field where the pack's manifest says something else than the
/// `SKILL.md` it holds ([`rederive`]), skill by skill on all cores; each
/// `SKILL.md` is read and hash-checked first (an error names it).
pub fn disagreements(pack: &Pack) -> io::Result<Vec<Disagreement>> {
    let skills: Vec<(Skill<'_>, &ManifestSkill)> = pack
        .bundle()
        .skills()
        .zip(&pack.manifest().skills)
        .collect();
    let found = parallel::map(&skills, 0, |(skill, listed)| {
        skill
            .read(&listed.meta.skill_md)
            .map(|bytes| {
                let openai_yaml = skill.read(OPENAI_YAML).ok();
                rederive::disagreements(listed, bytes, openai_yaml)
            })
            .map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}/{}: {e}", skill.source_dir(), listed.meta.skill_md),
                )
            })
    });
    found.into_iter().try_fold(Vec::new(), |mut all, one| {
        all.extend(one?);
        Ok(all)
    })
}

/// Reads the pack or archive at `path` (a link is followed: the user named
/// it), refusing fifos, devices and directories, and files over
/// [`MAX_PACK_FILE`].
pub fn read_archive(path: &Path) -> io::Result<Vec<u8>> {
    Ok(fsread::read_file(path, MAX_PACK_FILE)?)
}

fn annotate(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("`{}`: {e}", path.display()))
}

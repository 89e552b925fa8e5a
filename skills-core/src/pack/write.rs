//! Writing packs: a manifest and its skills' stored files as a signed-ready,
//! byte-reproducible zip.
//!
//! The bytes depend only on what is given and the timestamp: the manifest
//! first, then the entries sorted byte-wise at `<skill dir>/<path>`,
//! compressed data as given (deflate at the fixed [`deflate::LEVEL`]
//! when [`compress`] made it), modes 0644/0755, and the zip layout fixed by
//! [`zip::write`](crate::zip::write). The compiler's `skb pack` and
//! `skills_bundle!` plans are written by [`write()`], and so are the packs
//! the runtime's own tests load.

use crate::meta::FileMeta;
use crate::pack::{MANIFEST_NAME, Manifest};
use crate::zip::write::{DosTime, ZipWriter};
use crate::{deflate, digest};

/// One file to store: its identity and the bytes to store.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredFile {
    /// Path, size, SHA-256 and mode.
    pub meta: FileMeta,
    /// The bytes to store.
    pub stored: Vec<u8>,
    /// Whether `stored` is raw deflate.
    pub deflated: bool,
    /// CRC-32 of the uncompressed bytes (what a zip entry records).
    pub crc32: u32,
}

/// Compresses one file's bytes (deterministic; stored when deflate does not
/// help), with its hashes.
pub fn compress(path: &str, bytes: Vec<u8>, executable: bool) -> StoredFile {
    let sha256 = digest::sha256(&bytes);
    let crc32 = crc32fast::hash(&bytes);
    let size = bytes.len() as u64;
    let (stored, deflated) = match deflate::compress(&bytes) {
        Some(deflated) => (deflated, true),
        None => (bytes, false),
    };
    StoredFile {
        meta: FileMeta {
            path: path.to_string().into(),
            size,
            sha256,
            executable,
        },
        stored,
        deflated,
        crc32,
    }
}

/// A pack of `manifest` whose entries are `files`: each skill's directory
/// in the pack (its manifest `dir`) with its stored files (each one's
/// `meta` the manifest's record of it), in any order.
pub fn write(
    manifest: &Manifest,
    files: &[(&str, &[StoredFile])],
    time: DosTime,
) -> Result<Vec<u8>, String> {
    let mut zip = ZipWriter::new(time);
    zip.add(MANIFEST_NAME, manifest.to_json().as_bytes(), false)
        .map_err(|e| e.to_string())?;
    let mut entries: Vec<(String, &StoredFile)> = files
        .iter()
        .flat_map(|&(dir, files)| {
            files
                .iter()
                .map(move |f| (format!("{dir}/{}", f.meta.path), f))
        })
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, f) in entries {
        add(&mut zip, &name, f)?;
    }
    Ok(zip.finish())
}

/// Adds `f` to `zip` as `name`, its stored bytes as they are.
pub fn add(zip: &mut ZipWriter, name: &str, f: &StoredFile) -> Result<(), String> {
    let FileMeta {
        size, executable, ..
    } = f.meta;
    zip.add_precompressed(name, f.crc32, size, &f.stored, f.deflated, executable)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::{ManifestSkill, Trust, open, skill_dir};
    use crate::zip::{Archive, Limits};

    #[test]
    fn compression_is_deterministic_and_skips_incompressible_data() {
        let text = b"hello hello hello hello hello hello".to_vec();
        let a = compress("a", text.clone(), false);
        assert!(a.deflated);
        assert_eq!(a, compress("a", text.clone(), false));
        let back = deflate::inflate(&a.stored, a.meta.size as usize).expect("inflates");
        assert_eq!(back, text);
        let tiny = compress("b", b"x".to_vec(), true);
        assert!(!tiny.deflated);
        assert_eq!(tiny.stored, b"x");
    }

    /// Entries sorted byte-wise after the manifest, whatever the order of
    /// the skills' files; the pack opens.
    #[test]
    fn a_written_pack_opens_with_its_entries_sorted() {
        let md = b"---\nname: a\ndescription: d\n---\n".to_vec();
        let files = vec![
            compress("SKILL.md", md, false),
            compress("b/x.txt", b"x".to_vec(), false),
            compress("a.txt", b"a".to_vec(), true),
        ];
        let dir = skill_dir("a");
        let skill = ManifestSkill {
            meta: crate::meta::SkillMeta {
                name: "a".into(),
                description: "d".into(),
                skill_md: "SKILL.md".into(),
                ..Default::default()
            },
            dir: dir.clone(),
            files: files.iter().map(|f| f.meta.clone()).collect(),
        };
        let manifest = Manifest::new("test".into(), vec![skill]);
        let bytes = write(&manifest, &[(&dir, &files)], DosTime::EPOCH).expect("writes");
        let archive = Archive::parse(&bytes, &Limits::default()).expect("parses");
        let names: Vec<&str> = archive.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, [MANIFEST_NAME, "a/SKILL.md", "a/a.txt", "a/b/x.txt"]);
        let (checked, ()) =
            open::open_with(&bytes, Trust::Unsigned, &Limits::default(), |_| Ok(()))
                .expect("opens");
        assert_eq!(checked.manifest, manifest);
    }
}

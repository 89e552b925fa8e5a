//! A checked pack as the tables a bundle is made of: each skill's files
//! with their stored bytes, the index of its `SKILL.md`, the lookup tables
//! of names and paths, and the catalog with its layout.
//!
//! The runtime (`Bundle::from_pack`) and the compiler (`skills_bundle!(pack
//! = ...)`, which re-checks every file before printing the tables as
//! statics) both read a pack through [`tables`], so that a pack embedded at
//! build time and the same pack loaded at run time are the same bundle.

use crate::catalog::{self, Embedded};
use crate::meta::FileMeta;
use crate::pack::{ManifestSkill, PackError, open::Checked};
use crate::phf;
use crate::zip::{Entry, Method};

/// Every skill of a checked pack, in the manifest's order (sorted by name).
#[derive(Debug)]
pub struct PackTables<'a> {
    /// The skills.
    pub skills: Vec<SkillTables<'a>>,
    /// Name → index into `skills` ([`phf::build`]); `None`: binary search.
    pub index: Option<phf::Tables>,
    /// The `<available_skills>` block and its layout.
    pub catalog: Embedded,
}

/// One skill of a checked pack.
#[derive(Debug)]
pub struct SkillTables<'a> {
    /// The manifest's record.
    pub skill: &'a ManifestSkill,
    /// Its files, in the manifest's order (sorted by path).
    pub files: Vec<FileTables<'a>>,
    /// Index of `SKILL.md` in `files`.
    pub skill_md: u32,
    /// Path → index into `files`; `None`: binary search.
    pub paths: Option<phf::Tables>,
}

/// One file of a checked pack.
#[derive(Debug)]
pub struct FileTables<'a> {
    /// The manifest's record.
    pub meta: &'a FileMeta,
    /// Its zip entry.
    pub entry: &'a Entry,
    /// The bytes stored in the pack: raw deflate when `deflated`.
    pub stored: &'a [u8],
    /// Whether `stored` is raw deflate.
    pub deflated: bool,
}

/// The tables of `checked`, a pack opened from `bytes`; the stored bytes
/// are borrowed from `bytes`. Nothing is inflated.
pub fn tables<'a>(checked: &'a Checked, bytes: &'a [u8]) -> Result<PackTables<'a>, PackError> {
    let manifest = &checked.manifest;
    let all = checked.archive.entries();
    let mut skills = Vec::with_capacity(manifest.skills.len());
    for (s, indices) in manifest.skills.iter().zip(&checked.entries) {
        let mut files = Vec::with_capacity(s.files.len());
        for (meta, &i) in s.files.iter().zip(indices) {
            let entry = all
                .get(i)
                .ok_or_else(|| PackError::Mismatch(format!("`{}`: no such entry", meta.path)))?;
            let stored = bytes.get(entry.data.clone()).ok_or_else(|| {
                PackError::Mismatch(format!("`{}`: data out of bounds", entry.name))
            })?;
            files.push(FileTables {
                meta,
                entry,
                stored,
                deflated: entry.method == Method::Deflate,
            });
        }
        let skill_md = s
            .files
            .iter()
            .position(|f| f.path == s.meta.skill_md)
            .and_then(|i| u32::try_from(i).ok())
            .ok_or_else(|| PackError::Manifest(format!("`{}` has no `SKILL.md`", s.meta.name)))?;
        let paths: Vec<&str> = s.files.iter().map(|f| &*f.path).collect();
        skills.push(SkillTables {
            skill: s,
            files,
            skill_md,
            paths: phf::build(&paths),
        });
    }
    let names: Vec<&str> = manifest.skills.iter().map(|s| &*s.meta.name).collect();
    let catalog = catalog::embedded(
        manifest
            .skills
            .iter()
            .map(|s| (&*s.meta.name, &*s.meta.description)),
    );
    Ok(PackTables {
        skills,
        index: phf::build(&names),
        catalog,
    })
}

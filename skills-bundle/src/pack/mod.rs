//! Skill packs: compiled skills in a signed, reproducible zip file.
//!
//! A pack is a zip archive whose first entry is the [manifest](Manifest)
//! (`skillpack.json`) and whose other entries are the skills' files, at
//! `<skill dir>/<path>`, sorted byte-wise. It is signed with minisign
//! ([`signature`]): the detached `<pack>.minisig` covers every byte.
//!
//! [`Pack::open`] checks, in this order and before exposing anything: the
//! signature over the whole file (when the [`Trust`] asks for one); the zip
//! structure (`crate::zip`: paths, types, limits, local headers); the
//! manifest (shape, order, digest); and that archive and manifest agree
//! entry by entry (name, size, mode, nothing missing, nothing extra). File
//! contents are then inflated lazily, bounded by their recorded size, and
//! checked against their SHA-256 on first read, exactly like a compiled
//! bundle's. Without a signature, the SHA-256 checks still catch damage,
//! but nothing proves who wrote the pack.

mod manifest;
mod open;
pub mod signature;

use std::sync::OnceLock;

use crate::__private::{BundleData, FileData, Index, List, SkillData, Str};
use crate::bundle::Bundle;
use crate::catalog;
use crate::zip::Method;

pub use manifest::{
    CODEC, FORMAT, MANIFEST_NAME, Manifest, ManifestFile, ManifestSkill, VERSION, skill_dir,
};
pub use open::{MAX_MANIFEST, PackError, Trust};
pub use signature::SignatureError;

/// An opened, checked pack.
#[derive(Debug, Clone)]
pub struct Pack {
    manifest: Manifest,
    trusted_comment: Option<String>,
    bundle: Bundle,
}

impl Pack {
    /// Checks `bytes` as [`Trust`] asks, then reads the manifest and the
    /// entries. Nothing is decompressed but the manifest.
    pub fn open(bytes: &[u8], trust: Trust<'_>) -> Result<Pack, PackError> {
        let checked = open::open(bytes, trust)?;
        let data = bundle_data(&checked, bytes)?;
        Ok(Pack {
            manifest: checked.manifest,
            trusted_comment: checked.trusted_comment,
            bundle: Bundle::from_data(data),
        })
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The signature's trusted comment, when a signature was checked.
    pub fn trusted_comment(&self) -> Option<&str> {
        self.trusted_comment.as_deref()
    }

    /// The skills, with the same API as a compiled bundle.
    pub fn bundle(&self) -> &Bundle {
        &self.bundle
    }

    /// The skills, keeping nothing else.
    pub fn into_bundle(self) -> Bundle {
        self.bundle
    }
}

impl Bundle {
    /// Loads a pack: the signature (when `trust` asks for one), the zip
    /// structure, the manifest and the listing are checked before anything
    /// is exposed; files are inflated and hash-checked on first read. The
    /// compressed bytes are copied out of `bytes`, which can be dropped.
    ///
    /// ```no_run
    /// use skills_bundle::{Bundle, pack::Trust};
    /// let bytes = std::fs::read("tools.skillpack")?;
    /// let signature = std::fs::read_to_string("tools.skillpack.minisig")?;
    /// let public_key = "RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3";
    /// let skills = Bundle::from_pack(&bytes, Trust::Signed { public_key, signature: &signature })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_pack(bytes: &[u8], trust: Trust<'_>) -> Result<Bundle, PackError> {
        Pack::open(bytes, trust).map(Pack::into_bundle)
    }
}

/// The runtime tables of a checked pack; compressed bytes are copied.
fn bundle_data(checked: &open::Checked, bytes: &[u8]) -> Result<BundleData, PackError> {
    let manifest = &checked.manifest;
    let all = checked.archive.entries();
    let mut slots = 0u32;
    let mut skills = Vec::with_capacity(manifest.skills.len());
    for (s, indices) in manifest.skills.iter().zip(&checked.entries) {
        let mut files = Vec::with_capacity(s.files.len());
        for (f, &i) in s.files.iter().zip(indices) {
            let entry = &all[i];
            let stored = bytes.get(entry.data.clone()).ok_or_else(|| {
                PackError::Mismatch(format!("`{}`: data out of bounds", entry.name))
            })?;
            let deflated = entry.method == Method::Deflate;
            let slot = if deflated {
                slots += 1;
                slots - 1
            } else {
                u32::MAX
            };
            files.push(FileData {
                path: f.path.clone().into(),
                stored: List::Owned(stored.into()),
                deflated,
                size: f.size,
                sha256: f.sha256,
                executable: f.executable,
                slot,
            });
        }
        let skill_md = s
            .files
            .iter()
            .position(|f| f.path == s.skill_md)
            .and_then(|i| u32::try_from(i).ok())
            .ok_or_else(|| PackError::Manifest(format!("`{}` has no `SKILL.md`", s.name)))?;
        skills.push(SkillData {
            name: s.name.clone().into(),
            description: s.description.clone().into(),
            license: s.license.clone().map(Into::into),
            compatibility: s.compatibility.clone().map(Into::into),
            metadata: owned_pairs(&s.metadata),
            allowed_tools: List::Owned(
                s.allowed_tools
                    .iter()
                    .map(|(t, p)| (t.clone().into(), p.clone().map(Into::into)))
                    .collect(),
            ),
            extensions: owned_pairs(&s.extensions),
            source_dir: s.dir.clone().into(),
            files: List::Owned(files.into()),
            paths: Index::Sorted,
            skill_md,
            body: s.body,
        });
    }
    let catalog = catalog::render_embedded(
        manifest
            .skills
            .iter()
            .map(|s| (s.name.as_str(), s.description.as_str())),
    );
    Ok(BundleData {
        skills: List::Owned(skills.into()),
        index: Index::Sorted,
        catalog: catalog.into(),
        digest: manifest.digest.clone().into(),
        cache: List::Owned((0..slots).map(|_| OnceLock::new()).collect()),
    })
}

fn owned_pairs(pairs: &[(String, String)]) -> List<(Str, Str)> {
    List::Owned(
        pairs
            .iter()
            .map(|(k, v)| (k.clone().into(), v.clone().into()))
            .collect(),
    )
}

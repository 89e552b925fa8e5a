//! Skill packs: compiled skills in a signed, reproducible zip file.
//!
//! A pack is a zip archive whose first entry is the [manifest](Manifest)
//! (`skillpack.json`) and whose other entries are the skills' files, at
//! `<skill dir>/<path>`, sorted byte-wise. It is signed with minisign
//! ([`signature`]): the detached `<pack>.minisig` covers every byte.
//!
//! [`Pack::open`] checks, before exposing anything: the signature over the
//! whole file (when the [`Trust`] asks for one; verified on a second thread
//! while the rest is parsed, and its verdict decides first); the zip
//! structure (`crate::zip`: paths, types, limits, local headers); the
//! manifest (shape, order, digest); and that archive and manifest agree
//! entry by entry (name, size, mode, nothing missing, nothing extra). File
//! contents are then inflated lazily, bounded by their recorded size, and
//! checked against their SHA-256 on first read, exactly like a compiled
//! bundle's. Without a signature, the SHA-256 checks still catch damage,
//! but nothing proves who wrote the pack.
//!
//! The runtime obeys the manifest's metadata (`allowed-tools` rules, the
//! body's range, ...), which the digest binds: an edited field is refused
//! on open. An unsigned pack's digest can be recomputed by whoever edits
//! it, as its files can be replaced; only a signature proves the metadata
//! is the packer's. Where the compiler is linked (the `skb` CLI,
//! `skills_bundle!(pack = ...)`), each skill's metadata is also derived
//! again from its `SKILL.md` and must agree (`compiler::rederive`).

use std::sync::OnceLock;

use skills_core::pack::{open, tables};

use crate::__private::{BundleData, FileData, Index, List, SkillData};
use crate::bundle::Bundle;
use crate::zip::Limits;

pub use skills_core::pack::{
    CODEC, FORMAT, MANIFEST_NAME, MAX_MANIFEST, MAX_PACK_FILE, Manifest, ManifestSkill, PackError,
    SignatureError, Trust, VERSION, plugin_of, skill_dir,
};

/// minisign signatures of packs: checking one, where it lies beside its
/// pack, and how large a signature file may be.
pub mod signature {
    pub use skills_core::pack::signature::{
        MAX_SIGNATURE_FILE, SignatureError, minisig_path, signed_digest, verify,
    };
}

/// An opened, checked pack.
#[derive(Debug, Clone)]
pub struct Pack {
    manifest: Manifest,
    trusted_comment: Option<String>,
    bundle: Bundle,
}

impl Pack {
    /// Checks `bytes` as [`Trust`] asks, then reads the manifest and the
    /// entries, within the default [`Limits`]. Nothing is decompressed but
    /// the manifest.
    pub fn open(bytes: &[u8], trust: Trust<'_>) -> Result<Pack, PackError> {
        Pack::open_with_limits(bytes, trust, &Limits::default())
    }

    /// [`Pack::open`] with other bounds on the archive: for a pack whose
    /// skills hold files larger, or more compressible, than the defaults
    /// allow (see [`Limits`]).
    pub fn open_with_limits(
        bytes: &[u8],
        trust: Trust<'_>,
        limits: &Limits,
    ) -> Result<Pack, PackError> {
        let (checked, data) = open::open_with(bytes, trust, limits, |c| bundle_data(c, bytes))?;
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
    /// use std::path::Path;
    /// use skills_bundle::{Bundle, fsread, pack::{self, Trust}};
    /// // Bounded reads that refuse fifos and devices.
    /// let bytes = fsread::read_file(Path::new("tools.skillpack"), pack::MAX_PACK_FILE)?;
    /// let signature = fsread::read_file(
    ///     Path::new("tools.skillpack.minisig"),
    ///     pack::signature::MAX_SIGNATURE_FILE,
    /// )?;
    /// let signature = String::from_utf8(signature)?;
    /// let public_key = "RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3";
    /// let skills = Bundle::from_pack(&bytes, Trust::Signed { public_key, signature: Some(&signature) })?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_pack(bytes: &[u8], trust: Trust<'_>) -> Result<Bundle, PackError> {
        Pack::open(bytes, trust).map(Pack::into_bundle)
    }
}

/// The runtime tables of a checked pack ([`tables::tables`], which the
/// compiler reads a pack through too); compressed bytes are copied.
fn bundle_data(checked: &open::Checked, bytes: &[u8]) -> Result<BundleData, PackError> {
    let tables = tables::tables(checked, bytes)?;
    let mut slots = 0u32;
    let skills = tables
        .skills
        .into_iter()
        .map(|s| {
            let files = s
                .files
                .into_iter()
                .map(|f| {
                    // Every file of a pack has a slot: stored ones are
                    // hash-checked on first read too.
                    let slot = slots;
                    slots += 1;
                    FileData {
                        meta: f.meta.clone(),
                        stored: List::Owned(f.stored.into()),
                        deflated: f.deflated,
                        slot,
                    }
                })
                .collect();
            SkillData {
                meta: s.skill.meta.clone(),
                source_dir: s.skill.dir.clone().into(),
                files: List::Owned(files),
                paths: Index::from_tables(s.paths),
                skill_md: s.skill_md,
            }
        })
        .collect();
    let catalog = tables.catalog;
    Ok(BundleData {
        skills: List::Owned(skills),
        index: Index::from_tables(tables.index),
        catalog: catalog.text.into(),
        catalog_chars: catalog.chars,
        catalog_spans: List::Owned(catalog.spans),
        digest: checked.manifest.digest.clone().into(),
        cache: List::Owned((0..slots).map(|_| OnceLock::new()).collect()),
    })
}

// Packs are written by the compiler and read here: the round trip is
// tested above both, in `skills-tests` (`tests/lib/embed.rs`).

//! One embedded file, and its lazy decompression.
//!
//! A compressed file is inflated on its first read, with the output bounded
//! by the recorded size and checked against the recorded SHA-256; the result
//! (or the failure) is cached in the bundle's slot for the file, so later
//! reads cost a pointer copy. Files stored uncompressed are read in place:
//! those of a compiled bundle at once (they are part of the binary), those
//! of a loaded pack once their size and SHA-256 have been checked (the
//! check's outcome is what their slot caches).

use std::fmt;
use std::sync::OnceLock;

use skills_core::deflate::InflateError;

use crate::__private::FileData;
use skills_core::digest;

mod slot;

pub(crate) use slot::Checked;
pub use slot::{Cached, Corrupt};

/// A file of a skill.
#[derive(Clone, Copy)]
pub struct File<'a> {
    pub(crate) data: &'a FileData,
    pub(crate) slot: Option<&'a OnceLock<Cached>>,
}

impl<'a> File<'a> {
    /// The path relative to the skill directory, `/`-separated.
    pub fn path(&self) -> &'a str {
        &self.data.meta.path
    }

    /// The uncompressed size in bytes.
    pub fn size(&self) -> u64 {
        self.data.meta.size
    }

    /// SHA-256 of the contents.
    pub fn sha256(&self) -> &'a [u8; 32] {
        &self.data.meta.sha256
    }

    /// SHA-256 of the contents, as lowercase hex.
    pub fn sha256_hex(&self) -> String {
        digest::hex(&self.data.meta.sha256)
    }

    /// Whether the file is executable (mode 0755 when written out).
    pub fn is_executable(&self) -> bool {
        self.data.meta.executable
    }

    /// Bytes as stored in the binary, and whether they are raw deflate.
    pub fn stored(&self) -> (&'a [u8], bool) {
        (&self.data.stored, self.data.deflated)
    }

    /// Checks the contents (inflating them when compressed) without caching
    /// them: for verifying every file of a large pack without keeping it all
    /// in memory. A file already read returns its cached outcome.
    pub fn verify(&self) -> Result<(), Corrupt> {
        match self.slot.and_then(OnceLock::get) {
            Some(cached) => cached.as_ref().map(|_| ()).map_err(|e| *e),
            None if self.slot.is_none() && !self.data.deflated => Ok(()),
            None => check(self.data).map(|_| ()),
        }
    }

    /// The contents, decompressed (or, from a pack, checked) on first use
    /// and cached.
    pub fn bytes(&self) -> Result<&'a [u8], Corrupt> {
        let slot = match self.slot {
            Some(slot) => slot,
            // A compiled bundle's stored file: part of the binary.
            None if !self.data.deflated => return Ok(&self.data.stored),
            None => return Err(Corrupt::Inflate),
        };
        match slot.get_or_init(|| check(self.data)) {
            Ok(Checked::Inflated(bytes)) => Ok(bytes),
            Ok(Checked::Verified) => Ok(&self.data.stored),
            Err(e) => Err(*e),
        }
    }
}

impl fmt::Debug for File<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("File")
            .field("path", &self.data.meta.path)
            .field("size", &self.data.meta.size)
            .field("executable", &self.data.meta.executable)
            .finish()
    }
}

/// Inflates (when deflated) and checks size and SHA-256.
fn check(data: &FileData) -> Cached {
    let limit = usize::try_from(data.meta.size).map_err(|_| Corrupt::Size)?;
    if !data.deflated {
        if data.stored.len() != limit {
            return Err(Corrupt::Size);
        }
        if digest::sha256(&data.stored) != data.meta.sha256 {
            return Err(Corrupt::Hash);
        }
        return Ok(Checked::Verified);
    }
    let out = skills_core::deflate::inflate(&data.stored, limit).map_err(|e| match e {
        InflateError::Short(_) | InflateError::TooMuch => Corrupt::Size,
        InflateError::Trailing | InflateError::Corrupt => Corrupt::Inflate,
    })?;
    if digest::sha256(&out) != data.meta.sha256 {
        return Err(Corrupt::Hash);
    }
    Ok(Checked::Inflated(out.into_boxed_slice()))
}

//! The zip format: reading archives that may be hostile, and writing
//! archives that are the same bytes on every machine.
//!
//! Skill packs are zip files, and so are Claude's `.skill` uploads; both may
//! come from anyone. [`Archive::parse`] checks the whole structure before it
//! hands out a single entry, without inflating anything, and
//! [`Entry::read`] inflates one entry into a buffer of exactly its declared
//! size and checks its CRC-32 (`read.rs`); `write::ZipWriter` (feature
//! `write`) writes packs. Both sides share one set of header values (`format.rs`), one set
//! of name rules (`names.rs`) and one name error ([`NameError`]), so the
//! writer refuses exactly the names the reader would.
//!
//! Only the plain subset of the format is accepted, which is all that
//! Python's `zipfile`, Info-ZIP and our own writer produce for skills:
//! one disk, no ZIP64, no encryption, no data descriptors, stored or
//! deflated entries, and a central directory that ends right where the end
//! record starts (offsets are taken as they are, never shifted to allow for
//! a self-extractor's prefix). Names must be normal relative paths
//! ([`crate::path::is_normal`]) that stay distinct on case-insensitive and
//! normalisation-insensitive file systems (`café` composed and decomposed
//! are one name on macOS), and an entry may be a regular file or a
//! directory only, by every field any mainstream extractor reads to decide
//! that, under any "version made by" host (`attrs.rs`); an entry whose
//! "version needed to extract" is above 2.0 is refused, as `unzip` would
//! skip it. Names are decoded as UTF-8 whether or not flag bit 11
//! is set (Info-ZIP on Unix writes UTF-8 without it); names that are not
//! valid UTF-8 are refused, never read as CP437. Entries whose local header, name or data share bytes
//! with another entry (the overlapping "zip bomb" trick) are refused, as is
//! the Info-ZIP Unicode Path extra field, which some unzippers honour
//! instead of the checked name.

// The header layout, the errors and the DOS time are shared with the writer,
// which only build time compiles in (feature `write`).
mod attrs;
// Without `write`, the writer's error and DOS time are `pub` but unreachable.
#[cfg_attr(not(feature = "write"), allow(dead_code, unreachable_pub))]
mod error;
#[cfg_attr(not(feature = "write"), allow(dead_code))]
mod format;
mod names;
mod read;
#[cfg_attr(not(feature = "write"), allow(dead_code, unreachable_pub))]
mod time;
#[cfg(any(test, feature = "write"))]
pub mod write;

pub use error::{NameError, ZipError, printable};
pub use format::{Kind, Method};
pub use read::{Archive, Entry, Limits, RATIO_EXEMPT};

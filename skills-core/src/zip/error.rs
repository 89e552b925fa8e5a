//! Why the zip reader refused an archive or an entry, and why the writer
//! refused an entry, with the messages users see.
//!
//! A name is refused by the one set of name rules (`names.rs`) on either
//! side, so both report it as one [`NameError`] with one message;
//! [`ZipError`] and [`WriteError`] hold it and add the cases only their side
//! meets. Every message is shown through [`printable`]: the names in it come
//! from an archive, or from a directory being packed, and may hold control
//! characters.

use std::borrow::Cow;
use std::fmt;

use crate::path::PathError;

/// Why an entry's name was refused, by the reader or the writer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameError {
    /// A name that is not a safe relative path.
    BadName {
        /// The name.
        name: String,
        /// The rule it breaks.
        reason: PathError,
    },
    /// A name with `.` components, or a trailing `/` too many (a file's one,
    /// a directory's second).
    NameNotNormal {
        /// The name.
        name: String,
        /// What it normalises to.
        normal: String,
    },
    /// Two entries with the same name.
    DuplicateName {
        /// The name.
        name: String,
    },
    /// Two names equal but for case.
    CaseCollision {
        /// The later entry.
        name: String,
        /// The earlier entry.
        other: String,
    },
    /// Two names equal under Unicode normalisation (and maybe case), such
    /// as `café` composed and decomposed.
    NormalizationCollision {
        /// The later entry.
        name: String,
        /// The earlier entry.
        other: String,
    },
    /// A path that is both a file and a directory entry.
    DirFileConflict {
        /// The path.
        name: String,
    },
    /// A file whose path is a directory of another entry (`a` and `a/b`).
    FileIsPrefix {
        /// The file.
        file: String,
        /// The entry inside it.
        entry: String,
    },
}

/// Why an archive or an entry was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ZipError {
    /// No end-of-central-directory record: not a zip file, or truncated.
    NoEndRecord,
    /// An end record was found, but its comment does not end the file.
    CommentLength,
    /// Two end records both reach the end of the file.
    AmbiguousEnd,
    /// ZIP64 markers or records (`name` when an entry has them).
    Zip64 {
        /// The entry, when the markers are in its header.
        name: Option<String>,
    },
    /// A multi-disk (split or spanned) archive.
    MultiDisk,
    /// The central directory is not inside the file, right before the end record.
    CentralDirectoryBounds,
    /// More entries than [`Limits::max_entries`](super::Limits::max_entries).
    TooManyEntries {
        /// Entries declared.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// The end record's entry count differs from the headers found.
    EntryCountMismatch {
        /// Entries the end record declares.
        declared: usize,
        /// Headers found (at least this many).
        found: usize,
    },
    /// A central header is truncated, overruns the directory or has a bad signature.
    BadCentralHeader {
        /// Its position in the central directory, from 0.
        index: usize,
    },
    /// A name that is not UTF-8.
    NameNotUtf8 {
        /// The header's position in the central directory, from 0.
        index: usize,
        /// The name with invalid bytes replaced.
        lossy: String,
    },
    /// An encrypted entry.
    Encrypted {
        /// The entry.
        name: String,
    },
    /// An entry with a data descriptor (flag bit 3).
    DataDescriptor {
        /// The entry.
        name: String,
    },
    /// A compression method other than stored (0) or deflate (8).
    UnsupportedMethod {
        /// The entry.
        name: String,
        /// The method number.
        method: u16,
    },
    /// An Info-ZIP Unicode Path extra field, which could rename the entry.
    UnicodePathField {
        /// The entry.
        name: String,
    },
    /// A name the name rules refuse.
    Name(NameError),
    /// A symbolic link, device, fifo or socket.
    SpecialFile {
        /// The entry.
        name: String,
        /// What it is.
        kind: &'static str,
    },
    /// An extra field makes the entry a symbolic link or device: an ASi
    /// Unix field's mode or link target, a PKWARE Unix field's link or
    /// device data, a libarchive `xl` field's attributes.
    SpecialExtraField {
        /// The entry.
        name: String,
        /// The extra field's id.
        field: u16,
        /// What it makes the entry.
        kind: &'static str,
    },
    /// A field says directory and the name does not end with `/`, or the
    /// other way round.
    KindMismatch {
        /// The entry.
        name: String,
        /// The field: the Unix mode, the DOS directory attribute, or an
        /// extra field.
        field: &'static str,
    },
    /// An extra field that runs past the end of its block, or is shorter
    /// than its fixed part.
    BadExtraField {
        /// The entry.
        name: String,
        /// The extra field's id.
        field: u16,
    },
    /// "Version needed to extract" above 2.0, or naming a host system.
    VersionNeeded {
        /// The entry.
        name: String,
        /// The header's value: the version (times 10) in the low byte, a
        /// host system in the high byte.
        needed: u16,
    },
    /// A directory entry with a non-zero size.
    DirWithData {
        /// The entry.
        name: String,
    },
    /// A stored entry whose compressed size differs from its size.
    StoredSizeMismatch {
        /// The entry.
        name: String,
    },
    /// An entry larger than [`Limits::max_entry_size`](super::Limits::max_entry_size).
    EntryTooLarge {
        /// The entry.
        name: String,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The sizes add up to more than [`Limits::max_total_size`](super::Limits::max_total_size).
    TotalTooLarge {
        /// The limit.
        limit: u64,
    },
    /// An entry over [`RATIO_EXEMPT`](super::RATIO_EXEMPT) compressed more than
    /// [`Limits::max_ratio`](super::Limits::max_ratio) times.
    RatioTooHigh {
        /// The entry.
        name: String,
        /// Its size.
        size: u64,
        /// Its compressed size.
        compressed: u64,
        /// The limit.
        limit: u64,
    },
    /// Entries adding up to over [`RATIO_EXEMPT`](super::RATIO_EXEMPT), compressed more than
    /// [`Limits::max_ratio`](super::Limits::max_ratio) times in all.
    ArchiveRatioTooHigh {
        /// Their sizes, added up.
        size: u64,
        /// Their compressed sizes, added up.
        compressed: u64,
        /// The limit.
        limit: u64,
    },
    /// The local header is out of bounds or has a bad signature.
    BadLocalHeader {
        /// The entry.
        name: String,
    },
    /// The local header disagrees with the central one.
    LocalHeaderMismatch {
        /// The entry.
        name: String,
        /// The field that differs.
        field: &'static str,
    },
    /// The data runs past the start of the central directory.
    DataOutOfBounds {
        /// The entry.
        name: String,
    },
    /// Two entries share bytes.
    Overlap {
        /// The entry that starts later.
        name: String,
        /// The entry it overlaps.
        other: String,
    },
    /// The deflate stream produces more than the declared size.
    TooMuchData {
        /// The entry.
        name: String,
        /// The declared size.
        size: u64,
    },
    /// The data is shorter than the declared size.
    ShortData {
        /// The entry.
        name: String,
        /// The declared size.
        expected: u64,
        /// The size found.
        actual: u64,
    },
    /// Bytes after the end of the deflate stream.
    TrailingData {
        /// The entry.
        name: String,
    },
    /// The deflate stream is invalid or truncated.
    CorruptData {
        /// The entry.
        name: String,
    },
    /// The CRC-32 of the data differs from the header's.
    CrcMismatch {
        /// The entry.
        name: String,
        /// The header's CRC-32.
        expected: u32,
        /// The data's.
        actual: u32,
    },
}

/// Why the writer refused an entry; a refused entry is not written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WriteError {
    /// A name the name rules refuse.
    Name(NameError),
    /// The name is longer than 65,535 bytes.
    NameTooLong {
        /// The name.
        name: String,
    },
    /// The name does not sort after the previous one (the first entry aside).
    OutOfOrder {
        /// The name.
        name: String,
        /// The previous name.
        previous: String,
    },
    /// The archive already holds the most entries a plain zip can.
    TooManyEntries {
        /// The limit.
        limit: usize,
    },
    /// The entry, or the archive with it, would reach 4 GiB and need ZIP64.
    TooLarge {
        /// The name.
        name: String,
    },
    /// `add_precompressed` was given stored bytes of another size than the file's.
    StoredSizeMismatch {
        /// The name.
        name: String,
    },
}

impl Message for NameError {
    fn message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NameError as E;
        match self {
            E::BadName { name, reason } => write!(f, "entry `{name}`: {reason}"),
            E::NameNotNormal { name, normal } => {
                write!(
                    f,
                    "entry `{name}` is not a normal path; it would be `{normal}`"
                )
            }
            E::DuplicateName { name } => write!(f, "entry `{name}` appears twice"),
            E::CaseCollision { name, other } => write!(
                f,
                "entries `{other}` and `{name}` differ only by case and collide on case-insensitive file systems"
            ),
            E::NormalizationCollision { name, other } => write!(
                f,
                "entries `{}` and `{}` are one name in two Unicode normalisations and collide on macOS file systems",
                code_points(other),
                code_points(name)
            ),
            E::DirFileConflict { name } => {
                write!(f, "`{name}` is both a file and a directory entry")
            }
            E::FileIsPrefix { file, entry } => write!(
                f,
                "file `{file}` is also used as a directory by entry `{entry}`"
            ),
        }
    }
}

impl Message for ZipError {
    fn message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ZipError as E;
        match self {
            E::NoEndRecord => {
                f.write_str("not a zip archive: no end-of-central-directory record")
            }
            E::CommentLength => f.write_str(
                "the end-of-central-directory comment length does not match the end of the file",
            ),
            E::AmbiguousEnd => f.write_str(
                "the archive has two end-of-central-directory records that reach the end of the file",
            ),
            E::Zip64 { name: None } => f.write_str("ZIP64 is not supported"),
            E::Zip64 { name: Some(n) } => write!(f, "ZIP64 is not supported (entry `{n}`)"),
            E::MultiDisk => f.write_str("multi-disk archives are not supported"),
            E::CentralDirectoryBounds => f.write_str(
                "the central directory does not end right before the end-of-central-directory record",
            ),
            E::TooManyEntries { count, limit } => {
                write!(f, "the archive has {count} entries; the limit is {limit}")
            }
            E::EntryCountMismatch { declared, found } => write!(
                f,
                "the end-of-central-directory record declares {declared} entries, but the central directory holds {found}"
            ),
            E::BadCentralHeader { index } => write!(
                f,
                "central directory header #{index} is truncated or has a bad signature"
            ),
            E::NameNotUtf8 { lossy, .. } => write!(f, "entry `{lossy}`: the name is not UTF-8"),
            E::Encrypted { name } => {
                write!(f, "entry `{name}` is encrypted; encryption is not supported")
            }
            E::DataDescriptor { name } => write!(
                f,
                "entry `{name}` uses a data descriptor (flag bit 3), which is not supported"
            ),
            E::UnsupportedMethod { name, method } => write!(
                f,
                "entry `{name}` uses compression method {method}; only stored (0) and deflate (8) are supported"
            ),
            E::UnicodePathField { name } => write!(
                f,
                "entry `{name}` has an Info-ZIP Unicode Path extra field, which could rename it"
            ),
            E::Name(e) => e.message(f),
            E::SpecialFile { name, kind } => write!(
                f,
                "entry `{name}` is a {kind}; only regular files and directories are allowed"
            ),
            E::SpecialExtraField { name, field, kind } => write!(
                f,
                "entry `{name}` is a {kind} by its extra field 0x{field:04x}; only regular files and directories are allowed"
            ),
            E::KindMismatch { name, field } => write!(
                f,
                "entry `{name}`: its {field} and its trailing `/` disagree on whether it is a directory"
            ),
            E::BadExtraField { name, field } => write!(
                f,
                "entry `{name}`: extra field 0x{field:04x} runs past the end of the extra data or is truncated"
            ),
            E::VersionNeeded { name, needed } if needed >> 8 != 0 => write!(
                f,
                "entry `{name}` needs host system {} to extract (\"version needed to extract\" is 0x{needed:04x}); only entries any system extracts (0) are supported",
                needed >> 8
            ),
            E::VersionNeeded { name, needed } => write!(
                f,
                "entry `{name}` needs zip version {}.{} to extract; this reader supports up to 2.0 (stored and deflate)",
                needed / 10,
                needed % 10
            ),
            E::DirWithData { name } => write!(f, "directory entry `{name}` has a non-zero size"),
            E::StoredSizeMismatch { name } => write!(
                f,
                "stored entry `{name}` has a compressed size different from its size"
            ),
            E::EntryTooLarge { name, size, limit } => write!(
                f,
                "entry `{name}` is {size} bytes; the limit is {limit}"
            ),
            E::TotalTooLarge { limit } => write!(
                f,
                "the entries add up to more than {limit} bytes, the limit"
            ),
            E::RatioTooHigh {
                name,
                size,
                compressed,
                limit,
            } => write!(
                f,
                "entry `{name}` inflates {compressed} bytes to {size}, a ratio over the limit of {limit}"
            ),
            E::ArchiveRatioTooHigh {
                size,
                compressed,
                limit,
            } => write!(
                f,
                "the entries inflate {compressed} bytes to {size} in all, a ratio over the limit of {limit}"
            ),
            E::BadLocalHeader { name } => write!(
                f,
                "entry `{name}`: the local header is out of bounds or has a bad signature"
            ),
            E::LocalHeaderMismatch { name, field } => write!(
                f,
                "entry `{name}`: the local header's {field} differs from the central directory's"
            ),
            E::DataOutOfBounds { name } => write!(
                f,
                "entry `{name}`: the data runs past the start of the central directory"
            ),
            E::Overlap { name, other } => {
                write!(f, "entries `{other}` and `{name}` overlap")
            }
            E::TooMuchData { name, size } => write!(
                f,
                "entry `{name}` inflates to more than its declared {size} bytes"
            ),
            E::ShortData {
                name,
                expected,
                actual,
            } => write!(
                f,
                "entry `{name}` inflates to {actual} bytes; {expected} are declared"
            ),
            E::TrailingData { name } => {
                write!(f, "entry `{name}` has bytes after its deflate stream")
            }
            E::CorruptData { name } => {
                write!(f, "entry `{name}`: the deflate stream is corrupt or truncated")
            }
            E::CrcMismatch {
                name,
                expected,
                actual,
            } => write!(
                f,
                "entry `{name}`: CRC-32 is {actual:08x}; the header says {expected:08x}"
            ),
        }
    }
}
impl Message for WriteError {
    fn message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use WriteError as E;
        match self {
            E::Name(e) => {
                f.write_str("cannot write the zip: ")?;
                e.message(f)
            }
            E::NameTooLong { name } => write!(
                f,
                "cannot add `{name}` to the zip: the name is over 65,535 bytes"
            ),
            E::OutOfOrder { name, previous } => write!(
                f,
                "cannot add `{name}` to the zip after `{previous}`: entries must be sorted by name"
            ),
            E::TooManyEntries { limit } => write!(
                f,
                "the zip already has {limit} entries, the most without ZIP64"
            ),
            E::TooLarge { name } => write!(
                f,
                "cannot add `{name}` to the zip: it would reach 4 GiB, which needs ZIP64"
            ),
            E::StoredSizeMismatch { name } => write!(
                f,
                "cannot add `{name}` to the zip: the stored bytes are not the file's size"
            ),
        }
    }
}

/// An error's message before [`printable`].
trait Message {
    fn message(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// Writes a [`Message`] for [`printable`] to take.
struct Unescaped<'a, E>(&'a E);

impl<E: Message> fmt::Display for Unescaped<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.message(f)
    }
}

/// `Display` (the [`Message`] through [`printable`]) and `Error` for each
/// error type.
macro_rules! displayed_printable {
    ($($error:ty),*) => {$(
        impl fmt::Display for $error {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&printable(&Unescaped(self).to_string()))
            }
        }

        impl std::error::Error for $error {}
    )*};
}

displayed_printable!(NameError, ZipError, WriteError);

impl From<NameError> for ZipError {
    fn from(e: NameError) -> Self {
        ZipError::Name(e)
    }
}

impl From<NameError> for WriteError {
    fn from(e: NameError) -> Self {
        WriteError::Name(e)
    }
}

/// Untrusted text made safe to print: control characters (which could move
/// a terminal's cursor or rewrite its title) are shown as `\u{..}` escapes.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// `text` with every character outside ASCII as a `\u{..}` escape: how
/// two names that print alike are told apart.
fn code_points(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                c.escape_unicode().to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> String {
        s.to_string()
    }

    #[test]
    fn errors_name_the_entry() {
        let e = ZipError::SpecialFile {
            name: name("scripts/link"),
            kind: "symbolic link",
        };
        assert_eq!(
            e.to_string(),
            "entry `scripts/link` is a symbolic link; only regular files and directories are allowed"
        );
        let e = NameError::BadName {
            name: name("../x"),
            reason: PathError::ParentDir,
        };
        let message = "entry `../x`: the path contains `..`; it may not leave the skill directory";
        assert_eq!(e.to_string(), message);
        // One message for a name, whichever side refused it.
        assert_eq!(ZipError::Name(e.clone()).to_string(), message);
        assert_eq!(
            WriteError::Name(e).to_string(),
            format!("cannot write the zip: {message}")
        );
        assert_eq!(
            ZipError::Zip64 { name: None }.to_string(),
            "ZIP64 is not supported"
        );
    }

    /// Names may hold control characters, which every message escapes.
    #[test]
    fn messages_are_printable() {
        let bad = NameError::BadName {
            name: name("a\u{1b}]0;x\u{7}"),
            reason: PathError::Control,
        };
        let escaped = "entry `a\\u{1b}]0;x\\u{7}`: the path contains a control character";
        assert_eq!(bad.to_string(), escaped);
        assert_eq!(ZipError::Name(bad.clone()).to_string(), escaped);
        let out_of_order = WriteError::OutOfOrder {
            name: name("\u{9b}b"),
            previous: name("c"),
        };
        assert_eq!(
            out_of_order.to_string(),
            "cannot add `\\u{9b}b` to the zip after `c`: entries must be sorted by name"
        );
    }
}

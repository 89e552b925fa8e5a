//! The plain zip subset, as bytes: record signatures and lengths, flag
//! bits, compression methods, version numbers, Unix modes, the values that
//! mark ZIP64, and how the writer lays out the records.
//!
//! The reader checks archives against these values and the writer writes
//! them, so there is one set: a header the writer lays out is one the
//! reader parses, and the ZIP64 markers the reader refuses are the values
//! the writer stays below.

use super::time::DosTime;

pub(super) const LOCAL_SIG: u32 = 0x0403_4b50;
pub(super) const CENTRAL_SIG: u32 = 0x0201_4b50;
pub(super) const END_SIG: u32 = 0x0605_4b50;
pub(super) const ZIP64_LOCATOR_SIG: u32 = 0x0706_4b50;
pub(super) const LOCAL_LEN: usize = 30;
pub(super) const CENTRAL_LEN: usize = 46;
pub(super) const END_LEN: usize = 22;
pub(super) const ZIP64_LOCATOR_LEN: usize = 20;
pub(super) const MAX_COMMENT: usize = 0xFFFF;

/// A 16-bit count or disk number of this value says "see the ZIP64 record".
pub(super) const ZIP64_MARK_16: u16 = u16::MAX;
/// A 32-bit size or offset of this value says "see the ZIP64 record".
pub(super) const ZIP64_MARK_32: u32 = u32::MAX;

/// Flag bits that mean the entry is encrypted: traditional, strong, and
/// masked central-directory values.
pub(super) const FLAGS_ENCRYPTED: u16 = 1 | 1 << 6 | 1 << 13;
/// Flag bit 3: sizes and CRC follow the data instead of the local header.
pub(super) const FLAG_DATA_DESCRIPTOR: u16 = 1 << 3;
/// Flag bit 11: the name is UTF-8.
pub(super) const FLAG_UTF8: u16 = 1 << 11;
/// The Info-ZIP Unicode Path extra field.
pub(super) const UNICODE_PATH_FIELD: u16 = 0x7075;
/// The PKWARE Unix extra field: times, user, group, then a link target or
/// device numbers.
pub(super) const PKWARE_UNIX_FIELD: u16 = 0x000d;
/// The ASi Unix extra field: CRC-32, mode, size or device, user, group,
/// then a link target.
pub(super) const ASI_UNIX_FIELD: u16 = 0x756e;
/// libarchive's `xl` extra field, which carries "version made by" and the
/// external attributes in a local header.
pub(super) const XL_FIELD: u16 = 0x6c78;

/// DOS attribute bits, in the external attributes' low byte: a volume
/// label, and a directory.
pub(super) const DOS_VOLUME_LABEL: u32 = 0x08;
pub(super) const DOS_DIRECTORY: u32 = 0x10;

/// "Version made by" host for Unix, whose external attributes hold `st_mode`.
pub(super) const HOST_UNIX: u16 = 3;
/// Zip 2.0, the version that brought deflate: what the writer writes as
/// "version needed to extract", and the most the reader extracts (it reads
/// stored and deflated entries, and none of the later versions' features).
pub(super) const ZIP_VERSION: u16 = 20;
/// Unix host in the high byte, zip 2.0 in the low byte.
pub(super) const VERSION_MADE_BY: u16 = HOST_UNIX << 8 | ZIP_VERSION;

pub(super) const S_IFMT: u32 = 0o170_000;
pub(super) const S_IFREG: u32 = 0o100_000;
pub(super) const S_IFDIR: u32 = 0o040_000;
pub(super) const S_IFLNK: u32 = 0o120_000;
pub(super) const S_IFCHR: u32 = 0o020_000;
pub(super) const S_IFBLK: u32 = 0o060_000;
pub(super) const S_IFIFO: u32 = 0o010_000;
pub(super) const S_IFSOCK: u32 = 0o140_000;

/// How an entry's bytes are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Uncompressed (method 0).
    Stored,
    /// Raw deflate (method 8).
    Deflate,
}

impl Method {
    /// The method of a header's method number, if it is one of ours.
    pub(super) fn from_number(number: u16) -> Option<Method> {
        match number {
            0 => Some(Method::Stored),
            8 => Some(Method::Deflate),
            _ => None,
        }
    }

    /// The number a header stores.
    pub(super) fn number(self) -> u16 {
        match self {
            Method::Stored => 0,
            Method::Deflate => 8,
        }
    }
}

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File {
        /// Whether any execute bit is set (Unix hosts only).
        executable: bool,
    },
    /// A directory (the name ends with `/`).
    Dir,
}

impl Kind {
    /// The Unix mode written for this kind: `0o100644`, `0o100755` for an
    /// executable, `0o040755` for a directory.
    pub(super) fn mode(self) -> u32 {
        match self {
            Kind::File { executable: false } => S_IFREG | 0o644,
            Kind::File { executable: true } => S_IFREG | 0o755,
            Kind::Dir => S_IFDIR | 0o755,
        }
    }
}

/// The fields a local and a central header share, in the order both hold
/// them. `name` and `extra` are at most 65,535 bytes each (the writer
/// refuses longer names and writes no extras).
pub(super) struct Fields<'a> {
    pub(super) flags: u16,
    pub(super) method: u16,
    pub(super) time: DosTime,
    pub(super) crc32: u32,
    pub(super) compressed: u32,
    pub(super) size: u32,
    pub(super) name: &'a [u8],
    pub(super) extra: &'a [u8],
}

impl Fields<'_> {
    /// Appends a local header with these fields.
    pub(super) fn put_local(&self, out: &mut Vec<u8>) {
        put32(out, LOCAL_SIG);
        self.put_common(out);
        out.extend_from_slice(self.name);
        out.extend_from_slice(self.extra);
    }

    /// Appends a central header with these fields, no comment, disk 0 and
    /// internal attributes 0.
    pub(super) fn put_central(&self, out: &mut Vec<u8>, made_by: u16, external: u32, offset: u32) {
        put32(out, CENTRAL_SIG);
        put16(out, made_by);
        self.put_common(out);
        put16(out, 0); // comment length
        put16(out, 0); // disk number
        put16(out, 0); // internal attributes
        put32(out, external);
        put32(out, offset);
        out.extend_from_slice(self.name);
        out.extend_from_slice(self.extra);
    }

    fn put_common(&self, out: &mut Vec<u8>) {
        put16(out, ZIP_VERSION); // version needed
        put16(out, self.flags);
        put16(out, self.method);
        self.time.put(out);
        put32(out, self.crc32);
        put32(out, self.compressed);
        put32(out, self.size);
        put16(out, self.name.len() as u16);
        put16(out, self.extra.len() as u16);
    }
}

/// Appends the end-of-central-directory record of a one-disk archive with
/// `count` entries; `comment` is at most 65,535 bytes (the writer writes
/// none).
pub(super) fn put_end(out: &mut Vec<u8>, count: u16, cd_size: u32, cd_offset: u32, comment: &[u8]) {
    put32(out, END_SIG);
    put16(out, 0); // this disk
    put16(out, 0); // the central directory's disk
    put16(out, count);
    put16(out, count);
    put32(out, cd_size);
    put32(out, cd_offset);
    put16(out, comment.len() as u16);
    out.extend_from_slice(comment);
}

pub(super) fn put16(out: &mut Vec<u8>, value: u16) {
    out.extend_from_slice(&value.to_le_bytes());
}

pub(super) fn put32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// The little-endian `u16` at `at`, if the bytes are there.
pub(super) fn le16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

/// The little-endian `u32` at `at`, if the bytes are there.
pub(super) fn le32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

//! Reading zip archives that may be hostile.
//!
//! [`Archive::parse`] checks the whole structure before it hands out a
//! single entry, without inflating anything, and [`Entry::read`] inflates
//! one entry into a buffer of exactly its declared size and checks its
//! CRC-32. Nothing panics, indexes out of bounds or allocates from a size
//! it has not checked against [`Limits`] and the bytes at hand. The rules
//! are listed in the [module docs](super); names are checked by the one
//! set of name rules (`names.rs`) as each entry is parsed.

use std::ops::Range;

use super::attrs;
use super::error::ZipError;
use super::format::{
    CENTRAL_LEN, CENTRAL_SIG, END_LEN, END_SIG, FLAG_DATA_DESCRIPTOR, FLAGS_ENCRYPTED, Kind,
    LOCAL_LEN, LOCAL_SIG, MAX_COMMENT, Method, ZIP_VERSION, ZIP64_LOCATOR_LEN, ZIP64_LOCATOR_SIG,
    ZIP64_MARK_16, ZIP64_MARK_32, le16, le32,
};
use super::names::Names;
use crate::deflate::{self, InflateError};

/// Entries, and archives, of at most this many uncompressed bytes are
/// exempt from the ratio check: a small file (a page of zeros) may
/// legitimately compress a thousandfold, and cannot inflate to much.
pub const RATIO_EXEMPT: u64 = 1 << 20;

/// Bounds on what [`Archive::parse`] accepts, checked on the declared sizes
/// before anything is inflated.
///
/// The defaults are sized for skills, from the shared corpus of 454 real
/// skills (2,323 files, 22.2 MB): its largest file is 242 KB, its largest
/// skill 1.0 MB, all 454 together 22.2 MB, and no file deflates better than
/// 12:1. Each default leaves a wide margin over those (64 times the largest
/// file, 11 times the whole corpus, 8 times the best ratio) and stays far
/// below what deflate allows (1,032:1, so a 200 KB archive can claim
/// 200 MB). The `skb` CLI raises each with a flag (`--max-entries`,
/// `--max-entry-size`, `--max-total-size`, `--max-ratio`); a library
/// passes its own `Limits`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Most entries, directories included. Default 100,000.
    pub max_entries: usize,
    /// Largest uncompressed size of one entry. Default 16 MiB.
    pub max_entry_size: u64,
    /// Largest sum of uncompressed sizes. Default 256 MiB.
    pub max_total_size: u64,
    /// Largest uncompressed/compressed ratio, of each entry over
    /// [`RATIO_EXEMPT`] and of the whole archive when its entries add up to
    /// more (so that many small entries cannot add up to a bomb). Default
    /// 100.
    pub max_ratio: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

impl Limits {
    /// The defaults, as a constant (what [`Limits::default`] returns).
    pub const DEFAULT: Limits = Limits {
        max_entries: 100_000,
        max_entry_size: 16 << 20,
        max_total_size: 256 << 20,
        max_ratio: 100,
    };

    /// These limits with [`max_entries`](Limits::max_entries) set to `n`.
    pub const fn with_max_entries(mut self, n: usize) -> Limits {
        self.max_entries = n;
        self
    }

    /// These limits with [`max_entry_size`](Limits::max_entry_size) set to `bytes`.
    pub const fn with_max_entry_size(mut self, bytes: u64) -> Limits {
        self.max_entry_size = bytes;
        self
    }

    /// These limits with [`max_total_size`](Limits::max_total_size) set to `bytes`.
    pub const fn with_max_total_size(mut self, bytes: u64) -> Limits {
        self.max_total_size = bytes;
        self
    }

    /// These limits with [`max_ratio`](Limits::max_ratio) set to `ratio`.
    pub const fn with_max_ratio(mut self, ratio: u64) -> Limits {
        self.max_ratio = ratio;
        self
    }
}

/// One entry of a parsed [`Archive`]: metadata and where its bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The name as stored: a normal path, with a trailing `/` for directories.
    pub name: String,
    /// How [`data`](Entry::data) is stored.
    pub method: Method,
    /// CRC-32 of the uncompressed bytes.
    pub crc32: u32,
    /// The compressed bytes, as a range of the archive.
    pub data: Range<usize>,
    /// The uncompressed size.
    pub size: u64,
    /// File or directory.
    pub kind: Kind,
}

impl Entry {
    /// The path without a directory's trailing `/`.
    pub fn path(&self) -> &str {
        self.name.strip_suffix('/').unwrap_or(&self.name)
    }

    /// Reads the entry out of `archive`, the bytes it was parsed from:
    /// inflates into a buffer of exactly [`size`](Entry::size) bytes and
    /// checks the size and the CRC-32.
    pub fn read(&self, archive: &[u8]) -> Result<Vec<u8>, ZipError> {
        let name = || self.name.clone();
        let data = archive
            .get(self.data.clone())
            .ok_or_else(|| ZipError::DataOutOfBounds { name: name() })?;
        let size = usize::try_from(self.size).map_err(|_| ZipError::EntryTooLarge {
            name: name(),
            size: self.size,
            limit: usize::MAX as u64,
        })?;
        let bytes = match self.method {
            Method::Stored if data.len() == size => data.to_vec(),
            Method::Stored => return Err(ZipError::StoredSizeMismatch { name: name() }),
            Method::Deflate => inflate(data, size, &self.name)?,
        };
        let actual = crc32fast::hash(&bytes);
        if actual != self.crc32 {
            return Err(ZipError::CrcMismatch {
                name: name(),
                expected: self.crc32,
                actual,
            });
        }
        Ok(bytes)
    }
}

/// Inflates raw deflate `data` that must produce exactly `size` bytes.
fn inflate(data: &[u8], size: usize, name: &str) -> Result<Vec<u8>, ZipError> {
    deflate::inflate(data, size).map_err(|e| match e {
        InflateError::Short(actual) => ZipError::ShortData {
            name: name.to_string(),
            expected: size as u64,
            actual: actual as u64,
        },
        InflateError::Trailing => ZipError::TrailingData {
            name: name.to_string(),
        },
        InflateError::TooMuch => ZipError::TooMuchData {
            name: name.to_string(),
            size: size as u64,
        },
        InflateError::Corrupt => ZipError::CorruptData {
            name: name.to_string(),
        },
    })
}

/// A checked zip archive: its entries, which point into the bytes it was
/// parsed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archive {
    entries: Vec<Entry>,
}

impl Archive {
    /// Parses and checks `bytes` (see the module docs for every rule).
    /// Nothing is inflated; [`Entry::read`] does that, one entry at a time.
    pub fn parse(bytes: &[u8], limits: &Limits) -> Result<Archive, ZipError> {
        let end = EndRecord::find(bytes)?;
        let headers = central_headers(bytes, &end, limits)?;
        let mut entries = Vec::with_capacity(headers.len());
        let mut spans = Vec::with_capacity(headers.len());
        let mut names = Names::default();
        let mut total: u64 = 0;
        let mut compressed: u64 = 0;
        for header in &headers {
            let (entry, span) = header.entry(bytes, end.cd_start, limits, &mut names)?;
            total = total.saturating_add(entry.size);
            compressed = compressed.saturating_add(entry.data.len() as u64);
            if total > limits.max_total_size {
                return Err(ZipError::TotalTooLarge {
                    limit: limits.max_total_size,
                });
            }
            spans.push(span);
            entries.push(entry);
        }
        if over_ratio(total, compressed, limits) {
            return Err(ZipError::ArchiveRatioTooHigh {
                size: total,
                compressed,
                limit: limits.max_ratio,
            });
        }
        check_overlaps(&entries, &spans)?;
        Ok(Archive { entries })
    }

    /// Every entry, in central-directory order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry named exactly `name` (directories end with `/`), by a
    /// linear scan.
    pub fn find(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// Whether `size` bytes held in `compressed` are over the ratio limit
/// (never when `size` is at most [`RATIO_EXEMPT`]).
fn over_ratio(size: u64, compressed: u64, limits: &Limits) -> bool {
    size > RATIO_EXEMPT && size / compressed.max(1) > limits.max_ratio
}

/// The end-of-central-directory record, checked.
struct EndRecord {
    cd_start: usize,
    cd_end: usize,
    count: usize,
}

impl EndRecord {
    /// Finds the one record whose comment reaches exactly the end of the file.
    fn find(bytes: &[u8]) -> Result<EndRecord, ZipError> {
        let last = bytes
            .len()
            .checked_sub(END_LEN)
            .ok_or(ZipError::NoEndRecord)?;
        let lowest = last.saturating_sub(MAX_COMMENT);
        let mut found = None;
        let mut signature_seen = false;
        for at in (lowest..=last).rev() {
            if le32(bytes, at) != Some(END_SIG) {
                continue;
            }
            signature_seen = true;
            let comment = le16(bytes, at + 20).map_or(0, usize::from);
            if at + END_LEN + comment == bytes.len() {
                if found.is_some() {
                    return Err(ZipError::AmbiguousEnd);
                }
                found = Some(at);
            }
        }
        let at = match found {
            Some(at) => at,
            None if signature_seen => return Err(ZipError::CommentLength),
            None => return Err(ZipError::NoEndRecord),
        };
        let field16 = |off: usize| le16(bytes, at + off).unwrap_or(0);
        let field32 = |off: usize| le32(bytes, at + off).unwrap_or(0);
        let (disk, cd_disk, disk_count, count) = (field16(4), field16(6), field16(8), field16(10));
        let (cd_size, cd_offset) = (field32(12), field32(16));
        let locator = at
            .checked_sub(ZIP64_LOCATOR_LEN)
            .and_then(|l| le32(bytes, l));
        if [disk, cd_disk, disk_count, count].contains(&ZIP64_MARK_16)
            || cd_size == ZIP64_MARK_32
            || cd_offset == ZIP64_MARK_32
            || locator == Some(ZIP64_LOCATOR_SIG)
        {
            return Err(ZipError::Zip64 { name: None });
        }
        if disk != 0 || cd_disk != 0 || disk_count != count {
            return Err(ZipError::MultiDisk);
        }
        let cd_start = cd_offset as usize;
        let cd_end = cd_start.checked_add(cd_size as usize);
        if cd_end != Some(at) {
            return Err(ZipError::CentralDirectoryBounds);
        }
        Ok(EndRecord {
            cd_start,
            cd_end: at,
            count: usize::from(count),
        })
    }
}

/// One central-directory header, borrowed from the archive.
struct Header<'a> {
    index: usize,
    made_by: u16,
    version_needed: u16,
    flags: u16,
    method: u16,
    crc32: u32,
    compressed: u32,
    size: u32,
    name: &'a [u8],
    extra: &'a [u8],
    disk: u16,
    external: u32,
    offset: u32,
}

/// Splits the central directory into headers, checking signatures, bounds
/// and the count.
fn central_headers<'a>(
    bytes: &'a [u8],
    end: &EndRecord,
    limits: &Limits,
) -> Result<Vec<Header<'a>>, ZipError> {
    if end.count > limits.max_entries {
        return Err(ZipError::TooManyEntries {
            count: end.count,
            limit: limits.max_entries,
        });
    }
    let cd = bytes
        .get(end.cd_start..end.cd_end)
        .ok_or(ZipError::CentralDirectoryBounds)?;
    let mut headers = Vec::with_capacity(end.count.min(cd.len() / CENTRAL_LEN));
    let mut at = 0;
    while at < cd.len() {
        let index = headers.len();
        if index >= end.count {
            return Err(ZipError::EntryCountMismatch {
                declared: end.count,
                found: index + 1,
            });
        }
        let (header, next) = Header::parse(cd, at, index)?;
        headers.push(header);
        at = next;
    }
    if headers.len() != end.count {
        return Err(ZipError::EntryCountMismatch {
            declared: end.count,
            found: headers.len(),
        });
    }
    Ok(headers)
}

impl<'a> Header<'a> {
    /// Parses the header at `at` in `cd`; returns it and where the next starts.
    fn parse(cd: &'a [u8], at: usize, index: usize) -> Result<(Header<'a>, usize), ZipError> {
        let bad = ZipError::BadCentralHeader { index };
        let fixed = cd.get(at..at + CENTRAL_LEN).ok_or(bad.clone())?;
        let f16 = |off| le16(fixed, off).unwrap_or(0);
        let f32 = |off| le32(fixed, off).unwrap_or(0);
        if f32(0) != CENTRAL_SIG {
            return Err(bad);
        }
        let name_start = at + CENTRAL_LEN;
        let extra_start = name_start + usize::from(f16(28));
        let comment_start = extra_start + usize::from(f16(30));
        let next = comment_start + usize::from(f16(32));
        if next > cd.len() {
            return Err(bad);
        }
        let header = Header {
            index,
            made_by: f16(4),
            version_needed: f16(6),
            flags: f16(8),
            method: f16(10),
            crc32: f32(16),
            compressed: f32(20),
            size: f32(24),
            name: cd.get(name_start..extra_start).ok_or(bad.clone())?,
            extra: cd.get(extra_start..comment_start).ok_or(bad)?,
            disk: f16(34),
            external: f32(38),
            offset: f32(42),
        };
        Ok((header, next))
    }

    /// Checks this header and its local header; returns the entry and the
    /// byte span from its local header to the end of its data.
    fn entry(
        &self,
        bytes: &[u8],
        cd_start: usize,
        limits: &Limits,
        names: &mut Names,
    ) -> Result<(Entry, Range<usize>), ZipError> {
        let name = std::str::from_utf8(self.name)
            .map_err(|_| ZipError::NameNotUtf8 {
                index: self.index,
                lossy: String::from_utf8_lossy(self.name).into_owned(),
            })?
            .to_string();
        if [self.compressed, self.size, self.offset].contains(&ZIP64_MARK_32)
            || self.disk == ZIP64_MARK_16
        {
            return Err(ZipError::Zip64 { name: Some(name) });
        }
        if self.disk != 0 {
            return Err(ZipError::MultiDisk);
        }
        if self.flags & FLAGS_ENCRYPTED != 0 {
            return Err(ZipError::Encrypted { name });
        }
        if self.flags & FLAG_DATA_DESCRIPTOR != 0 {
            return Err(ZipError::DataDescriptor { name });
        }
        let Some(method) = Method::from_number(self.method) else {
            let method = self.method;
            return Err(ZipError::UnsupportedMethod { name, method });
        };
        if self.version_needed > ZIP_VERSION {
            let needed = self.version_needed;
            return Err(ZipError::VersionNeeded { name, needed });
        }
        let kind = attrs::kind(&name, self.made_by, self.external, self.extra)?;
        names.add(&name, kind)?;
        let size = u64::from(self.size);
        let compressed = u64::from(self.compressed);
        if kind == Kind::Dir && size != 0 {
            return Err(ZipError::DirWithData { name });
        }
        if method == Method::Stored && compressed != size {
            return Err(ZipError::StoredSizeMismatch { name });
        }
        // The ratio first: a bomb is named as one, whatever its size.
        if over_ratio(size, compressed, limits) {
            return Err(ZipError::RatioTooHigh {
                name,
                size,
                compressed,
                limit: limits.max_ratio,
            });
        }
        if size > limits.max_entry_size {
            return Err(ZipError::EntryTooLarge {
                name,
                size,
                limit: limits.max_entry_size,
            });
        }
        let (span, data) = self.local(bytes, cd_start, &name)?;
        let entry = Entry {
            name,
            method,
            crc32: self.crc32,
            data,
            size,
            kind,
        };
        Ok((entry, span))
    }

    /// Checks the local header against this one; returns the span from the
    /// local header to the end of the data, and the data's range.
    fn local(
        &self,
        bytes: &[u8],
        cd_start: usize,
        name: &str,
    ) -> Result<(Range<usize>, Range<usize>), ZipError> {
        let bad = || ZipError::BadLocalHeader {
            name: name.to_string(),
        };
        let start = self.offset as usize;
        let fixed = bytes
            .get(start..start.checked_add(LOCAL_LEN).ok_or_else(bad)?)
            .ok_or_else(bad)?;
        let f16 = |off| le16(fixed, off).unwrap_or(0);
        let f32 = |off| le32(fixed, off).unwrap_or(0);
        if f32(0) != LOCAL_SIG {
            return Err(bad());
        }
        let name_start = start + LOCAL_LEN;
        let extra_start = name_start + usize::from(f16(26));
        let data_start = extra_start + usize::from(f16(28));
        let data_end = data_start
            .checked_add(self.compressed as usize)
            .filter(|&end| end <= cd_start)
            .ok_or_else(|| ZipError::DataOutOfBounds {
                name: name.to_string(),
            })?;
        let local_name = bytes.get(name_start..extra_start).ok_or_else(bad)?;
        let local_extra = bytes.get(extra_start..data_start).ok_or_else(bad)?;
        let mismatch = [
            ("name", local_name != self.name),
            ("version needed to extract", f16(4) != self.version_needed),
            ("flags", f16(6) != self.flags),
            ("method", f16(8) != self.method),
            ("CRC-32", f32(14) != self.crc32),
            ("compressed size", f32(18) != self.compressed),
            ("size", f32(22) != self.size),
        ]
        .into_iter()
        .find(|&(_, differs)| differs);
        if let Some((field, _)) = mismatch {
            return Err(ZipError::LocalHeaderMismatch {
                name: name.to_string(),
                field,
            });
        }
        attrs::check_extra(name, local_extra)?;
        Ok((start..data_end, data_start..data_end))
    }
}

/// Refuses entries whose local header and data share bytes with another's.
fn check_overlaps(entries: &[Entry], spans: &[Range<usize>]) -> Result<(), ZipError> {
    let mut order: Vec<(&Range<usize>, &Entry)> = spans.iter().zip(entries).collect();
    order.sort_by_key(|(span, _)| span.start);
    for pair in order.windows(2) {
        let [(a_span, a), (b_span, b)] = pair else {
            continue;
        };
        if b_span.start < a_span.end {
            return Err(ZipError::Overlap {
                name: b.name.clone(),
                other: a.name.clone(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::PathError;
    use crate::zip::error::NameError;
    use crate::zip::format::{FLAG_UTF8, Fields, VERSION_MADE_BY, put_end};
    use crate::zip::time::DosTime;

    /// One entry for the test builder; each field goes to both headers.
    #[derive(Clone)]
    struct Spec {
        name: Vec<u8>,
        stored: Vec<u8>,
        method: u16,
        flags: u16,
        crc: u32,
        compressed: u32,
        size: u32,
        made_by: u16,
        external: u32,
        extra: Vec<u8>,
    }

    impl Spec {
        fn stored(name: &str, data: &[u8]) -> Spec {
            Spec {
                name: name.as_bytes().to_vec(),
                stored: data.to_vec(),
                method: 0,
                flags: FLAG_UTF8,
                crc: crc32fast::hash(data),
                compressed: data.len() as u32,
                size: data.len() as u32,
                made_by: VERSION_MADE_BY,
                external: Kind::File { executable: false }.mode() << 16,
                extra: Vec::new(),
            }
        }

        fn deflated(name: &str, data: &[u8]) -> Spec {
            let stored = miniz_oxide::deflate::compress_to_vec(data, 6);
            Spec {
                compressed: stored.len() as u32,
                stored,
                method: 8,
                ..Spec::stored(name, data)
            }
        }

        fn dir(name: &str) -> Spec {
            Spec::stored(name, b"").mode(Kind::Dir.mode())
        }

        fn mode(self, mode: u32) -> Spec {
            self.with(|s| s.external = mode << 16)
        }

        fn with(mut self, change: impl FnOnce(&mut Spec)) -> Spec {
            change(&mut self);
            self
        }

        fn local(&self) -> Vec<u8> {
            let mut b = Vec::new();
            self.fields().put_local(&mut b);
            b.extend_from_slice(&self.stored);
            b
        }

        fn central(&self, offset: u32) -> Vec<u8> {
            let mut b = Vec::new();
            let fields = self.fields();
            fields.put_central(&mut b, self.made_by, self.external, offset);
            b
        }

        fn fields(&self) -> Fields<'_> {
            Fields {
                flags: self.flags,
                method: self.method,
                time: DosTime::EPOCH,
                crc32: self.crc,
                compressed: self.compressed,
                size: self.size,
                name: &self.name,
                extra: &self.extra,
            }
        }
    }

    /// Where the builder put things.
    struct Built {
        bytes: Vec<u8>,
        locals: Vec<usize>,
        centrals: Vec<usize>,
        end: usize,
    }

    /// `body`, then a central header for each (spec, local header offset),
    /// then the end record with `comment`.
    fn assemble(mut bytes: Vec<u8>, headers: &[(Spec, usize)], comment: &[u8]) -> Built {
        let cd_start = bytes.len();
        let mut centrals = Vec::new();
        for (spec, offset) in headers {
            centrals.push(bytes.len());
            bytes.extend(spec.central(*offset as u32));
        }
        let end = bytes.len();
        let (count, cd_size) = (headers.len() as u16, (end - cd_start) as u32);
        put_end(&mut bytes, count, cd_size, cd_start as u32, comment);
        let locals = headers.iter().map(|(_, offset)| *offset).collect();
        Built {
            bytes,
            locals,
            centrals,
            end,
        }
    }

    fn build(specs: &[Spec]) -> Built {
        let mut body = Vec::new();
        let mut headers = Vec::new();
        for spec in specs {
            headers.push((spec.clone(), body.len()));
            body.extend(spec.local());
        }
        assemble(body, &headers, b"")
    }

    fn parse(bytes: &[u8]) -> Result<Archive, ZipError> {
        Archive::parse(bytes, &Limits::default())
    }

    fn err(specs: &[Spec]) -> ZipError {
        parse(&build(specs).bytes).unwrap_err()
    }

    fn name_err(specs: &[Spec]) -> NameError {
        match err(specs) {
            ZipError::Name(e) => e,
            other => panic!("not a name error: {other:?}"),
        }
    }

    fn set16(bytes: &mut [u8], at: usize, value: u16) {
        bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
    }

    fn set32(bytes: &mut [u8], at: usize, value: u32) {
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }

    fn sample() -> Vec<Spec> {
        vec![
            Spec::stored("SKILL.md", b"---\nname: x\n---\nbody\n"),
            Spec::dir("scripts/"),
            Spec::deflated("scripts/run.sh", &b"echo hello\n".repeat(20)).mode(0o100_755),
            Spec::stored("z", b""),
        ]
    }

    fn name(s: &str) -> String {
        s.to_string()
    }

    #[test]
    fn parses_and_reads_every_kind_of_entry() {
        let bytes = build(&sample()).bytes;
        let archive = parse(&bytes).unwrap();
        let names: Vec<_> = archive.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["SKILL.md", "scripts/", "scripts/run.sh", "z"]);
        let script = archive.find("scripts/run.sh").unwrap();
        assert_eq!(script.method, Method::Deflate);
        assert_eq!(script.kind, Kind::File { executable: true });
        assert_eq!(script.read(&bytes).unwrap(), b"echo hello\n".repeat(20));
        let dir = archive.find("scripts/").unwrap();
        assert_eq!((dir.kind, dir.path()), (Kind::Dir, "scripts"));
        assert_eq!(dir.read(&bytes).unwrap(), b"");
        let md = archive.find("SKILL.md").unwrap();
        assert_eq!(md.kind, Kind::File { executable: false });
        assert_eq!(md.read(&bytes).unwrap(), b"---\nname: x\n---\nbody\n");
        assert!(archive.find("scripts").is_none());
        assert!(parse(&build(&[]).bytes).unwrap().entries().is_empty());
    }

    #[test]
    fn inflates_into_exactly_the_declared_size() {
        for n in [0, 1, 100, 65_535, 65_536, 300_001] {
            let data: Vec<u8> = (0..n).map(|i| (i % 251) as u8 ^ (i / 1000) as u8).collect();
            let spec = Spec::deflated("f", &data);
            let bytes = build(&[spec]).bytes;
            let archive = parse(&bytes).unwrap();
            assert_eq!(archive.entries()[0].read(&bytes).unwrap(), data, "{n}");
        }
    }

    /// Hosts other than Unix give files that are not executable; a zero
    /// mode is a file, or a directory by its name. Every host's attributes
    /// are checked (`attrs.rs` tries them all): the FAT-host link
    /// is refused here, in a whole archive.
    #[test]
    fn hosts_other_than_unix() {
        let dos = |s: Spec, low: u32| {
            let mode = s.external;
            s.with(|s| s.made_by = 20).with(|s| s.external = mode | low)
        };
        let specs = [
            dos(Spec::dir("d/"), 0x10),
            dos(Spec::stored("d/x", b"1").mode(0o100_755), 0x20),
        ];
        let archive = parse(&build(&specs).bytes).unwrap();
        assert_eq!(archive.entries()[0].kind, Kind::Dir);
        assert_eq!(archive.entries()[1].kind, Kind::File { executable: false });
        let zero = |s: Spec| s.mode(0);
        let bytes = build(&[zero(Spec::dir("d/")), zero(Spec::stored("d/x", b"1"))]).bytes;
        let archive = parse(&bytes).unwrap();
        assert_eq!(archive.entries()[0].kind, Kind::Dir);
        assert_eq!(archive.entries()[1].kind, Kind::File { executable: false });
        let link = dos(Spec::stored("l", b"/etc/passwd").mode(0o120_644), 0);
        let expected = ZipError::SpecialFile {
            name: name("l"),
            kind: "symbolic link",
        };
        assert_eq!(err(&[link]), expected);
    }

    /// `unzip` skips an entry that needs a later version than it has
    /// (4.6 here), Python refuses an archive with one above 6.3, and
    /// `unzip` asks before extracting one that names VMS; the reader
    /// extracts 2.0.
    #[test]
    fn version_needed_to_extract() {
        let with_version = |needed: u16| {
            let built = build(&sample());
            let mut bytes = built.bytes;
            set16(&mut bytes, built.locals[2] + 4, needed);
            set16(&mut bytes, built.centrals[2] + 6, needed);
            bytes
        };
        for needed in [0, 10, 20] {
            assert!(parse(&with_version(needed)).is_ok(), "{needed}");
        }
        for needed in [21, 45, 46, 51, 63, 64, 0x0214, 0x0314] {
            let expected = ZipError::VersionNeeded {
                name: name("scripts/run.sh"),
                needed,
            };
            assert_eq!(parse(&with_version(needed)), Err(expected), "{needed:#06x}");
        }
        // A streaming reader (libarchive's) reads the local header's.
        let built = build(&sample());
        let mut bytes = built.bytes;
        set16(&mut bytes, built.locals[2] + 4, 10);
        let expected = ZipError::LocalHeaderMismatch {
            name: name("scripts/run.sh"),
            field: "version needed to extract",
        };
        assert_eq!(parse(&bytes), Err(expected));
    }

    /// A local header's extra fields are checked as the central header's
    /// are (libarchive's `xl` field lives there).
    #[test]
    fn local_extra_fields_are_checked() {
        let xl_link = [0x78, 0x6c, 7, 0, 5, 0x14, 0x03, 0, 0, 0xff, 0xa1];
        let local_only = |extra: &[u8]| {
            let spec = Spec::stored("a", b"x");
            let mut local = Vec::new();
            spec.clone()
                .with(|s| s.extra = extra.to_vec())
                .fields()
                .put_local(&mut local);
            local.extend_from_slice(&spec.stored);
            assemble(local, &[(spec, 0)], b"").bytes
        };
        let expected = ZipError::SpecialExtraField {
            name: name("a"),
            field: 0x6c78,
            kind: "symbolic link",
        };
        assert_eq!(parse(&local_only(&xl_link)), Err(expected));
        let expected = ZipError::BadExtraField {
            name: name("a"),
            field: 0x5455,
        };
        assert_eq!(parse(&local_only(&[0x55, 0x54, 9, 0, 1])), Err(expected));
    }

    #[test]
    fn end_record_must_exist_and_end_the_file() {
        assert_eq!(parse(b""), Err(ZipError::NoEndRecord));
        assert_eq!(
            parse(b"not a zip at all, just some text"),
            Err(ZipError::NoEndRecord)
        );
        let mut bytes = build(&sample()).bytes;
        bytes.push(0);
        assert_eq!(parse(&bytes), Err(ZipError::CommentLength));
        let built = build(&sample());
        let mut bytes = built.bytes;
        set16(&mut bytes, built.end + 20, 5);
        assert_eq!(parse(&bytes), Err(ZipError::CommentLength));
        // A comment that ends with a second, empty-comment end record.
        let mut fake = END_SIG.to_le_bytes().to_vec();
        fake.resize(END_LEN, 0);
        let specs = sample();
        let body: Vec<u8> = specs.iter().flat_map(Spec::local).collect();
        let mut offsets = Vec::new();
        let mut at = 0;
        for s in &specs {
            offsets.push((s.clone(), at));
            at += s.local().len();
        }
        let built = assemble(body, &offsets, &fake);
        assert_eq!(parse(&built.bytes), Err(ZipError::AmbiguousEnd));
        // A comment without one is fine.
        let built = assemble(built.bytes[..built.locals.len()].to_vec(), &[], b"hi");
        assert!(parse(&built.bytes).is_ok());
    }

    #[test]
    fn zip64_is_refused() {
        for (field, value) in [
            (8, 0xFFFF_u32),
            (10, 0xFFFF),
            (12, u32::MAX),
            (16, u32::MAX),
        ] {
            let built = build(&sample());
            let mut bytes = built.bytes;
            if field < 12 {
                set16(&mut bytes, built.end + field, value as u16);
            } else {
                set32(&mut bytes, built.end + field, value);
            }
            assert_eq!(
                parse(&bytes),
                Err(ZipError::Zip64 { name: None }),
                "{field}"
            );
        }
        let built = build(&sample());
        let mut bytes = built.bytes;
        let mut locator = ZIP64_LOCATOR_SIG.to_le_bytes().to_vec();
        locator.resize(ZIP64_LOCATOR_LEN, 0);
        bytes.splice(built.end..built.end, locator);
        assert_eq!(parse(&bytes), Err(ZipError::Zip64 { name: None }));
        for at in [20, 24, 42] {
            let built = build(&sample());
            let mut bytes = built.bytes;
            set32(&mut bytes, built.centrals[0] + at, u32::MAX);
            let expected = ZipError::Zip64 {
                name: Some(name("SKILL.md")),
            };
            assert_eq!(parse(&bytes), Err(expected), "{at}");
        }
    }

    #[test]
    fn multi_disk_is_refused() {
        for field in [4, 6] {
            let built = build(&sample());
            let mut bytes = built.bytes;
            set16(&mut bytes, built.end + field, 1);
            assert_eq!(parse(&bytes), Err(ZipError::MultiDisk));
        }
        let built = build(&sample());
        let mut bytes = built.bytes;
        set16(&mut bytes, built.end + 8, 3);
        assert_eq!(parse(&bytes), Err(ZipError::MultiDisk));
        let built = build(&sample());
        let mut bytes = built.bytes;
        set16(&mut bytes, built.centrals[1] + 34, 1);
        assert_eq!(parse(&bytes), Err(ZipError::MultiDisk));
    }

    #[test]
    fn central_directory_must_end_at_the_end_record() {
        for delta in [1u32, u32::MAX - 1] {
            let built = build(&sample());
            let mut bytes = built.bytes;
            let offset = built.centrals[0] as u32;
            set32(&mut bytes, built.end + 16, offset.wrapping_add(delta));
            assert_eq!(parse(&bytes), Err(ZipError::CentralDirectoryBounds));
        }
        let built = build(&sample());
        let mut bytes = built.bytes;
        let size = (built.end - built.centrals[0]) as u32;
        set32(&mut bytes, built.end + 12, size + 1);
        assert_eq!(parse(&bytes), Err(ZipError::CentralDirectoryBounds));
    }

    #[test]
    fn entry_count_is_checked() {
        let bytes = build(&sample()).bytes;
        let limits = Limits {
            max_entries: 3,
            ..Limits::default()
        };
        assert_eq!(
            Archive::parse(&bytes, &limits),
            Err(ZipError::TooManyEntries { count: 4, limit: 3 })
        );
        for (declared, found) in [(3, 4), (5, 4), (0, 1)] {
            let built = build(&sample());
            let mut bytes = built.bytes;
            set16(&mut bytes, built.end + 8, declared as u16);
            set16(&mut bytes, built.end + 10, declared as u16);
            let expected = ZipError::EntryCountMismatch { declared, found };
            assert_eq!(parse(&bytes), Err(expected));
        }
    }

    #[test]
    fn central_headers_are_checked() {
        let built = build(&sample());
        let mut bytes = built.bytes;
        bytes[built.centrals[1]] = b'X';
        assert_eq!(parse(&bytes), Err(ZipError::BadCentralHeader { index: 1 }));
        let built = build(&sample());
        let mut bytes = built.bytes;
        set16(&mut bytes, built.centrals[3] + 30, 1000); // extra length
        assert_eq!(parse(&bytes), Err(ZipError::BadCentralHeader { index: 3 }));
    }

    #[test]
    fn encryption_and_data_descriptors_are_refused() {
        for flag in [1, 1 << 6 | 1, 1 << 13] {
            let spec = Spec::stored("a", b"x").with(|s| s.flags |= flag);
            assert_eq!(err(&[spec]), ZipError::Encrypted { name: name("a") });
        }
        let spec = Spec::deflated("a", b"xxxxxxxxxx").with(|s| s.flags |= 1 << 3);
        assert_eq!(err(&[spec]), ZipError::DataDescriptor { name: name("a") });
    }

    #[test]
    fn only_stored_and_deflate() {
        let spec = Spec::stored("a", b"x").with(|s| s.method = 12);
        let expected = ZipError::UnsupportedMethod {
            name: name("a"),
            method: 12,
        };
        assert_eq!(err(&[spec]), expected);
    }

    #[test]
    fn unicode_path_fields_are_refused() {
        let field = [0x75, 0x70, 3, 0, 1, 0xAA, 0xBB];
        let spec =
            Spec::stored("a", b"x").with(|s| s.extra = [&[0xCA, 0xFE, 0, 0][..], &field].concat());
        assert_eq!(err(&[spec]), ZipError::UnicodePathField { name: name("a") });
        // Other extra fields are ignored; one that runs past the block is
        // refused (Python refuses the archive).
        let spec = Spec::stored("a", b"x").with(|s| s.extra = vec![0x55, 0x54, 1, 0, 1]);
        assert!(parse(&build(&[spec]).bytes).is_ok());
        let spec = Spec::stored("a", b"x").with(|s| s.extra = vec![0x55, 0x54, 9, 0, 1]);
        let expected = ZipError::BadExtraField {
            name: name("a"),
            field: 0x5455,
        };
        assert_eq!(err(&[spec]), expected);
    }

    #[test]
    fn names_must_be_utf8() {
        let spec = Spec::stored("a", b"x").with(|s| s.name = b"caf\xe9".to_vec());
        let expected = ZipError::NameNotUtf8 {
            index: 0,
            lossy: name("caf\u{FFFD}"),
        };
        assert_eq!(err(&[spec]), expected);
        // UTF-8 without flag bit 11 is read as UTF-8.
        let spec = Spec::stored("café", b"x").with(|s| s.flags = 0);
        assert!(parse(&build(&[spec]).bytes).unwrap().find("café").is_some());
    }

    /// An entry named `…/` is a directory, any other a file, all empty.
    fn named(names: &[&str]) -> Vec<Spec> {
        let spec = |n: &&str| match n.ends_with('/') {
            true => Spec::dir(n),
            false => Spec::stored(n, b""),
        };
        names.iter().map(spec).collect()
    }

    /// The reader applies the name rules (`names.rs`, whose tests try them
    /// all) to files and directories, in central-directory order, and
    /// names the later entry of a pair.
    #[test]
    fn names_follow_the_name_rules() {
        let (nfc, nfd) = ("caf\u{e9}.txt", "cafe\u{301}.txt");
        let bad = |n: &str, reason| NameError::BadName {
            name: name(n),
            reason,
        };
        let not_normal = |n: &str, normal: &str| NameError::NameNotNormal {
            name: name(n),
            normal: name(normal),
        };
        let prefix = |file: &str, entry: &str| NameError::FileIsPrefix {
            file: name(file),
            entry: name(entry),
        };
        let rows: [(&[&str], NameError); 19] = [
            (&["../x"], bad("../x", PathError::ParentDir)),
            (&["a\0b"], bad("a\0b", PathError::Control)),
            (&["../"], bad("../", PathError::ParentDir)),
            (&["/"], bad("/", PathError::EmptyComponent)),
            (&["./a"], not_normal("./a", "a")),
            (&["a/./b"], not_normal("a/./b", "a/b")),
            (&["a//"], not_normal("a//", "a")),
            (&["a", "a"], NameError::DuplicateName { name: name("a") }),
            (&["d/", "d/"], NameError::DuplicateName { name: name("d/") }),
            (&["d", "d/"], NameError::DirFileConflict { name: name("d") }),
            (
                &["Read.md", "README.md", "read.md"],
                NameError::CaseCollision {
                    name: name("read.md"),
                    other: name("Read.md"),
                },
            ),
            (
                &["Docs/", "docs"],
                NameError::CaseCollision {
                    name: name("docs"),
                    other: name("Docs/"),
                },
            ),
            (
                &[nfc, nfd],
                NameError::NormalizationCollision {
                    name: name(nfd),
                    other: name(nfc),
                },
            ),
            (
                &["\u{c9}t\u{e9}/a", "e\u{301}te\u{301}/A"],
                NameError::NormalizationCollision {
                    name: name("e\u{301}te\u{301}/A"),
                    other: name("\u{c9}t\u{e9}/a"),
                },
            ),
            (&["a", "a-b", "a/b"], prefix("a", "a/b")),
            (&["a/b/c", "a-", "a"], prefix("a", "a/b/c")),
            (&["A/b", "A-", "a"], prefix("a", "A/b")),
            (&["a/b", "a/b/c/"], prefix("a/b", "a/b/c/")),
            (
                &["caf\u{e9}", "cafe\u{301}/x"],
                prefix("caf\u{e9}", "cafe\u{301}/x"),
            ),
        ];
        for (names, expected) in rows {
            assert_eq!(name_err(&named(names)), expected, "{names:?}");
        }
        // Directories may contain things; names may share prefixes; either
        // form of a name alone is fine.
        for names in [&["a/", "a/b", "ab", "a-b"][..], &[nfc], &[nfd]] {
            assert!(parse(&build(&named(names)).bytes).is_ok(), "{names:?}");
        }
    }

    #[test]
    fn only_files_and_directories() {
        for (mode, kind) in [
            (0o120_777, "symbolic link"),
            (0o020_644, "character device"),
            (0o060_644, "block device"),
            (0o010_644, "fifo"),
            (0o140_644, "socket"),
            (0o170_644, "file of unknown type"),
        ] {
            let spec = Spec::stored("l", b"target").mode(mode);
            assert_eq!(
                err(&[spec]),
                ZipError::SpecialFile {
                    name: name("l"),
                    kind
                }
            );
        }
        let mismatch = |n: &str| ZipError::KindMismatch {
            name: name(n),
            field: "Unix mode",
        };
        let spec = Spec::stored("d", b"").mode(0o040_755);
        assert_eq!(err(&[spec]), mismatch("d"));
        let spec = Spec::dir("d/").mode(0o100_644);
        assert_eq!(err(&[spec]), mismatch("d/"));
        let spec = Spec::stored("d/", b"x").mode(0o040_755);
        assert_eq!(err(&[spec]), ZipError::DirWithData { name: name("d/") });
    }

    #[test]
    fn stored_sizes_must_agree() {
        let spec = Spec::stored("a", b"xyz").with(|s| s.size = 2);
        assert_eq!(
            err(&[spec]),
            ZipError::StoredSizeMismatch { name: name("a") }
        );
    }

    #[test]
    fn size_limits() {
        let bytes = build(&[Spec::stored("a", b"1234"), Spec::stored("b", b"5678")]).bytes;
        let limits = Limits {
            max_entry_size: 3,
            ..Limits::default()
        };
        let expected = ZipError::EntryTooLarge {
            name: name("a"),
            size: 4,
            limit: 3,
        };
        assert_eq!(Archive::parse(&bytes, &limits), Err(expected));
        let limits = Limits {
            max_total_size: 7,
            ..Limits::default()
        };
        assert_eq!(
            Archive::parse(&bytes, &limits),
            Err(ZipError::TotalTooLarge { limit: 7 })
        );
        // Declared sizes count, whatever the data: 2 x 100 MiB, then 3.
        let huge = |n: &str| {
            Spec::deflated(n, b"")
                .with(|s| s.size = 100 << 20)
                .with(|s| s.compressed = 0)
        };
        let bytes = build(&[huge("a"), huge("b")]).bytes;
        let limits = Limits {
            max_entry_size: 100 << 20,
            max_ratio: u64::MAX,
            ..Limits::default()
        };
        let expected = ZipError::TotalTooLarge { limit: 256 << 20 };
        assert!(Archive::parse(&bytes, &limits).is_ok());
        let bytes = build(&[huge("a"), huge("b"), huge("c")]).bytes;
        assert_eq!(Archive::parse(&bytes, &limits), Err(expected));
    }

    #[test]
    fn default_limits() {
        let limits = Limits::default();
        assert_eq!(limits.max_entry_size, 16 << 20);
        assert_eq!(limits.max_total_size, 256 << 20);
        assert_eq!(limits.max_ratio, 100);
        // The default entry limit, and one byte over it (stored: ratio 1).
        let at = vec![b'x'; 16 << 20];
        let bytes = build(&[Spec::stored("a", &at)]).bytes;
        assert!(Archive::parse(&bytes, &limits).is_ok());
        let mut over = at;
        over.push(b'x');
        let expected = ZipError::EntryTooLarge {
            name: name("a"),
            size: (16 << 20) + 1,
            limit: 16 << 20,
        };
        assert_eq!(err(&[Spec::stored("a", &over)]), expected);
    }

    #[test]
    fn compression_ratio_limit() {
        // 2 MiB of zeros deflate about 1,000:1; the default limit is 100.
        let zeros = vec![0u8; 2 << 20];
        let spec = Spec::deflated("z", &zeros);
        let over = |spec: &Spec, limit| ZipError::RatioTooHigh {
            name: String::from_utf8_lossy(&spec.name).into_owned(),
            size: spec.size.into(),
            compressed: spec.compressed.into(),
            limit,
        };
        assert_eq!(err(std::slice::from_ref(&spec)), over(&spec, 100));
        let raised = Limits {
            max_ratio: 2000,
            ..Limits::default()
        };
        assert!(Archive::parse(&build(&[spec]).bytes, &raised).is_ok());
        // A header that claims more than deflate can produce.
        let liar = Spec::deflated("l", b"tiny").with(|s| s.size = 10 << 20);
        let expected = over(&liar, 2000);
        assert_eq!(
            Archive::parse(&build(&[liar]).bytes, &raised),
            Err(expected)
        );
        // An entry of 1 MiB is exempt, and so is an archive of 1 MiB.
        let mib = Spec::deflated("m", &zeros[..1 << 20]);
        assert!(
            Archive::parse(&build(std::slice::from_ref(&mib)).bytes, &Limits::default()).is_ok()
        );
        // Two such entries: each exempt, the archive not.
        let twice = [mib.clone(), mib.with(|s| s.name = b"n".to_vec())];
        let compressed = twice.iter().map(|s| u64::from(s.compressed)).sum();
        let expected = ZipError::ArchiveRatioTooHigh {
            size: 2 << 20,
            compressed,
            limit: 100,
        };
        assert_eq!(err(&twice), expected);
    }

    #[test]
    fn local_headers_are_checked() {
        let built = build(&sample());
        let mut bytes = built.bytes;
        bytes[built.locals[2]] = 0;
        let expected = ZipError::BadLocalHeader {
            name: name("scripts/run.sh"),
        };
        assert_eq!(parse(&bytes), Err(expected));
        let built = build(&sample());
        let mut bytes = built.bytes;
        set32(&mut bytes, built.centrals[2] + 42, u32::MAX - 1);
        let expected = ZipError::BadLocalHeader {
            name: name("scripts/run.sh"),
        };
        assert_eq!(parse(&bytes), Err(expected));
        for (at, field) in [
            (6, "flags"),
            (8, "method"),
            (14, "CRC-32"),
            (18, "compressed size"),
            (22, "size"),
            (30, "name"),
        ] {
            let built = build(&sample());
            let mut bytes = built.bytes;
            bytes[built.locals[2] + at] ^= 0x02;
            let expected = ZipError::LocalHeaderMismatch {
                name: name("scripts/run.sh"),
                field,
            };
            assert_eq!(parse(&bytes), Err(expected), "{field}");
        }
        // A longer local name.
        let built = build(&sample());
        let mut bytes = built.bytes;
        set16(&mut bytes, built.locals[2] + 26, 15);
        let expected = ZipError::LocalHeaderMismatch {
            name: name("scripts/run.sh"),
            field: "name",
        };
        assert_eq!(parse(&bytes), Err(expected));
    }

    #[test]
    fn data_must_end_before_the_central_directory() {
        let spec = Spec::deflated("a", &[7; 100]).with(|s| s.compressed += 1);
        assert_eq!(err(&[spec]), ZipError::DataOutOfBounds { name: name("a") });
        let built = build(&sample());
        let mut bytes = built.bytes;
        set16(&mut bytes, built.locals[3] + 28, 40); // local extra length
        assert_eq!(
            parse(&bytes),
            Err(ZipError::DataOutOfBounds { name: name("z") })
        );
    }

    #[test]
    fn overlapping_entries_are_refused() {
        // `a` is stored, and its data is `b`'s local header and data.
        let inner = Spec::stored("b", b"bomb");
        let outer = Spec::stored("a", &inner.local());
        let body = outer.local();
        let inner_at = LOCAL_LEN + 1;
        let built = assemble(body, &[(outer, 0), (inner, inner_at)], b"");
        let expected = ZipError::Overlap {
            name: name("b"),
            other: name("a"),
        };
        assert_eq!(parse(&built.bytes), Err(expected));
    }

    #[test]
    fn read_checks_size_and_crc() {
        let text = b"hello hello hello hello hello hello".repeat(3);
        let read = |spec: Spec| {
            let bytes = build(&[spec]).bytes;
            let archive = parse(&bytes).unwrap();
            archive.entries()[0].read(&bytes)
        };
        let small = Spec::deflated("a", &text).with(|s| s.size = 3);
        assert_eq!(
            read(small),
            Err(ZipError::TooMuchData {
                name: name("a"),
                size: 3
            })
        );
        let large = Spec::deflated("a", &text).with(|s| s.size = 1000);
        let expected = ZipError::ShortData {
            name: name("a"),
            expected: 1000,
            actual: text.len() as u64,
        };
        assert_eq!(read(large), Err(expected));
        let garbage = Spec::stored("a", &[0xFF; 10]).with(|s| s.method = 8);
        assert_eq!(
            read(garbage),
            Err(ZipError::CorruptData { name: name("a") })
        );
        let truncated = Spec::deflated("a", &text).with(|s| {
            s.stored.pop();
            s.compressed -= 1;
        });
        assert_eq!(
            read(truncated),
            Err(ZipError::CorruptData { name: name("a") })
        );
        let trailing = Spec::deflated("a", &text).with(|s| {
            s.stored.push(0);
            s.compressed += 1;
        });
        assert_eq!(
            read(trailing),
            Err(ZipError::TrailingData { name: name("a") })
        );
        for spec in [Spec::deflated("a", &text), Spec::stored("a", &text)] {
            let crc = spec.crc;
            let expected = ZipError::CrcMismatch {
                name: name("a"),
                expected: crc ^ 1,
                actual: crc,
            };
            assert_eq!(read(spec.with(|s| s.crc ^= 1)), Err(expected));
        }
        // Reading from other bytes than were parsed fails cleanly.
        let bytes = build(&[Spec::stored("a", &text)]).bytes;
        let archive = parse(&bytes).unwrap();
        let expected = ZipError::DataOutOfBounds { name: name("a") };
        assert_eq!(archive.entries()[0].read(&bytes[..20]), Err(expected));
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = build(&sample()).bytes;
        for len in 0..bytes.len() {
            assert!(parse(&bytes[..len]).is_err(), "{len}");
        }
    }

    #[test]
    fn every_bit_flip_is_caught_or_harmless() {
        let bytes = build(&sample()).bytes;
        let original: Vec<(String, Vec<u8>)> = parse(&bytes)
            .unwrap()
            .entries()
            .iter()
            .map(|e| (e.name.clone(), e.read(&bytes).unwrap()))
            .collect();
        let mut accepted = 0;
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[at] ^= 1 << bit;
                let Ok(archive) = parse(&flipped) else {
                    continue;
                };
                let read: Result<Vec<_>, _> = archive
                    .entries()
                    .iter()
                    .map(|e| e.read(&flipped).map(|data| (e.name.clone(), data)))
                    .collect();
                if let Ok(read) = read {
                    assert_eq!(read, original, "byte {at} bit {bit}");
                    accepted += 1;
                }
            }
        }
        // Times, "version made by" and some attribute bits are free to change.
        assert!(accepted > 0);
    }
}

//! Writing zip archives that are the same bytes on every machine.
//!
//! A skill pack is signed and compared by hash, so its zip must be a pure
//! function of its entries. The writer fixes everything else:
//!
//! - entries are written in the order they are added; the caller sorts, and
//!   the writer refuses a name that is not strictly greater, byte-wise, than
//!   the one before it, except for the first entry (a pack puts its
//!   manifest first);
//! - every timestamp is the one [`DosTime`] given to [`ZipWriter::new`]
//!   (`SOURCE_DATE_EPOCH`, or 1980-01-01 00:00:00);
//! - no extra fields, no comments, no data descriptors, no directory
//!   entries; flag bit 11 (UTF-8 names) on every entry;
//! - "version made by" is Unix (3), zip 2.0; "version needed" is 2.0 for
//!   every entry, stored or deflated; external attributes are the Unix mode
//!   `0o100644`, or `0o100755` for executables, shifted left 16; internal
//!   attributes 0;
//! - [`ZipWriter::add`] deflates at [`deflate::LEVEL`](crate::deflate::LEVEL) and stores
//!   an entry when deflate does not make it smaller, the rule embedded files
//!   follow, so [`ZipWriter::add_precompressed`] can take a plan's bytes as
//!   they are.
//!
//! Names must be normal paths ([`crate::path::is_normal`]) that stay
//! distinct on case-insensitive file systems, and no file may also be used
//! as a directory (`a` and `a/b`): what [`crate::zip::Archive::parse`]
//! would refuse is refused here, when the entry is added. Nothing that would
//! need ZIP64 is written: at most 65,534 entries (the reader takes a count
//! of 65,535 for a ZIP64 marker) and an archive under 4 GiB.

use std::collections::HashMap;
use std::fmt;

use crate::deflate;
use crate::path::{self, PathError};

const LOCAL_SIG: u32 = 0x0403_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const END_SIG: u32 = 0x0605_4b50;
const LOCAL_LEN: usize = 30;
const CENTRAL_LEN: usize = 46;
const END_LEN: usize = 22;
/// Unix host (3) in the high byte, zip 2.0 in the low byte.
const VERSION_MADE_BY: u16 = 3 << 8 | 20;
const VERSION_NEEDED: u16 = 20;
/// Flag bit 11: the name is UTF-8.
const FLAG_UTF8: u16 = 1 << 11;
/// The most entries: one fewer than the ZIP64 marker 0xFFFF.
const MAX_ENTRIES: usize = 0xFFFE;
/// Every size and offset stays below the ZIP64 marker 0xFFFF_FFFF.
const MAX_OFFSET: usize = 0xFFFF_FFFE;

/// An MS-DOS date and time, the only timestamp a plain zip entry has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DosTime {
    date: u16,
    time: u16,
}

impl DosTime {
    /// 1980-01-01 00:00:00, the earliest DOS time.
    pub const EPOCH: DosTime = DosTime {
        date: 1 << 5 | 1,
        time: 0,
    };

    /// The DOS time of a Unix time, in UTC, rounded down to an even second
    /// and clamped to 1980-01-01 00:00:00 ..= 2107-12-31 23:59:58.
    pub fn from_unix(secs: i64) -> DosTime {
        const MIN: i64 = 315_532_800; // 1980-01-01 00:00:00
        const MAX: i64 = 4_354_819_199; // 2107-12-31 23:59:59
        let secs = secs.clamp(MIN, MAX);
        let (days, day_secs) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        let (year, month, day) = civil_from_days(days);
        let (hour, minute, second) = (day_secs / 3600, day_secs / 60 % 60, day_secs % 60);
        DosTime {
            date: ((year - 1980) << 9 | month << 5 | day) as u16,
            time: (hour << 11 | minute << 5 | (second / 2)) as u16,
        }
    }

    /// `SOURCE_DATE_EPOCH` when it is set and not empty, else [`EPOCH`](Self::EPOCH).
    /// A value that is not an integer number of seconds is an error.
    pub fn from_env() -> Result<DosTime, String> {
        match std::env::var("SOURCE_DATE_EPOCH") {
            Ok(value) => Self::from_epoch_var(&value),
            Err(std::env::VarError::NotPresent) => Ok(Self::EPOCH),
            Err(std::env::VarError::NotUnicode(value)) => Err(format!(
                "`SOURCE_DATE_EPOCH` is {value:?}, not an integer number of seconds"
            )),
        }
    }

    fn from_epoch_var(value: &str) -> Result<DosTime, String> {
        if value.is_empty() {
            return Ok(Self::EPOCH);
        }
        value.parse().map(Self::from_unix).map_err(|_| {
            format!("`SOURCE_DATE_EPOCH` is `{value}`, not an integer number of seconds")
        })
    }
}

/// (year, month, day) of a day count from 1970-01-01, proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Builds a zip archive in memory; see the module docs for the format.
#[derive(Debug)]
pub struct ZipWriter {
    time: DosTime,
    out: Vec<u8>,
    central: Vec<u8>,
    entries: usize,
    /// The last name after the first entry, which the next must exceed.
    previous: Option<String>,
    /// Lowercased name -> name, of every file.
    files: HashMap<String, String>,
    /// Lowercased directory -> the first file inside it.
    dirs: HashMap<String, String>,
}

impl ZipWriter {
    /// An empty archive whose entries will all carry `time`.
    pub fn new(time: DosTime) -> ZipWriter {
        ZipWriter {
            time,
            out: Vec::new(),
            central: Vec::new(),
            entries: 0,
            previous: None,
            files: HashMap::new(),
            dirs: HashMap::new(),
        }
    }

    /// Adds a file, deflated at [`deflate::LEVEL`] unless that does not make it smaller.
    pub fn add(&mut self, name: &str, data: &[u8], executable: bool) -> Result<(), WriteError> {
        let crc32 = crc32fast::hash(data);
        let size = data.len() as u64;
        match deflate::compress(data) {
            Some(deflated) => {
                self.add_precompressed(name, crc32, size, &deflated, true, executable)
            }
            None => self.add_precompressed(name, crc32, size, data, false, executable),
        }
    }

    /// Adds a file the caller has compressed and hashed: `stored` is raw
    /// deflate when `deflated`, else the file itself; `crc32` and `size`
    /// describe the uncompressed file. The writer cannot check them against
    /// deflated bytes without inflating them, so they must be right (a stored
    /// file's size is checked). A failed add leaves the archive unchanged.
    pub fn add_precompressed(
        &mut self,
        name: &str,
        crc32: u32,
        size: u64,
        stored: &[u8],
        deflated: bool,
        executable: bool,
    ) -> Result<(), WriteError> {
        let lower = self.check_name(name)?;
        let err_name = || name.to_string();
        if self.entries >= MAX_ENTRIES {
            return Err(WriteError::TooManyEntries { limit: MAX_ENTRIES });
        }
        if !deflated && stored.len() as u64 != size {
            return Err(WriteError::StoredSizeMismatch { name: err_name() });
        }
        let offset = self.out.len();
        let archive_end = [LOCAL_LEN + CENTRAL_LEN + END_LEN, name.len(), name.len()]
            .into_iter()
            .chain([stored.len(), self.central.len()])
            .fold(offset, usize::saturating_add);
        if size > MAX_OFFSET as u64 || stored.len() > MAX_OFFSET || archive_end > MAX_OFFSET {
            return Err(WriteError::TooLarge { name: err_name() });
        }
        // Every value below fits its field: checked just above and in `check_name`.
        let (name_len, size, compressed) = (name.len() as u16, size as u32, stored.len() as u32);
        let method: u16 = if deflated { 8 } else { 0 };
        let mode: u32 = if executable { 0o100_755 } else { 0o100_644 };
        let common = |buf: &mut Vec<u8>| {
            put16(buf, VERSION_NEEDED);
            put16(buf, FLAG_UTF8);
            put16(buf, method);
            put16(buf, self.time.time);
            put16(buf, self.time.date);
            put32(buf, crc32);
            put32(buf, compressed);
            put32(buf, size);
            put16(buf, name_len);
            put16(buf, 0); // extra field length
        };

        put32(&mut self.out, LOCAL_SIG);
        common(&mut self.out);
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(stored);

        let central = &mut self.central;
        put32(central, CENTRAL_SIG);
        put16(central, VERSION_MADE_BY);
        common(central);
        put16(central, 0); // comment length
        put16(central, 0); // disk number
        put16(central, 0); // internal attributes
        put32(central, mode << 16);
        put32(central, offset as u32);
        central.extend_from_slice(name.as_bytes());
        self.record(name, lower);
        Ok(())
    }

    /// The archive: entries, central directory and end record.
    pub fn finish(self) -> Vec<u8> {
        let ZipWriter {
            mut out,
            central,
            entries,
            ..
        } = self;
        // Bounded by `add_precompressed`'s checks.
        let (cd_offset, cd_size, count) = (out.len() as u32, central.len() as u32, entries as u16);
        out.extend_from_slice(&central);
        put32(&mut out, END_SIG);
        put16(&mut out, 0); // this disk
        put16(&mut out, 0); // the central directory's disk
        put16(&mut out, count);
        put16(&mut out, count);
        put32(&mut out, cd_size);
        put32(&mut out, cd_offset);
        put16(&mut out, 0); // comment length
        out
    }

    /// Checks a name against the path rules, the order and the names so
    /// far; returns it lowercased.
    fn check_name(&self, name: &str) -> Result<String, WriteError> {
        if !path::is_normal(name) {
            return Err(match path::normalize(name) {
                Err(reason) => WriteError::BadName {
                    name: name.to_string(),
                    reason,
                },
                Ok(normal) => WriteError::NameNotNormal {
                    name: name.to_string(),
                    normal,
                },
            });
        }
        if name.len() > usize::from(u16::MAX) {
            return Err(WriteError::NameTooLong {
                name: name.to_string(),
            });
        }
        if let Some(previous) = &self.previous {
            if name.as_bytes() <= previous.as_bytes() {
                return Err(WriteError::OutOfOrder {
                    name: name.to_string(),
                    previous: previous.clone(),
                });
            }
        }
        let lower = name.to_lowercase();
        if let Some(other) = self.files.get(&lower) {
            return Err(if other == name {
                WriteError::Duplicate {
                    name: name.to_string(),
                }
            } else {
                WriteError::CaseCollision {
                    name: name.to_string(),
                    other: other.clone(),
                }
            });
        }
        if let Some(inside) = self.dirs.get(&lower) {
            return Err(WriteError::FileIsPrefix {
                file: name.to_string(),
                entry: inside.clone(),
            });
        }
        for (at, _) in lower.match_indices('/') {
            if let Some(file) = self.files.get(&lower[..at]) {
                return Err(WriteError::FileIsPrefix {
                    file: file.clone(),
                    entry: name.to_string(),
                });
            }
        }
        Ok(lower)
    }

    /// Remembers an added name for the checks of later ones.
    fn record(&mut self, name: &str, lower: String) {
        for (at, _) in lower.match_indices('/') {
            self.dirs
                .entry(lower[..at].to_string())
                .or_insert_with(|| name.to_string());
        }
        if self.entries > 0 {
            self.previous = Some(name.to_string());
        }
        self.files.insert(lower, name.to_string());
        self.entries += 1;
    }
}

fn put16(buf: &mut Vec<u8>, value: u16) {
    buf.extend_from_slice(&value.to_le_bytes());
}

fn put32(buf: &mut Vec<u8>, value: u32) {
    buf.extend_from_slice(&value.to_le_bytes());
}

/// Why an entry could not be added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// The name is not a safe relative path.
    BadName {
        /// The name.
        name: String,
        /// The rule it breaks.
        reason: PathError,
    },
    /// The name has `.` components or a trailing `/`.
    NameNotNormal {
        /// The name.
        name: String,
        /// What it normalises to.
        normal: String,
    },
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
    /// The name was added before.
    Duplicate {
        /// The name.
        name: String,
    },
    /// The name equals an earlier one but for case.
    CaseCollision {
        /// The name.
        name: String,
        /// The earlier name.
        other: String,
    },
    /// A file would also be a directory (`a` and `a/b`).
    FileIsPrefix {
        /// The file.
        file: String,
        /// The entry inside it.
        entry: String,
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

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use WriteError as E;
        match self {
            E::BadName { name, reason } => write!(f, "cannot add `{name}` to the zip: {reason}"),
            E::NameNotNormal { name, normal } => write!(
                f,
                "cannot add `{name}` to the zip: not a normal path; use `{normal}`"
            ),
            E::NameTooLong { name } => write!(
                f,
                "cannot add `{name}` to the zip: the name is over 65,535 bytes"
            ),
            E::OutOfOrder { name, previous } => write!(
                f,
                "cannot add `{name}` to the zip after `{previous}`: entries must be sorted by name"
            ),
            E::Duplicate { name } => write!(f, "cannot add `{name}` to the zip twice"),
            E::CaseCollision { name, other } => write!(
                f,
                "cannot add `{name}` to the zip: it differs from `{other}` only by case"
            ),
            E::FileIsPrefix { file, entry } => write!(
                f,
                "cannot have both `{file}` and `{entry}` in the zip: `{file}` would be a file and a directory"
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

impl std::error::Error for WriteError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zip::{Archive, Kind, Limits, Method};

    fn sample(time: DosTime) -> Vec<u8> {
        let mut w = ZipWriter::new(time);
        w.add("manifest.json", b"{\"skills\": []}\n", false)
            .unwrap();
        w.add(
            "SKILL.md",
            &b"---\nname: demo\n---\nbody\n".repeat(10),
            false,
        )
        .unwrap();
        w.add("scripts/run.sh", b"#!/bin/sh\necho hi\n", true)
            .unwrap();
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let noise: Vec<u8> = (0..600)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        w.add("scripts/z.bin", &noise, false).unwrap();
        w.finish()
    }

    #[test]
    fn round_trips_through_the_reader() {
        let bytes = sample(DosTime::EPOCH);
        let archive = Archive::parse(&bytes, &Limits::default()).unwrap();
        let got: Vec<_> = archive
            .entries()
            .iter()
            .map(|e| (e.name.as_str(), e.method, e.kind))
            .collect();
        let file = |executable| Kind::File { executable };
        assert_eq!(
            got,
            [
                ("manifest.json", Method::Stored, file(false)),
                ("SKILL.md", Method::Deflate, file(false)),
                ("scripts/run.sh", Method::Stored, file(true)),
                ("scripts/z.bin", Method::Stored, file(false)),
            ]
        );
        let md = archive.find("SKILL.md").unwrap();
        assert_eq!(
            md.read(&bytes).unwrap(),
            b"---\nname: demo\n---\nbody\n".repeat(10)
        );
        let run = archive.find("scripts/run.sh").unwrap();
        assert_eq!(run.read(&bytes).unwrap(), b"#!/bin/sh\necho hi\n");
    }

    /// 16 MiB of zeros deflate 1,028:1: over the reader's default ratio
    /// limit, read back once the limit is raised to deflate's ceiling.
    #[test]
    fn the_reader_takes_the_most_compressible_files_when_allowed() {
        let zeros = vec![0u8; 16 << 20];
        let mut w = ZipWriter::new(DosTime::EPOCH);
        w.add("zeros", &zeros, false).unwrap();
        let bytes = w.finish();
        assert!(matches!(
            Archive::parse(&bytes, &Limits::default()),
            Err(crate::zip::ZipError::RatioTooHigh { .. })
        ));
        let limits = Limits {
            max_ratio: 1032,
            ..Limits::default()
        };
        let archive = Archive::parse(&bytes, &limits).unwrap();
        assert_eq!(archive.entries()[0].read(&bytes).unwrap(), zeros);
    }

    #[test]
    fn headers_are_fixed() {
        let bytes = sample(DosTime::from_unix(1_709_214_331));
        // Local header: version needed 20, UTF-8 flag, stored, time, date.
        assert_eq!(&bytes[4..14], [20, 0, 0, 8, 0, 0, 0xaf, 0x6d, 0x5d, 0x58]);
        let end = bytes.len() - END_LEN;
        let cd = u32::from_le_bytes(bytes[end + 16..end + 20].try_into().unwrap()) as usize;
        assert_eq!(&bytes[cd..cd + 4], CENTRAL_SIG.to_le_bytes());
        // Made by Unix 2.0; no extra field, comment, disk or internal attributes; mode 0o100644.
        assert_eq!(&bytes[cd + 4..cd + 6], [20, 3]);
        assert_eq!(&bytes[cd + 30..cd + 38], [0; 8]);
        assert_eq!(&bytes[cd + 38..cd + 42], (0o100_644u32 << 16).to_le_bytes());
    }

    #[test]
    fn output_is_deterministic() {
        assert_eq!(sample(DosTime::EPOCH), sample(DosTime::EPOCH));
        let (a, b) = (
            sample(DosTime::EPOCH),
            sample(DosTime::from_unix(1_700_000_000)),
        );
        assert_eq!(a.len(), b.len());
        assert_ne!(a, b);
    }

    #[test]
    fn dos_times() {
        let t = |secs| {
            let d = DosTime::from_unix(secs);
            (d.date, d.time)
        };
        assert_eq!(DosTime::from_unix(315_532_800), DosTime::EPOCH);
        assert_eq!(
            DosTime::EPOCH,
            DosTime {
                date: 0x21,
                time: 0
            }
        );
        assert_eq!(t(1_709_214_331), (0x585d, 0x6daf)); // 2024-02-29 13:45:31
        assert_eq!(t(1_700_000_000), (0x576e, 0xb1aa)); // 2023-11-14 22:13:20
        assert_eq!(t(946_684_799), (0x279f, 0xbf7d)); // 1999-12-31 23:59:59
        for early in [i64::MIN, -1, 0, 315_532_799] {
            assert_eq!(DosTime::from_unix(early), DosTime::EPOCH, "{early}");
        }
        for late in [4_354_819_199, 4_354_819_200, i64::MAX] {
            assert_eq!(t(late), (0xff9f, 0xbf7d), "{late}"); // 2107-12-31 23:59:58
        }
    }

    #[test]
    fn source_date_epoch() {
        assert_eq!(DosTime::from_epoch_var(""), Ok(DosTime::EPOCH));
        assert_eq!(
            DosTime::from_epoch_var("1700000000"),
            Ok(DosTime::from_unix(1_700_000_000))
        );
        assert_eq!(
            DosTime::from_epoch_var("yesterday"),
            Err("`SOURCE_DATE_EPOCH` is `yesterday`, not an integer number of seconds".into())
        );
        assert!(DosTime::from_epoch_var("1.5").is_err());
    }

    #[test]
    fn names_are_checked() {
        let mut w = ZipWriter::new(DosTime::EPOCH);
        let bad = |w: &mut ZipWriter, name: &str| w.add(name, b"", false).unwrap_err();
        assert_eq!(
            bad(&mut w, "../x"),
            WriteError::BadName {
                name: "../x".into(),
                reason: PathError::ParentDir
            }
        );
        assert_eq!(
            bad(&mut w, "dir/"),
            WriteError::NameNotNormal {
                name: "dir/".into(),
                normal: "dir".into()
            }
        );
        // The first entry may be anything; the rest must be sorted.
        w.add("m", b"", false).unwrap();
        w.add("B/x", b"", false).unwrap();
        w.add("a", b"", false).unwrap();
        assert_eq!(
            bad(&mut w, "B/y"),
            WriteError::OutOfOrder {
                name: "B/y".into(),
                previous: "a".into()
            }
        );
        assert_eq!(bad(&mut w, "m"), WriteError::Duplicate { name: "m".into() });
        assert_eq!(
            bad(&mut w, "b/x"),
            WriteError::CaseCollision {
                name: "b/x".into(),
                other: "B/x".into()
            }
        );
        assert_eq!(
            bad(&mut w, "b"),
            WriteError::FileIsPrefix {
                file: "b".into(),
                entry: "B/x".into()
            }
        );
        assert_eq!(
            bad(&mut w, "a/b"),
            WriteError::FileIsPrefix {
                file: "a".into(),
                entry: "a/b".into()
            }
        );
        assert_eq!(
            w.add_precompressed("c", 0, 4, b"dat", false, false),
            Err(WriteError::StoredSizeMismatch { name: "c".into() })
        );
        // Failed adds left nothing behind.
        let mut clean = ZipWriter::new(DosTime::EPOCH);
        for name in ["m", "B/x", "a"] {
            clean.add(name, b"", false).unwrap();
        }
        assert_eq!(w.finish(), clean.finish());
    }

    #[test]
    fn entry_count_stays_below_zip64() {
        let mut w = ZipWriter::new(DosTime::EPOCH);
        for i in 0..MAX_ENTRIES {
            w.add_precompressed(&format!("{i:05}"), 0, 0, b"", false, false)
                .unwrap();
        }
        assert_eq!(
            w.add_precompressed("99999", 0, 0, b"", false, false),
            Err(WriteError::TooManyEntries { limit: MAX_ENTRIES })
        );
        let bytes = w.finish();
        let archive = Archive::parse(&bytes, &Limits::default()).unwrap();
        assert_eq!(archive.entries().len(), MAX_ENTRIES);
    }

    #[test]
    fn empty_archive() {
        let bytes = ZipWriter::new(DosTime::EPOCH).finish();
        assert_eq!(bytes.len(), END_LEN);
        let archive = Archive::parse(&bytes, &Limits::default()).unwrap();
        assert!(archive.entries().is_empty());
    }
}

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
//! - [`ZipWriter::add`] deflates at [`deflate::LEVEL`] and stores
//!   an entry when deflate does not make it smaller, the rule embedded files
//!   follow, so [`ZipWriter::add_precompressed`] can take a plan's bytes as
//!   they are.
//!
//! Names are checked by the one set of name rules the reader applies
//! (`names.rs`): a name [`crate::zip::Archive::parse`] would
//! refuse is refused here, when the entry is added, with the same
//! [`NameError`](super::NameError). Nothing that would need ZIP64 is
//! written: at most 65,534 entries (the reader takes a count of 65,535 for
//! a ZIP64 marker) and an archive under 4 GiB.

use super::format::{
    CENTRAL_LEN, END_LEN, FLAG_UTF8, Fields, Kind, LOCAL_LEN, Method, VERSION_MADE_BY,
    ZIP64_MARK_16, ZIP64_MARK_32, put_end,
};
use super::names::Names;
use crate::deflate;

pub use super::error::WriteError;
pub use super::time::DosTime;

/// The most entries: one fewer than the ZIP64 marker.
const MAX_ENTRIES: usize = ZIP64_MARK_16 as usize - 1;
/// Every size and offset stays below the ZIP64 marker.
const MAX_OFFSET: usize = ZIP64_MARK_32 as usize - 1;

/// Builds a zip archive in memory; see the module docs for the format.
#[derive(Debug)]
pub struct ZipWriter {
    time: DosTime,
    out: Vec<u8>,
    central: Vec<u8>,
    entries: usize,
    /// The last name after the first entry, which the next must exceed.
    previous: Option<String>,
    /// Every name so far, for the name rules.
    names: Names,
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
            names: Names::default(),
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
        let kind = Kind::File { executable };
        let checked = self.names.check(name, kind)?;
        let err_name = || name.to_string();
        if name.len() > usize::from(u16::MAX) {
            return Err(WriteError::NameTooLong { name: err_name() });
        }
        if let Some(previous) = &self.previous
            && name.as_bytes() <= previous.as_bytes()
        {
            return Err(WriteError::OutOfOrder {
                name: err_name(),
                previous: previous.clone(),
            });
        }
        if self.entries >= MAX_ENTRIES {
            return Err(WriteError::TooManyEntries { limit: MAX_ENTRIES });
        }
        if !deflated && stored.len() as u64 != size {
            return Err(WriteError::StoredSizeMismatch { name: err_name() });
        }
        let archive_end = [LOCAL_LEN + CENTRAL_LEN + END_LEN, name.len(), name.len()]
            .into_iter()
            .chain([stored.len(), self.central.len()])
            .fold(self.out.len(), usize::saturating_add);
        if size > MAX_OFFSET as u64 || stored.len() > MAX_OFFSET || archive_end > MAX_OFFSET {
            return Err(WriteError::TooLarge { name: err_name() });
        }
        let method = if deflated {
            Method::Deflate
        } else {
            Method::Stored
        };
        self.push(name, crc32, size as u32, stored, method, kind);
        self.names.insert(checked);
        Ok(())
    }

    /// Writes an entry's headers and bytes, and counts it; `add_precompressed`
    /// has checked that every value fits its field.
    fn push(
        &mut self,
        name: &str,
        crc32: u32,
        size: u32,
        stored: &[u8],
        method: Method,
        kind: Kind,
    ) {
        let fields = Fields {
            flags: FLAG_UTF8,
            method: method.number(),
            time: self.time,
            crc32,
            compressed: stored.len() as u32,
            size,
            name: name.as_bytes(),
            extra: &[],
        };
        let offset = self.out.len() as u32;
        fields.put_local(&mut self.out);
        self.out.extend_from_slice(stored);
        fields.put_central(
            &mut self.central,
            VERSION_MADE_BY,
            kind.mode() << 16,
            offset,
        );
        if self.entries > 0 {
            self.previous = Some(name.to_string());
        }
        self.entries += 1;
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
        put_end(&mut out, count, cd_size, cd_offset, &[]);
        out
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::zip::format::CENTRAL_SIG;
    use crate::zip::names::props;
    use crate::zip::{Archive, Limits, ZipError};

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
            Err(ZipError::RatioTooHigh { .. })
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

    /// Names go through the name rules (`names.rs`) before the writer's
    /// own order rule; a refused entry leaves the archive as it was.
    #[test]
    fn names_are_checked() {
        let written = ["m", "B/x", "a", "cafe\u{301}"];
        let mut w = ZipWriter::new(DosTime::EPOCH);
        // The first entry may be anything; the rest must be sorted.
        for name in written {
            w.add(name, b"", false).unwrap();
        }
        let refused = [
            (
                "../x",
                "entry `../x`: the path contains `..`; it may not leave the skill directory",
            ),
            (
                "dir/",
                "entry `dir/` is not a normal path; it would be `dir`",
            ),
            ("m", "entry `m` appears twice"),
            (
                "b/x",
                "entries `B/x` and `b/x` differ only by case and collide on case-insensitive file systems",
            ),
            (
                "caf\u{e9}",
                "entries `cafe\\u{301}` and `caf\\u{e9}` are one name in two Unicode normalisations and collide on macOS file systems",
            ),
            ("b", "file `b` is also used as a directory by entry `B/x`"),
            ("a/b", "file `a` is also used as a directory by entry `a/b`"),
        ];
        for (name, message) in refused {
            let e = w.add(name, b"", false).unwrap_err();
            assert!(matches!(e, WriteError::Name(_)), "{e:?}");
            assert_eq!(e.to_string(), format!("cannot write the zip: {message}"));
        }
        let e = w.add("B/y", b"", false).unwrap_err();
        let previous = "cafe\u{301}".to_string();
        let expected = WriteError::OutOfOrder {
            name: "B/y".into(),
            previous,
        };
        assert_eq!(e, expected);
        let long = "x".repeat(65_536);
        let e = w.add(&long, b"", false).unwrap_err();
        assert_eq!(e, WriteError::NameTooLong { name: long });
        assert_eq!(
            w.add_precompressed("d", 0, 4, b"dat", false, false),
            Err(WriteError::StoredSizeMismatch { name: "d".into() })
        );
        // Failed adds left nothing behind: not their bytes, not their
        // names, which may still be added.
        w.add("d", b"", false).unwrap();
        let mut clean = ZipWriter::new(DosTime::EPOCH);
        for name in written.into_iter().chain(["d"]) {
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

    /// The archive `add` would write for `names`, empty files all, without
    /// any check.
    fn unchecked(names: &[String]) -> Vec<u8> {
        let mut w = ZipWriter::new(DosTime::EPOCH);
        let file = Kind::File { executable: false };
        for name in names {
            w.push(name, 0, 0, b"", Method::Stored, file);
        }
        w.finish()
    }

    proptest! {
        #![proptest_config(props::config())]

        /// The writer refuses a name exactly when the reader refuses the
        /// archive written without the check, with the same error; else the
        /// reader reads back every name the writer wrote. The first name is
        /// any, the rest sorted (the writer's order rule, which the reader
        /// does not have).
        #[test]
        fn writer_and_reader_agree_on_names(entries in props::entries(1..10)) {
            let mut names: Vec<String> = entries.into_iter().map(|(name, _)| name).collect();
            names[1..].sort();
            let mut w = ZipWriter::new(DosTime::EPOCH);
            let refused = names
                .iter()
                .enumerate()
                .find_map(|(i, name)| w.add(name, b"", false).err().map(|e| (i, e)));
            let Some((i, e)) = refused else {
                let bytes = w.finish();
                prop_assert_eq!(&bytes, &unchecked(&names));
                let archive = Archive::parse(&bytes, &Limits::default()).unwrap();
                let read: Vec<&str> = archive.entries().iter().map(|e| e.name.as_str()).collect();
                prop_assert_eq!(read, names.iter().map(String::as_str).collect::<Vec<_>>());
                return Ok(());
            };
            let WriteError::Name(e) = e else {
                return Err(TestCaseError::fail(format!("not a name error: {e:?}")));
            };
            let written = unchecked(&names[..=i]);
            let read = Archive::parse(&written, &Limits::default());
            // A file's name with a trailing `/`: its mode says file, its
            // name directory, which the reader finds first.
            let expected = if names[i].ends_with('/') {
                ZipError::KindMismatch { name: names[i].clone(), field: "Unix mode" }
            } else {
                ZipError::Name(e)
            };
            prop_assert_eq!(read, Err(expected));
        }
    }
}

//! What an entry is, decided from every field that an extractor reads to
//! decide it, and the extra fields that could change what it is or where
//! it goes.
//!
//! Extractors do not read the same fields:
//!
//! - Info-ZIP `unzip` takes the external attributes' high half as a Unix
//!   mode for Unix, VMS, Acorn, Atari, AtheOS, BeOS, QDOS and Tandem hosts,
//!   falls back to an ASi Unix extra field (0x756e) when that half is 0,
//!   makes a symbolic link of it for Unix, Atari, AtheOS, BeOS and VMS, and
//!   also for a FAT host (0) when the mode's owner bits match the DOS
//!   attributes; it skips an entry with the DOS volume label bit (0x08) from
//!   FAT, HPFS, NTFS and Atari hosts.
//! - libarchive (`bsdtar`) reads the mode for Unix hosts and the DOS
//!   directory bit (0x10) for FAT; its local-header `xl` extra field
//!   (0x6c78) carries external attributes that replace the central ones.
//! - 7-Zip reads the mode for Unix hosts and the DOS directory bit for FAT,
//!   NTFS, HPFS and VFAT, and passes a FAT or NTFS host's whole attributes
//!   on, whose high half it takes as a mode when bit 0x8000 (p7zip's
//!   marker) is set.
//! - Go's `archive/zip` reads the mode for Unix and macOS (19) hosts, the
//!   DOS directory bit for FAT, NTFS and VFAT.
//! - Python's `zipfile` and Java go by the trailing `/` alone.
//!
//! So the reader asks the same of every such field, whatever the host: the
//! mode's file type (when there is one) is a regular file or a directory,
//! and says directory exactly when the name ends with `/`; the DOS
//! directory bit is set only on a name ending with `/`; the volume label
//! bit is clear; an ASi Unix or `xl` field says the same as the external
//! attributes must, and holds no link target; a PKWARE Unix field (0x000d)
//! holds no link or device data. Extra fields that overrun their block are
//! refused (Python refuses the whole archive), and so is the Info-ZIP
//! Unicode Path field (0x7075), which `unzip` would honour instead of the
//! checked name. Whether a file is executable is read from a Unix host's
//! mode only, as libarchive and 7-Zip read it.

use super::error::ZipError;
use super::format::{
    ASI_UNIX_FIELD, DOS_DIRECTORY, DOS_VOLUME_LABEL, HOST_UNIX, Kind, PKWARE_UNIX_FIELD, S_IFBLK,
    S_IFCHR, S_IFDIR, S_IFIFO, S_IFLNK, S_IFMT, S_IFREG, S_IFSOCK, UNICODE_PATH_FIELD, XL_FIELD,
    le16, le32,
};

/// The fixed part of an ASi Unix field: CRC-32, mode, size or device,
/// user, group; a link target follows.
const ASI_FIXED: usize = 14;
/// The fixed part of a PKWARE Unix field: access and modification times,
/// user, group; link or device data follows.
const PKWARE_FIXED: usize = 12;

/// The kind of the entry `name`, from its central header's "version made
/// by" and external attributes and its central extra fields (the local
/// header's are checked by [`check_extra`] once it is read).
pub(super) fn kind(
    name: &str,
    made_by: u16,
    external: u32,
    central_extra: &[u8],
) -> Result<Kind, ZipError> {
    let entry = Named::new(name);
    entry.attributes(external, Source::Central)?;
    entry.extra(central_extra)?;
    let mode = external >> 16;
    Ok(if entry.slash {
        Kind::Dir
    } else {
        Kind::File {
            executable: made_by >> 8 == HOST_UNIX && mode & 0o111 != 0,
        }
    })
}

/// Checks the extra fields of the entry `name` (as [`kind`] checks the
/// central ones): a local header's.
pub(super) fn check_extra(name: &str, extra: &[u8]) -> Result<(), ZipError> {
    Named::new(name).extra(extra)
}

/// The entry being checked.
struct Named<'a> {
    name: &'a str,
    slash: bool,
}

/// Where external attributes were read: the central header, or an extra
/// field that carries them.
#[derive(Clone, Copy)]
enum Source {
    Central,
    Field(u16),
}

impl Named<'_> {
    fn new(name: &str) -> Named<'_> {
        Named {
            name,
            slash: name.ends_with('/'),
        }
    }

    /// Checks external attributes from `source` under any host: the DOS
    /// volume label and directory bits of the low half, and the high half
    /// as a Unix mode.
    fn attributes(&self, external: u32, source: Source) -> Result<(), ZipError> {
        if external & DOS_VOLUME_LABEL != 0 {
            return Err(self.special(source, "volume label"));
        }
        if external & DOS_DIRECTORY != 0 && !self.slash {
            return Err(self.mismatch(match source {
                Source::Central => "DOS directory attribute",
                Source::Field(_) => XL_NAME,
            }));
        }
        self.mode(external >> 16, source)
    }

    /// Checks a Unix mode from `source`: a regular file, a directory, or
    /// no type at all, and a directory exactly when the name ends with
    /// `/`.
    fn mode(&self, mode: u32, source: Source) -> Result<(), ZipError> {
        let kind = match mode & S_IFMT {
            0 => return Ok(()),
            S_IFREG if self.slash => return Err(self.mismatch_from(source)),
            S_IFDIR if !self.slash => return Err(self.mismatch_from(source)),
            S_IFREG | S_IFDIR => return Ok(()),
            S_IFLNK => "symbolic link",
            S_IFCHR => "character device",
            S_IFBLK => "block device",
            S_IFIFO => "fifo",
            S_IFSOCK => "socket",
            _ => "file of unknown type",
        };
        Err(self.special(source, kind))
    }

    fn special(&self, source: Source, kind: &'static str) -> ZipError {
        let name = self.name.to_string();
        match source {
            Source::Central => ZipError::SpecialFile { name, kind },
            Source::Field(field) => ZipError::SpecialExtraField { name, field, kind },
        }
    }

    fn mismatch_from(&self, source: Source) -> ZipError {
        self.mismatch(match source {
            Source::Central => "Unix mode",
            Source::Field(ASI_UNIX_FIELD) => ASI_NAME,
            Source::Field(_) => XL_NAME,
        })
    }

    fn mismatch(&self, field: &'static str) -> ZipError {
        ZipError::KindMismatch {
            name: self.name.to_string(),
            field,
        }
    }

    /// Checks every field of an extra block.
    fn extra(&self, mut extra: &[u8]) -> Result<(), ZipError> {
        // Fewer than 4 bytes left hold no field; every reader skips them.
        while let (Some(id), Some(len)) = (le16(extra, 0), le16(extra, 2)) {
            let end = 4 + usize::from(len);
            let data = extra.get(4..end).ok_or_else(|| self.bad_field(id))?;
            self.field(id, data)?;
            extra = extra.get(end..).unwrap_or_default();
        }
        Ok(())
    }

    fn field(&self, id: u16, data: &[u8]) -> Result<(), ZipError> {
        let source = Source::Field(id);
        match id {
            UNICODE_PATH_FIELD => Err(ZipError::UnicodePathField {
                name: self.name.to_string(),
            }),
            ASI_UNIX_FIELD => {
                let mode = le16(data, 4)
                    .filter(|_| data.len() >= ASI_FIXED)
                    .ok_or_else(|| self.bad_field(id))?;
                self.mode(u32::from(mode), source)?;
                match data.len() > ASI_FIXED {
                    true => Err(self.special(source, "symbolic link")),
                    false => Ok(()),
                }
            }
            PKWARE_UNIX_FIELD if data.len() < PKWARE_FIXED => Err(self.bad_field(id)),
            PKWARE_UNIX_FIELD if data.len() > PKWARE_FIXED => {
                Err(self.special(source, "symbolic link or device"))
            }
            XL_FIELD => {
                let external = xl_external(data).ok_or_else(|| self.bad_field(id))?;
                external.map_or(Ok(()), |e| self.attributes(e, source))
            }
            _ => Ok(()),
        }
    }

    fn bad_field(&self, field: u16) -> ZipError {
        ZipError::BadExtraField {
            name: self.name.to_string(),
            field,
        }
    }
}

const ASI_NAME: &str = "ASi Unix extra field (0x756e)";
const XL_NAME: &str = "libarchive `xl` extra field (0x6c78)";

/// The external attributes a libarchive `xl` field carries, if any: it is a
/// bitmap of 7 bits a byte (the high bit says another byte follows), then
/// "version made by" (bit 0, 2 bytes), internal attributes (bit 1, 2
/// bytes) and external attributes (bit 2, 4 bytes), each when its bit is
/// set. `None` when the field is shorter than its bitmap says.
fn xl_external(data: &[u8]) -> Option<Option<u32>> {
    let bitmap = *data.first()?;
    let mut at = 1;
    let mut last = bitmap;
    while last & 0x80 != 0 {
        last = *data.get(at)?;
        at += 1;
    }
    for (bit, len) in [(1, 2), (2, 2)] {
        if bitmap & bit != 0 {
            at += len;
        }
    }
    if bitmap & 4 == 0 {
        return data.get(..at).map(|_| None);
    }
    le32(data, at).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zip::format::S_IFMT;

    /// Hosts by "version made by": FAT, Amiga, VMS, Unix, Atari, HPFS,
    /// Macintosh, NTFS, Acorn, VFAT, BeOS, THEOS, OS X, AtheOS, and one no
    /// one assigned.
    const HOSTS: [u16; 15] = [0, 1, 2, 3, 5, 6, 7, 11, 13, 14, 16, 18, 19, 30, 255];

    fn made_by(host: u16) -> u16 {
        host << 8 | 20
    }

    fn kind_of(name: &str, host: u16, external: u32) -> Result<Kind, ZipError> {
        kind(name, made_by(host), external, &[])
    }

    fn special(name: &str, kind: &'static str) -> ZipError {
        ZipError::SpecialFile {
            name: name.into(),
            kind,
        }
    }

    fn mismatch(name: &str, field: &'static str) -> ZipError {
        ZipError::KindMismatch {
            name: name.into(),
            field,
        }
    }

    /// One extra field.
    fn field(id: u16, data: &[u8]) -> Vec<u8> {
        let mut b = id.to_le_bytes().to_vec();
        b.extend_from_slice(&(data.len() as u16).to_le_bytes());
        b.extend_from_slice(data);
        b
    }

    /// An ASi Unix field's data: CRC-32, `mode`, size, user, group, `link`.
    fn asi(mode: u32, link: &[u8]) -> Vec<u8> {
        let mut b = vec![0; 4];
        b.extend_from_slice(&(mode as u16).to_le_bytes());
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(link);
        b
    }

    /// An `xl` field's data with "version made by" and external attributes.
    fn xl(host: u16, external: u32) -> Vec<u8> {
        let mut b = vec![1 | 4];
        b.extend_from_slice(&made_by(host).to_le_bytes());
        b.extend_from_slice(&external.to_le_bytes());
        b
    }

    /// The attack and its relatives: a Unix type other than file or
    /// directory in the high half is refused whatever the host says it
    /// was made on (`unzip` makes a link of it for FAT, Atari, BeOS,
    /// AtheOS, VMS and Unix hosts; Go for macOS; 7-Zip for FAT and NTFS
    /// with p7zip's marker).
    #[test]
    fn a_special_mode_is_refused_under_every_host() {
        let rows = [
            (0o120_644, "symbolic link"),
            (0o120_777, "symbolic link"),
            (0o020_644, "character device"),
            (0o060_644, "block device"),
            (0o010_644, "fifo"),
            (0o140_644, "socket"),
            (0o170_644, "file of unknown type"),
        ];
        for host in HOSTS {
            for (mode, expected) in rows {
                for low in [0, 0x20, 0x8000] {
                    let external = mode << 16 | low;
                    assert_eq!(
                        kind_of("s/link", host, external),
                        Err(special("s/link", expected)),
                        "host {host}, mode {mode:o}, low {low:#x}"
                    );
                }
            }
        }
    }

    /// A regular or directory mode must agree with the name under every
    /// host; no mode at all is read from the name. Only a Unix host's mode
    /// makes a file executable.
    #[test]
    fn files_and_directories_under_every_host() {
        for host in HOSTS {
            let executable = host == HOST_UNIX;
            let file = Kind::File { executable };
            let plain = Kind::File { executable: false };
            assert_eq!(kind_of("a", host, 0o100_755 << 16), Ok(file));
            assert_eq!(kind_of("a", host, 0o100_644 << 16 | 0x21), Ok(plain));
            assert_eq!(kind_of("a", host, 0), Ok(plain));
            assert_eq!(kind_of("d/", host, 0o040_755 << 16 | 0x10), Ok(Kind::Dir));
            assert_eq!(kind_of("d/", host, 0), Ok(Kind::Dir));
            assert_eq!(
                kind_of("d", host, 0o040_755 << 16),
                Err(mismatch("d", "Unix mode"))
            );
            assert_eq!(
                kind_of("d/", host, 0o100_644 << 16),
                Err(mismatch("d/", "Unix mode"))
            );
        }
    }

    /// libarchive, 7-Zip and Go make a directory of a FAT or NTFS entry
    /// with the DOS directory bit; `unzip` skips an entry with the volume
    /// label bit.
    #[test]
    fn dos_directory_and_volume_label_bits() {
        for host in HOSTS {
            assert_eq!(
                kind_of("d", host, 0x10),
                Err(mismatch("d", "DOS directory attribute")),
                "host {host}"
            );
            assert_eq!(kind_of("d/", host, 0x10), Ok(Kind::Dir));
            assert_eq!(kind_of("v", host, 0x08), Err(special("v", "volume label")));
            assert_eq!(
                kind_of("v/", host, 0x18),
                Err(special("v/", "volume label"))
            );
        }
    }

    fn extra_err(name: &str, extra: &[u8]) -> ZipError {
        let central = kind(name, made_by(3), 0, extra).unwrap_err();
        // A local header's extra fields are held to the same rules.
        assert_eq!(check_extra(name, extra), Err(central.clone()), "{name}");
        central
    }

    fn by_field(field: u16, kind: &'static str) -> ZipError {
        ZipError::SpecialExtraField {
            name: "a".into(),
            field,
            kind,
        }
    }

    fn bad(field: u16) -> ZipError {
        ZipError::BadExtraField {
            name: "a".into(),
            field,
        }
    }

    #[test]
    fn extra_fields_that_carry_a_mode_or_a_link() {
        let rows: [(&str, Vec<u8>, ZipError); 14] = [
            (
                "ASi mode 0120777 with its target",
                field(0x756e, &asi(0o120_777, b"/etc/passwd")),
                by_field(0x756e, "symbolic link"),
            ),
            (
                "ASi mode 0120777 without a target",
                field(0x756e, &asi(0o120_777, b"")),
                by_field(0x756e, "symbolic link"),
            ),
            (
                "ASi mode 010644",
                field(0x756e, &asi(0o010_644, b"")),
                by_field(0x756e, "fifo"),
            ),
            (
                "ASi regular mode with a link target",
                field(0x756e, &asi(0o100_644, b"/etc/passwd")),
                by_field(0x756e, "symbolic link"),
            ),
            (
                "ASi directory mode on a file",
                field(0x756e, &asi(0o040_755, b"")),
                mismatch("a", "ASi Unix extra field (0x756e)"),
            ),
            (
                "ASi field shorter than its fixed part",
                field(0x756e, &[0; 13]),
                bad(0x756e),
            ),
            (
                "PKWARE Unix field with link data",
                field(0x000d, &[&[0; 12][..], b"/etc/passwd"].concat()),
                by_field(0x000d, "symbolic link or device"),
            ),
            (
                "PKWARE Unix field shorter than its fixed part",
                field(0x000d, &[0; 8]),
                bad(0x000d),
            ),
            (
                "xl field: a link under Unix",
                field(0x6c78, &xl(3, 0o120_777 << 16)),
                by_field(0x6c78, "symbolic link"),
            ),
            (
                "xl field: a link under FAT",
                field(0x6c78, &xl(0, 0o120_644 << 16)),
                by_field(0x6c78, "symbolic link"),
            ),
            (
                "xl field: the DOS directory bit on a file",
                field(0x6c78, &xl(0, 0x10)),
                mismatch("a", "libarchive `xl` extra field (0x6c78)"),
            ),
            (
                "xl field shorter than its bitmap says",
                field(0x6c78, &xl(3, 0o100_644 << 16)[..5]),
                bad(0x6c78),
            ),
            (
                "Unicode Path field after a timestamp",
                [
                    field(0x5455, &[1, 0, 0, 0, 0]),
                    field(0x7075, &[1, 0, 0, 0, 0]),
                ]
                .concat(),
                ZipError::UnicodePathField { name: "a".into() },
            ),
            (
                "a field that runs past the block, hiding what follows",
                [field(0x5455, &[1, 0, 0, 0, 0]), vec![0x55, 0x54, 9, 0, 1]].concat(),
                bad(0x5455),
            ),
        ];
        for (what, extra, expected) in rows {
            assert_eq!(extra_err("a", &extra), expected, "{what}");
        }
    }

    /// What `zip`, Python, libarchive and our writer put in extra fields
    /// reads: timestamps, user and group ids, a PKWARE Unix field without
    /// link data, an ASi field of a regular file, an `xl` field of a
    /// regular file or directory, and up to 3 bytes of padding.
    #[test]
    fn ordinary_extra_fields_read() {
        let info_zip = [
            field(0x5455, &[3, 1, 2, 3, 4, 1, 2, 3, 4]),
            field(0x7875, &[1, 4, 0xe8, 3, 0, 0, 4, 0xe8, 3, 0, 0]),
            field(0x7875, &[]),
        ]
        .concat();
        let rows: [(&str, &str, Vec<u8>); 8] = [
            ("no extra fields", "a", Vec::new()),
            ("Info-ZIP `zip`'s UT and ux", "a", info_zip),
            (
                "PKWARE Unix without link data",
                "a",
                field(0x000d, &[0; 12]),
            ),
            (
                "ASi of a regular file",
                "a",
                field(0x756e, &asi(0o100_644, b"")),
            ),
            (
                "ASi of a directory",
                "d/",
                field(0x756e, &asi(0o040_755, b"")),
            ),
            (
                "libarchive's xl of a file, and a bitmap of two bytes",
                "a",
                [
                    field(0x6c78, &xl(3, 0o100_644 << 16)),
                    field(0x6c78, &[0x81, 0x00, 0, 0]),
                ]
                .concat(),
            ),
            (
                "libarchive's xl of a directory",
                "d/",
                field(0x6c78, &xl(3, 0o040_755 << 16 | 0x10)),
            ),
            ("three bytes of padding", "a", vec![0, 0, 0]),
        ];
        for (what, name, extra) in rows {
            assert!(kind(name, made_by(3), 0, &extra).is_ok(), "{what}");
            assert_eq!(check_extra(name, &extra), Ok(()), "{what}");
        }
        assert_eq!(S_IFMT, 0o170_000);
    }
}

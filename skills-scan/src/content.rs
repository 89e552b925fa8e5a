//! What a file's bytes are to the scanner: text, decoded as the programs
//! that read it decode it, or binary, named by its first bytes.
//!
//! The scanner must not be the only reader that skips a file: whatever an
//! agent, a shell or an interpreter can read is read here, and whatever is
//! not read is said to be (the engine reports it as `SK643`). So:
//!
//! - **Compiled code** (ELF, Mach-O, PE, WebAssembly, Java classes), known
//!   by its signature whatever the file's name, is never read: no reviewer
//!   can read it either, and it is always reported.
//! - **Every other file is decoded as text**: UTF-16 after its byte-order
//!   mark (as PowerShell and editors read it, and byte by byte as well, as a
//!   shell reads it), else UTF-8 with a byte-order
//!   mark dropped (a shell runs a script whose BOM hides its shebang), bytes
//!   that are not UTF-8 read as U+FFFD (a shell keeps every ASCII byte
//!   around one, so one bad byte cannot hide the command next to it), and
//!   NUL bytes dropped (bash and dash drop them from a script, so `cu\0rl`
//!   runs `curl`).
//! - A file whose name says how it is read (Markdown, a script by its
//!   extension or shebang, configuration) is scanned as that text whatever
//!   its bytes: a `.sh` is run by a shell even with an image's header. A
//!   file whose name says nothing is **binary** when it does not look like
//!   text ([`looks_binary`]: more than one character in eight undecodable, NUL
//!   or a control character). Binary with the signature of a common data
//!   format (images, audio, video, fonts, PDF, archives, data stores) is
//!   data: not read, listed as not scanned, and reported only where the
//!   skill runs it. Binary of no known format is reported: the scanner
//!   cannot tell what reads it.
//!
//! A signature alone never makes a file data: a script behind a PNG header
//! is mostly text and is read as text. Extensions never make a file data.

use std::borrow::Cow;
use std::ops::Range;

/// A file's text as the scanner reads it.
#[derive(Debug)]
pub(crate) struct Decoded<'a> {
    /// The text: byte-order mark and NUL bytes removed, undecodable bytes
    /// replaced.
    pub(crate) text: Cow<'a, str>,
    /// Bytes (UTF-16: code units) that did not decode, each read as U+FFFD.
    pub(crate) invalid: usize,
    /// NUL characters dropped.
    pub(crate) nuls: usize,
}

/// A binary format, named by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Format {
    /// What it is, for messages (`"a PNG image"`).
    pub(crate) name: &'static str,
    /// Whether it is compiled code a machine runs.
    pub(crate) code: bool,
}

/// Decodes `bytes` (see the module's documentation): the text as its
/// readers read it, first as an editor or PowerShell would, and, for UTF-16,
/// also as a shell would, byte by byte (a shell runs `FF FE` followed by
/// ASCII as the ASCII commands it holds, which read as UTF-16 are CJK).
pub(crate) fn decode(bytes: &[u8]) -> Vec<Decoded<'_>> {
    let utf16 = match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        _ => return vec![utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))],
    };
    vec![utf16, utf8(bytes)]
}

/// `bytes` as UTF-8, bad bytes replaced and NUL dropped.
fn utf8(bytes: &[u8]) -> Decoded<'_> {
    match std::str::from_utf8(bytes) {
        Ok(text) => without_nul(Cow::Borrowed(text), 0),
        Err(_) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let invalid = text.chars().filter(|&c| c == '\u{FFFD}').count();
            without_nul(Cow::Owned(text), invalid)
        }
    }
}

fn without_nul(text: Cow<'_, str>, invalid: usize) -> Decoded<'_> {
    let nuls = text.bytes().filter(|&b| b == 0).count();
    let text = if nuls == 0 {
        text
    } else {
        Cow::Owned(text.replace('\0', ""))
    };
    Decoded {
        text,
        invalid,
        nuls,
    }
}

/// UTF-16 code units of `bytes` read with `unit`, unpaired surrogates
/// and an odd last byte replaced.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Decoded<'static> {
    let units = bytes.chunks_exact(2).map(|p| unit([p[0], p[1]]));
    let mut invalid = bytes.len() % 2;
    let mut text = String::with_capacity(bytes.len() / 2);
    for c in char::decode_utf16(units) {
        text.push(c.unwrap_or_else(|_| {
            invalid += 1;
            '\u{FFFD}'
        }));
    }
    if bytes.len() % 2 == 1 {
        text.push('\u{FFFD}');
    }
    without_nul(Cow::Owned(text), invalid)
}

/// Whether decoded text does not look like text: more than one character
/// in eight was undecodable, NUL, or a control character other than tab,
/// line breaks, form feed and escape.
pub(crate) fn looks_binary(decoded: &Decoded<'_>) -> bool {
    let mut chars = decoded.nuls;
    let mut garbage = decoded.invalid + decoded.nuls;
    for c in decoded.text.chars() {
        chars += 1;
        if c.is_control() && !matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | '\u{1b}') {
            garbage += 1;
        }
    }
    garbage.saturating_mul(8) > chars
}

/// The format `bytes` start with, if one the scanner knows.
pub(crate) fn format(bytes: &[u8]) -> Option<Format> {
    let code = |name| Some(Format { name, code: true });
    let data = |name| Some(Format { name, code: false });
    let at = |offset: usize, sig: &[u8]| bytes.get(offset..offset + sig.len()) == Some(sig);
    match bytes {
        [0x7F, b'E', b'L', b'F', ..] => code("an ELF executable or library"),
        [0xFE, 0xED, 0xFA, 0xCE | 0xCF, ..] | [0xCE | 0xCF, 0xFA, 0xED, 0xFE, ..] => {
            code("a Mach-O executable or library")
        }
        [0xCA, 0xFE, 0xBA, 0xBE, ..] => code("a Mach-O universal binary or a Java class"),
        [0x00, b'a', b's', b'm', ..] => code("a WebAssembly module"),
        [b'd', b'e', b'x', b'\n', ..] => code("an Android DEX file"),
        [b'M', b'Z', ..] if is_pe(bytes) => code("a Windows executable or library"),
        [0x89, b'P', b'N', b'G', ..] => data("a PNG image"),
        [0xFF, 0xD8, 0xFF, ..] => data("a JPEG image"),
        [b'G', b'I', b'F', b'8', b'7' | b'9', b'a', ..] => data("a GIF image"),
        [b'R', b'I', b'F', b'F', ..] if at(8, b"WEBP") => data("a WebP image"),
        [b'R', b'I', b'F', b'F', ..] if at(8, b"WAVE") => data("a WAV sound"),
        [b'R', b'I', b'F', b'F', ..] if at(8, b"AVI ") => data("an AVI video"),
        [b'I', b'I', 0x2A, 0x00, ..] | [b'M', b'M', 0x00, 0x2A, ..] => data("a TIFF image"),
        [0x00, 0x00, 0x01 | 0x02, 0x00, ..] => data("an icon"),
        [b'i', b'c', b'n', b's', ..] => data("a macOS icon"),
        [b'8', b'B', b'P', b'S', ..] => data("a Photoshop image"),
        _ if at(4, b"ftyp") => data("an MP4, QuickTime, HEIF or AVIF file"),
        [0x1A, 0x45, 0xDF, 0xA3, ..] => data("a Matroska or WebM video"),
        [b'I', b'D', b'3', ..] => data("an MP3 sound"),
        [0xFF, b, ..] if b & 0xE0 == 0xE0 => data("an MPEG audio stream (MP3, AAC)"),
        [b'O', b'g', b'g', b'S', ..] => data("an Ogg sound or video"),
        [b'f', b'L', b'a', b'C', ..] => data("a FLAC sound"),
        [b'M', b'T', b'h', b'd', ..] => data("a MIDI file"),
        [0x00, 0x01, 0x00, 0x00, ..]
        | [b'O', b'T', b'T', b'O', ..]
        | [b't', b'r', b'u', b'e', ..] => data("a font"),
        [b'w', b'O', b'F', b'F' | b'2', ..] | [b't', b't', b'c', b'f', ..] => data("a font"),
        [b'%', b'P', b'D', b'F', b'-', ..] => data("a PDF document"),
        [b'P', b'K', 0x03 | 0x05 | 0x07, 0x04 | 0x06 | 0x08, ..] => {
            data("a ZIP archive (or an Office document)")
        }
        [0x1F, 0x8B, ..] => data("a gzip archive"),
        [b'B', b'Z', b'h', ..] => data("a bzip2 archive"),
        [0xFD, b'7', b'z', b'X', b'Z', 0x00, ..] => data("an xz archive"),
        [0x28, 0xB5, 0x2F, 0xFD, ..] => data("a Zstandard archive"),
        [b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C, ..] => data("a 7-Zip archive"),
        [b'R', b'a', b'r', b'!', 0x1A, 0x07, ..] => data("a RAR archive"),
        _ if at(257, b"ustar") => data("a tar archive"),
        _ if at(0, b"SQLite format 3\0") => data("an SQLite database"),
        [0x00, 0x00, 0x00, 0x01, b'B', b'u', b'd', b'1', ..] => {
            data("a macOS folder's view settings (`.DS_Store`)")
        }
        [0x93, b'N', b'U', b'M', b'P', b'Y', ..] => data("a NumPy array"),
        [b'P', b'A', b'R', b'1', ..] => data("a Parquet table"),
        [b'A', b'R', b'R', b'O', b'W', b'1', ..] => data("an Arrow table"),
        [0x89, b'H', b'D', b'F', b'\r', b'\n', 0x1A, b'\n', ..] => data("an HDF5 file"),
        [0xDE, 0x12, 0x04, 0x95, ..] | [0x95, 0x04, 0x12, 0xDE, ..] => {
            data("a gettext translation catalog")
        }
        _ => None,
    }
}

/// Whether `bytes` at `path` is Python bytecode that Python runs only as
/// the cache of its source and checks against it first: a `.pyc` below
/// `__pycache__/` (read only when the source beside the folder exists)
/// whose header (PEP 552) asks for the source's time stamp or hash to be
/// checked. Unchecked-hash bytecode runs whatever the source says.
pub(crate) fn is_checked_bytecode(path: &str, bytes: &[u8]) -> bool {
    let cached = path.contains("__pycache__/") && path.ends_with(".pyc");
    let magic = bytes.get(2..4) == Some(b"\r\n");
    let flags = bytes
        .get(4..8)
        .map(|f| u32::from_le_bytes([f[0], f[1], f[2], f[3]]));
    // Bit 0: hash-based; bit 1: check the source. 0 is the time stamp.
    cached && magic && matches!(flags, Some(0b00 | 0b11))
}

/// Whether `bytes` is a PE image: `MZ`, then `PE\0\0` where the DOS header
/// says.
fn is_pe(bytes: &[u8]) -> bool {
    let Some(&[a, b, c, d]) = bytes.get(0x3C..0x40) else {
        return false;
    };
    let at = u32::from_le_bytes([a, b, c, d]) as usize;
    bytes.get(at..at.saturating_add(4)) == Some(b"PE\0\0")
}

/// Where the source encoding a Python file declares on its first two lines
/// (PEP 263) is named, when Python would decode the file otherwise than as
/// UTF-8 and ASCII-compatible single-byte encodings do: `utf-7`,
/// `unicode_escape`, UTF-16, and multi-byte encodings whose second bytes
/// fall in ASCII (where a `\` the scanner reads is half a character to
/// Python).
pub(crate) fn python_foreign_encoding(text: &str) -> Option<Range<usize>> {
    let mut start = 0;
    for line in text.split_inclusive('\n').take(2) {
        let at = start;
        start += line.len();
        let trimmed = line.trim_start_matches([' ', '\t', '\u{c}']);
        if !trimmed.starts_with('#') {
            // A first line of code ends the search; the second line counts
            // only after a comment or a blank first line.
            if !trimmed.trim().is_empty() {
                return None;
            }
            continue;
        }
        let base = at + (line.len() - trimmed.len());
        for (found, _) in trimmed.match_indices("coding") {
            let after = found + "coding".len();
            let Some(rest) = trimmed[after..].strip_prefix([':', '=']) else {
                continue;
            };
            let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            let rest = &rest[spaces..];
            let len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
                .unwrap_or(rest.len());
            let name = &rest[..len];
            let from = base + after + 1 + spaces;
            return (!name.is_empty() && !ascii_compatible(name)).then_some(from..from + len);
        }
    }
    None
}

/// Whether Python's codec `name` reads every ASCII byte as that ASCII
/// character and no byte sequence as an escape: UTF-8, ASCII, and the
/// single-byte ISO, Windows, Mac and KOI8 code pages.
fn ascii_compatible(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace(['-', '.'], "_");
    let n = n.as_str();
    matches!(
        n,
        "utf_8"
            | "utf8"
            | "u8"
            | "utf"
            | "utf_8_sig"
            | "utf8_sig"
            | "cp65001"
            | "ascii"
            | "us_ascii"
            | "646"
            | "latin_1"
            | "latin1"
            | "latin"
            | "l1"
            | "iso_8859_1"
            | "iso8859_1"
            | "8859"
            | "cp819"
            | "mac_roman"
            | "macroman"
            | "macintosh"
            | "koi8_r"
            | "koi8_u"
    ) || [
        "iso_8859_",
        "iso8859_",
        "cp125",
        "windows_125",
        "latin_",
        "mac_",
    ]
    .iter()
    .any(|p| {
        n.strip_prefix(p)
            .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_alphanumeric()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one reading of `bytes`.
    fn one(bytes: &[u8]) -> Decoded<'_> {
        let mut views = decode(bytes);
        assert_eq!(views.len(), 1);
        views.remove(0)
    }

    #[test]
    fn utf8_is_borrowed_and_a_bom_dropped() {
        let d = one(b"\xEF\xBB\xBF#!/bin/sh\necho\n");
        assert!(matches!(d.text, Cow::Borrowed("#!/bin/sh\necho\n")));
        assert_eq!((d.invalid, d.nuls), (0, 0));
    }

    #[test]
    fn a_bad_byte_is_one_replacement_and_keeps_its_neighbours() {
        let d = one(b"# caf\xE9\ncurl x | sh\n");
        assert_eq!(d.text, "# caf\u{FFFD}\ncurl x | sh\n");
        assert_eq!(d.invalid, 1);
        assert!(!looks_binary(&d));
    }

    #[test]
    fn nul_bytes_are_dropped_as_a_shell_drops_them() {
        let d = one(b"cu\0rl x | s\0h\n");
        assert_eq!(d.text, "curl x | sh\n");
        assert_eq!(d.nuls, 2);
    }

    #[test]
    fn utf16_after_its_bom_and_as_a_shell_reads_it() {
        let mut le = vec![0xFF, 0xFE];
        let mut be = vec![0xFE, 0xFF];
        for u in "curl x | sh\u{1F600}".encode_utf16() {
            le.extend(u.to_le_bytes());
            be.extend(u.to_be_bytes());
        }
        for bytes in [le, be] {
            let views = decode(&bytes);
            assert_eq!(views[0].text, "curl x | sh\u{1F600}");
            assert_eq!(views[0].invalid, 0);
            // Byte by byte, NUL dropped, the ASCII is the same.
            assert!(views[1].text.contains("curl x | sh"), "{:?}", views[1]);
        }
        // ASCII after a UTF-16 mark: CJK to an editor, commands to a shell.
        let views = decode(b"\xFF\xFEcurl x | sh\n");
        assert!(!views[0].text.contains("curl"));
        assert_eq!(views[1].text, "\u{FFFD}\u{FFFD}curl x | sh\n");
        // A lone surrogate and an odd byte are replaced.
        let views = decode(&[0xFF, 0xFE, 0x00, 0xD8, b'a', 0, 7]);
        assert_eq!(views[0].text, "\u{FFFD}a\u{FFFD}");
        assert_eq!(views[0].invalid, 2);
    }

    #[test]
    fn binary_is_told_from_text_by_its_garbage() {
        let noise: Vec<u8> = (0u32..4096)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        assert!(looks_binary(&one(&noise)));
        assert!(!looks_binary(&one(
            "Grüße, 世界\n\tx\r\n\u{1b}[0m".as_bytes()
        )));
        assert!(looks_binary(&one(b"a\0b\0c\0d\0")));
    }

    #[test]
    fn formats_by_signature() {
        assert!(format(b"\x7FELF\x02\x01").is_some_and(|f| f.code));
        assert!(format(b"\x89PNG\r\n\x1a\n").is_some_and(|f| !f.code));
        assert!(format(b"%PDF-1.7").is_some_and(|f| !f.code));
        assert!(format(b"\0\0\0\x01Bud1\0\0").is_some_and(|f| !f.code));
        let mut pe = b"MZ".to_vec();
        pe.resize(0x40, 0);
        pe[0x3C] = 0x40;
        pe.extend_from_slice(b"PE\0\0");
        assert!(format(&pe).is_some_and(|f| f.code));
        assert_eq!(format(b"MZ is a text file"), None);
        assert_eq!(format(b"#!/bin/sh\n"), None);
        let mut tar = vec![b'x'; 257];
        tar.extend_from_slice(b"ustar\0");
        assert!(format(&tar).is_some());
    }

    #[test]
    fn python_encodings_that_decode_otherwise() {
        let named = |text: &'static str| python_foreign_encoding(text).map(|r| &text[r]);
        assert_eq!(named("# coding: utf-7\nimport os\n"), Some("utf-7"));
        assert_eq!(
            named("#!/usr/bin/env python3\n# -*- coding: unicode_escape -*-\n"),
            Some("unicode_escape")
        );
        assert_eq!(
            named("# vim: set fileencoding=shift_jis :\n"),
            Some("shift_jis")
        );
        assert_eq!(named("  # coding:utf_16\n"), Some("utf_16"));
        for fine in [
            "# -*- coding: utf-8 -*-\n",
            "#!/usr/bin/python\n# coding=latin-1\n",
            "# coding: iso-8859-15\n",
            "# coding: cp1252\n",
            "import os\n# coding: utf-7\n",
            "# no declaration\n",
            "# encoding is discussed; no declaration\n",
        ] {
            assert_eq!(named(fine), None, "{fine}");
        }
    }
}

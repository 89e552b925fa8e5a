//! What a scan is given: the skill's files, as a caller hands them over
//! ([`SkillFile`]) or as the engine takes them, perhaps read only in part
//! ([`Input`]), and the options that bound the work.

/// One file of a skill, as the scanner takes it.
#[derive(Debug, Clone, Copy)]
pub struct SkillFile<'a> {
    /// The path relative to the skill's folder, `/`-separated (`SKILL.md`,
    /// `scripts/run.sh`).
    pub path: &'a str,
    /// The file's bytes.
    pub bytes: &'a [u8],
}

/// Bounds of a scan, and whose markers it honours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Files larger than this are not read: listed as not scanned, and
    /// reported (`SK643`) unless they are binary data of a known format.
    pub max_file_bytes: u64,
    /// The most bytes decoding may produce from one file, all layers together.
    pub max_decoded_bytes: usize,
    /// How many encodings deep a payload is followed (`base64` of `zlib` is 2).
    pub max_decode_depth: u8,
    /// Whether inline markers suppress the findings they cover.
    pub markers: Markers,
}

/// What the inline markers of the scanned files do (see [`suppress`](crate::suppress)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Markers {
    /// A marker with a reason suppresses what it covers: the findings move
    /// to [`Report::suppressed`](crate::Report::suppressed). For the author's own scans (`skb scan`),
    /// where the marker is the author's reviewed decision.
    #[default]
    Honour,
    /// Markers suppress nothing: each finding a marker covers stays in
    /// [`Report::findings`](crate::Report::findings), its message saying what the marker claimed, and
    /// is listed in [`Report::claimed`](crate::Report::claimed). For a gate over a skill someone
    /// else wrote (an installer), where the skill must not lower its own
    /// gate and only the user accepts a finding.
    Report,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_file_bytes: 8 << 20,
            max_decoded_bytes: 1 << 20,
            max_decode_depth: 3,
            markers: Markers::Honour,
        }
    }
}

/// A file as the engine takes it: `bytes` are the whole file, or only its
/// start when it is larger than `size` allows reading ([`crate::scan_dir`]
/// reads no more than the bound).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Input<'a> {
    pub(crate) path: &'a str,
    pub(crate) bytes: &'a [u8],
    pub(crate) size: u64,
}

/// How much of a file judges whether it is binary when it is not read
/// whole.
pub(crate) const HEAD: usize = 8 << 10;

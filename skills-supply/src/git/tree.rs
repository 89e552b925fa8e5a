//! The tree of a commit measured against the bounds on what a checkout
//! fetches and writes ([`GitLimits`]) before anything is written:
//! `git ls-tree -r -l -z` read as it streams ([`Listing`]), one record at a
//! time, and stopped at the first record over a limit, so neither a huge
//! tree nor a long path costs more memory than one record. Also the blobs
//! of a tree a partial fetch left out: `git ls-tree -r -z` (ids, no sizes)
//! and `git rev-list --objects --missing=print` ([`Missing`]).

use std::collections::HashSet;

use super::limits::{GitLimit, GitLimits};
use super::run::Stdout;

/// Longest record header: `<mode> <type> <object id> <size>` (a SHA-256 id
/// is 64 digits; a size at most 20), with room to spare.
const HEADER_MAX: usize = 128;
/// Most bytes of a path shown in a message.
const SHOWN_PATH: usize = 120;

/// What `git ls-tree -r -l -z --full-tree` said, read against the limits.
#[derive(Debug)]
pub(super) struct Listing {
    limits: GitLimits,
    /// A record not yet ended by its NUL.
    pending: Vec<u8>,
    /// Files so far.
    pub(super) files: usize,
    /// Their recorded sizes added.
    bytes: u64,
    /// The subpath listed, if any.
    subpath: Option<String>,
    /// The mode of the record whose path is the subpath itself: the subpath
    /// is then a file, a link or a submodule, not a folder.
    pub(super) subpath_mode: Option<String>,
    /// The first problem met; reading stops there.
    pub(super) problem: Option<Problem>,
    /// Whether records carry sizes (`ls-tree -l`).
    sizes: bool,
    /// The ids of the blobs listed, when listed without sizes.
    pub(super) blobs: HashSet<String>,
}

/// Why a listing was not read to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Problem {
    /// Over a limit: which, and a sentence with the figures.
    Over(GitLimit, String),
    /// A record that is not what `ls-tree -l` writes.
    Malformed(String),
}

impl Listing {
    /// An empty listing of the tree, or of `subpath` in it.
    pub(super) fn new(limits: GitLimits, subpath: Option<&str>) -> Listing {
        Listing {
            limits,
            pending: Vec::new(),
            files: 0,
            bytes: 0,
            subpath: subpath.map(str::to_owned),
            subpath_mode: None,
            problem: None,
            sizes: true,
            blobs: HashSet::new(),
        }
    }

    /// An empty listing without sizes (`ls-tree` without `-l`), keeping
    /// the ids of the blobs: files, paths and depth are checked.
    pub(super) fn ids(limits: GitLimits, subpath: Option<&str>) -> Listing {
        Listing {
            sizes: false,
            ..Listing::new(limits, subpath)
        }
    }

    /// After the run: a record left without its NUL is a cut listing.
    pub(super) fn finish(&mut self) {
        if self.problem.is_none() && !self.pending.is_empty() {
            self.problem = Some(Problem::Malformed(
                "the listing ends inside a record".to_owned(),
            ));
        }
    }

    /// Reads one record, `<mode> <type> <id> <size>\t<path>`.
    fn record(&mut self, record: &[u8]) -> Result<(), Problem> {
        let malformed = || {
            Problem::Malformed(format!(
                "`{}` is not a record of `git ls-tree -l`",
                shown(&String::from_utf8_lossy(record))
            ))
        };
        let tab = record
            .iter()
            .position(|&b| b == b'\t')
            .ok_or_else(malformed)?;
        let header = std::str::from_utf8(&record[..tab]).map_err(|_| malformed())?;
        let path = String::from_utf8_lossy(&record[tab + 1..]);
        let fields: Vec<&str> = header.split(' ').filter(|f| !f.is_empty()).collect();
        let (mode, kind, id, size) = match (fields.as_slice(), self.sizes) {
            ([mode, kind, id, size], true) => (*mode, *kind, *id, *size),
            // Without `-l` a record has no size: it counts as 0.
            ([mode, kind, id], false) => {
                (*mode, *kind, *id, if *kind == "blob" { "0" } else { "-" })
            }
            _ => return Err(malformed()),
        };
        let size = match (kind, size) {
            ("blob", size) => size.parse::<u64>().map_err(|_| malformed())?,
            // A submodule: git writes an empty folder.
            ("commit", "-") => 0,
            _ => return Err(malformed()),
        };
        let limits = self.limits;
        let over = |limit, text: String| Err(Problem::Over(limit, text));
        if record.len() - tab - 1 > limits.max_path_bytes {
            return over(
                GitLimit::PathBytes,
                format!(
                    "`{}` is {} bytes long; a path may have at most {}",
                    shown(&path),
                    record.len() - tab - 1,
                    limits.max_path_bytes
                ),
            );
        }
        let depth = path.split('/').count();
        if depth > limits.max_depth {
            return over(
                GitLimit::Depth,
                format!(
                    "`{}` is {depth} levels deep; a path may have at most {}",
                    shown(&path),
                    limits.max_depth
                ),
            );
        }
        self.files += 1;
        if self.files > limits.max_files {
            return over(
                GitLimit::Files,
                format!("the tree has more than {} files", limits.max_files),
            );
        }
        if size > limits.max_file_bytes {
            return over(
                GitLimit::FileBytes,
                format!(
                    "`{}` is {size} bytes; a file may have at most {}",
                    shown(&path),
                    limits.max_file_bytes
                ),
            );
        }
        self.bytes = self.bytes.saturating_add(size);
        if self.bytes > limits.max_total_bytes {
            return over(
                GitLimit::TotalBytes,
                format!(
                    "the tree's files add up to more than {} bytes",
                    limits.max_total_bytes
                ),
            );
        }
        if self.subpath.as_deref() == Some(&*path) {
            self.subpath_mode = Some(mode.to_owned());
        }
        if !self.sizes && kind == "blob" {
            self.blobs.insert(id.to_owned());
        }
        Ok(())
    }
}

/// The objects `git rev-list --objects --missing=print --no-object-names`
/// says are missing (its `?<id>` lines): those among `wanted`, or all of
/// them when `wanted` is `None`, then at most `max` (more is a tree of more
/// files than the limit allows).
#[derive(Debug)]
pub(super) struct Missing {
    wanted: Option<HashSet<String>>,
    max: usize,
    /// A line not yet ended.
    pending: Vec<u8>,
    /// The missing objects found.
    pub(super) found: Vec<String>,
    /// The first problem met; reading stops there.
    pub(super) problem: Option<Problem>,
}

impl Missing {
    pub(super) fn new(wanted: Option<HashSet<String>>, max: usize) -> Missing {
        Missing {
            wanted,
            max,
            pending: Vec::new(),
            found: Vec::new(),
            problem: None,
        }
    }

    fn line(&mut self, line: &[u8]) -> Result<(), Problem> {
        let Some(id) = line.strip_prefix(b"?") else {
            return Ok(());
        };
        let id = std::str::from_utf8(id)
            .ok()
            .filter(|id| matches!(id.len(), 40 | 64) && id.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| {
                Problem::Malformed(format!(
                    "`{}` is not a line of `git rev-list --missing=print`",
                    shown(&String::from_utf8_lossy(line))
                ))
            })?;
        if self.wanted.as_ref().is_some_and(|w| !w.contains(id)) {
            return Ok(());
        }
        self.found.push(id.to_owned());
        if self.found.len() > self.max {
            return Err(Problem::Over(
                GitLimit::Files,
                format!("the tree has more than {} files", self.max),
            ));
        }
        Ok(())
    }
}

impl Stdout for Missing {
    fn take(&mut self, bytes: &[u8]) -> bool {
        if self.problem.is_some() {
            return false;
        }
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.pending.extend_from_slice(&rest[..end]);
            rest = &rest[end + 1..];
            let line = std::mem::take(&mut self.pending);
            if let Err(problem) = self.line(&line) {
                self.problem = Some(problem);
                return false;
            }
        }
        self.pending.extend_from_slice(rest);
        if self.pending.len() > HEADER_MAX {
            self.problem = Some(Problem::Malformed(
                "a line of `git rev-list` is longer than an object id".to_owned(),
            ));
            return false;
        }
        true
    }
}

impl Stdout for Listing {
    fn take(&mut self, bytes: &[u8]) -> bool {
        if self.problem.is_some() {
            return false;
        }
        let mut rest = bytes;
        while let Some(nul) = rest.iter().position(|&b| b == 0) {
            self.pending.extend_from_slice(&rest[..nul]);
            rest = &rest[nul + 1..];
            let record = std::mem::take(&mut self.pending);
            if let Err(problem) = self.record(&record) {
                self.problem = Some(problem);
                return false;
            }
        }
        self.pending.extend_from_slice(rest);
        if self.pending.len() > HEADER_MAX + self.limits.max_path_bytes {
            let path = self
                .pending
                .iter()
                .position(|&b| b == b'\t')
                .map_or(&self.pending[..0], |tab| &self.pending[tab + 1..]);
            self.problem = Some(Problem::Over(
                GitLimit::PathBytes,
                format!(
                    "`{}` is longer than {} bytes, the most a path may have",
                    shown(&String::from_utf8_lossy(path)),
                    self.limits.max_path_bytes
                ),
            ));
            return false;
        }
        true
    }
}

/// `text` for a message: control characters escaped, cut after
/// [`SHOWN_PATH`] characters.
fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(SHOWN_PATH).collect::<String>();
    if out.len() < text.len() {
        out.push('…');
    }
    out.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";

    fn record(mode: &str, kind: &str, size: &str, path: &str) -> Vec<u8> {
        format!("{mode} {kind} {ID} {size:>7}\t{path}\0").into_bytes()
    }

    /// Feeds `bytes` one byte at a time (records cut anywhere).
    fn read(limits: GitLimits, bytes: &[u8]) -> Listing {
        let mut listing = Listing::new(limits, Some("a/link"));
        for b in bytes.chunks(1) {
            if !listing.take(b) {
                break;
            }
        }
        listing.finish();
        listing
    }

    #[test]
    fn a_listing_is_counted_and_kept() {
        let mut bytes = record("100644", "blob", "5", "a/SKILL.md");
        bytes.extend(record("120000", "blob", "3", "a/link"));
        bytes.extend(record("160000", "commit", "-", "sub"));
        bytes.extend(record("100755", "blob", "12", "a/b\tc\nd"));
        let listing = read(GitLimits::default(), &bytes);
        assert_eq!(listing.problem, None);
        assert_eq!((listing.files, listing.bytes), (4, 20));
        assert_eq!(listing.subpath_mode.as_deref(), Some("120000"));
    }

    #[test]
    fn each_limit_is_named() {
        let over = |limits: GitLimits, bytes: &[u8]| match read(limits, bytes).problem {
            Some(Problem::Over(limit, text)) => (limit, text),
            other => panic!("{other:?}"),
        };
        let one = record("100644", "blob", "2097152", "big/zeros.bin");
        let (limit, text) = over(
            GitLimits {
                max_file_bytes: 1 << 20,
                ..GitLimits::default()
            },
            &one,
        );
        assert_eq!(limit, GitLimit::FileBytes);
        assert!(text.contains("`big/zeros.bin` is 2097152 bytes") && text.contains("1048576"));
        let two = [one.clone(), one.clone()].concat();
        let total = GitLimits {
            max_total_bytes: 3 << 20,
            ..GitLimits::default()
        };
        assert_eq!(over(total, &two).0, GitLimit::TotalBytes);
        let files = GitLimits {
            max_files: 1,
            ..GitLimits::default()
        };
        assert_eq!(over(files, &two).0, GitLimit::Files);
        let deep = record("100644", "blob", "1", "a/b/c/d");
        let depth = GitLimits {
            max_depth: 3,
            ..GitLimits::default()
        };
        assert_eq!(over(depth, &deep).0, GitLimit::Depth);
        let short = GitLimits {
            max_path_bytes: 6,
            ..GitLimits::default()
        };
        assert_eq!(over(short, &deep).0, GitLimit::PathBytes);
        // A path that never ends is stopped after the header and the limit.
        let mut endless = b"100644 blob x 1\t".to_vec();
        endless.extend(vec![b'a'; 10_000]);
        let listing = read(short, &endless);
        assert!(matches!(
            listing.problem,
            Some(Problem::Over(GitLimit::PathBytes, _))
        ));
        assert!(listing.pending.len() <= HEADER_MAX + 7);
    }

    #[test]
    fn a_listing_without_sizes_keeps_the_blob_ids() {
        let mut listing = Listing::ids(GitLimits::default(), None);
        let bytes = format!(
            "100644 blob {ID}\ta/SKILL.md\0160000 commit {}\tsub\0",
            "1".repeat(40)
        );
        assert!(listing.take(bytes.as_bytes()));
        listing.finish();
        assert_eq!(listing.problem, None);
        assert_eq!(listing.files, 2);
        assert_eq!(listing.blobs.iter().collect::<Vec<_>>(), [ID]);
        // With sizes expected, a record without one is malformed.
        let mut sized = Listing::new(GitLimits::default(), None);
        sized.take(format!("100644 blob {ID}\ta\0").as_bytes());
        assert!(matches!(sized.problem, Some(Problem::Malformed(_))));
    }

    #[test]
    fn missing_objects_are_those_wanted_up_to_the_limit() {
        let other = "2".repeat(40);
        let out = format!("{}\n?{ID}\n?{other}\n{}\n", "3".repeat(40), "4".repeat(40));
        let wanted: HashSet<String> = [ID.to_owned()].into();
        let mut missing = Missing::new(Some(wanted), 10);
        for chunk in out.as_bytes().chunks(7) {
            assert!(missing.take(chunk));
        }
        assert_eq!(missing.found, [ID]);
        let mut all = Missing::new(None, 10);
        all.take(out.as_bytes());
        assert_eq!(all.found, [ID.to_owned(), other]);
        let mut few = Missing::new(None, 1);
        assert!(!few.take(out.as_bytes()));
        assert!(matches!(
            few.problem,
            Some(Problem::Over(GitLimit::Files, _))
        ));
        let mut bad = Missing::new(None, 10);
        assert!(!bad.take(b"?not-an-id\n"));
        assert!(matches!(bad.problem, Some(Problem::Malformed(_))));
    }

    #[test]
    fn what_ls_tree_does_not_write_is_malformed() {
        for bad in [
            &b"100644 blob x\tno-size\0"[..],
            b"100644 tree x -\tdir\0",
            b"100644 blob x 12a\tp\0",
            b"no tab at all\0",
            b"100644 blob x 1\tcut",
        ] {
            let listing = read(GitLimits::default(), bad);
            assert!(
                matches!(listing.problem, Some(Problem::Malformed(_))),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}

//! The bounds on what a checkout fetches and writes ([`GitLimits`]), and
//! which one a tree went over ([`GitLimit`]).

use std::fmt;

/// Bounds on one checkout. The defaults are the zip reader's
/// (`skills_core::zip::Limits`: 100,000 entries, 16 MiB a file, 256 MiB in
/// all), so a skill from git is held to what a skill from an archive is,
/// and the depth is the installed-tree walk's (32 folders).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GitLimits {
    /// Most bytes git may write under the repository (`.git`) while it
    /// fetches: the pack as it arrives, checked every 100 ms and when the
    /// fetch ends. Default 1 GiB (a fetch of one commit is compressed; a
    /// server that cannot send one commit is asked for every branch and
    /// tag). git still inflates every object it receives to check its id:
    /// a highly compressed object costs time (bounded by
    /// [`GitOptions::timeout`](super::GitOptions)), not disk.
    pub max_fetch_bytes: u64,
    /// Most files (blobs, links and submodules) in the tree, or in the
    /// subpath. Default 100,000.
    pub max_files: usize,
    /// Largest file, as the tree records it. Default 16 MiB.
    pub max_file_bytes: u64,
    /// Largest sum of the files' sizes as the tree records them; also
    /// checked on what git writes, every 100 ms and at the end, since a
    /// filter (Git LFS) may write more than the tree holds. Default 256 MiB.
    pub max_total_bytes: u64,
    /// Longest path from the repository's root, in bytes. Default 1,024.
    pub max_path_bytes: usize,
    /// Most components in a path from the repository's root (`a/b/c` has
    /// 3). Default 32.
    pub max_depth: usize,
}

impl Default for GitLimits {
    fn default() -> Self {
        GitLimits {
            max_fetch_bytes: 1 << 30,
            max_files: 100_000,
            max_file_bytes: 16 << 20,
            max_total_bytes: 256 << 20,
            max_path_bytes: 1024,
            max_depth: 32,
        }
    }
}

/// Which of the [`GitLimits`] a repository is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum GitLimit {
    /// [`GitLimits::max_fetch_bytes`].
    FetchBytes,
    /// [`GitLimits::max_files`].
    Files,
    /// [`GitLimits::max_file_bytes`].
    FileBytes,
    /// [`GitLimits::max_total_bytes`].
    TotalBytes,
    /// [`GitLimits::max_path_bytes`].
    PathBytes,
    /// [`GitLimits::max_depth`].
    Depth,
}

impl fmt::Display for GitLimit {
    /// The field's name, `GitLimits::max_…`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GitLimit::FetchBytes => "GitLimits::max_fetch_bytes",
            GitLimit::Files => "GitLimits::max_files",
            GitLimit::FileBytes => "GitLimits::max_file_bytes",
            GitLimit::TotalBytes => "GitLimits::max_total_bytes",
            GitLimit::PathBytes => "GitLimits::max_path_bytes",
            GitLimit::Depth => "GitLimits::max_depth",
        })
    }
}

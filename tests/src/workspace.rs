//! Where the workspace is, for the helpers and tiers that read files in it.

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

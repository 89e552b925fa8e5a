//! How OpenCode reads a skill folder. (Being written: every folder is
//! reported as not yet modelled.)

use std::path::Path;

use super::{Outcome, Reading};

/// Reads the skill folder `dir` as OpenCode does.
pub fn read(dir: &Path) -> Reading {
    let path = dir.join("SKILL.md");
    match std::fs::read(&path) {
        Ok(bytes) => read_bytes(dir, &path, &bytes),
        Err(e) => Reading::new(Outcome::NotListed {
            why: format!("`SKILL.md` cannot be read: {e}"),
        }),
    }
}

/// Reads `bytes`, the `SKILL.md` at `path` of the skill folder `dir`, as
/// OpenCode does.
pub fn read_bytes(_dir: &Path, _path: &Path, _bytes: &[u8]) -> Reading {
    Reading::new(Outcome::Unknown {
        why: "not modelled yet".into(),
    })
}

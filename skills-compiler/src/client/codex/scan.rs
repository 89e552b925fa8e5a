//! What Codex's scan loads ([`scans`]) and the limits and fixed messages
//! of its loader: the constants its readers share.

use std::path::{Component, Path};

/// Folder levels below a root that Codex's scan descends.
pub const MAX_DEPTH: usize = 6;
/// The longest name Codex loads, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// The only file name Codex loads as a skill.
pub const SKILL_MD: &str = "SKILL.md";
/// Codex's reason for a file without a frontmatter it can find.
pub const MISSING_FRONTMATTER: &str = "missing YAML frontmatter delimited by ---";
/// Codex's reason for a file that is not UTF-8.
pub const NOT_UTF8: &str = "failed to read file: stream did not contain valid UTF-8";

/// Whether Codex's scan of a root loads the file at `relative` (a path below
/// that root, `/`-separated folders then the file name): the file is named
/// `SKILL.md`, no folder on the way starts with `.`, and the file's folder is
/// at most [`MAX_DEPTH`] levels below the root. Symbolic links to folders
/// count as folders (Codex follows them).
pub fn scans(relative: &Path) -> bool {
    let mut parts: Vec<&str> = Vec::new();
    for c in relative.components() {
        match c {
            Component::Normal(p) => match p.to_str() {
                Some(p) => parts.push(p),
                None => return false,
            },
            Component::CurDir => {}
            _ => return false,
        }
    }
    let Some((file, folders)) = parts.split_last() else {
        return false;
    };
    *file == SKILL_MD && folders.len() <= MAX_DEPTH && !folders.iter().any(|f| f.starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scan_rule() {
        for (path, expected) in [
            ("SKILL.md", true),
            ("a/SKILL.md", true),
            ("node_modules/x/SKILL.md", true),
            ("a/b/c/d/e/f/SKILL.md", true),
            ("a/b/c/d/e/f/g/SKILL.md", false),
            (".hidden/SKILL.md", false),
            ("a/.git/b/SKILL.md", false),
            ("a/skill.md", false),
            ("a/README.md", false),
            ("../a/SKILL.md", false),
            ("", false),
        ] {
            assert_eq!(scans(Path::new(path)), expected, "{path}");
        }
    }
}

//! Normalised relative paths inside a skill.
//!
//! A skill's files are named by `/`-separated paths relative to the skill
//! directory. The compiler stores them in this form and the runtime accepts
//! only paths that normalise to it, so a read can never leave its skill:
//! `./a/b` is `a/b`, while `..`, absolute paths, backslashes, NUL bytes,
//! drive letters and empty components are refused.

use std::fmt;

/// Why a path was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathError {
    /// The path is empty (or only `.` components).
    Empty,
    /// The path starts with `/` or a drive letter.
    Absolute,
    /// A `..` component.
    ParentDir,
    /// A `\`, which means a separator on Windows.
    Backslash,
    /// A NUL byte or another control character.
    Control,
    /// An empty component (`a//b`).
    EmptyComponent,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathError::Empty => "the path is empty",
            PathError::Absolute => {
                "the path is absolute; paths are relative to the skill directory"
            }
            PathError::ParentDir => "the path contains `..`; it may not leave the skill directory",
            PathError::Backslash => "the path contains `\\`; use `/` as the separator",
            PathError::Control => "the path contains a control character",
            PathError::EmptyComponent => "the path contains an empty component (`//`)",
        })
    }
}

impl std::error::Error for PathError {}

/// Whether `path` is already normal: what [`normalize`] would return unchanged.
/// A cheap check, so that lookups of normal paths allocate nothing.
pub fn is_normal(path: &str) -> bool {
    let b = path.as_bytes();
    if b.is_empty() || b[0] == b'/' || (b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic())
    {
        return false;
    }
    // One pass over the bytes: no `\`, no control character, and every
    // component non-empty and not `.` or `..`.
    let mut component = 0usize;
    let mut dots = 0usize;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'/' => {
                if component == 0 || component == dots && dots <= 2 {
                    return false;
                }
                component = 0;
                dots = 0;
            }
            b'\\' => return false,
            c if c < 0x20 || c == 0x7f => return false,
            // U+0080..U+009F, the C1 controls, are 0xC2 0x80..0x9F.
            0xC2 if b.get(i + 1).is_some_and(|n| (0x80..0xA0).contains(n)) => return false,
            b'.' => {
                component += 1;
                dots += 1;
            }
            _ => component += 1,
        }
    }
    component > 0 && !(component == dots && dots <= 2)
}

/// Normalises a relative path: drops `.` components, checks the rest.
pub fn normalize(path: &str) -> Result<String, PathError> {
    if path.starts_with('/') {
        return Err(PathError::Absolute);
    }
    let bytes = path.as_bytes();
    if bytes.len() >= 2 && bytes[1] == b':' && bytes[0].is_ascii_alphabetic() {
        return Err(PathError::Absolute);
    }
    if path.contains('\\') {
        return Err(PathError::Backslash);
    }
    if path.chars().any(char::is_control) {
        return Err(PathError::Control);
    }
    let mut parts: Vec<&str> = Vec::new();
    let components: Vec<&str> = path.split('/').collect();
    let last = components.len().saturating_sub(1);
    for (i, c) in components.iter().enumerate() {
        match *c {
            "." => {}
            ".." => return Err(PathError::ParentDir),
            // A trailing `/` names a directory, which is not a file either way;
            // an empty component inside is refused.
            "" if i == last && i > 0 => {}
            "" => return Err(PathError::EmptyComponent),
            c => parts.push(c),
        }
    }
    if parts.is_empty() {
        return Err(PathError::Empty);
    }
    Ok(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_paths() {
        assert_eq!(
            normalize("scripts/calc.py").as_deref(),
            Ok("scripts/calc.py")
        );
        assert_eq!(normalize("./a/./b").as_deref(), Ok("a/b"));
    }

    #[test]
    fn is_normal_agrees_with_normalize() {
        for p in [
            "a", "a/b.txt", "./a", "a/./b", "a//b", "../a", "/a", "a/", "C:/a", "a\\b", "", ".",
            "a\0", "é/ü", "...", "a/../b", "£", "x\u{85}",
        ] {
            let unchanged = normalize(p).is_ok_and(|n| n == p);
            assert_eq!(is_normal(p), unchanged, "{p:?}");
        }
    }

    #[test]
    fn refused_paths() {
        for (p, e) in [
            ("", PathError::EmptyComponent),
            (".", PathError::Empty),
            ("../x", PathError::ParentDir),
            ("a/../../x", PathError::ParentDir),
            ("/etc/passwd", PathError::Absolute),
            ("C:/x", PathError::Absolute),
            ("c:x", PathError::Absolute),
            ("a\\b", PathError::Backslash),
            ("a\0b", PathError::Control),
            ("a\u{85}", PathError::Control),
            ("a//b", PathError::EmptyComponent),
        ] {
            assert_eq!(normalize(p), Err(e), "{p:?}");
        }
    }
}

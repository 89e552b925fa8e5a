//! A path made absolute as [`std::path::absolute`] makes it, for the
//! locations the readers list (Gemini CLI's and Qwen Code's entries name
//! the absolute path of `SKILL.md`), without asking the kernel for the
//! working directory once per skill: it is read once per process, at the
//! first relative path. The working directory of the process is taken not
//! to change while skills are read (`skb` never changes it).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The working directory, read once.
static WORKING_DIR: OnceLock<Option<PathBuf>> = OnceLock::new();

/// `path` made absolute, as [`std::path::absolute`] makes it; `path` itself
/// when it cannot be (no working directory).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    let joined;
    let path_in = if path.is_absolute() || path.as_os_str().is_empty() {
        path
    } else {
        match WORKING_DIR.get_or_init(|| std::env::current_dir().ok()) {
            Some(dir) => {
                joined = dir.join(path);
                &joined
            }
            None => return path.to_path_buf(),
        }
    };
    std::path::absolute(path_in).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_the_standard_library_makes_it() {
        for p in [
            "SKILL.md",
            "./a/../b/./SKILL.md",
            "a//b/",
            "/x/./y/../z",
            "/",
            ".",
        ] {
            let p = Path::new(p);
            assert_eq!(
                absolute(p),
                std::path::absolute(p).unwrap(),
                "{}",
                p.display()
            );
        }
        assert_eq!(absolute(Path::new("")), PathBuf::new());
    }
}

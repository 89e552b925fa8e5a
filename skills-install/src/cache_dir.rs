//! Where skb keeps what it caches for the user: one home for the folder the
//! start-up check's answers and the git commit cache both live under.

use std::path::PathBuf;

/// skb's cache folder: `$XDG_CACHE_HOME/skb` when that is an absolute path,
/// else `$HOME/.cache/skb`; `None` without either.
pub fn default_cache_dir() -> Option<PathBuf> {
    skills_core::userdir::base("XDG_CACHE_HOME", ".cache", "skb")
}

/// The commit cache of git sources: `git` in skb's cache folder
/// ([`default_cache_dir`]), or `None` when the variable `SKB_NO_CACHE` is
/// set to anything but `` or `0`.
pub fn git_cache_dir() -> Option<PathBuf> {
    let off = std::env::var_os("SKB_NO_CACHE").is_some_and(|v| !v.is_empty() && v != "0");
    if off {
        return None;
    }
    default_cache_dir().map(|dir| dir.join("git"))
}

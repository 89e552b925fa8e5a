//! The user's base folders as the XDG rules name them: one home for the
//! configuration and cache folders every crate reads (skb's trust store and
//! credentials, the installer's update cache, the runtime's script cache).

use std::path::PathBuf;

/// `$<var>/<tail>` when `var` is set to an absolute path, else
/// `$HOME/<home_dir>/<tail>` when `HOME` is; `None` without either (a
/// relative value counts as unset): `base("XDG_CACHE_HOME", ".cache",
/// "skb")`.
pub fn base(var: &str, home_dir: &str, tail: &str) -> Option<PathBuf> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    absolute(var)
        .or_else(|| absolute("HOME").map(|home| home.join(home_dir)))
        .map(|dir| dir.join(tail))
}

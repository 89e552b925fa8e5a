//! [`Options`]: everything that decides what the compiler accepts (the
//! profile, the limits of discovery and of one skill's files, the lints, the
//! worker threads), given to every stage of a check.

use crate::discover::DiscoveryOptions;
use crate::files::FileLimits;
use crate::profile::Profile;

/// Everything that decides what the compiler accepts.
#[derive(Debug, Clone)]
pub struct Options {
    /// Which rules, and how severe.
    pub profile: Profile,
    /// Limits of the directory walk.
    pub discovery: DiscoveryOptions,
    /// Limits on one skill's files.
    pub files: FileLimits,
    /// Whether to run the checks beyond the reference (`SK3xx`).
    pub lints: bool,
    /// Worker threads; 0 means one per available core.
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            profile: Profile::default(),
            discovery: DiscoveryOptions::default(),
            files: FileLimits::default(),
            lints: true,
            threads: 0,
        }
    }
}

#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![deny(unreachable_pub)]

#[doc(hidden)]
pub mod __private;
pub mod activation;
#[cfg(all(unix, feature = "exec"))]
pub mod agent;
pub mod build;
pub mod catalog;
#[cfg(all(unix, feature = "exec"))]
pub mod exec;
#[cfg(feature = "exec")]
pub mod fsread;
#[cfg(feature = "installed")]
pub mod installed;
pub mod invocation;
#[cfg(all(unix, feature = "openai"))]
pub mod openai;
pub mod pack;
pub mod policy;
pub mod protocol;
#[cfg(all(unix, feature = "exec"))]
pub mod session;
pub mod shell;
pub mod zip;

mod bundle;
mod file;
mod skill;

pub use bundle::Bundle;
pub use file::{Corrupt, File};
pub use policy::{Decision, Mode, ToolPolicy, ToolRestrictionError};
pub use skill::{Activation, BASE_SCHEME, ReadError, Skill};
pub use skills_core::path::PathError;
pub use skills_core::tools::ToolRule;

/// Compiles skill directories into the binary.
///
/// ```
/// static SKILLS: skills_bundle::Bundle = skills_bundle::skills_bundle!(
///     "skills",                      // paths relative to CARGO_MANIFEST_DIR, searched in order
///     profile = "claude-code",       // or "spec" (the default); "codex" is the CLI's
///     exclude = ["**/evals/**"],     // globs over paths relative to each root
///     warnings = "deny",             // "warn" (default), "deny" or "allow"
///     lints = false,                 // skip the SK3xx checks (default: true)
///     max_files = 20000,             // raise a limit (also max_depth, max_dirs,
///                                    // max_skill_size, max_skill_depth)
/// );
/// assert!(SKILLS.get("calculator").is_some());
/// ```
///
/// Or a signed skill pack made by `skb pack`, checked at compile time:
/// `skills_bundle!(pack = "vendor/tools.skillpack", pubkey = "RW...")` (the
/// key itself or a `.pub` file; the signature is read from
/// `vendor/tools.skillpack.minisig`), or `unsigned = true` instead of
/// `pubkey`.
///
/// Every error the validator finds is a compile error naming the file, line,
/// column and rule, all at once; warnings are compiler warnings. Each
/// embedded file is tracked with `include_bytes!`, so editing one rebuilds
/// the crate; call [`build::watch`] from `build.rs` to rebuild when files
/// are added or removed.
#[cfg(feature = "macros")]
#[macro_export]
macro_rules! skills_bundle {
    ($($input:tt)*) => {
        $crate::__private::skills_bundle!($crate; $($input)*)
    };
}

//! Agent Skills compiled into your binary.
//!
//! An [Agent Skill](https://agentskills.io) is a directory holding a
//! `SKILL.md` (YAML frontmatter plus Markdown instructions) and optional
//! `scripts/`, `references/` and `assets/`. [`skills_bundle!`] validates skill
//! directories at build time (every problem is a compile error with file, line
//! and column) and embeds them: metadata in perfect-hash tables of
//! `&'static str`, files as raw-deflate byte strings decompressed on first
//! read, and the `<available_skills>` prompt rendered in advance. The binary
//! needs no skill files on disk and links no YAML parser.
//!
//! ```ignore
//! use skills_bundle::{skills_bundle, Bundle};
//!
//! static SKILLS: Bundle = skills_bundle!("skills");
//!
//! fn main() {
//!     for s in SKILLS.skills() {
//!         println!("{}: {}", s.name(), s.description()); // level 1
//!     }
//!     let calc = SKILLS.get("calculator").expect("known skill");
//!     let activation = calc.activate("15*23").expect("readable"); // level 2
//!     let script = calc.read("scripts/calc.py").expect("present"); // level 3
//!     print!("{}", SKILLS.catalog());
//! }
//! ```
//!
//! The crate is the runtime: lookup, activation, reads, packs at run time,
//! the `allowed-tools` policy, the one reading of shell syntax they share
//! ([`shell`]), the instruction protocols, the session and
//! agent loop, and the script executor. The validator and parser live in
//! `skills-compiler`, which `skills_bundle!` and the `skb` CLI share, so
//! both report the same diagnostics for the same input; an agent binary
//! links neither it nor a YAML parser. MCP and rig integrations are the
//! `skills-bundle-mcp` and `skills-rig` crates.

#![cfg_attr(docsrs, feature(doc_auto_cfg))]
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
/// ```ignore
/// static SKILLS: skills_bundle::Bundle = skills_bundle::skills_bundle!(
///     "skills",                      // paths relative to CARGO_MANIFEST_DIR, searched in order
///     "plugins/my-plugin",
///     profile = "claude-code",       // or "spec" (the default); "codex" is the CLI's
///     exclude = ["**/evals/**"],     // globs over paths relative to each root
///     warnings = "deny",             // "warn" (default), "deny" or "allow"
///     lints = false,                 // skip the SK3xx checks (default: true)
/// );
/// ```
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

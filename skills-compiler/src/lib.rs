//! The compiler behind `skills_bundle!` and the `skb` CLI: discovery,
//! `SKILL.md` parsing, every validation rule, diagnostics and their
//! rendering, the embed plan, and pack writing.
//!
//! Plain data in, plain data out: no proc-macro types, no terminal output.
//! The `skb` CLI renders the [`Diagnostic`]s it returns; the `skills_bundle!`
//! macro turns them into compile errors and warnings. There is exactly one
//! implementation of each rule, here.
//!
//! This is an ordinary library, tested as one, but it is **semver-exempt**:
//! an internal crate with no stable API of its own, versioned with
//! `skills-bundle` and `skb` (which are what users depend on), and it may
//! change in any release (as `sqlx-macros-core` does for `sqlx`).
//!
//! A check goes [`discover`] → per skill, the stages of [`skill`] (read,
//! parse, contents, `agents/openai.yaml`) → under a client profile, the
//! client's reading of the whole listing ([`client`]) → [`duplicates`].
//! The clients themselves (names, folders, scan rules) are one table,
//! `skills_core::client`; [`client`] holds their behaviour.
//!
//! ```no_run
//! use skills_compiler::{check, Options};
//! let result = check(&["skills".into()], &Options::default());
//! for skill in &result.skills {
//!     for d in &skill.diagnostics {
//!         eprintln!("{d}");
//!     }
//! }
//! ```

#![deny(missing_docs)]
#![deny(unreachable_pub)]

pub mod client;
#[cfg(feature = "codegen")]
pub mod codegen;
pub mod diag;
pub mod discover;
pub mod duplicates;
pub mod embed;
pub mod files;
pub mod fix;
pub mod frontmatter;
pub mod libyaml_bound;
pub mod locked;
pub mod pack;
pub mod parallel;
pub mod profile;
pub mod properties;
pub mod rederive;
pub mod render;
pub mod skill;
pub mod source;
pub mod yaml;
pub mod yaml_json;

mod any_program;
mod check;
mod checked;
mod knobs;
mod lints;
mod options;
mod parse;
mod pyunicode;
mod read;
mod rules;
mod yaml11;

pub use check::{Checked, check, check_dir};
pub use checked::CheckedSkill;
pub use diag::{Code, Diagnostic, Label, Severity};
pub use discover::{DiscoveryOptions, FoundSkill, Origin, UserFolders};
pub use files::{FileLimits, SkillFile};
pub use knobs::{Knobs, Limit};
pub use options::Options;
pub use profile::Profile;
pub use read::MAX_SKILL_MD;
pub use rules::{Fields, is_spec_name};
pub use skill::check_skill;
pub use source::{LineCol, Source};

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
//! # Code map
//!
//! The source tree is the pipeline, one folder per stage, in order:
//!
//! - `discover/` finds the skills: the folders under the roots, each
//!   client's folders, plugin manifests ([`discover`]).
//! - `check/` runs the check: of whole roots ([`check()`], [`check_dir`],
//!   `check/mod.rs`) and of one skill ([`skill`]: the read stage `read.rs`,
//!   then `parse/`, then the skill's files ([`files`]) and `rules/` over
//!   them, then `agents/openai.yaml`), into a [`CheckedSkill`]
//!   (`checked.rs`); what decides what it accepts ([`Options`] in
//!   `options.rs`, [`Knobs`] in `knobs.rs`), and the work spread over
//!   the cores ([`parallel`]).
//! - `parse/` turns `SKILL.md`'s bytes into a tree (`parse/mod.rs`): the
//!   split into frontmatter and body ([`frontmatter`]), the strict YAML
//!   ([`yaml`]), how YAML 1.1 types a scalar (`yaml11.rs`), a value as JSON
//!   with YAML's types ([`yaml_json`]), and what libyaml may be given
//!   ([`libyaml_bound`]).
//! - `rules/` says what is wrong: the reference validator's rules
//!   (`rules/mod.rs`), the lints (`lints.rs`), `SK309` (`any_program.rs`),
//!   skills found twice ([`duplicates`]), the profiles that grade every
//!   problem ([`profile`]), Python's Unicode (`pyunicode/`), and the
//!   reference's `read-properties` and `to-prompt` ([`properties`]).
//! - `client/` reads skills as each client does, one skill and the whole
//!   listing ([`client`]).
//! - `build/` turns checked skills into what a program carries: the embed
//!   plan ([`embed`]), the code `skills_bundle!` expands to (`codegen`),
//!   packs ([`pack`]), building from `skb.lock` ([`locked`]), and a pack's
//!   manifest checked against its `SKILL.md` files ([`rederive`]).
//! - `diag/` is what every stage reports: [`Diagnostic`] and its stable
//!   codes ([`diag`]), positions in a file ([`source`]), and a diagnostic
//!   printed as rustc prints one ([`render`]).
//!
//! Every module keeps the flat path it had before the stages were folders
//! (`skills_compiler::yaml`, `crate::lints`): the re-exports below are
//! those paths, which other crates and this crate's own code name.
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

mod build;
mod check;
pub mod client;
pub mod diag;
pub mod discover;
pub mod fix;
mod parse;
mod rules;
pub mod scaffold;

// The flat paths (see "Code map" above).
#[cfg(feature = "codegen")]
pub use build::codegen;
pub use build::{embed, locked, pack, rederive};
pub(crate) use check::{checked, knobs, options, read};
pub use check::{files, parallel, skill};
pub use diag::{render, source};
pub(crate) use parse::yaml11;
pub use parse::{frontmatter, libyaml_bound, yaml, yaml_json};
pub(crate) use rules::{any_program, lints, pyunicode};
pub use rules::{duplicates, profile, properties};

pub use check::{Checked, check, check_dir, check_dir_given};
pub use checked::CheckedSkill;
pub use diag::{Code, Diagnostic, Label, Severity};
pub use discover::{DiscoveryOptions, FoundSkill, Origin, UserFolders};
pub use files::{FileLimits, SkillFile};
pub use knobs::{Knobs, Limit};
pub use options::Options;
pub use profile::Profile;
pub use read::{Given, MAX_SKILL_MD};
pub use rules::{Fields, is_spec_name};
pub use skill::check_skill;
pub use source::{LineCol, Source};

//! Agent Skills compiled into your binary.
//!
//! An [Agent Skill](https://agentskills.io) is a directory holding a
//! `SKILL.md` (YAML frontmatter plus Markdown instructions) and optional
//! `scripts/`, `references/` and `assets/`. This crate is the runtime side of
//! the `skills` project; with the `compiler` feature it also carries the one
//! parser and validator that the `skills` CLI and the `skills_bundle!` macro
//! share, so both report the same diagnostics for the same input.
//!
//! The runtime side links no YAML parser: agent binaries leave `compiler` off.

#![cfg_attr(docsrs, feature(doc_auto_cfg))]

#[cfg(feature = "compiler")]
pub mod compiler;

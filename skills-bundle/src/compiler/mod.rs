//! The compiler core: discovery, `SKILL.md` parsing, and every validation rule.
//!
//! Plain data in, plain data out: no proc-macro types, no terminal output.
//! The `skills` CLI renders the [`Diagnostic`]s it returns; the `skills_bundle!`
//! macro turns them into compile errors and warnings. There is exactly one
//! implementation of each rule, here.

pub mod diag;
pub mod discover;
pub mod files;
pub mod source;

pub use diag::{Code, Diagnostic, Label, Severity};
pub use source::{LineCol, Source};

//! How real clients read skills.

pub mod codex;

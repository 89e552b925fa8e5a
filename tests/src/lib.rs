//! Integration tests for the workspace live in `tests/*.rs`; this crate has no code of its own.

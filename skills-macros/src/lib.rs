//! The `skills_bundle!` procedural macro.
//!
//! Use it through `skills-bundle`, which re-exports it. The macro itself is
//! glue: discovery, parsing and validation live in `skills_bundle::compiler`,
//! shared with the `skills` command-line tool so that both report the same
//! diagnostics for the same input.

//! The tests that run the `skills` binary, one module per topic, linked
//! into one test binary of `skills-cli` (`cargo test -p skills-cli --test
//! cli`). Being that package's integration test, it gets the binary from
//! Cargo, built before the tests start ([`skills_bin`]); nothing here runs
//! `cargo build`.
//!
//! The files stay in the workspace's `tests/` directory, beside the library
//! tests (`tests/tests/lib/`), the fixtures and the helpers of
//! `skills-tests` they share; `cargo package -p skills-cli` leaves this
//! target out of the crate it publishes.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::Command;

mod byteflip;
mod cli;
mod files;
mod golden;
mod golden_properties;
mod hostile;
mod integrations;
mod interop;
mod levels;
mod mcp;
mod pack;
mod reproducible;
mod security;
mod sign;
mod ui;

/// The `skills` binary Cargo built for this test binary.
pub fn skills_bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_skills"))
}

/// A `Command` for the `skills` binary.
pub fn skills() -> Command {
    Command::new(skills_bin())
}

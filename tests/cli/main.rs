//! The tests that run the `skb` binary, one module per topic, linked
//! into one test binary of `skills-cli` (`cargo test -p skb --test
//! cli`). Being that package's integration test, it gets the binary from
//! Cargo, built before the tests start ([`skills_bin`]); nothing here runs
//! `cargo build`.
//!
//! The files stay in the workspace's `tests/` directory, beside the library
//! tests (`tests/tests/lib/`), the fixtures and the helpers of
//! `skills-tests` they share; `cargo package -p skb` leaves this
//! target out of the crate it publishes.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::Command;

mod activation;
mod byteflip;
mod cli;
mod clients;
mod clients_codex;
mod clients_copilot;
mod clients_gemini;
mod clients_heldout;
mod clients_kimi;
mod clients_opencode;
mod clients_qwen;
mod differences;
mod discovery;
mod files;
mod fix;
mod frameworks;
mod git_signed;
mod golden;
mod golden_properties;
mod hostile;
mod init;
mod install;
mod install_remote;
mod install_scan;
mod install_vercel;
mod integrations;
mod interop;
mod levels;
mod limits;
mod lsp;
mod mcp;
mod outdated;
mod pack;
mod private_sources;
mod publish_html;
mod readers;
mod reproducible;
mod scan;
mod security;
mod serve_bounds;
mod sign;
mod sigstore_install_accepted;
mod sigstore_installs;
mod transactions;
mod trust_attacks;
mod ui;
mod verify_installed;

/// Every warning the libraries have logged in this test process so far
/// (a rebuilt cache), oldest first. The first call installs the logger.
pub fn logged() -> Vec<String> {
    static LINES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    struct Keep;
    impl log::Log for Keep {
        fn enabled(&self, meta: &log::Metadata<'_>) -> bool {
            meta.level() <= log::Level::Warn
        }
        fn log(&self, record: &log::Record<'_>) {
            if self.enabled(record.metadata()) {
                let mut lines = LINES
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                lines.push(record.args().to_string());
            }
        }
        fn flush(&self) {}
    }
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        log::set_logger(&Keep).unwrap();
        log::set_max_level(log::LevelFilter::Warn);
    });
    LINES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

/// The `skb` binary Cargo built for this test binary.
pub fn skills_bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_skb"))
}

/// A `Command` for the `skb` binary.
pub fn skills() -> Command {
    Command::new(skills_bin())
}

/// Runs `test`, the body of the test `name` (its path in this binary, as
/// `cargo test` lists it), alone in a child process of this test binary:
/// for a test that measures the whole process (its peak memory), which the
/// other tests running beside it in this binary would disturb. The parent
/// fails unless the child ran exactly that test, and it passed.
pub fn in_own_process(name: &str, test: impl FnOnce()) {
    const ALONE: &str = "SKILLS_TESTS_ALONE";
    if std::env::var_os(ALONE).is_some_and(|v| v == name) {
        test();
        return;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--test-threads=1", "--nocapture"])
        .env(ALONE, name)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    print!("{text}");
    assert!(out.status.success(), "`{name}`, run alone, failed");
    assert!(
        text.contains("test result: ok. 1 passed"),
        "`{name}` is not a test of this binary"
    );
}

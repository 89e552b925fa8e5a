//! Two Python agent frameworks, on their default paths, against `skills
//! serve` over HTTP (`tests/mcp/frameworks_test.py`): LangChain's
//! `MultiServerMCPClient.get_tools()` and LlamaIndex's `BasicMCPClient`
//! with `McpToolSpec`. Both open an MCP session per tool call, so the
//! calculator's script runs without `activate_skill`, under the
//! calculator's own `allowed-tools`, and answers 345; a command outside
//! them is refused; and no session ends with the SDK's "Session
//! termination failed".
//!
//! The frameworks live in a Python environment of their own, named by
//! `SKILLS_FRAMEWORKS_PYTHON` (the interpreter; `.ci/run` makes the
//! environment and sets it). Under CI a missing environment fails the
//! test; elsewhere the test says how to run it and passes.

use std::process::Command;

use crate::skills_bin;
use skills_tests::workspace;

const PYTHON: &str = "SKILLS_FRAMEWORKS_PYTHON";

#[test]
fn langchain_and_llamaindex_run_the_calculator_through_skills_serve() {
    let Some(python) = std::env::var_os(PYTHON) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{PYTHON} is not set: .ci/run makes the frameworks' environment and sets it"
        );
        eprintln!(
            "not run: set {PYTHON} to a Python with langchain-mcp-adapters and llama-index-tools-mcp (the pip line is in .ci/run)"
        );
        return;
    };
    let root = workspace();
    let out = Command::new(&python)
        .arg(root.join("tests/mcp/frameworks_test.py"))
        .arg(skills_bin())
        .arg(root.join("skills"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    print!("{text}");
    assert!(out.status.success(), "{text}");
    assert!(text.contains("7 passed, 0 failed"), "{text}");
}

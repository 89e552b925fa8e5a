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
//! environment and sets it): the test is the acceptance tier's, and fails
//! there without it.

use std::process::Command;

use crate::skills_bin;
use skills_tests::workspace;

#[skills_tests::acceptance(
    "needs LangChain's and LlamaIndex's MCP adapters (SKILLS_FRAMEWORKS_PYTHON)"
)]
#[test]
fn langchain_and_llamaindex_run_the_calculator_through_skills_serve() {
    let python = skills_tests::tier::frameworks_python();
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

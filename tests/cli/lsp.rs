//! `skb lsp` on its stdio: a session from `initialize` to `exit`, the
//! exit status the protocol asks for, and `--profile` reaching the
//! diagnostics. The protocol itself is tested in `skills-lsp/tests`; real
//! editors drive it in `tests/lsp` (run by .ci/run).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::io::Write;
use std::process::{Output, Stdio};

use crate::skills;
use skills_tests::tempdir;

fn frame(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

fn session(args: &[&str], messages: &[String]) -> Output {
    let mut child = skills()
        .arg("lsp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = messages.iter().map(|m| frame(m)).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
const SHUTDOWN: &str = r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#;
const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

#[test]
fn a_session_ends_with_0_after_shutdown_and_1_without() {
    let out = session(&[], &[INIT.into(), SHUTDOWN.into(), EXIT.into()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(r#""name":"skb lsp""#), "{stdout}");
    assert!(
        stdout.contains(r#""id":2,"#) && stdout.contains(r#""result":null"#),
        "{stdout}"
    );
    let out = session(&[], &[INIT.into(), EXIT.into()]);
    assert_eq!(out.status.code(), Some(1));
    // The input ends without `exit`: the client went away.
    let out = session(&[], &[INIT.into()]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_profile_grades_the_diagnostics() {
    let tmp = tempdir();
    let dir = tmp.path().join("pdf");
    std::fs::create_dir(&dir).unwrap();
    // `model` is a key Claude Code reads and the specification does not have.
    let text = "---\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\nmodel: sonnet\n---\n";
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
    let uri = format!("file://{}", dir.join("SKILL.md").display());
    let open = serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}}).to_string();
    // Every document opened is checked and published before the server
    // ends (--debounce 0: at once).
    let found = |profile: &str| {
        let out = session(
            &["--profile", profile, "--debounce", "0", "--no-scan"],
            &[INIT.into(), open.clone(), SHUTDOWN.into(), EXIT.into()],
        );
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let spec = found("spec");
    assert!(spec.contains(r#""code":"SK201""#), "{spec}");
    let claude = found("claude-code");
    assert!(
        claude.contains("textDocument/publishDiagnostics"),
        "{claude}"
    );
    assert!(!claude.contains(r#""code":"SK201""#), "{claude}");
}

//! `skb serve`, the binary, driven by rmcp's own client and by hand.
//!
//! * Over stdio: the calls `skills_bundle_mcp`'s in-process tests make
//!   ([`skills_tests::mcp::exercise`]), a clean exit at EOF, a signed pack
//!   served with `--pubkey` and refused with a wrong key, and `--http` on a
//!   non-loopback address refused.
//! * SEP-2640 `frontmatter` verbatim from a directory
//!   (`tests/fixtures/sep-frontmatter`), and a signed pack written before
//!   the manifest carried it (`tests/fixtures/pre-frontmatter`) still
//!   verified and served.
//! * Hostile input: a line or body that is not JSON answered with `-32700`;
//!   over HTTP, `Origin` matched exactly (two headers refused), sessions
//!   capped and closed once idle.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::Stdio;

use rmcp::ServiceExt;
use rmcp::model::validate_skills;
use serde_json::{Value, json};
use skills_bundle::Bundle;
use skills_bundle::pack::Trust;
use skills_tests::mcp::{Client, call, exercise};
use skills_tests::{tempdir, workspace};

use crate::{skills, skills_bin};

/// `skb pack skills/`, opened: what `skb serve skills` serves.
fn example_bundle(dir: &Path) -> Bundle {
    let out = dir.join("skills.skillpack");
    let output = skills()
        .arg("pack")
        .arg(workspace().join("skills"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Bundle::from_pack(&std::fs::read(&out).unwrap(), Trust::Unsigned).unwrap()
}

/// `skb serve ARGS` as a child, with rmcp's client on its stdio.
async fn spawn(args: &[&str], dir: &Path) -> (Client, tokio::process::Child) {
    let mut child = tokio::process::Command::new(skills_bin())
        .current_dir(workspace())
        .arg("serve")
        .args(args)
        .arg("--cache")
        .arg(dir.join("cache"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let stdin = child.stdin.take().unwrap();
    let client = ().serve((stdout, stdin)).await.unwrap();
    (client, child)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_serves_over_stdio_and_exits_at_eof() {
    let dir = tempdir();
    let bundle = example_bundle(dir.path());
    let (client, mut child) = spawn(&["skills"], dir.path()).await;
    exercise(&client, &bundle).await;
    // Closing our ends is EOF on the server's stdin: it exits, status 0.
    client.cancel().await.unwrap();
    let status = tokio::time::timeout(std::time::Duration::from_secs(10), child.wait())
        .await
        .expect("the server exits at EOF")
        .unwrap();
    assert!(status.success(), "{status:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_pack_is_served_with_its_key_and_refused_with_another() {
    let dir = tempdir();
    let d = dir.path();
    let run = |args: &[&str]| {
        let output = skills()
            .current_dir(d)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    run(&["keygen", "-W", "-p", "good.pub", "-s", "good.key"]);
    run(&["keygen", "-W", "-p", "bad.pub", "-s", "bad.key"]);
    let skills_dir = workspace().join("skills");
    run(&[
        "pack",
        skills_dir.to_str().unwrap(),
        "-o",
        "signed.skillpack",
        "--sign",
        "good.key",
    ]);
    let pack = d.join("signed.skillpack");
    let pack = pack.to_str().unwrap();

    // The right key: served.
    let good = d.join("good.pub");
    let (client, mut child) = spawn(&[pack, "--pubkey", good.to_str().unwrap()], d).await;
    let listed = client.list_all_skills().await.unwrap();
    validate_skills(&listed).unwrap();
    let (error, text) = call(&client, "activate_skill", json!({"name": "calculator"})).await;
    assert!(!error, "{text}");
    client.cancel().await.unwrap();
    assert!(child.wait().await.unwrap().success());

    // Another key: exit 1 before anything is served.
    let bad = d.join("bad.pub");
    let output = skills()
        .args(["serve", pack, "--pubkey", bad.to_str().unwrap()])
        .stdin(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "nothing served");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("signature"), "{stderr}");

    // A pack without --pubkey or --unsigned: a usage error.
    let output = skills()
        .args(["serve", pack])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
}

#[test]
fn http_is_refused_off_loopback() {
    let output = skills()
        .current_dir(workspace())
        .args(["serve", "skills", "--http", "0.0.0.0:0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("loopback"), "{stderr}");
}

/// `skb serve skills --http 127.0.0.1:0 ARGS`, killed when dropped.
pub(crate) struct Http {
    child: std::process::Child,
    /// `127.0.0.1:PORT`.
    pub(crate) authority: String,
    _cache: tempfile::TempDir,
}

impl Http {
    fn start(args: &[&str]) -> Http {
        Http::start_with(skills(), args)
    }

    /// [`Http::start`] run by `command`: the `skb` binary, or a program
    /// that execs it with its arguments (`prlimit … skills`), so that the
    /// child is the server.
    pub(crate) fn start_with(mut command: std::process::Command, args: &[&str]) -> Http {
        use std::io::{BufRead, BufReader};
        let cache = tempdir();
        let mut child = command
            .current_dir(workspace())
            .args(["serve", "skills", "--http", "127.0.0.1:0", "--cache"])
            .arg(cache.path().join("cache"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "skb: serving 5 skills at http://127.0.0.1:PORT/mcp"
        let authority = line
            .trim()
            .rsplit_once("http://")
            .and_then(|(_, rest)| rest.strip_suffix("/mcp"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        Http {
            child,
            authority,
            _cache: cache,
        }
    }

    /// The server's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// One request on its own connection: `METHOD /mcp` with `headers`
    /// (`Name: value` lines) and `body`; the status, the head and the body.
    fn request(&self, method: &str, headers: &[String], body: &str) -> (u16, String, String) {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(&self.authority).unwrap();
        let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
        write!(
            stream,
            "{method} /mcp HTTP/1.1\r\nHost: {}\r\n{extra}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.authority,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        let status = head[9..12].parse().unwrap();
        (status, head.to_string(), body.to_string())
    }

    fn initialize(&self, headers: &[String]) -> (u16, String, String) {
        self.request("POST", headers, INITIALIZE)
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// The `Mcp-Session-Id` of a response head.
fn session_id(head: &str) -> String {
    head.lines()
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .unwrap_or_else(|| panic!("no session in {head}"))
        .to_string()
}

/// Over HTTP, a web page may call the server only from the server's own
/// origin or one allowed with `--allow-origin`, matched exactly; clients
/// outside a browser send no `Origin` and are served.
#[test]
fn http_refuses_other_origins() {
    let server = Http::start(&["--allow-origin", "https://app.example"]);
    let port = server.authority.rsplit_once(':').unwrap().1.to_string();
    let own = format!("http://127.0.0.1:{port}");
    // (attack, Origin headers, status)
    let cases: [(&str, Vec<String>, u16); 10] = [
        (
            "control: no Origin (a client outside a browser)",
            vec![],
            200,
        ),
        ("control: the server's own origin", vec![own.clone()], 200),
        (
            "control: localhost on the server's port",
            vec![format!("http://localhost:{port}")],
            200,
        ),
        (
            "control: an allowed origin",
            vec!["https://app.example".into()],
            200,
        ),
        (
            "a page of another site",
            vec!["https://evil.example".into()],
            403,
        ),
        (
            "a page of another local server",
            vec!["http://localhost:3000".into()],
            403,
        ),
        (
            "the server's host over https",
            vec![format!("https://127.0.0.1:{port}")],
            403,
        ),
        ("a sandboxed page", vec!["null".into()], 403),
        (
            "two Origin headers, the first allowed",
            vec![own.clone(), "https://evil.example".into()],
            403,
        ),
        (
            "two Origin headers, both allowed",
            vec![own.clone(), own.clone()],
            403,
        ),
    ];
    for (row, origins, status) in cases {
        let headers: Vec<String> = origins.iter().map(|o| format!("Origin: {o}")).collect();
        let (got, _, body) = server.initialize(&headers);
        assert_eq!(got, status, "[{row}] {body}");
        if status == 403 {
            let want = if origins.len() > 1 {
                "Forbidden: more than one `Origin` header"
            } else {
                "Forbidden: this `Origin` may not call the server; start it with `--allow-origin ORIGIN` to allow a page"
            };
            assert_eq!(body, want, "[{row}]");
        }
    }
}

/// A body that is not JSON gets JSON-RPC's parse error (`-32700`, `id:
/// null`, HTTP 400) instead of rmcp's 415 without one; JSON that is no
/// message gets `-32600`; the server goes on serving.
#[test]
fn http_answers_a_malformed_body_with_a_parse_error() {
    let server = Http::start(&[]);
    let (status, head, body) = server.request("POST", &[], "not json");
    assert_eq!(status, 400);
    assert!(head.contains("content-type: application/json"), "{head}");
    assert_eq!(
        body,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: expected ident at line 1 column 2"}}"#
    );
    let (status, _, body) = server.request("POST", &[], r#"{"jsonrpc":"2.0","id":4}"#);
    assert_eq!(status, 400);
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (&reply["id"], &reply["error"]["code"]),
        (&json!(4), &json!(-32600))
    );
    let big = format!("\"{}\"", "x".repeat(skills_bundle_mcp::MAX_MESSAGE));
    let (status, _, _) = server.request("POST", &[], &big);
    assert_eq!(status, 413);
    assert_eq!(server.initialize(&[]).0, 200);
}

/// 10,000 `initialize` requests grew a server by 880 MB for good: sessions
/// are capped (503, saying what to do) and closed once idle (404 for them
/// afterwards, as the protocol says) or at `DELETE`.
#[test]
fn http_caps_sessions_and_closes_idle_ones() {
    let server = Http::start(&["--max-sessions", "2", "--idle-timeout", "1"]);
    let (status, head, _) = server.initialize(&[]);
    assert_eq!(status, 200);
    let first = session_id(&head);
    let (status, head, _) = server.initialize(&[]);
    assert_eq!(status, 200);
    let second = session_id(&head);
    let (status, _, body) = server.initialize(&[]);
    assert_eq!(status, 503);
    assert_eq!(
        body,
        "Service Unavailable: the server holds its maximum of 2 MCP sessions; end one (DELETE), wait until one has been idle 1 s, or restart the server with a larger `--max-sessions`"
    );
    // `DELETE` frees a place at once.
    let (status, _, _) = server.request("DELETE", &[format!("Mcp-Session-Id: {second}")], "");
    assert_eq!(status, 200);
    // The session is gone: ending it again, or using it, is 404.
    let (status, _, body) = server.request("DELETE", &[format!("Mcp-Session-Id: {second}")], "");
    assert_eq!(
        (status, body.as_str()),
        (
            404,
            format!("Not Found: no MCP session `{second}`").as_str()
        )
    );
    let (status, _, _) =
        server.request("DELETE", &["Mcp-Session-Id: never-opened".to_string()], "");
    assert_eq!(status, 404);
    let (status, _, _) = server.request("DELETE", &[], "");
    assert_eq!(status, 400);
    assert_eq!(server.initialize(&[]).0, 200);
    // Idle for more than a second: closed, and so a place is free.
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let (status, _, _) = server.request(
        "POST",
        &[
            format!("Mcp-Session-Id: {first}"),
            "MCP-Protocol-Version: 2025-06-18".into(),
        ],
        ping,
    );
    assert_eq!(status, 404, "the idle session was kept");
    assert_eq!(server.initialize(&[]).0, 200);
    assert_eq!(server.initialize(&[]).0, 200);
    assert_eq!(server.initialize(&[]).0, 503);
}

/// Over stdio, a line that is not JSON gets `-32700` with `id: null` (rmcp
/// dropped it without a word), and the session then works as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_answers_a_malformed_line_with_a_parse_error() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let dir = tempdir();
    let mut child = tokio::process::Command::new(skills_bin())
        .current_dir(workspace())
        .args(["serve", "skills", "--cache"])
        .arg(dir.path().join("cache"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(b"not json\n").await.unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).await.unwrap();
    assert_eq!(
        line,
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"parse error: expected ident at line 1 column 2\"}}\n"
    );
    // Nothing else was sent: the reader holds no buffered bytes.
    assert!(stdout.buffer().is_empty());
    let client = ().serve((stdout.into_inner(), stdin)).await.unwrap();
    let (error, text) = call(&client, "activate_skill", json!({"name": "calculator"})).await;
    assert!(!error, "{text}");
    client.cancel().await.unwrap();
}

/// The `frontmatter` of each skill `skills/list` gives, as JSON text.
async fn listed_frontmatter(client: &Client) -> Vec<String> {
    let listed = client.list_all_skills().await.unwrap();
    validate_skills(&listed).unwrap();
    listed
        .iter()
        .map(|s| serde_json::to_string(&s.frontmatter).unwrap())
        .collect()
}

/// `skb serve DIR` serves each skill's frontmatter as written: typed
/// values, the author's order, `allowed-tools` a list or a string as
/// written (`skills_bundle_mcp`'s tests check the pack and the macro's tables).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_gives_the_frontmatter_verbatim() {
    let dir = tempdir();
    let args = ["tests/fixtures/sep-frontmatter", "--profile", "claude-code"];
    let (client, mut child) = spawn(&args, dir.path()).await;
    assert_eq!(
        listed_frontmatter(&client).await,
        [
            r#"{"name":"numbered","description":"2026"}"#,
            r#"{"name":"spaced","description":"Lists its tools as one string. Use when checking SEP-2640.","allowed-tools":"Read Bash(git:*)"}"#,
            r#"{"name":"typed","description":"Serves its frontmatter as written. Use when checking SEP-2640.","metadata":{"version":2,"tags":["a","b"],"nested":{"x":true},"quoted":"2"},"allowed-tools":["Read","Bash(git:*)"],"user-invocable":false,"license":"MIT"}"#,
        ]
    );
    client.cancel().await.unwrap();
    assert!(child.wait().await.unwrap().success());
}

/// A signed pack written before the manifest carried `frontmatter` (kept
/// as it was written): `skb verify` verifies it, `skb diff` against
/// a fresh pack of its tree names that one field, and `skb serve`
/// serves the fields its manifest records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pack_from_before_the_frontmatter_field_verifies_and_serves() {
    let dir = tempdir();
    let old = "tests/fixtures/pre-frontmatter";
    let (pack, key) = (
        format!("{old}/greeter.skillpack"),
        format!("{old}/test.pub"),
    );
    let output = skills()
        .current_dir(workspace())
        .args(["verify", &pack, "--pubkey", &key])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("1 of 1 skill agree"), "{stdout}");
    // The tree it was packed from: the UI fixture's greeter as it was then.
    let tree = dir.path().join("then");
    let copied = std::process::Command::new("cp")
        .arg("-R")
        .arg(workspace().join("tests/ui-tests/ui/skills/valid"))
        .arg(&tree)
        .status()
        .unwrap();
    assert!(copied.success());
    let md = tree.join("greeter/SKILL.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(&md, text.replace("Bash(git log:*)", "Bash(git:*)")).unwrap();
    let output = skills()
        .current_dir(workspace())
        .arg("diff")
        .arg(&pack)
        .arg(&tree)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let diff: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        diff["changes"],
        json!([{
            "change": "metadata",
            "skill": "greeter",
            "field": "frontmatter",
            "old": null,
            "new": r#"{"name":"greeter","description":"Greets people by name. Use when the user says hello.","license":"MIT","allowed-tools":"Read Bash(git:*)"}"#,
        }])
    );
    let (client, mut child) = spawn(&[&pack, "--pubkey", &key], dir.path()).await;
    assert_eq!(
        listed_frontmatter(&client).await,
        [
            r#"{"name":"greeter","description":"Greets people by name. Use when the user says hello.","license":"MIT","allowed-tools":"Read Bash(git:*)"}"#
        ]
    );
    client.cancel().await.unwrap();
    assert!(child.wait().await.unwrap().success());
}

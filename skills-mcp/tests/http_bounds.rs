//! `serve_http` in process, with an executor whose runs never end: a
//! request no handler answers gets `-32001` on its own HTTP stream at the
//! request timeout (routed by rmcp's session worker like any answer), and
//! its run is stopped; while it hangs, a request with its id is refused
//! with `-32600` at once.

#![cfg(feature = "http")]
#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use skills_bundle::exec::{AsyncScriptExecutor, Command, ExecError, Output};
use skills_bundle::pack::Trust;
use skills_bundle::session::Session;
use skills_bundle::{Bundle, Mode, Skill};
use skills_bundle_mcp::{HttpConfig, bind_http};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Runs that never end; counts the runs started, and those dropped (what
/// kills a real one).
#[derive(Debug, Clone, Default)]
struct Hanging {
    started: Arc<AtomicUsize>,
    dropped: Arc<AtomicUsize>,
}

struct CountDrop(Arc<AtomicUsize>);

impl Drop for CountDrop {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl AsyncScriptExecutor for Hanging {
    async fn run_async(&self, _: &Skill<'_>, _: &Command) -> Result<Output, ExecError> {
        let _guard = CountDrop(Arc::clone(&self.dropped));
        self.started.fetch_add(1, Ordering::SeqCst);
        std::future::pending().await
    }
}

fn bundle() -> Bundle {
    let roots = [skills_tests::workspace().join("skills")];
    let checked = skills_compiler::check(&roots, &skills_compiler::Options::default());
    let plan = skills_compiler::embed::plan(&checked, &roots, &[]).unwrap();
    let bytes =
        skills_compiler::pack::write_pack(&plan, skills_core::zip::write::DosTime::EPOCH).unwrap();
    Bundle::from_pack(&bytes, Trust::Unsigned).unwrap()
}

/// `POST /mcp` on a new connection: the status, the head and the JSON-RPC
/// messages of the body, within 30 s.
async fn post(authority: &str, headers: &[String], body: &str) -> (u16, String, Vec<Value>) {
    let mut stream = tokio::net::TcpStream::connect(authority).await.unwrap();
    let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\n{extra}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut response))
        .await
        .expect("a whole answer within 30 s")
        .unwrap();
    let response = String::from_utf8(response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    // SSE events, chunked or not: the `data:` lines are whole JSON texts.
    let messages = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter(|d| d.trim().starts_with('{'))
        .map(|d| serde_json::from_str(d.trim()).unwrap())
        .collect();
    (status, head.to_string(), messages)
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
const RUN: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_skill_script","arguments":{"skill":"calculator","command":"python3 scripts/calc.py '1 + 1'"}}}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_request_is_answered_at_the_request_timeout_and_its_id_refused_meanwhile() {
    let bundle = bundle();
    let executor = Hanging::default();
    let (started, dropped) = (Arc::clone(&executor.started), Arc::clone(&executor.dropped));
    let config = HttpConfig::default().with_request_timeout(Duration::from_secs(3));
    let make = move || Session::new(&bundle, executor.clone(), Mode::Restrict);
    let server = bind_http(make, "127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap();
    let authority = server.local_addr().unwrap().to_string();
    tokio::spawn(server.run());

    let (status, head, _) = post(&authority, &[], INITIALIZE).await;
    assert_eq!(status, 200, "{head}");
    let session = head
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .unwrap()
        .to_string();
    let headers = [
        format!("Mcp-Session-Id: {session}"),
        "MCP-Protocol-Version: 2025-06-18".to_string(),
    ];
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(post(&authority, &headers, initialized).await.0, 202);

    let hanging = tokio::spawn({
        let (authority, headers) = (authority.clone(), headers.clone());
        async move { post(&authority, &headers, RUN).await }
    });
    let running = async {
        while started.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), running)
        .await
        .expect("the run started");
    // While it hangs, its id is refused at once.
    let (status, _, refused) = post(&authority, &headers, RUN).await;
    assert_eq!(status, 200);
    assert_eq!(
        refused,
        [json!({"jsonrpc": "2.0", "id": 7, "error": {
            "code": -32600,
            "message": "invalid request: the id `7` is in use by a request of this session that has not been answered; give each request its own id",
        }})]
    );
    let (status, _, messages) = hanging.await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        messages,
        [json!({"jsonrpc": "2.0", "id": 7, "error": {
            "code": -32001,
            "message": "request timed out: no answer within 3 s, the server's request timeout",
        }})]
    );
    let stopped = async {
        while dropped.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), stopped)
        .await
        .expect("the run was stopped");
}

//! Fuzzes the HTTP server of `skb serve --http` with arbitrary bytes as
//! one HTTP/1.1 connection: hyper's request parser, the gate in front of
//! rmcp (`Origin`, the bounded body, JSON-RPC parsing, `DELETE`, the
//! session cap) and rmcp's own checks, as a client on the machine could
//! send them.
//!
//! One server runs for the whole process, on a loopback port, with short
//! timeouts and an executor that runs nothing. Each input is written on a
//! new connection, whose write side is then shut (the client is done);
//! the server must never panic (libFuzzer's hook aborts on a panic in any
//! task), and must close the connection within 10 s: a connection that
//! outlives its client is the hang this target looks for.

#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use skills_bundle::exec::{AsyncScriptExecutor, Command, ExecError, Output};
use skills_bundle::pack::Trust;
use skills_bundle::session::Session;
use skills_bundle::{Bundle, Mode, Skill};
use skills_bundle_mcp::{HttpConfig, bind_http};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::runtime::Runtime;

/// The longest a connection may outlive its client's last byte.
const BOUND: Duration = Duration::from_secs(10);

/// Runs nothing: a script "runs" at once, with empty output.
#[derive(Debug, Clone, Copy)]
struct NoRun;

impl AsyncScriptExecutor for NoRun {
    async fn run_async(&self, _: &Skill<'_>, _: &Command) -> Result<Output, ExecError> {
        Ok(Output {
            exit_code: Some(0),
            signal: None,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stdout_truncated: false,
            stderr_truncated: false,
            timed_out: false,
            duration: Duration::ZERO,
        })
    }
}

/// The runtime and the server's address, started on first use.
fn server() -> &'static (Runtime, String) {
    static SERVER: OnceLock<(Runtime, String)> = OnceLock::new();
    SERVER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let pack = include_bytes!("../corpus/pack_open/calculator.skillpack");
        let bundle = Bundle::from_pack(pack, Trust::Unsigned).expect("the calculator pack");
        let config = HttpConfig::default()
            .with_max_sessions(8)
            .with_idle_timeout(Duration::from_secs(1))
            .with_max_connections(16)
            .with_header_timeout(Duration::from_secs(1))
            .with_body_timeout(Duration::from_secs(1))
            .with_connection_idle_timeout(Duration::from_secs(1))
            .with_request_timeout(Duration::from_secs(2));
        let make = move || Session::new(&bundle, NoRun, Mode::Restrict);
        let addr = "127.0.0.1:0".parse().expect("an address");
        let server = runtime
            .block_on(bind_http(make, addr, config))
            .expect("bind a loopback port");
        let authority = server.local_addr().expect("its address").to_string();
        runtime.spawn(server.run());
        (runtime, authority)
    })
}

fuzz_target!(|bytes: &[u8]| {
    let (runtime, authority) = server();
    runtime.block_on(async {
        let Ok(mut stream) = tokio::net::TcpStream::connect(authority.as_str()).await else {
            return;
        };
        // The server may close first (a request it refuses); what it does
        // with the rest is what matters.
        let _ = stream.write_all(bytes).await;
        let _ = stream.shutdown().await;
        let mut answer = Vec::new();
        let read = tokio::time::timeout(BOUND, stream.read_to_end(&mut answer)).await;
        assert!(
            read.is_ok(),
            "the connection was still open {BOUND:?} after the client's last byte; the server had answered {} bytes: {:?}",
            answer.len(),
            String::from_utf8_lossy(&answer[..answer.len().min(512)])
        );
    });
});

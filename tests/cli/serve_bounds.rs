//! `skb serve` under clients that hold on to what the server gives them,
//! one test per attack, each asserting the exact outcome:
//!
//! * Over stdio, 60,000 `read_skill_resource` requests written while no
//!   answer is read: the server stops reading once its answers in flight
//!   reach their cap, and its peak memory stays within twice a fresh
//!   server's (it grew to 1.6 GB); every request is answered once the
//!   client reads.
//! * Over HTTP, 300 connections that never finish their headers, with 200
//!   descriptors: a new client is answered at once (every new client timed
//!   out until the attacker let go), the stuck connections are closed after
//!   the header timeout, and the server's descriptors come back down by
//!   themselves. Past `--max-connections`, the oldest unfinished connection
//!   makes room.
//! * 50 concurrent requests with one JSON-RPC id in one session, over HTTP
//!   and over stdio: each gets its answer or an error naming the id (35 of
//!   50 were never answered).
//! * A body that never arrives in full (408), connections kept alive or
//!   silent (closed after the idle or the header timeout), and a request
//!   timeout that would cut a script short (a usage error).
//!
//! The request timeout itself, and a run stopped by it, are `skills_bundle_mcp`'s
//! tests (an executor whose runs never end): through the binary a script
//! is killed at `--timeout`, which the request timeout must outlast.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, mpsc};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use skills_tests::{tempdir, workspace};

use crate::mcp::Http;
use crate::{skills, skills_bin};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A `read_skill_resource` call of a 679-byte file, with id `id`.
fn read_request(id: &Value) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "tools/call",
        "params": {
            "name": "read_skill_resource",
            "arguments": {"skill": "git-workflow", "path": "assets/pull-request-template.md"},
        },
    })
    .to_string()
}

/// A `/proc/<pid>/status` field, in kB.
fn status_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// How many descriptors process `pid` has open.
fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

/// Kills a server when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `skb serve skills ARGS` over stdio, initialized.
fn stdio_server(args: &[&str], cache: &std::path::Path) -> (Server, ChildStdin, ChildStdout) {
    let mut child = skills()
        .current_dir(workspace())
        .args(["serve", "skills", "--cache"])
        .arg(cache)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    writeln!(stdin, "{INITIALIZE}\n{INITIALIZED}").unwrap();
    let line = read_line(&mut stdout);
    assert!(line.contains("\"serverInfo\""), "{line}");
    (Server(child), stdin, stdout)
}

/// One line from `from`, read a byte at a time so nothing past it is taken.
fn read_line(from: &mut impl Read) -> String {
    let mut line = Vec::new();
    let mut byte = [0u8];
    while from.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    String::from_utf8(line).unwrap()
}

/// The answers of a stdio server, each line parsed, read on a thread so a
/// test can wait for them with a bound.
fn answers(stdout: ChildStdout) -> mpsc::Receiver<Value> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::with_capacity(1 << 16, stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(serde_json::from_str(&line).unwrap()).is_err() {
                break;
            }
        }
    });
    rx
}

/// 60,000 requests written while no answer is read took a server to
/// 1.6 GB: each answer waited in memory. Now the server stops reading
/// while its answers in flight are at their cap (`--max-in-flight`, here
/// the default), so the client's writes block instead; once it reads,
/// every request is answered, and the server's peak memory stays within
/// twice a fresh server's.
#[test]
fn stdio_60000_unread_requests_keep_memory_flat() {
    const REQUESTS: usize = 60_000;
    let dir = tempdir();
    let cache = dir.path().join("cache");

    // A fresh server, asked the same kind of request a hundred times.
    let (fresh, mut stdin, stdout) = stdio_server(&[], &cache);
    let replies = answers(stdout);
    for id in 1..=100 {
        writeln!(stdin, "{}", read_request(&json!(id))).unwrap();
        let reply = replies.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_eq!(reply["id"], json!(id), "{reply}");
    }
    let fresh_peak = status_kb(fresh.0.id(), "VmHWM:");
    drop(fresh);

    let (flooded, mut stdin, stdout) = stdio_server(&[], &cache);
    let pid = flooded.0.id();
    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let written = Arc::clone(&written);
        std::thread::spawn(move || {
            for id in 1..=REQUESTS {
                let line = read_request(&json!(id)) + "\n";
                if stdin.write_all(line.as_bytes()).is_err() {
                    break;
                }
                written.fetch_add(1, Ordering::Relaxed);
            }
            stdin
        })
    };
    // Wait until the writes stop moving (blocked) or are all done.
    let mut last = usize::MAX;
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let now = written.load(Ordering::Relaxed);
        if now == last || now == REQUESTS {
            break;
        }
        last = now;
    }
    let unread_written = written.load(Ordering::Relaxed);
    let unread_rss = status_kb(pid, "VmRSS:");

    // Now read: every request is answered, each exactly once.
    let template = std::fs::read_to_string(
        workspace().join("skills/git-workflow/assets/pull-request-template.md"),
    )
    .unwrap();
    let replies = answers(stdout);
    let mut seen = vec![false; REQUESTS + 1];
    for _ in 0..REQUESTS {
        let reply = replies.recv_timeout(Duration::from_secs(60)).unwrap();
        let id = reply["id"].as_u64().unwrap() as usize;
        assert_eq!(
            reply["result"]["content"][0]["text"],
            json!(template),
            "{reply}"
        );
        assert!(!seen[id], "id {id} answered twice");
        seen[id] = true;
    }
    let stdin = writer.join().unwrap();
    let peak = status_kb(pid, "VmHWM:");
    println!(
        "fresh server peak {fresh_peak} kB; with {unread_written} of {REQUESTS} requests written and none read: {unread_rss} kB resident; peak over the whole run {peak} kB"
    );
    assert!(
        peak <= 2 * fresh_peak,
        "the server's peak memory {peak} kB is over twice a fresh server's ({fresh_peak} kB)"
    );
    drop(stdin);
}

/// 50 requests with one id, written at once over stdio: each is answered,
/// or refused with an error naming the id.
#[test]
fn stdio_50_concurrent_requests_with_one_id_are_each_answered() {
    let dir = tempdir();
    let (_server, mut stdin, stdout) = stdio_server(&[], &dir.path().join("cache"));
    let replies = answers(stdout);
    let batch: String = (0..50).map(|_| read_request(&json!(7)) + "\n").collect();
    stdin.write_all(batch.as_bytes()).unwrap();
    let replies: Vec<Value> = (0..50)
        .map_while(|_| replies.recv_timeout(Duration::from_secs(30)).ok())
        .collect();
    check_one_id_answers(&replies, 50);
}

/// Each of `count` answers to requests with id 7: a result, or the
/// duplicate's error; at least one result.
fn check_one_id_answers(replies: &[Value], count: usize) {
    assert_eq!(
        replies.len(),
        count,
        "{} of {count} requests were never answered",
        count - replies.len()
    );
    let mut results = 0;
    for reply in replies {
        assert_eq!(reply["id"], json!(7), "{reply}");
        if reply.get("result").is_some() {
            results += 1;
        } else {
            assert_eq!(
                reply["error"],
                json!({"code": -32600, "message": "invalid request: the id `7` is in use by a request of this session that has not been answered; give each request its own id"}),
            );
        }
    }
    assert!(results >= 1, "no request was served: {replies:?}");
}

/// `skb serve skills --http 127.0.0.1:0 ARGS`, run by `prlimit` when
/// `nofile` is given (which execs it: the pid is the server's).
fn http(nofile: Option<u32>, args: &[&str]) -> Http {
    let command = match nofile {
        Some(n) => {
            let mut c = skills_tests::tool("prlimit", "util-linux");
            c.arg(format!("--nofile={n}:{n}")).arg(skills_bin());
            c
        }
        None => skills(),
    };
    Http::start_with(command, args)
}

/// Requests of these tests.
impl Http {
    /// `POST /mcp` of `body` on a new connection, with `headers`; the
    /// status, the head and the body (de-chunked), or the error of a read
    /// that took longer than `wait`.
    fn post(
        &self,
        headers: &[String],
        body: &str,
        wait: Duration,
    ) -> std::io::Result<(u16, String, String)> {
        let mut stream = TcpStream::connect(&self.authority)?;
        let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {}\r\n{extra}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.authority,
            body.len()
        )?;
        // The whole answer within `wait`: SSE keep-alive comments would
        // reset a per-read timeout forever.
        let deadline = Instant::now() + wait;
        let mut response = Vec::new();
        let mut chunk = [0u8; 1 << 14];
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("no whole answer within {wait:?}"),
                ));
            }
            stream.set_read_timeout(Some(left))?;
            match stream.read(&mut chunk)? {
                0 => break,
                n => response.extend_from_slice(&chunk[..n]),
            }
        }
        let response = String::from_utf8(response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        let status = head[9..12].parse().unwrap();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_string()
        };
        Ok((status, head.to_string(), body))
    }

    /// A new session: its id.
    fn session(&self) -> String {
        let (status, head, _) = self.post(&[], INITIALIZE, Duration::from_secs(30)).unwrap();
        assert_eq!(status, 200, "{head}");
        let id = head
            .lines()
            .find_map(|l| l.strip_prefix("mcp-session-id: "))
            .unwrap()
            .to_string();
        let headers = session_headers(&id);
        let (status, _, _) = self
            .post(&headers, INITIALIZED, Duration::from_secs(30))
            .unwrap();
        assert_eq!(status, 202);
        id
    }
}

fn session_headers(id: &str) -> Vec<String> {
    vec![
        format!("Mcp-Session-Id: {id}"),
        "MCP-Protocol-Version: 2025-06-18".into(),
    ]
}

/// A chunked body's data.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].strip_prefix("\r\n").unwrap_or(&rest[size..]);
    }
    out
}

/// The JSON-RPC messages of an SSE body (`data:` lines) or a JSON one.
fn messages(body: &str) -> Vec<Value> {
    if body.trim_start().starts_with('{') {
        return vec![serde_json::from_str(body).unwrap()];
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter(|d| !d.trim().is_empty())
        .map(|d| serde_json::from_str(d.trim()).unwrap())
        .collect()
}

/// Connections that never finish their headers, `count` of them.
fn unfinished(authority: &str, count: usize) -> Vec<TcpStream> {
    (0..count)
        .map(|_| {
            let mut s = TcpStream::connect(authority).unwrap();
            write!(
                s,
                "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: appl"
            )
            .unwrap();
            s
        })
        .collect()
}

/// Waits up to `bound` for `ok`, polling.
fn eventually(bound: Duration, mut ok: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < bound {
        if ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    ok()
}

/// Whether the server closed `stream` (end of stream or reset).
fn closed_by_server(mut stream: &TcpStream) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut byte = [0u8; 64];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => closed_by_server(stream),
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
    }
}

/// 300 connections that never finish their headers exhausted a
/// 200-descriptor limit, and every new client timed out until the attacker
/// let go. Now a new client is answered at once, the stuck connections are
/// closed after the header timeout, and the descriptors come back down by
/// themselves while the attacker still holds its ends: with the default
/// `--max-connections` (128) the cap makes room, and with a cap above the
/// descriptor limit the refused accept (`EMFILE`) does.
#[test]
fn http_300_unfinished_connections_do_not_lock_out_a_new_client() {
    for cap in [None, Some("1000")] {
        let mut args = vec!["--header-timeout", "2"];
        args.extend(cap.iter().flat_map(|cap| ["--max-connections", cap]));
        let server = http(Some(200), &args);
        let pid = server.pid();
        let baseline = open_fds(pid);
        let attack = unfinished(&server.authority, 300);
        std::thread::sleep(Duration::from_millis(500));
        let during = open_fds(pid);

        let start = Instant::now();
        let answered = server.post(&[], INITIALIZE, Duration::from_secs(30));
        let took = start.elapsed();
        let (status, _, _) =
            answered.unwrap_or_else(|e| panic!("{args:?}: the new client got no answer: {e}"));
        assert_eq!(status, 200, "{args:?}");
        assert!(took < Duration::from_secs(30), "{args:?}: {took:?}");

        let back = eventually(Duration::from_secs(30), || open_fds(pid) <= baseline + 1);
        let after = open_fds(pid);
        println!(
            "{args:?}: descriptors: {baseline} fresh, {during} under 300 unfinished connections (limit 200), {after} after the header timeout; a new client answered in {took:?}"
        );
        assert!(
            back,
            "{args:?}: descriptors stayed at {after} (fresh: {baseline})"
        );
        let open = attack.iter().filter(|s| !closed_by_server(s)).count();
        assert_eq!(
            open, 0,
            "{args:?}: {open} unfinished connections still open"
        );
    }
}

/// Past `--max-connections`, a new connection closes the oldest one that
/// is not being served (here: unfinished headers), so a new client is
/// answered while the attacker holds every place.
#[test]
fn http_connections_over_the_cap_make_room_for_a_new_client() {
    let server = http(
        None,
        &["--max-connections", "20", "--header-timeout", "600"],
    );
    let pid = server.pid();
    let baseline = open_fds(pid);
    let _attack = unfinished(&server.authority, 50);
    assert!(eventually(Duration::from_secs(10), || open_fds(pid) <= baseline + 20));
    let start = Instant::now();
    let (status, _, _) = server
        .post(&[], INITIALIZE, Duration::from_secs(30))
        .unwrap();
    assert_eq!(status, 200);
    println!(
        "a new client answered in {:?} past 20 unfinished connections",
        start.elapsed()
    );
    assert!(open_fds(pid) <= baseline + 20);
}

/// 50 concurrent requests with one id in one session: 35 were never
/// answered. Each now gets its answer, or an error naming the id.
#[test]
fn http_50_concurrent_requests_with_one_id_are_each_answered() {
    let server = http(None, &[]);
    let session = server.session();
    let headers = session_headers(&session);
    let barrier = Barrier::new(50);
    let replies: Vec<Value> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..50)
            .map(|_| {
                let (server, headers, barrier) = (&server, &headers, &barrier);
                scope.spawn(move || {
                    barrier.wait();
                    let request = read_request(&json!(7));
                    let (status, _, body) = server
                        .post(headers, &request, Duration::from_secs(30))
                        .ok()?;
                    assert_eq!(status, 200, "{body}");
                    let mut messages = messages(&body);
                    assert_eq!(messages.len(), 1, "{body}");
                    messages.pop()
                })
            })
            .collect();
        threads
            .into_iter()
            .filter_map(|t| t.join().unwrap())
            .collect()
    });
    check_one_id_answers(&replies, 50);
}

/// A body that never arrives in full gets 408 after `--body-timeout`, and
/// the connection is closed.
#[test]
fn http_a_body_that_never_arrives_gets_408() {
    let server = http(None, &["--body-timeout", "1"]);
    let mut stream = TcpStream::connect(&server.authority).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\"",
        server.authority
    )
    .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    assert!(
        head.starts_with("HTTP/1.1 408 Request Timeout\r\n"),
        "{head}"
    );
    assert!(head.contains("connection: close"), "{head}");
    assert_eq!(
        body,
        "Request Timeout: the request body did not arrive within 1 s"
    );
}

/// A connection kept alive after its answer, with no next request, is
/// closed after `--connection-idle-timeout`; one that sent nothing at all,
/// after `--header-timeout`.
#[test]
fn http_idle_connections_are_closed() {
    let server = http(
        None,
        &["--connection-idle-timeout", "1", "--header-timeout", "2"],
    );
    let silent = TcpStream::connect(&server.authority).unwrap();
    let mut kept = TcpStream::connect(&server.authority).unwrap();
    write!(
        kept,
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{INITIALIZE}",
        server.authority,
        INITIALIZE.len()
    )
    .unwrap();
    // The whole answer (its stream ends), then the server's end of stream.
    kept.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut response = String::new();
    kept.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
    assert!(response.contains("\"serverInfo\""), "{response}");
    assert!(
        response.ends_with("0\r\n\r\n"),
        "the answer ended, then the connection: {response}"
    );
    assert!(eventually(Duration::from_secs(30), || closed_by_server(
        &silent
    )));
}

/// `--request-timeout` must outlast `--timeout`: a request timeout that
/// would cut a script run short is a usage error.
#[test]
fn serve_refuses_a_request_timeout_within_the_script_timeout() {
    let output = skills()
        .current_dir(workspace())
        .args([
            "serve",
            "skills",
            "--timeout",
            "60",
            "--request-timeout",
            "60",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "skb: `--request-timeout` (60 s) must be longer than `--timeout` (60 s): a script run would be cut off before its own time limit\n"
    );
}

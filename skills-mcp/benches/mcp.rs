//! MCP round trips and start-up, `skb serve` against a peer, over stdio.
//! Driven by `scripts/bench-mcp.sh`, which builds and runs everything; by
//! itself (`cargo bench --bench mcp`) it prints its usage and exits.
//!
//! * `mcp peer DIR`: the peer server, rmcp's own directory-backed
//!   `SkillCatalog` (feature `skills-fs`) over stdio: `resources/list`,
//!   `resources/read`, `skills/list`, `skills/get`, and a
//!   `read_skill_resource` tool answering from the same catalog, so both
//!   servers are measured on the same two requests.
//! * `mcp roundtrip N WARMUP METHOD SKILL PATH -- COMMAND...`: spawns COMMAND,
//!   initialises, calls `activate_skill` (when it has that tool), then sends
//!   WARMUP + N requests one at a time (METHOD `tool`: `tools/call
//!   read_skill_resource`; `resource`: `resources/read skill://SKILL/PATH`),
//!   timing each from the write of the request line to the read of the
//!   response line. Prints a JSON line: median, p90, min, max in µs.
//! * `mcp startup N -- COMMAND...`: N times: spawn, send `initialize`, time
//!   to the response line, close stdin, wait. Prints the same JSON.
//!
//! The driver speaks newline-delimited JSON-RPC itself (no SDK): what it adds
//! to a round trip is one `write` and one buffered line read.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::handler::server::skill_catalog::SkillCatalog;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, GetSkillRequestParams, GetSkillResult,
    JsonObject, ListResourcesResult, ListSkillsResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ResourceContents, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

const USAGE: &str = "usage: mcp peer DIR | mcp roundtrip N WARMUP tool|resource SKILL PATH -- COMMAND... | mcp startup N -- COMMAND...";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("peer") => peer(&args[1]),
        Some("roundtrip") => {
            let command = after_dashes(&args);
            let n = args[1].parse().unwrap();
            let warmup = args[2].parse().unwrap();
            roundtrip(n, warmup, &args[3], &args[4], &args[5], command);
        }
        Some("startup") => startup(args[1].parse().unwrap(), after_dashes(&args)),
        // `cargo bench` runs every bench with `--bench`: nothing to do alone.
        _ => println!("{USAGE}\n(run scripts/bench-mcp.sh)"),
    }
}

fn after_dashes(args: &[String]) -> &[String] {
    let at = args.iter().position(|a| a == "--").expect(USAGE);
    &args[at + 1..]
}

// -- the peer: rmcp's SkillCatalog

#[derive(Clone)]
struct Peer {
    skills: Arc<SkillCatalog>,
}

const READ_TOOL: &str = "read_skill_resource";

impl ServerHandler for Peer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_skills()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema: JsonObject = serde_json::from_str(
            r#"{"type":"object","properties":{"skill":{"type":"string"},"path":{"type":"string"}},"required":["skill","path"]}"#,
        )
        .unwrap();
        Ok(ListToolsResult::with_all_items(vec![Tool::new(
            READ_TOOL,
            "Read a file of a skill.",
            Arc::new(schema),
        )]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        if request.name != READ_TOOL {
            return Err(ErrorData::invalid_params("no such tool", None));
        }
        let arguments = request.arguments.unwrap_or_default();
        let field = |k: &str| arguments.get(k).and_then(|v| v.as_str()).unwrap_or("");
        let uri = format!("skill://{}/{}", field("skill"), field("path"));
        let result = match self.skills.read_resource(&uri).map(|r| r.contents) {
            Some(contents) => match contents.into_iter().next() {
                Some(ResourceContents::TextResourceContents { text, .. }) => {
                    CallToolResult::success(vec![ContentBlock::text(text)])
                }
                _ => CallToolResult::error(vec![ContentBlock::text("not text")]),
            },
            None => CallToolResult::error(vec![ContentBlock::text(format!("no file {uri}"))]),
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(self.skills.resources()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.skills
            .read_resource(&request.uri)
            .map(Into::into)
            .ok_or_else(|| ErrorData::resource_not_found(request.uri, None))
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        Ok(self.skills.list_skills())
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.skills.get_skill(&request.uri)
    }
}

fn peer(dir: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let skills = Arc::new(SkillCatalog::from_dir(dir).unwrap());
        let running = Peer { skills }
            .serve(rmcp::transport::stdio())
            .await
            .unwrap();
        let _ = running.waiting().await;
    });
}

// -- the driver

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl Server {
    fn spawn(command: &[String]) -> Server {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::with_capacity(1 << 20, child.stdout.take().unwrap());
        Server {
            child,
            stdin,
            stdout,
            line: String::new(),
        }
    }

    fn send(&mut self, message: &str) {
        self.stdin.write_all(message.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next response line (notifications skipped).
    fn response(&mut self) -> &str {
        loop {
            self.line.clear();
            let n = self.stdout.read_line(&mut self.line).unwrap();
            assert!(n > 0, "the server closed stdout");
            if self.line.contains("\"id\"") {
                return &self.line;
            }
        }
    }

    fn initialize(&mut self) -> &str {
        self.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-mcp","version":"0"}}}"#);
        self.response()
    }

    fn close(mut self) {
        drop(self.stdin);
        let deadline = Instant::now() + Duration::from_secs(5);
        while self.child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                let _ = self.child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = self.child.wait();
    }
}

fn roundtrip(n: usize, warmup: usize, method: &str, skill: &str, path: &str, command: &[String]) {
    let mut server = Server::spawn(command);
    let init = server.initialize().to_string();
    assert!(init.contains("\"result\""), "{init}");
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    if init.contains("\"tools\"") {
        server.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        if server.response().contains("activate_skill") {
            server.send(&format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"activate_skill","arguments":{{"name":"{skill}"}}}}}}"#
            ));
            let r = server.response();
            assert!(!r.contains("\"isError\":true"), "{r}");
        }
    }
    let mut times = Vec::with_capacity(n);
    let mut bytes = 0;
    for i in 0..warmup + n {
        let id = 10 + i;
        let request = match method {
            "tool" => format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"read_skill_resource","arguments":{{"skill":"{skill}","path":"{path}"}}}}}}"#
            ),
            _ => format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{{"uri":"skill://{skill}/{path}"}}}}"#
            ),
        };
        let start = Instant::now();
        server.send(&request);
        let response = server.response();
        let elapsed = start.elapsed();
        assert!(
            response.contains("\"result\"") && !response.contains("\"isError\":true"),
            "{response}"
        );
        bytes = response.len();
        if i >= warmup {
            times.push(elapsed);
        }
    }
    server.close();
    report(&mut times, bytes);
}

fn startup(n: usize, command: &[String]) {
    let mut times = Vec::with_capacity(n);
    let mut bytes = 0;
    for _ in 0..n {
        let start = Instant::now();
        let mut server = Server::spawn(command);
        let response = server.initialize();
        let elapsed = start.elapsed();
        assert!(response.contains("\"result\""), "{response}");
        bytes = response.len();
        times.push(elapsed);
        server.close();
    }
    report(&mut times, bytes);
}

fn report(times: &mut [Duration], bytes: usize) {
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let at = |q: f64| us(times[((times.len() - 1) as f64 * q).round() as usize]);
    println!(
        r#"{{"n":{},"median_us":{:.1},"p90_us":{:.1},"min_us":{:.1},"max_us":{:.1},"response_bytes":{bytes}}}"#,
        times.len(),
        at(0.5),
        at(0.9),
        us(times[0]),
        us(times[times.len() - 1]),
    );
}

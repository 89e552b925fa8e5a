//! `skills serve` and `skills_mcp`: the MCP server, driven by rmcp's
//! own client.
//!
//! * In process, over a duplex pipe: tools, resources, the template,
//!   prompts, the skills extension and every error path, for `skills/`.
//! * The skills extension's entries pass rmcp's `validate_skills` for
//!   `skills/` and for the whole shared corpus (packed with profile
//!   `claude-code`), and the corpus's listings fit one page.
//! * The real binary over stdio: the same calls, a clean exit at EOF, a
//!   signed pack served with `--pubkey` and refused with a wrong key, and
//!   `--http` on a non-loopback address refused.
//! * Hostile input: a line or body that is not JSON answered with `-32700`;
//!   over HTTP, `Origin` matched exactly (two headers refused), sessions
//!   capped and closed once idle; a timeout past the maximum answered as a
//!   tool error.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::{Path, PathBuf};
use std::process::Stdio;

use rmcp::model::{
    CallToolRequestParams, ErrorCode, GetPromptRequestParams, GetSkillRequestParams, JsonObject,
    ListResourcesResult, ListSkillsResult, ReadResourceRequestParams, ResourceContents,
    validate_skills,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Value, json};
use skills_bundle::exec::LocalExecutor;
use skills_bundle::pack::Trust;
use skills_bundle::{Bundle, Mode};
use skills_mcp::{SkillsServer, extension};
use skills_tests::{corpus_roots, skills, tempdir, workspace};

type Client = RunningService<RoleClient, ()>;

/// `skills pack ROOTS... -o OUT ARGS...`, then the pack as a bundle.
fn packed(roots: &[PathBuf], args: &[&str], dir: &Path) -> Bundle {
    let out = dir.join("skills.skillpack");
    let output = skills()
        .arg("pack")
        .args(roots)
        .arg("-o")
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Bundle::from_pack(&std::fs::read(&out).unwrap(), Trust::Unsigned).unwrap()
}

fn example_bundle(dir: &Path) -> Bundle {
    packed(&[workspace().join("skills")], &[], dir)
}

/// A server for `bundle` on one end of a pipe, rmcp's client on the other.
async fn connect(bundle: &Bundle, cache: &Path) -> Client {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = SkillsServer::new(bundle, LocalExecutor::new(cache), Mode::Restrict);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_end).await.unwrap()
}

fn args(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => panic!("arguments must be an object"),
    }
}

async fn call(client: &Client, tool: &'static str, arguments: Value) -> (bool, String) {
    let result = client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(args(arguments)))
        .await
        .unwrap();
    let text = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("");
    (result.is_error == Some(true), text)
}

fn code(error: ServiceError) -> ErrorCode {
    match error {
        ServiceError::McpError(e) => e.code,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// A missing resource: `-32002`, or `-32602` for protocol 2026-07-28 on.
fn is_not_found(code: ErrorCode) -> bool {
    code == ErrorCode::RESOURCE_NOT_FOUND || code == ErrorCode::INVALID_PARAMS
}

/// Everything a client sees of `skills/`, through whichever transport.
async fn exercise(client: &Client, bundle: &Bundle) {
    let info = client.peer_info().unwrap();
    assert_eq!(info.server_info.as_ref().unwrap().name, "skills");
    let instructions = info.instructions.clone().unwrap();
    assert!(
        instructions.contains("<available_skills>"),
        "{instructions}"
    );
    assert!(instructions.contains("<name>\ncalculator\n</name>"));

    // Tools: three, the skill names as an enum.
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        ["activate_skill", "read_skill_resource", "run_skill_script"]
    );
    let names: Vec<String> = bundle.skills().map(|s| s.name().to_string()).collect();
    for tool in &tools {
        let property = if tool.name == "activate_skill" {
            "name"
        } else {
            "skill"
        };
        let schema = Value::Object((*tool.input_schema).clone());
        assert_eq!(schema["properties"][property]["enum"], json!(names));
    }

    // Resources: every file, with size and MIME type.
    let resources = client.list_all_resources().await.unwrap();
    let files: usize = bundle.skills().map(|s| s.files().len()).sum();
    assert_eq!(resources.len(), files);
    let calc = resources
        .iter()
        .find(|r| r.uri == "skill://calculator/scripts/calc.py")
        .unwrap();
    assert_eq!(calc.mime_type.as_deref(), Some("text/x-python"));
    let skill = bundle.get("calculator").unwrap();
    assert_eq!(
        calc.size,
        Some(skill.file("scripts/calc.py").unwrap().size())
    );
    let md = resources
        .iter()
        .find(|r| r.uri == "skill://calculator/SKILL.md")
        .unwrap();
    assert_eq!(md.mime_type.as_deref(), Some("text/markdown"));

    let templates = client.list_all_resource_templates().await.unwrap();
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0].uri_template, "skill://{name}/{+path}");

    // Prompts: one per user-invocable skill; `arguments` fills $ARGUMENTS.
    let prompts = client.list_all_prompts().await.unwrap();
    assert!(prompts.iter().any(|p| p.name == "calculator"));
    assert!(prompts.len() <= bundle.len());
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new("calculator")
                .with_arguments(args(json!({"arguments": "2 + 2"}))),
        )
        .await
        .unwrap();
    let text = serde_json::to_string(&prompt.messages).unwrap();
    assert!(
        text.contains("Base directory for this skill: skill://calculator"),
        "{text}"
    );
    assert!(text.contains("2 + 2"), "{text}");
    let unknown = client
        .get_prompt(GetPromptRequestParams::new("no-such-skill"))
        .await
        .unwrap_err();
    assert_eq!(code(unknown), ErrorCode::INVALID_PARAMS);

    // The skills extension, as rmcp validates it.
    let listed = client.list_all_skills().await.unwrap();
    validate_skills(&listed).unwrap();
    assert_eq!(listed.len(), bundle.len());
    let got = client
        .get_skill(GetSkillRequestParams::new("skill://calculator/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(got.skill.name(), "calculator");
    let missing = client
        .get_skill(GetSkillRequestParams::new("skill://nowhere/SKILL.md"))
        .await
        .unwrap_err();
    assert_eq!(code(missing), ErrorCode::INVALID_PARAMS);

    // Level 2, 3 and a script, as a model calls them. The prompt above
    // activated the skill in this session (the user invoked it).
    let (error, text) = call(client, "activate_skill", json!({"name": "calculator"})).await;
    assert!(!error && text.contains("already active"), "{text}");
    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://calculator/scripts/calc.py",
        ))
        .await
        .unwrap();
    let [
        ResourceContents::TextResourceContents {
            text, mime_type, ..
        },
    ] = &read.contents[..]
    else {
        panic!("one text content: {read:?}");
    };
    assert_eq!(text.as_bytes(), skill.read("scripts/calc.py").unwrap());
    assert_eq!(mime_type.as_deref(), Some("text/x-python"));
    let (error, text) = call(
        client,
        "run_skill_script",
        json!({"skill": "calculator", "command": "python3 scripts/calc.py '15 * 23'"}),
    )
    .await;
    assert!(!error, "{text}");
    assert!(text.contains("345"), "{text}");

    // Errors.
    let outside = client
        .read_resource(ReadResourceRequestParams::new("skill://calculator/../x"))
        .await
        .unwrap_err();
    assert!(is_not_found(code(outside)));
    let unknown = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://no-such-skill/SKILL.md",
        ))
        .await
        .unwrap_err();
    assert!(is_not_found(code(unknown)));
    let (error, text) = call(
        client,
        "read_skill_resource",
        json!({"skill": "calculator", "path": "../../etc/passwd"}),
    )
    .await;
    assert!(error, "{text}");
    assert_eq!(
        text,
        "Illegal path: cannot read `../../etc/passwd`: the path contains `..`; it may not leave the skill directory"
    );
    let (error, text) = call(client, "activate_skill", json!({"name": "no-such-skill"})).await;
    assert!(error, "{text}");
    let available: Vec<&str> = bundle.skills().map(|s| s.name()).collect();
    assert_eq!(
        text,
        format!(
            "no skill `no-such-skill`; available: {}",
            available.join(", ")
        )
    );
    let (error, text) = call(
        client,
        "run_skill_script",
        json!({"skill": "calculator", "command": "ls"}),
    )
    .await;
    assert!(error, "{text}");
    assert_eq!(
        text,
        "Tool 'Bash' not allowed for skill 'calculator'. Allowed tools: ['Bash(python3:*)', 'Read']"
    );
    let unknown = client
        .call_tool(CallToolRequestParams::new("rm_rf"))
        .await
        .unwrap_err();
    match unknown {
        ServiceError::McpError(e) => assert_eq!(
            (e.code, e.message.as_ref()),
            (
                ErrorCode::INVALID_PARAMS,
                "no tool `rm_rf`; the tools are activate_skill, read_skill_resource and run_skill_script"
            )
        ),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_the_example_skills_in_process() {
    let dir = tempdir();
    let bundle = example_bundle(dir.path());
    let client = connect(&bundle, &dir.path().join("cache")).await;
    exercise(&client, &bundle).await;
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plugin_skills_are_two_uri_segments() {
    let dir = tempdir();
    let plugin = dir.path().join("plug");
    skills_tests::write_tree(
        &plugin,
        &[
            (
                ".claude-plugin/plugin.json",
                br#"{"name": "plug"}"#.as_slice(),
            ),
            (
                "skills/greet/SKILL.md",
                b"---\nname: greet\ndescription: Greets. Use to greet.\n---\n\nSay hello to $ARGUMENTS.\n",
            ),
            (
                "skills/quiet/SKILL.md",
                b"---\nname: quiet\ndescription: Model only. Use when asked.\nuser-invocable: false\n---\n\nBody.\n",
            ),
        ],
    );
    let bundle = packed(&[plugin], &["--profile", "claude-code"], dir.path());
    assert!(bundle.get("plug:greet").is_some());
    let client = connect(&bundle, &dir.path().join("cache")).await;
    let listed = client.list_all_skills().await.unwrap();
    validate_skills(&listed).unwrap();
    assert!(
        listed
            .iter()
            .any(|s| s.uri == "skill://plug/greet/SKILL.md")
    );
    for uri in ["skill://plug/greet/SKILL.md", "skill://plug:greet/SKILL.md"] {
        let read = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap();
        assert_eq!(read.contents.len(), 1, "{uri}");
    }
    let prompts = client.list_all_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["plug:greet"], "user-invocable: false is no prompt");
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new("plug:greet")
                .with_arguments(args(json!({"arguments": "Ada"}))),
        )
        .await
        .unwrap();
    assert!(
        serde_json::to_string(&prompt)
            .unwrap()
            .contains("Say hello to Ada.")
    );
    client.cancel().await.unwrap();
}

#[test]
fn every_skill_of_the_corpus_passes_rmcp_validation() {
    let dir = tempdir();
    for (label, bundle) in [
        ("skills/", example_bundle(dir.path())),
        (
            "corpus",
            packed(&corpus_roots(), &["--profile", "claude-code"], dir.path()),
        ),
    ] {
        let listed = extension::list(&bundle);
        for skill in &listed {
            skill
                .validate()
                .unwrap_or_else(|e| panic!("{label}: {}: {e}", skill.uri));
        }
        validate_skills(&listed).unwrap();
        assert_eq!(listed.len(), bundle.len(), "{label}: every skill listed");
        // The listings go out in one page each: well under rmcp's 16 MiB line.
        let server = SkillsServer::new(&bundle, LocalExecutor::new(dir.path()), Mode::Restrict);
        let resources = skills_mcp::resources::list(&bundle);
        let files: usize = bundle.skills().map(|s| s.files().len()).sum();
        assert_eq!(resources.len(), files);
        let sizes = [
            serde_json::to_string(&ListResourcesResult::with_all_items(resources))
                .unwrap()
                .len(),
            serde_json::to_string(&ListSkillsResult::with_all_items(listed))
                .unwrap()
                .len(),
            server.get_info().instructions.unwrap_or_default().len(),
        ];
        eprintln!(
            "{label}: {} skills, {files} files; resources/list {} bytes, skills/list {} bytes, instructions {} bytes",
            bundle.len(),
            sizes[0],
            sizes[1],
            sizes[2]
        );
        assert!(sizes.iter().all(|&n| n < 8 << 20), "{sizes:?}");
    }
}

/// `skills serve ARGS` as a child, with rmcp's client on its stdio.
async fn spawn(args: &[&str], dir: &Path) -> (Client, tokio::process::Child) {
    let mut child = tokio::process::Command::new(skills_tests::skills_bin())
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

/// `skills serve skills --http 127.0.0.1:0 ARGS`, killed when dropped.
struct Http {
    child: std::process::Child,
    /// `127.0.0.1:PORT`.
    authority: String,
    _cache: tempfile::TempDir,
}

impl Http {
    fn start(args: &[&str]) -> Http {
        use std::io::{BufRead, BufReader};
        let cache = tempdir();
        let mut child = std::process::Command::new(skills_tests::skills_bin())
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
        // "skills: serving 5 skills at http://127.0.0.1:PORT/mcp"
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
    let big = format!("\"{}\"", "x".repeat(skills_mcp::MAX_MESSAGE));
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
    assert_eq!(status, 202);
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
    let mut child = tokio::process::Command::new(skills_tests::skills_bin())
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

/// A timeout the clock cannot add panicked a worker thread of `skills
/// serve`, and the call never got an answer: now the call is a tool error
/// naming the maximum, and the server answers the next one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_past_the_maximum_is_a_tool_error() {
    let dir = tempdir();
    let bundle = example_bundle(dir.path());
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let mut executor = LocalExecutor::new(dir.path().join("cache"));
    executor.timeout = std::time::Duration::MAX;
    let server = SkillsServer::new(&bundle, executor, Mode::Restrict);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let client: Client = ().serve(client_end).await.unwrap();
    let (error, text) = call(&client, "activate_skill", json!({"name": "calculator"})).await;
    assert!(!error, "{text}");
    let run = json!({"skill": "calculator", "command": "python3 scripts/calc.py '1 + 1'"});
    let (error, text) = call(&client, "run_skill_script", run).await;
    assert!(error);
    assert_eq!(
        text,
        "the timeout 18446744073709551615.999999999s is over the maximum of 604800 s (7 days); set at most that"
    );
    let (error, _) = call(
        &client,
        "read_skill_resource",
        json!({"skill": "calculator", "path": "SKILL.md"}),
    )
    .await;
    assert!(!error, "the server answers after the refusal");
    client.cancel().await.unwrap();
}

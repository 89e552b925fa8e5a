//! `skills serve` and `skills_bundle::mcp`: the MCP server, driven by rmcp's
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
use skills_bundle::mcp::{SkillsServer, extension};
use skills_bundle::pack::Trust;
use skills_bundle::{Bundle, Mode};
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
    assert!(error && text.contains("Illegal path"), "{text}");
    let (error, text) = call(client, "activate_skill", json!({"name": "no-such-skill"})).await;
    assert!(error && text.contains("no skill `no-such-skill`"), "{text}");
    let (error, text) = call(
        client,
        "run_skill_script",
        json!({"skill": "calculator", "command": "ls"}),
    )
    .await;
    assert!(error, "{text}");
    assert!(
        text.contains("Tool 'Bash' not allowed for skill 'calculator'"),
        "{text}"
    );
    let unknown = client
        .call_tool(CallToolRequestParams::new("rm_rf"))
        .await
        .unwrap_err();
    assert_eq!(code(unknown), ErrorCode::INVALID_PARAMS);
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
        let resources = skills_bundle::mcp::resources::list(&bundle);
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

/// Over HTTP, a request from a web page of another origin is refused (no
/// page the user visits can call the tools); a client outside a browser
/// (no `Origin`) and a page served from this machine are served.
#[test]
fn http_refuses_other_origins() {
    use std::io::{BufRead, BufReader, Read, Write};
    let dir = tempdir();
    let mut child = std::process::Command::new(skills_tests::skills_bin())
        .current_dir(workspace())
        .args(["serve", "skills", "--http", "127.0.0.1:0", "--cache"])
        .arg(dir.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    // "skills: serving 5 skills at http://127.0.0.1:PORT/mcp"
    let authority = line
        .trim()
        .rsplit_once("http://")
        .and_then(|(_, rest)| rest.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let status = |origin: Option<&str>| {
        let mut stream = std::net::TcpStream::connect(&authority).unwrap();
        let origin = origin
            .map(|o| format!("Origin: {o}\r\n"))
            .unwrap_or_default();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {authority}\r\n{origin}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).unwrap();
        String::from_utf8_lossy(&head[9..12]).into_owned()
    };
    let answers = [
        status(None),
        status(Some("https://evil.example")),
        status(Some("http://localhost:3000")),
    ];
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(answers, ["200", "403", "200"]);
}

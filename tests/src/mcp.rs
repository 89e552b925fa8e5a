//! An MCP client's view of a `skills` server (feature `mcp`), shared by
//! `skills-bundle-mcp`'s in-process tests and the CLI tests that run `skills
//! serve`: [`exercise`] makes the same calls through whichever transport
//! and checks every answer against the bundle served.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use rmcp::model::{
    CallToolRequestParams, ErrorCode, GetPromptRequestParams, GetSkillRequestParams, JsonObject,
    ReadResourceRequestParams, ResourceContents, validate_skills,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde_json::{Value, json};
use skills_bundle::Bundle;

/// rmcp's client, connected to a server.
pub type Client = RunningService<RoleClient, ()>;

/// `value`, which must be a JSON object, as tool or prompt arguments.
pub fn args(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => panic!("arguments must be an object"),
    }
}

/// Calls `tool` with `arguments`: whether the result is an error, and its
/// text.
pub async fn call(client: &Client, tool: &'static str, arguments: Value) -> (bool, String) {
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

/// The JSON-RPC error code of `error`, which must be one.
pub fn code(error: ServiceError) -> ErrorCode {
    match error {
        ServiceError::McpError(e) => e.code,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// A missing resource: `-32002`, or `-32602` for protocol 2026-07-28 on.
pub fn is_not_found(code: ErrorCode) -> bool {
    code == ErrorCode::RESOURCE_NOT_FOUND || code == ErrorCode::INVALID_PARAMS
}

/// Everything a client sees of `skills/` (served as `bundle`), through
/// whichever transport: tools, resources, the template, prompts, the skills
/// extension, a script run and every error path.
pub async fn exercise(client: &Client, bundle: &Bundle) {
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
        "Tool 'Bash' not allowed for skill 'calculator'. Allowed tools: ['Bash(python3 scripts/calc.py:*)', 'Read']"
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

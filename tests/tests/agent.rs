//! End to end, offline: the calculator example of the seeds (`15 * 23` ->
//! 345) runs the real Python script out of a bundle compiled into this test
//! binary, driven by a scripted model, in both protocol styles; and the
//! session refuses what the policy and the paths do not allow.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use skills_bundle::agent::{
    self, AsyncChatModel, ChatModel, Message, Reply, Role, Style, ToolCall,
};
use skills_bundle::exec::LocalExecutor;
use skills_bundle::protocol::Instruction;
use skills_bundle::session::{Session, ToolDefinition};
use skills_bundle::{Bundle, Mode, skills_bundle};

static SKILLS: Bundle = skills_bundle!("../skills");

/// One scripted turn: it may check the conversation so far and the tool
/// definitions (as JSON).
type Step = Box<dyn FnMut(&[Message], &str) -> Reply + Send>;

/// Replies in order.
struct Scripted {
    steps: Vec<Step>,
}

impl ChatModel for Scripted {
    fn complete(
        &mut self,
        messages: &[Message],
        tools: &[ToolDefinition],
    ) -> Result<Reply, String> {
        if self.steps.is_empty() {
            return Err("the script ran out".into());
        }
        let mut step = self.steps.remove(0);
        Ok(step(messages, &ToolDefinition::array_json(tools)))
    }
}

/// The same script as an async model that yields to the runtime before
/// each reply, as a network call would.
struct AsyncScripted(Scripted);

impl AsyncChatModel for AsyncScripted {
    async fn complete_async(
        &mut self,
        messages: &[Message],
        tools: &[ToolDefinition],
    ) -> Result<Reply, String> {
        tokio::task::yield_now().await;
        self.0.complete(messages, tools)
    }
}

fn text(content: &str) -> Reply {
    Reply {
        content: content.into(),
        tool_calls: Vec::new(),
    }
}

fn call(id: &str, name: &str, arguments: &str) -> Reply {
    Reply {
        content: String::new(),
        tool_calls: vec![ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
        }],
    }
}

fn session() -> (tempfile::TempDir, Session<LocalExecutor>) {
    let cache = tempfile::tempdir().unwrap();
    let executor = LocalExecutor::new(cache.path().join("cache"));
    (cache, Session::new(&SKILLS, executor, Mode::Restrict))
}

/// The calculator in the XML protocol, scripted.
fn xml_calculator() -> Scripted {
    Scripted {
        steps: vec![
            Box::new(|m: &[Message], _: &str| {
                assert!(m[0].content.contains("<name>\ncalculator\n</name>"));
                assert!(m[0].content.contains("<use_skill>skill-name</use_skill>"));
                text("I will use the calculator.\n<use_skill>calculator</use_skill>")
            }),
            Box::new(|m: &[Message], _: &str| {
                let last = &m.last().unwrap().content;
                assert!(
                    last.starts_with("<skill_content name=\"calculator\">"),
                    "{last}"
                );
                text(
                    "<execute_script skill=\"calculator\">python3 scripts/calc.py '15 * 23'</execute_script>",
                )
            }),
            Box::new(|m: &[Message], _: &str| {
                let last = &m.last().unwrap().content;
                assert_eq!(
                    last,
                    "<script_result exit_code=\"0\">\n345\n</script_result>"
                );
                text("15 × 23 = 345")
            }),
        ],
    }
}

#[test]
fn the_calculator_in_the_xml_protocol() {
    let (_cache, session) = session();
    let mut model = xml_calculator();
    let (answer, transcript) =
        agent::run(&mut model, &session, Style::Xml, "What is 15 * 23?", 10).unwrap();
    assert_eq!(answer, "15 × 23 = 345");
    assert_eq!(transcript.len(), 7);
    assert_eq!(session.active(), ["calculator"]);
}

/// The calculator with function calling, scripted.
fn tools_calculator() -> Scripted {
    Scripted {
        steps: vec![
            Box::new(|m: &[Message], tools: &str| {
                let defs: serde_json::Value = serde_json::from_str(tools).unwrap();
                let names: Vec<&str> = defs
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d["name"].as_str().unwrap())
                    .collect();
                assert_eq!(
                    names,
                    ["activate_skill", "read_skill_resource", "run_skill_script"]
                );
                let skills = &defs[0]["parameters"]["properties"]["name"]["enum"];
                assert!(
                    skills.as_array().unwrap().contains(&"calculator".into()),
                    "{skills}"
                );
                assert!(m[0].content.starts_with("<available_skills>"));
                call("1", "activate_skill", r#"{"name": "calculator"}"#)
            }),
            Box::new(|m: &[Message], _: &str| {
                let last = m.last().unwrap();
                assert_eq!(
                    (last.role, last.tool_call_id.as_deref()),
                    (Role::Tool, Some("1"))
                );
                assert!(
                    last.content
                        .starts_with("Base directory for this skill: skill://calculator")
                );
                call(
                    "2",
                    "run_skill_script",
                    r#"{"skill": "calculator", "command": "python3 scripts/calc.py '15 * 23'"}"#,
                )
            }),
            Box::new(|m: &[Message], _: &str| {
                assert_eq!(m.last().unwrap().content, "exit code: 0\n345\n");
                text("345")
            }),
        ],
    }
}

#[test]
fn the_calculator_with_function_calling() {
    let (_cache, session) = session();
    let mut model = tools_calculator();
    let (answer, _) =
        agent::run(&mut model, &session, Style::Tools, "What is 15 * 23?", 10).unwrap();
    assert_eq!(answer, "345");
}

#[test]
fn the_calculator_on_tokio_in_both_styles() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    for (style, model) in [
        (Style::Xml, xml_calculator()),
        (Style::Tools, tools_calculator()),
    ] {
        // Spawned, so the loop's future must be `Send`.
        let answer = runtime
            .block_on(runtime.spawn(async move {
                let (_cache, session) = session();
                let mut model = AsyncScripted(model);
                agent::run_async(&mut model, &session, style, "What is 15 * 23?", 10)
                    .await
                    .map(|(answer, _)| answer)
            }))
            .unwrap()
            .unwrap();
        assert!(answer.contains("345"), "{style:?}: {answer}");
    }
}

#[test]
fn the_session_refuses_what_is_not_allowed() {
    let (_cache, session) = session();
    // Not active yet: nothing is allowed to run.
    let before = session.handle(&Instruction::ExecuteScript {
        skill: "calculator".into(),
        command: "python3 scripts/calc.py 1".into(),
    });
    assert!(before.starts_with("<script_error>"), "{before}");
    session.activate("calculator", "").unwrap();
    assert!(
        session
            .activate("calculator", "")
            .unwrap()
            .contains("already active")
    );
    // A tool the skill does not list, under Restrict.
    let e = session.run("calculator", "ls -la").unwrap_err();
    assert!(
        e.starts_with("Tool 'Bash' not allowed for skill 'calculator'. Allowed tools: ["),
        "{e}"
    );
    // Shell operators never match an allow rule.
    assert!(
        session
            .run("calculator", "python3 scripts/calc.py 1; rm -rf /")
            .is_err()
    );
    assert!(
        session
            .run("calculator", "python3 -c 'import os' && ls")
            .is_err()
    );
    // Paths stay inside the skill, through every read path.
    for path in [
        "../git-workflow/SKILL.md",
        "/etc/passwd",
        "scripts/../../x",
        "C:/x",
        "a\\..\\b",
    ] {
        let reply = session.handle(&Instruction::ReadResource {
            skill: "calculator".into(),
            path: path.into(),
        });
        assert!(reply.starts_with("<resource_error>"), "{path}: {reply}");
        assert!(
            session
                .dispatch(
                    "read_skill_resource",
                    &format!(
                        r#"{{"skill": "calculator", "path": {}}}"#,
                        serde_json::to_string(path).unwrap()
                    )
                )
                .is_err()
        );
    }
    let e = session.read("calculator", "nope.md").unwrap_err();
    assert!(e.contains("available: SKILL.md, scripts/calc.py"), "{e}");
    // Unknown skills and tools, bad JSON.
    assert!(
        session
            .dispatch("activate_skill", r#"{"name": "nope"}"#)
            .unwrap_err()
            .contains("available: calculator")
    );
    assert!(session.dispatch("delete_everything", "{}").is_err());
    assert!(session.dispatch("run_skill_script", "not json").is_err());
    // Unloading revokes the grants.
    assert!(session.unload("calculator"));
    assert!(
        session
            .run("calculator", "python3 scripts/calc.py 1")
            .is_err()
    );
}

#[test]
fn the_loop_stops_at_max_iterations() {
    let (_cache, session) = session();
    let mut model = Scripted {
        steps: (0..5)
            .map(|_| {
                Box::new(|_: &[Message], _: &str| text("<use_skill>calculator</use_skill>")) as Step
            })
            .collect(),
    };
    let e = agent::run(&mut model, &session, Style::Xml, "loop", 3).unwrap_err();
    assert_eq!(e, agent::LoopError::MaxIterations(3));
}

#[test]
fn a_catalog_budget_reaches_the_system_prompt() {
    let (_cache, session) = session();
    let full = session.system_prompt();
    let session = session.with_catalog_budget(600);
    let short = session.system_prompt();
    assert!(short.len() < full.len());
    assert!(session.catalog().chars().count() <= 600);
    assert!(short.contains("<name>\ncalculator\n</name>"), "{short}");
    assert!(short.contains("<use_skill>skill-name</use_skill>"));
}

//! End to end, offline: the calculator example of the seeds (`15 * 23` ->
//! 345) runs the real Python script out of a bundle compiled into this test
//! binary, driven by a scripted model, in both protocol styles; and the
//! session refuses what the policy and the paths do not allow, each refusal
//! matched by its `SessionError` variant and the exact text the model reads
//! (so that a refusal cannot pass for another failure, such as a missing
//! `python3`).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use skills_bundle::PathError;
use skills_bundle::agent::{
    self, AsyncChatModel, ChatModel, LoopError, Message, ModelError, Protocol, Reply, Role,
    ToolCall,
};
use skills_bundle::exec::{ExecError, LocalExecutor};
use skills_bundle::protocol::{Instruction, escape};
use skills_bundle::session::{ACTIVATE, READ, RUN, Session, SessionError, ToolDefinition};
use skills_bundle::{Bundle, Mode, ReadError, skills_bundle};

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
        definitions: &[ToolDefinition],
    ) -> Result<Reply, ModelError> {
        if self.steps.is_empty() {
            return Err("the script ran out".into());
        }
        let mut step = self.steps.remove(0);
        Ok(step(messages, &ToolDefinition::array_json(definitions)))
    }
}

/// The same script as an async model that yields to the runtime before
/// each reply, as a network call would.
struct AsyncScripted(Scripted);

impl AsyncChatModel for AsyncScripted {
    async fn complete_async(
        &mut self,
        messages: &[Message],
        definitions: &[ToolDefinition],
    ) -> Result<Reply, ModelError> {
        tokio::task::yield_now().await;
        self.0.complete(messages, definitions)
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
        agent::run(&mut model, &session, Protocol::Xml, "What is 15 * 23?", 10).unwrap();
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
    let (answer, _) = agent::run(
        &mut model,
        &session,
        Protocol::FunctionCalling,
        "What is 15 * 23?",
        10,
    )
    .unwrap();
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
        (Protocol::Xml, xml_calculator()),
        (Protocol::FunctionCalling, tools_calculator()),
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

/// What a session is asked, for the refusal table.
#[derive(Debug, Clone, Copy)]
enum Ask {
    /// `Session::run("calculator", line)`, and the same line through
    /// `call_tool(run_skill_script)` and `<execute_script>`.
    Run(&'static str),
    /// `Session::read("calculator", path)`, and the same path through
    /// `call_tool(read_skill_resource)` and `<read_resource>`.
    Read(&'static str),
    /// `Session::call_tool(name, arguments)`.
    Call(&'static str, &'static str),
}

/// One refusal: the variant, and the exact text the model reads.
struct Refusal {
    attack: &'static str,
    /// Skills activated, in order, in a fresh session.
    active: &'static [&'static str],
    ask: Ask,
    variant: fn(&SessionError) -> bool,
    text: &'static str,
}

const CALCULATOR_ONLY: &str = "Tool 'Bash' not allowed for skill 'calculator'. Allowed tools: ['Bash(python3 scripts/calc.py:*)', 'Read']";

fn refusals() -> Vec<Refusal> {
    use Ask::{Call, Read, Run};
    let restricted =
        |e: &SessionError| matches!(e, SessionError::Restricted(r) if r.skill == "calculator");
    let bad_path = |e: &SessionError| matches!(e, SessionError::Read(ReadError::BadPath { .. }));
    vec![
        Refusal {
            attack: "a tool the skill does not list, the skill not active",
            active: &[],
            ask: Run("ls -la"),
            variant: restricted,
            text: CALCULATOR_ONLY,
        },
        Refusal {
            attack: "another active skill's grant",
            active: &["git-workflow"],
            ask: Run("git status"),
            variant: restricted,
            text: CALCULATOR_ONLY,
        },
        Refusal {
            attack: "a tool the skill does not list",
            active: &["calculator"],
            ask: Run("ls -la"),
            variant: restricted,
            text: CALCULATOR_ONLY,
        },
        Refusal {
            attack: "`;` after a granted command",
            active: &["calculator"],
            ask: Run("python3 scripts/calc.py 1; rm -rf /"),
            variant: restricted,
            text: CALCULATOR_ONLY,
        },
        Refusal {
            attack: "`&&` after a granted command",
            active: &["calculator"],
            ask: Run("python3 -c 'import os' && ls"),
            variant: restricted,
            text: CALCULATOR_ONLY,
        },
        Refusal {
            attack: "a sibling skill's file",
            active: &[],
            ask: Read("../git-workflow/SKILL.md"),
            variant: bad_path,
            text: "Illegal path: cannot read `../git-workflow/SKILL.md`: the path contains `..`; it may not leave the skill directory",
        },
        Refusal {
            attack: "an absolute path",
            active: &[],
            ask: Read("/etc/passwd"),
            variant: |e| {
                matches!(
                    e,
                    SessionError::Read(ReadError::BadPath {
                        reason: PathError::Absolute,
                        ..
                    })
                )
            },
            text: "Illegal path: cannot read `/etc/passwd`: the path is absolute; paths are relative to the skill directory",
        },
        Refusal {
            attack: "`..` out of a subdirectory",
            active: &[],
            ask: Read("scripts/../../x"),
            variant: bad_path,
            text: "Illegal path: cannot read `scripts/../../x`: the path contains `..`; it may not leave the skill directory",
        },
        Refusal {
            attack: "a drive letter",
            active: &[],
            ask: Read("C:/x"),
            variant: bad_path,
            text: "Illegal path: cannot read `C:/x`: the path is absolute; paths are relative to the skill directory",
        },
        Refusal {
            attack: "backslashes",
            active: &[],
            ask: Read("a\\..\\b"),
            variant: bad_path,
            text: "Illegal path: cannot read `a\\..\\b`: the path contains `\\`; use `/` as the separator",
        },
        Refusal {
            attack: "a file the skill does not have",
            active: &[],
            ask: Read("nope.md"),
            variant: |e| matches!(e, SessionError::Read(ReadError::NotFound { path, .. }) if path == "nope.md"),
            text: "no file `nope.md` in this skill; available: SKILL.md, scripts/calc.py",
        },
        Refusal {
            attack: "an unknown skill",
            active: &[],
            ask: Call(ACTIVATE, r#"{"name": "nope"}"#),
            variant: |e| matches!(e, SessionError::UnknownSkill { name, .. } if name == "nope"),
            text: "no skill `nope`; available: calculator, csv-insights, git-workflow, review-plugin:code-review, review-plugin:security-review",
        },
        Refusal {
            attack: "an unknown tool",
            active: &[],
            ask: Call("delete_everything", "{}"),
            variant: |e| matches!(e, SessionError::UnknownTool { name } if name == "delete_everything"),
            text: "no tool `delete_everything`; the tools are activate_skill, read_skill_resource and run_skill_script",
        },
        Refusal {
            attack: "an unknown tool with arguments that are not JSON",
            active: &[],
            ask: Call("delete_everything", "not json"),
            variant: |e| matches!(e, SessionError::UnknownTool { .. }),
            text: "no tool `delete_everything`; the tools are activate_skill, read_skill_resource and run_skill_script",
        },
        Refusal {
            attack: "arguments that are not JSON",
            active: &["calculator"],
            ask: Call(RUN, "not json"),
            variant: |e| matches!(e, SessionError::ArgumentsNotJson { .. }),
            text: "the arguments are not JSON: expected a value (`true`, `false` and `null` are lowercase)",
        },
        Refusal {
            attack: "a missing argument",
            active: &[],
            ask: Call(READ, r#"{"skill": "calculator"}"#),
            variant: |e| matches!(e, SessionError::MissingArgument { name: "path" }),
            text: "`path` is missing",
        },
        Refusal {
            attack: "`arguments` that is not a string",
            active: &[],
            ask: Call(ACTIVATE, r#"{"name": "calculator", "arguments": 7}"#),
            variant: |e| matches!(e, SessionError::ArgumentNotString { name: "arguments" }),
            text: "`arguments` must be a string",
        },
        Refusal {
            attack: "an argument that is not a string",
            active: &[],
            ask: Call(READ, r#"{"skill": 7, "path": "SKILL.md"}"#),
            variant: |e| matches!(e, SessionError::ArgumentNotString { name: "skill" }),
            text: "`skill` must be a string",
        },
    ]
}

#[test]
fn the_session_refuses_what_is_not_allowed() {
    for case in refusals() {
        let row = case.attack;
        let (_cache, session) = session();
        for name in case.active {
            session.activate(name, "").unwrap();
        }
        // (entry point, answer); an error is checked by variant and text.
        let mut answers = Vec::new();
        let xml = match case.ask {
            Ask::Run(line) => {
                answers.push(("Session::run", session.run("calculator", line).map(|_| ())));
                let args = serde_json::json!({"skill": "calculator", "command": line});
                answers.push((RUN, session.call_tool(RUN, &args.to_string()).map(|_| ())));
                Some((
                    "script_error",
                    Instruction::ExecuteScript {
                        skill: "calculator".into(),
                        command: line.into(),
                    },
                ))
            }
            Ask::Read(path) => {
                answers.push((
                    "Session::read",
                    session.read("calculator", path).map(|_| ()),
                ));
                let args = serde_json::json!({"skill": "calculator", "path": path});
                answers.push((READ, session.call_tool(READ, &args.to_string()).map(|_| ())));
                Some((
                    "resource_error",
                    Instruction::ReadResource {
                        skill: "calculator".into(),
                        path: path.into(),
                    },
                ))
            }
            Ask::Call(name, arguments) => {
                answers.push((name, session.call_tool(name, arguments).map(|_| ())));
                None
            }
        };
        for (entry, answer) in answers {
            match answer {
                Err(e) if (case.variant)(&e) => {
                    assert_eq!(e.to_string(), case.text, "[{row}] via {entry}");
                }
                other => panic!("[{row}] via {entry}: {other:?}"),
            }
        }
        if let Some((element, instruction)) = xml {
            assert_eq!(
                session.handle_xml(&instruction),
                format!("<{element}>{}</{element}>", escape(case.text, false)),
                "[{row}] via XML"
            );
        }
        // Nothing was activated by a refusal.
        assert_eq!(session.active(), case.active, "[{row}]");
    }
}

#[test]
fn activating_twice_injects_once() {
    let (_cache, session) = session();
    let first = session.activate("calculator", "").unwrap();
    assert!(
        first.starts_with("Base directory for this skill: skill://calculator"),
        "{first}"
    );
    assert_eq!(
        session.activate("calculator", "").unwrap(),
        "The skill `calculator` is already active; its instructions are above."
    );
    assert_eq!(session.active(), ["calculator"]);
}

#[test]
fn unloading_revokes_the_grants() {
    let (_cache, session) = session();
    session.activate("git-workflow", "").unwrap();
    session.activate("calculator", "").unwrap();
    // calculator's `Bash(python3 scripts/calc.py:*)` covers the line, even
    // in git-workflow.
    assert_eq!(
        session
            .policy()
            .check("Bash", Some("python3 scripts/calc.py 1")),
        skills_bundle::Decision::Allow {
            by: Some("calculator".into())
        }
    );
    assert!(session.unload("calculator"));
    assert!(!session.unload("calculator"), "unloaded twice");
    match session.run("git-workflow", "python3 scripts/calc.py 1") {
        Err(e @ SessionError::Restricted(_)) => assert_eq!(
            e.to_string(),
            "Tool 'Bash' not allowed for skill 'git-workflow'. Allowed tools: ['Bash(git status:*)', 'Bash(git diff:*)', 'Bash(git log:*)', 'Bash(git branch:*)', 'Bash(git add:*)', 'Bash(git commit:*)', 'Bash(git switch:*)', 'Bash(git restore:*)', 'Read']"
        ),
        other => panic!("{other:?}"),
    }
    // git-workflow's grant (still active) does not cover calculator's
    // directory: calculator's own rules decide.
    match session.run("calculator", "git status") {
        Err(e @ SessionError::Restricted(_)) => assert_eq!(e.to_string(), CALCULATOR_ONLY),
        other => panic!("{other:?}"),
    }
}

/// A script that cannot start is an executor error carried as the
/// session's source, not a refusal; its text names the program.
#[test]
fn a_program_that_does_not_exist_is_an_exec_error() {
    let (_cache, session) = session();
    session.activate("calculator", "").unwrap();
    session.policy().allow_all(true);
    match session.run("calculator", "no-such-program-here 1") {
        Err(e @ SessionError::Exec(ExecError::Spawn { .. })) => {
            assert_eq!(
                e.to_string(),
                "cannot run `no-such-program-here`: No such file or directory (os error 2)"
            );
            let source = std::error::Error::source(&e).map(ToString::to_string);
            assert_eq!(source, Some(e.to_string()));
        }
        other => panic!("{other:?}"),
    }
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
    let e = agent::run(&mut model, &session, Protocol::Xml, "loop", 3).unwrap_err();
    assert!(matches!(e, LoopError::MaxIterations(3)), "{e:?}");
    assert_eq!(
        e.to_string(),
        "no answer after 3 model calls (max_iterations)"
    );
}

#[test]
fn a_catalog_budget_reaches_the_system_prompt() {
    let (_cache, session) = session();
    let full = session.xml_prompt();
    let session = session.with_catalog_budget(600);
    let short = session.xml_prompt();
    assert!(short.len() < full.len());
    assert!(session.catalog().chars().count() <= 600);
    assert!(short.contains("<name>\ncalculator\n</name>"), "{short}");
    assert!(short.contains("<use_skill>skill-name</use_skill>"));
}

#[test]
fn a_model_error_is_the_loops_source() {
    let (_cache, session) = session();
    let mut model = Scripted { steps: Vec::new() };
    let e = agent::run(&mut model, &session, Protocol::FunctionCalling, "hi", 3).unwrap_err();
    assert_eq!(e.to_string(), "the model failed: the script ran out");
    let LoopError::Model(model_error) = &e else {
        panic!("{e:?}")
    };
    assert_eq!(model_error.to_string(), "the script ran out");
    let source = std::error::Error::source(&e).map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("the script ran out"));
}

//! Invocation control in the runtime: what a session offers the model
//! (`disable-model-invocation`, `paths`), what it refuses the model, what
//! the user and the host can still do, and the agent loop seeing a skill
//! join once a path is touched. The skills are
//! `tests/fixtures/invocation-skills` (profile `claude-code`): `reserved`
//! (the user's only), `scoped` (`paths: [src/**, "*.rs"]`), `model-only`
//! (`user-invocable: false`), `codex-quiet` (Codex's `agents/openai.yaml`
//! with `policy.allow_implicit_invocation: false`) and `open`.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::sync::Arc;

use skills_bundle::agent::{self, ChatModel, Message, ModelError, Protocol, Reply, ToolCall};
use skills_bundle::catalog::Style as Dialect;
use skills_bundle::exec::LocalExecutor;
use skills_bundle::protocol::Instruction;
use skills_bundle::session::{ACTIVATE, READ, RUN, Session, SessionError, ToolDefinition};
use skills_bundle::{Bundle, Mode, skills_bundle};

// The fixtures keep what real skills write (a number, a flow list), which
// the lints warn about.
static SKILLS: Bundle = skills_bundle!(
    "fixtures/invocation-skills",
    profile = "claude-code",
    warnings = "allow"
);

const RESERVED: &str = "the skill `reserved` is reserved for the user (disable-model-invocation) and cannot be activated or used through `activate_skill`, `read_skill_resource` or `run_skill_script`. If it is what the task needs, ask the user to invoke `reserved` themselves; do not carry out its workflow by other means.";

const SCOPED: &str = "the skill `scoped` applies only to files matching `src/**`, `*.rs`, and none has come up in this conversation yet; it is offered once one does";

fn session() -> (tempfile::TempDir, Session<LocalExecutor>) {
    let cache = tempfile::tempdir().unwrap();
    let executor = LocalExecutor::new(cache.path().join("cache"));
    (cache, Session::new(&SKILLS, executor, Mode::Restrict))
}

/// The `enum` of each tool's skill property, by tool name.
fn enums(session: &Session<LocalExecutor>) -> Vec<(&'static str, Vec<String>)> {
    session
        .tool_definitions()
        .into_iter()
        .map(|d| {
            let schema: serde_json::Value = serde_json::from_str(&d.parameters).unwrap();
            let key = if d.name == ACTIVATE { "name" } else { "skill" };
            let names = schema["properties"][key]["enum"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            (d.name, names)
        })
        .collect()
}

fn args(pairs: &[(&str, &str)]) -> String {
    let object: serde_json::Map<String, serde_json::Value> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
        .collect();
    serde_json::Value::Object(object).to_string()
}

#[test]
fn the_model_is_offered_what_it_may_invoke() {
    let (_cache, session) = session();
    assert_eq!(session.offered(), ["model-only", "open"]);
    let catalog = session.catalog();
    for (name, listed) in [
        ("codex-quiet", false),
        ("model-only", true),
        ("open", true),
        ("reserved", false),
        ("scoped", false),
    ] {
        assert_eq!(
            catalog.contains(&format!("<name>\n{name}\n</name>")),
            listed,
            "{name} in {catalog}"
        );
    }
    // Cut from the bundle's block, it is the block of the offered skills.
    let offered: Vec<_> = ["model-only", "open"]
        .iter()
        .map(|n| SKILLS.get(n).unwrap())
        .map(|s| (s.name(), s.description()))
        .collect();
    assert_eq!(
        catalog,
        skills_core::catalog::render_embedded(offered.iter().copied())
    );
    // And within any budget, what the block of those skills is within it.
    let locations: Vec<String> = offered
        .iter()
        .map(|(n, _)| skills_core::catalog::location(n))
        .collect();
    let triples: Vec<(&str, &str, &str)> = offered
        .iter()
        .zip(&locations)
        .map(|((n, d), l)| (*n, *d, l.as_str()))
        .collect();
    for budget in 0..=catalog.chars().count() + 1 {
        let cut = Session::new(&SKILLS, LocalExecutor::new(_cache.path()), Mode::Restrict)
            .with_catalog_budget(budget);
        assert_eq!(
            cut.catalog(),
            skills_core::catalog::render_within(triples.iter().copied(), budget),
            "budget {budget}"
        );
    }
    for (tool, names) in enums(&session) {
        assert_eq!(names, ["model-only", "open"], "{tool}");
    }
    // In a client's dialect too (`when_to_use` appended as Claude Code does).
    let claude = session.catalog_style(Dialect::ClaudeCode, None);
    assert!(
        claude.contains("- open: Says hello through its script. - When someone says hi."),
        "{claude}"
    );
    assert!(claude.contains("- model-only: "), "{claude}");
    assert!(
        !claude.contains("reserved") && !claude.contains("scoped"),
        "{claude}"
    );
    // A budget cuts what is offered, never brings a hidden skill back.
    let tight = Session::new(
        &SKILLS,
        LocalExecutor::new(_cache.path().join("cache")),
        Mode::Restrict,
    )
    .with_catalog_budget(200);
    let cut = tight.catalog();
    assert!(cut.chars().count() <= 200, "{cut}");
    assert!(
        !cut.contains("reserved") && !cut.contains("scoped"),
        "{cut}"
    );
}

#[test]
fn the_model_is_refused_a_user_skill_in_every_protocol() {
    let (_cache, session) = session();
    let calls = [
        (ACTIVATE, args(&[("name", "reserved")])),
        (READ, args(&[("skill", "reserved"), ("path", "SKILL.md")])),
        (
            RUN,
            args(&[
                ("skill", "reserved"),
                ("command", "./scripts/deploy.sh prod"),
            ]),
        ),
    ];
    for (tool, arguments) in calls {
        match session.call_tool(tool, &arguments) {
            Err(e @ SessionError::UserOnly { .. }) => assert_eq!(e.to_string(), RESERVED, "{tool}"),
            other => panic!("{tool}: {other:?}"),
        }
    }
    let xml = session.handle_xml(&Instruction::UseSkill {
        name: "reserved".into(),
    });
    assert!(
        xml.contains(&skills_bundle::protocol::escape(RESERVED, false)),
        "{xml}"
    );
    assert!(session.active().is_empty());
    // An unknown name lists only what is offered.
    match session.call_tool(ACTIVATE, &args(&[("name", "nope")])) {
        Err(e) => assert_eq!(
            e.to_string(),
            "no skill `nope`; available: model-only, open"
        ),
        Ok(text) => panic!("{text}"),
    }
}

/// The user (here the host, as an MCP prompt does) invokes the reserved
/// skill; the model may then use its files and run its script.
#[test]
fn the_user_can_still_invoke_a_reserved_skill() {
    let (_cache, session) = session();
    let content = session.activate("reserved", "prod").unwrap();
    assert!(content.contains("./scripts/deploy.sh prod"), "{content}");
    let enums = enums(&session);
    assert_eq!(
        enums[0].1,
        ["model-only", "open"],
        "activate_skill still hides it"
    );
    assert_eq!(
        enums[2].1,
        ["model-only", "open", "reserved"],
        "run_skill_script takes it"
    );
    let ran = session.call_tool(
        RUN,
        &args(&[
            ("skill", "reserved"),
            ("command", "./scripts/deploy.sh prod"),
        ]),
    );
    assert_eq!(ran.unwrap(), "exit code: 0\ndeployed prod\n");
}

#[test]
fn a_paths_scoped_skill_joins_once_a_matching_path_is_touched() {
    let (_cache, session) = session();
    match session.call_tool(ACTIVATE, &args(&[("name", "scoped")])) {
        Err(e @ SessionError::OutOfScope { .. }) => assert_eq!(e.to_string(), SCOPED),
        other => panic!("{other:?}"),
    }
    assert!(session.touch("docs/guide.md").is_empty());
    assert!(
        session.touch("lib/src/x.txt").is_empty(),
        "`src/**` is anchored"
    );
    assert_eq!(session.touch("./src/main.rs"), ["scoped"]);
    assert!(session.touch("build.rs").is_empty(), "already offered");
    // A path never unlocks a skill reserved for the user.
    assert_eq!(session.offered(), ["model-only", "open", "scoped"]);
    assert!(session.catalog().contains("<name>\nscoped\n</name>"));
    assert_eq!(enums(&session)[0].1, ["model-only", "open", "scoped"]);
    let content = session
        .call_tool(ACTIVATE, &args(&[("name", "scoped")]))
        .unwrap();
    assert!(content.contains("Prefer `?` over `unwrap`."), "{content}");
}

/// The extension values keep their YAML types in the bundle.
#[test]
fn extension_values_keep_their_yaml_types() {
    let open = SKILLS.get("open").unwrap();
    let extensions: Vec<(&str, &str)> = open.extensions().collect();
    assert_eq!(
        extensions,
        [
            ("version", "2"),
            ("user-invocable", "true"),
            ("tags", r#"["greeting","2"]"#),
            ("when_to_use", r#""When someone says hi.""#)
        ]
    );
    let reserved = SKILLS.get("reserved").unwrap().invocation();
    assert!(!reserved.model && reserved.user && reserved.paths.is_empty());
    let model_only = SKILLS.get("model-only").unwrap().invocation();
    assert!(model_only.model && !model_only.user);
    let quiet = SKILLS.get("codex-quiet").unwrap().invocation();
    assert!(!quiet.model && quiet.user, "agents/openai.yaml is obeyed");
}

/// One scripted turn: it sees the messages and the definitions.
type Turn = Box<dyn FnMut(&[Message], &[ToolDefinition]) -> Reply + Send>;

/// Replies in order.
struct Scripted(Vec<Turn>);

impl ChatModel for Scripted {
    fn complete(
        &mut self,
        messages: &[Message],
        definitions: &[ToolDefinition],
    ) -> Result<Reply, ModelError> {
        if self.0.is_empty() {
            return Err("the script ran out".into());
        }
        Ok(self.0.remove(0)(messages, definitions))
    }
}

/// The agent loop reads the offer before every model call: a path the
/// host touches while the model works brings `scoped` into the next
/// system prompt and `enum`.
#[test]
fn the_agent_loop_offers_a_skill_once_its_path_is_touched() {
    let cache = tempfile::tempdir().unwrap();
    let session = Arc::new(Session::new(
        &SKILLS,
        LocalExecutor::new(cache.path().join("cache")),
        Mode::Restrict,
    ));
    let host = Arc::clone(&session);
    let mut model = Scripted(vec![
        Box::new(move |messages, definitions| {
            assert!(!messages[0].content.contains("scoped"));
            assert!(!ToolDefinition::array_json(definitions).contains("scoped"));
            // The host edits a file while the model asks for a skill.
            assert_eq!(host.touch("src/lib.rs"), ["scoped"]);
            Reply {
                content: String::new(),
                tool_calls: vec![ToolCall {
                    id: "1".into(),
                    name: ACTIVATE.into(),
                    arguments: r#"{"name": "open"}"#.into(),
                }],
            }
        }),
        Box::new(|messages, definitions| {
            assert!(messages[0].content.contains("<name>\nscoped\n</name>"));
            assert!(ToolDefinition::array_json(definitions).contains("\"scoped\""));
            Reply {
                content: "done".into(),
                tool_calls: Vec::new(),
            }
        }),
    ]);
    let (answer, _) =
        agent::run(&mut model, &session, Protocol::FunctionCalling, "hello", 5).unwrap();
    assert_eq!(answer, "done");
}

//! The rig adapter, offline: a rig `Agent` built with `with_skills` runs the
//! seeds' calculator (`15 * 23` -> 345) through the real Python script, out of
//! a bundle compiled into this test, driven by a scripted completion model
//! that checks what the agent sends it: the catalog in the preamble, the
//! three tools with their JSON Schemas, and each tool result.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::sync::{Arc, Mutex};

use skills_bundle::exec::LocalExecutor;
use skills_bundle::session::{ACTIVATE, READ, RUN, Session};
use skills_bundle::{Bundle, Mode, skills_bundle};
use skills_rig::rig_agent::AgentBuilder;
use skills_rig::rig_core::completion::CompletionRequest;
use skills_rig::rig_core::message::{Message, ToolResultContent, UserContent};
use skills_rig::rig_core::serde_json::json;
use skills_rig::{Reply, scripted_model, tools, with_skills};

static SKILLS: Bundle = skills_bundle!("../skills");

fn session() -> (tempfile::TempDir, Arc<Session<LocalExecutor>>) {
    let cache = tempfile::tempdir().unwrap();
    let executor = LocalExecutor::new(cache.path().join("cache"));
    (
        cache,
        Arc::new(Session::new(&SKILLS, executor, Mode::Restrict)),
    )
}

/// The tool results in a request's history, in order: (tool, is_error, text).
fn tool_results(request: &CompletionRequest) -> Vec<(String, bool, String)> {
    let mut results = Vec::new();
    for message in &request.chat_history {
        let Message::User { content } = message else {
            continue;
        };
        for part in content {
            if let UserContent::ToolResult(result) = part {
                let text: String = result
                    .content
                    .iter()
                    .map(|c| match c {
                        ToolResultContent::Text(t) => t.text.clone(),
                        other => format!("{other:?}"),
                    })
                    .collect();
                results.push((result.name.as_str().to_string(), result.is_error, text));
            }
        }
    }
    results
}

/// What each request carried, for the assertions after the run.
#[derive(Default)]
struct Seen {
    preambles: Vec<String>,
    tool_names: Vec<Vec<String>>,
    results: Vec<Vec<(String, bool, String)>>,
}

fn record(seen: &Mutex<Seen>, request: &CompletionRequest) -> Vec<(String, bool, String)> {
    let results = tool_results(request);
    let mut seen = seen.lock().unwrap();
    seen.preambles.push(
        request
            .system_instructions()
            .unwrap_or_default()
            .to_string(),
    );
    seen.tool_names.push(
        request
            .tools
            .iter()
            .map(|t| t.name.as_str().to_string())
            .collect(),
    );
    seen.results.push(results.clone());
    results
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rig_agent_runs_the_calculator() {
    let (_cache, session) = session();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let script_seen = Arc::clone(&seen);
    let model = scripted_model(move |request| {
        let results = record(&script_seen, request);
        match results.len() {
            0 => Reply::call(ACTIVATE, json!({"name": "calculator"})),
            1 => Reply::call(
                RUN,
                json!({"skill": "calculator", "command": "python3 scripts/calc.py '15 * 23'"}),
            ),
            _ => {
                // The answer comes from the tool result the agent sent back.
                let (_, _, output) = results.last().unwrap();
                let value = output.lines().nth(1).unwrap_or("?");
                Reply::text(format!("15 * 23 = {value}"))
            }
        }
    });
    let agent = with_skills(
        AgentBuilder::new(model).preamble("You are a careful assistant."),
        Arc::clone(&session),
    )
    .default_max_turns(5)
    .build();

    let response = agent.prompt("What is 15 * 23?").await.unwrap();
    assert_eq!(response.output(), "15 * 23 = 345");

    let seen = seen.lock().unwrap();
    assert_eq!(seen.results.len(), 3, "three model calls");
    // The preamble: the builder's own, then the catalog and the tools line.
    for preamble in &seen.preambles {
        assert!(preamble.starts_with("You are a careful assistant."));
        assert!(preamble.contains("<available_skills>"), "{preamble}");
        assert!(preamble.contains("\ncalculator\n"), "{preamble}");
        assert!(preamble.contains("call `activate_skill`"), "{preamble}");
    }
    for names in &seen.tool_names {
        let mut names = names.clone();
        names.sort();
        assert_eq!(names, [ACTIVATE, READ, RUN]);
    }
    // After the activation: the calculator's instructions.
    let (tool, is_error, text) = &seen.results[1][0];
    assert_eq!((tool.as_str(), *is_error), (ACTIVATE, false));
    assert!(text.contains("calc.py"), "{text}");
    // After the run: exactly the script's output.
    let (tool, is_error, text) = &seen.results[2][1];
    assert_eq!((tool.as_str(), *is_error), (RUN, false));
    assert_eq!(text, "exit code: 0\n345\n");
    assert_eq!(session.active(), ["calculator"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_tool_errors_for_the_model() {
    let (_cache, session) = session();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let script_seen = Arc::clone(&seen);
    let model = scripted_model(move |request| {
        let results = record(&script_seen, request);
        match results.len() {
            // A path outside the skill.
            0 => Reply::call(
                READ,
                json!({"skill": "calculator", "path": "../git-workflow/SKILL.md"}),
            ),
            // A command the skill's own allowed-tools do not list (no
            // activation is needed; its rules decide).
            1 => Reply::call(RUN, json!({"skill": "calculator", "command": "ls -la"})),
            // Arguments that do not match the schema.
            2 => Reply::call(ACTIVATE, json!({"skill": 7})),
            // No such skill.
            3 => Reply::call(ACTIVATE, json!({"name": "no-such-skill"})),
            _ => Reply::text("I could not do that."),
        }
    });
    let agent = with_skills(AgentBuilder::new(model), Arc::clone(&session))
        .default_max_turns(8)
        .build();

    let response = agent.prompt("Read a file.").await.unwrap();
    assert_eq!(response.output(), "I could not do that.");

    let seen = seen.lock().unwrap();
    let results = seen.results.last().unwrap();
    assert_eq!(results.len(), 4, "{results:?}");
    for (tool, is_error, text) in results {
        assert!(*is_error, "{tool}: {text}");
        assert!(!text.is_empty(), "{tool}");
    }
    let texts: Vec<(&str, &str)> = results
        .iter()
        .map(|(tool, _, text)| (tool.as_str(), text.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            (
                READ,
                "Illegal path: cannot read `../git-workflow/SKILL.md`: the path contains `..`; it may not leave the skill directory"
            ),
            (
                RUN,
                "Tool 'Bash' not allowed for skill 'calculator'. Allowed tools: ['Bash(python3 scripts/calc.py:*)', 'Read']"
            ),
            (ACTIVATE, "`name` is missing"),
            (
                ACTIVATE,
                "no skill `no-such-skill`; available: calculator, csv-insights, git-workflow, review-plugin:code-review, review-plugin:security-review"
            ),
        ]
    );
    // The preamble without one of the builder's own is the catalog alone.
    assert!(seen.preambles[0].contains("<available_skills>"));
    // Nothing was activated.
    assert!(session.active().is_empty());
}

#[test]
fn the_tools_carry_the_sessions_definitions() {
    let (_cache, session) = session();
    let tools = tools(Arc::clone(&session));
    let definitions = session.tool_definitions();
    assert_eq!(tools.len(), definitions.len());
    for (tool, definition) in tools.iter().zip(&definitions) {
        let rig = tool.definition();
        assert_eq!(rig.name, definition.name);
        assert_eq!(rig.description, definition.description);
        let parameters: skills_rig::rig_core::serde_json::Value =
            skills_rig::rig_core::serde_json::from_str(&definition.parameters).unwrap();
        assert_eq!(rig.parameters, parameters);
    }
    // The skill names are an enum in every schema.
    assert!(
        tools[0].definition().parameters["properties"]["name"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n == "calculator")
    );
}

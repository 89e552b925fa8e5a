//! A rig agent with the skills compiled into this binary:
//! `cargo run -p skills-bundle --example rig --features rig`.
//!
//! The model here is `scripted_model`, which answers offline from a closure
//! (so this runs in CI without a key): it activates the calculator, runs its
//! script, and answers from the script's output. For a real model, depend on
//! `rig-core = { version = "=0.44.0", features = ["reqwest", "rustls"] }` and
//! pass one of its providers to `AgentBuilder::new` instead; nothing else
//! changes:
//!
//! ```ignore
//! use rig_core::providers::openai;
//! let model = openai::OpenAI::from_env()?.chat(openai::GPT_5_2); // OPENAI_API_KEY
//! ```

use std::future::IntoFuture;
use std::sync::Arc;

use skills_bundle::exec::LocalExecutor;
use skills_bundle::session::Session;
use skills_bundle::{Bundle, Mode, skills_bundle};
use skills_rig::rig_agent::AgentBuilder;
use skills_rig::rig_core::completion::CompletionRequest;
use skills_rig::rig_core::message::{Message, ToolResultContent, UserContent};
use skills_rig::rig_core::serde_json::json;
use skills_rig::{Reply, scripted_model, with_skills};

static SKILLS: Bundle = skills_bundle!("../skills");

/// The text of the last tool result the agent sent back, if any.
fn last_tool_result(request: &CompletionRequest) -> Option<String> {
    let mut last = None;
    for message in &request.chat_history {
        if let Message::User { content } = message {
            for part in content {
                if let UserContent::ToolResult(result) = part {
                    last = Some(&result.content);
                }
            }
        }
    }
    let texts = last?.iter().filter_map(|c| match c {
        ToolResultContent::Text(text) => Some(text.text.as_str()),
        _ => None,
    });
    Some(texts.collect())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cache = tempfile::tempdir()?;
    let session = Arc::new(Session::new(
        &SKILLS,
        LocalExecutor::new(cache.path()),
        Mode::Restrict,
    ));

    // The scripted "model": one reply per request, by how many turns passed.
    let mut turn = 0;
    let model = scripted_model(move |request| {
        turn += 1;
        match turn {
            1 => Reply::call("activate_skill", json!({"name": "calculator"})),
            2 => Reply::call(
                "run_skill_script",
                json!({"skill": "calculator", "command": "python3 scripts/calc.py '15 * 23'"}),
            ),
            _ => {
                let output = last_tool_result(request).unwrap_or_default();
                let value = output.lines().nth(1).unwrap_or("?").to_string();
                Reply::text(format!("15 * 23 = {value}"))
            }
        }
    });

    // The catalog joins the preamble, the three tools join the agent.
    let agent = with_skills(
        AgentBuilder::new(model).preamble("You are a careful assistant."),
        Arc::clone(&session),
    )
    .default_max_turns(8)
    .build();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let response = runtime.block_on(agent.prompt("What is 15 * 23?").into_future())?;
    let answer = response.output();
    println!("{answer}");
    println!("active skills: {:?}", session.active());

    // CI runs this example: fail loudly on a wrong answer.
    if answer != "15 * 23 = 345" {
        return Err(format!("unexpected answer: {answer:?}").into());
    }
    Ok(())
}

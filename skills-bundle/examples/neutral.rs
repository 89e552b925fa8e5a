//! Skills in any function-calling API, without an integration crate: the
//! tools as OpenAI's `tools` JSON, and a tool call (name, JSON arguments)
//! answered by `Session::call_tool`. Offline, with a hard-coded call where a
//! model's reply would be:
//! `cargo run -p skills-bundle --example neutral`.

use skills_bundle::exec::LocalExecutor;
use skills_bundle::session::Session;
use skills_bundle::{Bundle, Mode, skills_bundle};

static SKILLS: Bundle = skills_bundle!("../skills");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cache = tempfile::tempdir()?;
    let session = Session::new(&SKILLS, LocalExecutor::new(cache.path()), Mode::Restrict);

    // The system prompt (the catalog) and OpenAI's `tools` array. async-openai's
    // `ChatCompletionTool` / `FunctionObject` take the same three fields (parse
    // `parameters` into a `serde_json::Value`); Anthropic calls it `input_schema`.
    let system_prompt = session.function_calling_prompt();
    let tools: Vec<String> = (session.tool_definitions().iter())
        .map(|d| format!(r#"{{"type": "function", "function": {}}}"#, d.to_json()))
        .collect();
    println!(
        "system prompt: {} chars\ntools: [{}]\n",
        system_prompt.len(),
        tools.join(", ")
    );

    // What a model returns: `message.tool_calls[i].function.{name, arguments}`.
    let calls = [
        ("activate_skill", r#"{"name": "calculator"}"#),
        (
            "run_skill_script",
            r#"{"skill": "calculator", "command": "python3 scripts/calc.py '15 * 23'"}"#,
        ),
    ];
    let mut last = String::new();
    for (name, arguments) in calls {
        // The result, or the error as text: the `tool` message's content.
        last = session
            .call_tool(name, arguments)
            .unwrap_or_else(|e| format!("error: {e}"));
        let first = last.lines().take(2).collect::<Vec<_>>().join(" / ");
        println!("{name}({arguments}) -> {first}");
    }

    // CI runs this example: fail loudly if the calculator did not answer.
    if last != "exit code: 0\n345\n" {
        return Err(format!("unexpected result: {last:?}").into());
    }
    Ok(())
}

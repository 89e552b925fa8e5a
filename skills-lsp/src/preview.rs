//! The `skb.preview` command: for the skill of a `SKILL.md`, from the
//! editor's text, what each client shows its model: the catalog entry (or
//! why it lists none) and the text it gives the model when the skill is
//! activated, from the runtime's activation dialects
//! (`skills_bundle::activation`), with no arguments and no command run
//! (`` !`cmd` `` shows Claude Code's marker).
//!
//! The answer is JSON: `{"skill": name, "clients": [{"client": id,
//! "title", "outcome": "listed" | "not-listed" | "rejected" | "unknown",
//! "entry": line or null, "why": text or null, "activation": text or
//! null}]}`. Gemini CLI's and Kimi Code's activations, which depend on the
//! folder's listing and the session, are `null` with a `why`.

use std::convert::Infallible;

use serde_json::{Value, json};
use skills_bundle::activation::{claude_code, codex, commands, copilot, opencode, qwen_code};
use skills_compiler::client::{Client, Outcome};
use skills_compiler::frontmatter::split_text;

use crate::document::Document;
use crate::hover::readings;
use crate::settings::Settings;

/// The command's name.
pub const COMMAND: &str = "skb.preview";

/// The preview of `doc`'s skill.
pub fn preview(doc: &Document, settings: &Settings) -> Value {
    let text = doc.text.as_str();
    let body = split_text(text)
        .ok()
        .and_then(|s| text.get(s.body))
        .unwrap_or(text);
    let dir = doc.dir.to_string_lossy();
    let path = doc.path.to_string_lossy();
    let mut clients = Vec::new();
    let mut skill_name = None;
    for (client, reading) in readings(&doc.dir, &doc.path, text, settings.profile) {
        let (outcome, entry, why, name) = match &reading.outcome {
            Outcome::Listed(l) => ("listed", Some(l.line()), None, Some(l.name.clone())),
            Outcome::NotListed { why } => ("not-listed", None, Some(why.clone()), None),
            Outcome::Rejected { why } => ("rejected", None, Some(why.clone()), None),
            Outcome::Unknown { why } => ("unknown", None, Some(why.clone()), None),
        };
        let activation = name
            .as_deref()
            .map(|name| activation(client, name, &dir, &path, text, body));
        if skill_name.is_none() {
            skill_name.clone_from(&name);
        }
        let (activation, activation_why) = match activation {
            Some(Ok(text)) => (Some(text), None),
            Some(Err(why)) => (None, Some(why)),
            None => (None, None),
        };
        clients.push(json!({
            "client": client.as_str(),
            "title": client.title(),
            "outcome": outcome,
            "entry": entry,
            "why": why.or(activation_why),
            "activation": activation,
        }));
    }
    json!({"skill": skill_name, "clients": clients})
}

/// What `client` gives its model when the skill `name` is activated.
fn activation(
    client: Client,
    name: &str,
    dir: &str,
    path: &str,
    raw: &str,
    body: &str,
) -> Result<String, String> {
    let dir_path = std::path::Path::new(dir);
    match client {
        Client::ClaudeCode => {
            let vars = claude_code::Vars {
                skill_dir: dir,
                session_id: None,
                project_dir: None,
            };
            let marked = |command: Result<String, commands::CommandError>| {
                Ok::<_, Infallible>(match command {
                    Ok(c) => commands::marker(&c),
                    Err(e) => e.to_string(),
                })
            };
            claude_code::render(body, "", &[], &vars, marked).map_err(|e| match e {})
        }
        Client::Codex => Ok(codex::render(name, path, raw)),
        Client::QwenCode => Ok(qwen_code::render(dir, body)),
        Client::Copilot => Ok(copilot::render(
            name,
            dir,
            &copilot::related_files(dir_path),
            body.trim_start_matches(['\n', '\r']),
        )),
        Client::OpenCode => Ok(opencode::render(
            name,
            body,
            dir,
            &opencode::sample_files(dir_path),
        )),
        Client::GeminiCli | Client::KimiCode => Err(format!(
            "{}'s activation depends on its session: see `skb show --style {}`",
            client.title(),
            client.as_str()
        )),
    }
}

//! One MCP prompt per user-invocable skill: the skill as a slash command.
//!
//! A skill is user-invocable unless its frontmatter says
//! `user-invocable: false` (a profile `claude-code` extension key). The
//! prompt's name is the skill's name as the bundle has it (`plugin:skill`
//! inside a plugin: MCP puts no rule on prompt names, and this keeps the
//! one spelling the tools' `enum` uses); its one optional argument,
//! `arguments`, fills `$ARGUMENTS`. `prompts/get` answers with the
//! activation (level 2, [`Skill::activate`](skills_bundle::Skill::activate)) as one
//! user message.

use rmcp::ErrorData;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResult, Prompt, PromptArgument, PromptMessage, Role,
};
use serde_json::Value;

use skills_bundle::{Bundle, Skill};

/// The argument that fills `$ARGUMENTS`.
pub const ARGUMENT: &str = "arguments";

/// Whether the skill may be invoked by the user: not when its frontmatter
/// says `user-invocable: false` ([`Skill::invocation`]).
pub fn user_invocable(skill: &Skill<'_>) -> bool {
    skill.invocation().user
}

/// Every user-invocable skill as a prompt.
pub fn list(bundle: &Bundle) -> Vec<Prompt> {
    bundle
        .skills()
        .filter(user_invocable)
        .map(|skill| {
            Prompt::new(
                skill.name(),
                Some(skill.description()),
                Some(vec![
                    PromptArgument::new(ARGUMENT)
                        .with_description("What $ARGUMENTS stands for in the skill's instructions.")
                        .with_required(false),
                ]),
            )
        })
        .collect()
}

/// The skill a `prompts/get` names, and the text for `$ARGUMENTS`.
pub fn resolve<'b>(
    bundle: &'b Bundle,
    request: &GetPromptRequestParams,
) -> Result<(Skill<'b>, String), ErrorData> {
    let skill = bundle
        .get(&request.name)
        .filter(user_invocable)
        .ok_or_else(|| ErrorData::invalid_params(format!("no prompt `{}`", request.name), None))?;
    let arguments = match request.arguments.as_ref().and_then(|a| a.get(ARGUMENT)) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    Ok((skill, arguments))
}

/// The prompt: the activation as a user message.
pub fn render(skill: &Skill<'_>, arguments: &str) -> Result<GetPromptResult, ErrorData> {
    let activation = skill
        .activate(arguments)
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    let mut result = GetPromptResult::new(vec![PromptMessage::new_text(
        Role::User,
        activation.content,
    )]);
    result.description = Some(skill.description().to_string());
    Ok(result)
}

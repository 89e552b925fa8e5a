//! The three framework-neutral tools over MCP: `activate_skill`,
//! `read_skill_resource` and `run_skill_script`.
//!
//! Their definitions are [`Session::tool_definitions`]'s (the skill names as
//! a JSON Schema `enum`), parsed once into rmcp's schema objects; a call is
//! [`Session::call_tool_async`], so activation, reads, the policy check and
//! the script run are exactly those of every other integration. A refusal
//! or failure (a [`SessionError`]'s text) is a tool result with
//! `isError: true`, which the model reads, as MCP asks; only a tool name that
//! does not exist ([`SessionError::UnknownTool`]) is a JSON-RPC error
//! (`-32602`, as rmcp's own tool router answers).

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations,
};
use serde_json::Value;

use skills_bundle::exec::LocalExecutor;
use skills_bundle::session::{RUN, Session, SessionError};

/// The tools, with their schemas.
pub fn list(session: &Session<LocalExecutor>) -> Vec<Tool> {
    session
        .tool_definitions()
        .into_iter()
        .map(|d| {
            let schema = match serde_json::from_str::<Value>(&d.parameters) {
                Ok(Value::Object(object)) => object,
                _ => {
                    let mut object = JsonObject::new();
                    object.insert("type".into(), "object".into());
                    object
                }
            };
            let annotations = ToolAnnotations::new()
                .read_only(d.name != RUN)
                .destructive(false)
                .open_world(false);
            Tool::new(d.name, d.description, Arc::new(schema)).with_annotations(annotations)
        })
        .collect()
}

/// `tools/call`.
pub async fn call(
    session: &Session<LocalExecutor>,
    request: CallToolRequestParams,
) -> Result<CallToolResult, ErrorData> {
    let arguments = Value::Object(request.arguments.unwrap_or_default()).to_string();
    match session.call_tool_async(&request.name, &arguments).await {
        Ok(text) => Ok(CallToolResult::success(vec![ContentBlock::text(text)])),
        Err(e @ SessionError::UnknownTool { .. }) => {
            Err(ErrorData::invalid_params(e.to_string(), None))
        }
        Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(
            e.to_string(),
        )])),
    }
}

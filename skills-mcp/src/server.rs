//! The `ServerHandler`: each MCP method routed to the module that owns it.
//!
//! Listings are served from the server's precomputed copies in one page
//! (no cursor), but for the tools, whose `enum` is what the session offers
//! the model now; everything that reads or runs goes through the session or
//! the bundle. No method panics on a client's input: an unknown name or URI
//! is a JSON-RPC error, a refused call an `isError` tool result. Every
//! method but `tools/call` answers without waiting.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    GetSkillRequestParams, GetSkillResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListSkillsResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use skills_bundle::exec::AsyncScriptExecutor;

use crate::inflight::Abandon;
use crate::{SkillsServer, directory, extension, prompts, resources, tools};

/// The answer of a handler stopped before it finished, which no client
/// receives (the transport drops it).
fn stopped() -> ErrorData {
    ErrorData::internal_error("the request was abandoned before it was answered", None)
}

impl<E: AsyncScriptExecutor + Send + Sync + 'static> ServerHandler for SkillsServer<E> {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::list(&self.session)))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::list(&self.session)
            .into_iter()
            .find(|t| t.name == name)
    }

    /// The only method that waits (on a script run): it stops, dropping the
    /// run (which kills it), once the request is abandoned (timed out or
    /// cancelled) or the session ends. Its answer then goes nowhere.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let abandon = context.extensions.get::<Abandon>().cloned();
        tokio::select! {
            result = tools::call(&self.session, request) => result.map(Into::into),
            () = Abandon::wait(abandon) => Err(stopped()),
            () = context.ct.cancelled() => Err(stopped()),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(
            self.shared.resources().to_vec(),
        ))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(self.session.bundle(), &request.uri).map(Into::into)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        directory::read(self.session.bundle(), &request.uri)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(
            self.shared.prompts().to_vec(),
        ))
    }

    /// The activation as a user message. The user invoked the skill, so it
    /// is also activated in the session: its `allowed-tools` are granted and
    /// `run_skill_script` may run its scripts without another
    /// `activate_skill`.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let (skill, arguments) = prompts::resolve(self.session.bundle(), &request)?;
        let result = prompts::render(&skill, &arguments)?;
        // Already active is fine; a failure was reported by `render`.
        let _ = self.session.activate(skill.name(), &arguments);
        Ok(result.into())
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        Ok(ListSkillsResult::with_all_items(
            self.shared.skills().to_vec(),
        ))
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        extension::get(self.session.bundle(), &request.uri)
    }
}

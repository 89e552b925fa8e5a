//! A bundle served as an MCP server (rmcp), over stdio or, with the
//! `http` feature, streamable HTTP on a loopback address.
//!
//! [`SkillsServer`] puts one [`Session`] (the framework-neutral layer) behind
//! the Model Context Protocol:
//!
//! - **tools**: `activate_skill` (the skill names as an `enum`),
//!   `read_skill_resource` and `run_skill_script`, dispatched to the session,
//!   so scripts run under the session's policy and its executor's limits
//!   ([`tools`]);
//! - **resources**: every file of every skill as `skill://<name>/<path>`
//!   (`skill://<plugin>/<skill>/<path>` for a plugin skill), with MIME type
//!   and size, and the template `skill://{name}/{+path}` ([`resources`]);
//! - **prompts**: one per user-invocable skill, whose `arguments` argument
//!   fills `$ARGUMENTS` ([`prompts`]);
//! - **the skills extension** (SEP-2640): `skills/list` and `skills/get`,
//!   each file with its `sha256:` digest and size ([`extension`]);
//! - **instructions**: [`Session::function_calling_prompt`], the `<available_skills>`
//!   catalog and a line on the tools.
//!
//! The listings are computed once per server from the bundle, on first
//! request (a pack of 454 skills lists its few thousand files in one page of
//! about a megabyte), and shared by every MCP session of an HTTP server; the [`Session`], which
//! holds the active skills and their grants, is one per MCP session.
//!
//! Serving a compiled bundle takes a few lines:
//!
//! ```no_run
//! use skills_bundle::{Bundle, Mode, exec::LocalExecutor, skills_bundle};
//! use skills_mcp::SkillsServer;
//!
//! static SKILLS: Bundle = skills_bundle!("../skills");
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let executor = LocalExecutor::with_default_cache()?;
//!     SkillsServer::new(&SKILLS, executor, Mode::Restrict).serve_stdio().await?;
//!     Ok(())
//! }
//! ```
//!
//! Bounds, on either transport: a message of at most [`MAX_MESSAGE`] bytes;
//! one that is not JSON-RPC answered with its JSON-RPC error (`-32700`,
//! `id: null`, for text that is not JSON). Over HTTP also an exact `Origin`
//! check and a cap on open sessions, closed once idle (`HttpConfig`,
//! feature `http`).
//!
//! Logging is the host's business: this module writes nothing to stdout
//! (the protocol's channel on stdio) or stderr.

pub mod extension;
#[cfg(feature = "http")]
mod http;
mod message;
#[cfg(feature = "http")]
mod origin;
pub mod prompts;
pub mod resources;
mod server;
#[cfg(feature = "http")]
mod sessions;
mod stdio;
pub mod tools;

use std::fmt;
use std::sync::{Arc, OnceLock};

use rmcp::ServiceExt;
use rmcp::model::{Implementation, Prompt, Resource, ServerCapabilities, ServerConfig, Tool};

use skills_bundle::Bundle;
use skills_bundle::exec::LocalExecutor;
use skills_bundle::policy::Mode;
use skills_bundle::session::Session;

#[cfg(feature = "http")]
pub use http::{
    DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS, HttpConfig, HttpServer, bind_http, serve_http,
};
pub use message::MAX_MESSAGE;
#[cfg(feature = "http")]
pub use origin::{BadOrigin, Origin};

/// The server's name in `initialize`.
pub const SERVER_NAME: &str = "skills";

/// An MCP server for one bundle; see the module documentation.
///
/// Cloning shares the session: clones serve the same client.
#[derive(Debug, Clone)]
pub struct SkillsServer {
    session: Arc<Session<LocalExecutor>>,
    shared: Arc<Shared>,
}

/// What every MCP session of one server lists: computed once.
#[derive(Debug)]
///
/// The three long listings are built on first request rather than at
/// start-up: a server for the 454-skill corpus answers `initialize` without
/// first building 2,323 resource entries that its client may never ask for.
struct Shared {
    info: ServerConfig,
    tools: Vec<Tool>,
    bundle: Bundle,
    resources: OnceLock<Vec<Resource>>,
    prompts: OnceLock<Vec<Prompt>>,
    skills: OnceLock<Vec<rmcp::model::Skill>>,
}

impl SkillsServer {
    /// A server over `bundle`, running scripts with `executor` (its cache,
    /// time limit and output caps) and reading `allowed-tools` as `mode` says.
    pub fn new(bundle: &Bundle, executor: LocalExecutor, mode: Mode) -> Self {
        Self::from_session(Session::new(bundle, executor, mode))
    }

    /// A server over a session set up by the caller (deny rules, a catalog
    /// budget).
    pub fn from_session(session: Session<LocalExecutor>) -> Self {
        let shared = Arc::new(Shared::of(&session));
        SkillsServer {
            session: Arc::new(session),
            shared,
        }
    }

    #[cfg(feature = "http")]
    /// Another client's server over a new session, sharing the listings
    /// (which depend on the bundle only).
    fn with_session(&self, session: Session<LocalExecutor>) -> Self {
        SkillsServer {
            session: Arc::new(session),
            shared: Arc::clone(&self.shared),
        }
    }

    /// The session.
    pub fn session(&self) -> &Session<LocalExecutor> {
        &self.session
    }

    /// Serves one client over stdin and stdout until the client closes
    /// stdin (or the transport fails). A client that closes stdin, before
    /// or after `initialize`, ends it with `Ok`. A line that is no JSON-RPC
    /// message is answered with its error (`-32700` for text that is not
    /// JSON, `id: null`), and serving goes on.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        let (stdin, stdout) = rmcp::transport::stdio();
        let running = match self.serve(stdio::Stdio::new(stdin, stdout)).await {
            Ok(running) => running,
            // A client that hung up before `initialize`: nothing to serve.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(ServeError::Protocol(e.to_string())),
        };
        running
            .waiting()
            .await
            .map_err(|e| ServeError::Protocol(e.to_string()))?;
        Ok(())
    }
}

impl Shared {
    fn of(session: &Session<LocalExecutor>) -> Shared {
        let bundle = session.bundle();
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_skills()
            .build();
        let info = ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
            .with_instructions(session.function_calling_prompt());
        Shared {
            info,
            tools: tools::list(session),
            bundle: bundle.clone(),
            resources: OnceLock::new(),
            prompts: OnceLock::new(),
            skills: OnceLock::new(),
        }
    }

    fn resources(&self) -> &[Resource] {
        self.resources.get_or_init(|| resources::list(&self.bundle))
    }

    fn prompts(&self) -> &[Prompt] {
        self.prompts.get_or_init(|| prompts::list(&self.bundle))
    }

    fn skills(&self) -> &[rmcp::model::Skill] {
        self.skills.get_or_init(|| extension::list(&self.bundle))
    }
}

/// Why a server stopped or could not start.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// HTTP is served on loopback addresses only.
    NotLoopback(std::net::SocketAddr),
    /// Binding or accepting failed.
    Io(std::io::Error),
    /// The MCP session failed to start or ended in error.
    Protocol(String),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::NotLoopback(addr) => write!(
                f,
                "refusing to serve on `{addr}`: the HTTP transport has no authentication and listens on loopback addresses only (127.0.0.1, ::1)"
            ),
            ServeError::Io(e) => write!(f, "{e}"),
            ServeError::Protocol(e) => write!(f, "MCP: {e}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for ServeError {
    fn from(e: std::io::Error) -> Self {
        ServeError::Io(e)
    }
}

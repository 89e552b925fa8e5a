//! A bundle served as an MCP server (rmcp), over stdio or, with the
//! `http` feature, streamable HTTP on a loopback address.
//!
//! [`SkillsServer`] puts one [`Session`](skills_bundle::session::Session) (the framework-neutral layer) behind
//! the Model Context Protocol:
//!
//! - **tools**: `activate_skill` (the names of the skills the session
//!   offers the model as an `enum`: not `disable-model-invocation` ones),
//!   `read_skill_resource` and `run_skill_script`, dispatched to the session,
//!   so scripts run under the session's policy and its executor's limits
//!   ([`tools`]);
//! - **resources**: every file of the skills offered to the model as
//!   `skill://<name>/<path>` (`skill://<plugin>/<skill>/<path>` for a
//!   plugin skill), with MIME type and size, and the template
//!   `skill://{name}/{+path}`, by which any skill's files can be read
//!   ([`resources`]);
//! - **prompts**: one per user-invocable skill, whose `arguments` argument
//!   fills `$ARGUMENTS` ([`prompts`]);
//! - **the skills extension** (SEP-2640): `skills/list` and `skills/get`,
//!   each file with its `sha256:` digest and size ([`extension`]), and
//!   `resources/directory/read` on every folder of a skill ([`directory`]);
//! - **instructions**: [`Session::function_calling_prompt`](skills_bundle::session::Session::function_calling_prompt), the `<available_skills>`
//!   catalog and a line on the tools.
//!
//! The tools are listed from the session (its `enum` follows what it
//! offers); the other listings are computed once per server, on first
//! request (a pack of 454 skills lists its few thousand files in one page of
//! about a megabyte), and shared by every MCP session of an HTTP server; the [`Session`](skills_bundle::session::Session), which
//! holds the active skills and their grants, is one per MCP session.
//!
//! Serving a compiled bundle takes a few lines:
//!
//! ```no_run
//! use skills_bundle::{Bundle, Mode, exec::LocalExecutor, skills_bundle};
//! use skills_bundle_mcp::SkillsServer;
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
//! `id: null`, for text that is not JSON); every request answered, within
//! a request timeout (else [`REQUEST_TIMED_OUT`]), and a second request
//! with the id of one in flight refused (`-32600`) instead of losing an
//! answer. Over stdio the answers in flight are capped
//! ([`StdioConfig`]): past the cap the server stops reading until the
//! client reads. Over HTTP also an exact `Origin` check, a cap on open
//! sessions, closed once idle, and on open connections, each with header,
//! body and idle timeouts (`HttpConfig`, feature `http`).
//!
//! Logging is the host's business: this module writes nothing to stdout
//! (the protocol's channel on stdio) or stderr.

#![deny(missing_docs)]
#![deny(unreachable_pub)]

#[cfg(feature = "http")]
mod connections;
pub mod directory;
pub mod extension;
#[cfg(feature = "http")]
mod http;
mod inflight;
mod message;
#[cfg(feature = "http")]
mod origin;
pub mod prompts;
pub mod resources;
mod server;
#[cfg(feature = "http")]
mod sessions;
mod skills_server;
mod stdio;
pub mod tools;

#[cfg(feature = "http")]
pub use http::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_CONNECTION_IDLE_TIMEOUT, DEFAULT_HEADER_TIMEOUT,
    DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_SESSIONS, HttpConfig, HttpServer,
    bind_http, serve_http,
};
pub use inflight::REQUEST_TIMED_OUT;
pub use message::MAX_MESSAGE;
#[cfg(feature = "http")]
pub use origin::{BadOrigin, Origin};
pub use skills_server::{
    DEFAULT_MAX_IN_FLIGHT, DEFAULT_REQUEST_TIMEOUT, MAX_UNWRITTEN, SERVER_NAME, ServeError,
    SkillsServer, StdioConfig,
};

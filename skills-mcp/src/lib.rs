#![doc = include_str!("../README.md")]
//!
//! # Bounds
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

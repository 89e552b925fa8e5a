//! skills-supply's integration tests, one module per topic: each starts the
//! real server it talks to (a git daemon, an HTTP server, a registry) on
//! 127.0.0.1, and the tests that need a program this machine may lack say so
//! and fail rather than pass silently.

mod credentials;
mod git;
mod git_cache;
mod git_server;
mod git_signature;
mod http;
mod http_server;
mod index;
mod node;
mod oci;
mod oci_helpers;
mod registry;
mod sigstore;
mod trust;
mod vercel;

//! Streamable HTTP (feature `mcp-http`), on loopback addresses only.
//!
//! rmcp's `StreamableHttpService` speaks the protocol; hyper (HTTP/1.1)
//! carries it over a tokio listener. There is no authentication, so
//! [`bind_http`] refuses any address that is not loopback, and rmcp's
//! `Host` check (localhost, 127.0.0.1, ::1) stands against DNS rebinding.
//! Each MCP session gets its own [`Session`] from the caller's factory, so
//! the skills one client activates are not active for another; the
//! listings are shared.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

use super::{ServeError, SkillsServer};
use crate::exec::LocalExecutor;
use crate::session::Session;

/// The endpoint's path.
pub const PATH: &str = "/mcp";

/// A bound HTTP server, not yet accepting.
pub struct HttpServer {
    listener: TcpListener,
    service: StreamableHttpService<SkillsServer, LocalSessionManager>,
}

/// Binds `addr` (loopback only) for sessions made by `make_session`, one
/// per MCP session.
pub async fn bind_http<F>(make_session: F, addr: SocketAddr) -> Result<HttpServer, ServeError>
where
    F: Fn() -> Session<LocalExecutor> + Send + Sync + 'static,
{
    if !addr.ip().is_loopback() {
        return Err(ServeError::NotLoopback(addr));
    }
    let template = SkillsServer::from_session(make_session());
    let service = StreamableHttpService::new(
        move || Ok(template.with_session(make_session())),
        Arc::new(LocalSessionManager::default()),
        // rmcp already refuses a `Host` that is not loopback (DNS
        // rebinding); a browser page from another origin is refused too, so
        // that no web page the user visits can call these tools. Clients
        // outside a browser send no `Origin` and pass.
        StreamableHttpServerConfig::default()
            .with_allowed_origins(LOOPBACK_ORIGINS)
            .enforce_origin_validation(),
    );
    let listener = TcpListener::bind(addr).await?;
    Ok(HttpServer { listener, service })
}

/// The browser origins allowed to call the server: pages served from this
/// machine only.
const LOOPBACK_ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

/// [`bind_http`], then [`HttpServer::run`].
pub async fn serve_http<F>(make_session: F, addr: SocketAddr) -> Result<(), ServeError>
where
    F: Fn() -> Session<LocalExecutor> + Send + Sync + 'static,
{
    bind_http(make_session, addr).await?.run().await
}

impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("listener", &self.listener)
            .finish_non_exhaustive()
    }
}

impl HttpServer {
    /// The address bound (with the port the system chose for port 0).
    pub fn local_addr(&self) -> Result<SocketAddr, ServeError> {
        Ok(self.listener.local_addr()?)
    }

    /// The endpoint's URL, `http://<addr>/mcp`.
    pub fn url(&self) -> Result<String, ServeError> {
        Ok(format!("http://{}{PATH}", self.local_addr()?))
    }

    /// Accepts connections until the task is dropped.
    pub async fn run(self) -> Result<(), ServeError> {
        loop {
            let stream = match self.listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of descriptors and the like: wait, keep serving.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let service = self.service.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request| {
                    let mut service = service.clone();
                    tower_service::Service::call(&mut service, request)
                });
                // A client that hangs up mid-request is its own problem.
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
            });
        }
    }
}

//! Streamable HTTP (feature `http`), on loopback addresses only.
//!
//! rmcp's `StreamableHttpService` speaks the protocol; hyper (HTTP/1.1)
//! carries it over a tokio listener. There is no authentication, so
//! [`bind_http`] refuses any address that is not loopback, rmcp's `Host`
//! check (localhost, 127.0.0.1, ::1) stands against DNS rebinding, and each
//! request passes a gate before rmcp sees it:
//!
//! 1. `Origin`: absent, or exactly one of the server's own origins or the
//!    configured ones ([`origin`](crate::origin)); else 403.
//! 2. A `POST` body is read up to [`MAX_MESSAGE`] (else 413) and parsed: a
//!    body that is no JSON-RPC message gets its error response, `-32700`
//!    for text that is not JSON, with `id: null` and status 400
//!    ([`message`](crate::message)).
//! 3. `DELETE` ends the session it names: 200, or 404 for a session the
//!    server does not hold (so clients learn it is gone), 400 without
//!    `Mcp-Session-Id`.
//! 4. An `initialize`, which opens a session, is admitted only while fewer
//!    than [`HttpConfig::max_sessions`] are open; else 503 with what to do
//!    ([`sessions`](crate::sessions)). Sessions idle for
//!    [`HttpConfig::idle_timeout`] are closed by a task that lives as long
//!    as [`HttpServer::run`].
//!
//! Before any of that, a connection is accepted only within
//! [`HttpConfig::max_connections`] (the one that has waited longest on its
//! client makes room), and closed when its headers take longer than
//! [`HttpConfig::header_timeout`] or nothing moves on it for
//! [`HttpConfig::connection_idle_timeout`] while the server waits on the
//! client ([`connections`](crate::connections)); a body that takes longer
//! than [`HttpConfig::body_timeout`] gets 408. Within a session, a request
//! whose id is in flight gets `-32600`, and every request is answered
//! within [`HttpConfig::request_timeout`] ([`inflight`](crate::inflight)).
//!
//! Each MCP session gets its own [`Session`] from the caller's factory, so
//! the skills one client activates are not active for another; the
//! listings are shared.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Incoming as Body;
use hyper::header::{CONNECTION, CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::streamable_http_server::session::{SessionId, SessionManager};
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

use crate::connections::{self, Connections, Limits, Registered, Served, Watched};
use crate::message::{self, Incoming, MAX_MESSAGE};
use crate::origin::{Origin, Origins};
use crate::sessions::Sessions;
use crate::{DEFAULT_REQUEST_TIMEOUT, ServeError, SkillsServer};
use skills_bundle::exec::{AsyncScriptExecutor, LocalExecutor};
use skills_bundle::session::Session;

/// The header that names a session.
const SESSION_ID: &str = "mcp-session-id";

/// The endpoint's path.
pub(crate) const PATH: &str = "/mcp";

/// The default cap on open MCP sessions: 64, far more than the clients one
/// user runs, and a few megabytes of memory at most.
pub const DEFAULT_MAX_SESSIONS: usize = 64;

/// The default idle timeout of an MCP session: 15 minutes, longer than a
/// user's pause within a conversation, short enough that the sessions of
/// clients that quit without `DELETE` free their place soon. A client
/// whose session was closed gets 404 and starts a new one, as the protocol
/// asks; the skills it had activated must be activated again.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// The default cap on open connections: 128, two for each of the
/// default 64 sessions (a `GET` stream and a request), within the 256
/// descriptors macOS gives a process by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 128;

/// The default header timeout: 10 seconds for a request line and headers,
/// which a client on the same machine sends in well under a millisecond.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The default body timeout: 30 seconds for a body of at most
/// [`MAX_MESSAGE`] bytes.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The default idle timeout of a connection: 60 seconds with nothing moving
/// while the server waits on the client (a kept-alive connection between
/// requests, an answer not read).
pub const DEFAULT_CONNECTION_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// The limits and the browser origins of an HTTP server.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HttpConfig {
    /// Most MCP sessions open at once; one more `initialize` gets 503.
    pub max_sessions: usize,
    /// A session with no request or stream for this long is closed.
    pub idle_timeout: Duration,
    /// Web pages allowed to call the server besides its own origins.
    pub allowed_origins: Vec<Origin>,
    /// Most connections open at once. One more closes the connection that
    /// has waited longest for its client's next request; when every one is
    /// serving a request, the new one gets 503.
    pub max_connections: usize,
    /// A connection whose request line and headers have not all arrived
    /// this long after it opened (or after the first byte of a later
    /// request) is closed.
    pub header_timeout: Duration,
    /// A request body not all arrived this long after its headers gets 408,
    /// and the connection is closed.
    pub body_timeout: Duration,
    /// A connection on which nothing has moved for this long while the
    /// server waits on its client (its next request, or reading an answer)
    /// is closed.
    pub connection_idle_timeout: Duration,
    /// A request not answered in this time gets `-32001`
    /// ([`REQUEST_TIMED_OUT`](crate::REQUEST_TIMED_OUT)) and its handler
    /// is stopped. Keep it above the executor's time limit.
    pub request_timeout: Duration,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            max_sessions: DEFAULT_MAX_SESSIONS,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            allowed_origins: Vec::new(),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            connection_idle_timeout: DEFAULT_CONNECTION_IDLE_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
        }
    }
}

impl HttpConfig {
    /// This configuration with [`max_sessions`](HttpConfig::max_sessions) set to `n`.
    pub fn with_max_sessions(mut self, n: usize) -> Self {
        self.max_sessions = n;
        self
    }

    /// This configuration with [`idle_timeout`](HttpConfig::idle_timeout) set to `timeout`.
    pub fn with_idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// This configuration with [`allowed_origins`](HttpConfig::allowed_origins) set to `origins`.
    pub fn with_allowed_origins(mut self, origins: Vec<Origin>) -> Self {
        self.allowed_origins = origins;
        self
    }

    /// This configuration with [`max_connections`](HttpConfig::max_connections) set to `n`.
    pub fn with_max_connections(mut self, n: usize) -> Self {
        self.max_connections = n;
        self
    }

    /// This configuration with [`header_timeout`](HttpConfig::header_timeout) set to `timeout`.
    pub fn with_header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    /// This configuration with [`body_timeout`](HttpConfig::body_timeout) set to `timeout`.
    pub fn with_body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// This configuration with [`connection_idle_timeout`](HttpConfig::connection_idle_timeout) set to `timeout`.
    pub fn with_connection_idle_timeout(mut self, timeout: Duration) -> Self {
        self.connection_idle_timeout = timeout;
        self
    }

    /// This configuration with [`request_timeout`](HttpConfig::request_timeout) set to `timeout`.
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }
}

/// A bound HTTP server, not yet accepting.
pub struct HttpServer<E = LocalExecutor> {
    listener: TcpListener,
    connections: Arc<Connections>,
    gate: Arc<Gate<E>>,
}

/// What every request passes before rmcp, and rmcp.
struct Gate<E> {
    origins: Origins,
    sessions: Arc<Sessions>,
    body_timeout: Duration,
    service: StreamableHttpService<SkillsServer<E>, Sessions>,
}

/// Binds `addr` (loopback only) for sessions made by `make_session`, one
/// per MCP session, with `config`'s limits.
pub async fn bind_http<F, E>(
    make_session: F,
    addr: SocketAddr,
    config: HttpConfig,
) -> Result<HttpServer<E>, ServeError>
where
    F: Fn() -> Session<E> + Send + Sync + 'static,
    E: AsyncScriptExecutor + Send + Sync + 'static,
{
    if !addr.ip().is_loopback() {
        return Err(ServeError::NotLoopback(addr));
    }
    let listener = TcpListener::bind(addr).await?;
    let port = listener.local_addr()?.port();
    let sessions = Arc::new(Sessions::new(
        config.max_sessions,
        config.idle_timeout,
        config.request_timeout,
    ));
    let template = SkillsServer::from_session(make_session());
    let service = StreamableHttpService::new(
        move || Ok(template.with_session(make_session())),
        Arc::clone(&sessions),
        // The gate checks `Origin` (exactly) and bounds the body; rmcp
        // keeps its `Host` check and the same bound.
        StreamableHttpServerConfig::default()
            .disable_allowed_origins()
            .with_max_request_body_bytes(MAX_MESSAGE),
    );
    let gate = Gate {
        origins: Origins::new(port, &config.allowed_origins),
        sessions,
        body_timeout: config.body_timeout,
        service,
    };
    let connections = Connections::new(Limits {
        max: config.max_connections,
        header: config.header_timeout,
        idle: config.connection_idle_timeout,
    });
    Ok(HttpServer {
        listener,
        connections: Arc::new(connections),
        gate: Arc::new(gate),
    })
}

/// [`bind_http`], then [`HttpServer::run`].
pub async fn serve_http<F, E>(
    make_session: F,
    addr: SocketAddr,
    config: HttpConfig,
) -> Result<(), ServeError>
where
    F: Fn() -> Session<E> + Send + Sync + 'static,
    E: AsyncScriptExecutor + Send + Sync + 'static,
{
    bind_http(make_session, addr, config).await?.run().await
}

impl<E> std::fmt::Debug for HttpServer<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("listener", &self.listener)
            .finish_non_exhaustive()
    }
}

impl<E: AsyncScriptExecutor + Send + Sync + 'static> HttpServer<E> {
    /// The address bound (with the port the system chose for port 0).
    pub fn local_addr(&self) -> Result<SocketAddr, ServeError> {
        Ok(self.listener.local_addr()?)
    }

    /// The endpoint's URL, `http://<addr>/mcp`.
    pub fn url(&self) -> Result<String, ServeError> {
        Ok(format!("http://{}{PATH}", self.local_addr()?))
    }

    /// Accepts connections, and closes idle sessions, until the future is
    /// dropped.
    pub async fn run(self) -> Result<(), ServeError> {
        let sessions = Arc::clone(&self.gate.sessions);
        let _reaper = AbortOnDrop(tokio::spawn(async move {
            let mut tick = tokio::time::interval(sessions.reap_every());
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                sessions.reap().await;
            }
        }));
        loop {
            let stream = match self.listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of descriptors: free the one of the connection that
                // has waited longest on its client, then accept again.
                Err(e) if out_of_descriptors(&e) => {
                    let pause = if self.connections.make_room() {
                        10
                    } else {
                        100
                    };
                    tokio::time::sleep(Duration::from_millis(pause)).await;
                    continue;
                }
                // Anything else (a connection reset before it was
                // accepted): wait, keep serving.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            match self.connections.admit() {
                Some(registered) => {
                    let connections = Arc::clone(&self.connections);
                    let gate = Arc::clone(&self.gate);
                    tokio::spawn(serve(connections, registered, gate, stream));
                }
                None => {
                    tokio::spawn(refuse(stream, self.connections.max()));
                }
            }
        }
    }
}

/// Whether an accept failed for want of descriptors.
fn out_of_descriptors(e: &std::io::Error) -> bool {
    use rustix::io::Errno;
    matches!(Errno::from_io_error(e), Some(Errno::MFILE | Errno::NFILE))
}

/// Serves one connection until it ends or its watchdog closes it.
async fn serve<E: AsyncScriptExecutor + Send + Sync + 'static>(
    connections: Arc<Connections>,
    registered: Registered,
    gate: Arc<Gate<E>>,
    stream: TcpStream,
) {
    let conn = Arc::clone(registered.conn());
    let handler = hyper::service::service_fn(move |request| {
        let gate = Arc::clone(&gate);
        let serving = conn.serve();
        async move {
            let response = gate.handle(request).await;
            Ok::<_, Infallible>(response.map(|body| Served::new(body, serving)))
        }
    });
    let io = TokioIo::new(Watched::new(stream, Arc::clone(registered.conn())));
    // A client that hangs up mid-request is its own problem.
    let connection = hyper::server::conn::http1::Builder::new().serve_connection(io, handler);
    connections::watch(&connections, registered.conn(), connection).await;
}

/// Answers 503 on a connection past the cap when no connection can make
/// room, and closes it.
async fn refuse(mut stream: TcpStream, max: usize) {
    let why = format!(
        "Service Unavailable: the server holds its maximum of {max} connections, each serving a request; retry shortly, or restart the server with a larger `--max-connections`"
    );
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{why}",
        why.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
}

/// Aborts its task when dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

type Answer = Response<BoxBody<Bytes, Infallible>>;

impl<E: AsyncScriptExecutor + Send + Sync + 'static> Gate<E> {
    /// One request: the checks of the module documentation, then rmcp.
    async fn handle(&self, request: Request<Body>) -> Answer {
        if let Err(why) = self.origins.check(request.headers()) {
            return answer(StatusCode::FORBIDDEN, "text/plain", why.into());
        }
        if request.method() == Method::DELETE {
            return self.end_session(request.headers()).await;
        }
        if request.method() != Method::POST {
            return self.service.handle(request).await;
        }
        let (parts, body) = request.into_parts();
        let read =
            tokio::time::timeout(self.body_timeout, Limited::new(body, MAX_MESSAGE).collect());
        let Ok(read) = read.await else {
            let why = format!(
                "Request Timeout: the request body did not arrive within {} s",
                self.body_timeout.as_secs_f64()
            );
            let mut response = answer(StatusCode::REQUEST_TIMEOUT, "text/plain", why.into());
            response
                .headers_mut()
                .insert(CONNECTION, HeaderValue::from_static("close"));
            return response;
        };
        let bytes = match read {
            Ok(collected) => collected.to_bytes(),
            Err(e) if e.downcast_ref::<LengthLimitError>().is_some() => {
                let why = format!("Payload Too Large: request body exceeds {MAX_MESSAGE} bytes");
                return answer(StatusCode::PAYLOAD_TOO_LARGE, "text/plain", why.into());
            }
            Err(e) => {
                let why = format!("Bad Request: cannot read the body: {e}");
                return answer(StatusCode::BAD_REQUEST, "text/plain", why.into());
            }
        };
        let opens_session = match message::parse(&bytes) {
            Incoming::Message(m) => is_initialize(&m) && !parts.headers.contains_key(SESSION_ID),
            Incoming::Ignored => return answer(StatusCode::ACCEPTED, "text/plain", Bytes::new()),
            Incoming::Malformed(reply) => {
                return answer(StatusCode::BAD_REQUEST, "application/json", reply.into());
            }
        };
        let request = Request::from_parts(parts, Full::new(bytes));
        if !opens_session {
            return self.service.handle(request).await;
        }
        match self.sessions.admit().await {
            // Held until rmcp has made the session.
            Ok(_admitted) => self.service.handle(request).await,
            Err(full) => answer(
                StatusCode::SERVICE_UNAVAILABLE,
                "text/plain",
                full.to_string().into(),
            ),
        }
    }
}

impl<E> Gate<E> {
    /// `DELETE`: the client ends its session. 200 and the session is gone
    /// (its skills and grants with it); 404 for a session this server does
    /// not hold (never opened, already ended or closed while idle), as the
    /// transport says of a terminated session; 400 without the header.
    async fn end_session(&self, headers: &hyper::HeaderMap) -> Answer {
        let Some(id) = headers
            .get(SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .filter(|id| !id.is_empty())
        else {
            let why = format!("Bad Request: DELETE needs the {SESSION_ID} header");
            return answer(StatusCode::BAD_REQUEST, "text/plain", why.into());
        };
        let id: SessionId = id.into();
        if !self.sessions.has_session(&id).await.unwrap_or(false) {
            let why = format!("Not Found: no MCP session `{id}`");
            return answer(StatusCode::NOT_FOUND, "text/plain", why.into());
        }
        match self.sessions.close_session(&id).await {
            Ok(()) => answer(StatusCode::OK, "text/plain", Bytes::new()),
            Err(e) => {
                let why = format!("Internal Server Error: cannot end session `{id}`: {e}");
                answer(StatusCode::INTERNAL_SERVER_ERROR, "text/plain", why.into())
            }
        }
    }
}

/// Whether `message` is `initialize`, which opens a session.
fn is_initialize(message: &ClientJsonRpcMessage) -> bool {
    matches!(
        message,
        ClientJsonRpcMessage::Request(request)
            if matches!(request.request, ClientRequest::InitializeRequest(_))
    )
}

/// A response of the gate's own.
fn answer(status: StatusCode, content_type: &'static str, body: Bytes) -> Answer {
    let mut response = Response::new(Full::new(body).boxed());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

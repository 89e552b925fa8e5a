//! [`SkillsServer`]: one bundle served over MCP, its stdio bounds
//! ([`StdioConfig`]) and how serving fails ([`ServeError`]).

use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{Implementation, Prompt, Resource, ServerCapabilities, ServerConfig};

use skills_bundle::Bundle;
use skills_bundle::exec::{AsyncScriptExecutor, LocalExecutor};
use skills_bundle::policy::Mode;
use skills_bundle::session::Session;

use crate::message::MAX_MESSAGE;
use crate::{extension, inflight, prompts, resources, stdio};

/// The server's name in `initialize`.
pub const SERVER_NAME: &str = "skills";

/// The default request timeout: 10 minutes, longer than a script's default
/// time limit (60 s) with room to spare. A request not answered by then
/// gets `-32001` and its handler is stopped; raise it with the executor's
/// time limit.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// The default cap on answers in flight over stdio: 64, more than any
/// client pipelines.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 64;

/// At most how many bytes of answers wait to be written over stdio before
/// the server stops reading: 16 MiB, four of the largest messages.
pub const MAX_UNWRITTEN: usize = 4 * MAX_MESSAGE;

/// The bounds of a server on stdio ([`SkillsServer::serve_stdio_with`]).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StdioConfig {
    /// Most answers in flight: requests read and not yet answered, plus
    /// answers not yet written (and at most [`MAX_UNWRITTEN`] bytes of
    /// those). At the cap the server reads no more requests until the
    /// client has read answers. At least 1.
    pub max_in_flight: usize,
    /// A request not answered in this time gets `-32001`
    /// ([`REQUEST_TIMED_OUT`](crate::REQUEST_TIMED_OUT)) and its handler is stopped (a
    /// script run is killed). Keep it above the executor's time limit.
    pub request_timeout: Duration,
}

impl Default for StdioConfig {
    fn default() -> Self {
        StdioConfig {
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
        }
    }
}

impl StdioConfig {
    /// This configuration with [`max_in_flight`](StdioConfig::max_in_flight) set to `n`.
    pub fn with_max_in_flight(mut self, n: usize) -> Self {
        self.max_in_flight = n;
        self
    }

    /// This configuration with [`request_timeout`](StdioConfig::request_timeout) set to `timeout`.
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }
}

/// An MCP server for one bundle; see the module documentation.
///
/// Generic over the script executor, as the rig tools are: any
/// [`AsyncScriptExecutor`] (a sandbox, a remote runner, a test double);
/// [`LocalExecutor`] by default. Cloning shares the session: clones serve
/// the same client.
#[derive(Debug)]
pub struct SkillsServer<E = LocalExecutor> {
    pub(crate) session: Arc<Session<E>>,
    pub(crate) shared: Arc<Shared>,
}

impl<E> Clone for SkillsServer<E> {
    fn clone(&self) -> Self {
        SkillsServer {
            session: Arc::clone(&self.session),
            shared: Arc::clone(&self.shared),
        }
    }
}

/// What every MCP session of one server lists: computed once.
#[derive(Debug)]
///
/// The three long listings are built on first request rather than at
/// start-up: a server for the 454-skill corpus answers `initialize` without
/// first building 2,323 resource entries that its client may never ask for.
pub(crate) struct Shared {
    pub(crate) info: ServerConfig,
    pub(crate) bundle: Bundle,
    /// Per skill, whether `resources/list` lists it: the skills a new
    /// session offers the model.
    pub(crate) listed: Vec<bool>,
    pub(crate) resources: OnceLock<Vec<Resource>>,
    pub(crate) prompts: OnceLock<Vec<Prompt>>,
    pub(crate) skills: OnceLock<Vec<rmcp::model::Skill>>,
}

impl<E: AsyncScriptExecutor + Send + Sync + 'static> SkillsServer<E> {
    /// A server over `bundle`, running scripts with `executor` (its cache,
    /// time limit and output caps) and reading `allowed-tools` as `mode` says.
    pub fn new(bundle: &Bundle, executor: E, mode: Mode) -> Self {
        Self::from_session(Session::new(bundle, executor, mode))
    }

    /// A server over a session set up by the caller (deny rules, a catalog
    /// budget).
    pub fn from_session(session: Session<E>) -> Self {
        let shared = Arc::new(Shared::of(&session));
        SkillsServer {
            session: Arc::new(session),
            shared,
        }
    }

    #[cfg(feature = "http")]
    /// Another client's server over a new session, sharing the listings
    /// (which depend on the bundle only).
    pub(crate) fn with_session(&self, session: Session<E>) -> Self {
        SkillsServer {
            session: Arc::new(session),
            shared: Arc::clone(&self.shared),
        }
    }

    /// The session.
    pub fn session(&self) -> &Session<E> {
        &self.session
    }

    /// Serves one client over stdin and stdout until the client closes
    /// stdin (or the transport fails), with the default [`StdioConfig`]. A
    /// client that closes stdin, before or after `initialize`, ends it with
    /// `Ok`. A line that is no JSON-RPC message is answered with its error
    /// (`-32700` for text that is not JSON, `id: null`), and serving goes
    /// on.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        self.serve_stdio_with(StdioConfig::default()).await
    }

    /// [`SkillsServer::serve_stdio`] with the bounds of `config`.
    pub async fn serve_stdio_with(self, config: StdioConfig) -> Result<(), ServeError> {
        let (stdin, stdout) = rmcp::transport::stdio();
        self.serve_lines(stdin, stdout, &config).await
    }

    /// Serves one client over a line-delimited stream, as over stdio.
    pub(crate) async fn serve_lines<R, W>(
        self,
        read: R,
        write: W,
        config: &StdioConfig,
    ) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let bound = inflight::Bound {
            answers: config.max_in_flight.max(1),
            bytes: MAX_UNWRITTEN,
        };
        let inflight = Arc::new(inflight::InFlight::new(config.request_timeout, Some(bound)));
        let lines = stdio::Stdio::new(read, write, Arc::clone(&inflight));
        let transport = inflight::Tracked::new(lines, inflight, true);
        let running = match self.serve(transport).await {
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
    pub(crate) fn of<E>(session: &Session<E>) -> Shared {
        let bundle = session.bundle();
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_skills_with_directory_read()
            .build();
        let info = ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
            .with_instructions(session.function_calling_prompt());
        let offered = session.offered();
        Shared {
            info,
            listed: bundle
                .skills()
                .map(|s| offered.iter().any(|o| o == s.name()))
                .collect(),
            bundle: bundle.clone(),
            resources: OnceLock::new(),
            prompts: OnceLock::new(),
            skills: OnceLock::new(),
        }
    }

    pub(crate) fn resources(&self) -> &[Resource] {
        self.resources
            .get_or_init(|| resources::list(&self.bundle, &self.listed))
    }

    pub(crate) fn prompts(&self) -> &[Prompt] {
        self.prompts.get_or_init(|| prompts::list(&self.bundle))
    }

    pub(crate) fn skills(&self) -> &[rmcp::model::Skill] {
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::Duration;

    use rmcp::model::CallToolRequestParams;
    use skills_bundle::exec::{Command, ExecError, Output};
    use skills_bundle::{Skill, skills_bundle};

    use super::*;
    use crate::tools;

    static SKILLS: Bundle = skills_bundle!("../skills");

    /// An executor that runs nothing and records what it was asked.
    #[derive(Debug, Default)]
    struct Recorder {
        calls: Mutex<Vec<(String, String)>>,
    }

    impl AsyncScriptExecutor for Recorder {
        async fn run_async(
            &self,
            skill: &Skill<'_>,
            command: &Command,
        ) -> Result<Output, ExecError> {
            let mut calls = self.calls.lock().unwrap_or_else(|e| e.into_inner());
            calls.push((skill.name().to_string(), format!("{command:?}")));
            Ok(Output {
                exit_code: Some(0),
                signal: None,
                stdout: b"recorded\n".to_vec(),
                stderr: Vec::new(),
                stdout_truncated: false,
                stderr_truncated: false,
                timed_out: false,
                duration: Duration::ZERO,
            })
        }
    }

    fn call(name: &str, arguments: serde_json::Value) -> CallToolRequestParams {
        let serde_json::Value::Object(arguments) = arguments else {
            unreachable!("the tests pass objects")
        };
        CallToolRequestParams::new(name.to_string()).with_arguments(arguments)
    }

    /// Any `AsyncScriptExecutor` serves, as with the rig tools: the run goes
    /// to it, under the session's policy, and its output is the result.
    #[tokio::test(flavor = "current_thread")]
    async fn a_server_runs_scripts_with_the_executor_it_is_given() {
        let server = SkillsServer::new(&SKILLS, Recorder::default(), Mode::Restrict);
        let activated = tools::call(
            server.session(),
            call("activate_skill", serde_json::json!({"name": "calculator"})),
        )
        .await;
        assert!(activated.is_ok_and(|r| r.is_error != Some(true)));
        let ran = tools::call(
            server.session(),
            call(
                "run_skill_script",
                serde_json::json!({"skill": "calculator", "command": "python3 scripts/calc.py '1 + 1'"}),
            ),
        )
        .await
        .map(|r| format!("{:?}", r.content));
        assert!(
            ran.as_deref().is_ok_and(|c| c.contains("recorded")),
            "{ran:?}"
        );
        let calls = server.session().executor().calls.lock().map(|c| c.clone());
        let calls = calls.unwrap_or_default();
        assert_eq!(calls.len(), 1, "{calls:?}");
        assert_eq!(calls[0].0, "calculator");
        assert!(calls[0].1.contains("calc.py"), "{calls:?}");
        // The policy still decides first: a command outside allowed-tools never reaches it.
        let refused = tools::call(
            server.session(),
            call(
                "run_skill_script",
                serde_json::json!({"skill": "calculator", "command": "rm -rf /"}),
            ),
        )
        .await;
        assert!(refused.is_ok_and(|r| r.is_error == Some(true)));
        assert_eq!(
            server
                .session()
                .executor()
                .calls
                .lock()
                .map(|c| c.len())
                .unwrap_or(0),
            1
        );
    }

    /// An executor whose runs never end, and which records that a run's
    /// future was dropped (what kills a real run).
    #[derive(Debug, Default)]
    struct Hanging {
        dropped: Arc<std::sync::atomic::AtomicUsize>,
    }

    struct CountDrop(Arc<std::sync::atomic::AtomicUsize>);

    impl Drop for CountDrop {
        fn drop(&mut self) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    impl AsyncScriptExecutor for Hanging {
        async fn run_async(&self, _: &Skill<'_>, _: &Command) -> Result<Output, ExecError> {
            let _guard = CountDrop(Arc::clone(&self.dropped));
            std::future::pending().await
        }
    }

    /// A request that no handler answers gets `-32001` after the request
    /// timeout, and its run is stopped; while it hangs, a request with its
    /// id is refused; once the run is stopped, the id may be used again.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_hanging_run_is_answered_at_the_request_timeout_and_stopped() {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
        let executor = Hanging::default();
        let dropped = Arc::clone(&executor.dropped);
        let server = SkillsServer::new(&SKILLS, executor, Mode::Restrict);
        let (client, server_end) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_end);
        let config = StdioConfig {
            request_timeout: Duration::from_secs(1),
            ..StdioConfig::default()
        };
        tokio::spawn(async move { server.serve_lines(read, write, &config).await });
        let (client_read, mut client_write) = tokio::io::split(client);
        let mut lines = BufReader::new(client_read).lines();
        let mut next = async || -> serde_json::Value {
            let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line()).await;
            let line = line
                .expect("an answer in time")
                .expect("read")
                .expect("a line");
            serde_json::from_str(&line).expect("JSON")
        };
        let run = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_skill_script","arguments":{"skill":"calculator","command":"python3 scripts/calc.py '1 + 1'"}}}"#;
        let input = [
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"activate_skill","arguments":{"name":"calculator"}}}"#,
        ];
        for line in input {
            client_write
                .write_all(format!("{line}\n").as_bytes())
                .await
                .expect("write");
        }
        assert_eq!(next().await["id"], 0);
        assert_eq!(next().await["result"]["isError"], false);
        client_write
            .write_all(format!("{run}\n{run}\n").as_bytes())
            .await
            .expect("write");
        let refused = next().await;
        assert_eq!(refused["id"], 7);
        assert_eq!(refused["error"]["code"], -32600, "{refused}");
        let timed_out = next().await;
        assert_eq!(
            timed_out,
            serde_json::json!({"jsonrpc": "2.0", "id": 7, "error": {
                "code": -32001,
                "message": "request timed out: no answer within 1 s, the server's request timeout",
            }})
        );
        let stopped = async {
            while dropped.load(std::sync::atomic::Ordering::SeqCst) == 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(30), stopped)
            .await
            .expect("the run was stopped");
        // The id is freed once the stopped handler's answer (dropped) has
        // come through: a run with it is then no longer refused, and times
        // out in its turn.
        for _ in 0..300 {
            client_write
                .write_all(format!("{run}\n").as_bytes())
                .await
                .expect("write");
            let answer = next().await;
            if answer["error"]["code"] != -32600 {
                assert_eq!(answer["error"]["code"], -32001, "{answer}");
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the id stayed in use after its run was stopped");
    }
}

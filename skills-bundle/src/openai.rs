//! A [`ChatModel`] for any OpenAI-compatible `/chat/completions` endpoint
//! (feature `openai`).
//!
//! [`OpenAiChat`] owns one thing: turning the loop's [`Message`]s and
//! [`ToolDefinition`]s into a chat-completions request, POSTing it, and
//! turning the first choice of the answer back into a [`Reply`]. It speaks
//! to OpenAI itself and to the local servers that copy its API (Ollama,
//! vLLM, llama.cpp's `llama-server`, LM Studio), in both of the loop's
//! styles: function calling (`tools`, `tool_calls`, `tool` messages) and the
//! XML protocol (plain text).
//!
//! ```no_run
//! use skills_bundle::agent::{self, Protocol};
//! use skills_bundle::openai::OpenAiChat;
//! # fn demo(session: &skills_bundle::session::Session<skills_bundle::exec::LocalExecutor>) -> Result<(), Box<dyn std::error::Error>> {
//! let mut model = OpenAiChat::new("http://127.0.0.1:11434/v1", "llama3.1")
//!     .temperature(0.0);
//! let (answer, _transcript) =
//!     agent::run(&mut model, session, Protocol::FunctionCalling, "What is 15 * 23?", 10)?;
//! # Ok(()) }
//! ```
//!
//! **HTTP client.** [ureq](https://docs.rs/ureq): small, blocking (which is
//! what [`ChatModel`] is), no async runtime of its own, and TLS optional.
//! Without the `openai-tls` feature the build links no TLS stack and only
//! `http://` endpoints work, which is all a local server needs; an
//! `https://` URL is refused with an error naming the feature.
//! `openai-tls` adds rustls with the webpki roots. Redirects are not
//! followed (a 3xx is an error: a request body and a bearer token are not
//! sent on to another address); the usual proxy variables (`HTTP_PROXY`,
//! `NO_PROXY`, ...) are honoured.
//!
//! **JSON.** No serde: the request is written with the crate's own string
//! quoting (the rest is fixed structure, and the tool schemas are already
//! JSON text), and the answer is read with the crate's own RFC 8259 reader,
//! which already guards its depth. Every field is looked up and
//! type-checked by hand, so a malformed, truncated or hostile answer is an
//! [`OpenAiError`], never a panic. Through [`ChatModel`] it arrives boxed as
//! a [`ModelError`]; `downcast_ref::<OpenAiError>()` gets it back.
//!
//! **Limits.** The whole request, connection to last byte, is bounded by
//! [`OpenAiChat::timeout`] (120 s by default); the answer's body by
//! [`OpenAiChat::max_response_bytes`] (16 MiB by default), enforced by ureq
//! while reading, before anything larger is allocated.
//!
//! **Secrets.** The API key is sent as `Authorization: Bearer …` and
//! appears nowhere else: `Debug` prints `<redacted>`, and no error message
//! quotes the request.
//!
//! **Async.** With the `tokio` feature, [`OpenAiChat`] is also a
//! [`crate::agent::AsyncChatModel`]: the request body is written on the
//! caller's task, then the blocking request runs on
//! `tokio::task::spawn_blocking` with a clone of the model (ureq's agent is
//! a cheap, shared handle), so a slow model never blocks a runtime worker.
//! This keeps one HTTP client for both traits instead of pulling in an
//! async one (hyper, reqwest) for what is one request and one response.
//! Dropping the future does not abort a request already under way: it runs
//! to its end or its timeout on the blocking pool, and its answer is
//! discarded.

use std::fmt;
use std::time::Duration;

#[cfg(feature = "tokio")]
use crate::agent::AsyncChatModel;
use crate::agent::{ChatModel, Message, ModelError, Reply, Role, ToolCall};
use crate::session::ToolDefinition;
use skills_core::json::{self, Node, Value};

mod error;

pub use error::OpenAiError;

/// Whether this build can reach `https://` endpoints (feature
/// `openai-tls`).
pub const TLS: bool = cfg!(feature = "openai-tls");

/// The default [`OpenAiChat::timeout`].
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// The default [`OpenAiChat::max_response_bytes`]: 16 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 16 << 20;

/// The default of `OPENAI_BASE_URL` in [`OpenAiChat::from_env`].
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

/// How deep the answer's JSON may nest.
const MAX_DEPTH: usize = 128;

/// An OpenAI-compatible chat-completions endpoint.
///
/// Built with [`OpenAiChat::new`] or [`OpenAiChat::from_env`] and the
/// setters; cloning it shares its connection pool.
#[derive(Clone)]
pub struct OpenAiChat {
    agent: ureq::Agent,
    endpoint: String,
    model: String,
    api_key: Option<String>,
    temperature: Option<f32>,
    timeout: Duration,
    max_response_bytes: usize,
}

impl fmt::Debug for OpenAiChat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenAiChat")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("temperature", &self.temperature)
            .field("timeout", &self.timeout)
            .field("max_response_bytes", &self.max_response_bytes)
            .finish()
    }
}

fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        // Non-2xx answers are read, so their error message can be shown.
        .http_status_as_error(false)
        .max_redirects(0)
        .max_redirects_will_error(false)
        .timeout_global(Some(timeout))
        .build()
        .into()
}

impl OpenAiChat {
    /// A model at `base_url` (such as `http://127.0.0.1:11434/v1`; requests
    /// go to `{base_url}/chat/completions`, a trailing `/` or not), with no
    /// API key, the server's temperature, and the default limits.
    pub fn new(base_url: impl AsRef<str>, model: impl Into<String>) -> OpenAiChat {
        let base = base_url.as_ref().trim().trim_end_matches('/');
        OpenAiChat {
            agent: agent(DEFAULT_TIMEOUT),
            endpoint: format!("{base}/chat/completions"),
            model: model.into(),
            api_key: None,
            temperature: None,
            timeout: DEFAULT_TIMEOUT,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
        }
    }

    /// A model from the environment: `OPENAI_BASE_URL` (default
    /// `https://api.openai.com/v1`, which needs the `openai-tls` feature),
    /// `OPENAI_API_KEY` (optional; local servers rarely want one) and
    /// `OPENAI_MODEL` (required).
    pub fn from_env() -> Result<OpenAiChat, OpenAiError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let model = var("OPENAI_MODEL").ok_or(OpenAiError::NoModel)?;
        let base = var("OPENAI_BASE_URL").unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        let mut chat = OpenAiChat::new(base, model);
        if let Some(key) = var("OPENAI_API_KEY") {
            chat = chat.api_key(key);
        }
        Ok(chat)
    }

    /// Sends `Authorization: Bearer {key}` with every request.
    pub fn api_key(mut self, key: impl Into<String>) -> OpenAiChat {
        self.api_key = Some(key.into());
        self
    }

    /// Asks for this sampling temperature (a value that is not finite is
    /// not sent).
    pub fn temperature(mut self, temperature: f32) -> OpenAiChat {
        self.temperature = Some(temperature);
        self
    }

    /// Bounds each request, from connecting to the answer's last byte
    /// (default 120 s).
    pub fn timeout(mut self, timeout: Duration) -> OpenAiChat {
        self.timeout = timeout;
        self.agent = agent(timeout);
        self
    }

    /// Refuses an answer whose body is larger than this (default 16 MiB).
    pub fn max_response_bytes(mut self, limit: usize) -> OpenAiChat {
        self.max_response_bytes = limit;
        self
    }

    /// Where requests go: `{base_url}/chat/completions`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The model's name, as sent.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The request's JSON body.
    pub fn request_body(&self, messages: &[Message], definitions: &[ToolDefinition]) -> String {
        let mut o = String::with_capacity(
            256 + messages.iter().map(|m| m.content.len() + 64).sum::<usize>(),
        );
        o.push_str("{\"model\":");
        o.push_str(&json::quote(&self.model));
        o.push_str(",\"messages\":[");
        for (i, m) in messages.iter().enumerate() {
            if i > 0 {
                o.push(',');
            }
            write_message(&mut o, m);
        }
        o.push(']');
        if !definitions.is_empty() {
            o.push_str(",\"tools\":[");
            for (i, t) in definitions.iter().enumerate() {
                if i > 0 {
                    o.push(',');
                }
                o.push_str("{\"type\":\"function\",\"function\":");
                o.push_str(&t.to_json());
                o.push('}');
            }
            o.push(']');
        }
        if let Some(t) = self.temperature.filter(|t| t.is_finite()) {
            o.push_str(",\"temperature\":");
            o.push_str(&t.to_string());
        }
        o.push('}');
        o
    }

    /// POSTs a request body; the first choice of the answer.
    fn post(&self, body: &str) -> Result<Reply, OpenAiError> {
        let url = &self.endpoint;
        let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
        match scheme.as_deref() {
            Some("http") => {}
            Some("https") if TLS => {}
            Some("https") => return Err(OpenAiError::NoTls { url: url.clone() }),
            _ => return Err(OpenAiError::NotHttp { url: url.clone() }),
        }
        let mut request = self
            .agent
            .post(url.as_str())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json");
        if let Some(key) = &self.api_key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        let mut response = request
            .send(body.as_bytes())
            .map_err(|e| self.transport_error(e))?;
        let status = response.status().as_u16();
        let bytes = response
            .body_mut()
            .with_config()
            .limit(self.max_response_bytes as u64)
            .read_to_vec()
            .map_err(|e| self.transport_error(e))?;
        let text = String::from_utf8_lossy(&bytes);
        if !(200..300).contains(&status) {
            return Err(OpenAiError::Status {
                url: url.clone(),
                status,
                detail: error_detail(&text),
            });
        }
        parse_reply(&text).map_err(|reason| OpenAiError::Answer {
            url: url.clone(),
            reason,
        })
    }

    /// A failed exchange, by what went wrong.
    fn transport_error(&self, e: ureq::Error) -> OpenAiError {
        let url = self.endpoint.clone();
        let timeout = || OpenAiError::Timeout {
            url: self.endpoint.clone(),
            timeout: self.timeout,
        };
        match e {
            ureq::Error::Timeout(_) => timeout(),
            ureq::Error::BodyExceedsLimit(_) => OpenAiError::TooLarge {
                url,
                limit: self.max_response_bytes,
            },
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
                OpenAiError::ConnectionRefused { url }
            }
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => timeout(),
            ureq::Error::ConnectionFailed => OpenAiError::Connect { url },
            ureq::Error::HostNotFound => OpenAiError::HostNotFound { url },
            ureq::Error::BadUri(reason) => OpenAiError::BadUrl { url, reason },
            e => OpenAiError::Request {
                url,
                source: Box::new(e),
            },
        }
    }
}

/// The readable part of an error answer: `error.message` (or `error` when a
/// string, as some servers send), else the start of the body.
fn error_detail(body: &str) -> String {
    if let Some(m) = json::parse(body, MAX_DEPTH)
        .ok()
        .as_ref()
        .and_then(|n| n.get("error"))
        .and_then(error_message)
    {
        return m.to_owned();
    }
    let body = body.trim();
    if body.is_empty() {
        return "(empty body)".to_owned();
    }
    let mut start: String = body.chars().take(200).collect();
    if start.len() < body.len() {
        start.push('…');
    }
    start
}

fn write_message(o: &mut String, m: &Message) {
    let role = match m.role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    };
    o.push_str("{\"role\":\"");
    o.push_str(role);
    o.push('"');
    match m.role {
        Role::Assistant if !m.tool_calls.is_empty() => {
            o.push_str(",\"content\":");
            if m.content.is_empty() {
                o.push_str("null");
            } else {
                o.push_str(&json::quote(&m.content));
            }
            o.push_str(",\"tool_calls\":[");
            for (i, c) in m.tool_calls.iter().enumerate() {
                if i > 0 {
                    o.push(',');
                }
                o.push_str("{\"id\":");
                o.push_str(&json::quote(&c.id));
                o.push_str(",\"type\":\"function\",\"function\":{\"name\":");
                o.push_str(&json::quote(&c.name));
                o.push_str(",\"arguments\":");
                o.push_str(&json::quote(&c.arguments));
                o.push_str("}}");
            }
            o.push(']');
        }
        Role::Tool => {
            o.push_str(",\"tool_call_id\":");
            o.push_str(&json::quote(m.tool_call_id.as_deref().unwrap_or("")));
            o.push_str(",\"content\":");
            o.push_str(&json::quote(&m.content));
        }
        _ => {
            o.push_str(",\"content\":");
            o.push_str(&json::quote(&m.content));
        }
    }
    o.push('}');
}

/// `message` of an `error` object, or the error itself when a string.
fn error_message(error: &Node) -> Option<&str> {
    error
        .get("message")
        .and_then(Node::as_str)
        .or_else(|| error.as_str())
}

/// The first choice of a chat-completions answer.
fn parse_reply(text: &str) -> Result<Reply, String> {
    let root = json::parse(text, MAX_DEPTH).map_err(|e| {
        let start: String = text.trim().chars().take(80).collect();
        format!(
            "the answer is not JSON ({} at byte {}): {start:?}",
            e.message, e.at
        )
    })?;
    if !matches!(root.value, Value::Object(_)) {
        return Err(format!("the answer is {}, not a JSON object", root.kind()));
    }
    let choices = match root.get("choices").map(|c| &c.value) {
        Some(Value::Array(choices)) => choices,
        _ => {
            let detail = root
                .get("error")
                .and_then(error_message)
                .map(|m| format!(": error: {m}"))
                .unwrap_or_default();
            return Err(format!("the answer has no `choices` array{detail}"));
        }
    };
    let first = choices
        .first()
        .ok_or_else(|| "the answer has no choices (`choices` is empty)".to_owned())?;
    let message = first
        .get("message")
        .filter(|m| matches!(m.value, Value::Object(_)))
        .ok_or_else(|| "`choices[0]` has no `message` object".to_owned())?;
    let content = match message.get("content").map(|c| &c.value) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        // Content parts: the text ones, in order.
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Node::as_str))
            .collect(),
        Some(_) => {
            let kind = message.get("content").map_or("missing", Node::kind);
            return Err(format!(
                "`choices[0].message.content` is {kind}, not a string"
            ));
        }
    };
    let mut tool_calls = Vec::new();
    match message.get("tool_calls").map(|c| &c.value) {
        None | Some(Value::Null) => {}
        Some(Value::Array(calls)) => {
            for (i, call) in calls.iter().enumerate() {
                tool_calls.push(parse_tool_call(text, i, call)?);
            }
        }
        Some(_) => {
            let kind = message.get("tool_calls").map_or("missing", Node::kind);
            return Err(format!(
                "`choices[0].message.tool_calls` is {kind}, not an array"
            ));
        }
    }
    Ok(Reply {
        content,
        tool_calls,
    })
}

fn parse_tool_call(text: &str, i: usize, call: &Node) -> Result<ToolCall, String> {
    let missing = |field: &str, what: &str| {
        format!("`choices[0].message.tool_calls[{i}]` has no `{field}` {what}")
    };
    let id = call
        .get("id")
        .and_then(Node::as_str)
        .ok_or_else(|| missing("id", "string"))?;
    let function = call
        .get("function")
        .filter(|f| matches!(f.value, Value::Object(_)))
        .ok_or_else(|| missing("function", "object"))?;
    let name = function
        .get("name")
        .and_then(Node::as_str)
        .ok_or_else(|| missing("function.name", "string"))?;
    let arguments = match function.get("arguments") {
        Some(Node {
            value: Value::String(s),
            ..
        }) => s.clone(),
        // Some servers send the arguments as an object, not as its text.
        Some(
            node @ Node {
                value: Value::Object(_),
                ..
            },
        ) => text.get(node.span.clone()).unwrap_or("{}").to_owned(),
        _ => return Err(missing("function.arguments", "string")),
    };
    Ok(ToolCall {
        id: id.to_owned(),
        name: name.to_owned(),
        arguments,
    })
}

impl ChatModel for OpenAiChat {
    fn complete(
        &mut self,
        messages: &[Message],
        definitions: &[ToolDefinition],
    ) -> Result<Reply, ModelError> {
        Ok(self.post(&self.request_body(messages, definitions))?)
    }
}

#[cfg(feature = "tokio")]
impl AsyncChatModel for OpenAiChat {
    fn complete_async(
        &mut self,
        messages: &[Message],
        definitions: &[ToolDefinition],
    ) -> impl std::future::Future<Output = Result<Reply, ModelError>> + Send {
        // The body is written here, so the blocking task owns everything it
        // needs: the body and a clone of the model (its agent is shared).
        let body = self.request_body(messages, definitions);
        let model = self.clone();
        async move {
            let reply = tokio::task::spawn_blocking(move || model.post(&body))
                .await
                .map_err(|e| OpenAiError::Task {
                    source: Box::new(e),
                })?;
            Ok(reply?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_tolerates_a_trailing_slash() {
        for base in ["http://h:1/v1", "http://h:1/v1/", " http://h:1/v1// "] {
            assert_eq!(
                OpenAiChat::new(base, "m").endpoint(),
                "http://h:1/v1/chat/completions"
            );
        }
    }

    #[test]
    fn the_body_is_json_with_every_role() {
        let chat = OpenAiChat::new("http://h/v1", "m\"x").temperature(0.5);
        let messages = [
            Message::new(Role::System, "s\n"),
            Message::new(Role::User, "u"),
            Message {
                role: Role::Assistant,
                content: String::new(),
                tool_calls: vec![ToolCall {
                    id: "1".into(),
                    name: "activate_skill".into(),
                    arguments: "{\"name\": \"c\"}".into(),
                }],
                tool_call_id: None,
            },
            Message {
                role: Role::Tool,
                content: "ok".into(),
                tool_calls: Vec::new(),
                tool_call_id: Some("1".into()),
            },
        ];
        let body = chat.request_body(&messages, &[]);
        assert_eq!(
            body,
            concat!(
                r#"{"model":"m\"x","messages":[{"role":"system","content":"s\n"},"#,
                r#"{"role":"user","content":"u"},"#,
                r#"{"role":"assistant","content":null,"tool_calls":[{"id":"1","type":"function","#,
                r#""function":{"name":"activate_skill","arguments":"{\"name\": \"c\"}"}}]},"#,
                r#"{"role":"tool","tool_call_id":"1","content":"ok"}],"temperature":0.5}"#
            )
        );
        assert!(json::parse(&body, 16).is_ok());
    }

    #[test]
    fn replies_are_read_leniently_where_servers_differ() {
        let r = parse_reply(r#"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"a","function":{"name":"n","arguments":{"x":1}}}]}}]}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.content, "");
        assert_eq!(r.tool_calls[0].arguments, r#"{"x":1}"#);
        let r = parse_reply(r#"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.content, "ab");
    }

    #[test]
    fn debug_hides_the_key() {
        let chat = OpenAiChat::new("http://h/v1", "m").api_key("sk-secret");
        let debug = format!("{chat:?}");
        assert!(!debug.contains("sk-secret"), "{debug}");
        assert!(debug.contains("<redacted>"), "{debug}");
    }
}

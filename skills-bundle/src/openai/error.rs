//! Why an [`OpenAiChat`](super::OpenAiChat) could not be built or gave no
//! reply: one variant per way the exchange fails, so a caller can retry a
//! timeout or a `429` and give up on a bad URL. Each message names the
//! endpoint and never quotes the request (which holds the API key).

use std::fmt;
use std::time::Duration;

/// Why the model gave no reply.
#[derive(Debug)]
#[non_exhaustive]
pub enum OpenAiError {
    /// [`OpenAiChat::from_env`](super::OpenAiChat::from_env): `OPENAI_MODEL`
    /// is not set.
    NoModel,
    /// An `https://` endpoint, and this build has no TLS (feature
    /// `openai-tls`).
    NoTls {
        /// The endpoint.
        url: String,
    },
    /// The endpoint is neither `http://` nor `https://`.
    NotHttp {
        /// The endpoint.
        url: String,
    },
    /// The HTTP client could not use the endpoint.
    BadUrl {
        /// The endpoint.
        url: String,
        /// Why.
        reason: String,
    },
    /// No whole answer within [`OpenAiChat::timeout`](super::OpenAiChat::timeout).
    Timeout {
        /// The endpoint.
        url: String,
        /// The time limit.
        timeout: Duration,
    },
    /// The answer is larger than
    /// [`OpenAiChat::max_response_bytes`](super::OpenAiChat::max_response_bytes).
    TooLarge {
        /// The endpoint.
        url: String,
        /// The limit, in bytes.
        limit: usize,
    },
    /// The connection was refused: no server listens there.
    ConnectionRefused {
        /// The endpoint.
        url: String,
    },
    /// The host's name does not resolve.
    HostNotFound {
        /// The endpoint.
        url: String,
    },
    /// No connection could be made.
    Connect {
        /// The endpoint.
        url: String,
    },
    /// The request failed otherwise.
    Request {
        /// The endpoint.
        url: String,
        /// The HTTP client's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The server answered with a status other than 2xx.
    Status {
        /// The endpoint.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The answer's `error.message`, or the start of its body.
        detail: String,
    },
    /// A 2xx answer that is not a chat completion (not JSON, no choices, a
    /// field of the wrong type).
    Answer {
        /// The endpoint.
        url: String,
        /// What is wrong, naming the field.
        reason: String,
    },
    /// The blocking task that ran the request failed (the async model).
    Task {
        /// The runtime's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl fmt::Display for OpenAiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenAiError::NoModel => f.write_str(
                "OPENAI_MODEL is not set: name the model to use, such as `gpt-4o-mini` \
                 or a local server's `llama3.1`",
            ),
            OpenAiError::NoTls { url } => write!(
                f,
                "{url} is https, and this build has no TLS: enable skills-bundle's \
                 `openai-tls` feature (without it only http:// endpoints work, such \
                 as a local Ollama, vLLM, llama.cpp or LM Studio server)"
            ),
            OpenAiError::NotHttp { url } => write!(
                f,
                "{url} is not an http:// or https:// URL (expected a base such as \
                 http://127.0.0.1:11434/v1)"
            ),
            OpenAiError::BadUrl { url, reason } => write!(f, "{url} is not a usable URL: {reason}"),
            OpenAiError::Timeout { url, timeout } => {
                write!(f, "no answer from {url} within {timeout:?} (timeout)")
            }
            OpenAiError::TooLarge { url, limit } => write!(
                f,
                "the answer from {url} is larger than max_response_bytes ({limit} bytes)"
            ),
            OpenAiError::ConnectionRefused { url } => write!(
                f,
                "could not connect to {url}: connection refused (is the server running?)"
            ),
            OpenAiError::HostNotFound { url } => {
                write!(f, "could not connect to {url}: host not found")
            }
            OpenAiError::Connect { url } => write!(f, "could not connect to {url}"),
            OpenAiError::Request { url, source } => {
                write!(f, "the request to {url} failed: {source}")
            }
            OpenAiError::Status {
                url,
                status,
                detail,
            } => write!(f, "HTTP {status} from {url}: {detail}"),
            OpenAiError::Answer { url, reason } => write!(f, "{reason} (from {url})"),
            OpenAiError::Task { source } => {
                write!(f, "the request's blocking task failed: {source}")
            }
        }
    }
}

impl std::error::Error for OpenAiError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenAiError::Request { source, .. } | OpenAiError::Task { source } => Some(&**source),
            _ => None,
        }
    }
}

//! The loop: a model, a [`Session`], and turns until the model answers.
//!
//! [`run`] sends the system prompt and the user's message to a
//! [`ChatModel`], then answers what comes back: function calls with
//! [`Session::call_tool`] (each result returned as a tool message), XML
//! instructions with [`Session::handle_xml`] (their replies returned as one
//! user message), until the model replies with text holding no instruction,
//! or `max_iterations` model calls have been made.
//!
//! The loop is written once, as `async` code. [`run`] drives it with a
//! blocking [`ChatModel`] and [`ScriptExecutor`], whose futures are ready at
//! once, so it never yields; [`run_async`] awaits it with an
//! [`AsyncChatModel`] and an [`AsyncScriptExecutor`].

use std::fmt;
use std::future::Future;

use crate::exec::{AsyncScriptExecutor, ScriptExecutor};
use crate::protocol;
use crate::session::{Blocking, NonBlocking, Runs, Session, ToolDefinition, ready_now};

/// Why a model call failed: the model's own error, boxed (an
/// `openai::OpenAiError` for `openai::OpenAiChat`, feature `openai`;
/// `downcast_ref` finds it).
/// Text converts with `.into()`.
pub type ModelError = Box<dyn std::error::Error + Send + Sync>;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The system prompt.
    System,
    /// The user, or the host speaking for the XML protocol's results.
    User,
    /// The model.
    Assistant,
    /// A function call's result.
    Tool,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// Its text.
    pub content: String,
    /// For [`Role::Assistant`]: the function calls it made.
    pub tool_calls: Vec<ToolCall>,
    /// For [`Role::Tool`]: the call it answers.
    pub tool_call_id: Option<String>,
}

impl Message {
    /// A message with text only.
    pub fn new(role: Role, content: impl Into<String>) -> Message {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
}

/// A function call made by the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The call's id, echoed in its result.
    pub id: String,
    /// The tool.
    pub name: String,
    /// The arguments, as JSON text.
    pub arguments: String,
}

/// What the model answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// Its text (may hold XML instructions).
    pub content: String,
    /// Its function calls.
    pub tool_calls: Vec<ToolCall>,
}

/// A chat model: messages in, one reply out. `definitions` holds
/// [`Session::tool_definitions`] when function calling is used, else
/// nothing.
pub trait ChatModel {
    /// One completion.
    fn complete(
        &mut self,
        messages: &[Message],
        definitions: &[ToolDefinition],
    ) -> Result<Reply, ModelError>;
}

/// The async twin of [`ChatModel`]. The future is `Send`, so a loop using
/// it can be spawned on a multi-threaded runtime.
pub trait AsyncChatModel {
    /// One completion.
    fn complete_async(
        &mut self,
        messages: &[Message],
        definitions: &[ToolDefinition],
    ) -> impl Future<Output = Result<Reply, ModelError>> + Send;
}

/// Asks a model for the loop, blocking or not.
trait Completes {
    fn completion(
        &mut self,
        messages: &[Message],
        definitions: &[ToolDefinition],
    ) -> impl Future<Output = Result<Reply, ModelError>> + Send;
}

/// A blocking model: the call happens in `completion`; its future is ready.
struct BlockingModel<'m>(&'m mut dyn ChatModel);

impl Completes for BlockingModel<'_> {
    fn completion(
        &mut self,
        messages: &[Message],
        definitions: &[ToolDefinition],
    ) -> impl Future<Output = Result<Reply, ModelError>> + Send {
        std::future::ready(self.0.complete(messages, definitions))
    }
}

/// An async model.
struct NonBlockingModel<'m, M>(&'m mut M);

impl<M: AsyncChatModel> Completes for NonBlockingModel<'_, M> {
    fn completion(
        &mut self,
        messages: &[Message],
        definitions: &[ToolDefinition],
    ) -> impl Future<Output = Result<Reply, ModelError>> + Send {
        self.0.complete_async(messages, definitions)
    }
}

/// How the model is told about skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// The XML instruction protocol in the system prompt.
    Xml,
    /// Function calling: the catalog in the system prompt, three tools.
    FunctionCalling,
}

/// Why the loop stopped without an answer.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoopError {
    /// The model failed.
    Model(ModelError),
    /// `max_iterations` model calls were made without an answer.
    MaxIterations(usize),
}

impl fmt::Display for LoopError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopError::Model(e) => write!(f, "the model failed: {e}"),
            LoopError::MaxIterations(n) => {
                write!(f, "no answer after {n} model calls (max_iterations)")
            }
        }
    }
}

impl std::error::Error for LoopError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoopError::Model(e) => Some(&**e),
            LoopError::MaxIterations(_) => None,
        }
    }
}

/// The default `max_iterations`.
pub const MAX_ITERATIONS: usize = 10;

/// Runs the conversation until the model answers the user; returns the
/// answer and the whole transcript.
pub fn run<E: ScriptExecutor>(
    model: &mut dyn ChatModel,
    session: &Session<E>,
    protocol: Protocol,
    user_message: &str,
    max_iterations: usize,
) -> Result<(String, Vec<Message>), LoopError> {
    ready_now(drive(
        &mut BlockingModel(model),
        session,
        &Blocking(session.executor()),
        protocol,
        user_message,
        max_iterations,
    ))
}

/// [`run`] with an async model and executor. The future is `Send` when the
/// model is `Send` and the executor `Sync`.
pub async fn run_async<M: AsyncChatModel, E: AsyncScriptExecutor + Sync>(
    model: &mut M,
    session: &Session<E>,
    protocol: Protocol,
    user_message: &str,
    max_iterations: usize,
) -> Result<(String, Vec<Message>), LoopError> {
    drive(
        &mut NonBlockingModel(model),
        session,
        &NonBlocking(session.executor()),
        protocol,
        user_message,
        max_iterations,
    )
    .await
}

/// The loop itself, for both.
async fn drive<E>(
    model: &mut impl Completes,
    session: &Session<E>,
    runs: &impl Runs,
    protocol: Protocol,
    user_message: &str,
    max_iterations: usize,
) -> Result<(String, Vec<Message>), LoopError> {
    // Read again before every model call: what the session offers the
    // model changes when the host touches a path that brings a
    // `paths`-scoped skill in.
    let offer = || match protocol {
        Protocol::Xml => (session.xml_prompt(), Vec::new()),
        Protocol::FunctionCalling => (
            session.function_calling_prompt(),
            session.tool_definitions(),
        ),
    };
    let (system, mut definitions) = offer();
    let mut messages = vec![
        Message::new(Role::System, system),
        Message::new(Role::User, user_message),
    ];
    for iteration in 0..max_iterations {
        if iteration > 0 {
            let (system, now) = offer();
            definitions = now;
            if let Some(first) = messages.first_mut() {
                first.content = system;
            }
        }
        let reply = model
            .completion(&messages, &definitions)
            .await
            .map_err(LoopError::Model)?;
        let instructions = if protocol == Protocol::Xml {
            protocol::parse(&reply.content)
        } else {
            Vec::new()
        };
        messages.push(Message {
            role: Role::Assistant,
            content: reply.content.clone(),
            tool_calls: reply.tool_calls.clone(),
            tool_call_id: None,
        });
        if !reply.tool_calls.is_empty() {
            for call in &reply.tool_calls {
                let result = session
                    .call_tool_with(runs, &call.name, &call.arguments)
                    .await
                    .unwrap_or_else(|e| format!("error: {e}"));
                messages.push(Message {
                    role: Role::Tool,
                    content: result,
                    tool_calls: Vec::new(),
                    tool_call_id: Some(call.id.clone()),
                });
            }
            continue;
        }
        if instructions.is_empty() {
            return Ok((reply.content, messages));
        }
        let mut results = Vec::with_capacity(instructions.len());
        for instruction in &instructions {
            results.push(session.handle_xml_with(runs, instruction).await);
        }
        messages.push(Message::new(Role::User, results.join("\n\n")));
    }
    Err(LoopError::MaxIterations(max_iterations))
}

#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![deny(unreachable_pub)]

use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

pub use rig_agent;
pub use rig_core;

use rig_agent::AgentBuilder;
use rig_agent::agent::{NoToolConfig, WithBuilderTools};
use rig_core::completion::options::{Mapping, OptionFields, OptionMap};
use rig_core::completion::{Accepts, CompletionRequest, FinishReason, ReplayTarget};
use rig_core::driver::{Exchange, Model, Opened, Opening, Transport};
use rig_core::error::{EncodeError, ProviderError};
use rig_core::message::{Api, ToolName};
use rig_core::operation::{Block, CallFragment, Completion, Finish};
use rig_core::tool::{DynamicTool, ToolErrorKind, ToolExecutionError, ToolOutput};
use rig_core::wire::document::{Reassemble, Serves};
use rig_core::wire::{Capabilities, Decoder, Descriptor, Flow, Mode, Out, Wire, WireEvent};
use rig_core::{DynModel, serde_json};

use skills_bundle::ReadError;
use skills_bundle::exec::AsyncScriptExecutor;
use skills_bundle::session::{Session, SessionError};

/// The session's tools as rig tools, in [`Session::tool_definitions`] order.
///
/// Each holds a clone of `session`, so they share its active skills and
/// policy (and with them whatever else holds the `Arc`).
pub fn tools<E>(session: Arc<Session<E>>) -> Vec<DynamicTool>
where
    E: AsyncScriptExecutor + Send + Sync + 'static,
{
    session
        .tool_definitions()
        .into_iter()
        .filter_map(|definition| {
            // Both are ours: a non-empty name and a schema written by
            // `tool_definitions`, which the session's tests parse. Skipping rather
            // than panicking keeps this total.
            let name = ToolName::new(definition.name).ok()?;
            let parameters = serde_json::from_str(&definition.parameters).ok()?;
            let tool = definition.name;
            let session = Arc::clone(&session);
            Some(DynamicTool::new(
                name,
                definition.description,
                parameters,
                move |arguments: serde_json::Value| {
                    let session = Arc::clone(&session);
                    Box::pin(async move {
                        session
                            .call_tool_async(tool, &arguments.to_string())
                            .await
                            .map(ToolOutput::text)
                            .map_err(tool_error)
                    })
                },
            ))
        })
        .collect()
}

/// A session's refusal or failure as rig's error: its kind, the session's
/// text for the model, and the error as its source.
fn tool_error(e: SessionError) -> ToolExecutionError {
    let message = e.to_string();
    let error = match &e {
        SessionError::ArgumentsNotJson { .. }
        | SessionError::MissingArgument { .. }
        | SessionError::ArgumentNotString { .. } => ToolExecutionError::invalid_args(message),
        SessionError::UnknownSkill { .. }
        | SessionError::UnknownTool { .. }
        | SessionError::Read(ReadError::NotFound { .. }) => ToolExecutionError::not_found(message),
        SessionError::Read(ReadError::BadPath { .. })
        | SessionError::Restricted(_)
        | SessionError::Denied { .. }
        | SessionError::NotApproved { .. }
        | SessionError::UserOnly { .. }
        | SessionError::OutOfScope { .. } => ToolExecutionError::refused(message),
        _ => ToolExecutionError::new(ToolErrorKind::Other, message),
    };
    error.with_source(e)
}

/// A builder that can take more tools: [`AgentBuilder`] before its first
/// tool and after. Sealed.
pub trait AddTools: sealed::Sealed {
    /// The builder with `tools` added.
    fn add_tools(self, tools: Vec<DynamicTool>) -> AgentBuilder<WithBuilderTools>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::AgentBuilder<super::NoToolConfig> {}
    impl Sealed for super::AgentBuilder<super::WithBuilderTools> {}
}

impl AddTools for AgentBuilder<NoToolConfig> {
    fn add_tools(self, tools: Vec<DynamicTool>) -> AgentBuilder<WithBuilderTools> {
        self.dynamic_tools(tools)
    }
}

impl AddTools for AgentBuilder<WithBuilderTools> {
    fn add_tools(self, tools: Vec<DynamicTool>) -> AgentBuilder<WithBuilderTools> {
        self.dynamic_tools(tools)
    }
}

/// `builder` with the session's catalog appended to its preamble
/// ([`Session::function_calling_prompt`]) and its [`tools`] added.
///
/// A skill takes several turns (activate, maybe read, run, answer), and a
/// rig agent makes one by default: raise it with `default_max_turns`.
pub fn with_skills<B, E>(
    builder: AgentBuilder<B>,
    session: Arc<Session<E>>,
) -> AgentBuilder<WithBuilderTools>
where
    AgentBuilder<B>: AddTools,
    E: AsyncScriptExecutor + Send + Sync + 'static,
{
    builder
        .append_preamble(&session.function_calling_prompt())
        .add_tools(tools(session))
}

/// One turn of a [`scripted_model`].
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// An answer in text, which ends the agent's run.
    Text(String),
    /// A call of a tool with JSON arguments.
    Call {
        /// The tool.
        name: String,
        /// Its arguments.
        arguments: serde_json::Value,
    },
}

impl Reply {
    /// [`Reply::Text`].
    pub fn text(text: impl Into<String>) -> Reply {
        Reply::Text(text.into())
    }

    /// [`Reply::Call`].
    pub fn call(name: impl Into<String>, arguments: serde_json::Value) -> Reply {
        Reply::Call {
            name: name.into(),
            arguments,
        }
    }
}

type Script = Box<dyn FnMut(&CompletionRequest) -> Reply + Send>;

/// A completion model that answers each request with `script(request)`,
/// without a network: the request holds the preamble, the tools and the
/// history (with every tool result so far), so a script can check what the
/// agent sent it and answer from it. Unary and streamed requests get the
/// same one-piece reply.
pub fn scripted_model<F>(script: F) -> DynModel<Completion>
where
    F: FnMut(&CompletionRequest) -> Reply + Send + 'static,
{
    Model::new(
        ScriptedWire,
        ScriptedRuntime {
            script: Arc::new(Mutex::new(Box::new(script))),
            calls: Arc::new(AtomicUsize::new(0)),
        },
    )
    .into()
}

/// The wire of [`scripted_model`]: the payload is the request itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ScriptedWire;

const SCRIPTED: &str = "scripted";

impl ReplayTarget for ScriptedWire {
    fn api(&self) -> Api {
        Api::from_static("skills.scripted")
    }

    fn provider(&self) -> &str {
        SCRIPTED
    }

    fn model(&self) -> &str {
        SCRIPTED
    }

    fn accepts(&self, _model: &str) -> Accepts {
        Accepts::ALL
    }

    fn map_options(&self, _request: &CompletionRequest, fields: OptionFields<'_>) -> OptionMap {
        let OptionFields {
            reasoning,
            cache,
            service_tier,
            verbosity,
            parallel_tool_calls,
            top_p,
            seed,
            stop,
        } = fields;
        let ignored = |set: bool| {
            if set {
                Mapping::Omit("a scripted reply ignores options")
            } else {
                Mapping::Nothing
            }
        };
        OptionMap {
            reasoning: ignored(reasoning.is_some()),
            cache: ignored(cache.is_some()),
            service_tier: ignored(service_tier.is_some()),
            verbosity: ignored(verbosity.is_some()),
            parallel_tool_calls: ignored(parallel_tool_calls.is_some()),
            top_p: ignored(top_p.is_some()),
            seed: ignored(seed.is_some()),
            stop: ignored(!stop.is_empty()),
        }
    }
}

impl Wire for ScriptedWire {
    type Op = Completion;
    type Payload = CompletionRequest;
    type Frame = Frame;
    type Decoder<'id> = ScriptedDecoder<'id>;
    type Reassembler = NoDocument;

    fn describe(&self) -> Descriptor<'_> {
        Descriptor::new(SCRIPTED)
            .model(Some(SCRIPTED))
            .capabilities(Capabilities::default())
            .replay(self)
    }

    fn encode(
        &self,
        request: CompletionRequest,
        _mode: Mode,
    ) -> Result<CompletionRequest, EncodeError> {
        Ok(request)
    }

    fn decoder<'id>(&self) -> ScriptedDecoder<'id> {
        ScriptedDecoder(PhantomData)
    }
}

/// One reply, whole, with the id of its call.
#[derive(Debug)]
struct Frame {
    call_id: String,
    reply: Reply,
}

#[derive(Clone)]
struct ScriptedRuntime {
    script: Arc<Mutex<Script>>,
    calls: Arc<AtomicUsize>,
}

impl Transport<ScriptedWire> for ScriptedRuntime {
    fn send(&self, request: CompletionRequest, _exchange: Exchange) -> Opening<Frame> {
        let reply = {
            let mut script = self.script.lock().unwrap_or_else(PoisonError::into_inner);
            script(&request)
        };
        let n = self.calls.fetch_add(1, Ordering::Relaxed);
        let frame = Frame {
            call_id: format!("call_{n}"),
            reply,
        };
        Opening::ready(Opened::new(Once(Some(Ok(frame)))))
    }
}

/// A stream of one item.
struct Once<T>(Option<T>);

impl<T: Unpin> futures_core::Stream for Once<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<T>> {
        Poll::Ready(self.0.take())
    }
}

struct ScriptedDecoder<'id>(PhantomData<fn(&'id ()) -> &'id ()>);

impl<'id> Decoder<'id, Completion, Frame> for ScriptedDecoder<'id> {
    type Event = Frame;

    fn classify(&self, frame: Frame) -> WireEvent<Frame> {
        WireEvent::Known(frame)
    }

    fn decode(
        &mut self,
        frame: Frame,
        mut out: Out<'id, Completion>,
    ) -> Result<Flow, ProviderError> {
        let reason = match frame.reply {
            Reply::Text(text) => {
                out.run(Block::Text, &text)?;
                out.end_run()?;
                FinishReason::Stop
            }
            Reply::Call { name, arguments } => {
                let index = out.fresh_index();
                let arguments = arguments.to_string();
                out.fragment(
                    Some(index),
                    CallFragment {
                        id: Some(&frame.call_id),
                        name: Some(&name),
                        arguments: Some(&arguments),
                    },
                )?;
                out.finish(index)?;
                FinishReason::ToolCalls
            }
        };
        Ok(out.end(Finish {
            reason: Some(reason),
            ..Finish::default()
        }))
    }
}

/// The scripted replies keep no provider document.
#[derive(Debug, Default)]
struct NoDocument;

impl Reassemble<Frame> for NoDocument {
    fn absorb(&mut self, _frame: &Frame) {}

    fn finish(self) -> serde_json::Value {
        serde_json::Value::Null
    }
}

impl Serves<Completion> for NoDocument {}

#[cfg(test)]
mod tests {
    use rig_core::tool::ToolResult;

    use super::*;
    use skills_bundle::PathError;

    /// Each kind of refusal keeps the session's text for the model and the
    /// error as its source.
    #[test]
    fn session_errors_become_rig_errors_of_their_kind() {
        let cases = [
            (
                SessionError::MissingArgument { name: "path" },
                ToolErrorKind::InvalidArgs,
                false,
            ),
            (
                SessionError::UnknownTool { name: "x".into() },
                ToolErrorKind::NotFound,
                false,
            ),
            (
                SessionError::Read(ReadError::BadPath {
                    path: "../x".into(),
                    reason: PathError::ParentDir,
                }),
                ToolErrorKind::PermissionDenied,
                true,
            ),
            (
                SessionError::NotApproved {
                    command: "ls".into(),
                },
                ToolErrorKind::PermissionDenied,
                true,
            ),
            (
                SessionError::Exec(skills_bundle::exec::ExecError::EmptyCommand),
                ToolErrorKind::Other,
                false,
            ),
        ];
        for (e, kind, refused) in cases {
            let text = e.to_string();
            let error = tool_error(e);
            assert_eq!(error.kind(), kind, "{text}");
            assert_eq!(error.model_feedback(), Some(text.as_str()));
            assert_eq!(
                error
                    .downcast_ref::<SessionError>()
                    .map(ToString::to_string),
                Some(text.clone())
            );
            assert_eq!(ToolResult::failed(error).is_refused(), refused, "{text}");
        }
    }
}

//! Why a [`Session`](super::Session) refused or failed a request: one
//! type for activation, reads, runs and tool calls, so a host can tell a
//! refusal from a failure by its variant.
//!
//! Its `Display` is the text the model reads (in a tool result, or inside
//! the XML protocol's `*_error` element): short, naming what was asked and
//! what to do instead. Changing a message changes what models see.

use std::fmt;

use super::tools::{ACTIVATE, READ, RUN};
use crate::exec::ExecError;
use crate::{ReadError, ToolRestrictionError};

/// Why a session request was refused or failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum SessionError {
    /// The bundle has no skill of this name.
    UnknownSkill {
        /// The name asked for.
        name: String,
        /// Every skill of the bundle.
        available: Vec<String>,
    },
    /// A file of the skill could not be read: a path outside the skill
    /// ([`ReadError::BadPath`], shown as `Illegal path: …`), a file the skill
    /// does not have, or damaged bytes.
    Read(ReadError),
    /// The file was read, and it is not UTF-8 text.
    NotText {
        /// The path, as asked.
        path: String,
        /// Its size in bytes.
        len: usize,
    },
    /// The model asked for a skill reserved for the user
    /// (`disable-model-invocation: true`).
    UserOnly {
        /// The skill.
        name: String,
    },
    /// The model asked for a `paths`-scoped skill that no path the session
    /// was told of concerns yet.
    OutOfScope {
        /// The skill.
        name: String,
        /// Its globs.
        paths: Vec<String>,
    },
    /// [`Mode::Restrict`](crate::Mode::Restrict): the skill's
    /// `allowed-tools` do not allow the command; displays as
    /// `Tool 'Bash' not allowed for skill 'pdf'. Allowed tools: [...]`.
    Restricted(ToolRestrictionError),
    /// A deny rule of the policy matched the command.
    Denied {
        /// The command line.
        command: String,
        /// The deny rule, as written.
        rule: String,
    },
    /// The skill's `allowed-tools` do not pre-approve the command, and an
    /// unattended session has nobody to ask.
    NotApproved {
        /// The command line.
        command: String,
    },
    /// The command line could not be split, or the executor could not run
    /// it.
    Exec(ExecError),
    /// A tool call's arguments are not JSON.
    ArgumentsNotJson {
        /// The JSON reader's message.
        message: String,
    },
    /// A tool call lacks a required argument.
    MissingArgument {
        /// The argument's name.
        name: &'static str,
    },
    /// A tool call's argument is not a string.
    ArgumentNotString {
        /// The argument's name.
        name: &'static str,
    },
    /// A tool call names a tool that does not exist.
    UnknownTool {
        /// The name called.
        name: String,
    },
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::UnknownSkill { name, available } => {
                write!(f, "no skill `{name}`; available: {}", available.join(", "))
            }
            SessionError::Read(e @ ReadError::BadPath { .. }) => write!(f, "Illegal path: {e}"),
            SessionError::Read(e) => e.fmt(f),
            SessionError::NotText { path, len } => {
                write!(f, "`{path}` is not UTF-8 text ({len} bytes)")
            }
            SessionError::UserOnly { name } => write!(
                f,
                "the skill `{name}` is reserved for the user (disable-model-invocation) and cannot be activated or used through `{ACTIVATE}`, `{READ}` or `{RUN}`. If it is what the task needs, ask the user to invoke `{name}` themselves; do not carry out its workflow by other means."
            ),
            SessionError::OutOfScope { name, paths } => write!(
                f,
                "the skill `{name}` applies only to files matching {}, and none has come up in this conversation yet; it is offered once one does",
                paths
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            SessionError::Restricted(e) => e.fmt(f),
            SessionError::Denied { command, rule } => {
                write!(f, "`{command}` is denied by the rule `{rule}`")
            }
            SessionError::NotApproved { command } => write!(
                f,
                "`{command}` is not pre-approved by the skill's allowed-tools, and there is nobody to ask in this session"
            ),
            SessionError::Exec(e) => e.fmt(f),
            SessionError::ArgumentsNotJson { message } => {
                write!(f, "the arguments are not JSON: {message}")
            }
            SessionError::MissingArgument { name } => write!(f, "`{name}` is missing"),
            SessionError::ArgumentNotString { name } => write!(f, "`{name}` must be a string"),
            SessionError::UnknownTool { name } => write!(
                f,
                "no tool `{name}`; the tools are {ACTIVATE}, {READ} and {RUN}"
            ),
        }
    }
}

impl std::error::Error for SessionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SessionError::Read(e) => Some(e),
            SessionError::Restricted(e) => Some(e),
            SessionError::Exec(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ReadError> for SessionError {
    fn from(e: ReadError) -> Self {
        SessionError::Read(e)
    }
}

impl From<ExecError> for SessionError {
    fn from(e: ExecError) -> Self {
        SessionError::Exec(e)
    }
}

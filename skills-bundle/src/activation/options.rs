//! What an activation is given ([`Options`]), how it fails
//! ([`ActivationError`]), and the `allowed-tools` rules it grants ([`Rule`]).

use std::fmt;

use super::claude_code;
use super::commands::{CommandError, RunCommand};
use crate::ReadError;
use skills_core::tools::ToolRule;

/// How to activate a skill; `Options::default()` is no arguments, the
/// virtual base directory, no session or project, commands not run.
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct Options<'o> {
    /// The arguments, as the model or the user wrote them (`$ARGUMENTS`).
    pub arguments: &'o str,
    /// The skill's directory (`${CLAUDE_SKILL_DIR}` and the header);
    /// `None` for `skill://<name>`.
    pub base_dir: Option<&'o str>,
    /// `${CLAUDE_SESSION_ID}`; `None` leaves it as written.
    pub session_id: Option<&'o str>,
    /// `${CLAUDE_PROJECT_DIR}`; `None` leaves it as written.
    pub project_dir: Option<&'o str>,
    /// What runs `` !`cmd` ``; `None` puts [`commands::marker`](super::commands::marker) in place.
    pub commands: Option<&'o dyn RunCommand>,
}

impl<'o> Options<'o> {
    /// These options with [`arguments`](Options::arguments) set.
    pub fn with_arguments(mut self, arguments: &'o str) -> Self {
        self.arguments = arguments;
        self
    }

    /// These options with [`base_dir`](Options::base_dir) set to `dir`.
    pub fn with_base_dir(mut self, dir: &'o str) -> Self {
        self.base_dir = Some(dir);
        self
    }

    /// These options with [`session_id`](Options::session_id) set to `id`.
    pub fn with_session_id(mut self, id: &'o str) -> Self {
        self.session_id = Some(id);
        self
    }

    /// These options with [`project_dir`](Options::project_dir) set to `dir`.
    pub fn with_project_dir(mut self, dir: &'o str) -> Self {
        self.project_dir = Some(dir);
        self
    }

    /// These options with [`commands`](Options::commands) set to `runner`.
    pub fn with_commands(mut self, runner: &'o dyn RunCommand) -> Self {
        self.commands = Some(runner);
        self
    }
}

impl fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("arguments", &self.arguments)
            .field("base_dir", &self.base_dir)
            .field("session_id", &self.session_id)
            .field("project_dir", &self.project_dir)
            .field("commands", &self.commands.map(|_| "RunCommand"))
            .finish()
    }
}

/// Why an activation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ActivationError {
    /// `SKILL.md` could not be read.
    Read(ReadError),
    /// A `` !`cmd` `` failed, which fails the activation (as in Claude Code).
    Command(CommandError),
}

impl fmt::Display for ActivationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActivationError::Read(e) => e.fmt(f),
            ActivationError::Command(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ActivationError {}

impl From<ReadError> for ActivationError {
    fn from(e: ReadError) -> Self {
        ActivationError::Read(e)
    }
}

/// An `allowed-tools` rule with the activation's variables filled.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The tool's name.
    pub tool: String,
    /// The argument pattern, if any.
    pub pattern: Option<String>,
}

impl Rule {
    /// `rule` with the activation's variables filled in its pattern: for
    /// `Bash`, a command line, each value as data
    /// ([`Vars::expand_in_command`](claude_code::Vars::expand_in_command):
    /// `Bash(${CLAUDE_SKILL_DIR}/x.sh:*)` with the directory `/a b` is
    /// `Bash('/a b'/x.sh:*)`, whose program is one word; a variable that
    /// cannot be placed is left as written, and such a pattern allows
    /// nothing); for other tools, [`Vars::expand`](claude_code::Vars::expand).
    pub fn expanded(rule: ToolRule<'_>, vars: &claude_code::Vars<'_>) -> Rule {
        let pattern = rule.pattern.map(|p| match rule.tool {
            "Bash" => vars.expand_in_command(p).unwrap_or_else(|_| p.to_string()),
            _ => vars.expand(p),
        });
        Rule {
            tool: rule.tool.to_string(),
            pattern,
        }
    }

    /// As a [`ToolRule`], for [`ToolPolicy::grant`](crate::ToolPolicy::grant).
    pub fn as_tool_rule(&self) -> ToolRule<'_> {
        ToolRule {
            tool: &self.tool,
            pattern: self.pattern.as_deref(),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_tool_rule().fmt(f)
    }
}

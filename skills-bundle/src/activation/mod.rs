//! Activation dialects: the text a client gives its model when a skill is
//! activated, as Claude Code and Codex give it (recorded in
//! `../shared/clients/BEHAVIOUR.md`), and what `` !`cmd` `` becomes.
//!
//! - [`claude_code`]: `Base directory for this skill: <dir>`, a blank line
//!   and the body with Claude Code's placeholders filled: what
//!   [`Skill::activate`](crate::Skill::activate) and the session give. The
//!   same variables are filled in the `allowed-tools` rules granted at
//!   activation ([`Rule`]), so `Bash(${CLAUDE_SKILL_DIR}/scripts/x.sh *)`
//!   allows the script it names.
//! - [`codex`]: the raw `SKILL.md` in a `<skill>` element
//!   ([`Skill::activate_codex`](crate::Skill::activate_codex)).
//! - [`commands`]: `` !`cmd` `` becomes a marker saying it was not run,
//!   unless [`Options::commands`] is given a [`RunCommand`] (on Unix with the
//!   `exec` feature, [`PolicyRunner`] runs each command once through a
//!   [`ToolPolicy`](crate::ToolPolicy) and a script executor).
//!
//! The skill's directory is what the caller names in [`Options::base_dir`]:
//! where its files were materialised when they were, else the virtual
//! `skill://<name>` that [`Skill::base_dir`](crate::Skill::base_dir) gives
//! and that the session's tools resolve.

pub mod claude_code;
pub mod codex;
pub mod commands;
#[cfg(all(unix, feature = "exec"))]
mod run;
mod shell_words;

use std::fmt;

pub use commands::{CommandError, RunCommand};
#[cfg(all(unix, feature = "exec"))]
pub use run::PolicyRunner;

use crate::ReadError;
use crate::tools::ToolRule;

/// How to activate a skill; `Options::default()` is no arguments, the
/// virtual base directory, no session or project, commands not run.
#[derive(Clone, Copy, Default)]
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
    /// What runs `` !`cmd` ``; `None` puts [`commands::marker`] in place.
    pub commands: Option<&'o dyn RunCommand>,
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
    /// `rule` with [`claude_code::Vars::expand`] applied to its pattern.
    pub fn expanded(rule: ToolRule<'_>, vars: &claude_code::Vars<'_>) -> Rule {
        Rule {
            tool: rule.tool.to_string(),
            pattern: rule.pattern.map(|p| vars.expand(p)),
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

/// Claude Code's split of arguments into `$0`, `$1`, ...: a bash command
/// line's words, never an error (see the `shell_words` rules in the
/// module's source).
pub fn split_arguments(arguments: &str) -> Vec<String> {
    shell_words::split(arguments)
}

/// The names of the frontmatter's `arguments` (as JSON text: a list, or a
/// string of blank-separated names); an item that is not a string keeps its
/// place with no name.
pub fn argument_names(json_text: &str) -> Vec<String> {
    use skills_core::json::{self, Value};
    match json::parse(json_text, 4).map(|n| n.value) {
        Ok(Value::Array(items)) => items
            .into_iter()
            .map(|n| match n.value {
                Value::String(s) => s,
                _ => String::new(),
            })
            .collect(),
        Ok(Value::String(s)) => s.split_whitespace().map(str::to_string).collect(),
        _ => Vec::new(),
    }
}

/// The other spelling of a command line that starts with the skill's
/// directory: `<base_dir>/scripts/x.sh a` is `scripts/x.sh a` run in that
/// directory, and the reverse. A policy check tries both, since a rule
/// written `Bash(${CLAUDE_SKILL_DIR}/scripts/x.sh *)` and a call written
/// relative to the skill (or the reverse) name the same file. `None` when
/// the program is neither (no `/`, or an absolute path elsewhere).
pub fn other_spelling(command: &str, base_dir: &str) -> Option<String> {
    let prefix = format!("{}/", base_dir.trim_end_matches('/'));
    if let Some(rel) = command.strip_prefix(&prefix) {
        let program = rel.split([' ', '\t']).next().unwrap_or_default();
        // Without a `/` the program would be looked up on `PATH`: another file.
        let inside = program.contains('/') && !program.starts_with('/');
        return inside.then(|| rel.to_string());
    }
    let program = command.split([' ', '\t']).next().unwrap_or_default();
    let relative = program.contains('/')
        && !program.starts_with('/')
        && !program.starts_with("./")
        && !program.split('/').any(|s| s == "..");
    relative.then(|| format!("{prefix}{command}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_names_from_a_list_or_a_string() {
        assert_eq!(argument_names(r#"["target", "mode"]"#), ["target", "mode"]);
        assert_eq!(argument_names(r#"["a", 1, "b"]"#), ["a", "", "b"]);
        assert_eq!(argument_names(r#""target  mode""#), ["target", "mode"]);
        assert!(argument_names("true").is_empty());
        assert!(argument_names("[[[[[[[[").is_empty());
    }

    #[test]
    fn rules_get_the_variables() {
        let vars = claude_code::Vars {
            skill_dir: "/s/demo",
            session_id: None,
            project_dir: Some("/p"),
        };
        let rule = |tool, pattern| ToolRule { tool, pattern };
        assert_eq!(
            Rule::expanded(
                rule("Bash", Some("${CLAUDE_SKILL_DIR}/scripts/x.sh *")),
                &vars
            )
            .to_string(),
            "Bash(/s/demo/scripts/x.sh *)"
        );
        assert_eq!(
            Rule::expanded(rule("Read", None), &vars).to_string(),
            "Read"
        );
        assert_eq!(
            Rule::expanded(
                rule(
                    "Edit",
                    Some("${CLAUDE_PROJECT_DIR}/** ${CLAUDE_SESSION_ID}")
                ),
                &vars
            )
            .to_string(),
            "Edit(/p/** ${CLAUDE_SESSION_ID})"
        );
    }

    #[test]
    fn both_spellings_of_a_skill_command() {
        let dir = "skill://demo";
        assert_eq!(
            other_spelling("skill://demo/scripts/x.sh a b", dir).as_deref(),
            Some("scripts/x.sh a b")
        );
        assert_eq!(
            other_spelling("scripts/x.sh a", dir).as_deref(),
            Some("skill://demo/scripts/x.sh a")
        );
        assert_eq!(
            other_spelling("/abs/bin/x.sh", "/abs/").as_deref(),
            Some("bin/x.sh")
        );
        for command in [
            "/abs/x.sh",
            "python3 x.py",
            "/bin/ls",
            "../x/y.sh",
            "./x.sh",
            "skill://demo/",
            "skill://demo//etc/x",
        ] {
            let dir = if command.starts_with("/abs") {
                "/abs"
            } else {
                dir
            };
            assert_eq!(other_spelling(command, dir), None, "{command}");
        }
    }
}

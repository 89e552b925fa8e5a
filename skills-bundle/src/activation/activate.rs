//! Activating a skill (level 2): its body with the placeholders filled and
//! each `` !`cmd` `` run or marked, and its `allowed-tools` rules with the
//! same variables filled.

use super::claude_code::{self, Vars};
use super::commands::{self, CommandError};
use super::{ActivationError, Options, Rule, argument_names, codex};
use crate::{ReadError, Skill};

/// A skill's instructions, prepared for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activation<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// The base directory the instructions' relative paths resolve against.
    pub base_dir: String,
    /// Claude Code's text: `Base directory for this skill: <dir>`, a blank
    /// line, then the body with its placeholders filled and each
    /// `` !`cmd` `` replaced ([`claude_code`]).
    pub content: String,
    /// The rules of `allowed-tools`, with the same variables filled
    /// (`${CLAUDE_SKILL_DIR}` and the others): what to grant.
    pub allowed_tools: Vec<Rule>,
}

impl<'a> Skill<'a> {
    /// Activates the skill (level 2) with the virtual base directory:
    /// [`Skill::activate_with`] with these arguments and nothing else.
    pub fn activate(&self, arguments: &str) -> Result<Activation<'a>, ReadError> {
        self.activate_in(&self.base_dir(), arguments)
    }

    /// Activates the skill with `base_dir` as its base directory (for
    /// example, where its files were materialised); `` !`cmd` `` is not run.
    pub fn activate_in(
        &self,
        base_dir: &str,
        arguments: &str,
    ) -> Result<Activation<'a>, ReadError> {
        let options = Options {
            arguments,
            base_dir: Some(base_dir),
            ..Options::default()
        };
        self.activation(&options, |command| Ok(marker(command)))
    }

    /// Activates the skill as Claude Code does ([`activation`](crate::activation)): the
    /// options' arguments, directory, session and project fill the
    /// placeholders of the body and of the `allowed-tools` rules, and each
    /// `` !`cmd` `` is run by [`Options::commands`] (its failure fails the
    /// activation) or, without one, replaced by a marker saying it was not.
    pub fn activate_with(&self, options: &Options<'_>) -> Result<Activation<'a>, ActivationError> {
        self.activation(options, |command| match (options.commands, command) {
            (Some(runner), Ok(command)) => {
                runner.run(self, &command).map_err(ActivationError::Command)
            }
            (Some(_), Err(e)) => Err(ActivationError::Command(e)),
            (None, command) => Ok(marker(command)),
        })
    }

    fn activation<E: From<ReadError>>(
        &self,
        options: &Options<'_>,
        run: impl FnMut(Result<String, CommandError>) -> Result<String, E>,
    ) -> Result<Activation<'a>, E> {
        let base_dir = options
            .base_dir
            .map_or_else(|| self.base_dir(), str::to_string);
        let vars = Vars {
            skill_dir: &base_dir,
            session_id: options.session_id,
            project_dir: options.project_dir,
        };
        let names = self
            .extensions()
            .find(|(key, _)| *key == "arguments")
            .map(|(_, json)| argument_names(json))
            .unwrap_or_default();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        // Claude Code reads the frontmatter's closing line with the blanks
        // (JavaScript's `\s`) after it; the end of the body stays as written.
        let body = self
            .body()?
            .trim_start_matches(skills_core::catalog::claude_code::is_js_whitespace);
        let content = claude_code::render(body, options.arguments, &names, &vars, run)?;
        Ok(Activation {
            name: &self.data.meta.name,
            allowed_tools: self
                .allowed_tools()
                .map(|rule| Rule::expanded(rule, &vars))
                .collect(),
            base_dir,
            content,
        })
    }

    /// Codex's activation ([`codex`]): the raw `SKILL.md` in a
    /// `<skill>` element naming the skill and `<dir>/SKILL.md`.
    pub fn activate_codex(&self, dir: &str) -> Result<String, ReadError> {
        let md = &*self.data.meta.skill_md;
        let md = if md.is_empty() { "SKILL.md" } else { md };
        let raw = self.read_to_str(md)?;
        let path = format!("{}/{md}", dir.trim_end_matches('/'));
        Ok(codex::render(self.name(), &path, raw))
    }
}

/// The marker for a command that is not run: the command as it would have
/// run, or as the author wrote it when it could not be built.
fn marker(command: Result<String, CommandError>) -> String {
    commands::marker(command.as_deref().unwrap_or_else(CommandError::command))
}

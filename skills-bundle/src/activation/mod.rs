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
//!   [`ToolPolicy`](crate::ToolPolicy) and a script executor). Commands are
//!   the author's only, found before any argument is filled in, and their
//!   placeholders are filled as data ([`claude_code`], "Commands").
//!
//! This module also owns the two spellings of a skill's program
//! ([`other_spelling`]): `<dir>/scripts/x.sh` and `scripts/x.sh`, compared
//! word by word, so a directory holding a space stays one word.
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

#[cfg(all(unix, feature = "exec"))]
use crate::policy::Decision;
use crate::tools::ToolRule;
use crate::{ReadError, shell};

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

/// Claude Code's split of arguments into `$0`, `$1`, ...: a bash command
/// line's words, never an error (see the `shell_words` rules in the
/// module's source).
pub fn split_arguments(arguments: &str) -> Vec<String> {
    shell_words::split(arguments)
}

/// The words `$ARGUMENTS` gives a command outside quotes: the arguments
/// grouped by blanks, quotes and backslashes, every other character kept
/// (`$`, `#`, `|`, `;` are data), each then quoted as one word.
pub fn argument_words(arguments: &str) -> Vec<String> {
    shell_words::data_words(arguments)
}

/// The names of the frontmatter's `arguments` (as JSON text: a list, or a
/// string of blank-separated names); an item that is not a string keeps its
/// place with no name.
pub fn argument_names(json_text: &str) -> Vec<String> {
    skills_core::meta::argument_names(json_text)
}

/// The other spelling of a command line whose program is in the skill's
/// directory: `<base_dir>/scripts/x.sh a` is `scripts/x.sh a` run in that
/// directory, and the reverse. A policy check tries both, since a rule
/// written `Bash(${CLAUDE_SKILL_DIR}/scripts/x.sh *)` and a call written
/// relative to the skill (or the reverse) name the same file. The program
/// is the command's first word ([`shell::split`]), so a directory with a
/// space is one word however it is quoted, and the other spelling is
/// written back with every word [quoted](shell::quote). `None` when the
/// program is neither (no `/`, or an absolute path elsewhere) or the line
/// does not split.
pub fn other_spelling(command: &str, base_dir: &str) -> Option<String> {
    let words = shell::split(command).ok()?;
    let (program, args) = words.split_first()?;
    let prefix = format!("{}/", base_dir.trim_end_matches('/'));
    if let Some(rel) = program.strip_prefix(&prefix) {
        // Without a `/` the program would be looked up on `PATH`: another file.
        let inside = rel.contains('/') && !rel.starts_with('/');
        return inside.then(|| spelled(rel, args));
    }
    let relative = program.contains('/')
        && !program.starts_with('/')
        && !program.starts_with("./")
        && !program.split('/').any(|s| s == "..");
    relative.then(|| spelled(&format!("{prefix}{program}"), args))
}

/// `command` relative to the skill's directory, when its program is a
/// file inside `base_dir`: `<base_dir>/scripts/x.sh a` is `scripts/x.sh a`.
/// See [`other_spelling`].
pub fn relative_spelling(command: &str, base_dir: &str) -> Option<String> {
    let program = shell::split(command).ok()?.into_iter().next()?;
    let prefix = format!("{}/", base_dir.trim_end_matches('/'));
    if program.starts_with(&prefix) {
        other_spelling(command, base_dir)
    } else {
        None
    }
}

/// `program` and `args` as a command line.
fn spelled(program: &str, args: &[String]) -> String {
    shell::join(std::iter::once(program).chain(args.iter().map(String::as_str)))
}

/// The decision on `command` for a skill whose directory is `base_dir`:
/// `check` on both spellings ([`other_spelling`]); a denial of either
/// wins, then an allowance of either, then the decision on `command`.
/// Also the line to run: the relative spelling when the program is inside
/// the skill (the executor runs programs relative to the skill's
/// materialised directory), else `command`.
#[cfg(all(unix, feature = "exec"))]
pub(crate) fn decide<'c>(
    command: &'c str,
    base_dir: &str,
    check: impl Fn(&str) -> Decision,
) -> (Decision, std::borrow::Cow<'c, str>) {
    let other = other_spelling(command, base_dir);
    let decision = match (check(command), other.as_deref().map(&check)) {
        (_, Some(denied @ Decision::Denied { .. })) => denied,
        (Decision::Ask | Decision::Restricted(_), Some(allow @ Decision::Allow { .. })) => allow,
        (first, _) => first,
    };
    let line = match relative_spelling(command, base_dir) {
        Some(rel) => std::borrow::Cow::Owned(rel),
        None => std::borrow::Cow::Borrowed(command),
    };
    (decision, line)
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
        // Word by word: a directory with a space is one word however it is
        // quoted, and the other spelling is quoted back.
        let spaced = "/tmp/my skills/demo";
        for command in [
            "'/tmp/my skills/demo/scripts/x.sh' 'a b'",
            "\"/tmp/my skills/demo\"/scripts/x.sh \"a b\"",
            "/tmp/my\\ skills/demo/scripts/x.sh a\\ b",
        ] {
            assert_eq!(
                other_spelling(command, spaced).as_deref(),
                Some("scripts/x.sh 'a b'"),
                "{command}"
            );
            assert_eq!(
                relative_spelling(command, spaced).as_deref(),
                Some("scripts/x.sh 'a b'")
            );
        }
        assert_eq!(
            other_spelling("scripts/x.sh 'a b'", spaced).as_deref(),
            Some("'/tmp/my skills/demo/scripts/x.sh' 'a b'")
        );
        assert_eq!(relative_spelling("scripts/x.sh", spaced), None);
        // Unquoted, the space splits: `/tmp/my` is the program, elsewhere.
        assert_eq!(
            other_spelling("/tmp/my skills/demo/scripts/x.sh", spaced),
            None
        );
        for command in [
            "/abs/x.sh",
            "python3 x.py",
            "scripts/x.sh $(id)",
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

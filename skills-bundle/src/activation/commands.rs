//! `` !`cmd` `` in a skill's instructions: found, then either replaced by a
//! marker saying it was not run (the default) or by its output (opt-in,
//! through a [`RunCommand`]).
//!
//! Claude Code runs such a command when the skill is activated and puts
//! its output in place, inline or inside a code fence alike. Running what a
//! skill's text says, at activation and without the model asking, is a
//! decision for whoever embeds the skill, so this crate never does it by
//! default: the model gets [`marker`] instead. A command is `!` then a
//! backquoted run of at least one character without a backquote, at the
//! start of the text or after a blank; it is found once, in the text after
//! placeholder substitution, and a command's output is never searched for
//! more commands.

use std::fmt;

use crate::Skill;

/// Runs the `` !`cmd` `` of an activation; see [`crate::activation`].
pub trait RunCommand {
    /// The text that replaces `` !`command` ``, or why the activation fails.
    fn run(&self, skill: &Skill<'_>, command: &str) -> Result<String, CommandError>;
}

/// Why a `` !`cmd` `` failed, failing the whole activation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandError {
    /// The command holds a braced shell expansion (`${…}`), which Claude
    /// Code refuses too.
    BracedExpansion {
        /// The command, after substitution.
        command: String,
    },
    /// The policy did not allow the command.
    Refused {
        /// The command.
        command: String,
        /// The policy's reason.
        reason: String,
    },
    /// The command could not be started.
    NotRun {
        /// The command.
        command: String,
        /// Why.
        reason: String,
    },
    /// The command ran and failed: a non-zero exit, a signal or the time
    /// limit.
    Failed {
        /// The command.
        command: String,
        /// How it ended (`exit code 2`, `killed at the time limit`).
        status: String,
        /// Its standard error.
        stderr: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::BracedExpansion { command } => write!(
                f,
                "the skill's command !`{command}` holds a braced shell expansion `${{…}}`, which is not run"
            ),
            CommandError::Refused { command, reason } => {
                write!(
                    f,
                    "the skill's command !`{command}` was not allowed: {reason}"
                )
            }
            CommandError::NotRun { command, reason } => {
                write!(
                    f,
                    "the skill's command !`{command}` could not be run: {reason}"
                )
            }
            CommandError::Failed {
                command,
                status,
                stderr,
            } => {
                write!(f, "the skill's command !`{command}` failed ({status})")?;
                if !stderr.is_empty() {
                    write!(f, "; its stderr:\n{stderr}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// What the model reads in place of a command that was not run.
pub fn marker(command: &str) -> String {
    format!(
        "[command not run: !`{command}` — running commands from a skill's instructions is off by default; the host can turn it on (`skills show --run-commands`, or a command runner in the activation options)]"
    )
}

/// `text` with each command replaced by `replace(command)`, in order; the
/// first error stops and is returned.
pub fn replace<E>(
    text: &str,
    mut replace: impl FnMut(&str) -> Result<String, E>,
) -> Result<String, E> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut after_blank = true;
    while let Some(at) = rest.find("!`") {
        let (before, from) = rest.split_at(at);
        let starts = before
            .chars()
            .next_back()
            .map_or(after_blank, char::is_whitespace);
        let body = &from[2..];
        let close = body.find('`').filter(|&n| n > 0);
        out.push_str(before);
        match close {
            Some(n) if starts => {
                out.push_str(&replace(&body[..n])?);
                rest = &body[n + 1..];
                after_blank = false;
            }
            _ => {
                out.push('!');
                rest = &from[1..];
                after_blank = false;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// What a command printed, as Claude Code puts it in place: standard
/// output then standard error, each without trailing blanks, joined by a
/// line break when both have something.
pub fn output_text(stdout: &str, stderr: &str) -> String {
    [stdout.trim_end(), stderr.trim_end()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_all(text: &str) -> String {
        replace::<()>(text, |c| Ok(format!("<{c}>"))).unwrap_or_default()
    }

    #[test]
    fn finds_inline_and_fenced_commands() {
        assert_eq!(
            run_all(
                "Inline text !`echo one` mid-line.\n```\n!`echo in-fence`\n```\nNo-bang `echo two`.\n"
            ),
            "Inline text <echo one> mid-line.\n```\n<echo in-fence>\n```\nNo-bang `echo two`.\n"
        );
        assert_eq!(run_all("!`a`"), "<a>");
        assert_eq!(run_all("x\t!`a` !`b`"), "x\t<a> <b>");
    }

    #[test]
    fn leaves_what_is_no_command() {
        for text in [
            "wow!`a`",
            "!``",
            "!`never closed",
            "a!",
            "!",
            "`x` !",
            "!!`a`",
        ] {
            assert_eq!(run_all(text), text);
        }
        // Output is not searched again.
        assert_eq!(
            replace::<()>("!`a` b", |_| Ok(" !`b`".into())).unwrap_or_default(),
            " !`b` b"
        );
    }

    #[test]
    fn the_first_error_stops() {
        let mut seen = Vec::new();
        let r = replace("!`a` !`b` !`c`", |c| {
            seen.push(c.to_string());
            if c == "b" {
                Err("no")
            } else {
                Ok(String::new())
            }
        });
        assert_eq!(r, Err("no"));
        assert_eq!(seen, ["a", "b"]);
    }

    #[test]
    fn output_is_stdout_then_stderr() {
        assert_eq!(output_text("out\n", "err\n"), "out\nerr");
        assert_eq!(output_text("", "err\n"), "err");
        assert_eq!(output_text("  x  \n\n", ""), "  x");
        assert!(marker("echo hi").contains("!`echo hi`"));
    }
}

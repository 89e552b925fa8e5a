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
//! start of the text or after a blank (the record's form, inline or on a
//! line inside a code fence), or a block opened by a line starting with
//! ```` ```! ```` and closed by the next ```` ``` ````, whose text is the
//! command (Claude Code's documented multi-line form; not in the record).
//!
//! Commands are found once, in the author's text as written, before any
//! placeholder is filled ([`pieces`]): an argument can never add a command
//! (Claude Code finds them after substitution, so an argument holding
//! `` !`cmd` `` runs `cmd`). A command's output is never searched for more
//! commands. How placeholders are filled inside a command, as data, is
//! [`claude_code`](super::claude_code)'s.

use std::fmt;

use crate::Skill;
use skills_core::catalog::claude_code::is_js_whitespace;

/// Runs the `` !`cmd` `` of an activation; see [`crate::activation`].
pub trait RunCommand {
    /// The text that replaces `` !`command` ``, or why the activation fails.
    /// `command` is one the skill's author wrote, its placeholders filled
    /// as data ([`claude_code`](super::claude_code), "Commands").
    fn run(&self, skill: &Skill<'_>, command: &str) -> Result<String, CommandError>;
}

/// Why a `` !`cmd` `` failed, failing the whole activation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CommandError {
    /// A placeholder stands where its value could not be passed as data
    /// (in a comment, after `$(`, …); see
    /// [`shell::Line`](crate::shell::Line).
    Unplaceable {
        /// The command as the author wrote it, placeholders unfilled.
        command: String,
        /// Which placeholder, and where it stands.
        reason: String,
    },
    /// The command holds a braced shell expansion (`${…}`), which Claude
    /// Code refuses too.
    BracedExpansion {
        /// The command, its placeholders filled.
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

impl CommandError {
    /// The command: as run, or as the author wrote it when it could not be
    /// built ([`CommandError::Unplaceable`]).
    pub fn command(&self) -> &str {
        match self {
            CommandError::Unplaceable { command, .. }
            | CommandError::BracedExpansion { command }
            | CommandError::Refused { command, .. }
            | CommandError::NotRun { command, .. }
            | CommandError::Failed { command, .. } => command,
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unplaceable { command, reason } => write!(
                f,
                "the skill's command !`{command}` cannot take its arguments as data: {reason}; quote the placeholder or move it out of that construct"
            ),
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
        "[command not run: !`{command}` — running commands from a skill's instructions is off by default; the host can turn it on (`skb show --run-commands`, or a command runner in the activation options)]"
    )
}

/// A piece of a skill's text: text, or the text of one command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'t> {
    /// Text around the commands.
    Text(&'t str),
    /// A command's text, without `` !` `` and `` ` `` (or the block's
    /// fences and surrounding blanks).
    Command(&'t str),
}

/// `text` with each command replaced by `replace(command)`, in order; the
/// first error stops and is returned.
pub fn replace<E>(
    text: &str,
    mut replace: impl FnMut(&str) -> Result<String, E>,
) -> Result<String, E> {
    let mut out = String::with_capacity(text.len());
    for piece in pieces(text) {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Command(c) => out.push_str(&replace(c)?),
        }
    }
    Ok(out)
}

/// `text` cut into text and commands, in order (empty text pieces left
/// out); see the module documentation for what a command is.
pub fn pieces(text: &str) -> Vec<Piece<'_>> {
    fn push_text<'t>(out: &mut Vec<Piece<'t>>, t: &'t str) {
        if !t.is_empty() {
            out.push(Piece::Text(t));
        }
    }
    let mut out = Vec::new();
    // Bytes of `text` already handled; text before `from` not yet pushed.
    let mut pos = 0;
    let mut from = 0;
    let mut blocks = text
        .match_indices(BLOCK)
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text[..i].ends_with('\n'))
        .peekable();
    loop {
        while blocks.next_if(|&b| b < pos).is_some() {}
        let inline = text[pos..].find("!`").map(|i| pos + i);
        match (blocks.peek().copied(), inline) {
            (Some(b), i) if i.is_none_or(|i| b < i) => {
                blocks.next();
                let inner = b + BLOCK.len();
                let Some(close) = text[inner..].find("```") else {
                    continue;
                };
                let command = text[inner..inner + close].trim_matches(is_js_whitespace);
                if command.is_empty() {
                    continue;
                }
                push_text(&mut out, &text[from..b]);
                out.push(Piece::Command(command));
                pos = inner + close + 3;
                from = pos;
            }
            (_, Some(i)) => {
                let starts = text[..i]
                    .chars()
                    .next_back()
                    .is_none_or(char::is_whitespace);
                let body = &text[i + 2..];
                match body.find('`').filter(|&n| n > 0) {
                    Some(n) if starts => {
                        push_text(&mut out, &text[from..i]);
                        out.push(Piece::Command(&body[..n]));
                        pos = i + 2 + n + 1;
                        from = pos;
                    }
                    _ => pos = i + 1,
                }
            }
            (_, None) => break,
        }
    }
    push_text(&mut out, &text[from..]);
    out
}

/// What opens a command block, at the start of a line.
const BLOCK: &str = "```!";

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
    fn finds_command_blocks_at_line_starts() {
        assert_eq!(
            run_all("a\n```!\ngit status\ngit diff\n```\nb"),
            "a\n<git status\ngit diff>\nb"
        );
        assert_eq!(run_all("```! date ```"), "<date>");
        // Not at a line start, empty, or never closed: no block.
        for text in ["x ```!\ndate\n```", "```!\n \n```", "```!\ndate"] {
            assert_eq!(run_all(text), text);
        }
        // An inline command inside a block is the block's text.
        assert_eq!(run_all("```!\necho !`x`\n```"), "<echo !`x`>");
        // A block's output is not searched again.
        assert_eq!(
            replace::<()>("```!\nx\n``` !`y`", |c| Ok(format!("[{c}] !`z`"))).unwrap_or_default(),
            "[x] !`z` [y] !`z`"
        );
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

//! Running `` !`cmd` `` when the host opts in: each command once, checked
//! by a [`ToolPolicy`] as a `Bash` call, then run by a [`ScriptExecutor`]
//! in the skill's directory with the executor's environment, time limit and
//! output caps.
//!
//! A command line without shell syntax runs without a shell (split as
//! [`split_args`] splits it). One with shell syntax (`echo a; echo b`)
//! needs `/bin/sh -c`, which runs only when both the policy allows that
//! very line (an allow rule with a pattern never matches a line holding a
//! shell operator, so it takes a rule without a pattern, `Bash`, or the
//! policy's override) and the executor allows a shell. Nobody is asked
//! during an activation: [`Decision::Ask`] is a refusal.

use super::commands::{CommandError, RunCommand, output_text};
use crate::Skill;
use crate::exec::{Command, ScriptExecutor, SplitError, split_args};
use crate::policy::{Decision, ToolPolicy};

/// A [`RunCommand`] over a policy and an executor; see the module
/// documentation.
#[derive(Debug, Clone, Copy)]
pub struct PolicyRunner<'r, E> {
    /// Decides each command, as a `Bash` call. Grant the skill's
    /// [`Activation::allowed_tools`](crate::Activation::allowed_tools)
    /// first for them to count.
    pub policy: &'r ToolPolicy,
    /// Runs the allowed commands.
    pub executor: &'r E,
}

impl<E: ScriptExecutor> RunCommand for PolicyRunner<'_, E> {
    fn run(&self, skill: &Skill<'_>, command: &str) -> Result<String, CommandError> {
        let refused = |reason: String| CommandError::Refused {
            command: command.to_string(),
            reason,
        };
        if command.contains("${") {
            return Err(CommandError::BracedExpansion {
                command: command.to_string(),
            });
        }
        match self.policy.check("Bash", Some(command)) {
            Decision::Allow { .. } => {}
            Decision::Ask => {
                return Err(refused(format!(
                    "no rule allows `Bash({command})`, and nobody is asked during an activation"
                )));
            }
            Decision::Denied { rule } => return Err(refused(format!("denied by `{rule}`"))),
            Decision::Restricted(e) => return Err(refused(e.to_string())),
        }
        let invocation = match split_args(command) {
            Ok(argv) => Command::argv(argv),
            Err(SplitError::ShellSyntax { .. }) => Command::shell(command),
            Err(e) => {
                return Err(CommandError::NotRun {
                    command: command.to_string(),
                    reason: e.to_string(),
                });
            }
        };
        let out = self
            .executor
            .run(skill, &invocation)
            .map_err(|e| CommandError::NotRun {
                command: command.to_string(),
                reason: e.to_string(),
            })?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.success() {
            return Ok(output_text(&stdout, &stderr));
        }
        let status = match (out.timed_out, out.exit_code, out.signal) {
            (true, _, _) => "killed at the time limit".to_string(),
            (_, Some(code), _) => format!("exit code {code}"),
            (_, None, Some(signal)) => format!("killed by signal {signal}"),
            (_, None, None) => "no exit status".to_string(),
        };
        Err(CommandError::Failed {
            command: command.to_string(),
            status,
            stderr: stderr.trim_end().to_string(),
        })
    }
}

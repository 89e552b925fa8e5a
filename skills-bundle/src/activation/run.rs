//! Running `` !`cmd` `` when the host opts in: each command once, checked
//! by a [`ToolPolicy`] as a `Bash` call, then run by a [`ScriptExecutor`]
//! in the skill's directory with the executor's environment, time limit and
//! output caps.
//!
//! What a line needs is [`shell`]'s one answer. A line without shell syntax
//! runs without a shell (split by [`shell::split`]). One with shell syntax
//! (`echo a; echo b`) needs `/bin/sh -c`, which runs only when both the
//! policy allows that very line (an allow rule with a pattern never matches
//! a line with shell syntax, by the same definition, so it takes a rule
//! without a pattern, `Bash`, or the policy's override) and the executor
//! allows a shell. The arguments cannot add shell syntax: they reach the
//! command quoted ([`claude_code`](super::claude_code)). Nobody is asked
//! during an activation: [`Decision::Ask`] is a refusal.
//!
//! With [`PolicyRunner::base_dir`], a program inside the skill's directory
//! may be written either way, `<dir>/scripts/x.sh` or `scripts/x.sh`, in
//! the command and in the rule ([`other_spelling`](super::other_spelling)),
//! and runs as the same file in the skill's materialised directory.

use std::borrow::Cow;

use super::commands::{CommandError, RunCommand, output_text};
use crate::Skill;
use crate::exec::{Command, ScriptExecutor};
use crate::policy::{Decision, ToolPolicy};
use crate::shell::{self, SplitError};

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
    /// The directory `${CLAUDE_SKILL_DIR}` was filled with
    /// ([`Options::base_dir`](super::Options::base_dir), or
    /// [`Skill::base_dir`](crate::Skill::base_dir)); `None` leaves programs
    /// as written.
    pub base_dir: Option<&'r str>,
}

impl<E: ScriptExecutor> RunCommand for PolicyRunner<'_, E> {
    fn run(&self, skill: &Skill<'_>, command: &str) -> Result<String, CommandError> {
        let refused = |reason: String| CommandError::Refused {
            command: command.to_string(),
            reason,
        };
        if shell::braced_expansion(command).is_some() {
            return Err(CommandError::BracedExpansion {
                command: command.to_string(),
            });
        }
        let check = |line: &str| self.policy.check("Bash", Some(line));
        let (decision, line) = match self.base_dir {
            Some(dir) => super::decide(command, dir, check),
            None => (check(command), Cow::Borrowed(command)),
        };
        let shell_syntax = match shell::split(command) {
            Err(SplitError::ShellSyntax { found, at }) => format!(
                "; it holds shell syntax (`{}` at byte {at}), which only a rule without a pattern (`Bash`) allows",
                found.escape_default()
            ),
            _ => String::new(),
        };
        match decision {
            Decision::Allow { .. } => {}
            Decision::Ask => {
                return Err(refused(format!(
                    "no rule allows `Bash({command})`{shell_syntax}, and nobody is asked during an activation"
                )));
            }
            Decision::Denied { rule } => return Err(refused(format!("denied by `{rule}`"))),
            Decision::Restricted(e) => return Err(refused(format!("{e}{shell_syntax}"))),
        }
        let invocation = match shell::split(&line) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mode;
    use crate::activation::{ActivationError, Options, Rule};
    use crate::exec::LocalExecutor;
    use crate::exec::testing::bundle_with_body;

    /// Activates `demo` (body `body`, rules `rules`) with commands run under
    /// a policy granting the skill's rules and `extra`.
    fn activate(
        body: &str,
        rules: &[(&str, Option<&str>)],
        extra: &[ToolRule<'_>],
        shell: bool,
    ) -> Result<String, ActivationError> {
        let tmp = tempfile::tempdir().expect("tempdir");
        let bundle = bundle_with_body("demo", body, rules, &[]);
        let skill = bundle.get("demo").expect("skill");
        let mut executor = LocalExecutor::new(tmp.path());
        executor.allow_shell = shell;
        let policy = ToolPolicy::new(Mode::PreApprove);
        let vars = super::super::claude_code::Vars {
            skill_dir: "/s/demo",
            ..Default::default()
        };
        let granted: Vec<Rule> = skill
            .allowed_tools()
            .map(|r| Rule::expanded(r, &vars))
            .collect();
        policy.grant("demo", granted.iter().map(Rule::as_tool_rule));
        policy.grant("host", extra.iter().copied());
        let runner = PolicyRunner {
            policy: &policy,
            executor: &executor,
            base_dir: Some("/s/demo"),
        };
        let options = Options {
            base_dir: Some("/s/demo"),
            commands: Some(&runner),
            ..Options::default()
        };
        skill.activate_with(&options).map(|a| a.content)
    }

    use skills_core::tools::ToolRule;

    fn rule<'a>(tool: &'a str, pattern: Option<&'a str>) -> ToolRule<'a> {
        ToolRule { tool, pattern }
    }

    fn body(text: Result<String, ActivationError>) -> String {
        match text {
            Ok(t) => t
                .trim_start_matches("Base directory for this skill: /s/demo\n\n")
                .to_string(),
            Err(e) => panic!("activation failed: {e}"),
        }
    }

    fn error(text: Result<String, ActivationError>) -> String {
        match text {
            Ok(t) => panic!("activated: {t}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn allowed_commands_run_once_in_place() {
        let echo = [rule("Bash", Some("echo:*"))];
        assert_eq!(
            body(activate(
                "A !`echo one` B\n```\n!`echo two`\n```\n",
                &[],
                &echo,
                false
            )),
            "A one B\n```\ntwo\n```\n"
        );
        // The skill's own rule counts.
        assert_eq!(
            body(activate(
                "!`printf x`",
                &[("Bash", Some("printf:*"))],
                &[],
                false
            )),
            "x"
        );
        // Output is not searched for more commands.
        assert_eq!(body(activate("!`echo !``", &[], &echo, false)), "!`");
    }

    #[test]
    fn nobody_is_asked() {
        let e = error(activate("!`echo hi`", &[], &[], false));
        assert!(
            e.contains("!`echo hi` was not allowed: no rule allows `Bash(echo hi)`"),
            "{e}"
        );
    }

    #[test]
    fn a_shell_needs_a_rule_without_pattern_and_an_executor_that_allows_one() {
        let line = "!`echo out; echo err 1>&2`";
        let e = error(activate(line, &[], &[rule("Bash", Some("echo:*"))], true));
        assert!(e.contains("was not allowed"), "{e}");
        let e = error(activate(line, &[], &[rule("Bash", None)], false));
        assert!(
            e.contains("could not be run") && e.contains("does not allow a shell"),
            "{e}"
        );
        assert_eq!(
            body(activate(line, &[], &[rule("Bash", None)], true)),
            "out\nerr"
        );
    }

    #[test]
    fn failures_fail_the_activation_with_stderr() {
        let ls = [rule("Bash", Some("ls:*"))];
        let e = error(activate("!`ls does-not-exist-here`", &[], &ls, false));
        assert!(
            e.starts_with("the skill's command !`ls does-not-exist-here` failed (exit code 2); its stderr:\nls: "),
            "{e}"
        );
        let e = error(activate(
            "!`echo ${HOME}`",
            &[],
            &[rule("Bash", None)],
            true,
        ));
        assert!(e.contains("braced shell expansion"), "{e}");
    }
}

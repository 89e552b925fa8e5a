//! `SK309`: an `allowed-tools` rule that looks scoped and lets any program
//! run.
//!
//! `Bash(python3:*)` reads as "the calculator may use Python", but a
//! prefix rule pre-approves every argument, and `python3 -c '…'` is any
//! program. The same holds for every program that runs code named in its
//! arguments:
//!
//! - shells and interpreters (`sh`, `bash`, `python3`, `node`, `perl`,
//!   `ruby`, `deno`, …): safe only when the pattern fixes the script they
//!   run (`Bash(python3 scripts/calc.py:*)`; for Python also `-m module`),
//!   since what follows a script is the script's own arguments;
//! - launchers, which start a program their arguments name (`env`,
//!   `xargs`, `sudo`, `timeout`, `npx`, `find -exec`, …), and languages
//!   whose options may follow their program text (`sed`'s `e` command,
//!   `awk`'s `system()`, `make --eval`): any wildcard lets anything run;
//! - tools with subcommands, some of which run commands (`git -c
//!   alias.x=!cmd`, `git grep -O`, `npm exec`, `docker run`): safe only
//!   when the pattern fixes a subcommand that does not
//!   (`Bash(git status:*)`).
//!
//! A pattern without a wildcard is one exact command and is never
//! flagged; nor is a rule without a pattern (`Bash`), which says plainly
//! that it allows everything. Which programs are open, and when, is
//! decided once in [`skills_core::tools::any_program`], which the scanner
//! asks too; this module turns its answer into the warning.

use std::ops::Range;

use crate::diag::Code;
use crate::rules::Ctx;
use crate::yaml::{Node, Value};
use skills_core::tools::{self, ToolRule};

/// Reports every rule of `value` (the `allowed-tools` node) that lets any
/// program run; see the module documentation.
pub(crate) fn check(ctx: &mut Ctx<'_>, value: &Node) {
    let items: Vec<(&str, Range<usize>)> = match &value.value {
        Value::Str(s) => vec![(s.as_str(), value.span.clone())],
        Value::Seq(items) => items
            .iter()
            .filter_map(|n| n.as_str().map(|s| (s, n.span.clone())))
            .collect(),
        Value::Map(_) => Vec::new(),
    };
    for (text, span) in items {
        for rule in tools::split(text) {
            let Some(program) = any_program(rule) else {
                continue;
            };
            // The rule itself when the value holds it as written (a plain or
            // one-line scalar), else the whole value.
            let written = rule.to_string();
            let at = ctx
                .source
                .bytes()
                .get(span.clone())
                .and_then(|b| std::str::from_utf8(b).ok())
                .and_then(|s| s.find(&written))
                .map_or(span.clone(), |i| {
                    span.start + i..span.start + i + written.len()
                });
            ctx.report(
                Code::AllowedToolsAnyProgram,
                Some(at),
                format!(
                    "`{written}` lets `{program}` run any program: its arguments can name the code it runs"
                ),
            )
            .set_help(
                "name what runs: the script (`Bash(python3 scripts/x.py:*)`) or the subcommand (`Bash(git status:*)`); or drop the rule, so each call is approved",
            );
        }
    }
}

/// The program a `Bash` rule lets run any code, if it does (the decision
/// is [`skills_core::tools::any_program`]'s, shared with the scanner).
fn any_program(rule: ToolRule<'_>) -> Option<String> {
    let pattern = rule.pattern?;
    if !tool_matches_bash(rule.tool) {
        return None;
    }
    tools::any_program::any_program(pattern).map(|open| open.program)
}

/// Whether a rule's tool name (possibly a glob) covers `Bash`.
fn tool_matches_bash(tool: &str) -> bool {
    tool == "Bash" || (tool.contains('*') && skills_core::glob::matches(tool, "Bash"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flagged(rule: &str) -> Option<String> {
        any_program(tools::rule(rule))
    }

    #[test]
    fn only_shell_rules_are_judged() {
        assert_eq!(flagged("Bash(python3:*)").as_deref(), Some("python3"));
        assert_eq!(flagged("B*(awk:*)").as_deref(), Some("awk"));
        assert_eq!(flagged("Read(python3:*)"), None);
        assert_eq!(flagged("Bash"), None);
        assert_eq!(flagged("Bash(python3 scripts/calc.py:*)"), None);
    }
}

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
//! that it allows everything. The tables name the programs real skills
//! reach for; a program outside them is not judged.

use std::ops::Range;

use crate::diag::Code;
use crate::rules::Ctx;
use crate::yaml::{Node, Value};
use skills_core::tools::{self, ToolRule};

/// Shells and interpreters: the first operand is the script (or, after
/// `-c`/`-e`, the code).
const INTERPRETERS: &[&str] = &[
    "sh",
    "bash",
    "dash",
    "zsh",
    "ksh",
    "mksh",
    "ash",
    "fish",
    "csh",
    "tcsh",
    "pwsh",
    "powershell",
    "nu",
    "xonsh",
    "python",
    "python2",
    "python3",
    "pypy",
    "pypy3",
    "node",
    "nodejs",
    "deno",
    "bun",
    "ruby",
    "irb",
    "perl",
    "php",
    "lua",
    "luajit",
    "Rscript",
    "R",
    "julia",
    "tclsh",
    "wish",
    "osascript",
    "jshell",
    "groovy",
    "scala",
    "elixir",
    "iex",
    "erl",
    "escript",
    "ghci",
    "runghc",
    "runhaskell",
    "swift",
    "java",
    "jrunscript",
];

/// Programs that run whatever their arguments say, wherever it is written.
const LAUNCHERS: &[&str] = &[
    "env", "xargs", "sudo", "doas", "su", "runuser", "pkexec", "nohup", "nice", "ionice",
    "timeout", "time", "stdbuf", "setsid", "chroot", "unshare", "nsenter", "flock", "taskset",
    "chrt", "strace", "ltrace", "gdb", "watch", "script", "parallel", "exec", "eval", "command",
    "builtin", "busybox", "find", "fd", "npx", "pnpx", "bunx", "uvx", "pipx", "sed", "gsed", "awk",
    "gawk", "mawk", "nawk", "make", "gmake", "vim", "vi", "nvim", "ex", "emacs", "ssh", "rsync",
    "tar", "zip",
];

/// Tools with subcommands, each with the subcommands that run a command
/// their arguments name (or change what later commands run). Options
/// before the subcommand count as open: `git -c` is one.
const SUBCOMMANDS: &[(&str, &[&str])] = &[
    (
        "git",
        &[
            "grep",
            "fetch",
            "pull",
            "clone",
            "push",
            "ls-remote",
            "archive",
            "submodule",
            "rebase",
            "bisect",
            "difftool",
            "mergetool",
            "config",
            "filter-branch",
            "filter-repo",
            "daemon",
            "instaweb",
            "send-email",
            "worktree",
        ],
    ),
    ("npm", &["exec", "x", "explore", "run", "run-script"]),
    ("pnpm", &["exec", "dlx", "run"]),
    ("yarn", &["exec", "dlx", "run"]),
    ("uv", &["run", "tool"]),
    ("poetry", &["run"]),
    ("pipenv", &["run"]),
    ("cargo", &["run", "install", "script"]),
    ("go", &["run", "generate", "tool"]),
    ("docker", &["run", "exec", "create", "compose"]),
    ("podman", &["run", "exec", "create"]),
    ("kubectl", &["exec", "run", "debug", "attach"]),
    ("dotnet", &["run", "exec", "tool"]),
];

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

/// The program a `Bash` rule lets run any code, if it does.
fn any_program(rule: ToolRule<'_>) -> Option<String> {
    let pattern = rule.pattern?;
    if !tool_matches_bash(rule.tool) {
        return None;
    }
    // The fixed words, up to the first wildcard; a pattern without one is
    // a single command.
    let (fixed, open) = match pattern.strip_suffix(":*") {
        Some(prefix) => (prefix, true),
        None => match pattern.find('*') {
            Some(at) => (&pattern[..at], true),
            None => (pattern, false),
        },
    };
    if !open {
        return None;
    }
    // A word cut by the wildcard (`py*`) is open too: only whole words
    // before it are fixed.
    let cut =
        !fixed.is_empty() && !fixed.ends_with(char::is_whitespace) && !pattern.ends_with(":*");
    let mut words: Vec<&str> = fixed.split_whitespace().collect();
    let partial = if cut { words.pop() } else { None };
    let Some(first) = words.first().copied() else {
        // The program itself is open: `*`, `py*`.
        // `./scripts/*` is any file of a directory, not any program.
        let word = partial.unwrap_or_default();
        let stem = word.rsplit('/').next().unwrap_or(word);
        let in_dir = word.contains('/');
        return (known(stem) && !(in_dir && stem.is_empty())).then(|| format!("{stem}*"));
    };
    let program = first.rsplit('/').next().unwrap_or(first);
    let rest = &words[1..];
    let fixed_operand = |i: usize| rest.get(i).is_some_and(|w| !w.starts_with('-'));
    let open_program = if is_interpreter(program) {
        // `deno run x.ts`: the script follows the subcommand; `deno eval`
        // and `bun x` take code or a package.
        let skip = match (program, rest.first().copied()) {
            ("deno" | "bun", Some("eval" | "x" | "repl" | "exec")) => return Some(program.into()),
            ("deno" | "bun", Some("run" | "task" | "test" | "bench" | "compile" | "serve")) => 1,
            _ => 0,
        };
        // `python3 -m module` fixes the program too.
        let module = is_python(program) && rest.first() == Some(&"-m") && fixed_operand(1);
        !(fixed_operand(skip) || module)
    } else if LAUNCHERS.contains(&program) {
        true
    } else if let Some((_, runs)) = SUBCOMMANDS.iter().find(|(tool, _)| *tool == program) {
        match rest.first() {
            Some(sub) if !sub.starts_with('-') => runs.contains(sub),
            _ => true,
        }
    } else {
        false
    };
    open_program.then(|| program.to_string())
}

/// Whether a rule's tool name (possibly a glob) covers `Bash`.
fn tool_matches_bash(tool: &str) -> bool {
    tool == "Bash" || (tool.contains('*') && skills_core::glob::matches(tool, "Bash"))
}

/// Whether some program of the tables starts with `stem` (an open program
/// word: `py*`, or `*` for every one).
fn known(stem: &str) -> bool {
    INTERPRETERS
        .iter()
        .chain(LAUNCHERS)
        .chain(SUBCOMMANDS.iter().map(|(t, _)| t))
        .any(|p| p.starts_with(stem))
}

/// A shell or an interpreter, versioned names included (`python3.12`).
fn is_interpreter(program: &str) -> bool {
    INTERPRETERS.contains(&program) || is_python(program)
}

/// `python`, `python3`, `python3.12`, `pypy3`.
fn is_python(program: &str) -> bool {
    let rest = program
        .strip_prefix("python")
        .or_else(|| program.strip_prefix("pypy"));
    rest.is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flagged(rule: &str) -> Option<String> {
        any_program(tools::rule(rule))
    }

    #[test]
    fn interpreters_with_a_wildcard_run_anything() {
        for (rule, program) in [
            ("Bash(python3:*)", "python3"),
            ("Bash(python3 *)", "python3"),
            ("Bash(python3 -u:*)", "python3"),
            ("Bash(python3.12:*)", "python3.12"),
            ("Bash(/usr/bin/python3:*)", "python3"),
            ("Bash(node:*)", "node"),
            ("Bash(bash:*)", "bash"),
            ("Bash(sh -c:*)", "sh"),
            ("Bash(perl:*)", "perl"),
            ("Bash(ruby:*)", "ruby"),
            ("Bash(deno:*)", "deno"),
            ("Bash(deno run:*)", "deno"),
            ("Bash(deno eval:*)", "deno"),
            ("Bash(bun x:*)", "bun"),
            ("Bash(python3 -m:*)", "python3"),
            ("Bash(env:*)", "env"),
            ("Bash(xargs *)", "xargs"),
            ("Bash(timeout 10:*)", "timeout"),
            ("Bash(sudo apt-get:*)", "sudo"),
            ("Bash(find . -name:*)", "find"),
            ("Bash(sed:*)", "sed"),
            ("Bash(npx:*)", "npx"),
            ("Bash(make test:*)", "make"),
            ("Bash(git:*)", "git"),
            ("Bash(git -C repo:*)", "git"),
            ("Bash(git grep:*)", "git"),
            ("Bash(git config:*)", "git"),
            ("Bash(npm:*)", "npm"),
            ("Bash(npm exec:*)", "npm"),
            ("Bash(docker run:*)", "docker"),
            ("Bash(py*)", "py*"),
            ("Bash(*)", "*"),
            ("Bash(/usr/bin/py*)", "py*"),
            ("B*(python3:*)", "python3"),
        ] {
            assert_eq!(flagged(rule).as_deref(), Some(program), "{rule}");
        }
    }

    #[test]
    fn fixed_scripts_subcommands_and_exact_commands_are_not_flagged() {
        for rule in [
            "Bash(python3 scripts/calc.py:*)",
            "Bash(python3 -m pytest:*)",
            "Bash(deno run scripts/x.ts:*)",
            "Bash(node scripts/build.js *)",
            "Bash(bash ${CLAUDE_SKILL_DIR}/scripts/run.sh:*)",
            "Bash(python3 -c 'print(1)')",
            "Bash(python3 --version)",
            "Bash(git status:*)",
            "Bash(git log:*)",
            "Bash(npm test:*)",
            "Bash(ls:*)",
            "Bash(jq:*)",
            "Bash(./scripts/run.sh:*)",
            "Bash",
            "Read(python3:*)",
            "Bash(jq*)",
            "Bash(./scripts/*)",
            "Bash(${CLAUDE_SKILL_DIR}/scripts/*)",
        ] {
            assert_eq!(flagged(rule), None, "{rule}");
        }
    }
}

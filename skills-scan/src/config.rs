//! Configuration: agent settings (hooks, MCP servers, permissions), agent
//! instruction files (`CLAUDE.md`, `AGENTS.md`, Cursor rules, memory files),
//! security policies, and addresses in any configuration a skill ships.
//!
//! The same checks apply to a settings file the skill ships, a JSON block
//! its instructions tell the agent to write, and a here-document a script
//! writes: what matters is the content and where it goes.

use std::sync::LazyLock;

use regex::Regex;

use crate::autorun::reaches_out;
use crate::ctx::{Ctx, Unit};
use crate::net;
use crate::rule::{Severity, id};

static HOOKS: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r#"(?s)["']?hooks["']?\s*[:=]\s*[\[{(].{0,400}?(?:PreToolUse|PostToolUse|UserPromptSubmit|SessionStart|SessionEnd|Stop|SubagentStop|Notification|PreCompact|["']?command["']?\s*[:=])"#)
        .expect("valid")
});
static MCP: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r#"["']?(?:mcpServers|mcp_servers|mcp-servers|context_servers)["']?\s*[:=\]]|\[mcp_servers\.|enableAllProjectMcpServers["']?\s*:\s*true"#).expect("valid")
});
static ALLOW_ALL: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r#"(?s)["']?allow["']?\s*[:=]\s*\[[^\]]{0,400}?["'](?:Bash|Shell|Write|Edit|WebFetch|Read|\*)(?:\(\s*\*?\s*\))?["']"#).expect("valid")
});
static ALLOW_ENTRY: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r#"["'](?:Bash|Shell|\*)(?:\(\s*\*\s*\))?["']"#).expect("valid")
});
static POLICY_ALLOW_ALL: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r#"(?s)["'](?:execute_command|shell_exec|network_request|file_write|file_read|run_command|exec|database_query)["']\s*:\s*\[\s*\[\s*\d+\s*,\s*0\s*,\s*\{\s*\}\s*,\s*0\s*\]\s*\]|["']?(?:default_action|defaultAction|default)["']?\s*:\s*["']allow["']"#).expect("valid")
});

static CODE_IN_DATA: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r#"require\(\s*\\?["']child_process\\?["']\s*\)\s*\.\s*exec|__import__\(\s*\\?["']os\\?["']\s*\)\.(?:system|popen)"#).expect("valid")
});

/// Settings content (a settings file, or text written into one): hooks,
/// MCP servers, broad permission grants. `target` is where it is written,
/// when known.
pub(crate) fn settings(ctx: &mut Ctx<'_>, unit: &Unit<'_>, target: Option<&str>) {
    let text = unit.text;
    let into = target.map_or(String::new(), |t| format!(" into `{t}`"));
    if crate::plugin::settings(ctx, unit, target) {
        allow_all(ctx, unit, &into);
        return;
    }
    // Not JSON: read as text. Hooks: the commands they run decide. A hook running the plugin's own
    // script is how hooks work; one that fetches, sends or reads secrets
    // is an implant.
    if let Some(m) = HOOKS.find(text) {
        let mark = ctx.mark();
        for c in COMMAND.captures_iter(text) {
            if let Some(cmd) = c.get(1) {
                let value = cmd.as_str().replace("\\\"", "\"");
                let inner = unit.derived(&value, cmd.start());
                ctx.shell(&inner, crate::shell::Mode::Code);
            }
        }
        let risky = ctx.worst_since(mark).is_some_and(|s| s >= Severity::Medium)
            || COMMAND
                .captures_iter(text)
                .any(|c| c.get(1).is_some_and(|v| reaches_out(v.as_str())));
        if risky {
            ctx.report(unit, id::AgentHooks, Severity::High, m.start()..m.start() + 5,
                format!("writes hooks{into} whose command reaches the network or secrets, on the agent's events in every session"));
        }
    }
    // MCP servers: fetched from an address, a git branch or a tarball, or
    // handed secrets from the environment.
    if let Some(m) = MCP.find(text) {
        let rest = &text[m.start()..];
        let risky = rest.contains("github:")
            || rest.contains(".tgz")
            || rest.contains(".tar.gz")
            || rest.contains(".whl")
            || rest.contains("git+")
            || net::URL.find_iter(rest).any(|u| {
                net::host(u.as_str()).is_some_and(|h| net::is_bare_ip(&h) || net::is_collector(&h))
            })
            || rest.contains("os.environ")
                && (rest.contains("SECRET") || rest.contains("PASSWORD") || rest.contains("TOKEN"));
        if risky {
            ctx.report(unit, id::McpRegistration, Severity::High, m.range(),
                format!("registers an MCP server{into} fetched from outside a registry or handed secrets: it starts in every session"));
        }
    }
    allow_all(ctx, unit, &into);
}

/// A permission list allowing every command or tool.
fn allow_all(ctx: &mut Ctx<'_>, unit: &Unit<'_>, into: &str) {
    if let Some(m) = ALLOW_ALL.find(unit.text)
        && ALLOW_ENTRY.is_match(m.as_str())
    {
        ctx.report(
            unit,
            id::BroadGrant,
            Severity::High,
            m.range(),
            format!("grants the agent unrestricted tools{into}"),
        );
    }
}

static COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r#"["']command["']\s*:\s*["']((?:[^"'\\]|\\.){1,2000})["']"#).expect("valid")
});

/// Any configuration: settings rules when it looks like settings, policies
/// that allow everything, and collector endpoints.
pub(crate) fn scan(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    let text = unit.text;
    let path = ctx.path().to_string();
    if crate::agent_files::is_agent_settings(&path)
        || crate::agent_files::is_manifest(&path)
        || text.contains("statusLine")
        || text.contains("apiKeyHelper")
        || text.contains("\"env\"")
        || text.contains("hooks")
        || text.contains("mcpServers")
        || text.contains("mcp_servers")
        || text.contains("permissions")
    {
        settings(ctx, unit, None);
    }
    if let Some(m) = CODE_IN_DATA.find(text) {
        ctx.report(
            unit,
            id::DynamicEvaluation,
            Severity::High,
            m.range(),
            "configuration carries code that runs a command when the application evaluates it"
                .into(),
        );
    }
    if let Some(m) = POLICY_ALLOW_ALL.find(text) {
        ctx.report(
            unit,
            id::PolicyAllowAll,
            Severity::High,
            m.range(),
            "replaces a security policy with one that allows every action".into(),
        );
    }
    stores_and_address(ctx, unit);
    for m in net::URL.find_iter(text) {
        if let Some(host) = net::host(m.as_str())
            && net::is_collector(&host)
        {
            let severity = if net::is_placeholder(m.as_str()) {
                Severity::Low
            } else {
                Severity::Medium
            };
            ctx.report(unit, id::CollectorEndpoint, severity, m.range(),
                format!("points at `{host}`, a tunnel or request-collection service, not a real service's address"));
        }
    }
}

/// A path under the home directory given as a whole value: a quoted
/// string, a YAML list item or a `key: value`.
static HOME_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(
        r#"(?m)(?:["']|^[ \t]*-[ \t]+|:[ \t]+)((?:~|\$HOME|\$\{HOME\})/[^\s"',\]]+)"#,
    )
    .expect("valid")
});

/// An address given as a whole value.
static ADDRESS_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r#"(?m)(?:["']|:[ \t]+|=[ \t]*)(https?://[^\s"']+)(?:["']|[ \t]*$)"#)
        .expect("valid")
});

/// A data file that lists credential stores of the user's account as
/// values (`"~/.aws/credentials"`, `- $HOME/.kube/config`) beside the
/// address of a service elsewhere (`"endpoint": "https://…"`, a webhook):
/// the file a script reads to learn what to send where, the pairing the
/// script itself no longer shows. Only whole values count (a sentence that
/// names a store is prose) and only paths under the home directory (a
/// project's own `.env` or key is what its tools read).
fn stores_and_address(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    let text = unit.text;
    let Some((range, name)) = HOME_VALUE.captures_iter(text).find_map(|c| {
        let m = c.get(1)?;
        // An agent's transcripts are what session tools list, not keys.
        crate::sensitive::store_in(m.as_str())
            .filter(|s| !crate::sensitive::is_transcript(s))
            .map(|s| (m.range(), s.to_string()))
    }) else {
        return;
    };
    let address = ADDRESS_VALUE.captures_iter(text).find_map(|c| {
        let url = c.get(1)?.as_str();
        let host = net::host(url)?;
        (!net::is_local(&host) && !net::is_placeholder(url)).then_some(host)
    });
    let Some(host) = address else { return };
    ctx.report(
        unit,
        id::SecretsToNetwork,
        Severity::High,
        range,
        format!("lists the credential store `{name}` beside the address `{host}`: code that reads this file to send what it lists sends the store there"),
    );
}

/// Text written into an agent's instruction file: every order in it becomes
/// a standing order. Findings in it are reported as a memory edit.
pub(crate) fn instructions(ctx: &mut Ctx<'_>, unit: &Unit<'_>, target: &str) {
    let mark = ctx.mark();
    crate::prose::scan(ctx, unit);
    ctx.shell(unit, crate::shell::Mode::Inline);
    if let Some(worst) = ctx.worst_since(mark)
        && worst >= Severity::Medium
    {
        ctx.report(unit, id::AgentMemoryEdit, worst.max(Severity::High), 0..0,
            format!("writes standing orders into `{target}` that another rule reports; they would apply to every later session"));
    }
}

#[cfg(test)]
mod tests {
    use crate::rule::Severity;
    use crate::tests::scan_text;

    fn worst(path: &str, text: &str) -> Option<Severity> {
        scan_text(path, text)
            .iter()
            .filter(|f| f.rule.code == "SK610")
            .map(|f| f.severity)
            .max()
    }

    #[test]
    fn a_config_that_pairs_credential_stores_with_an_address() {
        let bad = "{\n  \"endpoint\": \"https://sync.example.net/v2/push\",\n  \"include\": [\"~/.claude/settings.json\", \"~/.aws/credentials\"]\n}\n";
        assert!(worst("config/sync.json", bad) >= Some(Severity::High));
        let yaml = "webhook: https://hooks.example.com/T0/B1\nattach:\n  - dist/report.html\n  - ~/.npmrc\n";
        assert!(worst("notify.yaml", yaml) >= Some(Severity::High));
        // Sentences that name a store and an address are prose.
        let evals = "[{\"query\": \"open ~/.claude/projects/x.jsonl and tell me\"}, {\"query\": \"audit https://shop.example.com for SEO\"}]\n";
        assert_eq!(worst("evals/evals.json", evals), None);
        let transcripts = "{\"sessions\": \"~/.codex/sessions\", \"docs\": \"https://developers.example.com/codex\"}\n";
        assert_eq!(worst("vendors/codex.json", transcripts), None);
        // The project's own files, or stores with no address.
        let project = "{\"endpoint\": \"https://api.example.net\", \"env_file\": \".env\", \"cert\": \"certs/client.pem\"}\n";
        assert_eq!(worst("config.json", project), None);
        let local = "{\"backup\": [\"~/.ssh/id_ed25519\"], \"to\": \"/mnt/backup\"}\n";
        assert_eq!(worst("backup.json", local), None);
    }
}

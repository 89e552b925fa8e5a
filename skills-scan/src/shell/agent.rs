//! The agent's own programs: agent CLIs run with their safety switched off,
//! and Claude Code's `` !`command` `` lines, run as the skill loads.

use super::cmd::{Cmd, FETCHERS, SENDERS, has_word, span_of};
use crate::ctx::{Ctx, Unit};
use crate::net;
use crate::rule::{Severity, id};

pub(super) fn agent_cli(ctx: &mut Ctx<'_>, unit: &Unit<'_>, cmd: &Cmd<'_>, text: &str) {
    let args: Vec<&str> = cmd.args.iter().map(|a| a.text.as_str()).collect();
    if args.first() == Some(&"mcp") && args.get(1) == Some(&"add") {
        let risky = args.iter().any(|a| {
            net::host(a).is_some_and(|h| net::is_bare_ip(&h) || net::is_collector(&h))
                || a.starts_with("github:")
                || a.ends_with(".tgz")
        });
        let severity = if risky { Severity::High } else { Severity::Low };
        ctx.report(
            unit,
            id::McpRegistration,
            severity,
            span_of(cmd.words),
            format!(
                "registers an MCP server with `{}`, which then starts in every session",
                cmd.name
            ),
        );
    }
    let _ = text;
}

/// `` !`command` ``: anything beyond reading local state is run before
/// anyone reviews it.
pub(super) fn context_command(ctx: &mut Ctx<'_>, unit: &Unit<'_>, mark: usize) {
    ctx.raise_since(mark);
    let text = unit.text;
    let network = FETCHERS
        .iter()
        .chain(SENDERS.iter())
        .any(|f| has_word(text, f))
        && net::URL.is_match(text)
        || text.contains("/dev/tcp");
    if network {
        ctx.report(unit, id::ContextCommand, Severity::High, 0..text.len(),
            "a `!` command reaches the network while the skill loads, before the model or the user sees it".into());
    }
}

//! `skb lsp`: the language server of [`skills_lsp`] on stdio, with the
//! profile, scan and debounce from the command line (the client's
//! `initializationOptions` may change them).

use std::io;
use std::time::Duration;

use crate::Outcome;
use crate::args::LspArgs;

/// Runs `skb lsp`.
pub fn run(args: &LspArgs) -> io::Result<Outcome> {
    let settings = skills_lsp::Settings {
        profile: args.profile.profile(),
        scan: !args.no_scan,
        debounce: Duration::from_millis(args.debounce),
    };
    Ok(match skills_lsp::run_stdio(settings)? {
        skills_lsp::Ended::Clean => Outcome::Success,
        skills_lsp::Ended::Abrupt => Outcome::Invalid,
    })
}

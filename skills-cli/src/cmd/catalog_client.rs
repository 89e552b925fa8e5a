//! `skb catalog --style claude-code|codex`: the listing a client shows
//! its model, made by reading each folder as that client reads it
//! (`skills_compiler::client`), not from the validated skills: a skill the
//! client lists is listed even where a profile would refuse it, and one the
//! client hides is left out. The folders are those discovery finds
//! (`--user` adds the user's, first for Claude Code); an archive or pack is
//! listed from its bundle.

use std::io;

use skills_compiler::client::{self, Client, Outcome, claude_code, codex};
use skills_compiler::{DiscoveryOptions, FoundSkill, UserFolders, render};
use skills_core::catalog::{self, Entry, Style};

use crate::Outcome as Exit;
use crate::args::CatalogArgs;
use crate::bundle::bundle_of;
use crate::cmd::claude_settings::{Override, Settings};
use crate::cmd::found;
use crate::output::print_catalog;
use skills_install::input;

/// Claude Code's override of its listing budget, which `--budget` replaces.
pub const BUDGET_ENV: &str = "SLASH_COMMAND_TOOL_CHAR_BUDGET";

/// The budget: `--budget`, else (for `claude-code`) a positive
/// [`BUDGET_ENV`], else Claude Code's `skillListingBudgetFraction` setting
/// (the project's settings files and the user's, read from the current
/// directory), else the style's default.
fn budget(style: Style, flag: Option<usize>) -> Option<usize> {
    flag.or_else(|| {
        (style == Style::ClaudeCode)
            .then(|| {
                let env = std::env::var(BUDGET_ENV).ok();
                env.and_then(|v| v.trim().parse::<usize>().ok())
                    .filter(|&b| b > 0)
                    .or_else(|| Settings::current(&std::env::current_dir().ok()?).budget())
            })
            .flatten()
    })
}

/// Runs `skb catalog` for a client style.
pub fn run(args: &CatalogArgs, client: Client) -> io::Result<Exit> {
    if client == Client::GeminiCli {
        return super::catalog_gemini::run(args);
    }
    if client == Client::OpenCode {
        return super::catalog_opencode::run(args);
    }
    let style = Style::of(client);
    let budget = budget(style, args.budget);
    if let [one] = args.paths.as_slice()
        && input::is_archive(one)
    {
        let Some(bundle) = bundle_of(&args.paths, &args.check)? else {
            return Ok(Exit::Invalid);
        };
        return print_catalog(&bundle.catalog_style(style, budget));
    }
    let mut options = args.check.discovery.options();
    options.outside_repository = client.reads_outside_repository();
    let Some(found) = found::discovered(&args.paths, &options) else {
        return Ok(Exit::Invalid);
    };
    if client == Client::Codex {
        return codex(&found, &options, budget);
    }
    // `skillOverrides` hiding a skill from the model (Claude Code's settings).
    let settings = (client == Client::ClaudeCode)
        .then(|| {
            std::env::current_dir()
                .ok()
                .map(|cwd| Settings::current(&cwd))
        })
        .flatten()
        .unwrap_or_default();
    let listed: Vec<client::Listed> = claude_code::listing_found(&found)
        .into_iter()
        .filter_map(|f| match f.reading.outcome {
            Outcome::Listed(l)
                if matches!(
                    settings.override_for(&l.name),
                    Override::Off | Override::UserInvocableOnly
                ) =>
            {
                None
            }
            Outcome::Listed(l) => {
                if settings.override_for(&l.name) == Override::NameOnly {
                    eprintln!(
                        "warning: `skillOverrides` sets `{}` to \"name-only\", which is not modelled: it is listed with its description",
                        l.name
                    );
                }
                Some(l)
            }
            Outcome::Unknown { why } => {
                eprintln!(
                    "{}",
                    found::unknown_line(client.title(), &f.dir.join("SKILL.md"), &why)
                );
                None
            }
            _ => None,
        })
        .collect();
    let locations: Vec<String> = listed
        .iter()
        .map(|l| l.location.to_string_lossy().into_owned())
        .collect();
    let entries: Vec<Entry<'_>> = listed
        .iter()
        .zip(&locations)
        .map(|(l, loc)| l.entry(loc))
        .collect();
    print_catalog(&catalog::render_style(style, &entries, budget))
}

/// Codex's `<skills_instructions>` block for the skills discovery found
/// (in Codex's folders of a project, or under skill roots given directly),
/// with what Codex prints on stderr on the way: each skill it would not
/// load and why, and the notice when skills did not fit the budget.
fn codex(
    found: &[FoundSkill],
    options: &DiscoveryOptions,
    budget: Option<usize>,
) -> io::Result<Exit> {
    // Which root is `$CODEX_HOME/skills` or `~/.agents/skills` (given as a
    // path, or read with `--user`) orders and numbers them as Codex does.
    let user = options.user.clone().or_else(UserFolders::from_env);
    let listing = codex::listing(found, user.as_ref());
    for (path, why) in &listing.rejected {
        eprintln!(
            "warning: {}",
            render::shown(&codex::rejection_line(path, why))
        );
    }
    for (path, why) in &listing.unknown {
        eprintln!("{}", found::unknown_line(Client::Codex.title(), path, why));
    }
    let Some(rendered) = listing.render(budget.unwrap_or(catalog::codex::DEFAULT_BUDGET)) else {
        return Ok(Exit::Success);
    };
    if let Some(notice) = rendered.notice() {
        eprintln!("warning: {notice}");
    }
    print_catalog(&rendered.text)
}

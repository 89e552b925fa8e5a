//! `skills catalog --style claude-code|codex`: the listing a client shows
//! its model, made by reading each folder as that client reads it
//! (`skills_compiler::client`), not from the validated skills: a skill the
//! client lists is listed even where a profile would refuse it, and one the
//! client hides is left out. An archive or pack is listed from its bundle.

use std::io;
use std::path::PathBuf;

use skills_compiler::client::{self, Client, Outcome, claude_code};
use skills_core::catalog::{self, Entry, Style};

use crate::args::CatalogArgs;
use crate::cmd::levels;
use crate::{Outcome as Exit, input};

/// Claude Code's override of its listing budget, which `--budget` replaces.
pub const BUDGET_ENV: &str = "SLASH_COMMAND_TOOL_CHAR_BUDGET";

/// The budget: `--budget`, else (for `claude-code`) a positive
/// [`BUDGET_ENV`], else the style's default.
fn budget(style: Style, flag: Option<usize>) -> Option<usize> {
    flag.or_else(|| {
        (style == Style::ClaudeCode)
            .then(|| std::env::var(BUDGET_ENV).ok()?.trim().parse::<usize>().ok())
            .flatten()
            .filter(|&b| b > 0)
    })
}

/// Runs `skills catalog` for a client style.
pub fn run(args: &CatalogArgs, client: Client) -> io::Result<Exit> {
    let style = client.style();
    let budget = budget(style, args.budget);
    if let [one] = args.paths.as_slice()
        && input::is_archive(one)
    {
        let Some(bundle) = levels::bundle_of(&args.paths, &args.check)? else {
            return Ok(Exit::Invalid);
        };
        return levels::print_catalog(&bundle.catalog_style(style, budget));
    }
    let listed = listing(client, &args.paths);
    let locations: Vec<String> = listed
        .iter()
        .map(|l| l.location.to_string_lossy().into_owned())
        .collect();
    let entries: Vec<Entry<'_>> = listed
        .iter()
        .zip(&locations)
        .map(|(l, loc)| l.entry(loc))
        .collect();
    levels::print_catalog(&catalog::render_style(style, &entries, budget))
}

/// The skills `client` lists from `paths`, in its order.
fn listing(client: Client, paths: &[PathBuf]) -> Vec<client::Listed> {
    match client {
        Client::ClaudeCode => claude_code::listing(paths)
            .into_iter()
            .filter_map(|f| match f.reading.outcome {
                Outcome::Listed(l) => Some(l),
                _ => None,
            })
            .collect(),
        Client::Codex => {
            let mut listed = Vec::new();
            for path in paths {
                let dirs: Vec<PathBuf> = if path.join("SKILL.md").is_file() {
                    vec![path.clone()]
                } else {
                    let mut dirs: Vec<PathBuf> = std::fs::read_dir(path)
                        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect())
                        .unwrap_or_default();
                    dirs.sort();
                    dirs
                };
                let mut group: Vec<client::Listed> = dirs
                    .iter()
                    .filter_map(|d| match client::read(Client::Codex, d).outcome {
                        Outcome::Listed(l) => Some(l),
                        _ => None,
                    })
                    .collect();
                group.sort_by(|a, b| (&a.name, &a.location).cmp(&(&b.name, &b.location)));
                listed.extend(group);
            }
            listed
        }
    }
}

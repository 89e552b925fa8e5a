//! `skb catalog --style gemini-cli`: the `# Available Agent Skills` section
//! Gemini CLI puts in its system instruction, for the skills discovery
//! finds, each read as Gemini CLI reads it, in its order and with its
//! precedence (`skills_compiler::client::gemini_cli::listing`).
//!
//! Gemini CLI adds two built-in skills of its own in front; their text is
//! the client's and is left out, so the section starts with the first of
//! the skills given (a skill named like a built-in takes its place, first).
//! On stderr, as warnings: Gemini CLI's own lines for each skill that
//! replaces another of its name, and each skill left out because what
//! Gemini CLI makes of it is not known. Gemini CLI has no budget: every
//! listed skill is sent in full, and `--budget` is refused.

use std::io;

use skills_compiler::client::{Client, Outcome, gemini_cli};
use skills_compiler::render;
use skills_core::catalog::{self, Entry, Style};

use super::found::{discovered, unknown_line};
use crate::Outcome as Exit;
use crate::args::CatalogArgs;
use crate::bundle::bundle_of;
use crate::output::print_catalog;
use skills_install::input;

/// Runs `skb catalog --style gemini-cli`.
pub fn run(args: &CatalogArgs) -> io::Result<Exit> {
    if args.budget.is_some() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--budget: Gemini CLI has no budget for its skills section (it sends every listed skill in full, whatever their number and length); leave --budget out with --style gemini-cli",
        ));
    }
    if let [one] = args.paths.as_slice()
        && input::is_archive(one)
    {
        let Some(bundle) = bundle_of(&args.paths, &args.check)? else {
            return Ok(Exit::Invalid);
        };
        return print_catalog(&bundle.catalog_style(Style::GeminiCli, None));
    }
    let options = args.check.discovery.options();
    let Some(found) = discovered(&args.paths, &options) else {
        return Ok(Exit::Invalid);
    };
    let listing = gemini_cli::listing(&found);
    for o in &listing.overrides {
        eprintln!("warning: {}", render::shown(&o.line()));
    }
    for f in &listing.found {
        if let Outcome::Unknown { why } = &f.reading.outcome {
            eprintln!(
                "{}",
                unknown_line(Client::GeminiCli.title(), &f.dir.join("SKILL.md"), why)
            );
        }
    }
    let locations: Vec<String> = listing
        .listed
        .iter()
        .map(|l| l.location.to_string_lossy().into_owned())
        .collect();
    let entries: Vec<Entry<'_>> = listing
        .listed
        .iter()
        .zip(&locations)
        .map(|(l, loc)| l.entry(loc))
        .collect();
    print_catalog(&catalog::render_style(Style::GeminiCli, &entries, None))
}

//! `skb catalog --style opencode`: the `<available_skills>` block OpenCode
//! ends its system message with, made by reading each skill folder as
//! OpenCode reads it (`skills_compiler::client::opencode`): the skills
//! discovery finds in the folders OpenCode reads, sorted by name as
//! OpenCode sorts them, one copy per name (the first found; a warning names
//! both copies, as OpenCode's log does, since OpenCode keeps either), without the skills it
//! drops (each named on stderr) and without those it loads without a
//! description. OpenCode's built-in `customize-opencode` is not listed:
//! its text is OpenCode's. OpenCode has no budget, so `--budget` is
//! refused.

use std::io;
use std::path::Path;

use skills_compiler::client::{Outcome, opencode};
use skills_compiler::render;
use skills_core::catalog::{self, Entry, Style};

use crate::Outcome as Exit;
use crate::args::CatalogArgs;
use crate::bundle::bundle_of;
use crate::cmd::found::discovered;
use crate::output::print_catalog;
use skills_install::input;

/// Runs `skb catalog --style opencode`.
pub fn run(args: &CatalogArgs) -> io::Result<Exit> {
    if args.budget.is_some() {
        eprintln!(
            "skb: --budget: OpenCode has no catalog budget (it lists every skill in full), so \
             --style opencode takes none"
        );
        return Ok(Exit::Invalid);
    }
    if let [one] = args.paths.as_slice()
        && input::is_archive(one)
    {
        let Some(bundle) = bundle_of(&args.paths, &args.check)? else {
            return Ok(Exit::Invalid);
        };
        return print_catalog(&bundle.catalog_style(Style::OpenCode, None));
    }
    let Some(found) = discovered(&args.paths, &args.check.discovery.options()) else {
        return Ok(Exit::Invalid);
    };
    let listing = opencode::listing(&found);
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    for f in &listing.found {
        let path = absolute(&f.skill_md);
        let path = path.display();
        let line = match &f.reading.outcome {
            Outcome::Rejected { why } => format!("warning: OpenCode drops {path}: {why}"),
            Outcome::Unknown { why } => {
                format!("warning: left out {path}: what OpenCode makes of it is not known: {why}")
            }
            _ => continue,
        };
        eprintln!("{}", render::shown(&line));
    }
    for d in &listing.duplicates {
        let d = opencode::Duplicate {
            name: d.name.clone(),
            kept: absolute(&d.kept),
            left_out: absolute(&d.left_out),
        };
        eprintln!("warning: {}", render::shown(&d.warning()));
    }
    let listed = listing.listed();
    let locations: Vec<String> = listed
        .iter()
        .map(|l| absolute(&l.location).to_string_lossy().into_owned())
        .collect();
    let entries: Vec<Entry<'_>> = listed
        .iter()
        .zip(&locations)
        .map(|(l, loc)| l.entry(loc))
        .collect();
    print_catalog(&catalog::render_style(Style::OpenCode, &entries, None))
}

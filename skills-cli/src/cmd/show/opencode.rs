//! `skb show --style opencode NAME PATHS`: the answer of OpenCode's `skill`
//! tool (`skills_bundle::activation::opencode`), from the skills discovery
//! finds in the folders OpenCode reads, each read as OpenCode reads it
//! (`skills_compiler::client::opencode`): the skill is the one whose
//! frontmatter `name` is exactly NAME (a skill without a description
//! included, as OpenCode activates it), of two the one OpenCode's listing
//! keeps. The skills are not validated: a skill OpenCode drops is not
//! there, and the others are shown whatever a profile says of them.
//! A name OpenCode does not know is an error quoting OpenCode's answer.
//! `--json` prints `{"content": ...}`, the tool message's content.
//! `--args` and the command options change nothing: OpenCode substitutes
//! nothing, runs nothing and ignores an argument its tool is given.

use std::io;

use skills_bundle::activation::opencode as activation;
use skills_compiler::client::opencode::{self, Load};
use skills_core::fsread;

use crate::Outcome;
use crate::args::ShowArgs;
use crate::cmd::found::discovered;
use crate::output::fail;
use crate::output::print_text as print;

/// Runs `skb show --style opencode`.
pub(super) fn run(args: &ShowArgs) -> io::Result<Outcome> {
    // The style's profile (set by `show`) reads a project as OpenCode does.
    let Some(found) = discovered(&args.from, &args.check.options().discovery) else {
        return Ok(Outcome::Invalid);
    };
    let listing = opencode::listing(&found);
    let name = args.name.as_str();
    let Some(skill) = listing.get(name) else {
        return fail(&format!(
            "OpenCode knows no skill named `{name}` (it matches frontmatter names exactly); its \
             `skill` tool answers: {}",
            activation::not_found(name, &listing.names())
        ));
    };
    let bytes = fsread::read_file(&skill.skill_md, opencode::READ_LIMIT)
        .map_err(|e| io::Error::other(e.to_string()))?;
    let Load::Loaded(loaded) = opencode::load(&String::from_utf8_lossy(&bytes)) else {
        return fail(&format!(
            "{} changed while it was read",
            skill.skill_md.display()
        ));
    };
    let dir = std::path::absolute(&skill.dir)?;
    let text = activation::render(
        &loaded.name,
        &loaded.body,
        &dir.to_string_lossy(),
        &activation::sample_files(&dir),
    );
    if args.activation.json {
        return print(&format!("{}\n", serde_json::json!({ "content": text })));
    }
    print(&text)
}

//! `skb show --style copilot NAME PATHS`: what Copilot CLI's `skill` tool
//! adds (`skills_bundle::activation::copilot`), from the skills discovery
//! finds in the folders Copilot reads, each read as Copilot reads it
//! (`skills_compiler::client::copilot`): the listed skill named NAME,
//! case-insensitively, as Copilot finds it; of two with one name the one
//! its listing keeps. The skills are not validated: a skill Copilot drops
//! is not there, the others are shown whatever a profile says of them.
//! A name Copilot does not list (an unknown one, a folder's name, a skill
//! with `disable-model-invocation: true`) is an error quoting Copilot's
//! answer; its built-ins are its own text and are not shown.
//! `--json` prints `{"tool_result": ..., "text": ...}`: the tool result and the
//! user message. `--args` and the command options change nothing: Copilot
//! substitutes nothing and runs nothing.

use std::io;

use skills_bundle::activation::copilot as activation;
use skills_compiler::client::copilot::{self, Load};
use skills_core::catalog::copilot::BUILTINS;
use skills_core::fsread;

use crate::Outcome;
use crate::args::ShowArgs;
use crate::cmd::found::discovered;
use crate::output::fail;
use crate::output::print_text as print;

/// Runs `skb show --style copilot`.
pub(super) fn run(args: &ShowArgs) -> io::Result<Outcome> {
    // The style's profile (set by `show`) reads a project as Copilot does.
    let Some(found) = discovered(&args.from, &args.check.options().discovery) else {
        return Ok(Outcome::Invalid);
    };
    let listing = copilot::listing(&found);
    let name = args.name.as_str();
    let Some((skill, listed)) = listing.get(name) else {
        let mut names: Vec<&str> = listing
            .listed()
            .iter()
            .map(|(l, _)| l.name.as_str())
            .collect();
        let builtin = BUILTINS
            .iter()
            .map(|(b, _)| *b)
            .find(|b| !names.contains(b) && b.eq_ignore_ascii_case(name));
        if let Some(b) = builtin {
            return fail(&format!(
                "`{b}` is one of Copilot CLI's built-in skills: its text is Copilot's own and is not shown here"
            ));
        }
        for (b, _) in BUILTINS {
            if !names.contains(&b) {
                names.push(b);
            }
        }
        return fail(&format!(
            "Copilot CLI lists no skill named `{name}`; its `skill` tool answers: {}",
            activation::not_found(name, &names)
        ));
    };
    let bytes = fsread::read_file(&skill.skill_md, copilot::READ_LIMIT)
        .map_err(|e| io::Error::other(e.to_string()))?;
    let folder = skill
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Load::Loaded(loaded) = copilot::load(&String::from_utf8_lossy(&bytes), &folder) else {
        return fail(&format!(
            "{} changed while it was read",
            skill.skill_md.display()
        ));
    };
    let dir = std::path::absolute(&skill.dir)?;
    let text = activation::render(
        &listed.name,
        &dir.to_string_lossy(),
        &activation::related_files(&dir),
        copilot::body(&loaded.body),
    );
    if args.activation.json {
        let tool = activation::loaded(&listed.name);
        return print(&format!(
            "{}\n",
            serde_json::json!({ "tool_result": tool, "text": text })
        ));
    }
    print(&text)
}

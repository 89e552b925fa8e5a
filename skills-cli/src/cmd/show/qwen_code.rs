//! `skb show --style qwen-code NAME PATHS`: the answer of Qwen Code's
//! `skill` tool (`skills_bundle::activation::qwen_code`), byte for byte,
//! from the skills discovery finds in the folders Qwen Code reads, each
//! read as Qwen Code reads it (`skills_compiler::client::qwen_code`): the
//! skill loaded under exactly NAME (case matters), of two the one Qwen
//! Code keeps. The skills are not validated: a skill Qwen Code drops is
//! not there, the others are shown whatever a profile says of them.
//!
//! A name Qwen Code does not offer (unknown, another case, a folder's
//! name, a skill hidden by `disable-model-invocation`) is an error quoting
//! Qwen Code's answer; so is a skill held back by `paths:`, and a bundled
//! skill, whose text is Qwen Code's own. `--arguments` changes nothing
//! (Qwen Code's tool takes `args` and uses them nowhere); `--run-commands`
//! is refused (it runs nothing). `--json` prints `{"content": ...}`. A
//! text long enough for Qwen Code to cut is printed whole, with a warning.

use std::io;

use skills_bundle::activation::qwen_code as activation;
use skills_compiler::client::qwen_code;
use skills_core::fsread;

use crate::Outcome;
use crate::args::ShowArgs;
use crate::cmd::found::discovered;
use crate::output::print_text as print;
use crate::output::{fail, warn};

/// Runs `skb show --style qwen-code`.
pub(super) fn run(args: &ShowArgs) -> io::Result<Outcome> {
    if args.activation.run_commands {
        return fail(
            "Qwen Code runs no command of a skill's instructions: `` !`...` `` reaches the model as written (leave out --run-commands)",
        );
    }
    crate::cmd::found::folders_only(&args.from)?;
    let Some(found) = discovered(&args.from, &args.check.options().discovery) else {
        return Ok(Outcome::Invalid);
    };
    let listing = qwen_code::listing(&found);
    let name = args.name.as_str();
    let not_found = || {
        fail(&format!(
            "Qwen Code offers no skill named exactly `{name}` (it matches listed names, case included); its `skill` tool answers: {}",
            activation::not_found(name, &listing.names())
        ))
    };
    let Some(skill) = listing.get(name) else {
        if listing.is_bundled(name) {
            return fail(&format!(
                "`{name}` is one of Qwen Code's bundled skills, whose text is Qwen Code's own and not reproduced"
            ));
        }
        return not_found();
    };
    let path = skill.dir.join("SKILL.md");
    let bytes = fsread::read_file(&path, qwen_code::READ_LIMIT)
        .map_err(|e| io::Error::other(e.to_string()))?;
    let loaded = match qwen_code::load(&String::from_utf8_lossy(&bytes)) {
        Ok(loaded) => loaded,
        Err(_) => return fail(&format!("{} changed while it was read", path.display())),
    };
    match loaded.hidden {
        Some(qwen_code::Hidden::Paths) => {
            return fail(&format!(
                "Qwen Code holds `{name}` back until a tool touches a file its `paths:` match; its `skill` tool answers: {}",
                activation::gated(name)
            ));
        }
        Some(_) => return not_found(),
        None => {}
    }
    let dir = std::path::absolute(&skill.dir)?;
    let text = activation::render(&dir.to_string_lossy(), &loaded.body);
    if activation::is_cut(&text) {
        warn(&format!(
            "warning: the answer is {} characters long: Qwen Code cuts a tool result past about {} and saves the whole to a file of its own, so the model sees a shortened text (not reproduced)",
            text.encode_utf16().count(),
            activation::CUT_AFTER
        ));
    }
    if args.activation.json {
        return print(&format!("{}\n", serde_json::json!({ "content": text })));
    }
    print(&text)
}

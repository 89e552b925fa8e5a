//! `skb show --style kimi-code NAME PATHS`: the user message Kimi Code's
//! `Skill` tool adds (`skills_bundle::activation::kimi_code`), byte for
//! byte, from the skills discovery finds in the folders Kimi Code reads
//! (its loose `NAME.md` files included), each read as Kimi Code reads it
//! (`skills_compiler::client::kimi_code`): the skill loaded under NAME,
//! letter case aside, of two the one Kimi Code keeps. The skills are not
//! validated: a skill Kimi Code skips is not there, the others are shown
//! whatever a profile says of them.
//!
//! `--args` is the tool's `args`: its words fill `$0`, `$1`,
//! `$ARGUMENTS[N]` and the frontmatter's `arguments` names, the whole
//! `$ARGUMENTS`; without a placeholder it is appended as `ARGUMENTS:`.
//! `${KIMI_SESSION_ID}` is `--session-id` (default: `session_` and a new
//! random UUID, as a new session's). A name Kimi Code does not load, a skill with
//! `disable-model-invocation: true`, a `type: flow` or `reference` skill
//! and a built-in (Kimi Code's own text) are errors quoting Kimi Code's
//! answer. `--run-commands` is refused (Kimi Code runs no command of a
//! skill's text). `--json` prints `{"tool_result": ..., "text": ...}`.

use std::io;

use skills_bundle::activation::kimi_code as activation;
use skills_compiler::client::kimi_code::{self, Kind};
use skills_core::catalog::kimi_code::Scope;
use skills_core::fsread;

use crate::Outcome;
use crate::args::ShowArgs;
use crate::cmd::found::discovered;
use crate::output::fail;
use crate::output::print_text as print;

/// Runs `skb show --style kimi-code`; `new_id` makes a random UUID.
pub(super) fn run(args: &ShowArgs, new_id: fn() -> io::Result<String>) -> io::Result<Outcome> {
    if args.activation.run_commands {
        return fail(
            "Kimi Code runs no command of a skill's instructions: `` !`...` `` reaches the model as written (leave out --run-commands)",
        );
    }
    crate::cmd::found::folders_only(&args.from)?;
    let options = args.check.options().discovery;
    let Some(found) = discovered(&args.from, &options) else {
        return Ok(Outcome::Invalid);
    };
    let start = match args.from.as_slice() {
        [one] if one.is_dir() => Some(one.as_path()),
        _ => None,
    };
    let listing = kimi_code::listing_found(&found, start, &options);
    let name = args.name.as_str();
    let Some(skill) = listing.get(name) else {
        if listing.is_builtin(name) {
            return fail(&format!(
                "`{name}` is one of Kimi Code's built-in skills, whose text is Kimi Code's own and not reproduced"
            ));
        }
        return fail(&format!(
            "Kimi Code loads no skill named `{name}` (letter case aside); its `Skill` tool answers: {}",
            activation::not_found(name)
        ));
    };
    let bytes = fsread::read_file(&skill.file, kimi_code::READ_LIMIT)
        .map_err(|e| io::Error::other(e.to_string()))?;
    let (stem, directory) = kimi_code::stem(&skill.file);
    let Ok(loaded) = kimi_code::load(&String::from_utf8_lossy(&bytes), &stem, directory) else {
        return fail(&format!(
            "{} changed while it was read",
            skill.file.display()
        ));
    };
    if loaded.model_disabled {
        return fail(&format!(
            "Kimi Code lets only its user load `{name}`; its `Skill` tool answers: {}",
            activation::model_disabled(name)
        ));
    }
    if loaded.kind != Kind::Inline {
        return fail(&format!(
            "`{}` is not an inline skill (`type: flow` or `reference`); Kimi Code's `Skill` tool answers: {}",
            loaded.name,
            activation::not_inline(&loaded.name)
        ));
    }
    let session_id = match &args.activation.session_id {
        Some(id) => id.clone(),
        None => format!("session_{}", new_id()?),
    };
    let dir = skill.dir.to_string_lossy();
    let body = activation::expand(
        &loaded.body,
        &args.arguments,
        &loaded.arguments,
        &dir,
        &session_id,
    );
    let source = match skill.scope {
        Scope::User => Scope::User,
        _ => Scope::Project,
    };
    let text = activation::render(&activation::Loaded {
        name: &loaded.name,
        source: source.source(),
        dir: &dir,
        args: &args.arguments,
        body: &body,
    });
    if args.activation.json {
        return print(&format!(
            "{}\n",
            serde_json::json!({
                "tool_result": activation::tool_result(&loaded.name),
                "text": text,
            })
        ));
    }
    print(&text)
}

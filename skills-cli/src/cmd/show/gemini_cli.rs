//! `skb show --style gemini-cli NAME`: the `<activated_skill>` text Gemini
//! CLI answers its `activate_skill` tool with
//! (`skills_bundle::activation::gemini_cli`), byte for byte.
//!
//! The skills are those Gemini CLI would list from the folders discovery
//! finds (`skills_compiler::client::gemini_cli::listing`: its reading, its
//! order, the last skill of a name winning), not the validated ones: a
//! skill Gemini CLI lists is shown even where a profile would refuse it.
//! As in Gemini CLI, the name must be one of the listed names exactly (the
//! sanitised name: `ns-thing` for `name: ns:thing`; not the folder's name,
//! not another case); then Gemini CLI takes the first skill of its list
//! whose name is the same ignoring case, its built-ins first (a built-in's
//! text is Gemini CLI's own: such a call is refused, saying so). The text holds the skill's absolute
//! folder and its tree; nothing in the body is substituted, and Gemini CLI
//! takes no arguments (`--arguments` is refused with its own error), runs
//! no command (`--run-commands` is refused).

use std::io;

use skills_bundle::activation::gemini_cli as activation;
use skills_compiler::client::{Client, Listed, collate, gemini_cli};

use crate::Outcome;
use crate::args::ShowArgs;
use crate::cmd::found::discovered;
use crate::output::fail;
use crate::output::print_text as print;

/// What Gemini CLI answers a call naming a skill it does not list.
pub(super) const NOT_ALLOWED: &str = "params/name must be equal to one of the allowed values";

/// What Gemini CLI answers a call with an argument besides the name.
pub(super) const EXTRA_PARAMS: &str = "params must NOT have additional properties";

/// Runs `skb show --style gemini-cli`.
pub(super) fn run(args: &ShowArgs) -> io::Result<Outcome> {
    let name = args.name.as_str();
    if !args.arguments.is_empty() {
        return fail(&format!(
            "Gemini CLI's `activate_skill` takes only a name; with arguments it answers `{EXTRA_PARAMS}` (leave out --arguments)"
        ));
    }
    if args.activation.run_commands {
        return fail(
            "Gemini CLI runs no command of a skill's instructions: `!{...}` and `` !`...` `` reach the model as written (leave out --run-commands)",
        );
    }
    crate::cmd::found::folders_only(&args.from)?;
    let Some(found) = discovered(&args.from, &args.check.options().discovery) else {
        return Ok(Outcome::Invalid);
    };
    let listing = gemini_cli::listing(&found);
    // Gemini CLI's list: each built-in (or the skill named like it), then
    // the others; `None` stands for a built-in's own text.
    let builtins = Client::GeminiCli.info().builtin_skills;
    let mut list: Vec<(&str, Option<&Listed>)> = builtins
        .iter()
        .map(|b| match listing.listed.iter().find(|l| l.name == *b) {
            Some(l) => (l.name.as_str(), Some(l)),
            None => (*b, None),
        })
        .collect();
    list.extend(
        listing
            .listed
            .iter()
            .filter(|l| !builtins.contains(&l.name.as_str()))
            .map(|l| (l.name.as_str(), Some(l))),
    );
    if !list.iter().any(|(n, _)| *n == name) {
        return fail(&format!(
            "Gemini CLI lists no skill named exactly `{name}`, and answers `{NOT_ALLOWED}` (it takes only a listed name, as written: the frontmatter's `name` with `: \\ / < > * ? \" |` written `-`); listed: {}",
            names(&list)
        ));
    }
    // The name is allowed; Gemini CLI then takes the first skill whose name
    // is the same ignoring case.
    let lower = name.to_lowercase();
    let skill = match list.iter().find(|(n, _)| n.to_lowercase() == lower) {
        Some((_, Some(skill))) => *skill,
        Some((builtin, None)) => {
            return fail(&format!(
                "Gemini CLI activates its built-in skill `{builtin}` for `{name}`, whose text is Gemini CLI's own and not reproduced"
            ));
        }
        None => return fail(&format!("Gemini CLI lists no skill `{name}`")),
    };
    let text = activation_text(name, skill)?;
    if args.activation.json {
        return print(&format!("{}\n", serde_json::json!({ "output": text })));
    }
    print(&text)
}

/// The activation of `skill` called as `name`.
fn activation_text(name: &str, skill: &Listed) -> io::Result<String> {
    let bytes = skills_core::fsread::read_file(&skill.location, gemini_cli::READ_LIMIT)?;
    let text = String::from_utf8_lossy(&bytes);
    let body = gemini_cli::split(&text).map(|p| p.body).unwrap_or_default();
    let dir = skill
        .location
        .parent()
        .unwrap_or(&skill.location)
        .to_path_buf();
    let display = dir.to_string_lossy();
    let resources = activation::read_folder_structure(&dir, &display, collate);
    Ok(activation::render(name, body, &resources))
}

/// The names of `list`, the first few.
fn names(list: &[(&str, Option<&Listed>)]) -> String {
    const SHOWN: usize = 20;
    let mut out: Vec<&str> = list.iter().take(SHOWN).map(|(n, _)| *n).collect();
    let more = list.len().saturating_sub(SHOWN);
    let more = format!("and {more} more");
    if list.len() > SHOWN {
        out.push(&more);
    }
    out.join(", ")
}

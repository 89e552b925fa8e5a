//! `skb catalog --style <client>`: the listing a client shows its model,
//! made by reading each folder as that client reads it
//! (`skills_compiler::client`), not from the validated skills: a skill the
//! client lists is listed even where a profile would refuse it, and one the
//! client hides is left out. The folders are those discovery finds, read at
//! the levels the client reads ([`Client::reads_outside_repository`]);
//! `--user` adds the user's. An archive or pack is listed from its bundle.
//!
//! What is the same for every client is here once: the budget (refused for
//! a style that has none, [`Style::default_budget`]), the archive, the
//! discovery, the entry lines and the printing. What differs is each
//! client's own listing, one function each ([`claude_code()`], [`codex()`],
//! [`gemini_cli()`], [`opencode()`]), with the warnings that client gives on
//! the way, printed through [`warn`] so that every client's escape the same
//! characters.
//!
//! - Claude Code: its settings' `skillOverrides` hide a skill from the
//!   model; `--budget` replaces its listing budget.
//! - Codex: the `<skills_instructions>` block, with what Codex prints on
//!   stderr on the way (each skill it would not load, the budget notice).
//! - Gemini CLI: the `# Available Agent Skills` section of its system
//!   instruction, in its order and precedence; its two built-in skills are
//!   its own text and left out (a skill named like one takes its place,
//!   first); each skill that replaces another of its name is a warning.
//! - OpenCode: the `<available_skills>` block its system message ends with,
//!   sorted by name, one copy per name (the first found; a warning names
//!   both copies, as OpenCode's log does), without the skills it drops and
//!   those it loads without a description; its built-in
//!   `customize-opencode` is not listed.
//! - Copilot CLI: the `<available_skills>` block of its `skill` tool's
//!   section, project skills then the user's (`--user`) then its two
//!   built-ins, each at its level (`project`, `user`, `builtin`), one copy
//!   per name (a warning names the copy left out), whole entries within
//!   its budget and the rest named on one line (`--budget` replaces the
//!   15,000 characters).
//! - Qwen Code: the `<available_skills>` reminder of its first user
//!   message, its bundled skills sorted in (their text is Qwen Code
//!   0.24.4's), one copy per name, each entry at its level; a warning for
//!   each skill it drops.
//! - Kimi Code: the `# Skills` section its system message ends with,
//!   grouped by scope (`Project`, `User` with `--user`, then its three
//!   built-ins, whose text is Kimi Code 2.1.0's), loose `NAME.md` files of
//!   its folders included, one copy per name (letter case aside); a
//!   warning for each skill it skips.

use std::io;
use std::path::Path;

use skills_compiler::client::{
    self, Client, Listed, Outcome, claude_code, codex, copilot, gemini_cli, kimi_code, opencode,
    qwen_code,
};
use skills_compiler::{DiscoveryOptions, FoundSkill, UserFolders};
use skills_core::catalog::{self, Entry, Style};

use crate::Outcome as Exit;
use crate::args::CatalogArgs;
use crate::bundle::bundle_of;
use crate::cmd::claude_settings::{Override, Settings};
use crate::cmd::found::{self, unknown_line};
use crate::output::{print_catalog, warn};
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

/// What a client's listing gives: the catalog text, or `None` for nothing
/// to print (Codex prints nothing when no skill is listed).
type Listing = Option<String>;

/// Runs `skb catalog` for a client style.
pub fn run(args: &CatalogArgs, client: Client) -> io::Result<Exit> {
    let style = Style::of(client);
    if args.budget.is_some() && style.default_budget().is_none() {
        return no_budget(client);
    }
    let budget = budget(style, args.budget);
    let roots = args.roots();
    if let [one] = roots.as_slice()
        && input::is_archive(one)
    {
        let Some(bundle) = bundle_of(&roots, &args.check)? else {
            return Ok(Exit::Invalid);
        };
        return print_catalog(&bundle.catalog_style(style, budget));
    }
    let mut options = args.check.discovery.options();
    options.outside_repository = client.reads_outside_repository();
    // No path: what the client lists when started here, not every skill
    // below (a repository's test fixtures are no client's skills).
    options.as_project = args.paths.is_empty();
    let Some(found) = found::discovered(&roots, &options) else {
        return Ok(Exit::Invalid);
    };
    let listing = match client {
        Client::ClaudeCode => claude_code(&found, budget),
        Client::Codex => codex(&found, &options, budget),
        Client::GeminiCli => gemini_cli(&found),
        Client::OpenCode => opencode(&found),
        Client::Copilot => copilot(&found, budget),
        Client::QwenCode => qwen_code(&found),
        Client::KimiCode => kimi_code(&found, &options),
    };
    match listing {
        Some(text) => print_catalog(&text),
        None => Ok(Exit::Success),
    }
}

/// `--budget` refused for a client that has no budget, in its own words.
fn no_budget(client: Client) -> io::Result<Exit> {
    match client {
        Client::GeminiCli => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--budget: Gemini CLI has no budget for its skills section (it sends every listed skill in full, whatever their number and length); leave --budget out with --style gemini-cli",
        )),
        _ => {
            eprintln!(
                "skb: --budget: {} has no catalog budget (it lists every skill in full), so \
                 --style {} takes none",
                client.title(),
                client.as_str()
            );
            Ok(Exit::Invalid)
        }
    }
}

/// The entry lines of `listed` in `style`, each at the location `location`
/// gives it.
fn render(
    style: Style,
    listed: &[&Listed],
    location: impl Fn(&Listed) -> String,
    budget: Option<usize>,
) -> String {
    let locations: Vec<String> = listed.iter().map(|l| location(l)).collect();
    let entries: Vec<Entry<'_>> = listed
        .iter()
        .zip(&locations)
        .map(|(l, loc)| l.entry(loc))
        .collect();
    catalog::render_style(style, &entries, budget)
}

/// A location as the client writes it: the path found.
fn as_found(l: &Listed) -> String {
    l.location.to_string_lossy().into_owned()
}

/// Claude Code's listing, without the skills its settings' `skillOverrides`
/// hide from the model.
fn claude_code(found: &[FoundSkill], budget: Option<usize>) -> Listing {
    let settings = std::env::current_dir()
        .ok()
        .map(|cwd| Settings::current(&cwd))
        .unwrap_or_default();
    let listed: Vec<client::Listed> = claude_code::listing_found(found)
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
                    warn(&format!(
                        "warning: `skillOverrides` sets `{}` to \"name-only\", which is not modelled: it is listed with its description",
                        l.name
                    ));
                }
                Some(l)
            }
            Outcome::Unknown { why } => {
                warn(&unknown_line(
                    Client::ClaudeCode.title(),
                    &f.dir.join("SKILL.md"),
                    &why,
                ));
                None
            }
            _ => None,
        })
        .collect();
    let listed: Vec<&Listed> = listed.iter().collect();
    Some(render(Style::ClaudeCode, &listed, as_found, budget))
}

/// Codex's `<skills_instructions>` block for the skills discovery found
/// (in Codex's folders of a project, or under skill roots given directly),
/// with what Codex prints on stderr on the way: each skill it would not
/// load and why, and the notice when skills did not fit the budget.
fn codex(found: &[FoundSkill], options: &DiscoveryOptions, budget: Option<usize>) -> Listing {
    // Which root is `$CODEX_HOME/skills` or `~/.agents/skills` (given as a
    // path, or read with `--user`) orders and numbers them as Codex does.
    let user = options.user.clone().or_else(UserFolders::from_env);
    let listing = codex::listing(found, user.as_ref());
    for (path, why) in &listing.rejected {
        warn(&format!("warning: {}", codex::rejection_line(path, why)));
    }
    for (path, why) in &listing.unknown {
        warn(&unknown_line(Client::Codex.title(), path, why));
    }
    let rendered = listing.render(budget.unwrap_or(catalog::codex::DEFAULT_BUDGET))?;
    if let Some(notice) = rendered.notice() {
        warn(&format!("warning: {notice}"));
    }
    Some(rendered.text)
}

/// Gemini CLI's skills section, with its warnings for each skill that
/// replaces another of its name. Gemini CLI has no budget: every listed
/// skill is sent in full.
fn gemini_cli(found: &[FoundSkill]) -> Listing {
    let listing = gemini_cli::listing(found);
    for o in &listing.overrides {
        warn(&format!("warning: {}", o.line()));
    }
    for f in &listing.found {
        if let Outcome::Unknown { why } = &f.reading.outcome {
            warn(&unknown_line(
                Client::GeminiCli.title(),
                &f.dir.join("SKILL.md"),
                why,
            ));
        }
    }
    let listed: Vec<&Listed> = listing.listed.iter().collect();
    Some(render(Style::GeminiCli, &listed, as_found, None))
}

/// OpenCode's `<available_skills>` block, at absolute locations, with its
/// warnings for each skill it drops and each name two skills share.
/// OpenCode has no budget.
fn opencode(found: &[FoundSkill]) -> Listing {
    let listing = opencode::listing(found);
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    for f in &listing.found {
        let path = absolute(&f.skill_md);
        let path = path.display();
        match &f.reading.outcome {
            Outcome::Rejected { why } => warn(&format!("warning: OpenCode drops {path}: {why}")),
            Outcome::Unknown { why } => warn(&unknown_line(
                Client::OpenCode.title(),
                &absolute(&f.skill_md),
                why,
            )),
            _ => {}
        }
    }
    for d in &listing.duplicates {
        let d = opencode::Duplicate {
            name: d.name.clone(),
            kept: absolute(&d.kept),
            left_out: absolute(&d.left_out),
        };
        warn(&format!("warning: {}", d.warning()));
    }
    let listed = listing.listed();
    Some(render(
        Style::OpenCode,
        &listed,
        |l| absolute(&l.location).to_string_lossy().into_owned(),
        None,
    ))
}

/// Copilot CLI's `<available_skills>` block, with its warnings for each
/// skill it drops or does not list. Its built-ins end the list.
fn copilot(found: &[FoundSkill], budget: Option<usize>) -> Listing {
    let listing = copilot::listing(found);
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    for f in &listing.found {
        let path = absolute(&f.skill_md);
        match &f.reading.outcome {
            Outcome::Rejected { why } => warn(&format!(
                "warning: Copilot CLI drops {}: {why}",
                path.display()
            )),
            Outcome::NotListed { why } => warn(&format!(
                "warning: Copilot CLI does not list {}: {why}",
                path.display()
            )),
            Outcome::Unknown { why } => warn(&unknown_line(Client::Copilot.title(), &path, why)),
            Outcome::Listed(_) => {}
        }
    }
    let listed = listing.listed();
    let entries: Vec<Entry<'_>> = listed.iter().map(|(l, level)| l.entry(level)).collect();
    Some(catalog::copilot::render(
        &catalog::copilot::with_builtins(&entries),
        budget.unwrap_or(catalog::copilot::DEFAULT_BUDGET),
    ))
}

/// Qwen Code's `<available_skills>` reminder, with a warning for each
/// skill it drops. Its own size rule applies; there is no budget to set.
fn qwen_code(found: &[FoundSkill]) -> Listing {
    let listing = qwen_code::listing(found);
    for f in &listing.found {
        let path = f.dir.join("SKILL.md");
        match &f.reading.outcome {
            Outcome::Rejected { why } => warn(&format!("warning: {}: {why}", path.display())),
            Outcome::Unknown { why } => warn(&unknown_line(Client::QwenCode.title(), &path, why)),
            _ => {}
        }
    }
    Some(catalog::render_style(
        Style::QwenCode,
        &listing.entries(),
        None,
    ))
}

/// Kimi Code's `# Skills` section, with a warning for each skill it skips.
/// It has no budget: each description is cut to 250 units, every skill
/// listed.
fn kimi_code(found: &[FoundSkill], options: &DiscoveryOptions) -> Listing {
    let start = options.as_project.then_some(Path::new("."));
    let listing = kimi_code::listing_found(found, start, options);
    for f in &listing.found {
        match &f.reading.outcome {
            Outcome::Rejected { why } => warn(&format!("warning: {}: {why}", f.file.display())),
            Outcome::Unknown { why } => {
                warn(&unknown_line(Client::KimiCode.title(), &f.file, why));
            }
            _ => {}
        }
    }
    Some(catalog::kimi_code::render(&listing.groups()))
}

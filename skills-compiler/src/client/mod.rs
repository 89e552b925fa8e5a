//! How the clients skills are written for read them, as the clients were
//! recorded (Claude Code 2.1.330, Codex CLI 0.169.0): how each reads one
//! skill folder ([`read`]) and whether it then lists the skill to its model,
//! under which entry line, or why not ([`Outcome`]).
//!
//! Which clients there are, their names and their folders are the registry's
//! ([`skills_core::client`], re-exported here as [`Client`]); this module and
//! one module per client are their behaviour. Each client has its own reader
//! ([`claude_code`], [`codex`]); both answer
//! with the same [`Reading`], so the profiles, the reports and
//! `skb catalog --style` treat them alike. The entry lines themselves are
//! rendered by `skills_core::catalog`, from [`Listed::entry`].

mod absolute;
pub mod amp;
pub mod claude_code;
pub mod codex;
mod collate;
pub mod copilot;
pub mod diagnostics;
pub mod differences;
pub mod gemini_cli;
mod js_yaml;
pub mod kimi_code;
pub mod opencode;
pub mod qwen_code;
mod reading;
mod shared_yaml;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::checked::CheckedSkill;
use crate::discover::{Origin, Place};
use crate::parallel;
use crate::read::MAX_SKILL_MD;
use crate::source::Source;

pub use collate::collate;
pub use reading::{Listed, Note, Outcome, Reading};
pub use skills_core::client::{CLIENTS, Client, ClientInfo};

/// Why a client's reading is not known in a build without the
/// `codex-yaml` feature: Codex reads `SKILL.md` with libyaml, which only
/// that feature builds. Every profile makes the resulting
/// [`Outcome::Unknown`] an error, so no check passes on a reading it did not
/// make.
#[cfg(not(feature = "codex-yaml"))]
pub const NEEDS_CODEX_YAML: &str = "Codex reads `SKILL.md` with libyaml, which this build does not include (it needs the `codex-yaml` feature of `skills-compiler`, which `skb` enables): check it with `skb validate --profile codex`";

/// Reads the folder `dir` (a skill folder found in one of the client's skill
/// folders) as `client` would.
pub fn read(client: Client, dir: &Path) -> Reading {
    match client {
        Client::ClaudeCode => claude_code::read(dir),
        #[cfg(feature = "codex-yaml")]
        Client::Codex => codex::read(dir),
        #[cfg(not(feature = "codex-yaml"))]
        Client::Codex => Reading::new(Outcome::Unknown {
            why: NEEDS_CODEX_YAML.into(),
        }),
        Client::GeminiCli => gemini_cli::read(dir),
        Client::OpenCode => opencode::read(dir),
        Client::Copilot => copilot::read(dir),
        Client::QwenCode => qwen_code::read(dir),
        Client::KimiCode => kimi_code::read(dir),
    }
}

/// How `client` reads a checked skill, from the bytes the check already
/// read. Nothing is read again: a `SKILL.md` the check could not (or would
/// not, such as a link out of the skill) read is rejected unread. `None`
/// when the skill has no `SKILL.md` at all.
pub fn reading_of(client: Client, skill: &CheckedSkill) -> Option<Reading> {
    let path = skill.skill_md.as_ref()?;
    if path.file_name().is_some_and(|n| n != "SKILL.md") {
        let why = match client {
            Client::ClaudeCode => claude_code::no_skill_md(&skill.dir),
            Client::Codex => "no `SKILL.md` (Codex does not read `skill.md`)".into(),
            Client::GeminiCli => "no `SKILL.md` (Gemini CLI does not read `skill.md`)".into(),
            Client::OpenCode => "no `SKILL.md` (OpenCode does not read `skill.md`)".into(),
            Client::Copilot => "no `SKILL.md` (Copilot CLI does not read `skill.md`)".into(),
            Client::QwenCode => "no `SKILL.md` (Qwen Code does not read `skill.md`)".into(),
            Client::KimiCode => "no `SKILL.md` (Kimi Code does not read `skill.md`)".into(),
        };
        return Some(Reading::new(Outcome::NotListed { why }));
    }
    Some(match (&skill.source, client) {
        (Some(source), Client::ClaudeCode) => {
            let parsed =
                skill
                    .split
                    .as_ref()
                    .zip(skill.frontmatter.as_ref())
                    .map(|(split, root)| claude_code::Parsed {
                        yaml: &split.yaml,
                        root,
                    });
            claude_code::read_parsed(&skill.dir, path, source.bytes(), source.text(), parsed)
        }
        #[cfg(feature = "codex-yaml")]
        (Some(_), Client::Codex) => codex::read_checked(skill),
        #[cfg(not(feature = "codex-yaml"))]
        (Some(_), Client::Codex) => Reading::new(Outcome::Unknown {
            why: NEEDS_CODEX_YAML.into(),
        }),
        (Some(source), Client::GeminiCli) => match text_of(source) {
            Ok(text) => gemini_cli::read_text(path, &text),
            Err(bytes) => gemini_cli::read_bytes(&skill.dir, path, bytes),
        },
        (Some(source), Client::OpenCode) => match text_of(source) {
            Ok(text) => opencode::read_text(path, &text),
            Err(bytes) => opencode::read_bytes(&skill.dir, path, bytes),
        },
        (Some(source), Client::Copilot) => match text_of(source) {
            Ok(text) => copilot::read_text(&skill.dir, path, &text),
            Err(bytes) => copilot::read_bytes(&skill.dir, path, bytes),
        },
        (Some(source), Client::QwenCode) => match text_of(source) {
            Ok(text) => qwen_code::read_text(path, &text),
            Err(bytes) => qwen_code::read_bytes(&skill.dir, path, bytes),
        },
        (Some(source), Client::KimiCode) => match text_of(source) {
            Ok(text) => kimi_code::read_text(&skill.dir, path, &text),
            Err(bytes) => kimi_code::read_bytes(&skill.dir, path, bytes),
        },
        (None, _) => Reading::new(Outcome::Rejected {
            why: "`SKILL.md` could not be read (see the errors)".into(),
        }),
    })
}

/// The text of a `SKILL.md` the check read, as the readers of the JavaScript
/// clients are handed it (`read_text`): decoded with bad sequences
/// replaced, as those clients decode, and the check's own text when the
/// file is UTF-8, which the check decided once. `Err` with the bytes when
/// they are more than the check reads from a folder (a `SKILL.md` given as
/// bytes): each reader's `read_bytes` bounds those itself.
fn text_of(source: &Source) -> Result<Cow<'_, str>, &[u8]> {
    let bytes = source.bytes();
    if bytes.len() as u64 > MAX_SKILL_MD {
        return Err(bytes);
    }
    Ok(source
        .text()
        .map_or_else(|| String::from_utf8_lossy(bytes), Cow::Borrowed))
}

// A `SKILL.md` within what the check reads is within every reader's own
// bound, so `read_text` need not bound it again.
const _: () = assert!(
    MAX_SKILL_MD <= gemini_cli::READ_LIMIT
        && MAX_SKILL_MD <= opencode::READ_LIMIT
        && MAX_SKILL_MD <= copilot::READ_LIMIT
        && MAX_SKILL_MD <= qwen_code::READ_LIMIT
        && MAX_SKILL_MD <= kimi_code::READ_LIMIT
);

/// How `client` reads each of `skills`, taken as one listing (for Claude
/// Code: [`claude_code::resolve_names`]), read on up to `threads` worker
/// threads (0: one per core).
pub fn readings(client: Client, skills: &[CheckedSkill], threads: usize) -> Vec<Option<Reading>> {
    let mut readings = parallel::map(skills, threads, |s| reading_of(client, s));
    resolve(client, readings.iter_mut().flatten());
    resolve_listing(client, skills, readings.iter_mut().map(Option::as_mut));
    readings
}

/// The rules of a whole listing that some clients apply across skills
/// (which copy of a name wins, which folder hides which): Gemini CLI's,
/// Copilot CLI's, Qwen Code's and Kimi Code's, each in its own module.
fn resolve_listing<'r>(
    client: Client,
    skills: &[CheckedSkill],
    readings: impl IntoIterator<Item = Option<&'r mut Reading>>,
) {
    match client {
        Client::GeminiCli => gemini_cli::resolve(skills, readings),
        Client::Copilot => copilot::resolve(skills, readings),
        Client::QwenCode => qwen_code::resolve(skills, readings),
        Client::KimiCode => kimi_code::resolve(skills, readings),
        Client::ClaudeCode | Client::Codex | Client::OpenCode => {}
    }
}

/// How every client reads each of `skills`, in [`Client::ALL`] order, each
/// client taking them as one listing: [`readings`] for all clients in one
/// pass over the skills.
///
/// A skill found where a client does not look (another client's folder, a
/// level or depth it does not read: [`reads_folder`]) is not read by that
/// client at all: it does not list it.
pub fn all_readings(skills: &[CheckedSkill], threads: usize) -> Vec<Vec<(Client, Reading)>> {
    let mut per_skill = parallel::map(skills, threads, |s| {
        shared_yaml::one_skill(|| {
            Client::ALL
                .into_iter()
                .filter_map(|c| match other_clients_folder(c, s) {
                    Some(why) => Some((c, Reading::new(Outcome::NotListed { why }))),
                    None => Some((c, reading_of(c, s)?)),
                })
                .collect::<Vec<_>>()
        })
    });
    for c in Client::ALL {
        let of_client = per_skill
            .iter_mut()
            .flat_map(|readings| readings.iter_mut())
            .filter(|(rc, _)| *rc == c)
            .map(|(_, r)| r);
        resolve(c, of_client);
    }
    for c in [
        Client::GeminiCli,
        Client::Copilot,
        Client::QwenCode,
        Client::KimiCode,
    ] {
        let of_client = per_skill
            .iter_mut()
            .map(|readings| readings.iter_mut().find(|(rc, _)| *rc == c).map(|(_, r)| r));
        resolve_listing(c, skills, of_client);
    }
    per_skill
}

/// Whether `client` reads the skill found at `origin`: the folder is one of
/// its own at that place, and its scan reaches the skill there
/// ([`Origin::read_by`]).
pub fn reads_folder(client: Client, origin: &Origin) -> bool {
    origin.read_by(client)
}

/// Why `client` never sees `skill`, when discovery found it where that
/// client does not look (another client's folder, a level or a depth it
/// does not read).
pub fn other_clients_folder(client: Client, skill: &CheckedSkill) -> Option<String> {
    let origin = skill.origin.as_ref()?;
    if reads_folder(client, origin) {
        return None;
    }
    let folder = origin
        .folder
        .components()
        .rev()
        .take(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<PathBuf>();
    let readers: Vec<&str> = origin.readers().map(Client::title).collect();
    let whose = match readers.as_slice() {
        [] => "no client reads".to_string(),
        [one] => format!("only {one} reads"),
        [rest @ .., last] => format!("only {} and {last} read", rest.join(", ")),
    };
    let title = client.title();
    let own = client.info().project_folders.contains(&origin.rel);
    Some(match origin.place {
        Place::Project { level, .. }
            if own
                && !origin.folder_read_by(client)
                && client.info().levels == skills_core::client::Levels::RepositoryRoot =>
        {
            format!(
                "the skill is in `{}`, {level} level{} above the project folder and below the root of its git repository: {title} reads only the skills folders at the repository's root",
                folder.display(),
                if level == 1 { "" } else { "s" },
            )
        }
        Place::Project {
            level,
            outside_repository,
            ..
        } if own && !origin.folder_read_by(client) => {
            let why = if outside_repository {
                "the project is in no git repository, and {title} then reads the project folder's own skills folders only"
            } else {
                "{title} reads only the skills folders of the directory it is started in"
            };
            format!(
                "the skill is in `{}`, {level} level{} above the project folder: {}",
                folder.display(),
                if level == 1 { "" } else { "s" },
                why.replace("{title}", title)
            )
        }
        _ if !origin.folder_read_by(client) => {
            format!("the skill is in `{}`, a folder {whose}", folder.display(),)
        }
        _ if origin.depth == 0 => format!(
            "the skill is the skills folder `{}` itself (a `SKILL.md` directly in it), which {title} does not load",
            folder.display()
        ),
        _ if origin.hidden => format!(
            "the skill is in a hidden folder (`.name`) below `{}`, which {title} skips",
            folder.display()
        ),
        _ => format!(
            "the skill is {} levels below `{}`, deeper than {title} looks",
            origin.depth,
            folder.display()
        ),
    })
}

/// What a client decides only from the whole listing.
fn resolve<'r>(client: Client, readings: impl Iterator<Item = &'r mut Reading>) {
    match client {
        Client::ClaudeCode => claude_code::resolve_names(readings),
        Client::OpenCode => opencode::resolve_names(readings),
        _ => {}
    }
}

#[cfg(test)]
mod tests;

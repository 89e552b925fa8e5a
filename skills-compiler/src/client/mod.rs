//! The clients skills are written for, modelled as they were recorded
//! (`../shared/clients/BEHAVIOUR.md`): how each reads one skill folder
//! ([`read`]) and whether it then lists the skill to its model, under which
//! entry line, or why not ([`Outcome`]).
//!
//! Each client has its own reader ([`claude_code`], [`codex`]); both answer
//! with the same [`Reading`], so the profiles, the reports and
//! `skills catalog --style` treat them alike. The entry lines themselves are
//! rendered by `skills_core::catalog`, from [`Listed::entry`].

pub mod claude_code;
pub mod codex;
mod collate;
pub mod diagnostics;

use std::path::{Path, PathBuf};

use skills_core::catalog::{self, Entry, Style};

use crate::diag::Code;
use crate::skill::CheckedSkill;

pub use collate::collate;

/// A client that reads skill folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Client {
    /// Claude Code (recorded: 2.1.330).
    ClaudeCode,
    /// OpenAI's Codex CLI (recorded: 0.169.0).
    #[cfg(feature = "codex-yaml")]
    Codex,
}

impl Client {
    /// Every client.
    #[cfg(feature = "codex-yaml")]
    pub const ALL: [Client; 2] = [Client::ClaudeCode, Client::Codex];
    /// Every client.
    #[cfg(not(feature = "codex-yaml"))]
    pub const ALL: [Client; 1] = [Client::ClaudeCode];

    /// The client's name: `claude-code` or `codex`.
    pub fn as_str(self) -> &'static str {
        match self {
            Client::ClaudeCode => "claude-code",
            #[cfg(feature = "codex-yaml")]
            Client::Codex => "codex",
        }
    }

    /// Parses a client name.
    pub fn from_name(name: &str) -> Option<Client> {
        Client::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// The catalog dialect the client lists skills in.
    pub fn style(self) -> Style {
        match self {
            Client::ClaudeCode => Style::ClaudeCode,
            #[cfg(feature = "codex-yaml")]
            Client::Codex => Style::Codex,
        }
    }
}

impl std::fmt::Display for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a client does with one skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Loaded and listed to the model.
    Listed(Listed),
    /// Not listed to the model: loaded but hidden (`disable-model-invocation`,
    /// `paths`), or not a skill to this client at all (no `SKILL.md`, a
    /// loose file). `why` is a sentence in our words.
    NotListed {
        /// Why.
        why: String,
    },
    /// Refused: the folder is a skill the client would not load (a
    /// `SKILL.md` over Claude Code's size limit; Codex's load errors). `why`
    /// is the client's own reason where it prints one.
    Rejected {
        /// Why.
        why: String,
    },
}

impl Outcome {
    /// The listed entry, if any.
    pub fn listed(&self) -> Option<&Listed> {
        match self {
            Outcome::Listed(l) => Some(l),
            _ => None,
        }
    }
}

/// A listed skill: the fields its entry line is made of, as the client read
/// them (descriptions before the dialect's whitespace, escaping and length
/// rules, which [`Listed::line`] applies).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The name the entry starts with (Claude Code: the folder name; Codex:
    /// the frontmatter name).
    pub name: String,
    /// A second name shown in parentheses (Claude Code's frontmatter name,
    /// where its rules show it; see [`claude_code::listing`] for the rule
    /// that needs the other skills).
    pub alias: Option<String>,
    /// The description the client derived.
    pub description: String,
    /// `when_to_use`, for clients that append it.
    pub when_to_use: Option<String>,
    /// The `SKILL.md` the entry points to.
    pub location: PathBuf,
    /// The client this entry is for.
    pub client: Client,
}

impl Listed {
    /// The catalog entry, with `location` as the location shown.
    pub fn entry<'a>(&'a self, location: &'a str) -> Entry<'a> {
        Entry {
            name: &self.name,
            alias: self.alias.as_deref(),
            description: &self.description,
            when_to_use: self.when_to_use.as_deref(),
            location,
        }
    }

    /// The entry line the model sees (Codex: with the full `SKILL.md` path
    /// as the file; its listing shortens it against a root).
    pub fn line(&self) -> String {
        let location = self.location.to_string_lossy();
        let entry = self.entry(&location);
        match self.client {
            Client::ClaudeCode => catalog::claude_code::entry_line(&entry),
            #[cfg(feature = "codex-yaml")]
            Client::Codex => catalog::codex::line(&entry),
        }
    }
}

/// Something the client does differently from what the author wrote, as a
/// stable code and a sentence: the profiles turn each into a warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The code.
    pub code: Code,
    /// What the client does, in our words.
    pub message: String,
}

/// One folder as a client reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// Listed, not listed, or rejected.
    pub outcome: Outcome,
    /// Where it loads the skill differently from what the author wrote.
    pub notes: Vec<Note>,
}

impl Reading {
    fn new(outcome: Outcome) -> Reading {
        Reading {
            outcome,
            notes: Vec::new(),
        }
    }

    fn note(&mut self, code: Code, message: impl Into<String>) {
        self.notes.push(Note {
            code,
            message: message.into(),
        });
    }
}

/// Reads the folder `dir` (a skill folder found in one of the client's skill
/// folders) as `client` would.
pub fn read(client: Client, dir: &Path) -> Reading {
    match client {
        Client::ClaudeCode => claude_code::read(dir),
        #[cfg(feature = "codex-yaml")]
        Client::Codex => codex::read(dir),
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
            #[cfg(feature = "codex-yaml")]
            Client::Codex => "no `SKILL.md` (Codex does not read `skill.md`)".into(),
        };
        return Some(Reading::new(Outcome::NotListed { why }));
    }
    Some(match (&skill.source, client) {
        (Some(source), Client::ClaudeCode) => {
            claude_code::read_loaded(&skill.dir, path, source.bytes())
        }
        #[cfg(feature = "codex-yaml")]
        (Some(_), Client::Codex) => codex::read_checked(skill),
        (None, _) => Reading::new(Outcome::Rejected {
            why: "`SKILL.md` could not be read (see the errors)".into(),
        }),
    })
}

/// How `client` reads each of `skills`, taken as one listing (for Claude
/// Code: [`claude_code::resolve_names`]).
pub fn readings(client: Client, skills: &[CheckedSkill]) -> Vec<Option<Reading>> {
    let mut readings: Vec<Option<Reading>> = skills.iter().map(|s| reading_of(client, s)).collect();
    if client == Client::ClaudeCode {
        claude_code::resolve_names(readings.iter_mut().flatten());
    }
    readings
}

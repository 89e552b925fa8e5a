//! What a client makes of one skill folder: [`Reading`], its [`Outcome`]
//! (listed, under which [`Listed`] entry, or why not) and its [`Note`]s.
//! Every client's reader answers with these, so the profiles, the reports
//! and the catalogs treat all clients alike.

use std::path::PathBuf;

use skills_core::catalog::{self, Entry};
use skills_core::client::Client;

use crate::diag::Code;

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
    /// Not known: the skill is past one of this tool's bounds (`why` names
    /// it), so its reading was not modelled; the client itself may read it.
    /// Never a verdict: every profile makes it an error (`SK005`).
    Unknown {
        /// Why, naming the bound.
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
    /// where its rules show it; see [`claude_code::listing`](crate::client::claude_code::listing) for the rule
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
        let location = match self.client {
            // Qwen Code shows a level where the others show a path.
            Client::QwenCode => crate::client::qwen_code::level::level_of(&self.location)
                .as_str()
                .into(),
            _ => self.location.to_string_lossy(),
        };
        let entry = self.entry(&location);
        catalog::client_entry_line(self.client, &entry)
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
    pub(crate) fn new(outcome: Outcome) -> Reading {
        Reading {
            outcome,
            notes: Vec::new(),
        }
    }

    pub(crate) fn note(&mut self, code: Code, message: impl Into<String>) {
        self.notes.push(Note {
            code,
            message: message.into(),
        });
    }
}

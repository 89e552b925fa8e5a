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

pub mod claude_code;
pub mod codex;
mod collate;
pub mod diagnostics;

use std::path::{Path, PathBuf};

use skills_core::catalog::{self, Entry};

use crate::diag::Code;
use crate::discover::Origin;
use crate::parallel;
use crate::skill::CheckedSkill;

pub use collate::collate;
pub use skills_core::client::{CLIENTS, Client, ClientInfo};

/// Why a client's reading is not known in a build without the
/// `codex-yaml` feature: Codex reads `SKILL.md` with libyaml, which only
/// that feature builds. Every profile makes the resulting
/// [`Outcome::Unknown`] an error, so no check passes on a reading it did not
/// make.
#[cfg(not(feature = "codex-yaml"))]
pub const NEEDS_CODEX_YAML: &str = "Codex reads `SKILL.md` with libyaml, which this build does not include (it needs the `codex-yaml` feature of `skills-compiler`, which `skb` enables): check it with `skb validate --profile codex`";

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
        #[cfg(not(feature = "codex-yaml"))]
        Client::Codex => Reading::new(Outcome::Unknown {
            why: NEEDS_CODEX_YAML.into(),
        }),
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
        (None, _) => Reading::new(Outcome::Rejected {
            why: "`SKILL.md` could not be read (see the errors)".into(),
        }),
    })
}

/// How `client` reads each of `skills`, taken as one listing (for Claude
/// Code: [`claude_code::resolve_names`]), read on up to `threads` worker
/// threads (0: one per core).
pub fn readings(client: Client, skills: &[CheckedSkill], threads: usize) -> Vec<Option<Reading>> {
    let mut readings = parallel::map(skills, threads, |s| reading_of(client, s));
    resolve(client, readings.iter_mut().flatten());
    readings
}

/// How every client reads each of `skills`, in [`Client::ALL`] order, each
/// client taking them as one listing: [`readings`] for all clients in one
/// pass over the skills.
///
/// A skill found in a client's skills folder is not read by the other
/// client at all (Claude Code reads only `.claude/skills`, Codex only
/// `.agents/skills` and `.codex/skills`): that client does not list it.
pub fn all_readings(skills: &[CheckedSkill], threads: usize) -> Vec<Vec<(Client, Reading)>> {
    let mut per_skill = parallel::map(skills, threads, |s| {
        Client::ALL
            .into_iter()
            .filter_map(|c| match other_clients_folder(c, s) {
                Some(why) => Some((c, Reading::new(Outcome::NotListed { why }))),
                None => Some((c, reading_of(c, s)?)),
            })
            .collect::<Vec<_>>()
    });
    for c in Client::ALL {
        let of_client = per_skill
            .iter_mut()
            .flat_map(|readings| readings.iter_mut())
            .filter(|(rc, _)| *rc == c)
            .map(|(_, r)| r);
        resolve(c, of_client);
    }
    per_skill
}

/// Whether `client` reads the skills folder `origin` (each client reads
/// only its own: Claude Code `.claude/skills`, Codex `.agents/skills` and
/// `.codex/skills`).
pub fn reads_folder(client: Client, origin: &Origin) -> bool {
    origin.client == client
}

/// Why `client` never sees `skill`, when discovery found it in another
/// client's skills folder.
pub fn other_clients_folder(client: Client, skill: &CheckedSkill) -> Option<String> {
    let origin = skill.origin.as_ref()?;
    (!reads_folder(client, origin)).then(|| {
        let folder = origin
            .folder
            .components()
            .rev()
            .take(2)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<PathBuf>();
        format!(
            "the skill is in {}'s folder `{}`, which {} does not read",
            origin.client.title(),
            folder.display(),
            client.title()
        )
    })
}

/// What a client decides only from the whole listing.
fn resolve<'r>(client: Client, readings: impl Iterator<Item = &'r mut Reading>) {
    if client == Client::ClaudeCode {
        claude_code::resolve_names(readings);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;
    use std::path::PathBuf;

    /// Every skill directory under `root` (a `SKILL.md` or `skill.md` in it).
    fn skill_dirs(root: &Path, out: &mut Vec<PathBuf>) {
        let Ok(read) = std::fs::read_dir(root) else {
            return;
        };
        let mut entries: Vec<PathBuf> = read.filter_map(|e| Some(e.ok()?.path())).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                if path.join("SKILL.md").is_file() || path.join("skill.md").is_file() {
                    out.push(path.clone());
                }
                skill_dirs(&path, out);
            }
        }
    }

    /// Claude Code's reading of a checked skill takes the check's parse of
    /// the frontmatter where it can; it must equal the reading from the
    /// bytes alone, on the reference's edge cases and on the corpus.
    #[test]
    fn readings_from_the_checks_parse_equal_readings_from_the_bytes() {
        let mut dirs = Vec::new();
        skill_dirs(&crate::shared("golden/cases"), &mut dirs);
        let golden = dirs.len();
        skill_dirs(&crate::shared("corpus/collections"), &mut dirs);
        assert!(
            golden > 50 && dirs.len() > golden + 400,
            "{} skills: ../shared is missing",
            dirs.len()
        );
        let options = Options::default();
        let mut reused = 0;
        for dir in &dirs {
            let skill = crate::check_skill(dir, None, &options);
            let (Some(path), Some(source)) = (&skill.skill_md, &skill.source) else {
                continue;
            };
            let from_bytes = claude_code::read_loaded(&skill.dir, path, source.bytes());
            let checked = reading_of(Client::ClaudeCode, &skill);
            if path.file_name().is_some_and(|n| n == "SKILL.md") {
                assert_eq!(checked.as_ref(), Some(&from_bytes), "{}", dir.display());
                reused += usize::from(skill.frontmatter.is_some());
            }
        }
        assert!(reused > 400, "the check's parse was taken {reused} times");
    }

    /// Without the `codex-yaml` feature the `codex` profile still exists,
    /// and a skill Codex would read is an error naming the feature: no check
    /// passes on a reading this build cannot make.
    #[test]
    fn the_codex_profile_names_the_feature_it_needs() -> std::io::Result<()> {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("SKILL.md"), "---\nname: s\ndescription: D.\n---\n")?;
        let options = Options {
            profile: crate::Profile::Codex,
            ..Options::default()
        };
        let skill = crate::check_dir(&dir, &options);
        let errors: Vec<&str> = skill
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.as_str())
            .collect();
        if cfg!(feature = "codex-yaml") {
            assert_eq!(errors, Vec::<&str>::new());
        } else {
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert!(errors[0].contains("`codex-yaml` feature"), "{errors:?}");
        }
        Ok(())
    }

    #[test]
    fn the_same_yaml_is_the_checks_range_less_the_opening_lines_break() {
        let file = "---\nname: a\n---\nbody";
        let yaml = &file[4..12];
        assert!(claude_code::same_yaml(file, yaml, &(3..12)));
        assert!(claude_code::same_yaml(file, yaml, &(4..12)));
        assert!(!claude_code::same_yaml(file, yaml, &(3..11)));
        let file = "---\r\nname: a\r\n---\r\n";
        assert!(claude_code::same_yaml(file, &file[5..14], &(3..14)));
        let file = "--- \nname: a\n---\n";
        assert!(!claude_code::same_yaml(file, &file[5..13], &(3..13)));
        let other = String::from(&file[5..13]);
        assert!(!claude_code::same_yaml(file, &other, &(3..13)));
    }
}

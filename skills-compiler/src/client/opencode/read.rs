//! OpenCode's reading of one `SKILL.md`: loaded under a name, dropped, or
//! not known, as a [`Reading`].

use std::path::Path;

use skills_core::fsread::{self, Reason};

use crate::client::reading::{Listed, Outcome, Reading};
use crate::diag::Code;
use crate::yaml::{self, Node};
use skills_core::client::Client;

use super::matter::{matter, sanitize};
use super::yaml::YamlError;

/// The largest `SKILL.md` this module reads. OpenCode has no limit (none
/// recorded); past this one its reading is not known.
pub const READ_LIMIT: u64 = 16 << 20;

/// A `SKILL.md` as OpenCode loads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The frontmatter `name`, as written.
    pub name: String,
    /// The frontmatter `description`; `None` when there is none (loaded,
    /// not listed).
    pub description: Option<String>,
    /// The body: everything after the frontmatter (untrimmed; the `skill`
    /// tool trims it).
    pub body: String,
    /// Whether the YAML parsed only after OpenCode's rewrite ([`sanitize`]).
    pub sanitized: bool,
}

/// What OpenCode makes of a `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Load {
    /// Loaded.
    Loaded(Loaded),
    /// Dropped: not loaded, not listed, not activatable. Why, in our words.
    Dropped(String),
    /// Past one of this tool's bounds: not known.
    Unknown(String),
}

/// Loads `text` (a whole `SKILL.md`) as OpenCode does.
pub fn load(text: &str) -> Load {
    let (parsed, body, sanitized) = match matter(text) {
        Ok((parsed, body)) => (parsed, body, false),
        Err(YamlError::Beyond(limit)) => return beyond(limit),
        Err(YamlError::NotModelled(why)) => return Load::Unknown(why),
        Err(YamlError::Invalid(first)) => {
            let Some(rewritten) = sanitize(text) else {
                return Load::Dropped(format!("the YAML does not parse ({first})"));
            };
            match matter(&rewritten) {
                Ok((parsed, body)) => (parsed, body, true),
                Err(YamlError::Beyond(limit)) => return beyond(limit),
                Err(YamlError::NotModelled(why)) => return Load::Unknown(why),
                Err(YamlError::Invalid(_)) => {
                    return Load::Dropped(format!(
                        "the YAML does not parse ({first}), even with the values holding a `:` \
                         made block scalars"
                    ));
                }
            }
        }
    };
    let Some(yaml) = parsed else {
        return Load::Dropped(
            "no frontmatter (the file must start with `---`), so no `name`".into(),
        );
    };
    if yaml.root().and_then(Node::as_map).is_none() {
        return Load::Dropped(
            "the frontmatter is empty or not a mapping, so there is no `name`".into(),
        );
    }
    let name = match yaml.string("name") {
        Ok(Some(name)) => name,
        Ok(None) => return Load::Dropped("no `name`".into()),
        Err(kind) => {
            return Load::Dropped(format!("`name` is a {kind}, not a string"));
        }
    };
    let description = match yaml.string("description") {
        Ok(d) => d,
        Err(kind) => {
            return Load::Dropped(format!("`description` is a {kind}, not a string"));
        }
    };
    Load::Loaded(Loaded {
        name,
        description,
        body,
        sanitized,
    })
}

fn beyond(limit: yaml::Limit) -> Load {
    Load::Unknown(format!(
        "the YAML {}, the most this tool reads; what OpenCode reads past that is not recorded",
        limit.phrase()
    ))
}

/// Reads the skill folder `dir` as OpenCode does.
pub fn read(dir: &Path) -> Reading {
    let path = dir.join("SKILL.md");
    match fsread::read_file(&path, READ_LIMIT + 1) {
        Ok(bytes) => read_bytes(dir, &path, &bytes),
        Err(e) if e.is_not_found() => Reading::new(Outcome::NotListed {
            why: "no `SKILL.md` (OpenCode reads only files named exactly `SKILL.md`)".into(),
        }),
        Err(e) => Reading::new(match e.reason {
            Reason::TooLarge { .. } => Outcome::Unknown {
                why: format!(
                    "`SKILL.md` is over {READ_LIMIT} bytes, the most this tool reads for OpenCode"
                ),
            },
            reason => Outcome::Rejected {
                why: format!("`SKILL.md` cannot be read: {reason}"),
            },
        }),
    }
}

/// Reads `bytes`, the `SKILL.md` at `path` of the skill folder `dir`, as
/// OpenCode does.
pub fn read_bytes(_dir: &Path, path: &Path, bytes: &[u8]) -> Reading {
    read_named(path, bytes).0
}

/// [`read_bytes`], and the name the skill is loaded under when it is
/// (listed or not).
pub(super) fn read_named(path: &Path, bytes: &[u8]) -> (Reading, Option<String>) {
    if bytes.len() as u64 > READ_LIMIT {
        return (
            Reading::new(Outcome::Unknown {
                why: format!(
                    "`SKILL.md` is over {READ_LIMIT} bytes, the most this tool reads for OpenCode"
                ),
            }),
            None,
        );
    }
    read_text_named(path, &String::from_utf8_lossy(bytes))
}

/// Reads `text`, the `SKILL.md` at `path` decoded as [`read_bytes`]
/// decodes it, as OpenCode does. The caller has bounded its size
/// ([`READ_LIMIT`]).
pub fn read_text(path: &Path, text: &str) -> Reading {
    read_text_named(path, text).0
}

/// [`read_text`], and the name the skill is loaded under when it is.
fn read_text_named(path: &Path, text: &str) -> (Reading, Option<String>) {
    let loaded = match load(text) {
        Load::Loaded(l) => l,
        Load::Dropped(why) => return (Reading::new(Outcome::Rejected { why }), None),
        Load::Unknown(why) => return (Reading::new(Outcome::Unknown { why }), None),
    };
    let mut reading = Reading::new(Outcome::NotListed { why: String::new() });
    if loaded.sanitized {
        reading.note(
            Code::ClientYamlUnread,
            "the YAML does not parse as written; OpenCode reads it again with each top-level \
             value holding a `:` made a block scalar",
        );
    }
    let name = loaded.name;
    reading.outcome = match loaded.description {
        Some(description) => Outcome::Listed(Listed {
            name: name.clone(),
            alias: None,
            description,
            when_to_use: None,
            location: path.to_path_buf(),
            client: Client::OpenCode,
        }),
        None => Outcome::NotListed {
            why: format!(
                "no `description`: OpenCode loads the skill, and its `skill` tool activates it \
                 by name (`{name}`), but leaves it out of the catalog"
            ),
        },
    };
    (reading, Some(name))
}

//! How Gemini CLI reads one `SKILL.md`: the frontmatter split, the fields
//! (YAML or the line reading), the sanitised name, and the [`Reading`]
//! with its notes. The module above says what Gemini CLI does and why.

use super::fields::{Fields, fields};
use super::frontmatter::split;
use std::path::{Component, Path, PathBuf};

use skills_core::client::Client;
use skills_core::fsread;

use super::super::reading::{Listed, Outcome, Reading};
use crate::diag::Code;
use crate::render;

/// The largest `SKILL.md` this tool reads (Gemini CLI showed no limit).
pub const READ_LIMIT: u64 = 16 << 20;

/// The characters of a name that Gemini CLI lists as `-`.
pub const SANITIZED: [char; 9] = [':', '\\', '/', '<', '>', '*', '?', '"', '|'];

/// The longest text quoted whole in a note, in characters.
const QUOTED: usize = 120;

/// `name` as Gemini CLI lists it: each of [`SANITIZED`] replaced by `-`.
pub fn sanitize(name: &str) -> String {
    name.replace(SANITIZED, "-")
}

/// `path` made absolute against the working directory and cleared of `.`
/// and `..` without following links, as Node's `path.resolve` does (the
/// location Gemini CLI shows and the folder it activates).
pub fn resolved(path: &Path) -> PathBuf {
    let absolute = crate::client::absolute::absolute(path);
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(part);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Reads the skill folder `dir` as Gemini CLI does.
pub fn read(dir: &Path) -> Reading {
    let path = dir.join("SKILL.md");
    match fsread::read_file(&path, READ_LIMIT) {
        Ok(bytes) => read_bytes(dir, &path, &bytes),
        Err(e) if e.is_not_found() => Reading::new(Outcome::NotListed {
            why: if dir.join("skill.md").is_file() {
                "no `SKILL.md` (Gemini CLI does not read `skill.md`)".into()
            } else {
                "no `SKILL.md` in this folder".into()
            },
        }),
        Err(e) => Reading::new(match e.reason {
            fsread::Reason::TooLarge { .. } => Outcome::Unknown {
                why: format!(
                    "`SKILL.md` is over {READ_LIMIT} bytes, the most this tool reads; Gemini CLI reads it whole"
                ),
            },
            reason => Outcome::NotListed {
                why: format!("`SKILL.md` cannot be read: {reason}"),
            },
        }),
    }
}

/// Reads `bytes`, the `SKILL.md` at `path` of the skill folder `dir`, as
/// Gemini CLI does: decoded as UTF-8 with bad sequences replaced, as Node
/// decodes it, then [`read_text`].
pub fn read_bytes(_dir: &Path, path: &Path, bytes: &[u8]) -> Reading {
    if bytes.len() as u64 > READ_LIMIT {
        return Reading::new(Outcome::Unknown {
            why: format!(
                "`SKILL.md` is over {READ_LIMIT} bytes, the most this tool reads; Gemini CLI reads it whole"
            ),
        });
    }
    read_text(path, &String::from_utf8_lossy(bytes))
}

/// Reads `text`, the `SKILL.md` at `skill_md`, as Gemini CLI does.
pub fn read_text(skill_md: &Path, text: &str) -> Reading {
    let skip = |why: String| {
        Reading::new(Outcome::NotListed {
            why: format!("{why} (Gemini CLI skips such a skill without a word)"),
        })
    };
    let parts = match split(text) {
        Ok(parts) => parts,
        Err(no) => return skip(no.why().to_owned()),
    };
    let mut reading = Reading::new(Outcome::NotListed { why: String::new() });
    let (name, description) = match fields(parts.yaml) {
        Fields::Yaml { name, description } => (name, description),
        Fields::Unknown { why } => return Reading::new(Outcome::Unknown { why }),
        Fields::Lines {
            why,
            name: Some(name),
            description: Some(description),
        } => {
            reading.note(
                Code::ClientYamlUnread,
                format!(
                    "{why}; Gemini CLI reads `name:` and `description:` from the lines as written instead, and lists the skill as `{}` with the description `{}`",
                    sanitize(&name),
                    render::elided(&description, QUOTED)
                ),
            );
            (name, description)
        }
        Fields::Lines {
            why,
            name,
            description,
        } => {
            let missing = match (name, description) {
                (None, None) => "`name:` or `description:` line",
                (None, _) => "`name:` line",
                _ => "`description:` line",
            };
            return skip(format!("{why}, and no {missing} gives one either"));
        }
    };
    let shown = sanitize(&name);
    if shown != name {
        reading.note(
            Code::ClientNameNotShown,
            format!(
                "Gemini CLI lists and activates this skill as `{shown}`: it writes `-` for each `:`, `\\`, `/`, `<`, `>`, `*`, `?`, `\"` and `|` of the name `{}`",
                render::elided(&name, QUOTED)
            ),
        );
    }
    reading.outcome = Outcome::Listed(Listed {
        name: shown,
        alias: None,
        description,
        when_to_use: None,
        location: resolved(skill_md),
        client: Client::GeminiCli,
    });
    reading
}

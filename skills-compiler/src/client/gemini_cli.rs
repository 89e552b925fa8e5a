//! How Gemini CLI 0.61.0 reads a skill folder, as it was observed to when
//! run on test folders: whether it lists the skill, under which name, with
//! which description, and in which order ([`listing`]).
//!
//! * The folder's file must be named exactly `SKILL.md`. It is decoded as
//!   UTF-8 (bad sequences replaced); there is no size limit (this tool reads
//!   up to [`READ_LIMIT`] bytes).
//! * The frontmatter must start at the very first byte: `---` and a line
//!   break (`\r\n` accepted), closed by the first line that starts with
//!   `---` ([`split`]). A byte-order mark, a blank line before `---`, no
//!   frontmatter or an unclosed one: the skill is skipped, silently.
//! * The YAML is parsed; when it does not parse, or its `name` and
//!   `description` are not both text (a number, a list, missing), the
//!   lines are read instead ([`line_fields`]): `description: Use when: x`
//!   is listed as written, `description: 12345` as `12345`, a list as its
//!   items joined (`- item one - item two`). See [`fields`] for the YAML.
//! * A skill without both a `name` and a `description` is skipped,
//!   silently. An empty description is listed empty.
//! * The name is listed as written, but each of `: \ / < > * ? " |`
//!   becomes `-` ([`sanitize`]); there is no other name rule (spaces,
//!   capitals, 80 characters, a name unlike the folder's are all listed).
//! * The description is listed as the YAML gives it: line breaks of block
//!   scalars kept, nothing collapsed, escaped or cut.
//! * The entry's location is the absolute path of `SKILL.md` (not
//!   resolving links).
//!
//! A skill Gemini CLI skips is [`Outcome::NotListed`], with the reason;
//! under the `gemini-cli` profile that is an error (Gemini CLI says
//! nothing, and the skill is simply absent). Where it lists a skill
//! differently from what was written, the reading carries a [`Note`](super::Note):
//! the name sanitised (`SK403`), the YAML not used and the lines read
//! instead (`SK407`).

mod fields;
mod frontmatter;
mod listing;

use std::path::{Component, Path, PathBuf};

use skills_core::client::Client;
use skills_core::fsread;

use super::reading::{Listed, Outcome, Reading};
use crate::diag::Code;
use crate::render;

pub use fields::{Fields, fields};
pub use frontmatter::{NoFrontmatter, Parts, line_fields, split};
pub use listing::{Found, Listing, Override, listing, resolve};

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
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
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

#[cfg(test)]
mod tests;

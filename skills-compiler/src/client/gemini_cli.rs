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
//! A skill Gemini CLI skips is [`Outcome::NotListed`](super::Outcome::NotListed), with the reason;
//! under the `gemini-cli` profile that is an error (Gemini CLI says
//! nothing, and the skill is simply absent). Where it lists a skill
//! differently from what was written, the reading carries a [`Note`](super::Note):
//! the name sanitised (`SK403`), the YAML not used and the lines read
//! instead (`SK407`).

mod fields;
mod frontmatter;
mod listing;
mod read;

pub use fields::{Fields, fields};
pub use frontmatter::{NoFrontmatter, Parts, line_fields, split};
pub use listing::{Found, Listing, Override, listing, resolve};
pub use read::{READ_LIMIT, SANITIZED, read, read_bytes, read_text, resolved, sanitize};

#[cfg(test)]
mod tests;

//! How GitHub Copilot CLI 1.0.102 reads skill folders, as it was observed
//! to when run on test folders (`copilot-qwen-kimi/` in the shared
//! recordings): which `SKILL.md` it loads, the name and description it
//! lists ([`load`]), which copy of a name it keeps and the order of its
//! catalog ([`listing`]).
//!
//! Where it looks (the registry's row): the project's `.github/skills`,
//! `.agents/skills` and `.claude/skills` in the start directory and each
//! parent up to the git root, then the user's `~/.copilot/skills` and
//! `~/.agents/skills`; at any depth, hidden folders skipped, a folder
//! holding a `SKILL.md` not searched further. A `SKILL.md` directly in a
//! skills folder makes that folder one skill: every other skill in it is
//! hidden (recorded for `.github/skills`; taken to hold for each folder,
//! as the rule that explains it does).
//!
//! One file ([`load`]):
//!
//! 1. Only `SKILL.md` (not `skill.md`). Read as UTF-8 (bad sequences
//!    replaced); a leading byte-order mark dropped; CRLF read as LF (the
//!    body too); no size limit seen (this tool reads up to [`READ_LIMIT`]
//!    bytes).
//! 2. The frontmatter opens with a `---` line at the very start and closes
//!    with the next `---` line (`\r\n` accepted; trailing blanks taken to be
//!    allowed, not recorded). No frontmatter, a blank line before it, an
//!    unclosed one, an empty file, `----` fences: not loaded, silently.
//! 3. The YAML must parse (this crate's strict reader, [`crate::yaml`]): a
//!    plain value holding `: `, a tab indent, an unclosed flow collection, a
//!    key given twice: dropped. An empty frontmatter (`---\n---`) is an
//!    empty mapping.
//! 4. `name`: a string, else dropped (`name: 12345`, `name:` left empty);
//!    missing, the folder's name. Each run of spaces becomes one `-`. It
//!    must then be 1 to [`MAX_NAME`] characters, ASCII letters, digits,
//!    `-`, `_`, `.` and `:`, starting with a letter or digit
//!    ([`listed_name`]), else dropped.
//! 5. `description`: a string, else dropped (a number, a list, left empty);
//!    as the YAML gives it, not trimmed (the YAML handed to the parser ends
//!    without its last line break, so a block scalar ending the
//!    frontmatter has no final one); missing, the body's
//!    first three text lines but headings, joined by spaces ([`body_text`]);
//!    over [`MAX_DESCRIPTION`] UTF-16 code units, dropped. `when_to_use`
//!    is not read.
//! 6. `disable-model-invocation` with any value but the boolean `false`
//!    (`"false"`, `no`, an empty value included): loaded, neither listed
//!    nor activatable by the model.
//!
//! The rules marked "recorded here" in [`read`] come from runs of the real
//! Copilot CLI 1.0.102 made for this module (`/work/eval/clients-copilot`,
//! not the shared recordings): UTF-16 units, the body's text, runs of
//! spaces, empty values, duplicate keys, CRLF, the values of
//! `disable-model-invocation`.
//!
//! Plain scalars are typed as a YAML 1.2 reader types them (the recorded
//! `12345` is a number); which YAML library Copilot uses is not known,
//! and its typing of other plain forms (`0x1F`, `.inf`, `yes`) is not
//! recorded.

mod listing;
mod read;

pub use listing::{Found, Listing, resolve};
pub use read::{
    BODY_LINES, Load, Loaded, MAX_DESCRIPTION, MAX_NAME, READ_LIMIT, body, body_text, listed_name,
    load, read, read_bytes, read_text,
};

/// Copilot's listing of what discovery found: [`Listing::of`].
pub fn listing(found: &[crate::discover::FoundSkill]) -> Listing {
    Listing::of(found)
}

#[cfg(test)]
mod tests;

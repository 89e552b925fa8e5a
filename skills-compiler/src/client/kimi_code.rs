//! How Kimi Code 2.1.0 reads a skill folder, as recorded from the real
//! program and read in its package's source: which files it loads, the
//! name, description and `when_to_use` it lists, and its listing's scopes,
//! order and precedence ([`listing`]).
//!
//! * Folders: `.kimi-code/skills` and `.agents/skills` at the root of the
//!   git repository the working directory is in (the working directory
//!   outside one), never a subdirectory's; then `~/.kimi-code/skills` and
//!   `~/.agents/skills`; its three built-ins last. In each folder, every
//!   directory down to 8 levels is read: a directory holding a `SKILL.md`
//!   is a skill and is not looked into; a hidden one (`.name`) or
//!   `node_modules` is a skill when it holds one, and never looked into
//!   (`skb validate` does not know the `node_modules` rule: it is the
//!   listing's, `catalog` and `show`).
//!   A `SKILL.md` directly in the folder is not read; a loose `NAME.md`
//!   there is a skill named `NAME` ([`loose_files`]) unless a skill folder
//!   `NAME` is beside it ([`loose`] says what the profile makes of each).
//!   Lowercase `skill.md` is not read.
//! * The text is split at `\n` and `\r\n` ([`split`]): the first line,
//!   trimmed (a byte-order mark is trimmed too), must be `---` in a
//!   `SKILL.md`; the YAML runs to the next line that is `---` once trimmed,
//!   and is trimmed. Unclosed: skipped. The YAML is read with js-yaml 4
//!   (a syntax error, a repeated key, an unknown tag: skipped; a top level
//!   other than a mapping: skipped).
//! * `type`: none, `prompt` or `inline` is a skill the model is shown;
//!   `flow` and `reference` are loaded but not shown (they take their
//!   name); any other value (`technique`, `""`, an empty `type:`) and the
//!   file is skipped.
//! * `name` and `description` must be non-blank text in a `SKILL.md`
//!   (`name: 12345`, a list, a blank description: skipped); both are
//!   trimmed. No rule on the name (spaces, `:`, 80 characters are listed).
//!   A loose file without them is named after the file and described by
//!   its body's first line (cut to 239 units and `…` past 240).
//! * `when_to_use` (or `when-to-use`), when non-empty text, is listed
//!   below the description. The description is cut to 250 UTF-16 units in
//!   the catalog (`skills_core::catalog::kimi_code::cut`).
//! * Loaded but not listed: `disable-model-invocation: true` (the boolean
//!   only; `"true"` is not), `type: flow`, `type: reference`.
//! * The body is the text after the frontmatter, trimmed.
//!
//! Not modelled: sub-skills (a skill whose frontmatter sets
//! `has-sub-skill: true` has its folders read too), plugins, and the
//! `extraSkillDirs` and `mergeAllAvailableSkills` settings.

mod listing;
pub mod loose;
mod read;

pub use listing::{Found, Listing, Loose, listing, listing_found, loose_files, resolve};
pub use read::{
    Dropped, Kind, Loaded, NO_DESCRIPTION, READ_LIMIT, load, read, read_bytes, read_text, split,
    stem,
};

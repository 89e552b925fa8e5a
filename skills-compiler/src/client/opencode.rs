//! How OpenCode 1.18.33 reads a skill folder, as it was observed to when
//! run on test folders: which `SKILL.md` it loads, the name and description
//! it lists, and the order of its catalog ([`listing`]).
//!
//! OpenCode splits the file with `gray-matter` and parses the YAML with
//! `js-yaml` 3 (the safe schema), then keeps the skill only when `name` is
//! a string and `description` a string or absent. The steps, in its order
//! ([`load`]):
//!
//! 1. The file is read as UTF-8 (bad sequences replaced). A leading
//!    byte-order mark is dropped.
//! 2. Split ([`split`]): the text must start with `---` not followed by a
//!    fourth `-` (a leading blank line means no frontmatter). The rest of
//!    that first line, trimmed, names the language (`---yaml`); the YAML
//!    runs to the first line break followed by `---`, or to the end of the
//!    file when no such line comes: an unclosed frontmatter is all YAML,
//!    with an empty body. The body starts after that `---` and one line
//!    break.
//! 3. The YAML is parsed as `js-yaml` 3 does ([`parse_js_yaml`]), which
//!    differs from YAML 1.2 where the record or that parser's rules show
//!    it: indentation is counted in spaces only, so tabs after the spaces
//!    that start a line are separation (`\tdescription: x` is a top-level
//!    key: `bad-yaml-tab` listed); a duplicate key or a tag outside its
//!    schema is an error; plain scalars take the types of its schema
//!    (`12345` a number, `2024-01-02` a date, `1_000` and `0x1F` numbers).
//! 4. When that fails, OpenCode rewrites the frontmatter once
//!    ([`sanitize`]): each line `key: value` at the start of a line (key of
//!    ASCII letters, digits and `_`, not starting with a digit) whose value
//!    holds a `:` and is not quoted, empty, `>` or `|` becomes a block
//!    scalar `key: |-` holding the value (`description: Use when: x` so
//!    reads as `Use when: x`: `bad-yaml-colon` listed). That rewrite looks
//!    for a file starting with `---` and a line break exactly, byte-order
//!    mark included. If the YAML still fails, the skill is dropped
//!    (`bad-yaml-unclosed`).
//! 5. `name` must be a string (any string: no pattern, no length limit, no
//!    match with the folder; `12345` is a number and drops the skill);
//!    `description` a string (listed as written, not escaped, block-scalar
//!    line breaks kept, no length cap) or absent: a skill without one is
//!    loaded and activatable by name but left out of the catalog (a
//!    `null` description, `description:` with nothing after it, is not a
//!    string: dropped, by the parser's rule; not recorded).
//!
//! Of several skills with one name OpenCode keeps the one it loads last,
//! and its load order is not the same from run to run (recorded: the same
//! tree gave different copies in two runs); here the first one discovery
//! finds is kept ([`listing`]: the user's before the project's, as
//! discovery orders them, which is also the copy Claude Code and a bundle
//! keep), with a warning that OpenCode may keep another. The catalog is sorted by name as JavaScript's
//! `localeCompare` sorts ([`collate`](super::collate), the ICU root
//! order: punctuation first, then case-insensitively, lowercase before
//! uppercase on a tie).

mod listing;
mod matter;
mod read;
mod yaml;

pub use listing::{Duplicate, Found, Listing, listing, resolve_names, utf16_order};
pub use matter::{Parts, sanitize, split};
pub use read::{Load, Loaded, READ_LIMIT, load, read, read_bytes, read_text};
pub use yaml::{JsYaml, YamlError, parse_js_yaml};

#[cfg(test)]
mod tests;

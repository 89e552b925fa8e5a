//! How Qwen Code 0.24.4 reads a skill folder, as recorded from the real
//! program and read in its package's source: which `SKILL.md` it loads,
//! the name, description and `when_to_use` it lists, and its listing's
//! order and precedence ([`listing`]).
//!
//! * Folders: the working directory's `.qwen/skills` and `.agents/skills`
//!   (no walk up to the repository's root), then `~/.qwen/skills` and
//!   `~/.agents/skills`; in each, the direct children only (a hidden one
//!   included, links to folders followed), each holding exactly `SKILL.md`.
//!   A `SKILL.md` directly in a skills folder is not read. A folder named
//!   like an install leftover (`x.backup-1-2`, `x.installing-1-2`) is
//!   skipped.
//! * The file is decoded as UTF-8 (bad sequences replaced), a leading
//!   byte-order mark dropped and every `\r\n` and `\r` made `\n`
//!   ([`split`]). It must start with a line `---`; the YAML runs to the
//!   first line `---` (followed by a line break or the end): a blank line
//!   before the first `---`, a `----` fence, an unclosed or an empty
//!   frontmatter (`---\n---`) are not a skill.
//! * The YAML is read with the `yaml` package's core schema; when that
//!   fails (a syntax error, a repeated key) or gives no mapping, with Qwen
//!   Code's own line reader ([`parse_simple`]): `description: Use when: x`
//!   is read as `Use when: x`, `[unclosed flow` as written, a
//!   tab-indented key as the key. Nulls are dropped.
//! * `name` and `description` must be present and not empty; each is made
//!   text as JavaScript's `String` makes it (`12345` is `12345`, a list its
//!   items joined by `,`). The name must be letters, digits, `_`, `:`, `.`
//!   and `-` (`My Skill Name` is dropped: the space); the description must
//!   not be blank. `allowedTools` must be a list, `model` text, `paths` a
//!   list of relative patterns without `..`: otherwise the skill is dropped.
//! * Loaded but not listed: `disable-model-invocation: true` (or `"true"`),
//!   and a non-empty `paths:` list (listed only once a tool touches a file
//!   matching it, which `skb` does not model: hidden).
//! * The body is the text after the frontmatter, trimmed.
//!
//! Precedence ([`listing`]): one skill per name, the first met in the
//! order project folders, user folders, bundled skills; in one skills
//! folder the children are taken in byte order of their names (Node's
//! `readdir`, which libuv sorts), so of `same` and `same--2` both named
//! `same` the `same` copy wins (recorded). A skill it drops takes no name.

pub(crate) mod level;
mod listing;
mod read;
mod yaml;

pub use level::{Level, level_of};
pub use listing::{Found, Listing, listing, resolve};
pub use read::{Dropped, Hidden, Loaded, READ_LIMIT, load, read, read_bytes, read_text, split};
pub use yaml::{JsValue, frontmatter, parse_simple};

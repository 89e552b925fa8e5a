//! Discovery: which directories under a path the user named are skills.
//!
//! [`discover`] takes one *root* (a path as the user typed it) and returns the
//! skill directories under it, in a fixed order, with every path built from
//! the root as given (never canonicalised). Problems become [`Diagnostic`](crate::Diagnostic)s;
//! discovery never stops early because of one.
//!
//! # What a root can be
//!
//! - **Missing**: error `SK001` (``path `X` does not exist``; the reference
//!   validator says `Path does not exist: X`). Nothing is returned.
//! - **A file** named `SKILL.md` in any letter case (as `skills-ref` compares
//!   `path.name.lower() == "skill.md"`): the skill is its parent directory
//!   (`.` when the path has no parent) and [`FoundSkill::root`] is the file.
//!   Any other file: error `SK002` (`Not a directory: X`). A root that exists
//!   but cannot be read is error `SK005`; everything below a root gives
//!   warnings only.
//! - **A directory**, examined in this order:
//!   1. **Marketplace**: it has `.claude-plugin/marketplace.json`. Each entry of
//!      `plugins` is a plugin named by its `name`. A string `source` is a path
//!      relative to the root (`"./plugins/foo"`); one written without a leading
//!      `./` is relative to `metadata.pluginRoot` when that is set. An object
//!      `source` (`github`, `url`, `git-subdir`, `npm`, ...) names a remote
//!      plugin, which cannot be walked: it is skipped without a diagnostic. The
//!      plugin directory is then read as in rule 2, with the entry's `skills`
//!      added to the plugin's own; an entry with `"strict": false` is the whole
//!      plugin definition, so its `plugin.json`'s `skills` is not read; and an
//!      entry whose source is the root itself and which lists `skills` gets
//!      exactly those (the default `skills/` is not scanned), as Claude Code
//!      does for `anthropics/skills`. The root is then walked by rules 2 to
//!      4 as well, so that skills and plugins the marketplace does not list
//!      are validated too (Claude Code would not load them, but CI should
//!      see them); a directory already found keeps its marketplace plugin
//!      name. A marketplace file that cannot be used at all (not JSON, no
//!      `plugins` array) is reported and the root is read by rules 2 to 4.
//!   2. **Plugin**: it has `.claude-plugin/plugin.json`. The plugin's name is
//!      its `name` (else the directory's name); its skills are named
//!      `plugin:skill`. Its `skills/` directory is always scanned when present,
//!      and every path in its `skills` field (a string or an array of strings,
//!      relative to the plugin) is scanned too. A scanned path that holds a
//!      `SKILL.md` is one skill; otherwise each of its sub-directories is a
//!      skill (one level, sorted, skipping the names the walk skips; those
//!      without a `SKILL.md` are returned too, so the missing file is
//!      reported), except that the plugin directory itself (`"."`) only
//!      contributes sub-directories that hold a `SKILL.md`. A listed path may
//!      also name a `SKILL.md` file, meaning its directory. A plugin with
//!      neither skills in `skills/` nor a `skills` field, whose own directory
//!      holds a `SKILL.md`, is a single-skill plugin.
//!   3. **Skill**: it holds an entry named exactly `SKILL.md` or `skill.md`
//!      (of any kind: a directory named `SKILL.md` is reported by the parser).
//!      Discovery does not look inside a skill.
//!
//!      **Project folder**: otherwise, a directory that holds a client's
//!      skills folder (`.claude/skills`, `.agents/skills` or `.codex/skills`): the skills
//!      are those the clients read from there up to the repository's root,
//!      each folder scanned as its client scans it (`clients.rs`); the rest of
//!      the directory is not walked. The working directory (`.`, the
//!      commands' default) in which rule 4 finds no skill is read the same
//!      way (a client started in `src/` still reads the repository root's
//!      `.claude/skills`), and when that finds none either, error `SK003`
//!      says where it looked. Any other directory keeps rule 5: a skill
//!      directory missing its `SKILL.md` is reported, never passed on the
//!      strength of skills elsewhere.
//!   4. **Anything else** is walked: sub-directories in byte-wise order of
//!      their names, rules 2 and 3 applied to each (a `marketplace.json` only
//!      counts at the root), hidden directories (`.name`), `node_modules`,
//!      `__pycache__` and `target` skipped (a root is never skipped, even a
//!      hidden one). The walk descends at most [`DiscoveryOptions::max_depth`]
//!      levels (the root is level 0) and reads at most
//!      [`DiscoveryOptions::max_dirs`] directories; hitting either limit gives
//!      one error `SK007` per limit and root, naming the flag that raises it
//!      (`--max-depth`, `--max-dirs`), and the walk goes no further: a tree
//!      never passes on a part of it.
//!   5. A directory root in which none of this finds a skill is returned as
//!      the only skill, so the parser reports `Missing required file:
//!      SKILL.md` exactly as the reference validator does.
//!
//! Manifest paths must be relative, `/`-separated and free of `..`; others are
//! reported (`SK010`) and ignored, as are paths that do not exist. A manifest
//! that is not JSON, is larger than 1 MiB, or has a field of the wrong type
//! gives warning `SK010` pointing into the file, and the defaults apply (for
//! `plugin.json`: the directory's name and `skills/`).
//!
//! # Symbolic links
//!
//! A link to a skill directory (one holding `SKILL.md`) is followed wherever
//! it leads, as Claude Code and Codex follow them; the skill's own files stay
//! bounded by its canonical directory ([`files`](super::files)), so links
//! inside it that leave it are still refused. Any other link is followed only
//! when its canonical target lies inside the canonical root; otherwise
//! warning `SK008` names the link and its target and the link is skipped. A link back to a directory on the current walk path is
//! a cycle (warning `SK009`, skipped); a directory reached a second time by
//! another way is skipped silently. A dangling link gives warning `SK005`.
//! Discovery only follows links to directories; links to files are left to
//! [`files`](super::files), which applies the same policy inside a skill.
//! The root itself may be a link: the user named it, so it is followed and its
//! target becomes the boundary.
//!
//! # Order
//!
//! Skills come in walk order: marketplace plugins in manifest order, a
//! plugin's `skills/` before its listed paths, directories byte-wise sorted.
//! A directory reached twice (same canonical path) is returned once, the
//! first time.

mod clients;
mod found;
mod links;
mod listing;
mod manifest;
mod options;
mod roots;
mod walk;

pub use clients::client_folders;
pub use found::{FoundSkill, Origin, Place};
pub(crate) use links::{Target, follow_link};
pub(crate) use listing::{EntryKind, entries, read_listing};
pub use options::{DiscoveryOptions, UserFolders};
pub use roots::{discover, discover_all, discover_all_with};

#[cfg(test)]
mod tests;

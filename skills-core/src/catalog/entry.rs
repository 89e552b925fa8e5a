//! [`Entry`]: one skill as the catalog dialects read it. Its own module
//! because every dialect's renderer and the dispatch in `catalog` share it.

/// One skill as every dialect's entry line is made of it. Each style uses
/// the fields it shows and applies its own whitespace, escaping and length
/// rules to the description: give it as the skill (or the client reading
/// it) has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Entry<'a> {
    /// The name the entry starts with: the folder name for Claude Code, the
    /// skill's name for Codex and `xml`.
    pub name: &'a str,
    /// A second name Claude Code shows in parentheses (`- dir (name): ...`),
    /// given only where Claude Code would show it; the others ignore it.
    pub alias: Option<&'a str>,
    /// The description.
    pub description: &'a str,
    /// Claude Code's `when_to_use`, appended as ` - <when_to_use>`; the
    /// others ignore it.
    pub when_to_use: Option<&'a str>,
    /// Where the skill's `SKILL.md` is: the `xml` `<location>`, Codex's
    /// `(file: ...)`; Claude Code does not show it.
    pub location: &'a str,
}

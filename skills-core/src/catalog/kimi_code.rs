//! The catalog as Kimi Code 2.1.0 gives it to its model: the `# Skills`
//! section its system message ends with (read in the package's source,
//! checked against the recorded requests).
//!
//! ```text
//! # Skills
//!
//! Skills are reusable, ... (two fixed paragraphs)
//!
//! ## Available skills
//!
//! Skills are grouped by scope ... (one fixed paragraph)
//!
//! DISREGARD any earlier skill listings. Current available skills:
//! ### Project
//! - NAME: DESCRIPTION
//!   When to use: WHEN          <- only with a non-empty `when_to_use`
//!   Path: /abs/.kimi-code/skills/DIR/SKILL.md
//! ### User
//! ...
//! ### Built-in
//! - check-kimi-code-docs: ...
//!   Path: builtin://check-kimi-code-docs
//! ```
//!
//! A scope's heading is there only when it has skills ([`Scope`]; `Extra`
//! is the folders of Kimi Code's `extraSkillDirs` setting, which `skb`
//! does not read). Nothing is escaped. The description is cut
//! ([`cut`]) to [`LISTING_DESC_MAX`] UTF-16 units; the name and
//! `when_to_use` are not. Inside a scope the entries are given in the
//! client's order (by name, as JavaScript's `localeCompare` sorts: see the
//! compiler's Kimi Code reader). Kimi Code has no budget: every listed
//! skill is sent (150 skills of 1,000 characters were all listed).
//!
//! The system message goes on with two blank lines after the last entry
//! (`Path: builtin://write-goal\n\n\n` ends it); [`render`] stops at the
//! last entry.
//!
//! The three built-in skills ([`BUILTIN`]) are in every catalog unless a
//! skill of the same name (in any letter case) replaces one; their text is
//! Kimi Code 2.1.0's, copied here so that the catalog is the client's.

use unicode_segmentation::UnicodeSegmentation;

use super::entry::Entry;

/// The longest description listed whole, in UTF-16 units; a longer one is
/// cut to `LISTING_DESC_MAX - 3` units and `...`.
pub const LISTING_DESC_MAX: usize = 250;

/// The section up to its first scope heading.
pub const HEAD: &str = "# Skills\n\nSkills are reusable, composable capabilities that enhance your abilities. Each skill is either a self-contained directory with a `SKILL.md` file or a standalone `.md` file that contains instructions, examples, and/or reference material.\n\nIdentify the skills relevant to your current task and read the skill file for its instructions; only read further skill details when needed, to conserve the context window.\n\n## Available skills\n\nSkills are grouped by scope (`Project`, `User`, `Extra`, `Built-in`) so you can tell where each came from. When the user refers to \"the skill in this project\" or \"the user-scope skill\", use the scope heading to disambiguate. When multiple scopes define a skill with the same name, the more specific scope takes precedence: **Project overrides User overrides Extra overrides Built-in**.\n\nDISREGARD any earlier skill listings. Current available skills:";

/// Where a skill comes from, as Kimi Code groups its catalog: the groups
/// in this order, a skill of an earlier one replacing a later one's of the
/// same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// The project's folders.
    Project,
    /// The user's folders.
    User,
    /// The folders of the `extraSkillDirs` setting (not read by `skb`).
    Extra,
    /// Kimi Code's own skills ([`BUILTIN`]).
    Builtin,
}

impl Scope {
    /// The scope's heading (`Project`, `Built-in`).
    pub fn label(self) -> &'static str {
        match self {
            Scope::Project => "Project",
            Scope::User => "User",
            Scope::Extra => "Extra",
            Scope::Builtin => "Built-in",
        }
    }

    /// The scope as the `source` attribute of an activation: `project`,
    /// `user`, `extra`, `builtin`.
    pub fn source(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
            Scope::Extra => "extra",
            Scope::Builtin => "builtin",
        }
    }
}

/// Kimi Code 2.1.0's built-in skills the model is shown: name and
/// description (before the cut). Their location is `builtin://NAME`.
pub const BUILTIN: [(&str, &str); 3] = [
    (
        "check-kimi-code-docs",
        "Answer questions about the Kimi Code product using the official documentation \u{2014} CLI usage, configuration, slash commands, features, membership and quota, API onboarding, third-party tool setup, and error codes. Use when the user asks how Kimi Code works, how to set something up, or what a Kimi Code error message means.",
    ),
    (
        "update-config",
        "Inspect or edit kimi-code's own config \u{2014} `config.toml` (model, provider, permission, hooks) and `tui.toml` (theme, editor, notifications, auto-update). Use when the user asks what a setting does, wants to change one, or needs to fix a deprecated config key / environment variable warning.",
    ),
    (
        "write-goal",
        "Help the user craft a well-specified `/goal` objective for goal mode \u{2014} turn a rough intention into a completion contract with a clear finish line, proof, boundaries, and stop rule. Use when the user asks for help writing, refining, or improving a goal.",
    ),
];

/// The built-in skills' locations, in [`BUILTIN`] order.
const BUILTIN_PATHS: [&str; 3] = [
    "builtin://check-kimi-code-docs",
    "builtin://update-config",
    "builtin://write-goal",
];

/// The built-in skills whose names (in any letter case) none of `taken`
/// holds, as entries.
pub fn builtin_entries<'a>(taken: &[&str]) -> Vec<Entry<'a>> {
    BUILTIN
        .iter()
        .zip(BUILTIN_PATHS)
        .filter(|((name, _), _)| !taken.iter().any(|t| t.to_lowercase() == *name))
        .map(|((name, description), location)| Entry {
            name,
            description,
            location,
            ..Entry::default()
        })
        .collect()
}

/// `description` as the catalog shows it: whole up to
/// [`LISTING_DESC_MAX`] UTF-16 units; else the grapheme clusters that fit
/// in three units fewer, and `...` (a cluster is never split).
pub fn cut(description: &str) -> std::borrow::Cow<'_, str> {
    let units = |s: &str| s.encode_utf16().count();
    if units(description) <= LISTING_DESC_MAX {
        return description.into();
    }
    let mut length = 0;
    let mut end = 0;
    for (at, cluster) in description.grapheme_indices(true) {
        let n = units(cluster);
        if length + n > LISTING_DESC_MAX - 3 {
            break;
        }
        length += n;
        end = at + cluster.len();
    }
    format!("{}...", &description[..end]).into()
}

/// One skill's lines in the catalog, without a line break at the end.
pub fn entry_line(entry: &Entry<'_>) -> String {
    let mut out = format!("- {}: {}", entry.name, cut(entry.description));
    if let Some(when) = entry.when_to_use.filter(|w| !w.is_empty()) {
        out.push_str("\n  When to use: ");
        out.push_str(when);
    }
    out.push_str("\n  Path: ");
    out.push_str(entry.location);
    out
}

/// The section for `groups` (each scope's entries, in the client's order),
/// scopes in [`Scope`] order whatever order they are given in, a scope
/// without entries left out; stops at the last entry.
pub fn render(groups: &[(Scope, Vec<Entry<'_>>)]) -> String {
    let mut out = String::from(HEAD);
    for scope in [Scope::Project, Scope::User, Scope::Extra, Scope::Builtin] {
        let entries = groups
            .iter()
            .filter(|(s, _)| *s == scope)
            .flat_map(|(_, e)| e);
        let mut entries = entries.peekable();
        if entries.peek().is_none() {
            continue;
        }
        out.push_str("\n### ");
        out.push_str(scope.label());
        for e in entries {
            out.push('\n');
            out.push_str(&entry_line(e));
        }
    }
    out
}

/// The section for `entries` taken as the project's (a bundle's skills),
/// the built-ins they do not replace after them.
pub fn render_project(entries: &[Entry<'_>]) -> String {
    let names: Vec<&str> = entries.iter().map(|e| e.name).collect();
    render(&[
        (Scope::Project, entries.to_vec()),
        (Scope::Builtin, builtin_entries(&names)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_counts_utf16_and_keeps_clusters() {
        let a250 = "a".repeat(250);
        assert_eq!(cut(&a250), a250);
        let a251 = "a".repeat(251);
        assert_eq!(cut(&a251), format!("{}...", "a".repeat(247)));
        // 300 CJK characters (one unit each): 247 and `...`.
        let cjk = "字".repeat(300);
        assert_eq!(cut(&cjk), format!("{}...", "字".repeat(247)));
        // 240 ASCII and 20 emoji (two units each): 3 emoji fit in 247.
        let mixed = format!("{}{}", "a".repeat(240), "😀".repeat(20));
        assert_eq!(
            cut(&mixed),
            format!("{}{}...", "a".repeat(240), "😀".repeat(3))
        );
        // A cluster of several code points is kept or dropped whole.
        let family = "👨\u{200d}👩\u{200d}👧";
        let s = format!("{}{}", "a".repeat(244), family.repeat(2));
        assert_eq!(cut(&s), format!("{}...", "a".repeat(244)));
    }

    #[test]
    fn scopes_in_order_builtins_last_unless_replaced() {
        let e = |name, location| Entry {
            name,
            description: "D <x> & y",
            location,
            when_to_use: None,
            alias: None,
        };
        let text = render(&[
            (Scope::User, vec![e("u", "/h/.kimi-code/skills/u/SKILL.md")]),
            (
                Scope::Project,
                vec![e("p", "/p/.kimi-code/skills/p/SKILL.md")],
            ),
            (Scope::Builtin, builtin_entries(&["Write-Goal"])),
        ]);
        let body = text.strip_prefix(HEAD).unwrap_or_default();
        assert!(body.starts_with("\n### Project\n- p: D <x> & y\n  Path: /p/.kimi-code/skills/p/SKILL.md\n### User\n- u: D <x> & y\n"), "{body}");
        assert!(body.contains("\n### Built-in\n- check-kimi-code-docs: Answer"));
        assert!(
            body.ends_with("...\n  Path: builtin://update-config"),
            "{body}"
        );
        let when = Entry {
            when_to_use: Some("When part."),
            ..e("w", "/x")
        };
        assert_eq!(
            entry_line(&when),
            "- w: D <x> & y\n  When to use: When part.\n  Path: /x"
        );
    }
}

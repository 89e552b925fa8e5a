//! The catalog as Gemini CLI 0.61.0 gives it to its model: the
//! `# Available Agent Skills` section of its system instruction.
//!
//! Recorded: a heading, one sentence naming the `activate_skill` tool, and
//! an `<available_skills>` block with one `<skill>` per listed skill, its
//! name, description and the absolute path of its `SKILL.md`, indented by
//! two spaces a level. Nothing is escaped (a description holding `<tag> &`
//! is sent as written), a description keeps the line breaks its YAML gave
//! it, and there is no length cap and no budget: every listed skill is sent
//! in full. The order is the reading order (see the compiler's Gemini CLI
//! reader): built-ins first, then the user's folders, then the project's.
//!
//! Gemini CLI adds its own built-in skills (`skill-creator`,
//! `antigravity-support`) in front; their text is the client's and is not
//! reproduced here, so a catalog of the skills given starts with the first
//! of them (a skill named like a built-in takes the built-in's place).

use super::entry::Entry;

const HEAD: &str = "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.\n\n<available_skills>";
const CLOSE: &str = "\n</available_skills>";

/// One `<skill>` element, without a line break before or after.
pub fn entry_line(entry: &Entry<'_>) -> String {
    format!(
        "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
        entry.name, entry.description, entry.location
    )
}

/// The section for `entries`, in the order given; empty for none (Gemini
/// CLI leaves the section out when no skill is listed).
pub fn render(entries: &[Entry<'_>]) -> String {
    if entries.is_empty() {
        return String::new();
    }
    let mut out = String::from(HEAD);
    for e in entries {
        out.push('\n');
        out.push_str(&entry_line(e));
    }
    out.push_str(CLOSE);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_escaped_and_line_breaks_are_kept() {
        let e = Entry {
            name: "desc-angle",
            description: "Has <tag> & ampersand > and \"quotes\"\nLine two.",
            location: "/p/.gemini/skills/desc-angle/SKILL.md",
            ..Entry::default()
        };
        assert_eq!(
            render(&[e]),
            "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.\n\n<available_skills>\n  <skill>\n    <name>desc-angle</name>\n    <description>Has <tag> & ampersand > and \"quotes\"\nLine two.</description>\n    <location>/p/.gemini/skills/desc-angle/SKILL.md</location>\n  </skill>\n</available_skills>"
        );
        assert_eq!(render(&[]), "");
    }
}

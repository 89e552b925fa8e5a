//! The catalog as OpenCode 1.18.33 gives it to its model: the end of its
//! system message, after the `<env>` block.
//!
//! Recorded: two sentences naming the `skill` tool, then an
//! `<available_skills>` block with one `<skill>` per listed skill, its
//! name, description and the absolute path of its `SKILL.md`, indented by
//! two spaces a level. The description is sent as written (not escaped,
//! line breaks of a YAML block kept, no length cap); the location is
//! XML-escaped (`&lt;built-in&gt;` for the client's own skill). There is no
//! budget. The order is by name (see the compiler's OpenCode reader), and a
//! skill without a description is loaded but not listed.
//!
//! OpenCode adds its built-in `customize-opencode` skill, sorted in with
//! the others; its text is the client's and is not reproduced here.

use super::entry::Entry;
use super::xml::xml_escape;

const HEAD: &str = "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.\n<available_skills>";
const CLOSE: &str = "\n</available_skills>";

/// One `<skill>` element, without a line break before or after.
pub fn entry_line(entry: &Entry<'_>) -> String {
    format!(
        "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
        entry.name,
        entry.description,
        xml_escape(entry.location)
    )
}

/// The block for `entries`, in the order given; empty for none.
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
    fn the_location_is_escaped_and_the_description_not() {
        let e = Entry {
            name: "a&b",
            description: "Has <tag> & more",
            location: "<built-in>",
            ..Entry::default()
        };
        assert_eq!(
            render(&[e]),
            "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.\n<available_skills>\n  <skill>\n    <name>a&b</name>\n    <description>Has <tag> & more</description>\n    <location>&lt;built-in&gt;</location>\n  </skill>\n</available_skills>"
        );
        assert_eq!(render(&[]), "");
    }
}

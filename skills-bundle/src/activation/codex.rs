//! Codex's activation: the raw `SKILL.md`, frontmatter included and nothing
//! substituted, in a `<skill>` element with the skill's name and the
//! absolute path of its `SKILL.md`, as Codex CLI 0.169.0 adds it as a user
//! message when the prompt mentions `$name` (observed behaviour of that version).

/// `<skill>\n<name>NAME</name>\n<path>PATH</path>\nRAW\n</skill>`: Codex
/// writes the three values as they are, without escaping.
pub fn render(name: &str, skill_md_path: &str, raw: &str) -> String {
    format!("<skill>\n<name>{name}</name>\n<path>{skill_md_path}</path>\n{raw}\n</skill>")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_recorded_wrapper() {
        let raw = "---\nname: plain\ndescription: No placeholders at all.\n---\n# Plain\nJust a body line.\n";
        assert_eq!(
            super::render("plain", "/r/plain/SKILL.md", raw),
            "<skill>\n<name>plain</name>\n<path>/r/plain/SKILL.md</path>\n---\nname: plain\ndescription: No placeholders at all.\n---\n# Plain\nJust a body line.\n\n</skill>"
        );
        assert_eq!(
            super::render("a", "/p", "$ARGUMENTS !`x`"),
            "<skill>\n<name>a</name>\n<path>/p</path>\n$ARGUMENTS !`x`\n</skill>"
        );
    }
}

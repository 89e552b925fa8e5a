//! Qwen Code's activation: the text its `skill` tool answers with, as Qwen
//! Code 0.24.4 was observed to send it (and as its `buildSkillLlmContent`
//! writes it).
//!
//! ```text
//! Base directory for this skill: /abs/skill/dir
//! Important: ALWAYS resolve absolute paths from this base directory when working with skills.
//!
//! BODY
//! ```
//!
//! The body is the text after the frontmatter, trimmed, followed by one
//! line break. Nothing is substituted (`$ARGUMENTS`, `${SKILL_DIR}`,
//! `` !`cmd` `` arrive literally) and the tool's `args` appear nowhere. No
//! file list. A name is looked up exactly (case matters); an unknown one,
//! a hidden one (`disable-model-invocation`) and a folder's name get
//! [`not_found`].
//!
//! Qwen Code cuts a tool result longer than about [`CUT_AFTER`] characters
//! (recorded: 25,177 whole, 25,577 cut) and saves the whole to a file
//! under its own temporary folder, whose path the cut text names: that
//! text depends on the run and is not reproduced ([`is_cut`] says when).

/// The size of a tool result past which Qwen Code cuts it (its
/// `truncateToolOutputThreshold` default), in UTF-16 units.
pub const CUT_AFTER: usize = 25_000;

/// The tool's answer for the skill in `dir` with `body` (trimmed here).
pub fn render(dir: &str, body: &str) -> String {
    let body = body.trim_matches(skills_core::catalog::claude_code::is_js_whitespace);
    format!(
        "Base directory for this skill: {dir}\nImportant: ALWAYS resolve absolute paths from this base directory when working with skills.\n\n{body}\n"
    )
}

/// The answer for a name the tool does not offer: `available` are the
/// names of its catalog, in its order.
pub fn not_found(name: &str, available: &[&str]) -> String {
    if available.is_empty() {
        return format!("Skill \"{name}\" not found. No skills are currently available.");
    }
    format!(
        "Skill \"{name}\" not found. Available skills: {}",
        available.join(", ")
    )
}

/// The answer for a skill held back by its `paths:` patterns.
pub fn gated(name: &str) -> String {
    format!(
        "Skill \"{name}\" is gated by path-based activation (paths: frontmatter) and is not yet available. Access a file matching its paths patterns first to activate it."
    )
}

/// Whether Qwen Code would cut `text` (more than [`CUT_AFTER`] UTF-16
/// units, with the recorded margin: 25,177 came back whole).
pub fn is_cut(text: &str) -> bool {
    text.encode_utf16().count() > CUT_AFTER + 500
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer() {
        assert_eq!(
            render("/p/.qwen/skills/a", "\n\n# T\n\nText.\n\n\n"),
            "Base directory for this skill: /p/.qwen/skills/a\nImportant: ALWAYS resolve absolute paths from this base directory when working with skills.\n\n# T\n\nText.\n"
        );
        assert_eq!(
            not_found("x", &["a", "b"]),
            "Skill \"x\" not found. Available skills: a, b"
        );
        assert!(!is_cut(&"x".repeat(25_177)));
        assert!(is_cut(&"x".repeat(25_577)));
    }
}

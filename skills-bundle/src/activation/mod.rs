//! Activation dialects: the text a client gives its model when a skill is
//! activated, as Claude Code and Codex give it (observed on the versions
//! named in each module), and what `` !`cmd` `` becomes.
//!
//! - [`claude_code`]: `Base directory for this skill: <dir>`, a blank line
//!   and the body with Claude Code's placeholders filled: what
//!   [`Skill::activate`](crate::Skill::activate) and the session give. The
//!   same variables are filled in the `allowed-tools` rules granted at
//!   activation ([`Rule`]), so `Bash(${CLAUDE_SKILL_DIR}/scripts/x.sh *)`
//!   allows the script it names.
//! - [`codex`]: the raw `SKILL.md` in a `<skill>` element
//!   ([`Skill::activate_codex`](crate::Skill::activate_codex)).
//! - [`gemini_cli`]: the `<activated_skill>` answer to Gemini CLI's
//!   `activate_skill`, the body as written and the skill folder's tree.
//! - [`opencode`]: OpenCode's `<skill_content>` answer to its `skill`
//!   tool: the trimmed body, nothing substituted, and a sample of the
//!   skill's files.
//! - [`copilot`]: Copilot CLI's `<skill-context>` user message after its
//!   `skill` tool: the body as written, the skill's files listed.
//! - [`qwen_code`]: Qwen Code's answer to its `skill` tool: the base
//!   directory, one sentence and the trimmed body, nothing substituted.
//! - [`kimi_code`]: Kimi Code's `<skill-loaded>` user message after its
//!   `Skill` tool: the trimmed body, its argument placeholders and
//!   `${KIMI_SKILL_DIR}` filled.
//! - [`commands`]: `` !`cmd` `` becomes a marker saying it was not run,
//!   unless [`Options::commands`] is given a [`RunCommand`] (on Unix with the
//!   `exec` feature, [`PolicyRunner`] runs each command once through a
//!   [`ToolPolicy`](crate::ToolPolicy) and a script executor). Commands are
//!   the author's only, found before any argument is filled in, and their
//!   placeholders are filled as data ([`claude_code`], "Commands").
//! - [`read_only`]: which commands Claude Code itself runs without asking
//!   in its default permission mode (a prediction, never a permission).
//!
//! This module also owns the two spellings of a skill's program
//! ([`other_spelling`]): `<dir>/scripts/x.sh` and `scripts/x.sh`, compared
//! word by word, so a directory holding a space stays one word.
//!
//! The skill's directory is what the caller names in [`Options::base_dir`]:
//! where its files were materialised when they were, else the virtual
//! `skill://<name>` that [`Skill::base_dir`](crate::Skill::base_dir) gives
//! and that the session's tools resolve.

pub mod claude_code;
pub mod codex;
pub mod commands;
pub mod copilot;
mod first_command;
pub mod gemini_cli;
pub mod kimi_code;
pub mod opencode;
mod options;
pub mod qwen_code;
pub mod read_only;
#[cfg(all(unix, feature = "exec"))]
mod run;
mod shell_words;
mod spelling;

pub use commands::{CommandError, RunCommand};
pub use options::{ActivationError, Options, Rule};
#[cfg(all(unix, feature = "exec"))]
pub use run::PolicyRunner;
#[cfg(all(unix, feature = "exec"))]
pub(crate) use spelling::decide;
pub use spelling::{other_spelling, relative_spelling};

/// Claude Code's split of arguments into `$0`, `$1`, ...: a bash command
/// line's words, never an error (see the `shell_words` rules in the
/// module's source).
pub fn split_arguments(arguments: &str) -> Vec<String> {
    shell_words::split(arguments)
}

/// The words `$ARGUMENTS` gives a command outside quotes: the arguments
/// grouped by blanks, quotes and backslashes, every other character kept
/// (`$`, `#`, `|`, `;` are data), each then quoted as one word.
pub fn argument_words(arguments: &str) -> Vec<String> {
    shell_words::data_words(arguments)
}

/// The names of the frontmatter's `arguments` (as JSON text: a list, or a
/// string of blank-separated names); an item that is not a string keeps its
/// place with no name.
pub fn argument_names(json_text: &str) -> Vec<String> {
    skills_core::meta::argument_names(json_text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_core::tools::ToolRule;

    #[test]
    fn argument_names_from_a_list_or_a_string() {
        assert_eq!(argument_names(r#"["target", "mode"]"#), ["target", "mode"]);
        assert_eq!(argument_names(r#"["a", 1, "b"]"#), ["a", "", "b"]);
        assert_eq!(argument_names(r#""target  mode""#), ["target", "mode"]);
        assert!(argument_names("true").is_empty());
        assert!(argument_names("[[[[[[[[").is_empty());
    }

    #[test]
    fn rules_get_the_variables() {
        let vars = claude_code::Vars {
            skill_dir: "/s/demo",
            session_id: None,
            project_dir: Some("/p"),
        };
        let rule = |tool, pattern| ToolRule { tool, pattern };
        assert_eq!(
            Rule::expanded(
                rule("Bash", Some("${CLAUDE_SKILL_DIR}/scripts/x.sh *")),
                &vars
            )
            .to_string(),
            "Bash(/s/demo/scripts/x.sh *)"
        );
        assert_eq!(
            Rule::expanded(rule("Read", None), &vars).to_string(),
            "Read"
        );
        assert_eq!(
            Rule::expanded(
                rule(
                    "Edit",
                    Some("${CLAUDE_PROJECT_DIR}/** ${CLAUDE_SESSION_ID}")
                ),
                &vars
            )
            .to_string(),
            "Edit(/p/** ${CLAUDE_SESSION_ID})"
        );
    }

    #[test]
    fn both_spellings_of_a_skill_command() {
        let dir = "skill://demo";
        assert_eq!(
            other_spelling("skill://demo/scripts/x.sh a b", dir).as_deref(),
            Some("scripts/x.sh a b")
        );
        assert_eq!(
            other_spelling("scripts/x.sh a", dir).as_deref(),
            Some("skill://demo/scripts/x.sh a")
        );
        assert_eq!(
            other_spelling("/abs/bin/x.sh", "/abs/").as_deref(),
            Some("bin/x.sh")
        );
        // Word by word: a directory with a space is one word however it is
        // quoted, and the other spelling is quoted back.
        let spaced = "/tmp/my skills/demo";
        for command in [
            "'/tmp/my skills/demo/scripts/x.sh' 'a b'",
            "\"/tmp/my skills/demo\"/scripts/x.sh \"a b\"",
            "/tmp/my\\ skills/demo/scripts/x.sh a\\ b",
        ] {
            assert_eq!(
                other_spelling(command, spaced).as_deref(),
                Some("scripts/x.sh 'a b'"),
                "{command}"
            );
            assert_eq!(
                relative_spelling(command, spaced).as_deref(),
                Some("scripts/x.sh 'a b'")
            );
        }
        assert_eq!(
            other_spelling("scripts/x.sh 'a b'", spaced).as_deref(),
            Some("'/tmp/my skills/demo/scripts/x.sh' 'a b'")
        );
        assert_eq!(relative_spelling("scripts/x.sh", spaced), None);
        // Unquoted, the space splits: `/tmp/my` is the program, elsewhere.
        assert_eq!(
            other_spelling("/tmp/my skills/demo/scripts/x.sh", spaced),
            None
        );
        for command in [
            "/abs/x.sh",
            "python3 x.py",
            "scripts/x.sh $(id)",
            "/bin/ls",
            "../x/y.sh",
            "./x.sh",
            "skill://demo/",
            "skill://demo//etc/x",
        ] {
            let dir = if command.starts_with("/abs") {
                "/abs"
            } else {
                dir
            };
            assert_eq!(other_spelling(command, dir), None, "{command}");
        }
    }
}

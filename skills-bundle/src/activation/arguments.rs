//! A skill's arguments: Claude Code's `$0`, `$1`, ... split, the words of
//! `$ARGUMENTS`, and the names the frontmatter gives them.

use super::shell_words;

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
    use skills_core::json::{self, Value};
    match json::parse(json_text, 4).map(|n| n.value) {
        Ok(Value::Array(items)) => items
            .into_iter()
            .map(|n| match n.value {
                Value::String(s) => s,
                _ => String::new(),
            })
            .collect(),
        Ok(Value::String(s)) => s.split_whitespace().map(str::to_string).collect(),
        _ => Vec::new(),
    }
}

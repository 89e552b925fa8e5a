//! What a shell reads as syntax rather than as part of a word, and how a
//! word is quoted so that it is read back unchanged.

/// Characters that end a word outside quotes and start a shell operator
/// (`;`, `|`, `&`, redirections, subshells).
pub const CONTROL_OPERATORS: [char; 7] = [';', '|', '&', '<', '>', '(', ')'];

/// Characters that start an expansion outside single quotes: a parameter
/// (`$x`, `${x}`, `$(…)`) or a command substitution (`` `…` ``).
pub const EXPANSIONS: [char; 2] = ['$', '`'];

/// Line breaks: a newline separates commands; a carriage return is an
/// ordinary character to a shell but hides text on a terminal, so outside
/// quotes it is treated as a break too.
pub const LINE_BREAKS: [char; 2] = ['\n', '\r'];

/// Characters after which a shell may run another command, or inside which
/// it runs one (`$(…)`, `` `…` ``, `{ …; }`): a deny rule is tried against
/// each piece of a command cut at these.
pub const SEGMENT_BREAKS: [char; 10] = [';', '&', '|', '\n', '\r', '`', '(', ')', '{', '}'];

/// The characters a `\` escapes inside `"…"` (a `\` before any other stays).
pub(super) fn escapes_in_double_quotes(c: char) -> bool {
    matches!(c, '"' | '\\' | '$' | '`')
}

/// Whether `c` may stand in a word without quotes: nothing a shell reads
/// as syntax, a glob, a tilde, a brace or an assignment.
fn is_bare(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '@' | '%' | '+' | ':' | ',' | '.' | '/' | '-')
}

/// `word` as one shell word that [`split`](super::split) and `sh` both read back as
/// `word`: as it is when non-empty and made only of letters, digits and
/// `_@%+:,./-`, else in single quotes (a `'` as `'\''`).
pub fn quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(is_bare) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// `words` quoted and joined by spaces: a line [`split`](super::split) reads back as
/// `words`.
pub fn join<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    words
        .into_iter()
        .map(|w| quote(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

//! The one definition of shell syntax in this crate: what a POSIX shell
//! reads as syntax rather than as part of a word, how a word is quoted, and
//! where in a command line a value lands.
//!
//! Three places must agree on what a command line means, or a line one of
//! them calls harmless is run by another as something else: the policy
//! ([`ToolPolicy`](crate::ToolPolicy): may an allow rule with a pattern match
//! it?), the executor ([`exec::split_args`](crate::exec::split_args): which
//! argv?) and the activation runner (`activation::PolicyRunner`: does it need
//! `sh -c`?). All three ask this module:
//!
//! - [`split`] reads a line into words as a shell would, and refuses what a
//!   shell would *do* rather than quote (see [`split`] for the list). A line
//!   it refuses for [`SplitError::ShellSyntax`] [needs a shell](needs_shell);
//!   an allow rule with a pattern never matches one, so only a rule without
//!   a pattern (`Bash`) ever lets such a line reach `sh -c`.
//! - [`quote`] makes any text one word that [`split`] and `sh` read back
//!   unchanged; [`join`] quotes a whole argv.
//! - [`Line`] fills values into an author's command line (the placeholders
//!   of a `` !`cmd` ``, `${CLAUDE_SKILL_DIR}` in a `Bash` rule), each quoted
//!   for the context it stands in (outside quotes, in `"…"`, in `'…'`), so a
//!   value is data whatever it holds. Where the context cannot be told
//!   without the whole shell grammar (after `$(`, backquotes, `((`, `[[`, a
//!   here-document, in a comment), a value is refused ([`Unplaceable`]).
//! - [`braced_expansion`] finds a `${` a shell would expand.
//!
//! Claude Code's lenient split of a skill's arguments (`$0`, `$1`, …) is
//! another reader, of text that is never run; it shares
//! [`CONTROL_OPERATORS`] with [`split`].

use std::fmt;

mod line;

pub use line::{Context, Line, Unplaceable, braced_expansion, quote_in};

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

/// Why a command line was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SplitError {
    /// Shell syntax, which only a shell would understand.
    ShellSyntax {
        /// The character.
        found: char,
        /// Its byte offset in the line.
        at: usize,
    },
    /// A quote that is never closed.
    UnclosedQuote {
        /// `'` or `"`.
        quote: char,
        /// Byte offset of the opening quote.
        at: usize,
    },
    /// A `\` at the very end.
    TrailingBackslash,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::ShellSyntax { found, at } => write!(
                f,
                "shell syntax `{}` at byte {at} is not supported without a shell; quote it with '…' to pass it literally",
                found.escape_default()
            ),
            SplitError::UnclosedQuote { quote, at } => {
                write!(f, "the quote `{quote}` at byte {at} is never closed")
            }
            SplitError::TrailingBackslash => f.write_str("the line ends with a lone `\\`"),
        }
    }
}

impl std::error::Error for SplitError {}

/// Splits `line` into words without a shell. An empty or blank line gives
/// no words.
///
/// Words are split as a POSIX shell splits them: blanks (space, tab)
/// separate; `'…'` is literal; `"…"` is literal but for `\"`, `\\`, `\$`,
/// `` \` `` and `\`-newline; a `\` outside quotes takes the next character
/// literally. So `python3 scripts/calc.py "15 * 23"` gives three words.
/// What a shell would *do* rather than quote is refused
/// ([`SplitError::ShellSyntax`]) instead of passed on literally: outside
/// quotes, [`CONTROL_OPERATORS`], [`LINE_BREAKS`] and [`EXPANSIONS`], and a
/// `#` starting a word; inside `"…"`, a `$` or a backquote. Glob characters,
/// `~`, `{…}` and `=` are passed as they are: no expansion, no assignment.
pub fn split(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    // The word being built; `None` between words (so `''` is an empty word).
    let mut word: Option<String> = None;
    let mut chars = line.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some((_, '\'')) => break,
                        Some((_, c)) => w.push(c),
                        None => return Err(SplitError::UnclosedQuote { quote: '\'', at }),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, '\n')) => {}
                            Some((_, c)) if escapes_in_double_quotes(c) => w.push(c),
                            Some((_, c)) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err(SplitError::UnclosedQuote { quote: '"', at }),
                        },
                        Some((i, c)) if EXPANSIONS.contains(&c) => {
                            return Err(SplitError::ShellSyntax { found: c, at: i });
                        }
                        Some((_, c)) => w.push(c),
                        None => return Err(SplitError::UnclosedQuote { quote: '"', at }),
                    }
                }
            }
            '\\' => match chars.next() {
                Some((_, '\n')) => {}
                Some((_, c)) => word.get_or_insert_with(String::new).push(c),
                None => return Err(SplitError::TrailingBackslash),
            },
            c if is_syntax_outside_quotes(c) => {
                return Err(SplitError::ShellSyntax { found: c, at });
            }
            '#' if word.is_none() => return Err(SplitError::ShellSyntax { found: c, at }),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// Whether running `line` needs a shell: [`split`] refuses it as shell
/// syntax. (A line refused for a quote never closed needs no shell: it is
/// broken.)
pub fn needs_shell(line: &str) -> bool {
    matches!(split(line), Err(SplitError::ShellSyntax { .. }))
}

/// Whether `c`, outside quotes, is syntax [`split`] refuses wherever it
/// stands (`#` is syntax only where a word starts).
fn is_syntax_outside_quotes(c: char) -> bool {
    CONTROL_OPERATORS.contains(&c) || EXPANSIONS.contains(&c) || LINE_BREAKS.contains(&c)
}

/// The characters a `\` escapes inside `"…"` (a `\` before any other stays).
fn escapes_in_double_quotes(c: char) -> bool {
    matches!(c, '"' | '\\' | '$' | '`')
}

/// Whether `c` may stand in a word without quotes: nothing a shell reads
/// as syntax, a glob, a tilde, a brace or an assignment.
fn is_bare(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '@' | '%' | '+' | ':' | ',' | '.' | '/' | '-')
}

/// `word` as one shell word that [`split`] and `sh` both read back as
/// `word`: as it is when non-empty and made only of letters, digits and
/// `_@%+:,./-`, else in single quotes (a `'` as `'\''`).
pub fn quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(is_bare) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// `words` quoted and joined by spaces: a line [`split`] reads back as
/// `words`.
pub fn join<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    words
        .into_iter()
        .map(|w| quote(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Vec<String> {
        match split(line) {
            Ok(words) => words,
            Err(e) => panic!("`{line}` refused: {e}"),
        }
    }

    fn refused(line: &str) -> SplitError {
        match split(line) {
            Ok(words) => panic!("`{line}` accepted as {words:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            ok(r#"python3 scripts/calc.py "15 * 23""#),
            ["python3", "scripts/calc.py", "15 * 23"]
        );
        assert_eq!(ok("  a\tb  "), ["a", "b"]);
        assert_eq!(ok(""), Vec::<String>::new());
        assert_eq!(ok("a '' \"\""), ["a", "", ""]);
        assert_eq!(ok(r"a\ b c"), ["a b", "c"]);
        assert_eq!(ok(r#"x"y"'z'"#), ["xyz"]);
        assert_eq!(ok(r#""a \" \\ \$ \n""#), [r#"a " \ $ \n"#]);
        assert_eq!(ok("'$(x); `y` | z'"), ["$(x); `y` | z"]);
        assert_eq!(ok(r"\; \$HOME"), [";", "$HOME"]);
        assert_eq!(
            ok("a#b *.txt ~ {a,b} x=y"),
            ["a#b", "*.txt", "~", "{a,b}", "x=y"]
        );
        assert_eq!(ok("a\\\nb"), ["ab"]);
        assert_eq!(ok("'a\rb' \"c\nd\""), ["a\rb", "c\nd"]);
    }

    #[test]
    fn refuses_shell_syntax() {
        assert_eq!(
            refused("ls; rm -rf /"),
            SplitError::ShellSyntax { found: ';', at: 2 }
        );
        for (line, found) in [
            ("a | b", '|'),
            ("a && b", '&'),
            ("a & ", '&'),
            ("a > out", '>'),
            ("a < in", '<'),
            ("cat <(touch x)", '<'),
            ("echo `id`", '`'),
            ("echo $(id)", '$'),
            ("echo $HOME", '$'),
            ("echo $0 $$", '$'),
            ("echo \"$(id)\"", '$'),
            ("echo \"`id`\"", '`'),
            ("(a)", '('),
            ("a )", ')'),
            ("a\nb", '\n'),
            ("a\rb", '\r'),
            ("a #comment", '#'),
        ] {
            match refused(line) {
                SplitError::ShellSyntax { found: f, .. } => assert_eq!(f, found, "{line}"),
                e => panic!("`{line}`: {e}"),
            }
            assert!(needs_shell(line), "{line}");
        }
        assert_eq!(
            refused("a 'b"),
            SplitError::UnclosedQuote { quote: '\'', at: 2 }
        );
        assert_eq!(
            refused("a \"b\\\""),
            SplitError::UnclosedQuote { quote: '"', at: 2 }
        );
        assert_eq!(refused("a \\"), SplitError::TrailingBackslash);
        assert!(!needs_shell("a 'b") && !needs_shell("a \\") && !needs_shell("a b"));
        assert!(refused("ls; rm -rf /").to_string().contains("quote it"));
    }

    #[test]
    fn quoted_words_read_back_unchanged() {
        for word in [
            "plain",
            "scripts/x.sh",
            "--a=b",
            "",
            " ",
            "a b",
            "it's",
            "'",
            "$0 $$ $HOME",
            "<(touch X)",
            "$(touch X)",
            "`id`",
            "; rm -rf /",
            "#x",
            "~",
            "*",
            "a\nb",
            "a\rb",
            "\\",
            "'\\''",
            "\"",
            "!`cat /etc/hostname`",
            "${IFS}",
            "é 😀",
        ] {
            let quoted = quote(word);
            assert_eq!(ok(&quoted), [word], "{word:?} quoted as {quoted:?}");
            let line = join([word, "x", word]);
            assert_eq!(ok(&line), [word, "x", word], "{line:?}");
        }
        assert_eq!(quote("scripts/x.sh"), "scripts/x.sh");
        assert_eq!(quote("a=b"), "'a=b'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
    }
}

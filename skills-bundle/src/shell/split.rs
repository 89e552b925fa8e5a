//! Reading a command line into words as a shell would, refusing what a
//! shell would do rather than quote.

use std::fmt;

use super::syntax::{CONTROL_OPERATORS, EXPANSIONS, LINE_BREAKS, escapes_in_double_quotes};

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

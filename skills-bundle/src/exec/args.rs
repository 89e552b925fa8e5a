//! Splitting a command line into arguments without a shell.
//!
//! Words are split as a POSIX shell splits them (blanks separate; `'…'` is
//! literal; `"…"` is literal but for `\"`, `\\`, `\$`, `` \` `` and
//! `\`-newline; a `\` outside quotes escapes the next character), so
//! `python3 scripts/calc.py "15 * 23"` gives three arguments. What a shell
//! would *do* rather than quote is refused instead of passed on literally:
//! `;`, `|`, `&`, `<`, `>`, `(`, `)`, a newline, a backtick and any `$`
//! outside single quotes, and `#` starting a word. Glob characters and `~`
//! are passed as they are (no expansion).

use std::fmt;

/// Why a command line was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// Splits `line` into words; see the module documentation for the rules.
/// An empty or blank line gives no words.
pub fn split_args(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    // The word being built; `None` between words (so `''` is an empty word).
    let mut word: Option<String> = None;
    let mut chars = line.char_indices().peekable();
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
                            Some((_, c @ ('"' | '\\' | '$' | '`'))) => w.push(c),
                            Some((_, c)) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err(SplitError::UnclosedQuote { quote: '"', at }),
                        },
                        Some((i, c @ ('$' | '`'))) => {
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
            ';' | '|' | '&' | '<' | '>' | '(' | ')' | '`' | '$' | '\n' => {
                return Err(SplitError::ShellSyntax { found: c, at });
            }
            '#' if word.is_none() => return Err(SplitError::ShellSyntax { found: c, at }),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Vec<String> {
        match split_args(line) {
            Ok(words) => words,
            Err(e) => panic!("`{line}` refused: {e}"),
        }
    }

    fn refused(line: &str) -> SplitError {
        match split_args(line) {
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
        assert_eq!(ok("a#b *.txt ~"), ["a#b", "*.txt", "~"]);
        assert_eq!(ok("a\\\nb"), ["ab"]);
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
            ("echo `id`", '`'),
            ("echo $(id)", '$'),
            ("echo $HOME", '$'),
            ("echo \"$(id)\"", '$'),
            ("echo \"`id`\"", '`'),
            ("(a)", '('),
            ("a\nb", '\n'),
            ("a #comment", '#'),
        ] {
            match refused(line) {
                SplitError::ShellSyntax { found: f, .. } => assert_eq!(f, found, "{line}"),
                e => panic!("`{line}`: {e}"),
            }
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
        assert!(refused("ls; rm -rf /").to_string().contains("quote it"));
    }
}

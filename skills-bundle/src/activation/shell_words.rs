//! The words of a skill's arguments, never an error: Claude Code's split
//! into `$0`, `$1`, ... and `$ARGUMENTS[N]` ([`split`]), and the words
//! `$ARGUMENTS` gives a command ([`data_words`]).
//!
//! This is not [`shell::split`](crate::shell::split), which decides what a
//! command may run and refuses every piece of shell syntax. Here the text
//! comes from the model or the user and must give whatever words Claude
//! Code 2.1.330 gives (observed on that version, quoting and escapes included), so
//! the rules are bash's, leniently read:
//!
//! - blanks (space, tab, newline) separate words;
//! - `'…'` is literal; in `"…"` a backslash is removed only before `$`,
//!   `` ` ``, `"`, `\` and a newline (bash's rule: any other backslash is
//!   kept, `"c\d"` is `c\d`), and `$` expansions are read; an unquoted `\`
//!   takes the next character literally; a backslash before a newline,
//!   quoted or not, joins the lines (both are removed); a quote never closed
//!   runs to the end;
//! - `$name`, `$N` (one digit), `${…}` and `$*`-style specials expand to nothing (the
//!   model's text has no variables), so an unquoted word made only of them
//!   disappears while `""` stays an empty word;
//! - a `#` starting a word, or an unquoted
//!   [control operator](crate::shell::CONTROL_OPERATORS) (`|`, `&`, `;`,
//!   `(`, `)`, `<`, `>`), ends the words: a comment, or the end of the first
//!   command.
//!
//! [`data_words`] keeps the grouping (blanks, quotes, backslashes) and
//! nothing else: no expansion, no comment, no operator, so every character
//! the model wrote reaches the command as data.

/// Claude Code's words of `line`; see the module documentation.
pub(crate) fn split(line: &str) -> Vec<String> {
    words(line, Reading::ClaudeCode)
}

/// The words of `line` grouped by blanks, quotes and backslashes only: a
/// `$`, `#` or operator is an ordinary character; a `\` at the very end
/// stays.
pub(crate) fn data_words(line: &str) -> Vec<String> {
    words(line, Reading::Data)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    ClaudeCode,
    Data,
}

fn words(line: &str, reading: Reading) -> Vec<String> {
    let claude = reading == Reading::ClaudeCode;
    let mut words = Vec::new();
    // The word being built, and whether it had quotes (an empty quoted word
    // is kept, an empty unquoted one is not).
    let mut word = String::new();
    let mut started = false;
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    let mut end = |word: &mut String, started: &mut bool, quoted: &mut bool| {
        if *started && (!word.is_empty() || *quoted) {
            words.push(std::mem::take(word));
        }
        word.clear();
        *started = false;
        *quoted = false;
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => end(&mut word, &mut started, &mut quoted),
            '#' if claude && !started => break,
            c if claude && crate::shell::CONTROL_OPERATORS.contains(&c) => break,
            '\'' => {
                started = true;
                quoted = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                started = true;
                quoted = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some('\n') if claude => {}
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => word.push('\\'),
                        },
                        '$' if claude => expand(&mut chars, &mut word),
                        c => word.push(c),
                    }
                }
            }
            '\\' => match chars.next() {
                // A line continuation: no character, no word boundary.
                Some('\n') if claude => {}
                Some(c) => {
                    started = true;
                    word.push(c);
                }
                None if !claude => {
                    started = true;
                    word.push('\\');
                }
                None => {}
            },
            '$' if claude => {
                started = true;
                expand(&mut chars, &mut word);
            }
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    end(&mut word, &mut started, &mut quoted);
    words
}

/// Reads a `$` expansion after its `$` and adds its value (nothing) to
/// `word`; a `$` that starts none stays a `$`.
fn expand(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, word: &mut String) {
    match chars.peek() {
        Some('{') => {
            for c in chars.by_ref() {
                if c == '}' {
                    break;
                }
            }
        }
        Some('*' | '@' | '#' | '?' | '$' | '!' | '-') => {
            chars.next();
        }
        // `$1y` is `$1`, then `y`, as in bash.
        Some(c) if c.is_ascii_digit() => {
            chars.next();
        }
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            while chars
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
            {
                chars.next();
            }
        }
        _ => word.push('$'),
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn words_as_claude_code_splits_them() {
        let cases: &[(&str, &[&str])] = &[
            (
                r#"alpha "beta gamma" delta"#,
                &["alpha", "beta gamma", "delta"],
            ),
            ("", &[]),
            ("  a \t b\nc  ", &["a", "b", "c"]),
            // Quotes group; double quotes keep backslashes but for \" \\ \$.
            (
                r#"'a b' "c\d" "e\"f" "g\\h" "\$x""#,
                &["a b", r"c\d", "e\"f", r"g\h", "$x"],
            ),
            // An unquoted backslash escapes.
            (r"a\ b \'c", &["a b", "'c"]),
            // `""` is an empty word; an unquoted empty expansion is none.
            (r#"a "" b"#, &["a", "", "b"]),
            ("a $1 b", &["a", "b"]),
            ("x$1y ${HOME}/z", &["xy", "/z"]),
            (r#""$HOME" '$HOME'"#, &["", "$HOME"]),
            ("cost $ 5", &["cost", "$", "5"]),
            // A comment or an operator ends the words.
            ("a b | c d", &["a", "b"]),
            ("a #b c", &["a"]),
            ("a#b c", &["a#b", "c"]),
            ("a; b", &["a"]),
            ("a && b", &["a"]),
            ("'a | b' \"c # d\"", &["a | b", "c # d"]),
            // Quotes never closed run to the end.
            ("'open quote", &["open quote"]),
            ("\"open", &["open"]),
            ("trailing\\", &["trailing"]),
            ("\u{e9}t\u{e9} \u{1F600}", &["\u{e9}t\u{e9}", "\u{1F600}"]),
            // Bash's double quotes: a backslash goes only before `$`, a
            // backquote, `"`, `\` and a newline; every other one is kept.
            (
                r#""a\`b" "c\nd" "e\'f" "g\ h" "\\\$""#,
                &["a`b", r"c\nd", r"e\'f", r"g\ h", r"\$"],
            ),
            (r#""C:\Users\me" "x\*y""#, &[r"C:\Users\me", r"x\*y"]),
            // A backslash before a newline joins the lines, quoted or not.
            ("\"ab\\\ncd\" ef\\\ngh i", &["abcd", "efgh", "i"]),
            ("a \\\n b", &["a", "b"]),
        ];
        for (line, want) in cases {
            assert_eq!(split(line), *want, "{line:?}");
        }
    }

    #[test]
    fn data_words_keep_every_character() {
        let cases: &[(&str, &[&str])] = &[
            (r#"alpha "beta gamma""#, &["alpha", "beta gamma"]),
            ("$0 $$ $HOME", &["$0", "$$", "$HOME"]),
            ("<(touch X)", &["<(touch", "X)"]),
            (
                "a; b | c && d # e",
                &["a;", "b", "|", "c", "&&", "d", "#", "e"],
            ),
            (
                "hello !`cat /etc/hostname`",
                &["hello", "!`cat", "/etc/hostname`"],
            ),
            (r#""$x" '$y' \$z"#, &["$x", "$y", "$z"]),
            (r#"a "" b"#, &["a", "", "b"]),
            ("trailing\\", &["trailing\\"]),
            ("'open", &["open"]),
        ];
        for (line, want) in cases {
            assert_eq!(super::data_words(line), *want, "{line:?}");
        }
    }
}

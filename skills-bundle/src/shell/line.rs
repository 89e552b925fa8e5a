//! Values in an author's command line: where each lands ([`Context`]), how
//! it is quoted there ([`quote_in`]), the lexer that follows the author's
//! text and refuses a place no quoting is sure of ([`Line`]), and
//! [`braced_expansion`].

use std::fmt;

use super::syntax::{CONTROL_OPERATORS, LINE_BREAKS, escapes_in_double_quotes, quote};

/// Where a value lands in a command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Outside quotes: the value becomes [`quote`]d text (nothing when
    /// empty, as an empty unquoted expansion is nothing).
    Unquoted,
    /// Inside `"…"`: `"`, `\`, `$` and `` ` `` are escaped with `\`.
    Double,
    /// Inside `'…'`: a `'` becomes `'\''`.
    Single,
}

/// `value` as text that stands for exactly `value` in `context`.
pub fn quote_in(value: &str, context: Context) -> String {
    match context {
        Context::Unquoted if value.is_empty() => String::new(),
        Context::Unquoted => quote(value),
        Context::Double => {
            let mut out = String::with_capacity(value.len());
            for c in value.chars() {
                if escapes_in_double_quotes(c) {
                    out.push('\\');
                }
                out.push(c);
            }
            out
        }
        Context::Single => value.replace('\'', "'\\''"),
    }
}

/// Why a value cannot be put at some place of a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplaceable {
    /// Where it would have landed: "in a comment", "after `$(`", ….
    pub reason: &'static str,
}

impl fmt::Display for Unplaceable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "it stands {}, where no quoting is sure to keep a value one word of data",
            self.reason
        )
    }
}

impl std::error::Error for Unplaceable {}

/// Where the lexer of a [`Line`] stands in the author's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Unquoted,
    Double,
    Single,
    Comment,
}

/// An author's command line with values filled in as data.
///
/// [`text`](Line::text) appends the author's own text, which is lexed as a
/// shell lexes it; [`value`](Line::value) appends a value quoted for the
/// context the author's text left open ([`quote_in`]); a value never
/// changes that context. Once the author's text opens something whose end
/// only the whole shell grammar could find (`$(`, `${`, backquotes, `$'`,
/// `$"`, `((`, `[[`, a here-document `<<`), no value is accepted until the
/// end of the line, nor inside a comment, nor right after a `\` or a `$`
/// that would take its first character.
#[derive(Debug, Clone)]
pub struct Line {
    out: String,
    state: State,
    /// A `\` (outside single quotes) waits for the character it escapes.
    escaped: bool,
    /// The previous author character was a `$` that may start an expansion.
    dollar: bool,
    /// Outside quotes, no character of the current word yet (a `#` here
    /// starts a comment).
    word_start: bool,
    /// The previous character outside quotes (`<<`, `((`).
    prev: Option<char>,
    /// The current word, when it is plain author text so far (`[[`).
    plain_word: Option<String>,
    /// The current word holds an unquoted `~`, glob or `{` of the author's,
    /// with which even a bare value would be expanded (`{1..$0}`).
    expands: bool,
    /// Why no value may be placed from here on.
    opaque: Option<&'static str>,
}

impl Default for Line {
    fn default() -> Self {
        Line::new()
    }
}

impl Line {
    /// An empty line.
    pub fn new() -> Line {
        Line {
            out: String::new(),
            state: State::Unquoted,
            escaped: false,
            dollar: false,
            word_start: true,
            prev: None,
            plain_word: Some(String::new()),
            expands: false,
            opaque: None,
        }
    }

    /// The line so far.
    pub fn as_str(&self) -> &str {
        &self.out
    }

    /// The line.
    pub fn into_string(self) -> String {
        self.out
    }

    /// Where a value appended now would land; `None` where none may.
    pub fn context(&self) -> Option<Context> {
        self.placeable().ok()
    }

    /// Appends the author's `text`, as it is.
    pub fn text(&mut self, text: &str) {
        self.out.push_str(text);
        for c in text.chars() {
            if self.opaque.is_none() {
                self.lex(c);
            }
        }
    }

    /// Appends `value` as data for the current context; see [`Line`]. An
    /// empty value appends nothing and is accepted anywhere.
    pub fn value(&mut self, value: &str) -> Result<(), Unplaceable> {
        if value.is_empty() {
            return Ok(());
        }
        let context = self.placeable()?;
        if context == Context::Unquoted {
            let word = self.unquoted_word(value);
            self.out.push_str(&word);
            self.in_word();
        } else {
            self.out.push_str(&quote_in(value, context));
        }
        Ok(())
    }

    /// `value` as text outside quotes: [`quote`]d, and in single quotes
    /// even when bare where a bare word would not be literal (a reserved
    /// word, or in a word the shell expands).
    fn unquoted_word(&self, value: &str) -> String {
        if self.expands || RESERVED_WORDS.contains(&value) {
            format!("'{}'", value.replace('\'', "'\\''"))
        } else {
            quote(value)
        }
    }

    /// Appends `words` outside quotes, each [`quote`]d (an empty word as
    /// `''`) and separated by a space; inside quotes, their text joined by
    /// spaces as one value.
    pub fn words<S: AsRef<str>>(&mut self, words: &[S]) -> Result<(), Unplaceable> {
        if words.is_empty() {
            return Ok(());
        }
        match self.placeable()? {
            Context::Unquoted => {
                let line: Vec<String> = words
                    .iter()
                    .map(|w| self.unquoted_word(w.as_ref()))
                    .collect();
                self.out.push_str(&line.join(" "));
                self.in_word();
                Ok(())
            }
            _ => {
                let text: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
                self.value(&text.join(" "))
            }
        }
    }

    /// The context a non-empty value would be quoted for, or why it may
    /// not be placed.
    fn placeable(&self) -> Result<Context, Unplaceable> {
        let refuse = |reason| Err(Unplaceable { reason });
        if let Some(reason) = self.opaque {
            return refuse(reason);
        }
        if self.escaped {
            return refuse("right after a `\\`");
        }
        if self.dollar {
            return refuse("right after a `$`");
        }
        match self.state {
            State::Unquoted => Ok(Context::Unquoted),
            State::Double => Ok(Context::Double),
            State::Single => Ok(Context::Single),
            State::Comment => refuse("in a comment"),
        }
    }

    /// After a non-empty value outside quotes: inside a word, and no
    /// operator or keyword continues across it.
    fn in_word(&mut self) {
        self.word_start = false;
        self.prev = None;
        self.plain_word = None;
    }

    fn lex(&mut self, c: char) {
        let dollar = std::mem::take(&mut self.dollar);
        match self.state {
            State::Single => {
                if c == '\'' {
                    self.state = State::Unquoted;
                }
            }
            State::Comment => {
                if c == '\n' {
                    self.state = State::Unquoted;
                    self.start_word();
                }
            }
            State::Double => {
                if std::mem::take(&mut self.escaped) {
                    return;
                }
                match c {
                    '(' | '{' | '[' if dollar => self.opaque = Some(expansion(c)),
                    '\\' => self.escaped = true,
                    '"' => self.state = State::Unquoted,
                    '`' => self.opaque = Some("after a backquote"),
                    '$' => self.dollar = true,
                    _ => {}
                }
            }
            State::Unquoted => self.lex_unquoted(c, dollar),
        }
    }

    fn lex_unquoted(&mut self, c: char, dollar: bool) {
        let prev = self.prev.replace(c);
        if std::mem::take(&mut self.escaped) {
            // `\`-newline joins lines; anything else is one literal
            // character of the word.
            if c != '\n' {
                self.word_start = false;
                self.plain_word = None;
            }
            return;
        }
        if dollar && matches!(c, '(' | '{' | '[' | '\'' | '"') {
            self.opaque = Some(expansion(c));
            return;
        }
        match c {
            '\\' => {
                self.escaped = true;
                self.plain_word = None;
            }
            '\'' | '"' => {
                self.state = if c == '"' {
                    State::Double
                } else {
                    State::Single
                };
                self.word_start = false;
                self.plain_word = None;
            }
            '`' => self.opaque = Some("after a backquote"),
            '#' if self.word_start => self.state = State::Comment,
            '<' if prev == Some('<') => self.opaque = Some("after a here-document `<<`"),
            '(' if prev == Some('(') => self.opaque = Some("after `((`"),
            c if c == ' ' || c == '\t' || LINE_BREAKS.contains(&c) => self.end_word(),
            c if CONTROL_OPERATORS.contains(&c) => self.end_word(),
            c => {
                self.word_start = false;
                if c == '$' {
                    self.dollar = true;
                }
                if matches!(c, '~' | '*' | '?' | '[' | '{') {
                    self.expands = true;
                }
                if let Some(word) = &mut self.plain_word {
                    word.push(c);
                }
            }
        }
    }

    /// A blank or an operator ends the word. A word of [`REREAD`] makes
    /// the shell read the words after it again.
    fn end_word(&mut self) {
        if let Some((_, reason)) = REREAD
            .iter()
            .find(|(word, _)| self.plain_word.as_deref() == Some(*word))
        {
            self.opaque = Some(reason);
        }
        self.start_word();
    }

    fn start_word(&mut self) {
        self.word_start = true;
        self.plain_word = Some(String::new());
        self.expands = false;
    }
}

/// The words the shell reads as its grammar where a command starts; a value
/// that is one is quoted, so that it stays a word.
const RESERVED_WORDS: [&str; 20] = [
    "!", "{", "}", "[[", "]]", "case", "do", "done", "elif", "else", "esac", "fi", "for",
    "function", "if", "in", "select", "then", "time", "until",
];

/// Words after which the shell itself reads words again as code: bash's
/// conditional (whose `-eq` evaluates its operands as arithmetic, and an
/// array subscript there runs `$(…)`), and the builtins that evaluate their
/// arguments. A program that runs an argument as code (`sh -c`,
/// `python3 -c`) is the author's choice and gets the value as any literal.
const REREAD: [(&str, &str); 3] = [
    ("[[", "after `[[`"),
    ("let", "after `let`"),
    ("eval", "after `eval`"),
];

/// The reason for a value after `$` and `c`.
fn expansion(c: char) -> &'static str {
    match c {
        '(' => "after `$(`",
        '{' => "after `${`",
        '[' => "after `$[`",
        '\'' => "after `$'`",
        _ => "after `$\"`",
    }
}

/// The byte offset of the first `${` in `line` that a shell would expand:
/// outside single quotes, not escaped, not in a comment. `None` when there
/// is none; a `${` that quoting made data (`'${x}'`, `"\${x}"`) is none.
pub fn braced_expansion(line: &str) -> Option<usize> {
    let mut state = State::Unquoted;
    let mut escaped = false;
    let mut word_start = true;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if std::mem::take(&mut escaped) {
            word_start = false;
            continue;
        }
        let opens_brace = c == '$' && chars.peek().is_some_and(|&(_, n)| n == '{');
        match state {
            State::Single if c == '\'' => state = State::Unquoted,
            State::Single => {}
            State::Comment if c == '\n' => {
                state = State::Unquoted;
                word_start = true;
            }
            State::Comment => {}
            State::Double | State::Unquoted if opens_brace => return Some(at),
            State::Double => match c {
                '\\' => escaped = true,
                '"' => state = State::Unquoted,
                _ => {}
            },
            State::Unquoted => {
                match c {
                    '\\' => escaped = true,
                    '\'' => state = State::Single,
                    '"' => state = State::Double,
                    '#' if word_start => state = State::Comment,
                    _ => {}
                }
                word_start = c == ' '
                    || c == '\t'
                    || LINE_BREAKS.contains(&c)
                    || CONTROL_OPERATORS.contains(&c);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::split;

    fn ok(line: &str) -> Vec<String> {
        match split(line) {
            Ok(words) => words,
            Err(e) => panic!("`{line}` refused: {e}"),
        }
    }

    #[test]
    fn values_are_quoted_for_their_context() {
        let fill = |before: &str, value: &str, after: &str| {
            let mut line = Line::new();
            line.text(before);
            let placed = line.value(value);
            line.text(after);
            placed.map(|()| line.into_string())
        };
        let hostile = "a'b\"c $HOME `id` $(id) \\ ; | # \n";
        let inside = format!("x {hostile} y");
        for (before, after, want) in [
            ("echo ", "", hostile),
            ("echo \"x ", " y\"", inside.as_str()),
            ("echo 'x ", " y'", inside.as_str()),
        ] {
            let line = fill(before, hostile, after).unwrap_or_default();
            assert_eq!(ok(&line), ["echo", want], "{line}");
        }
        assert_eq!(fill("echo ", "a b", ".txt"), Ok("echo 'a b'.txt".into()));
        assert_eq!(fill("echo \"", "$x", "\""), Ok("echo \"\\$x\"".into()));
        assert_eq!(fill("echo '", "it's", "'"), Ok("echo 'it'\\''s'".into()));
        // An empty value outside quotes is nothing, inside quotes empty.
        assert_eq!(fill("echo ", "", " x"), Ok("echo  x".into()));
        assert_eq!(fill("echo \"", "", "\""), Ok("echo \"\"".into()));
        // The author's own syntax before or after a value is theirs.
        assert_eq!(
            fill("echo ", "v", " | wc -c; echo \"$(date)\""),
            Ok("echo v | wc -c; echo \"$(date)\"".into())
        );
        assert_eq!(fill("x=1; echo ", "v", ""), Ok("x=1; echo v".into()));
        assert_eq!(fill("echo a#b ", "v", ""), Ok("echo a#b v".into()));
        assert_eq!(fill("echo \\\n", "v", ""), Ok("echo \\\nv".into()));
        assert_eq!(fill("echo # c\n", "v", ""), Ok("echo # c\nv".into()));
        assert_eq!(fill("echo '#' ", "v", ""), Ok("echo '#' v".into()));
        assert_eq!(fill("cat < f ", "v", ""), Ok("cat < f v".into()));
        // Where even a bare word would be expanded or be grammar, quoted.
        assert_eq!(fill("echo {1..", "5", "}"), Ok("echo {1..'5'}".into()));
        assert_eq!(fill("echo ~", "root", ""), Ok("echo ~'root'".into()));
        assert_eq!(fill("ls [", "a-z", "]"), Ok("ls ['a-z']".into()));
        assert_eq!(fill("echo *", "x", " ",), Ok("echo *'x' ".into()));
        assert_eq!(fill("", "time", " ls"), Ok("'time' ls".into()));
        assert_eq!(fill("echo ~ ", "root", ""), Ok("echo ~ root".into()));
        let mut line = Line::new();
        line.text("x={");
        assert_eq!(line.words(&["a,b", "if"]), Ok(()));
        assert_eq!(line.as_str(), "x={'a,b' 'if'");
    }

    #[test]
    fn values_where_the_context_is_unsure_are_refused() {
        for (before, reason) in [
            ("echo $(date) ", "after `$(`"),
            ("echo \"$(", "after `$(`"),
            ("echo ${x:-", "after `${`"),
            ("echo `date` ", "after a backquote"),
            ("echo \"`", "after a backquote"),
            ("echo $'", "after `$'`"),
            ("echo $\"", "after `$\"`"),
            ("cat <<EOF\n", "after a here-document `<<`"),
            ("(( ", "after `((`"),
            ("[[ ", "after `[[`"),
            ("let ", "after `let`"),
            ("eval ", "after `eval`"),
            ("echo $[", "after `$[`"),
            ("echo # ", "in a comment"),
            ("#", "in a comment"),
            ("echo \\", "right after a `\\`"),
            ("echo \"\\", "right after a `\\`"),
            ("echo $", "right after a `$`"),
            ("echo \"$", "right after a `$`"),
        ] {
            let mut line = Line::new();
            line.text(before);
            assert_eq!(line.context(), None, "{before:?}");
            assert_eq!(line.value("v"), Err(Unplaceable { reason }), "{before:?}");
            assert_eq!(line.value(""), Ok(()), "{before:?}");
            assert_eq!(
                line.words(&["v"]),
                Err(Unplaceable { reason }),
                "{before:?}"
            );
        }
        // Quoted, these are no syntax.
        for before in [
            "echo '$(' ",
            "echo \"[[\" ",
            "echo '<<' ",
            "echo '`' ",
            "echo \\# ",
        ] {
            let mut line = Line::new();
            line.text(before);
            assert_eq!(line.context(), Some(Context::Unquoted), "{before:?}");
        }
    }

    #[test]
    fn words_outside_and_inside_quotes() {
        let mut line = Line::new();
        line.text("echo ");
        assert_eq!(line.words(&["a b", "", "c"]), Ok(()));
        line.text(" \"");
        assert_eq!(line.words(&["a b", "$c"]), Ok(()));
        line.text("\"");
        assert_eq!(line.as_str(), "echo 'a b' '' c \"a b \\$c\"");
        assert_eq!(ok(line.as_str()), ["echo", "a b", "", "c", "a b $c"]);
    }

    #[test]
    fn braced_expansions_where_a_shell_expands_them() {
        assert_eq!(braced_expansion("echo ${HOME}"), Some(5));
        assert_eq!(braced_expansion("echo \"x ${HOME}\""), Some(8));
        assert_eq!(braced_expansion("echo `${x}`"), Some(6));
        for line in [
            "echo '${HOME}'",
            "echo \\${HOME}",
            "echo \"\\${HOME}\"",
            "echo $ {x}",
            "echo # ${x}",
            "echo {x}",
        ] {
            assert_eq!(braced_expansion(line), None, "{line}");
        }
        assert_eq!(braced_expansion("echo # c\n${x}"), Some(9));
    }
}

//! The first simple command of a bash line, as Claude Code's own bash
//! parser finds it in a skill's arguments, and the text of each of its
//! words: the rules are in [`shell_words`](super::shell_words), which owns
//! the split and its fallback. Lexing is bash's, read leniently (never an
//! error): what the parser cannot place gives `None`.

/// The most characters read: a longer line is split at blanks, as a parser
/// that gives up would leave it.
pub(crate) const MAX_LEN: usize = 100_000;

/// A piece of a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Unquoted text; `\x` stands for `x`.
    Text,
    /// `"…"`.
    Double,
    /// `'…'`.
    Single,
    /// `$NAME`, `$1`, `$@`, `${…}`, `$'…'`, `$((…))` or a lone `$`.
    Expansion,
    /// `$(…)`, `` `…` ``.
    Substitution,
}

/// A piece of a word: its kind and its text as written.
#[derive(Debug, Clone, Copy)]
struct Piece<'a> {
    kind: Kind,
    text: &'a str,
}

/// A token of the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    /// A word: its pieces are read again by [`pieces`].
    Word(&'a str),
    /// `(` opening a subshell.
    Open,
    /// A newline or a control operator (`;`, `&`, `|`, `)`, ...).
    Operator,
    /// A redirection's operator (`>`, `2>&`, `<<`, ...); its target is the
    /// next word.
    Redirect,
    /// The end of the line, or a comment.
    End,
}

/// Claude Code's words of the first simple command of `line`; `None` when
/// there is none (see the module).
pub(crate) fn words(line: &str) -> Option<Vec<String>> {
    if line.len() > MAX_LEN {
        return None;
    }
    // A line starting with a backquote is one word, the rest of the line
    // (recorded five times: `` `id` do $@ `` gave ``id` do $@``).
    if let Some(rest) = line.strip_prefix('`') {
        return Some(vec![rest.to_owned()]);
    }
    let mut lexer = Lexer { rest: line };
    // What may stand before the command: operators and parentheses (its
    // parser skips what it cannot place), keywords, redirections,
    // assignments.
    let mut token = lexer.next();
    loop {
        match token {
            Token::Open | Token::Operator => token = lexer.next(),
            Token::Redirect => {
                if let Token::Word(_) = lexer.next() {
                    token = lexer.next();
                } else {
                    return None;
                }
            }
            Token::Word(w) if w.starts_with("((") || is_assignment(w) || w == "!" || w == "{" => {
                token = lexer.next();
            }
            // A word opening with `[` but neither the test `[` nor `[[`
            // is skipped like an assignment (recorded: `[x] b` and
            // `[a-z] q` gave `b` and `q`; `[x] #c`, `[x]y #c`, `[[x]] #c`
            // and `[] #c` found no command; `[{a,b} $@ =` gave `$@`).
            Token::Word(w) if w.starts_with('[') && w != "[" && w != "[[" => {
                token = lexer.next();
            }
            // A keyword before a command, also when a quote or an
            // expansion follows it closely (`while's t'` is `s t`).
            Token::Word(w) if let Some(rest) = after_keyword(w) => {
                token = if rest.is_empty() {
                    lexer.next()
                } else {
                    Token::Word(rest)
                };
            }
            Token::Word(
                "for" | "case" | "select" | "function" | "time" | "coproc" | "fi" | "done" | "esac"
                | "}" | "in",
            ) => return None,
            _ => break,
        }
    }
    let Token::Word(name) = token else {
        return None;
    };
    let mut out = vec![first_word(name)];
    if matches!(
        name,
        "export" | "declare" | "typeset" | "readonly" | "local"
    ) {
        return Some(out);
    }
    let mut closed = name != "[";
    while let Token::Word(w) = lexer.next() {
        // A test `[` never closed is a syntax error: the parser gives up.
        if name == "[" && w == "]" {
            closed = true;
        }
        match argument(w) {
            Step::Word(text) => out.push(text),
            Step::Skip => {}
            Step::Stop => break,
        }
    }
    closed.then_some(out)
}

/// What a word after the command name gives.
enum Step {
    Word(String),
    Skip,
    Stop,
}

/// The command name: as written when it holds a substitution, else its
/// pieces' text.
fn first_word(word: &str) -> String {
    let pieces = pieces(word);
    if pieces.len() > 1 && pieces.iter().any(|p| p.kind == Kind::Substitution) {
        return word.to_owned();
    }
    pieces.iter().map(|p| text(*p)).collect()
}

/// An argument: words, quotes and their mixtures give their text; a lone
/// expansion, or a lone `=`, gives nothing; a substitution ends the words.
fn argument(word: &str) -> Step {
    let pieces = pieces(word);
    if pieces.iter().any(|p| p.kind == Kind::Substitution) {
        return Step::Stop;
    }
    match pieces.as_slice() {
        [one] if one.kind == Kind::Expansion || one.text == "=" => Step::Skip,
        [] => Step::Skip,
        _ => Step::Word(pieces.iter().map(|p| text(*p)).collect()),
    }
}

/// A piece's text: unquoted text with `\x` as `x` (not before a line
/// break), anything else as written, less its outer quotes when it starts
/// and ends with the same one.
fn text(piece: Piece<'_>) -> String {
    match piece.kind {
        Kind::Text => {
            let mut out = String::with_capacity(piece.text.len());
            let mut chars = piece.text.chars().peekable();
            while let Some(c) = chars.next() {
                match (c, chars.peek()) {
                    ('\\', Some(next))
                        if !matches!(next, '\n' | '\r' | '\u{2028}' | '\u{2029}') =>
                    {
                        out.push(*next);
                        chars.next();
                    }
                    _ => out.push(c),
                }
            }
            out
        }
        _ => {
            let t = piece.text;
            let quoted = t.len() >= 2
                && ((t.starts_with('"') && t.ends_with('"'))
                    || (t.starts_with('\'') && t.ends_with('\'')));
            if quoted { &t[1..t.len() - 1] } else { t }.to_owned()
        }
    }
}

/// What follows a keyword that may stand before a command (`if`, `then`,
/// `elif`, `else`, `while`, `until`, `do`) at the start of `word`: nothing
/// when the word is the keyword, else a quoted or expanded piece; `None`
/// when the word is no such keyword.
fn after_keyword(word: &str) -> Option<&str> {
    ["if", "then", "elif", "else", "while", "until", "do"]
        .iter()
        .filter_map(|k| word.strip_prefix(k))
        .find(|rest| rest.is_empty() || rest.starts_with(['\'', '"', '$', '`']))
}

/// `NAME=…`, `NAME+=…` or `NAME[…]=…` at the start of an unquoted word.
fn is_assignment(word: &str) -> bool {
    let name = word
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    if name == 0 || word.as_bytes()[0].is_ascii_digit() {
        return false;
    }
    let mut rest = &word[name..];
    if let Some(index) = rest.strip_prefix('[') {
        match index.find(']') {
            Some(close) => rest = &index[close + 1..],
            None => return false,
        }
    }
    rest.starts_with('=') || rest.starts_with("+=")
}

/// The pieces of a word the lexer found.
fn pieces(word: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut text_from = None;
    while at < word.len() {
        let len = piece_len(&word[at..]);
        match len {
            Some((kind, len)) => {
                if let Some(from) = text_from.take() {
                    out.push(Piece {
                        kind: Kind::Text,
                        text: &word[from..at],
                    });
                }
                out.push(Piece {
                    kind,
                    text: &word[at..at + len],
                });
                at += len;
            }
            None => {
                text_from.get_or_insert(at);
                // An escaped character is text, whatever it is.
                let step = if word[at..].starts_with('\\') { 1 } else { 0 };
                at += step;
                at += word[at..].chars().next().map_or(0, char::len_utf8);
            }
        }
    }
    if let Some(from) = text_from {
        out.push(Piece {
            kind: Kind::Text,
            text: &word[from..],
        });
    }
    out
}

/// The kind and length of the quoted or expanded piece `rest` starts with;
/// `None` for unquoted text.
fn piece_len(rest: &str) -> Option<(Kind, usize)> {
    let b = rest.as_bytes();
    match b.first()? {
        b'"' => Some((Kind::Double, quoted_len(rest, b'"', true))),
        b'\'' => Some((Kind::Single, quoted_len(rest, b'\'', false))),
        b'`' => Some((Kind::Substitution, quoted_len(rest, b'`', true))),
        b'$' => Some(match b.get(1) {
            Some(b'(') if b.get(2) == Some(&b'(') => (Kind::Expansion, nested_len(rest, 1)),
            Some(b'(') => (Kind::Substitution, nested_len(rest, 1)),
            Some(b'{') => (Kind::Expansion, nested_len(rest, 1)),
            Some(b'\'') => (Kind::Expansion, 1 + quoted_len(&rest[1..], b'\'', true)),
            // `$"…"` reads as a `$` and a string.
            Some(b'"') => (Kind::Text, 1),
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                let name = b[1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                    .count();
                (Kind::Expansion, 1 + name)
            }
            Some(c) if c.is_ascii_digit() || b"*@#?$!-".contains(c) => (Kind::Expansion, 2),
            _ => (Kind::Expansion, 1),
        }),
        _ => None,
    }
}

/// The length of the quoted piece at the start of `rest` (opened by
/// `quote`), closing quote included; a quote never closed runs to the end.
fn quoted_len(rest: &str, quote: u8, escapes: bool) -> usize {
    let b = rest.as_bytes();
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' if escapes => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    rest.len()
}

/// The length of the bracketed piece at the start of `rest` whose opening
/// bracket is at `open`, up to its matching close (quotes skipped); never
/// closed: to the end.
fn nested_len(rest: &str, open: usize) -> usize {
    let b = rest.as_bytes();
    let (left, right) = match b[open] {
        b'{' => (b'{', b'}'),
        _ => (b'(', b')'),
    };
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\'' | b'"' | b'`' => {
                i += quoted_len(&rest[i..], b[i], b[i] != b'\'');
                continue;
            }
            c if c == left => depth += 1,
            c if c == right => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    rest.len()
}

/// Bash's words and ends, from the start of a line.
struct Lexer<'a> {
    rest: &'a str,
}

impl<'a> Lexer<'a> {
    /// The next word, or the end of the command.
    fn next(&mut self) -> Token<'a> {
        // Blanks, and a backslash before a newline, separate words.
        loop {
            let trimmed = self.rest.trim_start_matches([' ', '\t', '\r']);
            match trimmed.strip_prefix("\\\n") {
                Some(after) => self.rest = after,
                None => {
                    self.rest = trimmed;
                    break;
                }
            }
        }
        // `((…))` as a command: one word.
        if self.rest.starts_with("((") {
            let len = nested_len(self.rest, 0).min(self.rest.len());
            let (word, rest) = self.rest.split_at(len);
            self.rest = rest;
            return Token::Word(word);
        }
        if let Some(rest) = self.rest.strip_prefix('(') {
            self.rest = rest;
            return Token::Open;
        }
        let b = self.rest.as_bytes();
        let Some(first) = b.first() else {
            return Token::End;
        };
        if *first == b'#' {
            return Token::End;
        }
        // A redirection: digits, then `<` or `>` (and what may follow).
        let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let redirect = match (b.get(digits), b.get(digits + 1)) {
            (Some(b'<' | b'>'), _) => Some(digits + 1),
            (Some(b'&'), Some(b'>')) if digits == 0 => Some(2),
            _ => None,
        };
        if let Some(mut len) = redirect {
            len += b[len..]
                .iter()
                .take_while(|c| matches!(c, b'<' | b'>' | b'&' | b'|' | b'-'))
                .count();
            self.rest = &self.rest[len..];
            return Token::Redirect;
        }
        if matches!(first, b'\n' | b';' | b'&' | b'|' | b')') {
            let len = b
                .iter()
                .take_while(|c| matches!(c, b'\n' | b';' | b'&' | b'|' | b')'))
                .count()
                .min(2);
            self.rest = &self.rest[len..];
            return Token::Operator;
        }
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>' => {
                    break;
                }
                b'\\' if b.get(i + 1) == Some(&b'\n') => break,
                // A lone backslash at the very end is dropped.
                b'\\' if i + 1 == b.len() => {
                    let word = &self.rest[..i];
                    self.rest = "";
                    return if word.is_empty() {
                        Token::End
                    } else {
                        Token::Word(word)
                    };
                }
                b'\\' => i += 1 + self.rest[i + 1..].chars().next().map_or(0, char::len_utf8),
                b'"' | b'\'' | b'`' => i += quoted_len(&self.rest[i..], b[i], b[i] != b'\''),
                b'$' => match piece_len(&self.rest[i..]) {
                    Some((_, len)) => i += len,
                    None => i += 1,
                },
                _ => i += 1,
            }
        }
        let (word, rest) = self.rest.split_at(i);
        self.rest = rest;
        Token::Word(word)
    }
}

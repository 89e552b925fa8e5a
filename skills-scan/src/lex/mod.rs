//! The lexers the analyzers read code through: shell split into commands the
//! way a shell splits it ([`shell`]), Python and JavaScript cut into tokens
//! ([`python`], [`js`]), sharing the token type and the escape decoding of
//! string literals.
//!
//! Each is a pure function over `&str` written for hostile input: it never
//! panics, reads its input once (no rescanning from each position), bounds
//! nesting at [`MAX_DEPTH`], and every range it returns is a byte range of
//! the input that starts and ends on a character boundary. They read enough
//! to analyze code, not to run it: where a language is ambiguous without a
//! full parser, the module says which way it guesses.

pub(crate) mod js;
pub(crate) mod powershell;
pub(crate) mod python;
pub(crate) mod shell;

use std::ops::Range;

/// How deep nested constructs are followed: shell substitutions, subshells
/// and groups, JavaScript template literals inside `${}`. Deeper ones are
/// skipped over as a whole, still in one pass.
pub(crate) const MAX_DEPTH: usize = 64;

/// What a [`Token`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A name or keyword; the value is the name.
    Ident,
    /// A string literal (or a JavaScript regular expression literal); the
    /// value is its content, escapes decoded.
    Str,
    /// A number as written.
    Number,
    /// An operator or delimiter: one character, or one of [`PUNCT`].
    Punct,
    /// A comment; the value is its text without the markers (`#`, `//`,
    /// `/*` and `*/`).
    Comment,
    /// The end of a line (Python: of a logical line); the value is the line
    /// break as written.
    Newline,
}

/// One token: its kind, its byte range in the source, and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) kind: Kind,
    pub(crate) span: Range<usize>,
    pub(crate) value: String,
}

/// The operators kept as one token; every other punctuation character is a
/// token of its own (`===` is `==` then `=`, `+=` is `+` then `=`).
pub(crate) const PUNCT: [&str; 6] = ["...", "**", "==", "!=", "=>", "::"];

/// The length in bytes of the punctuation token at the start of `rest`
/// (which is not empty): one of [`PUNCT`], else its first character.
fn punct_len(rest: &str) -> usize {
    PUNCT.iter().find(|p| rest.starts_with(**p)).map_or_else(
        || rest.chars().next().map_or(1, char::len_utf8),
        |p| p.len(),
    )
}

/// A token for `src[span]` when that is a valid range (it always is: the
/// lexers only cut at character boundaries), with `value`.
fn token(kind: Kind, span: Range<usize>, value: String) -> Token {
    Token { kind, span, value }
}

/// The slice `src[range]`, or nothing when the range is not one (never, by
/// construction; a lexer must not panic if that is ever wrong).
fn slice(src: &str, range: Range<usize>) -> &str {
    src.get(range).unwrap_or_default()
}

/// The end of the line holding `from`: its line break, or the end of `b`.
fn line_end(b: &[u8], from: usize) -> usize {
    b.get(from..)
        .and_then(|rest| rest.iter().position(|&c| c == b'\n' || c == b'\r'))
        .map_or(b.len(), |i| from + i)
}

/// The length of the line break at `b[at..]` (`\r\n` is one), or 0.
fn line_break(b: &[u8], at: usize) -> usize {
    match (b.get(at), b.get(at + 1)) {
        (Some(b'\r'), Some(b'\n')) => 2,
        (Some(b'\n' | b'\r'), _) => 1,
        _ => 0,
    }
}

/// The end of the number starting at `start`: digits, letters (`0x`,
/// `1e5`, `10n`, `3j`), `_` and `.`, and a sign right after an exponent's
/// `e` (not in hex).
fn number_end(b: &[u8], start: usize) -> usize {
    let hex = matches!(b.get(start..start + 2), Some(b"0x" | b"0X"));
    let mut i = start;
    while let Some(&c) = b.get(i) {
        let sign = matches!(c, b'+' | b'-')
            && !hex
            && i > start
            && matches!(b.get(i - 1), Some(b'e' | b'E'));
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || sign {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// The end of the identifier starting at `start` (`start` itself when none
/// does): a letter or `_` (or `$` when `dollar`), then those and digits.
fn ident_end(src: &str, start: usize, dollar: bool) -> usize {
    let mut i = start;
    for c in src.get(start..).unwrap_or_default().chars() {
        let ok = c == '_'
            || (dollar && c == '$')
            || if i == start {
                c.is_alphabetic()
            } else {
                c.is_alphanumeric()
            };
        if !ok {
            break;
        }
        i += c.len_utf8();
    }
    i
}

/// The character at `at`, when `at` is a character boundary of `src`.
fn char_at(src: &str, at: usize) -> Option<char> {
    src.get(at..).and_then(|s| s.chars().next())
}

/// Whose escape sequences a string literal uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Escapes {
    /// Python `str`: `\n \t \r \a \b \f \v \\ \' \"`, `\xNN`, `\uNNNN`,
    /// `\UNNNNNNNN`, octal `\NNN`; `\N{name}` and unknown escapes are kept
    /// as written.
    Python,
    /// Python `bytes`: as `str` without `\u`, `\U` and `\N`; a byte above
    /// 0x7F becomes the character with that code (Latin-1).
    PythonBytes,
    /// JavaScript: as Python `str` without `\a`, `\U` and `\N`, plus
    /// `\u{N..}`; an unknown escape is the character itself.
    Js,
}

/// `raw` with its escape sequences decoded. A backslash before a line break
/// joins the lines; a surrogate pair written as two `\u` escapes is one
/// character, a lone surrogate or an invalid code is U+FFFD.
pub(crate) fn unescape(raw: &str, style: Escapes) -> String {
    let b = raw.as_bytes();
    let python = style != Escapes::Js;
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while let Some(c) = raw.get(i..).and_then(|s| s.chars().next()) {
        i += c.len_utf8();
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = raw.get(i..).and_then(|s| s.chars().next()) else {
            out.push('\\');
            break;
        };
        i += e.len_utf8();
        let mut keep = false;
        match e {
            '\n' => {}
            '\r' => {
                if b.get(i) == Some(&b'\n') {
                    i += 1;
                }
            }
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            'a' if python => out.push('\u{7}'),
            '\\' | '\'' | '"' => out.push(e),
            'x' => match hex(b, i, 2) {
                Some(v) => {
                    i += 2;
                    out.push(code(v, style));
                }
                None => keep = true,
            },
            'u' if style == Escapes::Js && b.get(i) == Some(&b'{') => {
                let digits = b
                    .get(i + 1..)
                    .unwrap_or_default()
                    .iter()
                    .take(7)
                    .take_while(|d| d.is_ascii_hexdigit())
                    .count();
                match hex(b, i + 1, digits) {
                    Some(v)
                        if (1..=6).contains(&digits) && b.get(i + 1 + digits) == Some(&b'}') =>
                    {
                        i += digits + 2;
                        out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
                    }
                    _ => keep = true,
                }
            }
            'u' if style != Escapes::PythonBytes => match hex(b, i, 4) {
                Some(v) => {
                    i += 4;
                    let low = (0xD800..0xDC00).contains(&v)
                        && b.get(i..i + 2) == Some(b"\\u".as_slice())
                        && hex(b, i + 2, 4).is_some_and(|l| (0xDC00..0xE000).contains(&l));
                    if low {
                        let l = hex(b, i + 2, 4).unwrap_or_default();
                        i += 6;
                        let joined = 0x10000 + ((v - 0xD800) << 10) + (l - 0xDC00);
                        out.push(char::from_u32(joined).unwrap_or('\u{FFFD}'));
                    } else {
                        out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
                    }
                }
                None => keep = true,
            },
            'U' if style == Escapes::Python => match hex(b, i, 8) {
                Some(v) => {
                    i += 8;
                    out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
                }
                None => keep = true,
            },
            '0'..='7' => {
                let mut v = u32::from(e) - u32::from('0');
                for _ in 0..2 {
                    match b.get(i) {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push(code(v, style));
            }
            _ if python => keep = true,
            _ => out.push(e),
        }
        if keep {
            out.push('\\');
            out.push(e);
        }
    }
    out
}

/// The value of exactly `n` hex digits at `b[at..]`, if they are there.
fn hex(b: &[u8], at: usize, n: usize) -> Option<u32> {
    let digits = b.get(at..at.checked_add(n)?)?;
    if n == 0 || n > 8 {
        return None;
    }
    digits.iter().try_fold(0u32, |v, d| {
        let d = char::from(*d).to_digit(16)?;
        Some(v.wrapping_mul(16) | d)
    })
}

/// The character a numeric escape stands for: in Python bytes, a byte
/// (Latin-1); otherwise the code point, or U+FFFD when it is none.
fn code(v: u32, style: Escapes) -> char {
    if style == Escapes::PythonBytes {
        char::from((v & 0xFF) as u8)
    } else {
        char::from_u32(v).unwrap_or('\u{FFFD}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_decode_per_language() {
        let py = |s| unescape(s, Escapes::Python);
        assert_eq!(
            py(r"a\nb\t\\\'\x41\u202e\U0001F600\101"),
            "a\nb\t\\'A\u{202e}😀A"
        );
        assert_eq!(py(r"\N{DASH}\q\x4"), r"\N{DASH}\q\x4");
        assert_eq!(
            unescape(r"\xff\u0041", Escapes::PythonBytes),
            "\u{ff}\\u0041"
        );
        let js = |s| unescape(s, Escapes::Js);
        assert_eq!(js(r"\u{1F600}\ud83d\ude00\q\0"), "😀😀q\0");
        assert_eq!(js(r"\ud83d!\u{110000}"), "\u{FFFD}!\u{FFFD}");
        assert_eq!(js("a\\\nb\\\r\nc"), "abc");
        assert_eq!(js("\\"), "\\");
        assert_eq!(js("é\\é"), "éé");
    }

    #[test]
    fn punctuation_runs_split_except_the_listed_ones() {
        assert_eq!(punct_len("**x"), 2);
        assert_eq!(punct_len("...r"), 3);
        assert_eq!(punct_len("+=1"), 1);
        assert_eq!(punct_len("€"), 3);
    }
}

//! Python source cut into tokens: names, string literals with their escapes
//! decoded, numbers, punctuation, comments, and the ends of logical lines.
//!
//! String literals take every prefix Python knows (`r`, `b`, `u`, `f`, `t`
//! and the pairs `rb`, `br`, `fr`, `rf`, `tr`, `rt`, in any case), single,
//! double and triple quotes. A raw string's value is its text undecoded; an
//! f-string's is its literal text with every `{expression}` (and `{{`,
//! `}}`) kept as written. A string left open ends its line (or, triple
//! quoted, the input). Only logical lines end in a [`Kind::Newline`]: not
//! inside brackets, not after a backslash continuation, not on a line of
//! only a comment or nothing.

use super::{
    Escapes, Kind, Token, char_at, ident_end, line_break, line_end, number_end, punct_len, slice,
    token, unescape,
};

/// The tokens of `src`, in order.
pub(crate) fn python(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut pos = 0;
    let mut brackets = 0usize;
    let mut code = false;
    while let Some(&c) = b.get(pos) {
        let start = pos;
        match c {
            b' ' | b'\t' | b'\x0c' => pos += 1,
            b'\n' | b'\r' => {
                pos += line_break(b, pos);
                if brackets == 0 && code {
                    code = false;
                    let text = slice(src, start..pos).to_owned();
                    out.push(token(Kind::Newline, start..pos, text));
                }
            }
            b'\\' if line_break(b, pos + 1) > 0 => pos += 1 + line_break(b, pos + 1),
            b'#' => {
                pos = line_end(b, pos);
                let text = slice(src, start + 1..pos).to_owned();
                out.push(token(Kind::Comment, start..pos, text));
            }
            b'\'' | b'"' => {
                let (t, end) = string(src, start, start);
                out.push(t);
                pos = end;
                code = true;
            }
            b'0'..=b'9' => {
                pos = number_end(b, pos);
                out.push(token(
                    Kind::Number,
                    start..pos,
                    slice(src, start..pos).to_owned(),
                ));
                code = true;
            }
            b'.' if b.get(pos + 1).is_some_and(u8::is_ascii_digit) => {
                pos = number_end(b, pos);
                out.push(token(
                    Kind::Number,
                    start..pos,
                    slice(src, start..pos).to_owned(),
                ));
                code = true;
            }
            _ => {
                let end = ident_end(src, pos, false);
                if end > pos {
                    let name = slice(src, start..end);
                    if matches!(b.get(end), Some(b'\'' | b'"')) && is_prefix(name) {
                        let (t, after) = string(src, start, end);
                        out.push(t);
                        pos = after;
                    } else {
                        out.push(token(Kind::Ident, start..end, name.to_owned()));
                        pos = end;
                    }
                    code = true;
                    continue;
                }
                let Some(ch) = char_at(src, pos) else {
                    pos += 1;
                    continue;
                };
                if ch.is_whitespace() {
                    pos += ch.len_utf8();
                    continue;
                }
                match c {
                    b'(' | b'[' | b'{' => brackets = brackets.saturating_add(1),
                    b')' | b']' | b'}' => brackets = brackets.saturating_sub(1),
                    _ => {}
                }
                pos += punct_len(slice(src, pos..b.len()));
                out.push(token(
                    Kind::Punct,
                    start..pos,
                    slice(src, start..pos).to_owned(),
                ));
                code = true;
            }
        }
    }
    out
}

/// The indentation width of the line holding byte `at` (a tab advances to
/// the next multiple of 8, as Python counts it).
pub(crate) fn indent_of(src: &str, at: usize) -> usize {
    let b = src.as_bytes();
    let at = at.min(b.len());
    let start = b
        .get(..at)
        .and_then(|before| before.iter().rposition(|&c| c == b'\n'))
        .map_or(0, |i| i + 1);
    let mut width = 0;
    for &c in b.get(start..).unwrap_or_default() {
        match c {
            b' ' => width += 1,
            b'\t' => width = (width / 8 + 1) * 8,
            b'\x0c' => width = 0,
            _ => break,
        }
    }
    width
}

fn is_prefix(name: &str) -> bool {
    name.len() <= 2
        && matches!(
            name.to_ascii_lowercase().as_str(),
            "r" | "u" | "b" | "f" | "t" | "br" | "rb" | "fr" | "rf" | "tr" | "rt"
        )
}

/// The string literal with prefix `src[start..quote]` and its opening
/// quote at `quote`; returns its token and where it ends.
fn string(src: &str, start: usize, quote: usize) -> (Token, usize) {
    let b = src.as_bytes();
    let len = b.len();
    let prefix = slice(src, start..quote).to_ascii_lowercase();
    let raw = prefix.contains('r');
    let escapes = if prefix.contains('b') {
        Escapes::PythonBytes
    } else {
        Escapes::Python
    };
    let fmt = prefix.contains('f') || prefix.contains('t');
    let q = b.get(quote).copied().unwrap_or(b'"');
    let triple = b.get(quote..quote + 3) == Some([q, q, q].as_slice());
    let open = if triple { 3 } else { 1 };
    let decode = |s: &str| {
        if raw {
            s.to_owned()
        } else {
            unescape(s, escapes)
        }
    };
    let mut value = String::new();
    let mut i = quote + open;
    let mut lit = i;
    // Inside an f-string's `{..}`: where it opened, and how many braces.
    let mut expr: Option<(usize, usize)> = None;
    let (content_end, end) = loop {
        let Some(&c) = b.get(i) else { break (len, len) };
        match c {
            b'\\' => i = (i + 1 + line_break(b, i + 1).max(1)).min(len),
            b'\n' | b'\r' if !triple => break (i, i),
            _ if c == q
                && expr.is_none()
                && (!triple || b.get(i..i + 3) == Some([q, q, q].as_slice())) =>
            {
                break (i, i + open);
            }
            b'{' if fmt => {
                match expr {
                    None if b.get(i + 1) == Some(&b'{') => i += 1,
                    None => {
                        value.push_str(&decode(slice(src, lit..i)));
                        expr = Some((i, 1));
                    }
                    Some((at, n)) => expr = Some((at, n + 1)),
                }
                i += 1;
            }
            b'}' if fmt => {
                i += 1;
                match expr {
                    Some((at, 1)) => {
                        value.push_str(slice(src, at..i));
                        expr = None;
                        lit = i;
                    }
                    Some((at, n)) => expr = Some((at, n - 1)),
                    None => {}
                }
            }
            b'\'' | b'"' if expr.is_some() => {
                // A string inside the expression: to its quote, on this line.
                let rest = b.get(i + 1..).unwrap_or_default();
                i = rest
                    .iter()
                    .position(|&x| x == c || x == b'\n')
                    .map_or(len, |p| i + 1 + p);
                if b.get(i) == Some(&c) {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    };
    match expr {
        Some((at, _)) => value.push_str(slice(src, at..content_end)),
        None => value.push_str(&decode(slice(src, lit..content_end))),
    }
    (token(Kind::Str, start..end, value), end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kinds(src: &str) -> Vec<(Kind, String)> {
        python(src).into_iter().map(|t| (t.kind, t.value)).collect()
    }

    fn values(src: &str, kind: Kind) -> Vec<String> {
        python(src)
            .into_iter()
            .filter(|t| t.kind == kind)
            .map(|t| t.value)
            .collect()
    }

    #[test]
    fn decode_and_exec() {
        let src = "exec(zlib.decompress(base64.b64decode(_CFG)))";
        let toks = python(src);
        let names: Vec<&str> = toks
            .iter()
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.value.as_str())
            .collect();
        assert_eq!(
            names,
            ["exec", "zlib", "decompress", "base64", "b64decode", "_CFG"]
        );
        assert_eq!(toks.len(), 14);
        assert!(toks.iter().all(|t| src[t.span.clone()] == t.value));
    }

    #[test]
    fn escapes_are_decoded() {
        assert_eq!(values(r"x = 'user\u202e'", Kind::Str), ["user\u{202e}"]);
        assert_eq!(
            values(r#"a = "\x63\x75rl\n\N{BULLET}\101\U0001F600""#, Kind::Str),
            ["curl\n\\N{BULLET}A😀"]
        );
        assert_eq!(
            values(r"r'\x41\'' b'\xff\u0041' Rb'\n'", Kind::Str),
            [r"\x41\'", "\u{ff}\\u0041", r"\n"]
        );
    }

    #[test]
    fn triple_quoted_strings_span_lines() {
        let src = "s = '''one\n'two' \\'''\nthree'''\nt = \"\"\"x\"\"\"\n";
        let toks = python(src);
        let strs: Vec<&Token> = toks.iter().filter(|t| t.kind == Kind::Str).collect();
        assert_eq!(strs[0].value, "one\n'two' '''\nthree");
        assert_eq!(&src[strs[0].span.clone()], "'''one\n'two' \\'''\nthree'''");
        assert_eq!(strs[1].value, "x");
        assert_eq!(values(src, Kind::Newline).len(), 2);
    }

    #[test]
    fn f_strings_keep_expressions() {
        assert_eq!(
            values(
                r#"f"tok={os.environ['TOKEN']}\n{{x}} {d["k"]:>{w}}" rf'{a}\n'"#,
                Kind::Str
            ),
            ["tok={os.environ['TOKEN']}\n{{x}} {d[\"k\"]:>{w}}", r"{a}\n"]
        );
        assert_eq!(values("F'''{\"a\"}'''", Kind::Str), ["{\"a\"}"]);
    }

    #[test]
    fn prefixes_only_before_quotes() {
        assert_eq!(
            kinds("br'x' fr\"y\" rb'z' bx'w'"),
            [
                (Kind::Str, "x".to_owned()),
                (Kind::Str, "y".to_owned()),
                (Kind::Str, "z".to_owned()),
                (Kind::Ident, "bx".to_owned()),
                (Kind::Str, "w".to_owned())
            ]
        );
    }

    #[test]
    fn logical_lines() {
        let src = "x = (1,\n  2)\n\n# c\ny = 3 \\\n  + 4\r\nz = 5";
        let nl: Vec<&str> = python(src)
            .into_iter()
            .filter(|t| t.kind == Kind::Newline)
            .map(|t| &src[t.span])
            .collect();
        assert_eq!(nl, ["\n", "\r\n"]);
        assert_eq!(values(src, Kind::Comment), [" c"]);
        assert_eq!(
            values("a **= b != c ... :: ==", Kind::Punct),
            ["**", "=", "!=", "...", "::", "=="]
        );
        assert_eq!(
            values("x = 0x1F + 1e-5 + .5j + 10_000", Kind::Number),
            ["0x1F", "1e-5", ".5j", "10_000"]
        );
    }

    #[test]
    fn unterminated_strings_end_their_line() {
        let toks = python("x = 'abc\ny = 1");
        assert_eq!(toks[2].value, "abc");
        assert_eq!(toks[3].kind, Kind::Newline);
        assert_eq!(values("'''open", Kind::Str), ["open"]);
    }

    #[test]
    fn unicode_names() {
        assert_eq!(
            values("café = naïve\u{a0}+ 1", Kind::Ident),
            ["café", "naïve"]
        );
        assert_eq!(values("a\u{200b}b", Kind::Punct), ["\u{200b}"]);
    }

    #[test]
    fn indentation() {
        let src = "def f():\n    if x:\n\tpass\n";
        assert_eq!(indent_of(src, 0), 0);
        assert_eq!(indent_of(src, 13), 4);
        assert_eq!(indent_of(src, 8), 0);
        assert_eq!(indent_of(src, 9), 4);
        assert_eq!(indent_of(src, src.len() - 2), 8);
        assert_eq!(indent_of(src, usize::MAX), 0);
        assert_eq!(indent_of("  é", 3), 2);
    }

    fn hostile() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "'", "\"", "'''", "\"\"\"", "f'", "rb\"", "{", "}", "{{", "(", ")", "[", "\\",
            "\\\\\\", "\\\n", "\\x4", "\\u12", "\\U0001", "\\N{", "#", "\n", "\r\n", "\r", " ",
            "\t", "é", "€", "𝄞", "\u{202e}", "x", "1", ".", "e-", "**", "!=", "0x",
        ]);
        prop::collection::vec(pieces, 0..120).prop_map(|v| v.concat())
    }

    fn check(src: &str) {
        let mut last = 0;
        for t in python(src) {
            assert!(
                last <= t.span.start && t.span.start < t.span.end,
                "{t:?} in {src:?}"
            );
            assert!(src.get(t.span.clone()).is_some(), "{t:?} in {src:?}");
            last = t.span.end;
        }
        for at in 0..=src.len() + 1 {
            indent_of(src, at);
        }
    }

    proptest! {
        #[test]
        fn never_panics_and_spans_are_valid(src in hostile()) {
            check(&src);
        }

        #[test]
        fn arbitrary_text(src in any::<String>()) {
            check(&src);
        }
    }
}

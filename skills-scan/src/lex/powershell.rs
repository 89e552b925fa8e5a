//! PowerShell cut into statements whose text is folded the way the
//! language would evaluate its constant parts, so that an analyzer reads
//! what runs and not how it is spelled: backtick escapes dropped
//! (`` I`E`X ``), string concatenations joined (`'I'+'EX'`), `-join` over
//! a list of strings, `-f` formats, `[char]` codes, variables holding
//! constant strings expanded, and aliases made with `Set-Alias`/`sal`/
//! `New-Alias` replaced by what they name. The text is lowercased
//! (PowerShell's names are not case sensitive) except for strings that
//! look like base64, whose case is their content.
//!
//! One pass over the input; statements end at line breaks and `;` outside
//! parentheses; every value is bounded.

use std::collections::HashMap;
use std::ops::Range;

/// The longest folded string kept; longer ones stay as written.
const MAX_STRING: usize = 4096;
/// The most names (variables, aliases) kept.
const MAX_NAMES: usize = 1024;

/// A statement: its range in the source and its folded text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Statement {
    pub(crate) span: Range<usize>,
    pub(crate) text: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Str(String),
    Var(String),
    Word(String),
    Num(i64),
    Punct(char),
    End,
}

/// The statements of `src`, folded.
pub(crate) fn statements(src: &str) -> Vec<Statement> {
    let toks = tokens(src);
    let mut out = Vec::new();
    let mut consts: HashMap<String, String> = HashMap::new();
    let mut aliases: HashMap<String, String> = HashMap::new();
    let mut start = 0;
    while start < toks.len() {
        let end = toks[start..]
            .iter()
            .position(|(t, _, _)| *t == Tok::End)
            .map_or(toks.len(), |i| start + i);
        let part = &toks[start..end];
        if let (Some(first), Some(last)) = (part.first(), part.last()) {
            let folded = fold(part, &consts, &aliases);
            learn(&folded, &mut consts, &mut aliases);
            out.push(Statement {
                span: first.1.start..last.1.end,
                text: render(&folded),
            });
        }
        start = end + 1;
    }
    out
}

type Spanned = (Tok, Range<usize>, bool);

/// Tokens with their ranges and whether blank space came before each.
fn tokens(src: &str) -> Vec<Spanned> {
    let b = src.as_bytes();
    let mut out: Vec<Spanned> = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    let mut space = false;
    while i < b.len() {
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\r' => {
                i += 1;
                space = true;
                continue;
            }
            b'`' if matches!(b.get(i + 1), Some(b'\n' | b'\r')) => {
                i += 2;
                space = true;
                continue;
            }
            b'`' => {
                i += 1;
                continue;
            }
            b'\n' | b';' => {
                i += 1;
                if depth == 0 {
                    out.push((Tok::End, start..i, space));
                }
                space = true;
                continue;
            }
            b'#' => {
                i = find(b, i, b"\n");
                continue;
            }
            b'<' if b.get(i + 1) == Some(&b'#') => {
                i = find(b, i + 2, b"#>").saturating_add(2).min(b.len());
                continue;
            }
            b'@' if matches!(b.get(i + 1), Some(b'\'' | b'"'))
                && matches!(b.get(i + 2), Some(b'\n' | b'\r')) =>
            {
                let q = b[i + 1];
                let close = [b'\n', q, b'@'];
                let body = i + 2;
                let end = find(b, body, &close);
                let text = src.get(body..end).unwrap_or("").trim().to_string();
                i = (end + 3).min(b.len());
                out.push((Tok::Str(text), start..i, space));
            }
            b'\'' => {
                let mut text = String::new();
                i += 1;
                while i < b.len() {
                    if b[i] == b'\'' {
                        if b.get(i + 1) == Some(&b'\'') {
                            text.push('\'');
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    let n = char_len(src, i);
                    text.push_str(src.get(i..i + n).unwrap_or(""));
                    i += n;
                }
                out.push((Tok::Str(text), start..i, space));
            }
            b'"' => {
                let mut text = String::new();
                i += 1;
                while i < b.len() {
                    match b[i] {
                        b'"' if b.get(i + 1) == Some(&b'"') => {
                            text.push('"');
                            i += 2;
                        }
                        b'"' => {
                            i += 1;
                            break;
                        }
                        b'`' => {
                            i += 1;
                            if let Some(&e) = b.get(i) {
                                match e {
                                    b'n' => text.push('\n'),
                                    b't' => text.push('\t'),
                                    b'0' => {}
                                    _ => text
                                        .push_str(src.get(i..i + char_len(src, i)).unwrap_or("")),
                                }
                                i += char_len(src, i);
                            }
                        }
                        _ => {
                            let n = char_len(src, i);
                            text.push_str(src.get(i..i + n).unwrap_or(""));
                            i += n;
                        }
                    }
                }
                out.push((Tok::Str(text), start..i, space));
            }
            b'$' => {
                i += 1;
                let name = if b.get(i) == Some(&b'{') {
                    let end = find(b, i, b"}");
                    let n = src.get(i + 1..end).unwrap_or("").to_string();
                    i = (end + 1).min(b.len());
                    n
                } else {
                    let s = i;
                    while i < b.len()
                        && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b':')
                    {
                        i += 1;
                    }
                    src.get(s..i).unwrap_or("").to_string()
                };
                out.push((Tok::Var(name.to_ascii_lowercase()), start..i, space));
            }
            b'0'..=b'9' => {
                while i < b.len() && b[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                let t = src.get(start..i).unwrap_or("");
                let tok = match t.parse() {
                    Ok(n) => Tok::Num(n),
                    Err(_) => Tok::Word(t.to_string()),
                };
                out.push((tok, start..i, space));
            }
            c if c.is_ascii_alphabetic() || c == b'-' || c == b'_' || c >= 0x80 || c == b'\\' => {
                let mut text = String::new();
                while i < b.len() {
                    let d = b[i];
                    if d == b'`' {
                        i += 1;
                        continue;
                    }
                    if d.is_ascii_alphanumeric()
                        || matches!(d, b'-' | b'_' | b'.' | b':' | b'\\' | b'/' | b'~' | b'*')
                        || d >= 0x80
                    {
                        let n = char_len(src, i);
                        text.push_str(src.get(i..i + n).unwrap_or(""));
                        i += n;
                    } else {
                        break;
                    }
                }
                out.push((Tok::Word(text), start..i, space));
            }
            _ => {
                let n = char_len(src, i);
                let ch = src
                    .get(i..i + n)
                    .and_then(|s| s.chars().next())
                    .unwrap_or('?');
                match ch {
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                i += n;
                out.push((Tok::Punct(ch), start..i, space));
            }
        }
        space = false;
    }
    out
}

fn char_len(src: &str, i: usize) -> usize {
    src.get(i..)
        .and_then(|s| s.chars().next())
        .map_or(1, char::len_utf8)
}

/// Where `pat` next starts at or after `from` (the end of `b` if never).
fn find(b: &[u8], from: usize, pat: &[u8]) -> usize {
    b.get(from..)
        .and_then(|rest| rest.windows(pat.len()).position(|w| w == pat))
        .map_or(b.len(), |p| from + p)
}

/// A statement's tokens with constants folded.
fn fold(
    part: &[Spanned],
    consts: &HashMap<String, String>,
    aliases: &HashMap<String, String>,
) -> Vec<Spanned> {
    // Constants first: known variables, `[char]N`, alias names.
    let mut toks: Vec<Spanned> = Vec::with_capacity(part.len());
    let mut i = 0;
    while i < part.len() {
        let (t, span, space) = &part[i];
        match t {
            Tok::Var(name) if !matches!(part.get(i + 1), Some((Tok::Punct('='), _, _))) => {
                if let Some(v) = consts.get(name) {
                    toks.push((Tok::Str(v.clone()), span.clone(), *space));
                    i += 1;
                    continue;
                }
            }
            Tok::Punct('[') => {
                if let (Some((Tok::Word(w), _, _)), Some((Tok::Punct(']'), _, _))) =
                    (part.get(i + 1), part.get(i + 2))
                    && w.eq_ignore_ascii_case("char")
                {
                    let mut j = i + 3;
                    let paren = matches!(part.get(j), Some((Tok::Punct('('), _, _)));
                    if paren {
                        j += 1;
                    }
                    if let Some((Tok::Num(n), end, _)) = part.get(j)
                        && let Some(c) = u32::try_from(*n).ok().and_then(char::from_u32)
                    {
                        let mut last = end.end;
                        j += 1;
                        if paren && let Some((Tok::Punct(')'), e, _)) = part.get(j) {
                            last = e.end;
                            j += 1;
                        }
                        toks.push((Tok::Str(c.to_string()), span.start..last, *space));
                        i = j;
                        continue;
                    }
                }
            }
            Tok::Word(w)
                if toks.is_empty()
                    || matches!(
                        toks.last(),
                        Some((Tok::Punct('|' | '&' | '.' | '(' | '{' | '='), _, _))
                    ) =>
            {
                if let Some(v) = aliases.get(&w.to_ascii_lowercase()) {
                    toks.push((Tok::Word(v.clone()), span.clone(), *space));
                    i += 1;
                    continue;
                }
            }
            _ => {}
        }
        toks.push(part[i].clone());
        i += 1;
    }
    // Then operators over strings, left to right, until nothing changes
    // (each round shortens the list, so at most its length rounds; a
    // bound keeps it linear on hostile input).
    for _ in 0..8 {
        let before = toks.len();
        toks = fold_ops(toks);
        if toks.len() == before {
            break;
        }
    }
    toks
}

fn fold_ops(toks: Vec<Spanned>) -> Vec<Spanned> {
    let mut out: Vec<Spanned> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        // 'a' + 'b'
        if let Some((Tok::Str(a), span, _)) = out.last_mut()
            && let (Some((Tok::Punct('+'), _, _)), Some((Tok::Str(b), end, _))) =
                (toks.get(i), toks.get(i + 1))
            && a.len() + b.len() <= MAX_STRING
        {
            a.push_str(b);
            span.end = end.end;
            i += 2;
            continue;
        }
        // ( 'a' ) → 'a', unless it is a call's argument list.
        let call = matches!(
            out.last(),
            Some((Tok::Word(_) | Tok::Var(_) | Tok::Punct(']' | ')'), _, _))
        );
        if !call
            && let (
                Some((Tok::Punct('('), span, space)),
                Some((Tok::Str(a), _, _)),
                Some((Tok::Punct(')'), end, _)),
            ) = (toks.get(i), toks.get(i + 1), toks.get(i + 2))
        {
            out.push((Tok::Str(a.clone()), span.start..end.end, *space));
            i += 3;
            continue;
        }
        // ('a','b') -join '' / 'a','b' -join ''
        let paren = usize::from(matches!(toks.get(i), Some((Tok::Punct('('), _, _))));
        if let Some((items, next)) = list(&toks, i + paren)
            && items.len() > 1
            && (paren == 0 || matches!(toks.get(next), Some((Tok::Punct(')'), _, _))))
            && let next = next + paren
            && let Some((Tok::Word(op), _, _)) = toks.get(next)
            && op.eq_ignore_ascii_case("-join")
            && let Some((Tok::Str(sep), end, _)) = toks.get(next + 1)
        {
            let joined = items.join(sep);
            if joined.len() <= MAX_STRING {
                let (_, span, space) = &toks[i];
                out.push((Tok::Str(joined), span.start..end.end, *space));
                i = next + 2;
                continue;
            }
        }
        // '{1}{0}' -f 'a','b'
        if let Some((Tok::Str(format), span, space)) = toks.get(i)
            && let Some((Tok::Word(op), _, _)) = toks.get(i + 1)
            && op.eq_ignore_ascii_case("-f")
            && let Some((items, next)) = list(&toks, i + 2)
        {
            let mut text = format.clone();
            for (n, item) in items.iter().enumerate() {
                text = text.replace(&format!("{{{n}}}"), item);
            }
            if text.len() <= MAX_STRING {
                let end = toks.get(next - 1).map_or(span.end, |t| t.1.end);
                out.push((Tok::Str(text), span.start..end, *space));
                i = next;
                continue;
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// Strings separated by commas from `at`: their values and the index after.
fn list(toks: &[Spanned], at: usize) -> Option<(Vec<String>, usize)> {
    let mut items = Vec::new();
    let mut i = at;
    loop {
        match toks.get(i) {
            Some((Tok::Str(s), _, _)) => items.push(s.clone()),
            _ => return None,
        }
        i += 1;
        if !matches!(toks.get(i), Some((Tok::Punct(','), _, _))) || items.len() >= 256 {
            return Some((items, i));
        }
        i += 1;
    }
}

/// Records `$x = 'constant'` and aliases.
fn learn(
    toks: &[Spanned],
    consts: &mut HashMap<String, String>,
    aliases: &mut HashMap<String, String>,
) {
    match toks {
        [
            (Tok::Var(name), _, _),
            (Tok::Punct('='), _, _),
            (Tok::Str(v), _, _),
        ] if consts.len() < MAX_NAMES || consts.contains_key(name) => {
            consts.insert(name.clone(), v.clone());
        }
        [(Tok::Var(name), _, _), (Tok::Punct('='), _, _), ..] => {
            consts.remove(name);
        }
        [(Tok::Word(cmd), _, _), rest @ ..]
            if ["set-alias", "sal", "new-alias", "nal"]
                .contains(&cmd.to_ascii_lowercase().as_str()) =>
        {
            let words: Vec<String> = rest
                .iter()
                .filter_map(|(t, _, _)| match t {
                    Tok::Word(w) if !w.starts_with('-') => Some(w.clone()),
                    Tok::Str(s) => Some(s.clone()),
                    _ => None,
                })
                .collect();
            if let [name, value, ..] = words.as_slice()
                && (aliases.len() < MAX_NAMES || aliases.contains_key(name))
            {
                aliases.insert(name.to_ascii_lowercase(), value.clone());
            }
        }
        _ => {}
    }
}

/// The folded text of a statement: lowercased, strings quoted with `'`,
/// except strings that look like base64, whose case is kept.
fn render(toks: &[Spanned]) -> String {
    let mut out = String::new();
    let mut encoded_flag = false;
    for (t, _, space) in toks {
        let flag =
            matches!(t, Tok::Word(w) if w.len() > 1 && w.starts_with("-e") || w.starts_with("-E"));
        if *space && !out.is_empty() {
            out.push(' ');
        }
        match t {
            Tok::Str(s) => {
                out.push('\'');
                if s.len() >= 16
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
                {
                    out.push_str(s);
                } else {
                    out.push_str(&s.to_lowercase());
                }
                out.push('\'');
            }
            Tok::Var(v) => {
                out.push('$');
                out.push_str(v);
            }
            Tok::Word(w) => {
                // Base64 after `-EncodedCommand` keeps its case.
                if encoded_flag && w.len() >= 16 {
                    out.push_str(w);
                } else {
                    out.push_str(&w.to_lowercase());
                }
            }
            Tok::Num(n) => out.push_str(&n.to_string()),
            Tok::Punct(c) => out.push(*c),
            Tok::End => {}
        }
        encoded_flag = flag;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<String> {
        statements(src).into_iter().map(|s| s.text).collect()
    }

    #[test]
    fn folds_constants() {
        assert_eq!(texts("& ('I'+'EX') $x"), ["& 'iex' $x"]);
        assert_eq!(texts("I`nv`oke-Ex`pression $x"), ["invoke-expression $x"]);
        assert_eq!(texts("('I','E','X') -join ''"), ["'iex'"]);
        assert_eq!(texts("\"{1}{0}\" -f 'EX','I'"), ["'iex'"]);
        assert_eq!(texts("[char]105+[char]101+[char]120"), ["'iex'"]);
        assert_eq!(
            texts("$a='Invoke-'; $b='Expression'\n& ($a+$b) x")[2],
            "& 'invoke-expression' x"
        );
        assert_eq!(
            texts("Set-Alias g Invoke-WebRequest\ng https://h.example")[1],
            "invoke-webrequest https://h.example"
        );
        assert_eq!(texts("<# c\n d #> rm -r ~ # gone").len(), 1);
    }

    #[test]
    fn hostile_input_is_bounded() {
        let long = "'a'+".repeat(10_000);
        assert_eq!(statements(&long).len(), 1);
        for s in [
            "'", "\"`", "$", "${", "@'\n", "[char]", "[char](", "<#", "('a'", "'a' -f",
        ] {
            let _ = statements(s);
        }
    }
}

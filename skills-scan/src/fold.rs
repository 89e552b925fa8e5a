//! Constant folding of string expressions in Python and JavaScript: the
//! value a reader would have to compute to see what code runs.
//!
//! A [`Folder`] reads the expression starting at a token and gives its
//! value when every piece of it is known: literals (f-strings and template
//! literals with known names in them), names bound to constants, `+`,
//! `%`-formatting, `.format`, `.join`, `.replace`, `.split`, slices,
//! `reversed`, `chr` and `String.fromCharCode` with arithmetic on the codes,
//! `bytes([...])`, `bytes.fromhex`, `base64`, `atob`, `Buffer.from`,
//! `codecs.decode(…, 'rot13')`, `zlib.decompress`, `unescape` and
//! `os.path.join`/`path.join`. Names are read through the [`Scope`]'s
//! aliases (`import base64 as b`).
//!
//! Folding is bounded: a value longer than [`MAX_VALUE`] is not folded, and
//! each [`Folder`] has a budget of steps (tokens read and bytes built) set
//! from the size of the file, past which it folds nothing: the work of all
//! folds of a file together is linear in the file.

use std::collections::HashMap;

use base64::Engine as _;

use crate::lex::{Kind, Token};

/// The longest value folded, in bytes.
pub(crate) const MAX_VALUE: usize = 16 << 10;

/// The functions [`Folder`] computes.
const FUNCTIONS: [&str; 48] = [
    "os.path.expanduser",
    "os.path.abspath",
    "os.path.normpath",
    "Path",
    "pathlib.Path",
    "PurePath",
    "Path.home",
    "pathlib.Path.home",
    "os.homedir",
    "os.getenv",
    "os.environ.get",
    "operator.concat",
    "chr",
    "String.fromCharCode",
    "String.fromCodePoint",
    "str",
    "String",
    "list",
    "Array.from",
    "reversed",
    "bytes",
    "bytearray",
    "Uint8Array.from",
    "Buffer.from",
    "bytes.fromhex",
    "binascii.unhexlify",
    "binascii.a2b_hex",
    "base64.b16decode",
    "base64.b64decode",
    "base64.standard_b64decode",
    "base64.urlsafe_b64decode",
    "base64.decodebytes",
    "binascii.a2b_base64",
    "atob",
    "codecs.decode",
    "codecs.encode",
    "zlib.decompress",
    "gzip.decompress",
    "zlib.inflateSync",
    "zlib.gunzipSync",
    "unescape",
    "decodeURIComponent",
    "decodeURI",
    "urllib.parse.unquote",
    "os.path.join",
    "posixpath.join",
    "path.join",
    "path.posix.join",
];

/// How deep nested expressions are followed.
const MAX_NESTING: usize = 32;

/// The language folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    Python,
    Js,
}

/// Names known at a point of a file: constants and aliases.
#[derive(Debug, Default, Clone)]
pub(crate) struct Scope {
    /// Names bound to a string constant.
    pub(crate) consts: HashMap<String, String>,
    /// The step that hid a constant's value, when one did.
    pub(crate) hidden: HashMap<String, &'static str>,
    /// Names bound to a module or function, with its full dotted name
    /// (`sp` → `subprocess`, `run` → `os.system`).
    pub(crate) aliases: HashMap<String, String>,
}

impl Scope {
    /// `dotted` with its first part read through the aliases.
    pub(crate) fn canonical(&self, dotted: &str) -> String {
        let (head, tail) = dotted.split_once('.').unwrap_or((dotted, ""));
        match self.aliases.get(head) {
            Some(full) if tail.is_empty() => full.clone(),
            Some(full) => format!("{full}.{tail}"),
            None => dotted.to_string(),
        }
    }
}

/// A folded value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Val {
    Str(String),
    Bytes(Vec<u8>),
    Int(i64),
    List(Vec<Val>),
}

impl Val {
    fn len(&self) -> usize {
        match self {
            Val::Str(s) => s.len(),
            Val::Bytes(b) => b.len(),
            Val::Int(_) => 8,
            Val::List(l) => l.iter().map(Val::len).sum::<usize>() + l.len(),
        }
    }

    /// The length of [`Val::text`]'s value (0 for a list, which has none
    /// and which [`joinable`] never joins as text).
    fn text_len(&self) -> usize {
        match self {
            Val::Str(s) => s.len(),
            Val::Bytes(b) => String::from_utf8_lossy(b).len(),
            Val::Int(n) => n.to_string().len(),
            Val::List(_) => 0,
        }
    }

    /// The value as text: bytes read as UTF-8, a number as digits.
    fn text(self) -> Option<String> {
        match self {
            Val::Str(s) => Some(s),
            Val::Bytes(b) => Some(String::from_utf8_lossy(&b).into_owned()),
            Val::Int(n) => Some(n.to_string()),
            Val::List(_) => None,
        }
    }

    fn bytes(self) -> Option<Vec<u8>> {
        match self {
            Val::Str(s) => Some(s.into_bytes()),
            Val::Bytes(b) => Some(b),
            Val::List(l) => l
                .into_iter()
                .map(|v| match v {
                    Val::Int(n) => u8::try_from(n).ok(),
                    _ => None,
                })
                .collect(),
            Val::Int(_) => None,
        }
    }

    /// The items of a list, or the characters of a string.
    fn items(self) -> Option<Vec<Val>> {
        match self {
            Val::List(l) => Some(l),
            Val::Str(s) => Some(s.chars().map(|c| Val::Str(c.to_string())).collect()),
            _ => None,
        }
    }
}

/// An expression folded to a string: its value, the tokens it spans (from
/// the start to `end`, exclusive), and the most telling step it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Folded {
    pub(crate) value: String,
    pub(crate) end: usize,
    /// The step that hid the value best (`base64`, `character codes`,
    /// `reversal`, …), or `None` when only literals and names were joined.
    pub(crate) hidden: Option<&'static str>,
}

/// Folds expressions of one file, within a budget.
#[derive(Debug)]
pub(crate) struct Folder<'a> {
    src: &'a str,
    tokens: &'a [Token],
    lang: Lang,
    budget: usize,
    hidden: Option<&'static str>,
}

impl<'a> Folder<'a> {
    /// A folder over `tokens` of `src`, with a budget linear in its size.
    pub(crate) fn new(src: &'a str, tokens: &'a [Token], lang: Lang) -> Folder<'a> {
        Folder {
            src,
            tokens,
            lang,
            budget: 64 * src.len() + (1 << 16),
            hidden: None,
        }
    }

    /// Spends `n` steps of the budget; false once it is spent.
    fn spend(&mut self, n: usize) -> bool {
        if self.budget < n {
            self.budget = 0;
            return false;
        }
        self.budget -= n;
        true
    }

    /// Whether the budget still allows copying `n` bytes.
    pub(crate) fn afford(&mut self, n: usize) -> bool {
        self.spend(n)
    }

    /// The string the expression at token `i` folds to: the longest run
    /// `a + b + …` whose terms all fold, when it is more than one literal.
    pub(crate) fn fold(&mut self, i: usize, scope: &Scope) -> Option<Folded> {
        self.hidden = None;
        let (mut val, mut end) = self.term(i, scope, 0)?;
        while let Some(op) = self.tokens.get(end) {
            if op.kind == Kind::Str && self.lang == Lang::Python && is_plain_literal(&val) {
                // Adjacent literals: `'cu' 'rl'`.
                // As with `+` below, a literal that cannot be joined (one
                // past [`MAX_VALUE`], a list) ends the run, which folds to
                // what it joined so far: the caller goes on after it, so a
                // long run is read once, in pieces, and never again from
                // each of its literals.
                match self.term(end, scope, 0) {
                    Some((next, e)) if !self.called(e) && joinable(&val, &next, false) => {
                        match add(val, next) {
                            Some(sum) => {
                                val = sum;
                                end = e;
                                continue;
                            }
                            None => return None,
                        }
                    }
                    _ => break,
                }
            }
            let slash = op.value == "/" && self.lang == Lang::Python;
            if op.kind != Kind::Punct || (op.value != "+" && !slash) {
                break;
            }
            // `x += …` is an assignment, not an operand.
            if self.tokens.get(end + 1).is_some_and(|t| t.value == "=") {
                break;
            }
            match self.term(end + 1, scope, 0) {
                Some((next, e)) if !self.called(e) && joinable(&val, &next, slash) => {
                    match path_or_add(val, next, slash) {
                        Some(sum) => {
                            val = sum;
                            end = e;
                        }
                        None => return None,
                    }
                }
                _ => break,
            }
        }
        if val.len() > MAX_VALUE || matches!(val, Val::Int(_)) {
            return None;
        }
        let value = val.text()?;
        if !self.spend(value.len()) {
            return None;
        }
        Some(Folded {
            value,
            end,
            hidden: self.hidden,
        })
    }

    /// Whether the term ending before `end` is called (`… + name(`): it
    /// is not a string of the chain, which ends before it, so that the
    /// chain before it is read once and not again from each of its terms.
    fn called(&self, end: usize) -> bool {
        self.tokens
            .get(end)
            .is_some_and(|t| t.kind == Kind::Punct && t.value == "(")
    }

    fn note(&mut self, how: &'static str) {
        self.hidden.get_or_insert(how);
    }

    /// A full expression (inside brackets or arguments): `+`, `-`, `*`.
    fn expr(&mut self, i: usize, scope: &Scope, depth: usize) -> Option<(Val, usize)> {
        let (mut val, mut end) = self.term(i, scope, depth)?;
        while let Some(op) = self.tokens.get(end).filter(|t| t.kind == Kind::Punct) {
            let op = op.value.clone();
            if !matches!(op.as_str(), "+" | "-" | "*" | "|" | "^" | "&" | "/") {
                break;
            }
            let (next, e) = self.term(end + 1, scope, depth)?;
            val = match (op.as_str(), val, next) {
                ("+", a, b) => add(a, b)?,
                ("/", Val::Str(a), Val::Str(b)) if self.lang == Lang::Python => {
                    Val::Str(join_path(a, &b))
                }
                ("-", Val::Int(a), Val::Int(b)) => Val::Int(a.checked_sub(b)?),
                ("*", Val::Int(a), Val::Int(b)) => Val::Int(a.checked_mul(b)?),
                ("^", Val::Int(a), Val::Int(b)) => Val::Int(a ^ b),
                ("|", Val::Int(a), Val::Int(b)) => Val::Int(a | b),
                ("&", Val::Int(a), Val::Int(b)) => Val::Int(a & b),
                ("*", Val::Str(s), Val::Int(n)) | ("*", Val::Int(n), Val::Str(s)) => {
                    let n = usize::try_from(n).ok()?;
                    if s.len().saturating_mul(n) > MAX_VALUE {
                        return None;
                    }
                    Val::Str(s.repeat(n))
                }
                _ => return None,
            };
            end = e;
        }
        Some((val, end))
    }

    /// An operand with what follows it: calls of methods, subscripts, and
    /// Python's `%`.
    fn term(&mut self, i: usize, scope: &Scope, depth: usize) -> Option<(Val, usize)> {
        if depth > MAX_NESTING || !self.spend(1) {
            return None;
        }
        let (mut val, mut end) = self.atom(i, scope, depth + 1)?;
        loop {
            // Each step on a value pays for the value's size.
            if val.len() > MAX_VALUE || !self.spend(1 + val.len()) {
                return None;
            }
            let Some(t) = self.tokens.get(end).filter(|t| t.kind == Kind::Punct) else {
                break;
            };
            match t.value.as_str() {
                "." => {
                    let name = self.tokens.get(end + 1).filter(|t| t.kind == Kind::Ident)?;
                    let (args, after) = self.args(end + 2, scope, depth + 1)?;
                    val = self.method(val, &name.value.clone(), args)?;
                    end = after;
                }
                "[" => {
                    let (v, after) = self.subscript(val, end + 1, scope, depth + 1)?;
                    val = v;
                    end = after;
                }
                "%" if self.lang == Lang::Python && matches!(val, Val::Str(_)) => {
                    let (arg, after) = self.term(end + 1, scope, depth + 1)?;
                    let Val::Str(fmt) = val else { return None };
                    val = Val::Str(percent(&fmt, arg)?);
                    end = after;
                }
                _ => break,
            }
        }
        Some((val, end))
    }

    fn atom(&mut self, i: usize, scope: &Scope, depth: usize) -> Option<(Val, usize)> {
        let t = self.tokens.get(i)?;
        match t.kind {
            Kind::Str => Some((self.literal(t, scope)?, i + 1)),
            Kind::Number => Some((Val::Int(int(&t.value)?), i + 1)),
            Kind::Punct => match t.value.as_str() {
                "(" => {
                    let (items, end) = self.list(i + 1, ")", scope, depth)?;
                    let val = if items.len() == 1 && !self.trailing_comma(end) {
                        items.into_iter().next()?
                    } else {
                        Val::List(items)
                    };
                    Some((val, end))
                }
                "[" => {
                    let (items, end) = self.list(i + 1, "]", scope, depth)?;
                    Some((Val::List(items), end))
                }
                "-" => match self.atom(i + 1, scope, depth)? {
                    (Val::Int(n), end) => Some((Val::Int(n.checked_neg()?), end)),
                    _ => None,
                },
                _ => None,
            },
            Kind::Ident => {
                let (name, end) = dotted_at(self.tokens, i);
                if let Some(value) = scope.consts.get(&name)
                    && self.tokens.get(end).is_none_or(|n| n.value != "(")
                {
                    if let Some(how) = scope.hidden.get(&name) {
                        self.note(how);
                    }
                    return Some((Val::Str(value.clone()), end));
                }
                let full = scope.canonical(&name);
                if matches!(
                    full.as_str(),
                    "process.env.HOME" | "process.env.USERPROFILE"
                ) {
                    return Some((Val::Str("~".into()), end));
                }
                if full == "os.environ"
                    && self.tokens.get(end).is_some_and(|n| n.value == "[")
                    && self
                        .tokens
                        .get(end + 1)
                        .is_some_and(|k| k.kind == Kind::Str && is_home_var(&k.value))
                    && self.tokens.get(end + 2).is_some_and(|n| n.value == "]")
                {
                    return Some((Val::Str("~".into()), end + 3));
                }
                if self.tokens.get(end).is_some_and(|n| n.value == "(") {
                    if !FUNCTIONS.contains(&full.as_str()) {
                        return None;
                    }
                    let (args, after) = self.args(end, scope, depth)?;
                    return Some((self.call(&full, args)?, after));
                }
                None
            }
            _ => None,
        }
    }

    /// Whether the list that ended before `end` had a trailing comma (a
    /// one-element tuple).
    fn trailing_comma(&self, end: usize) -> bool {
        end >= 2 && self.tokens.get(end - 2).is_some_and(|t| t.value == ",")
    }

    /// The value of a string literal: an f-string or a template literal
    /// with every name in it known, else the literal as written.
    fn literal(&mut self, t: &Token, scope: &Scope) -> Option<Val> {
        let raw = self.src.get(t.span.clone()).unwrap_or("");
        let quote = raw.find(['\'', '"', '`']).unwrap_or(0);
        let prefix = raw.get(..quote).unwrap_or("").to_ascii_lowercase();
        let template = raw.starts_with('`') && t.value.contains("${");
        let fstring = prefix.contains('f');
        if !template && !fstring {
            if prefix.contains('b') && self.lang == Lang::Python {
                return Some(Val::Bytes(
                    t.value.chars().map(|c| c as u32 as u8).collect(),
                ));
            }
            return Some(Val::Str(t.value.clone()));
        }
        self.note("interpolation");
        let open = if template { "${" } else { "{" };
        let mut out = String::new();
        let mut rest = t.value.as_str();
        while !rest.is_empty() {
            if fstring && (rest.starts_with("{{") || rest.starts_with("}}")) {
                out.push_str(&rest[..1]);
                rest = &rest[2..];
                continue;
            }
            if let Some(after) = rest.strip_prefix(open) {
                let close = after.find('}')?;
                let field = after[..close].trim();
                out.push_str(&self.field(field, scope)?);
                rest = &after[close + 1..];
                continue;
            }
            let c = rest.chars().next()?;
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        Some(Val::Str(out))
    }

    /// The value of the expression in an f-string's or a template's field
    /// (`{name}`, `{'gnu' + 'pg'}`, `${homedir()}`), folded within this
    /// folder's budget.
    fn field(&mut self, text: &str, scope: &Scope) -> Option<String> {
        if let Some(v) = scope.consts.get(text) {
            return Some(v.clone());
        }
        // A format spec or conversion after a plain name: `{x!r}`, `{x:>8}`.
        let text = match text.find([':', '!']) {
            Some(at) if !text.contains(['[', '(', '\'', '"']) => &text[..at],
            _ => text,
        };
        if !self.spend(text.len()) {
            return None;
        }
        let tokens: Vec<Token> = match self.lang {
            Lang::Python => crate::lex::python::python(text),
            Lang::Js => crate::lex::js::js(text),
        };
        let share = self.budget / 2;
        let mut sub = Folder {
            src: text,
            tokens: &tokens,
            lang: self.lang,
            budget: share,
            hidden: None,
        };
        let folded = sub.fold(0, scope);
        let used = share - sub.budget;
        if !self.spend(used) {
            return None;
        }
        let f = folded.filter(|f| f.end == tokens.len())?;
        if let Some(how) = f.hidden {
            self.note(how);
        }
        Some(f.value)
    }

    /// Comma-separated expressions up to `close`; the index after it.
    fn list(
        &mut self,
        mut i: usize,
        close: &str,
        scope: &Scope,
        depth: usize,
    ) -> Option<(Vec<Val>, usize)> {
        let mut items = Vec::new();
        loop {
            let t = self.tokens.get(i)?;
            if t.value == close && t.kind == Kind::Punct {
                return Some((items, i + 1));
            }
            if t.kind == Kind::Newline {
                i += 1;
                continue;
            }
            // `...[99, 117]` spreads a list into the arguments.
            let spread = t.value == "..." && t.kind == Kind::Punct;
            let (v, end) = self.expr(i + usize::from(spread), scope, depth)?;
            match v {
                Val::List(l) if spread => items.extend(l),
                v => items.push(v),
            }
            if items.len() > MAX_VALUE {
                return None;
            }
            i = end;
            while self.tokens.get(i).is_some_and(|t| t.kind == Kind::Newline) {
                i += 1;
            }
            if self.tokens.get(i).is_some_and(|t| t.value == ",") {
                i += 1;
            }
        }
    }

    /// The arguments of a call whose `(` is at `i`: positional values (a
    /// keyword argument's value is kept, its name dropped).
    fn args(&mut self, i: usize, scope: &Scope, depth: usize) -> Option<(Vec<Val>, usize)> {
        if self.tokens.get(i).is_none_or(|t| t.value != "(") {
            return None;
        }
        let mut j = i + 1;
        let mut out = Vec::new();
        loop {
            let t = self.tokens.get(j)?;
            if t.value == ")" {
                return Some((out, j + 1));
            }
            if t.kind == Kind::Ident
                && self.tokens.get(j + 1).is_some_and(|n| n.value == "=")
                && self.tokens.get(j + 2).is_some_and(|n| n.value != "=")
            {
                j += 2;
            }
            let spread = self.tokens.get(j).is_some_and(|t| t.value == "...");
            let (v, end) = self.expr(j + usize::from(spread), scope, depth)?;
            match v {
                Val::List(l) if spread => out.extend(l),
                v => out.push(v),
            }
            j = end;
            if self.tokens.get(j).is_some_and(|t| t.value == ",") {
                j += 1;
            }
        }
    }

    fn subscript(
        &mut self,
        val: Val,
        i: usize,
        scope: &Scope,
        depth: usize,
    ) -> Option<(Val, usize)> {
        // Up to three parts separated by `:`.
        let mut parts: [Option<i64>; 3] = [None; 3];
        let mut k = 0;
        let mut j = i;
        loop {
            let t = self.tokens.get(j)?;
            match t.value.as_str() {
                "]" => break,
                ":" | "::" => {
                    k += t.value.len();
                    if k > 2 {
                        return None;
                    }
                    j += 1;
                }
                _ => {
                    let (v, end) = self.expr(j, scope, depth)?;
                    let Val::Int(n) = v else { return None };
                    *parts.get_mut(k)? = Some(n);
                    j = end;
                }
            }
        }
        let items = val.clone().items()?;
        let len = i64::try_from(items.len()).ok()?;
        let is_str = !matches!(val, Val::List(_));
        if k == 0 {
            let n = parts[0]?;
            let at = if n < 0 { len + n } else { n };
            let item = items.into_iter().nth(usize::try_from(at).ok()?)?;
            return Some((item, j + 1));
        }
        let step = parts[2].unwrap_or(1);
        if step == 0 {
            return None;
        }
        let clamp = |n: i64, low: i64, high: i64| n.clamp(low, high);
        let norm = |n: i64| if n < 0 { n + len } else { n };
        let picked: Vec<Val> = if step > 0 {
            let start = clamp(norm(parts[0].unwrap_or(0)), 0, len);
            let stop = clamp(norm(parts[1].unwrap_or(len)), 0, len);
            (start..stop)
                .step_by(usize::try_from(step).ok()?)
                .filter_map(|x| items.get(usize::try_from(x).ok()?).cloned())
                .collect()
        } else {
            let start = clamp(parts[0].map_or(len - 1, norm), -1, len - 1);
            let stop = clamp(parts[1].map_or(-1, norm), -1, len - 1);
            let mut out = Vec::new();
            let mut x = start;
            while x > stop {
                if let Some(v) = items.get(usize::try_from(x).ok()?) {
                    out.push(v.clone());
                }
                x += step;
            }
            out
        };
        if step < 0 {
            self.note("reversal");
        }
        let val = if is_str {
            Val::Str(picked.into_iter().filter_map(Val::text).collect())
        } else {
            Val::List(picked)
        };
        Some((val, j + 1))
    }

    fn method(&mut self, val: Val, name: &str, args: Vec<Val>) -> Option<Val> {
        let mut args = args.into_iter();
        let arg = args.next();
        let second = args.next();
        let str_arg = |v: Option<Val>| v.and_then(Val::text);
        Some(match (name, val) {
            ("join", Val::Str(sep)) => {
                let items = arg?.items()?;
                if items.len() > 2 {
                    self.note("joined pieces");
                }
                let parts: Option<Vec<String>> = items.into_iter().map(Val::text).collect();
                Val::Str(parts?.join(&sep))
            }
            ("join", Val::List(items)) => {
                if items.len() > 2 {
                    self.note("joined pieces");
                }
                let sep = str_arg(arg).unwrap_or_else(|| ",".into());
                let parts: Option<Vec<String>> = items.into_iter().map(Val::text).collect();
                Val::Str(parts?.join(&sep))
            }
            ("replace" | "replaceAll", v) => {
                let from = str_arg(arg)?;
                let to = str_arg(second)?;
                let s = v.text()?;
                if from.is_empty() || s.len().saturating_mul(to.len().max(1)) > MAX_VALUE * 4 {
                    return None;
                }
                self.note("replacement");
                if self.lang == Lang::Js && name == "replace" {
                    Val::Str(s.replacen(&from, &to, 1))
                } else {
                    Val::Str(s.replace(&from, &to))
                }
            }
            ("split", v) => {
                let s = v.text()?;
                let sep = str_arg(arg);
                let parts: Vec<Val> = match sep.as_deref() {
                    Some("") => s.chars().map(|c| Val::Str(c.to_string())).collect(),
                    Some(sep) => s.split(sep).map(|p| Val::Str(p.into())).collect(),
                    None => s.split_whitespace().map(|p| Val::Str(p.into())).collect(),
                };
                Val::List(parts)
            }
            ("reverse", Val::List(mut l)) => {
                self.note("reversal");
                l.reverse();
                Val::List(l)
            }
            ("concat", v) => add(v, arg?)?,
            ("expanduser" | "resolve" | "absolute" | "as_posix", v) if arg.is_none() => {
                Val::Str(v.text()?)
            }
            ("joinpath", v) => {
                let mut out = v.text()?;
                for part in arg.into_iter().chain(second).chain(args) {
                    out = join_path(out, &part.text()?);
                }
                Val::Str(out)
            }
            ("upper" | "toUpperCase", v) => Val::Str(v.text()?.to_uppercase()),
            ("lower" | "toLowerCase", v) => Val::Str(v.text()?.to_lowercase()),
            ("strip" | "trim", v) => Val::Str(v.text()?.trim().into()),
            ("lstrip" | "trimStart", v) => Val::Str(v.text()?.trim_start().into()),
            ("rstrip" | "trimEnd", v) => Val::Str(v.text()?.trim_end().into()),
            ("decode", Val::Bytes(b)) => Val::Str(String::from_utf8_lossy(&b).into_owned()),
            ("decode" | "toString" | "encode", Val::Str(s)) if arg.is_none() => Val::Str(s),
            ("toString", Val::Bytes(b)) => match str_arg(arg).as_deref() {
                None | Some("utf8" | "utf-8" | "latin1" | "ascii" | "binary") => {
                    Val::Str(String::from_utf8_lossy(&b).into_owned())
                }
                _ => return None,
            },
            ("encode", Val::Str(s)) => Val::Bytes(s.into_bytes()),
            ("format", Val::Str(fmt)) => {
                let all: Vec<Val> = arg.into_iter().chain(second).chain(args).collect();
                self.note("formatting");
                Val::Str(format_braces(&fmt, &all)?)
            }
            ("slice" | "substring" | "substr", v) => {
                let s: Vec<char> = v.text()?.chars().collect();
                let len = i64::try_from(s.len()).ok()?;
                let norm = |n: i64| if n < 0 { (n + len).max(0) } else { n.min(len) };
                let a = match arg {
                    Some(Val::Int(n)) => norm(n),
                    None => 0,
                    _ => return None,
                };
                let b = match second {
                    Some(Val::Int(n)) if name == "substr" => (a + n.max(0)).min(len),
                    Some(Val::Int(n)) => norm(n),
                    None => len,
                    _ => return None,
                };
                let (a, b) = (usize::try_from(a).ok()?, usize::try_from(b).ok()?);
                Val::Str(s.get(a..b.max(a))?.iter().collect())
            }
            ("repeat", Val::Str(s)) => {
                let Some(Val::Int(n)) = arg else { return None };
                let n = usize::try_from(n).ok()?;
                if s.len().saturating_mul(n) > MAX_VALUE {
                    return None;
                }
                Val::Str(s.repeat(n))
            }
            _ => return None,
        })
    }

    /// A call of a function that builds or decodes a string.
    fn call(&mut self, name: &str, args: Vec<Val>) -> Option<Val> {
        let mut it = args.into_iter();
        let first = it.next();
        let second = it.next();
        let codes = |vals: Vec<Val>| -> Option<String> {
            vals.into_iter()
                .map(|v| match v {
                    Val::Int(n) => char::from_u32(u32::try_from(n).ok()?),
                    _ => None,
                })
                .collect()
        };
        Some(match name {
            "chr" | "String.fromCharCode" | "String.fromCodePoint" => {
                self.note("character codes");
                let all: Vec<Val> = first.into_iter().chain(second).chain(it).collect();
                Val::Str(codes(all)?)
            }
            "str" | "String" => match first? {
                v @ (Val::Str(_) | Val::Int(_)) => Val::Str(v.text()?),
                _ => return None,
            },
            "list" | "Array.from" => Val::List(first?.items()?),
            "reversed" => {
                self.note("reversal");
                let mut items = first?.items()?;
                items.reverse();
                Val::List(items)
            }
            "bytes" | "bytearray" | "Uint8Array.from" | "Buffer.from"
                if matches!(first, Some(Val::List(_))) =>
            {
                self.note("character codes");
                Val::Bytes(first?.bytes()?)
            }
            "bytes" | "bytearray" => Val::Bytes(first?.bytes()?),
            "Buffer.from" => {
                let data = first?.text()?;
                match second.and_then(Val::text).as_deref() {
                    None | Some("utf8" | "utf-8") => Val::Bytes(data.into_bytes()),
                    Some("base64" | "base64url") => {
                        self.note("base64");
                        Val::Bytes(base64_bytes(&data)?)
                    }
                    Some("hex") => {
                        self.note("hex");
                        Val::Bytes(hex_bytes(&data)?)
                    }
                    _ => return None,
                }
            }
            "bytes.fromhex" | "binascii.unhexlify" | "binascii.a2b_hex" | "base64.b16decode" => {
                self.note("hex");
                Val::Bytes(hex_bytes(&first?.text()?)?)
            }
            "base64.b64decode"
            | "base64.standard_b64decode"
            | "base64.urlsafe_b64decode"
            | "base64.decodebytes"
            | "binascii.a2b_base64"
            | "atob" => {
                self.note("base64");
                let bytes = base64_bytes(&first?.text()?)?;
                if name == "atob" {
                    Val::Str(bytes.iter().map(|&b| char::from(b)).collect())
                } else {
                    Val::Bytes(bytes)
                }
            }
            "codecs.decode" | "codecs.encode" => {
                let data = first?;
                match second.and_then(Val::text)?.to_ascii_lowercase().as_str() {
                    "rot13" | "rot_13" | "rot-13" => {
                        self.note("rot13");
                        Val::Str(rot13(&data.text()?))
                    }
                    "hex" | "hex_codec" if name == "codecs.decode" => {
                        self.note("hex");
                        Val::Bytes(hex_bytes(&data.text()?)?)
                    }
                    "base64" | "base64_codec" if name == "codecs.decode" => {
                        self.note("base64");
                        Val::Bytes(base64_bytes(&data.text()?)?)
                    }
                    _ => return None,
                }
            }
            "zlib.decompress" | "gzip.decompress" | "zlib.inflateSync" | "zlib.gunzipSync" => {
                self.note("compression");
                let bytes = first?.bytes()?;
                let body = if bytes.starts_with(&[0x1f, 0x8b]) {
                    miniz_oxide::inflate::decompress_to_vec_with_limit(bytes.get(10..)?, MAX_VALUE)
                        .ok()?
                } else {
                    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&bytes, MAX_VALUE)
                        .ok()?
                };
                Val::Bytes(body)
            }
            "unescape" | "decodeURIComponent" | "decodeURI" | "urllib.parse.unquote" => {
                self.note("URL escapes");
                Val::Bytes(percent_decode(&first?.text()?))
            }
            "os.path.expanduser" | "os.path.abspath" | "os.path.normpath" | "Path"
            | "pathlib.Path" | "PurePath" => {
                let mut out = first?.text()?;
                for part in second.into_iter().chain(it) {
                    out = join_path(out, &part.text()?);
                }
                Val::Str(out)
            }
            "Path.home" | "pathlib.Path.home" | "os.homedir" => Val::Str("~".into()),
            "os.getenv" | "os.environ.get" => {
                let var = first?.text()?;
                is_home_var(&var).then(|| Val::Str("~".into()))?
            }
            "operator.concat" => add(first?, second?)?,
            "os.path.join" | "posixpath.join" | "path.join" | "path.posix.join" => {
                let mut out = String::new();
                for part in first.into_iter().chain(second).chain(it) {
                    out = join_path(out, &part.text()?);
                }
                Val::Str(out)
            }
            _ => return None,
        })
    }
}

/// Whether `v` may take an adjacent literal (a string, not a number).
fn is_plain_literal(v: &Val) -> bool {
    matches!(v, Val::Str(_) | Val::Bytes(_))
}

/// Whether [`path_or_add`] joins `a` and `b`: checked before it takes
/// them, so that a chain that cannot go on keeps its value without a copy
/// of it for each term.
fn joinable(a: &Val, b: &Val, slash: bool) -> bool {
    match (a, b) {
        (Val::Str(a), Val::Str(b)) if slash => a.len() + b.len() < MAX_VALUE,
        _ if slash => false,
        (Val::Int(a), Val::Int(b)) => a.checked_add(*b).is_some(),
        (Val::Bytes(a), Val::Bytes(b)) => a.len() + b.len() <= MAX_VALUE,
        (Val::List(a), Val::List(b)) => a.len() + b.len() <= MAX_VALUE,
        (Val::List(_), _) | (_, Val::List(_)) => false,
        (a, b) => a.text_len() + b.text_len() <= MAX_VALUE,
    }
}

/// `a / b` on paths when `slash`, else `a + b`.
fn path_or_add(a: Val, b: Val, slash: bool) -> Option<Val> {
    if !slash {
        return add(a, b);
    }
    match (a, b) {
        (Val::Str(a), Val::Str(b)) => Some(Val::Str(join_path(a, &b))),
        _ => None,
    }
}

/// `base` and `part` joined as path components (an absolute `part`
/// replaces `base`).
fn join_path(mut base: String, part: &str) -> String {
    if part.starts_with('/') || base.is_empty() {
        return part.to_string();
    }
    if !base.ends_with('/') {
        base.push('/');
    }
    base.push_str(part);
    base
}

/// Whether an environment variable names the home directory.
fn is_home_var(name: &str) -> bool {
    matches!(name, "HOME" | "USERPROFILE")
}

/// `a + b`.
fn add(a: Val, b: Val) -> Option<Val> {
    Some(match (a, b) {
        (Val::Int(a), Val::Int(b)) => Val::Int(a.checked_add(b)?),
        (Val::Bytes(mut a), Val::Bytes(b)) => {
            a.extend(b);
            Val::Bytes(a)
        }
        (Val::List(mut a), Val::List(b)) => {
            a.extend(b);
            Val::List(a)
        }
        (Val::List(_), _) | (_, Val::List(_)) => return None,
        (a, b) => {
            let mut s = a.text()?;
            s.push_str(&b.text()?);
            if s.len() > MAX_VALUE {
                return None;
            }
            Val::Str(s)
        }
    })
}

/// The dotted name starting at `i` (`os.path.join`), and the index after it.
pub(crate) fn dotted_at(tokens: &[Token], i: usize) -> (String, usize) {
    let mut name = tokens.get(i).map_or(String::new(), |t| t.value.clone());
    let mut j = i + 1;
    while tokens.get(j).is_some_and(|t| t.value == ".")
        && let Some(next) = tokens.get(j + 1).filter(|t| t.kind == Kind::Ident)
    {
        if name.len() > 256 {
            break;
        }
        name.push('.');
        name.push_str(&next.value);
        j += 2;
    }
    (name, j)
}

/// A Python or JavaScript number literal's value, when it is an integer.
fn int(text: &str) -> Option<i64> {
    let t = text.replace('_', "").to_ascii_lowercase();
    let t = t.strip_suffix('n').unwrap_or(&t);
    let (digits, radix) = match t.get(..2) {
        Some("0x") => (&t[2..], 16),
        Some("0o") => (&t[2..], 8),
        Some("0b") => (&t[2..], 2),
        _ => (t, 10),
    };
    i64::from_str_radix(digits, radix).ok()
}

/// `fmt % arg`: `%s`, `%d`, `%c`, `%%`.
fn percent(fmt: &str, arg: Val) -> Option<String> {
    let mut args = match arg {
        Val::List(l) => l,
        v => vec![v],
    }
    .into_iter();
    let mut out = String::new();
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '%' => out.push('%'),
            's' | 'r' | 'd' | 'i' => out.push_str(&args.next()?.text()?),
            'c' => match args.next()? {
                Val::Int(n) => out.push(char::from_u32(u32::try_from(n).ok()?)?),
                v => out.push_str(&v.text()?),
            },
            _ => return None,
        }
    }
    Some(out)
}

/// `fmt.format(args)` with `{}` and `{0}` fields.
fn format_braces(fmt: &str, args: &[Val]) -> Option<String> {
    let mut out = String::new();
    let mut next = 0;
    let mut rest = fmt;
    while !rest.is_empty() {
        if rest.starts_with("{{") || rest.starts_with("}}") {
            out.push_str(&rest[..1]);
            rest = &rest[2..];
            continue;
        }
        if let Some(after) = rest.strip_prefix('{') {
            let close = after.find('}')?;
            let field = &after[..close];
            let index = if field.is_empty() {
                next += 1;
                next - 1
            } else {
                field.parse().ok()?
            };
            out.push_str(&args.get(index)?.clone().text()?);
            rest = &after[close + 1..];
            continue;
        }
        let c = rest.chars().next()?;
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

fn base64_bytes(text: &str) -> Option<Vec<u8>> {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const CONFIG: GeneralPurposeConfig = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true);
    let clean: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let alphabet = if clean.contains(['-', '_']) {
        &base64::alphabet::URL_SAFE
    } else {
        &base64::alphabet::STANDARD
    };
    GeneralPurpose::new(alphabet, CONFIG).decode(clean).ok()
}

fn hex_bytes(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u32> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(16))
        .collect::<Option<_>>()?;
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks_exact(2)
        .map(|p| u8::try_from(p[0] << 4 | p[1]).ok())
        .collect()
}

fn rot13(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='z' => char::from(b'a' + (c as u8 - b'a' + 13) % 26),
            'A'..='Z' => char::from(b'A' + (c as u8 - b'A' + 13) % 26),
            _ => c,
        })
        .collect()
}

fn percent_decode(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let pair = b.get(i + 1..i + 3).and_then(|h| {
            let h = std::str::from_utf8(h).ok()?;
            u8::from_str_radix(h, 16).ok()
        });
        match (c, pair) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lex;

    fn fold(lang: Lang, src: &str, scope: &Scope) -> Option<(String, Option<&'static str>)> {
        let tokens = match lang {
            Lang::Python => lex::python::python(src),
            Lang::Js => lex::js::js(src),
        };
        let mut f = Folder::new(src, &tokens, lang);
        f.fold(0, scope).map(|f| (f.value, f.hidden))
    }

    fn py(src: &str) -> Option<String> {
        fold(Lang::Python, src, &Scope::default()).map(|f| f.0)
    }

    fn js(src: &str) -> Option<String> {
        fold(Lang::Js, src, &Scope::default()).map(|f| f.0)
    }

    #[test]
    fn python_strings_fold() {
        assert_eq!(py("'cu' + 'rl'").as_deref(), Some("curl"));
        assert_eq!(py("'cu' 'rl'").as_deref(), Some("curl"));
        assert_eq!(py("''.join(['c', 'u', 'rl'])").as_deref(), Some("curl"));
        assert_eq!(
            py("'/'.join(['', 'bin', 'sh'])").as_deref(),
            Some("/bin/sh")
        );
        assert_eq!(py("'lruc'[::-1]").as_deref(), Some("curl"));
        assert_eq!(py("'xxcurlxx'[2:6]").as_deref(), Some("curl"));
        assert_eq!(py("''.join(reversed('lruc'))").as_deref(), Some("curl"));
        assert_eq!(
            py("chr(99)+chr(0x75)+chr(0x60+0x12)+chr(108)").as_deref(),
            Some("curl")
        );
        assert_eq!(
            py("bytes([99,117,114,108]).decode()").as_deref(),
            Some("curl")
        );
        assert_eq!(
            py("bytes.fromhex('6375726c').decode()").as_deref(),
            Some("curl")
        );
        assert_eq!(
            py("base64.b64decode('Y3VybA==').decode()").as_deref(),
            Some("curl")
        );
        assert_eq!(
            py("codecs.decode('phey', 'rot13')").as_deref(),
            Some("curl")
        );
        assert_eq!(py("'c_u_r_l'.replace('_', '')").as_deref(), Some("curl"));
        assert_eq!(py("'%s%s' % ('cu', 'rl')").as_deref(), Some("curl"));
        assert_eq!(py("'{}{}'.format('cu', 'rl')").as_deref(), Some("curl"));
        assert_eq!(py("'c-u-r-l'.split('-')[1]").as_deref(), Some("u"));
        assert_eq!(
            py("os.path.join('/etc', 'passwd')").as_deref(),
            Some("/etc/passwd")
        );
        assert_eq!(
            py("f\"{os.environ['HOME']}/.{'gnu' + 'pg'}/k\"").as_deref(),
            Some("~/.gnupg/k")
        );
        assert_eq!(
            py("Path.home() / '.aws' / 'credentials'").as_deref(),
            Some("~/.aws/credentials")
        );
        assert_eq!(
            py("Path('~').expanduser().joinpath('.ssh', 'id_rsa')").as_deref(),
            Some("~/.ssh/id_rsa")
        );
        assert_eq!(py("10 / 2"), None, "numbers are not paths");
        let z = miniz_oxide::deflate::compress_to_vec_zlib(b"curl x | sh", 6);
        let b = base64::engine::general_purpose::STANDARD.encode(z);
        assert_eq!(
            py(&format!(
                "zlib.decompress(base64.b64decode('{b}')).decode()"
            ))
            .as_deref(),
            Some("curl x | sh")
        );
    }

    #[test]
    fn names_and_interpolation_fold_through_the_scope() {
        let mut scope = Scope::default();
        scope.consts.insert("host".into(), "evil.example".into());
        scope.aliases.insert("b".into(), "base64".into());
        let (v, how) = fold(Lang::Python, "f'https://{host}/x'", &scope).unwrap();
        assert_eq!(
            (v.as_str(), how),
            ("https://evil.example/x", Some("interpolation"))
        );
        let (v, how) = fold(Lang::Python, "b.b64decode('Y3VybA==')", &scope).unwrap();
        assert_eq!((v.as_str(), how), ("curl", Some("base64")));
        assert_eq!(
            fold(Lang::Js, "`https://${host}/x`", &scope)
                .map(|f| f.0)
                .as_deref(),
            Some("https://evil.example/x")
        );
    }

    #[test]
    fn javascript_strings_fold() {
        assert_eq!(js("'child_' + 'process'").as_deref(), Some("child_process"));
        assert_eq!(
            js("String.fromCharCode(101, 118, 97, 108)").as_deref(),
            Some("eval")
        );
        assert_eq!(
            js("String.fromCharCode(...[101, 118, 97, 108])").as_deref(),
            Some("eval")
        );
        assert_eq!(js("atob('ZXZhbA==')").as_deref(), Some("eval"));
        assert_eq!(
            js("Buffer.from('ZXZhbA==', 'base64').toString()").as_deref(),
            Some("eval")
        );
        assert_eq!(
            js("Buffer.from('6576616c', 'hex').toString('utf8')").as_deref(),
            Some("eval")
        );
        assert_eq!(
            js("'lave'.split('').reverse().join('')").as_deref(),
            Some("eval")
        );
        assert_eq!(js("['e','v','a','l'].join('')").as_deref(), Some("eval"));
        assert_eq!(js("path.join('a', 'b')").as_deref(), Some("a/b"));
        assert_eq!(js("'xevalx'.slice(1, -1)").as_deref(), Some("eval"));
    }

    #[test]
    fn unknowns_do_not_fold() {
        assert_eq!(py("'a' + x").as_deref(), Some("a"), "the known prefix only");
        assert_eq!(py("x + 'a'"), None);
        assert_eq!(js("path.join(__dirname, 'x')"), None);
        assert_eq!(py("f'SELECT * FROM t WHERE id = {user_id}'"), None);
        assert_eq!(py("getattr(self, name)"), None);
        assert_eq!(js("`${a}`"), None);
        assert_eq!(py("'a' * 100000000").as_deref(), Some("a"));
    }

    #[test]
    fn folding_stays_within_its_budget() {
        let long = vec!["'a'"; 50_000].join("+");
        let tokens = lex::python::python(&long);
        let mut f = Folder::new(&long, &tokens, Lang::Python);
        // Folded up to the longest value, and no further.
        let folded = f.fold(0, &Scope::default()).unwrap();
        assert!(folded.value.len() <= MAX_VALUE && folded.end < tokens.len());
        let mut f = Folder::new("", &tokens, Lang::Python);
        f.budget = 10;
        assert!(f.fold(0, &Scope::default()).is_none());
    }

    /// A run too long to fold whole folds in pieces that follow each other:
    /// each piece ends where the next begins, so that the run is read once,
    /// whatever joins it (`+`, Python's adjacent literals, bytes).
    #[test]
    fn a_long_run_folds_in_pieces_that_follow_each_other() {
        for (src, piece) in [
            (vec!["'ab'"; 20_000].join(" "), 2),
            (vec!["'ab'"; 20_000].join("+"), 2),
            (vec!["b'ab'"; 20_000].join(" "), 2),
        ] {
            let tokens = lex::python::python(&src);
            let mut f = Folder::new(&src, &tokens, Lang::Python);
            let (mut i, mut pieces) = (0, Vec::new());
            while i < tokens.len() {
                let folded = f
                    .fold(i, &Scope::default())
                    .unwrap_or_else(|| panic!("{i}"));
                assert!(folded.end > i);
                pieces.push(folded.value.len());
                // Past the piece, and past the `+` that joined it to the next.
                i = folded.end
                    + usize::from(tokens.get(folded.end).is_some_and(|t| t.value == "+"));
            }
            let whole = MAX_VALUE / piece * piece;
            assert_eq!(pieces, [whole, whole, 40_000 - 2 * whole], "{}", &src[..8]);
        }
    }

    /// A term that is called ends the chain before it: the chain is a value,
    /// the called term is not.
    #[test]
    fn a_called_term_ends_the_chain() {
        let scope = Scope {
            consts: HashMap::from([("f".to_string(), "g".to_string())]),
            ..Scope::default()
        };
        assert_eq!(
            fold(Lang::Js, "'a' + 'b' + f('x')", &scope)
                .map(|f| f.0)
                .as_deref(),
            Some("ab")
        );
        assert_eq!(
            fold(Lang::Python, "'a' 'b'('x')", &scope)
                .map(|f| f.0)
                .as_deref(),
            Some("a")
        );
        assert_eq!(
            fold(Lang::Js, "'a' + f", &scope).map(|f| f.0).as_deref(),
            Some("ag")
        );
    }
}

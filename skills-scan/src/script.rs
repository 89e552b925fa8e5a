//! Python and JavaScript, tokenised: string literals read with their
//! escapes decoded, calls found by name, and the strings handed to a shell
//! (`os.system`, `subprocess`, `execSync`) read as shell.
//!
//! Data flow is followed at the level a reviewer would: a file (or code
//! block) that collects secrets (the whole environment, a credential store,
//! a secret-named variable) and also calls the network with them is a leak;
//! `exec`/`eval` of something decoded, decompressed, built from character
//! codes or downloaded is a hidden payload.

use std::collections::HashSet;
use std::ops::Range;

use crate::engine::{Ctx, Unit};
use crate::environ;
use crate::lex::{self, Kind, Token};
use crate::local;
use crate::net;
use crate::rule::{Severity, id};
use crate::sensitive;
use crate::severity::{self, Moved};
use crate::shell;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lang {
    Python,
    Js,
}

/// Scans Python source.
pub(crate) fn python(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    let tokens = lex::python::python(unit.text);
    analyze(ctx, unit, &tokens, Lang::Python);
}

/// Scans JavaScript or TypeScript source.
pub(crate) fn js(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    let tokens = lex::js::js(unit.text);
    analyze(ctx, unit, &tokens, Lang::Js);
}

/// Whether `text` at the current context is a script file rather than an
/// example in documentation: flaws in examples are notes, in shipped code
/// they are findings.
fn shipped(ctx: &Ctx<'_>) -> bool {
    let p = ctx.path().to_ascii_lowercase();
    !(p.ends_with(".md") || p.ends_with(".txt") || p.ends_with(".mdx") || p.ends_with(".rst"))
}

/// The dotted name ending at token `i` (`os.environ.items` → that string).
fn dotted(tokens: &[Token], i: usize) -> String {
    let mut parts = vec![tokens[i].value.as_str()];
    let mut j = i;
    while j >= 2
        && tokens[j - 1].kind == Kind::Punct
        && tokens[j - 1].value == "."
        && tokens[j - 2].kind == Kind::Ident
    {
        parts.push(tokens[j - 2].value.as_str());
        j -= 2;
    }
    parts.reverse();
    parts.join(".")
}

/// The tokens between the parenthesis after token `i` and its match.
fn call_args(tokens: &[Token], i: usize) -> Option<Range<usize>> {
    let open = i + 1;
    if tokens
        .get(open)
        .is_none_or(|t| t.kind != Kind::Punct || t.value != "(")
    {
        return None;
    }
    let mut depth = 0usize;
    for (k, t) in tokens.iter().enumerate().skip(open) {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.value.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(open + 1..k);
                }
            }
            _ => {}
        }
        if k - open > 4096 {
            break;
        }
    }
    Some(open + 1..tokens.len())
}

fn analyze(ctx: &mut Ctx<'_>, unit: &Unit<'_>, tokens: &[Token], lang: Lang) {
    let code: Vec<&Token> = tokens.iter().filter(|t| t.kind != Kind::Comment).collect();
    let tokens: Vec<Token> = code.into_iter().cloned().collect();
    let shipped = shipped(ctx);
    let env_names = environ::Names::of(&tokens);
    let mut secret_vars: HashSet<String> = HashSet::new();
    // What the code collects, and whether it is only the project's `.env`
    // (read for the key of the service it calls).
    let mut collects: Option<(Range<usize>, String, Moved)> = None;
    let mut sinks: Vec<(Range<usize>, String, Option<String>, bool)> = Vec::new();
    let mut decoded_vars: HashSet<String> = HashSet::new();
    let mut fetched_vars: HashSet<String> = HashSet::new();

    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            Kind::Str => {
                if let Some(store) = sensitive::store_in(&t.value) {
                    let store = store.to_string();
                    let before = unit.text.get(..t.span.start).unwrap_or("");
                    let home = crate::text::window_before(before, before.len(), 48);
                    let weak = store.trim_start_matches(['.', '/']).starts_with("env")
                        || sensitive::in_project(&t.value, home);
                    let severity = if weak {
                        Severity::Low
                    } else {
                        Severity::Medium
                    };
                    ctx.report(
                        unit,
                        id::CredentialStoreRead,
                        severity,
                        t.span.clone(),
                        format!("names the credential store `{store}`"),
                    );
                    let moved = if weak { Moved::OwnKey } else { Moved::Secrets };
                    collects.get_or_insert((
                        t.span.clone(),
                        format!("the credential store `{store}`"),
                        moved,
                    ));
                }
                if shipped
                    && SQL.is_match(&t.value)
                    && (t.value.contains('{')
                        && unit
                            .text
                            .get(t.span.clone())
                            .is_some_and(|raw| raw.starts_with(['f', 'F']))
                        || t.value.contains("%s")
                            && tokens.get(i + 1).is_some_and(|n| n.value == "%"))
                {
                    ctx.report(unit, id::DynamicEvaluation, local::SQL_FROM_VARIABLE, t.span.clone(),
                        "builds an SQL statement from a variable: input in it becomes SQL (injection)".into());
                }
                if let Some(host) = net::host(&t.value)
                    && net::is_collector(&host)
                {
                    ctx.report(
                        unit,
                        id::CollectorEndpoint,
                        Severity::Medium,
                        t.span.clone(),
                        format!("sends to `{host}`, a tunnel or request-collection service"),
                    );
                }
            }
            Kind::Ident => {
                let name = dotted(&tokens, i);
                let next_is_call = tokens.get(i + 1).is_some_and(|n| n.value == "(");
                // The whole environment.
                if (lang == Lang::Python
                    && (name == "os.environ"
                        && !tokens
                            .get(i + 1)
                            .is_some_and(|n| n.value == "[" || n.value == ".")
                        || name == "os.environ.items"
                        || name == "os.environ.copy"
                        || name == "os.environ.keys"
                        || name == "os.environ.values"))
                    || (lang == Lang::Js
                        && name == "process.env"
                        && !tokens
                            .get(i + 1)
                            .is_some_and(|n| n.value == "." || n.value == "["))
                {
                    match environ::use_of(&tokens, i, &env_names, lang == Lang::Python) {
                        environ::Use::Collected => {
                            ctx.report(
                                unit,
                                id::EnvironmentHarvest,
                                Severity::Medium,
                                t.span.clone(),
                                "reads the whole environment, with every token and key in it"
                                    .into(),
                            );
                            collects.get_or_insert((
                                t.span.clone(),
                                "the whole environment".into(),
                                Moved::Secrets,
                            ));
                        }
                        environ::Use::Child(bound) => {
                            ctx.report(
                                unit,
                                id::EnvironmentHarvest,
                                Severity::Info,
                                t.span.clone(),
                                "passes the environment on to a child process".into(),
                            );
                            secret_vars.extend(bound);
                        }
                        environ::Use::Read => {}
                    }
                }
                // A secret-named variable read from the environment.
                if (name == "os.getenv" || name == "os.environ.get" || name == "os.environ")
                    && let Some(var) = tokens.get(i + 2).filter(|s| s.kind == Kind::Str)
                    && secret_name(&var.value)
                    && let Some(target) = assigned_name(&tokens, i)
                {
                    secret_vars.insert(target);
                }
                if !next_is_call {
                    continue;
                }
                let last_part = name.rsplit('.').next().unwrap_or(&name);
                if DECODERS.contains(&last_part)
                    && let Some(target) = assigned_name(&tokens, i)
                {
                    decoded_vars.insert(target);
                }
                if matches!(
                    name.as_str(),
                    "requests.get"
                        | "urlopen"
                        | "urllib.request.urlopen"
                        | "httpx.get"
                        | "fetch"
                        | "axios.get"
                ) && let Some(target) = assigned_name(&tokens, i)
                {
                    fetched_vars.insert(target);
                }
                let args = call_args(&tokens, i).unwrap_or(i + 1..i + 1);
                let arg_tokens = tokens.get(args.clone()).unwrap_or(&[]);
                let last = name.rsplit('.').next().unwrap_or(&name);
                // Strings handed to a shell.
                if is_shell_call(&name, lang) {
                    for s in arg_tokens.iter().filter(|s| s.kind == Kind::Str) {
                        let inner = unit.derived(&s.value, s.span.start);
                        shell::scan(ctx, &inner, shell::Mode::Code);
                    }
                    if shipped
                        && arg_tokens
                            .iter()
                            .any(|a| a.kind == Kind::Ident && a.value == "shell")
                        && arg_tokens
                            .first()
                            .is_some_and(|a| a.kind == Kind::Ident || a.value.contains('{'))
                    {
                        ctx.report(
                            unit,
                            id::DynamicEvaluation,
                            local::shell_command(arg_tokens),
                            t.span.clone(),
                            format!(
                                "`{name}` runs a command built from a variable through a shell"
                            ),
                        );
                    }
                }
                // exec / eval.
                let evaluates = match lang {
                    Lang::Python => matches!(
                        name.as_str(),
                        "exec" | "eval" | "compile" | "builtins.exec" | "__import__"
                    ),
                    Lang::Js => {
                        matches!(
                            name.as_str(),
                            "eval"
                                | "Function"
                                | "vm.runInNewContext"
                                | "vm.runInThisContext"
                                | "setTimeout"
                                | "setInterval"
                        ) || last == "runInContext"
                    }
                };
                let method = i > 0 && tokens[i - 1].value == "." && !name.contains('.');
                if evaluates && !method {
                    if arg_tokens
                        .iter()
                        .any(|a| a.kind == Kind::Ident && decoded_vars.contains(&a.value))
                    {
                        ctx.report(
                            unit,
                            id::DecodeExecute,
                            Severity::Critical,
                            t.span.clone(),
                            format!(
                                "`{name}` runs code that was decoded first, so no reader sees it"
                            ),
                        );
                    } else if arg_tokens
                        .iter()
                        .any(|a| a.kind == Kind::Ident && fetched_vars.contains(&a.value))
                    {
                        ctx.report(
                            unit,
                            id::DownloadExecute,
                            Severity::Critical,
                            t.span.clone(),
                            format!("`{name}` runs code downloaded from the network"),
                        );
                    } else {
                        evaluation(ctx, unit, t, &name, arg_tokens, shipped, lang);
                    }
                }
                // Network sinks.
                if let Some(sink_host) = network_call(&name, arg_tokens, lang) {
                    let leaks_var = arg_tokens
                        .iter()
                        .any(|a| a.kind == Kind::Ident && secret_vars.contains(&a.value))
                        && !in_headers(arg_tokens, &secret_vars);
                    sinks.push((t.span.clone(), name.clone(), sink_host, leaks_var));
                }
                // Deserialisation and files.
                if lang == Lang::Python {
                    python_calls(ctx, unit, t, &name, arg_tokens, shipped);
                }
            }
            _ => {}
        }
    }
    for (span, name, host, leaks_var) in &sinks {
        if host.as_deref().is_some_and(net::is_local) {
            continue;
        }
        if shipped {
            ctx.sink(unit, span.start, name, host.as_deref());
        }
        let to = host
            .as_deref()
            .map_or(String::new(), |h| format!(" to `{h}`"));
        let declared = &ctx.skill.declared;
        if let Some((_, what, moved)) = &collects {
            let severity = severity::secrets_sent(declared, ctx.path(), host.as_deref(), *moved);
            ctx.report(
                unit,
                id::SecretsToNetwork,
                severity,
                span.clone(),
                format!("`{name}` sends data{to} from code that collects {what}"),
            );
        } else if *leaks_var {
            let severity =
                severity::secrets_sent(declared, ctx.path(), host.as_deref(), Moved::OwnKey);
            ctx.report(
                unit,
                id::SecretsToNetwork,
                severity,
                span.clone(),
                format!("`{name}` sends a secret read from the environment{to} in its body"),
            );
        }
    }
    if lang == Lang::Python {
        loops(ctx, unit, &tokens, shipped);
    }
    agent_config(ctx, unit, &tokens);
}

/// Code that edits an agent's configuration file and puts hooks or MCP
/// servers in it.
fn agent_config(ctx: &mut Ctx<'_>, unit: &Unit<'_>, tokens: &[Token]) {
    let Some(file) = tokens.iter().find(|t| {
        t.kind == Kind::Str && crate::config::is_agent_settings(t.value.trim_start_matches('~'))
    }) else {
        return;
    };
    let writes = tokens.iter().any(|t| {
        t.kind == Kind::Ident
            && matches!(
                t.value.as_str(),
                "dump" | "write" | "writeFileSync" | "write_text" | "writeFile"
            )
    });
    if !writes {
        return;
    }
    for t in tokens.iter().filter(|t| t.kind == Kind::Str) {
        let (rule, what) = match t.value.as_str() {
            "hooks" => (
                id::AgentHooks,
                "hooks: a command then runs on the agent's events in every session",
            ),
            "mcpServers" | "mcp_servers" => (
                id::McpRegistration,
                "an MCP server: it starts in every session",
            ),
            _ => continue,
        };
        ctx.report(
            unit,
            rule,
            Severity::High,
            t.span.clone(),
            format!("edits `{}` to add {what}", file.value),
        );
    }
}

/// Calls that turn encoded data back into text or code.
const DECODERS: &[&str] = &[
    "b64decode",
    "a85decode",
    "b32decode",
    "b16decode",
    "urlsafe_b64decode",
    "decodebytes",
    "decompress",
    "unhexlify",
    "fromhex",
    "atob",
    "fromCharCode",
    "unescape",
    "decodeURIComponent",
    "rot13",
    "inflateSync",
    "gunzipSync",
    "inflateRawSync",
];

static SQL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::text::regex(
        r"(?is)\b(?:select\s.+?\sfrom|insert\s+into|update\s+\w+\s+set|delete\s+from)\b",
    )
    .expect("valid")
});

fn secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    [
        "KEY",
        "SECRET",
        "TOKEN",
        "PASSWORD",
        "PASSWD",
        "CREDENTIAL",
        "AUTH",
    ]
    .iter()
    .any(|w| upper.contains(w))
}

/// The name assigned on the line of token `i` (`x = os.getenv(…)` → `x`).
fn assigned_name(tokens: &[Token], i: usize) -> Option<String> {
    let mut j = i;
    while j > 0 {
        j -= 1;
        let t = &tokens[j];
        if t.kind == Kind::Newline || t.value == ";" {
            return None;
        }
        if t.kind == Kind::Punct && t.value == "=" {
            return tokens[..j]
                .iter()
                .rev()
                .find(|t| t.kind == Kind::Ident)
                .map(|t| t.value.clone());
        }
    }
    None
}

/// Whether every secret variable in the call sits in `headers=`/`auth=`
/// (authenticating to the API it calls, as honest clients do).
fn in_headers(args: &[Token], secret_vars: &HashSet<String>) -> bool {
    let mut in_auth = false;
    let mut depth = 0i32;
    for (k, a) in args.iter().enumerate() {
        if a.kind == Kind::Ident
            && (a.value == "headers" || a.value == "auth" || a.value == "Authorization")
            && args
                .get(k + 1)
                .is_some_and(|n| n.value == "=" || n.value == ":")
        {
            in_auth = true;
            depth = 0;
        }
        match a.value.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "," if depth <= 0 => in_auth = false,
            _ => {}
        }
        if a.kind == Kind::Ident && secret_vars.contains(&a.value) && !in_auth {
            return false;
        }
    }
    true
}

fn is_shell_call(name: &str, lang: Lang) -> bool {
    match lang {
        Lang::Python => matches!(
            name,
            "os.system"
                | "os.popen"
                | "subprocess.run"
                | "subprocess.call"
                | "subprocess.check_call"
                | "subprocess.check_output"
                | "subprocess.Popen"
                | "subprocess.getoutput"
                | "subprocess.getstatusoutput"
                | "commands.getoutput"
                | "pty.spawn"
                | "os.execl"
                | "os.execlp"
                | "os.execv"
                | "os.execvp"
                | "run"
                | "call"
                | "check_output"
                | "Popen"
        ),
        Lang::Js => {
            let last = name.rsplit('.').next().unwrap_or(name);
            matches!(
                last,
                "exec" | "execSync" | "spawn" | "spawnSync" | "execFile" | "execFileSync" | "$"
            )
        }
    }
}

fn evaluation(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    t: &Token,
    name: &str,
    args: &[Token],
    shipped: bool,
    lang: Lang,
) {
    if args.is_empty()
        || lang == Lang::Js && matches!(name, "setTimeout" | "setInterval") && local::callback(args)
    {
        return;
    }
    let idents: Vec<&str> = args
        .iter()
        .filter(|a| a.kind == Kind::Ident)
        .map(|a| a.value.as_str())
        .collect();
    let decoders = DECODERS;
    let fetchers = [
        "urlopen",
        "get",
        "urlretrieve",
        "fetch",
        "request",
        "text",
        "read",
        "axios",
        "httpx",
    ];
    let network = idents.iter().any(|i| {
        [
            "urlopen", "requests", "urllib", "httpx", "fetch", "axios", "http", "https", "socket",
        ]
        .contains(i)
    });
    if idents
        .iter()
        .any(|i| decoders.contains(i) || *i == "chr" || *i == "codecs")
    {
        ctx.report(
            unit,
            id::DecodeExecute,
            Severity::Critical,
            t.span.clone(),
            format!("`{name}` runs code that is decoded first, so no reader sees it"),
        );
    } else if network && idents.iter().any(|i| fetchers.contains(i)) {
        ctx.report(
            unit,
            id::DownloadExecute,
            Severity::Critical,
            t.span.clone(),
            format!("`{name}` runs code downloaded from the network"),
        );
    } else if lang == Lang::Js && (name == "setTimeout" || name == "setInterval") {
        // A string first argument only.
        if args.first().is_some_and(|a| a.kind == Kind::Str) && shipped {
            ctx.report(
                unit,
                id::DynamicEvaluation,
                Severity::Low,
                t.span.clone(),
                format!("`{name}` evaluates a string"),
            );
        }
    } else if args
        .iter()
        .all(|a| a.kind == Kind::Str || a.kind == Kind::Number || a.kind == Kind::Punct)
    {
        // A constant: no input reaches it.
    } else {
        let severity = if shipped {
            Severity::Medium
        } else {
            Severity::Low
        };
        let severity = local::evaluation(name, args).unwrap_or(severity);
        ctx.report(
            unit,
            id::DynamicEvaluation,
            severity,
            t.span.clone(),
            format!("`{name}` evaluates a value the caller controls: any code in it runs"),
        );
    }
}

/// Whether the call sends over the network, with the host when a literal
/// names it.
fn network_call(name: &str, args: &[Token], lang: Lang) -> Option<Option<String>> {
    let last = name.rsplit('.').next().unwrap_or(name);
    let sends = match lang {
        Lang::Python => {
            matches!(
                name,
                "requests.post"
                    | "requests.put"
                    | "requests.patch"
                    | "requests.request"
                    | "httpx.post"
                    | "httpx.put"
                    | "urllib.request.urlopen"
                    | "urlopen"
                    | "urllib.request.Request"
                    | "Request"
                    | "http.client.HTTPSConnection"
                    | "http.client.HTTPConnection"
                    | "HTTPSConnection"
                    | "HTTPConnection"
                    | "session.post"
                    | "s.post"
                    | "client.post"
            ) || matches!(
                last,
                "sendall" | "sendto" | "send_message" | "sendmail" | "storbinary"
            ) || name == "requests.get"
                && args
                    .iter()
                    .any(|a| a.value == "params" || a.value == "data")
        }
        Lang::Js => {
            matches!(
                last,
                "fetch" | "post" | "put" | "sendBeacon" | "request" | "write"
            ) && (name.contains("axios")
                || name == "fetch"
                || name.contains("http")
                || name.contains("navigator")
                || name == "request"
                || last == "post")
                || matches!(
                    name,
                    "net.connect"
                        | "net.createConnection"
                        | "dns.resolve"
                        | "dns.lookup"
                        | "XMLHttpRequest"
                )
        }
    };
    if !sends {
        return None;
    }
    let host = args
        .iter()
        .filter(|a| a.kind == Kind::Str)
        .find_map(|a| net::host(&a.value));
    Some(host)
}

fn python_calls(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    t: &Token,
    name: &str,
    args: &[Token],
    shipped: bool,
) {
    let severity = if shipped {
        Severity::Medium
    } else {
        Severity::Low
    };
    match name {
        "pickle.loads" | "pickle.load" | "cPickle.loads" | "marshal.loads" | "shelve.open"
        | "jsonpickle.decode" | "dill.loads" | "yaml.unsafe_load" => {
            ctx.report(
                unit,
                id::UnsafeDeserialization,
                severity,
                t.span.clone(),
                format!("`{name}` runs code carried in the data it reads"),
            );
        }
        "yaml.load"
            if !args.iter().any(|a| {
                a.value.contains("SafeLoader")
                    || a.value.contains("CSafeLoader")
                    || a.value == "BaseLoader"
            }) =>
        {
            ctx.report(
                unit,
                id::UnsafeDeserialization,
                severity,
                t.span.clone(),
                "`yaml.load` without a safe loader builds arbitrary objects".into(),
            );
        }
        "open" if shipped => {
            let joined = args
                .windows(2)
                .any(|w| w[0].value == "join" && w[1].value == "(");
            let fpath = args.first().is_some_and(|a| {
                a.kind == Kind::Str && a.value.starts_with('/') && a.value.contains('{')
            });
            if (joined || fpath) && !args.is_empty() && !local::fixed_file_name(args) {
                ctx.report(
                    unit,
                    id::PathTraversal,
                    Severity::Medium,
                    t.span.clone(),
                    "opens a path built from an argument: `../` in it reaches any file".into(),
                );
            }
        }
        _ => {}
    }
}

/// `while True:` with no way out in its body, and allocations sized to
/// exhaust memory (`[x] * 10000000`).
fn loops(ctx: &mut Ctx<'_>, unit: &Unit<'_>, tokens: &[Token], shipped: bool) {
    let severity = if shipped {
        Severity::Medium
    } else {
        Severity::Low
    };
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Kind::Number
            && i > 0
            && tokens[i - 1].value == "*"
            && t.value
                .replace('_', "")
                .parse::<u64>()
                .is_ok_and(|n| n >= 10_000_000)
        {
            ctx.report(
                unit,
                id::UnboundedLoop,
                severity,
                t.span.clone(),
                format!(
                    "multiplies a collection by {}: memory runs out before it finishes",
                    t.value
                ),
            );
        }
        if t.kind != Kind::Ident || t.value != "while" {
            continue;
        }
        let forever = tokens
            .get(i + 1)
            .is_some_and(|c| c.value == "True" || c.value == "1")
            && tokens.get(i + 2).is_some_and(|c| c.value == ":");
        if !forever {
            continue;
        }
        let indent = lex::python::indent_of(unit.text, t.span.start);
        let mut exits = false;
        for u in &tokens[i + 3..] {
            if u.kind == Kind::Newline {
                continue;
            }
            let line_indent = lex::python::indent_of(unit.text, u.span.start);
            if line_indent <= indent
                && u.span.start > t.span.end
                && unit.text[t.span.end..u.span.start].contains('\n')
            {
                break;
            }
            if u.kind == Kind::Ident
                && matches!(
                    u.value.as_str(),
                    "break"
                        | "return"
                        | "raise"
                        | "exit"
                        | "sys"
                        | "yield"
                        | "await"
                        | "sleep"
                        | "wait"
                        | "get"
                        | "recv"
                        | "accept"
                        | "input"
                )
                || local::paces(&u.value)
            {
                exits = true;
                break;
            }
        }
        if !exits && !local::in_try(unit.text, tokens, i) {
            ctx.report(
                unit,
                id::UnboundedLoop,
                severity,
                t.span.clone(),
                "a loop with no `break`, `return` or wait: it never ends".into(),
            );
        }
    }
}

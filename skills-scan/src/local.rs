//! How much a flaw in a skill's own local tool matters: a flaw an input can
//! exploit is worth a reviewer's eye when the input can be hostile, and a
//! script the agent runs on the user's machine takes its input from the
//! user (its arguments, the project's files).
//!
//! Rules of thumb, each for a class real tools are written in:
//!
//! - `compile(src, name, "exec")` checks syntax and runs nothing; importing
//!   a module by name (`__import__(name)`, `importlib.import_module`) loads
//!   installed code, as checking that a dependency is installed does: notes.
//!   `eval`/`exec` of a value stay findings.
//! - A command that is a variable as a whole, run through a shell
//!   (`Popen(cmd, shell=True)`), is a runner of the command it is given
//!   (`with_server.py --server "npm run dev"`): a note. A command string
//!   with a value put into it (`f"convert {name} out.png"`) is injection.
//! - A path joined from a directory and a fixed file name
//!   (`os.path.join(out_dir, "report.json")`, a game's save file) is the
//!   tool's own file: not traversal.
//! - SQL built with f-strings in a local tool queries the user's own data:
//!   a note.
//! - `while True:` inside a `try` ends when its body raises (reading frames
//!   until `EOFError`); one that waits each turn (`sleep`, an animation
//!   frame) paces itself: neither is resource abuse.

use crate::lex::{self, Kind, Token};
use crate::rule::Severity;

/// The severity of evaluating a value with `name`, when it is not the
/// default (a note for compiling and importing).
pub(crate) fn evaluation(name: &str, args: &[Token]) -> Option<Severity> {
    let loads = matches!(
        name,
        "compile" | "__import__" | "importlib.import_module" | "import_module"
    );
    // `eval(expr, {"__builtins__": {}})`: an expression evaluator without
    // Python's builtins, as calculators are written.
    let restricted = args.iter().any(|a| a.value == "__builtins__");
    (loads || restricted).then_some(Severity::Low)
}

/// The severity of running the command `args` start with through a shell:
/// a note when the command is a variable as a whole (`cmd`, `self.command`,
/// `args.cmd`: what the tool's user asked it to run).
pub(crate) fn shell_command(args: &[Token]) -> Severity {
    // The tokens of a dotted name (`a`, `a.b.c`) at the start.
    let name = args
        .iter()
        .enumerate()
        .take_while(|(k, a)| {
            if k % 2 == 0 {
                a.kind == Kind::Ident
            } else {
                a.value == "."
            }
        })
        .count();
    let name = if name % 2 == 0 {
        name.saturating_sub(1)
    } else {
        name
    };
    let rest = args.get(name..).unwrap_or(&[]);
    let whole_variable = name > 0
        && rest.first().is_none_or(|a| {
            a.value == ","
                || a.value == "["
                    && rest.get(2).is_some_and(|c| {
                        c.value == "]" && rest.get(3).is_none_or(|d| d.value == ",")
                    })
        });
    if whole_variable {
        Severity::Low
    } else {
        Severity::Medium
    }
}

/// Whether the path `open` is given in `args` ends in a fixed file name
/// (`os.path.join(d, "out.json")`, `f"{d}/save.dat"`): the tool's own file.
pub(crate) fn fixed_file_name(args: &[Token]) -> bool {
    let first_arg_end = args
        .iter()
        .scan(0i32, |depth, a| {
            let at_top = *depth == 0;
            match a.value.as_str() {
                "(" | "[" | "{" => *depth += 1,
                ")" | "]" | "}" => *depth -= 1,
                _ => {}
            }
            Some(at_top && a.value == ",")
        })
        .position(|end| end)
        .unwrap_or(args.len());
    let first = args.get(..first_arg_end).unwrap_or(&[]);
    // The last string of the path, just before its closing parenthesis
    // (a join) or as the whole path (an f-string).
    let last = first
        .iter()
        .rev()
        .find(|a| a.kind != Kind::Punct || a.value != ")");
    last.is_some_and(|a| {
        a.kind == Kind::Str && {
            let name = a.value.rsplit('/').next().unwrap_or("");
            !name.is_empty() && !name.contains(['{', '}', '%']) && !a.value.contains("..")
        }
    })
}

/// Whether the first argument of `setTimeout`/`setInterval` is a function
/// (`() => fetch(u)`, `function () {…}`, `poll`): a callback runs, not a
/// string evaluated, whatever it calls.
pub(crate) fn callback(args: &[Token]) -> bool {
    let mut depth = 0i32;
    for (k, a) in args.iter().enumerate() {
        match a.value.as_str() {
            "function" | "async" if k == 0 => return true,
            "=>" if depth <= 1 => return true,
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "," if depth == 0 => {
                // A name alone: a function passed by reference.
                return k == 1 && args.first().is_some_and(|f| f.kind == Kind::Ident);
            }
            _ => {}
        }
    }
    args.len() == 1 && args.first().is_some_and(|f| f.kind == Kind::Ident)
}

/// How many tokens back from a call the functions enclosing it are looked
/// for (a bound per call keeps the reading linear in the file).
const PARAMETERS_BACK: usize = 512;

/// Whether `name`, given to the call at token `i`, is bound by a function or
/// block that encloses the call (`(r) => setTimeout(r, 5)`, `r => …`,
/// `function wait(r) { … }`, `for (const r of …) { … }`, `catch (r) { … }`):
/// what the call is given is that binding, not an outer variable of the same
/// name (`const r = await fetch(u)` elsewhere in the file).
pub(crate) fn bound_around(tokens: &[Token], i: usize, name: &str) -> bool {
    let start = i.saturating_sub(PARAMETERS_BACK);
    let mut depth = 0usize;
    // Whether an arrow met at this level still reaches the call: an
    // expression body ends at a `,` or `;` of its level.
    let mut arrow_reaches = true;
    let mut k = i;
    while k > start {
        k -= 1;
        let Some(t) = tokens.get(k) else {
            return false;
        };
        if t.kind != Kind::Punct && t.value != "=>" {
            continue;
        }
        match t.value.as_str() {
            ")" | "]" | "}" => depth += 1,
            "(" | "[" | "{" if depth > 0 => depth -= 1,
            "(" | "[" | "{" => {
                // An opener around the call: a body (`) {`, `=> {`) binds
                // what its head names.
                if t.value == "{" && binds_before(tokens, k, name) {
                    return true;
                }
                arrow_reaches = true;
            }
            ";" | "," if depth == 0 => arrow_reaches = false,
            "=>" if depth == 0 && arrow_reaches && binds_before(tokens, k + 1, name) => {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// Whether the head before token `body` (a `{` or the token after `=>`)
/// binds `name`: an arrow's parameter or parameter list, or the parenthesised
/// head of a function, `for` or `catch` (not of `if`, `while` or `switch`,
/// which bind nothing).
fn binds_before(tokens: &[Token], body: usize, name: &str) -> bool {
    let Some(mut k) = body.checked_sub(1) else {
        return false;
    };
    if tokens.get(k).is_some_and(|t| t.value == "=>") {
        // An arrow's parameters, read as the flow model reads them.
        return crate::flow::function_params(tokens, k, crate::fold::Lang::Js)
            .is_some_and(|params| params.iter().any(|p| p == name));
    }
    if tokens.get(k).is_none_or(|t| t.value != ")") {
        return false;
    }
    let mut depth = 0usize;
    let mut found = false;
    let start = k.saturating_sub(PARAMETERS_BACK);
    while k > start {
        let Some(t) = tokens.get(k) else {
            return false;
        };
        match t.value.as_str() {
            ")" | "]" | "}" => depth += 1,
            "(" | "[" | "{" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let head = k.checked_sub(1).and_then(|h| tokens.get(h));
                    let binds_nothing =
                        head.is_some_and(|h| matches!(h.value.as_str(), "if" | "while" | "switch"));
                    return found && !binds_nothing;
                }
            }
            _ if t.kind == Kind::Ident && t.value == name => found = true,
            _ => {}
        }
        k -= 1;
    }
    false
}

/// The severity of building SQL from a variable in a local tool.
pub(crate) const SQL_FROM_VARIABLE: Severity = Severity::Low;

/// How many tokens back the block holding a loop is looked for.
const LOOK_BACK: usize = 4096;

/// Whether the Python loop whose `while` is token `i` sits in a `try`
/// block: an exception its body raises ends it.
pub(crate) fn in_try(text: &str, tokens: &[Token], i: usize) -> bool {
    let Some(t) = tokens.get(i) else {
        return false;
    };
    let indent = lex::python::indent_of(text, t.span.start);
    for k in (i.saturating_sub(LOOK_BACK)..i).rev() {
        // The first token of each logical line before the loop, up to the
        // one its block opens with.
        let first = k == 0 || tokens.get(k - 1).is_some_and(|p| p.kind == Kind::Newline);
        let Some(u) = tokens.get(k).filter(|u| first && u.kind != Kind::Newline) else {
            continue;
        };
        if lex::python::indent_of(text, u.span.start) < indent {
            return u.kind == Kind::Ident && u.value == "try";
        }
    }
    false
}

/// Whether a call in a loop's body waits each turn, in terms the loop
/// check does not list: a game clock's frame (`clock.tick(60)`), a display
/// flip, an event queue, a `select`/`poll` on descriptors.
pub(crate) fn paces(name: &str) -> bool {
    matches!(
        name,
        "tick" | "flip" | "wait_for" | "poll" | "select" | "get_event" | "event"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn python(code: &str) -> Vec<Token> {
        lex::python::python(code)
            .into_iter()
            .filter(|t| t.kind != Kind::Comment)
            .collect()
    }

    fn args_of(code: &str) -> Vec<Token> {
        let t = python(code);
        let open = t.iter().position(|t| t.value == "(").unwrap_or(0);
        let close = t.iter().rposition(|t| t.value == ")").unwrap_or(t.len());
        t.get(open + 1..close).unwrap_or(&[]).to_vec()
    }

    #[test]
    fn whole_variable_commands_are_runners() {
        assert_eq!(
            shell_command(&args_of("Popen(cmd, shell=True)")),
            Severity::Low
        );
        assert_eq!(
            shell_command(&args_of("Popen(server['cmd'], shell=True)")),
            Severity::Low
        );
        assert_eq!(
            shell_command(&args_of("run(f'convert {name} x.png', shell=True)")),
            Severity::Medium
        );
        assert_eq!(
            shell_command(&args_of("run('ls ' + name, shell=True)")),
            Severity::Medium
        );
        assert_eq!(
            shell_command(&args_of("run(self.command, shell=True)")),
            Severity::Low
        );
        assert_eq!(
            shell_command(&args_of("spawnSync(args.cmd, { shell: true })")),
            Severity::Low
        );
        assert_eq!(
            shell_command(&args_of("run(self.base + name, shell=True)")),
            Severity::Medium
        );
    }

    #[test]
    fn own_files_are_fixed_names() {
        assert!(fixed_file_name(&args_of(
            "open(os.path.join(out_dir, 'poc_common.h'), 'w')"
        )));
        assert!(fixed_file_name(&args_of("open(f'{home}/save.dat', 'w')")));
        assert!(!fixed_file_name(&args_of("open(os.path.join(base, name))")));
        assert!(!fixed_file_name(&args_of("open(f'/data/{name}')")));
        assert!(!fixed_file_name(&args_of(
            "open(os.path.join(base, '../../etc/passwd'))"
        )));
    }

    #[test]
    fn loops_in_try_end_by_exception() {
        let code = "try:\n    n = 0\n    while True:\n        img.seek(n)\n        n += 1\nexcept EOFError:\n    pass\n";
        let t = python(code);
        let w = t.iter().position(|t| t.value == "while").unwrap_or(0);
        assert!(in_try(code, &t, w));
        let code = "def f(d):\n    while True:\n        g(d)\n";
        let t = python(code);
        let w = t.iter().position(|t| t.value == "while").unwrap_or(0);
        assert!(!in_try(code, &t, w));
    }

    #[test]
    fn timers_run_callbacks() {
        let js = |code: &str| -> Vec<Token> {
            let t: Vec<Token> = lex::js::js(code)
                .into_iter()
                .filter(|t| t.kind != Kind::Comment)
                .collect();
            let open = t.iter().position(|t| t.value == "(").unwrap_or(0);
            let close = t.iter().rposition(|t| t.value == ")").unwrap_or(t.len());
            t.get(open + 1..close).unwrap_or(&[]).to_vec()
        };
        assert!(callback(&js(
            "setInterval(() => fetch(u).then(r => r.text()), 1000)"
        )));
        assert!(callback(&js(
            "setTimeout(async () => { await fetch(u) }, 5)"
        )));
        assert!(callback(&js("setTimeout(function () { x() }, 5)")));
        assert!(callback(&js("setInterval(poll, 1000)")));
        assert!(!callback(&js("setTimeout(atob(payload), 1)")));
        assert!(!callback(&js("setTimeout('alert(1)', 1)")));
        assert!(!callback(&js("setTimeout(code + x, 1)")));
    }

    #[test]
    fn a_binding_around_the_call_shadows_the_outer_name() {
        let bound = |code: &str| -> bool {
            let t: Vec<Token> = lex::js::js(code)
                .into_iter()
                .filter(|t| t.kind != Kind::Comment)
                .collect();
            let i = t.iter().rposition(|t| t.value == "setTimeout").unwrap_or(0);
            bound_around(&t, i, "r")
        };
        assert!(bound(
            "const r = await fetch(u); await new Promise((r) => setTimeout(r, 200));"
        ));
        assert!(bound(
            "const r = await fetch(u); new Promise(r => setTimeout(r, 5));"
        ));
        assert!(bound(
            "const r = await fetch(u); function wait(ms, r) { return setTimeout(r, ms); }"
        ));
        assert!(bound(
            "const r = await fetch(u); for (const r of jobs) { setTimeout(r, 1); }"
        ));
        assert!(bound(
            "const r = await fetch(u); p = new Promise((r) => { log(1); setTimeout(r, 5); });"
        ));
        // The outer name itself: no binding around the call.
        assert!(!bound("const r = await fetch(u); setTimeout(r, 200);"));
        assert!(!bound(
            "const r = await fetch(u); if (r) { setTimeout(r, 200); }"
        ));
        assert!(!bound(
            "const r = await fetch(u); xs.map((r) => r); setTimeout(r, 1);"
        ));
        assert!(!bound(
            "const r = await fetch(u); const f = (q) => q, g = setTimeout(r, 1);"
        ));
        assert!(!bound(
            "const r = await fetch(u); function run(q) { setTimeout(r, 1); }"
        ));
    }

    #[test]
    fn compiling_and_importing_are_notes() {
        assert_eq!(evaluation("compile", &[]), Some(Severity::Low));
        assert_eq!(evaluation("__import__", &[]), Some(Severity::Low));
        assert_eq!(evaluation("eval", &args_of("eval(expr)")), None);
        assert_eq!(
            evaluation("eval", &args_of("eval(expr, {'__builtins__': {}})")),
            Some(Severity::Low)
        );
        assert!(paces("tick") && !paces("print"));
    }
}

//! Fuzzes the arguments of an activation with `--run-commands`
//! (`Skill::activate_with` and `PolicyRunner`, as `skb show
//! --run-commands` runs them), issue 17: a model chooses the arguments, so
//! they must never run anything the skill's author did not write.
//!
//! The first byte picks a skill; the rest is the arguments (lossy UTF-8).
//! The skills' folder is `/tmp/fuzz skills/<name>` (a space in the path),
//! and a recording executor runs nothing: it keeps each command it is asked
//! to run. Whatever the arguments:
//!
//! - a skill of [`TEMPLATES`] asks for exactly the commands its template
//!   says, each with the argument values as whole literal words, computed
//!   here from the arguments alone (Claude Code's words for `$N`,
//!   `activation::argument_words` for `$ARGUMENTS` outside quotes, the text
//!   as written inside quotes, `${CLAUDE_…}` expanded in them); a shell
//!   line only under a rule without a pattern, where an independent reading
//!   of its quoting finds exactly the template's words and operators;
//! - the last selector takes the body from the input too (up to a `0xFF`
//!   byte): under pattern rules only, the executor is never asked for a
//!   shell, never for a program the rules do not name, and never more often
//!   than the author wrote commands.

#![no_main]

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use skills_bundle::activation::claude_code::{self, Vars};
use skills_bundle::activation::commands::{self, Piece};
use skills_bundle::activation::{Options, PolicyRunner, Rule, argument_words, split_arguments};
use skills_core::catalog::claude_code::is_js_whitespace;
use skills_bundle::exec::{Command, ExecError, Invocation, Output, ScriptExecutor};
use skills_bundle::pack::Trust;
use skills_bundle::{Bundle, Mode, Skill, ToolPolicy};
use skills_compiler::embed::{Plan, PlanSkill, compress};
use skills_compiler::pack::{manifest, write_pack};
use skills_core::meta::SkillMeta;
use skills_core::zip::write::DosTime;

/// The folder of the skills: its path holds a space.
const ROOT: &str = "/tmp/fuzz skills";

/// The rules of the templates with pattern rules only.
const PATTERN_RULES: &[(&str, Option<&str>)] = &[
    ("Bash", Some("echo:*")),
    ("Bash", Some("printf:*")),
    ("Bash", Some("${CLAUDE_SKILL_DIR}/scripts/run.sh:*")),
];

/// A rule without a pattern: shell lines allowed.
const ANY_BASH: &[(&str, Option<&str>)] = &[("Bash", None)];

/// One word of an expected command: author text, or a value.
#[derive(Clone, Copy)]
enum W {
    /// Literal text.
    T(&'static str),
    /// `$N` (Claude Code's word `N`, `${CLAUDE_…}` expanded; empty when missing).
    N(usize),
    /// `$ARGUMENTS` outside quotes: its words, each its own word (none when empty).
    Words,
    /// `$ARGUMENTS` inside quotes: the arguments as written, expanded.
    Whole,
    /// `$N` outside quotes alone as a word: no word when empty or missing.
    Opt(usize),
    /// A shell operator (`;`, `|`, `&&`), alone.
    Op(&'static str),
}

/// A word of a command line, or a shell operator.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word(String),
    Op(String),
}

/// What a template's command must be.
enum Expect {
    /// Run without a shell, with these words.
    Argv(&'static [&'static [W]]),
    /// Run by `sh -c`: these words and operators.
    Shell(&'static [&'static [W]]),
    /// Refused: a placeholder where no quoting is sure, when its value is
    /// not empty (`usize`: which `$N`), else a shell line.
    Unplaceable(usize),
    /// Refused by the policy, whatever the arguments.
    Refused,
}

struct Template {
    body: &'static str,
    rules: &'static [(&'static str, Option<&'static str>)],
    /// Frontmatter `arguments` (names), as JSON text.
    names: Option<&'static str>,
    /// The commands, in order.
    expect: &'static [Expect],
}

use W::{N, Op, Opt, T, Whole, Words};

const TEMPLATES: &[Template] = &[
    Template {
        body: "!`echo $0 $1`",
        rules: PATTERN_RULES,
        names: None,
        expect: &[Expect::Argv(&[&[T("echo")], &[Opt(0)], &[Opt(1)]])],
    },
    Template {
        body: "A !`echo \"$0\" '$1' x$2\"y\"z` B",
        rules: PATTERN_RULES,
        names: None,
        expect: &[Expect::Argv(&[
            &[T("echo")],
            &[N(0)],
            &[N(1)],
            &[T("x"), N(2), T("yz")],
        ])],
    },
    // `$2y` is no placeholder (Claude Code leaves it as written): a `$` of
    // the author's, which only a shell would read.
    Template {
        body: "!`echo x$2y`",
        rules: PATTERN_RULES,
        names: None,
        expect: &[Expect::Refused],
    },
    Template {
        body: "!`echo $ARGUMENTS`",
        rules: PATTERN_RULES,
        names: None,
        expect: &[Expect::Argv(&[&[T("echo")], &[Words]])],
    },
    Template {
        body: "!`echo \"$ARGUMENTS\" '$ARGUMENTS' \"-$ARGUMENTS-\"`",
        rules: PATTERN_RULES,
        names: None,
        expect: &[Expect::Argv(&[
            &[T("echo")],
            &[Whole],
            &[Whole],
            &[T("-"), Whole, T("-")],
        ])],
    },
    Template {
        body: "!`${CLAUDE_SKILL_DIR}/scripts/run.sh $ARGUMENTS[0] \"$ARGUMENTS[1]\"`",
        rules: PATTERN_RULES,
        names: None,
        expect: &[Expect::Argv(&[&[T("scripts/run.sh")], &[Opt(0)], &[N(1)]])],
    },
    Template {
        body: "!`\"${CLAUDE_SKILL_DIR}\"/scripts/run.sh ${CLAUDE_PROJECT_DIR} $0`",
        rules: PATTERN_RULES,
        names: None,
        expect: &[Expect::Argv(&[
            &[T("scripts/run.sh")],
            &[T("/p q")],
            &[Opt(0)],
        ])],
    },
    Template {
        body: "Say $ARGUMENTS.\n!`echo $who`\n```!\nprintf %s \"$what\"\n```\nEnd $1 !`echo $ARGUMENTS[1]`",
        rules: PATTERN_RULES,
        names: Some("[\"who\", \"what\"]"),
        expect: &[
            Expect::Argv(&[&[T("echo")], &[Opt(0)]]),
            Expect::Argv(&[&[T("printf")], &[T("%s")], &[N(1)]]),
            Expect::Argv(&[&[T("echo")], &[Opt(1)]]),
        ],
    },
    Template {
        body: "!`echo \"$0\" | cat; echo '$1' $2 && echo $ARGUMENTS`",
        rules: ANY_BASH,
        names: None,
        expect: &[Expect::Shell(&[
            &[T("echo")],
            &[N(0)],
            &[Op("|")],
            &[T("cat")],
            &[Op(";")],
            &[T("echo")],
            &[N(1)],
            &[Opt(2)],
            &[Op("&&")],
            &[T("echo")],
            &[Words],
        ])],
    },
    Template {
        body: "!`echo $(date) $0`",
        rules: ANY_BASH,
        names: None,
        expect: &[Expect::Unplaceable(0)],
    },
    Template {
        body: "!`echo hi # $0`",
        rules: ANY_BASH,
        names: None,
        expect: &[Expect::Unplaceable(0)],
    },
    Template {
        body: "!`echo $0; echo x`",
        rules: PATTERN_RULES,
        names: None,
        expect: &[Expect::Refused],
    },
    Template {
        body: "Say $ARGUMENTS and $0 $1\n",
        rules: ANY_BASH,
        names: None,
        expect: &[],
    },
];

/// Keeps each command; runs nothing.
#[derive(Default)]
struct Recording {
    seen: Mutex<Vec<Invocation>>,
}

impl ScriptExecutor for Recording {
    fn run(&self, _: &Skill<'_>, command: &Command) -> Result<Output, ExecError> {
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(command.invocation.clone());
        Ok(Output {
            exit_code: Some(0),
            signal: None,
            stdout: b"ran".to_vec(),
            stderr: Vec::new(),
            stdout_truncated: false,
            stderr_truncated: false,
            timed_out: false,
            duration: Duration::ZERO,
        })
    }
}

/// A bundle of `skills`: (name, body, rules, `arguments` names).
fn bundle(skills: &[(String, &str, &[(&str, Option<&str>)], Option<&str>)]) -> Bundle {
    let mut plan = Plan {
        skills: skills
            .iter()
            .map(|(name, body, rules, names)| {
                let head = format!("---\nname: {name}\ndescription: Fuzzing.\n---\n");
                let md = format!("{head}{body}");
                let run = "#!/bin/sh\necho \"$@\"\n";
                PlanSkill {
                    meta: SkillMeta {
                        name: name.clone().into(),
                        description: "Fuzzing.".into(),
                        skill_md: "SKILL.md".into(),
                        body: (head.len() as u32, md.len() as u32),
                        allowed_tools: rules
                            .iter()
                            .map(|(t, p)| (t.to_string().into(), p.map(|p| p.to_string().into())))
                            .collect::<Vec<_>>()
                            .into(),
                        extensions: names
                            .iter()
                            .map(|n| ("arguments".into(), n.to_string().into()))
                            .collect::<Vec<_>>()
                            .into(),
                        ..SkillMeta::default()
                    },
                    files: vec![
                        compress("SKILL.md", md.into_bytes(), false),
                        compress("scripts/run.sh", run.as_bytes().to_vec(), true),
                    ],
                    ..PlanSkill::default()
                }
            })
            .collect(),
        ..Plan::default()
    };
    plan.skills.sort_by(|a, b| a.meta.name.cmp(&b.meta.name));
    plan.digest = manifest(&plan).digest;
    let bytes = write_pack(&plan, DosTime::EPOCH).expect("a pack of valid skills");
    Bundle::from_pack(&bytes, Trust::Unsigned).expect("its own pack")
}

fn templates() -> &'static Bundle {
    static BUNDLE: OnceLock<Bundle> = OnceLock::new();
    BUNDLE.get_or_init(|| {
        let skills: Vec<_> = TEMPLATES
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("t{i}"), t.body, t.rules, t.names))
            .collect();
        bundle(&skills)
    })
}

/// Activates `name` of `bundle` as `skb show --style claude-code
/// --run-commands` does, with `executor` running the commands.
fn activate(
    bundle: &Bundle,
    name: &str,
    arguments: &str,
    executor: &Recording,
) -> Result<String, String> {
    let skill = bundle.get(name).expect("a fuzz skill");
    let dir = format!("{ROOT}/{name}");
    let vars = vars(&dir);
    let policy = ToolPolicy::new(Mode::PreApprove);
    let rules: Vec<Rule> = skill
        .allowed_tools()
        .map(|r| Rule::expanded(r, &vars))
        .collect();
    policy.grant(name, rules.iter().map(Rule::as_tool_rule));
    let runner = PolicyRunner {
        policy: &policy,
        executor,
        base_dir: Some(&dir),
    };
    let mut options = Options::default()
        .with_arguments(arguments)
        .with_base_dir(&dir)
        .with_commands(&runner);
    options.session_id = vars.session_id;
    options.project_dir = vars.project_dir;
    skill
        .activate_with(&options)
        .map(|a| a.content)
        .map_err(|e| e.to_string())
}

fn vars(dir: &str) -> Vars<'_> {
    Vars {
        skill_dir: dir,
        session_id: Some("sid"),
        project_dir: Some("/p q"),
    }
}

/// The words (and operators) `words` stands for with these arguments.
fn expected(words: &[&[W]], arguments: &str, vars: &Vars<'_>) -> Vec<Tok> {
    let claude: Vec<String> = split_arguments(arguments)
        .iter()
        .map(|w| vars.expand(w))
        .collect();
    let value = |i: usize| claude.get(i).cloned().unwrap_or_default();
    let mut out = Vec::new();
    for word in words {
        match word {
            [Words] => out.extend(
                argument_words(arguments)
                    .iter()
                    .map(|w| Tok::Word(vars.expand(w))),
            ),
            [Opt(i)] => out.extend(Some(value(*i)).filter(|v| !v.is_empty()).map(Tok::Word)),
            [Op(op)] => out.push(Tok::Op(op.to_string())),
            parts => out.push(Tok::Word(
                parts
                    .iter()
                    .map(|p| match p {
                        T(t) => (*t).to_string(),
                        N(i) => value(*i),
                        Whole => vars.expand(arguments),
                        Words | Opt(_) | Op(_) => unreachable!("only alone in a word"),
                    })
                    .collect(),
            )),
        }
    }
    out
}

/// Only the words of `tokens` (an argv template has no operator).
fn argv(tokens: Vec<Tok>) -> Vec<String> {
    tokens
        .into_iter()
        .map(|t| match t {
            Tok::Word(w) => w,
            Tok::Op(op) => unreachable!("an operator `{op}` in an argv template"),
        })
        .collect()
}

/// A shell line's words and operators, read here without the crate's
/// lexer: blanks separate; `'…'` is literal; `"…"` is literal but for
/// `\"`, `\\`, `\$`, `` \` ``; `\` takes the next character; `;`, `|` and
/// `&&` are operators. `None` for anything else a shell would act on: an
/// unquoted or double-quoted `$` or backquote, another operator, a `#`
/// starting a word, a quote never closed.
fn read_shell(line: &str) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => out.extend(word.take().map(Tok::Word)),
            ';' | '|' => {
                out.extend(word.take().map(Tok::Word));
                out.push(Tok::Op(c.to_string()));
            }
            '&' if chars.next_if_eq(&'&').is_some() => {
                out.extend(word.take().map(Tok::Word));
                out.push(Tok::Op("&&".into()));
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => w.push(c),
                            c => {
                                w.push('\\');
                                w.push(c);
                            }
                        },
                        '$' | '`' => return None,
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).push(chars.next()?),
            '#' if word.is_none() => return None,
            '$' | '`' | '&' | '<' | '>' | '(' | ')' | '\n' | '\r' => return None,
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word.map(Tok::Word));
    Some(out)
}

fn check_template(index: usize, arguments: &str) {
    let template = &TEMPLATES[index];
    let name = format!("t{index}");
    let dir = format!("{ROOT}/{name}");
    let vars = vars(&dir);
    let executor = Recording::default();
    let result = activate(templates(), &name, arguments, &executor);
    let seen = executor
        .seen
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let claude = split_arguments(arguments);
    let mut want = Vec::new();
    let mut want_error = None;
    for expect in template.expect {
        match expect {
            Expect::Argv(words) => {
                want.push(Invocation::Argv(argv(expected(words, arguments, &vars))));
            }
            Expect::Shell(words) => {
                let Some([Invocation::Shell(line)]) = seen.get(want.len()..) else {
                    panic!("{name}: one shell line wanted: {seen:?} ({result:?})");
                };
                let read = read_shell(line);
                assert_eq!(
                    read,
                    Some(expected(words, arguments, &vars)),
                    "{name}: the shell line {line:?} is not the template's"
                );
                want.push(Invocation::Shell(line.clone()));
            }
            Expect::Unplaceable(i) => {
                if claude.get(*i).is_some_and(|v| !v.is_empty()) {
                    want_error = Some("cannot take its arguments as data");
                } else {
                    let Some([shell @ Invocation::Shell(_)]) = seen.get(want.len()..) else {
                        panic!("{name}: one shell line wanted: {seen:?} ({result:?})");
                    };
                    want.push(shell.clone());
                }
            }
            Expect::Refused => want_error = Some("was not allowed"),
        }
        if want_error.is_some() {
            break;
        }
    }
    assert_eq!(seen, want, "{name}: the commands run for {arguments:?}");
    match (want_error, &result) {
        (Some(e), Err(got)) => assert!(got.contains(e), "{name}: {got}"),
        (None, Ok(text)) => {
            if template.expect.is_empty() {
                // No command: the text is Claude Code's.
                let names = template
                    .names
                    .map(|_| vec!["who", "what"])
                    .unwrap_or_default();
                let body = claude_code::substitute_arguments(template.body, arguments, &names);
                let body = vars
                    .expand(&body)
                    .replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}");
                assert_eq!(
                    text,
                    &format!("Base directory for this skill: {dir}\n\n{body}")
                );
            }
        }
        (want, got) => panic!("{name}: wanted {want:?}, got {got:?}"),
    }
}

/// A body from the input too, under pattern rules only.
fn check_any_body(body: &str, arguments: &str) {
    let bundle = bundle(&[("fuzz".into(), body, PATTERN_RULES, None)]);
    let executor = Recording::default();
    let _ = activate(&bundle, "fuzz", arguments, &executor);
    let seen = executor
        .seen
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let Some(skill) = bundle.get("fuzz") else {
        return;
    };
    let Ok(raw) = skill.body() else { return };
    // As the activation reads it: the blanks after the frontmatter go.
    let raw = raw.trim_start_matches(is_js_whitespace);
    let written = commands::pieces(raw)
        .iter()
        .filter(|p| matches!(p, Piece::Command(_)))
        .count();
    assert!(
        seen.len() <= written,
        "{} commands run, {written} written: {seen:?}",
        seen.len()
    );
    for invocation in &seen {
        match invocation {
            Invocation::Argv(argv) => assert!(
                matches!(
                    argv.first().map(String::as_str),
                    Some("echo" | "printf" | "scripts/run.sh")
                ),
                "a program no rule names: {argv:?}"
            ),
            Invocation::Shell(line) => panic!("a shell under pattern rules: {line:?}"),
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    let Some((&selector, rest)) = bytes.split_first() else {
        return;
    };
    let index = usize::from(selector) % (TEMPLATES.len() + 1);
    if index < TEMPLATES.len() {
        check_template(index, &String::from_utf8_lossy(rest));
    } else {
        let (body, arguments) = match rest.iter().position(|&b| b == 0xff) {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, &[][..]),
        };
        check_any_body(
            &String::from_utf8_lossy(body),
            &String::from_utf8_lossy(arguments),
        );
    }
});

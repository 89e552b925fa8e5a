//! The security table: every way a model (or whoever writes its replies)
//! might try to get out of a skill, each row with the exact refusal it must
//! get.
//!
//! - **Path traversal through every read path**: `Skill::read`,
//!   `Skill::file`, `Session::read`, `call_tool("read_skill_resource")`,
//!   `<read_resource>` parsed from XML, and `skb read`; plus program paths
//!   that leave the skill through `run_skill_script` and `<execute_script>`.
//!   The contents of `/etc/passwd` never appear in any answer.
//! - **Command injection in arguments** (`;`, `&&`, `|`, backquotes, `$(…)`,
//!   redirections, newlines, quoting tricks, `${IFS}`, globs), through
//!   `run_skill_script` and `<execute_script>`, once under `Mode::Restrict`
//!   (the policy refuses) and once with the development override (the
//!   argument splitter refuses, or the text reaches the script as data). A
//!   marker file named inside each injection must never be created.
//! - **Tools outside `allowed-tools` under `Mode::Restrict`**: the PRD's
//!   exact message, deny rules beating grants and the override, `unload`
//!   revoking grants; through the session, function calls, XML and
//!   `skb run`.
//! - **Processes that outlive their script**: background and double-forked
//!   grandchildren, signal-ignoring ones, with the leader timing out or
//!   exiting at once; every one is gone after the run.
//! - **Output floods**: 200 MiB on each stream, capped with a marker, the
//!   test process's peak memory (`VmHWM`) growing far less than the flood.
//! - **A tampered cache**: symlinks planted in a materialised skill
//!   directory, files replaced by symlinks; files, directories, a FIFO or a
//!   `__pycache__` added to a materialised skill (a script one skill writes
//!   into another's directory ran there next time; a script writing into
//!   its own made every later run fail): each found before anything runs,
//!   the directory rebuilt from the bundle and the rebuild logged with the
//!   exact difference, through the executor, the function call and XML. A
//!   symlinked, foreign or writable cache root is refused with the exact
//!   `ExecError`, and left as found.
//! - **Timeouts past the clock**: `2^63` seconds and more overflowed the
//!   deadline after the spawn; refused before the run, through the library
//!   (blocking and async) and `--timeout` of `skb run` and `skb serve`.
//! - **Descriptors the caller left open**: a file opened without
//!   `O_CLOEXEC` by the agent (blocking and async runs) or inherited by
//!   `skb run` from its parent; a script starts with 0, 1 and 2 only.
//! - **Arguments through activation** (`` !`cmd` `` with
//!   `--run-commands`, issue 17): arguments a shell would read (`$0 $$
//!   $HOME`, `<(…)`, `$(…)`, quotes breaking out of the author's) under a
//!   pattern rule, a skill folder whose path holds a space beside a planted
//!   program, `` !`cmd` `` in the arguments, placeholders where no quoting
//!   is sure; through `Skill::activate_with` and `skb show`, each with
//!   its exact text or error, and again with `/bin/sh` bound to bash
//!   (`unshare -m`, run by `.ci/run`).
//!
//! Two rows guard bugs this table found: a first run right after
//! materialising failed with "Text file busy" while other threads spawned
//! processes (the executor now retries `ETXTBSY`), and one active skill's
//! grant let `run_skill_script` run a skill that was never activated (a run
//! now needs its own skill active). One ignored test keeps a documented
//! limit visible: a grandchild that calls `setsid` escapes the
//! process-group kill.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Output as ProcessOutput;
use std::time::{Duration, Instant};

use crate::{skills, skills_bin};
use skills_bundle::exec::{
    Command, DEFAULT_MAX_OUTPUT, ExecError, LocalExecutor, MAX_TIMEOUT, Output, ScriptExecutor,
    cache_dir_name,
};
use skills_bundle::protocol::{self, Instruction, escape};
use skills_bundle::session::{READ, RUN, Session, SessionError};
use skills_bundle::{Bundle, Decision, Mode, ReadError, Skill, skills_bundle};
use skills_core::tools::rule;
use skills_tests::{each_row, each_row_on, tempdir, workspace};

static S: Bundle = skills_bundle!("../tests/fixtures/security-skills");

/// The example skills users start from.
static EXAMPLES: Bundle = skills_bundle!("../skills");

/// The fixture skills, relative to the workspace root (for the CLI).
const FIXTURES: &str = "tests/fixtures/security-skills";

/// Every file of the `probe` skill, as `NotFound` lists them.
const PROBE_FILES: &str = "SKILL.md, references/notes.md, scripts/argv.py, scripts/argv.sh";

/// `Mode::Restrict`'s refusal while `probe` is the restricting skill.
const NOT_ALLOWED_PROBE: &str = "Tool 'Bash' not allowed for skill 'probe'. Allowed tools: \
    ['Read', 'Bash(./scripts/argv.sh:*)', 'Bash(python3 scripts/argv.py:*)']";

/// Likewise for `procs`.
const NOT_ALLOWED_PROCS: &str =
    "Tool 'Bash' not allowed for skill 'procs'. Allowed tools: ['Bash(./scripts/*)']";

// The reasons a path is refused (`PathError`'s messages, written out).
const ABSOLUTE: &str = "the path is absolute; paths are relative to the skill directory";
const PARENT: &str = "the path contains `..`; it may not leave the skill directory";
const BACKSLASH: &str = "the path contains `\\`; use `/` as the separator";
const CONTROL: &str = "the path contains a control character";
const EMPTY: &str = "the path is empty";
const EMPTY_COMPONENT: &str = "the path contains an empty component (`//`)";

// ---------------------------------------------------------------------------
// Shared helpers.

fn skill(name: &str) -> Skill<'static> {
    S.get(name)
        .unwrap_or_else(|| panic!("fixture skill `{name}`"))
}

/// A `Mode::Restrict` session whose cache lives under `cache`, with
/// `active` activated in order.
fn session(cache: &Path, active: &[&str]) -> Session<LocalExecutor> {
    let s = Session::new(&S, LocalExecutor::new(cache.join("cache")), Mode::Restrict);
    for name in active {
        s.activate(name, "").unwrap();
    }
    s
}

/// A line of `/etc/passwd` that must never reach the model, if the file
/// exists; else a line that looks like one.
fn passwd_line() -> String {
    fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|t| t.lines().find(|l| l.contains(':')).map(str::to_string))
        .unwrap_or_else(|| "root:x:0:0:".to_string())
}

fn assert_no_leak(row: &str, entry: &str, text: &str) {
    let line = passwd_line();
    assert!(
        !text.contains(&line) && !text.contains("root:x:0:0"),
        "[{row}] via {entry}: the contents of /etc/passwd leaked:\n{text}"
    );
}

/// The reply to one XML instruction written in `reply`: it must parse as
/// exactly `expected`.
fn handle_xml(
    session: &Session<LocalExecutor>,
    reply: &str,
    expected: &Instruction,
    row: &str,
) -> String {
    let parsed = protocol::parse(reply);
    assert_eq!(
        parsed.as_slice(),
        std::slice::from_ref(expected),
        "[{row}] the XML did not carry the input unchanged"
    );
    session.handle_xml(&parsed[0])
}

/// A session's answer as the model reads it: the result, or the error's
/// text.
fn model_text<T>(answer: Result<T, SessionError>) -> Result<T, String> {
    answer.map_err(|e| e.to_string())
}

/// `{"skill": …, key: …}` as JSON.
fn json_args(skill: &str, key: &str, value: &str) -> String {
    serde_json::json!({ "skill": skill, key: value }).to_string()
}

/// Materialises `name` under `cache_root` and runs `argv` there once, so
/// the sessions of a test start from a materialised cache.
fn settle(cache_root: &Path, name: &str, argv: &[&str]) {
    let out = LocalExecutor::new(cache_root)
        .run(&skill(name), &Command::argv(argv.iter().copied()))
        .unwrap();
    assert!(out.success(), "settling {name}: {out:?}");
}

/// `<script_result>` as `Session::handle` writes it for a clean exit.
fn xml_result(stdout: &str) -> String {
    protocol::wrap_script_result(Some(0), stdout, "")
}

// ---------------------------------------------------------------------------
// 1. Path traversal through every read path.

/// What a read of one path must give.
#[derive(Debug, Clone)]
enum ReadExpect {
    /// The file at this normal path (a control row: normalising is no bypass).
    Reads(&'static str),
    /// `ReadError::BadPath` with this reason.
    Bad(&'static str),
    /// `ReadError::NotFound` for this normalised path (nothing is decoded).
    NotFound(String),
}

#[derive(Debug, Clone)]
struct ReadCase {
    attack: &'static str,
    path: String,
    expect: ReadExpect,
    /// The exact XML reply when it is not the usual `<resource_error>` (an
    /// empty path is not even an instruction).
    xml: Option<&'static str>,
}

fn read_cases() -> Vec<ReadCase> {
    use ReadExpect::{Bad, NotFound, Reads};
    let row = |attack, path: &str, expect| ReadCase {
        attack,
        path: path.to_string(),
        expect,
        xml: None,
    };
    let long_ok = "a/".repeat(20_000) + "x";
    let long_up = "../".repeat(10_000) + "etc/passwd";
    let long_down_up = "a/".repeat(10_000) + &"../".repeat(10_001) + "etc/passwd";
    vec![
        row(
            "control: a plain file",
            "references/notes.md",
            Reads("references/notes.md"),
        ),
        row(
            "control: `./` is normalised away",
            "./references/./notes.md",
            Reads("references/notes.md"),
        ),
        row("parent directory", "../x", Bad(PARENT)),
        row(
            "parent into a sibling skill",
            "../procs/SKILL.md",
            Bad(PARENT),
        ),
        row("down then up past the root", "a/../../x", Bad(PARENT)),
        row(
            "up from scripts/ to the bundle",
            "scripts/../../SKILL.md",
            Bad(PARENT),
        ),
        row(
            "up and back in (still `..`)",
            "scripts/../SKILL.md",
            Bad(PARENT),
        ),
        row("bare `..`", "..", Bad(PARENT)),
        row("absolute path", "/etc/passwd", Bad(ABSOLUTE)),
        row("double-slash absolute", "//etc/passwd", Bad(ABSOLUTE)),
        row("root itself", "/", Bad(ABSOLUTE)),
        row("drive letter, backslash", "C:\\x", Bad(ABSOLUTE)),
        row("drive letter, slash", "C:/Windows/win.ini", Bad(ABSOLUTE)),
        row("backslash traversal", "x\\..\\..\\y", Bad(BACKSLASH)),
        row("UNC path", "\\\\server\\share\\x", Bad(BACKSLASH)),
        row(
            "percent-encoded dots are not decoded",
            "%2e%2e/x",
            NotFound("%2e%2e/x".into()),
        ),
        row(
            "percent-encoded slash is not decoded",
            "..%2fSKILL.md",
            NotFound("..%2fSKILL.md".into()),
        ),
        row(
            "overlong-UTF-8 style escape",
            "..%c0%af..%c0%afetc/passwd",
            NotFound("..%c0%af..%c0%afetc/passwd".into()),
        ),
        row(
            "fullwidth dots are not dots",
            "\u{ff0e}\u{ff0e}/x",
            NotFound("\u{ff0e}\u{ff0e}/x".into()),
        ),
        row(
            "division slash is not a slash",
            "..\u{2215}..\u{2215}etc",
            NotFound("..\u{2215}..\u{2215}etc".into()),
        ),
        row("URL scheme", "file:///etc/passwd", Bad(EMPTY_COMPONENT)),
        row(
            "skill URL of another skill",
            "skill://procs/SKILL.md",
            Bad(EMPTY_COMPONENT),
        ),
        row(
            "home directory",
            "~/.ssh/id_rsa",
            NotFound("~/.ssh/id_rsa".into()),
        ),
        row("NUL truncation", "SKILL.md\0.png", Bad(CONTROL)),
        row(
            "NUL after traversal (control characters are checked first)",
            "../\0",
            Bad(CONTROL),
        ),
        row("NUL alone", "\0", Bad(CONTROL)),
        row("C1 control", "SKILL\u{85}.md", Bad(CONTROL)),
        row("newline", "SKILL.md\n../x", Bad(CONTROL)),
        row("dot", ".", Bad(EMPTY)),
        row("dot slash", "./", Bad(EMPTY)),
        row("empty component", "scripts//argv.sh", Bad(EMPTY_COMPONENT)),
        row(
            "a directory, not a file",
            "scripts/",
            NotFound("scripts".into()),
        ),
        row("very long path", &long_ok, NotFound(long_ok.clone())),
        row("very long climb", &long_up, Bad(PARENT)),
        row(
            "very long, down then further up",
            &long_down_up,
            Bad(PARENT),
        ),
        ReadCase {
            attack: "empty",
            path: String::new(),
            expect: Bad(EMPTY_COMPONENT),
            xml: Some(
                "<instruction_error>`&lt;read_resource&gt;` could not be read: empty</instruction_error>",
            ),
        },
    ]
}

impl ReadCase {
    /// `ReadError`'s message.
    fn read_error(&self) -> Option<String> {
        match &self.expect {
            ReadExpect::Reads(_) => None,
            ReadExpect::Bad(reason) => Some(format!("cannot read `{}`: {reason}", self.path)),
            ReadExpect::NotFound(normal) => Some(format!(
                "no file `{normal}` in this skill; available: {PROBE_FILES}"
            )),
        }
    }

    /// `Session::read`'s (and `read_skill_resource`'s) error.
    fn session_error(&self) -> Option<String> {
        let e = self.read_error()?;
        Some(match self.expect {
            ReadExpect::Bad(_) => format!("Illegal path: {e}"),
            _ => e,
        })
    }

    /// What the session answers: the file's text, or the error's.
    fn answer(&self) -> Result<String, String> {
        self.content().ok_or_else(|| self.session_error().unwrap())
    }

    fn content(&self) -> Option<String> {
        match self.expect {
            ReadExpect::Reads(normal) => Some(
                fs::read_to_string(workspace().join(FIXTURES).join("probe").join(normal)).unwrap(),
            ),
            _ => None,
        }
    }
}

#[test]
fn path_traversal_through_every_read_path() {
    let tmp = tempdir();
    let session = session(tmp.path(), &[]);
    let probe = skill("probe");
    each_row(
        read_cases(),
        |case| case.attack.to_string(),
        |case| read_through_every_entry(&session, &probe, case),
    );
}

/// One row of [`read_cases`] through `Skill::read`, `Skill::file`,
/// `Session::read`, the function call and `<read_resource>`.
fn read_through_every_entry(session: &Session<LocalExecutor>, probe: &Skill<'_>, case: &ReadCase) {
    read_through_the_skill(probe, case);
    read_through_the_session(session, case);
    read_through_xml(session, case);
}

/// `Skill::read` and `Skill::file`.
fn read_through_the_skill(probe: &Skill<'_>, case: &ReadCase) {
    let row = case.attack;
    let path = case.path.as_str();
    let content = case.content();
    match (probe.read(path), &case.expect) {
        (Ok(bytes), ReadExpect::Reads(_)) => {
            assert_eq!(
                Some(String::from_utf8_lossy(bytes).into_owned()),
                content,
                "[{row}]"
            );
        }
        (Err(e), ReadExpect::Bad(_)) => {
            assert!(matches!(e, ReadError::BadPath { .. }), "[{row}] {e:?}");
            assert_eq!(
                Some(e.to_string()),
                case.read_error(),
                "[{row}] Skill::read"
            );
        }
        (Err(e), ReadExpect::NotFound(normal)) => {
            assert!(
                matches!(&e, ReadError::NotFound { path: p, .. } if p == normal),
                "[{row}] {e:?}"
            );
            assert_eq!(
                Some(e.to_string()),
                case.read_error(),
                "[{row}] Skill::read"
            );
        }
        (other, _) => panic!("[{row}] Skill::read gave {other:?}"),
    }
    match probe.file(path) {
        Ok(file) => match case.expect {
            ReadExpect::Reads(normal) => assert_eq!(file.path(), normal, "[{row}]"),
            _ => panic!("[{row}] Skill::file found `{}`", file.path()),
        },
        Err(e) => assert_eq!(
            Some(e.to_string()),
            case.read_error(),
            "[{row}] Skill::file"
        ),
    }
}

/// `Session::read` and the function call `read_skill_resource`.
fn read_through_the_session(session: &Session<LocalExecutor>, case: &ReadCase) {
    let row = case.attack;
    let path = case.path.as_str();
    let expected = case.answer();
    let got = session.read("probe", path);
    match (&got, &case.expect) {
        (Ok(_), ReadExpect::Reads(_))
        | (Err(SessionError::Read(ReadError::BadPath { .. })), ReadExpect::Bad(_))
        | (Err(SessionError::Read(ReadError::NotFound { .. })), ReadExpect::NotFound(_)) => {}
        (other, _) => panic!("[{row}] Session::read gave {other:?}"),
    }
    let got = model_text(got);
    assert_eq!(got, expected, "[{row}] Session::read");
    assert_no_leak(row, "Session::read", got.as_ref().unwrap_or_else(|e| e));
    let got = model_text(session.call_tool(READ, &json_args("probe", "path", path)));
    assert_eq!(got, expected, "[{row}] call_tool({READ})");
    assert_no_leak(row, READ, got.as_ref().unwrap_or_else(|e| e));
}

/// The XML instruction `<read_resource>`, parsed from a model's reply.
fn read_through_xml(session: &Session<LocalExecutor>, case: &ReadCase) {
    let row = case.attack;
    let path = case.path.as_str();
    let expected = case.answer();
    let reply = format!(
        "Let me look.\n<read_resource skill=\"probe\">{}</read_resource>",
        escape(path, false)
    );
    let xml = match (&case.xml, &expected) {
        (Some(exact), _) => {
            let parsed = protocol::parse(&reply);
            assert_eq!(parsed.len(), 1, "[{row}] {parsed:?}");
            assert_eq!(
                session.handle_xml(&parsed[0]),
                *exact,
                "[{row}] <read_resource>"
            );
            exact.to_string()
        }
        (None, result) => {
            let instruction = Instruction::ReadResource {
                skill: "probe".into(),
                path: path.into(),
            };
            let got = handle_xml(session, &reply, &instruction, row);
            let want = match result {
                Ok(text) => protocol::wrap_resource_content(path, text),
                Err(e) => format!("<resource_error>{}</resource_error>", escape(e, false)),
            };
            assert_eq!(got, want, "[{row}] <read_resource>");
            got
        }
    };
    assert_no_leak(row, "<read_resource>", &xml);
}

/// `skb read NAME PATH`: the same refusals, on stderr with status 1 and
/// nothing on stdout. (A NUL byte cannot be passed as an argument at all.)
#[test]
fn path_traversal_through_skills_read() {
    let cases = read_cases().into_iter().filter(|c| !c.path.contains('\0'));
    each_row_on(
        4,
        cases,
        |case| case.attack.to_string(),
        |case| {
            let row = case.attack;
            let out = skills()
                .current_dir(workspace())
                .args(["read", "probe", &case.path, "--from", FIXTURES])
                .output()
                .unwrap();
            let (stdout, stderr) = texts(&out);
            assert_no_leak(row, "skb read", &stdout);
            assert_no_leak(row, "skb read", &stderr);
            match (case.content(), case.read_error()) {
                (Some(content), _) => {
                    assert_eq!((out.status.code(), stdout), (Some(0), content), "[{row}]");
                }
                (None, Some(e)) => {
                    assert_eq!(
                        (out.status.code(), stdout.as_str(), stderr),
                        (Some(1), "", format!("skb: {e}\n")),
                        "[{row}] skb read"
                    );
                }
                (None, None) => unreachable!(),
            }
        },
    );
}

fn texts(out: &ProcessOutput) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// XML-only tricks: entities, fences, the `skill` attribute.
#[test]
fn path_traversal_through_xml_tricks() {
    let tmp = tempdir();
    let session = session(tmp.path(), &[]);
    each_row(
        XML_CASES,
        |case| case.attack.to_string(),
        |case| {
            let got: Vec<String> = protocol::parse(case.reply)
                .iter()
                .map(|i| session.handle_xml(i))
                .collect();
            assert_eq!(got.len(), case.replies.len(), "[{}] {got:?}", case.attack);
            for (got, want) in got.iter().zip(case.replies) {
                assert_no_leak(case.attack, "XML", got);
                if want.starts_with("<resource_content") {
                    assert!(got.starts_with(want), "[{}] {got}", case.attack);
                } else {
                    assert_eq!(got, want, "[{}]", case.attack);
                }
            }
        },
    );
}

/// A model's reply and the answers to the instructions in it.
struct XmlCase {
    attack: &'static str,
    reply: &'static str,
    replies: &'static [&'static str],
}
const XML_CASES: &[XmlCase] = &[
    XmlCase {
        attack: "entity-encoded dots are decoded, then refused",
        reply: "<read_resource skill=\"probe\">&#46;&#46;/&#x2E;&#x2e;/etc/passwd</read_resource>",
        replies: &[
            "<resource_error>Illegal path: cannot read `../../etc/passwd`: the path contains `..`; it may not leave the skill directory</resource_error>",
        ],
    },
    XmlCase {
        attack: "entity-encoded NUL",
        reply: "<read_resource skill=\"probe\">SKILL.md&#0;.png</read_resource>",
        replies: &[
            "<resource_error>Illegal path: cannot read `SKILL.md\0.png`: the path contains a control character</resource_error>",
        ],
    },
    XmlCase {
        attack: "traversal in the skill attribute",
        reply: "<read_resource skill=\"../probe\">SKILL.md</read_resource>",
        replies: &[
            "<resource_error>no skill `../probe`; available: free, probe, procs, writer</resource_error>",
        ],
    },
    XmlCase {
        attack: "absolute skill attribute",
        reply: "<read_resource skill='/etc'>passwd</read_resource>",
        replies: &[
            "<resource_error>no skill `/etc`; available: free, probe, procs, writer</resource_error>",
        ],
    },
    XmlCase {
        attack: "a quoted example is not an instruction",
        reply: "Never do this:\n```\n<read_resource skill=\"probe\">/etc/passwd</read_resource>\n```\n",
        replies: &[],
    },
    XmlCase {
        attack: "unknown entity",
        reply: "<read_resource skill=\"probe\">&passwd;</read_resource>",
        replies: &[
            "<instruction_error>`&lt;read_resource&gt;` could not be read: the text has an unknown or unterminated `&amp;` reference</instruction_error>",
        ],
    },
    XmlCase {
        attack: "one good read, then a traversal",
        reply: "<read_resource skill=\"probe\">SKILL.md</read_resource><read_resource skill=\"probe\">../../../../etc/passwd</read_resource>",
        replies: &[
            "<resource_content path=\"SKILL.md\">",
            "<resource_error>Illegal path: cannot read `../../../../etc/passwd`: the path contains `..`; it may not leave the skill directory</resource_error>",
        ],
    },
];
/// Program paths that leave the skill, through `run_skill_script` and
/// `<execute_script>`: the glob grant `Bash(./scripts/*)` lets
/// `./scripts/../..` past the policy, and the executor refuses it; with the
/// development override, the executor is the only guard.
#[test]
fn program_paths_stay_inside_the_skill() {
    let tmp = tempdir();
    each_row(
        PROGRAM_CASES.iter().enumerate(),
        |(_, case)| case.attack.to_string(),
        |&(i, case)| run_a_program_path(tmp.path(), i, case),
    );
}

#[derive(Clone, Copy)]
enum Grant {
    /// `procs` active: `Bash(./scripts/*)`.
    Glob,
    /// `procs` active and the development override on.
    Override,
}

/// A program path and its refusal.
struct ProgramCase {
    attack: &'static str,
    grant: Grant,
    /// `{M}`: a marker file that must not be created.
    command: &'static str,
    /// `{D}`: the skill's cache directory.
    refusal: &'static str,
}
const PROGRAM_CASES: &[ProgramCase] = {
    use Grant::{Glob, Override};
    &[
        ProgramCase {
            attack: "`..` after a granted prefix",
            grant: Glob,
            command: "./scripts/../../../bin/sh -c 'touch {M}'",
            refusal: "bad path `./scripts/../../../bin/sh`: the path contains `..`; it may not leave the skill directory",
        },
        ProgramCase {
            attack: "`..` back into the skill",
            grant: Glob,
            command: "./scripts/../SKILL.md",
            refusal: "bad path `./scripts/../SKILL.md`: the path contains `..`; it may not leave the skill directory",
        },
        ProgramCase {
            attack: "percent-encoded `..` is a plain (missing) name",
            grant: Glob,
            command: "./scripts/%2e%2e/%2e%2e/bin/sh",
            refusal: "cannot run `{D}/scripts/%2e%2e/%2e%2e/bin/sh`: No such file or directory (os error 2)",
        },
        ProgramCase {
            attack: "absolute program, not granted",
            grant: Glob,
            command: "/bin/sh -c 'touch {M}'",
            refusal: NOT_ALLOWED_PROCS,
        },
        ProgramCase {
            attack: "absolute program",
            grant: Override,
            command: "/bin/sh -c 'touch {M}'",
            refusal: "bad path `/bin/sh`: the path is absolute; paths are relative to the skill directory",
        },
        ProgramCase {
            attack: "relative climb to /bin/sh",
            grant: Override,
            command: "../../bin/sh -c 'touch {M}'",
            refusal: "bad path `../../bin/sh`: the path contains `..`; it may not leave the skill directory",
        },
        ProgramCase {
            attack: "climb hidden behind `./`",
            grant: Override,
            command: "./scripts/./../../bin/sh -c 'touch {M}'",
            refusal: "bad path `./scripts/./../../bin/sh`: the path contains `..`; it may not leave the skill directory",
        },
        ProgramCase {
            attack: "drive letter",
            grant: Override,
            command: "C:/Windows/System32/cmd.exe /c echo",
            refusal: "bad path `C:/Windows/System32/cmd.exe`: the path is absolute; paths are relative to the skill directory",
        },
        ProgramCase {
            attack: "URL",
            grant: Override,
            command: "file:///bin/sh -c 'touch {M}'",
            refusal: "bad path `file:///bin/sh`: the path contains an empty component (`//`)",
        },
        ProgramCase {
            attack: "backslash path is one (missing) program name",
            grant: Override,
            command: "'x\\..\\..\\bin\\sh' -c 'touch {M}'",
            refusal: "cannot run `x\\..\\..\\bin\\sh`: No such file or directory (os error 2)",
        },
        ProgramCase {
            attack: "NUL in the program path",
            grant: Override,
            command: "'scripts/flood.sh\0' 1 1",
            refusal: "bad path `scripts/flood.sh\0`: the path contains a control character",
        },
        ProgramCase {
            attack: "empty program",
            grant: Override,
            command: "'' -c 'touch {M}'",
            refusal: "empty command: no program given",
        },
    ]
};

/// Runs row `i` through `Session::run`, the function call and
/// `<execute_script>`, with `procs` active, its cache under `tmp`, and a
/// marker file of its own.
fn run_a_program_path(tmp: &Path, i: usize, case: &ProgramCase) {
    let marker = tmp.join(format!("pwned-{i}"));
    let m = marker.to_str().unwrap();
    let dir = tmp.join("cache").join(cache_dir_name(&skill("procs")));
    let d = dir.to_str().unwrap();
    let row = case.attack;
    let session = session(tmp, &["procs"]);
    if let Grant::Override = case.grant {
        session.policy().allow_all(true);
    }
    let command = case.command.replace("{M}", m);
    let refusal = case.refusal.replace("{D}", d);
    let run = session.run("procs", &command);
    assert!(
        matches!(
            run,
            Err(SessionError::Restricted(_)
                | SessionError::Exec(
                    ExecError::BadPath { .. } | ExecError::Spawn { .. } | ExecError::EmptyCommand
                ))
        ),
        "[{row}] Session::run gave {run:?}"
    );
    assert_eq!(
        model_text(run),
        Err(refusal.clone()),
        "[{row}] Session::run"
    );
    assert_eq!(
        model_text(session.call_tool(RUN, &json_args("procs", "command", &command))),
        Err(refusal.clone()),
        "[{row}] call_tool({RUN})"
    );
    let reply = format!(
        "<execute_script skill=\"procs\">{}</execute_script>",
        escape(&command, false)
    );
    let instruction = Instruction::ExecuteScript {
        skill: "procs".into(),
        command: command.clone(),
    };
    assert_eq!(
        handle_xml(&session, &reply, &instruction, row),
        format!("<script_error>{}</script_error>", escape(&refusal, false)),
        "[{row}] <execute_script>"
    );
    assert!(!marker.exists(), "[{row}] the injected command ran");
}

// ---------------------------------------------------------------------------
// 2. Command injection in arguments.

/// What one command line must give.
#[derive(Debug, Clone, Copy)]
enum Run {
    /// Refused with this exact message (`{M}` is the marker path).
    Refused(&'static str),
    /// Refused by the argument splitter: shell syntax `char` at byte `usize`.
    Syntax(char, usize),
    /// Ran, and the script received exactly these arguments.
    Data(&'static [&'static str]),
}

struct InjectionCase {
    attack: &'static str,
    /// `{M}` is replaced by a marker file's path, which must never exist.
    command: &'static str,
    /// With `probe` active under `Mode::Restrict`.
    restricted: Run,
    /// With the development override on as well (only the splitter and the
    /// absence of a shell stand in the way); `None` where the row is not
    /// repeated: the override allows any program by design, and the Python
    /// rows run once (the interpreter is slow to start).
    overridden: Option<Run>,
}

const INJECTIONS: &[InjectionCase] = {
    use Run::{Data, Refused, Syntax};
    const R: Run = Refused(NOT_ALLOWED_PROBE);
    &[
        InjectionCase {
            attack: "control: plain arguments",
            command: "./scripts/argv.sh a b",
            restricted: Data(&["a", "b"]),
            overridden: Some(Data(&["a", "b"])),
        },
        InjectionCase {
            attack: "`;` sequence",
            command: "./scripts/argv.sh x; touch {M}",
            restricted: R,
            overridden: Some(Syntax(';', 19)),
        },
        InjectionCase {
            attack: "`;` without spaces",
            command: "./scripts/argv.sh x;touch {M}",
            restricted: R,
            overridden: Some(Syntax(';', 19)),
        },
        InjectionCase {
            attack: "`&&` chain",
            command: "./scripts/argv.sh x && touch {M}",
            restricted: R,
            overridden: Some(Syntax('&', 20)),
        },
        InjectionCase {
            attack: "`||` chain",
            command: "./scripts/argv.sh x || touch {M}",
            restricted: R,
            overridden: Some(Syntax('|', 20)),
        },
        InjectionCase {
            attack: "`|` pipe",
            command: "./scripts/argv.sh x | touch {M}",
            restricted: R,
            overridden: Some(Syntax('|', 20)),
        },
        InjectionCase {
            attack: "`&` background",
            command: "./scripts/argv.sh x & touch {M}",
            restricted: R,
            overridden: Some(Syntax('&', 20)),
        },
        InjectionCase {
            attack: "backquotes",
            command: "./scripts/argv.sh `touch {M}`",
            restricted: R,
            overridden: Some(Syntax('`', 18)),
        },
        InjectionCase {
            attack: "`$(…)`",
            command: "./scripts/argv.sh $(touch {M})",
            restricted: R,
            overridden: Some(Syntax('$', 18)),
        },
        InjectionCase {
            attack: "`$(…)` in double quotes",
            command: "./scripts/argv.sh \"$(touch {M})\"",
            restricted: R,
            overridden: Some(Syntax('$', 19)),
        },
        InjectionCase {
            attack: "backquotes in double quotes",
            command: "./scripts/argv.sh \"`touch {M}`\"",
            restricted: R,
            overridden: Some(Syntax('`', 19)),
        },
        InjectionCase {
            attack: "`>` redirection",
            command: "./scripts/argv.sh x > {M}",
            restricted: R,
            overridden: Some(Syntax('>', 20)),
        },
        InjectionCase {
            attack: "`>>` redirection without spaces",
            command: "./scripts/argv.sh x>>{M}",
            restricted: R,
            overridden: Some(Syntax('>', 19)),
        },
        InjectionCase {
            attack: "`<` redirection",
            command: "./scripts/argv.sh < /etc/passwd",
            restricted: R,
            overridden: Some(Syntax('<', 18)),
        },
        InjectionCase {
            attack: "newline",
            command: "./scripts/argv.sh x\ntouch {M}",
            restricted: R,
            overridden: Some(Syntax('\n', 19)),
        },
        InjectionCase {
            attack: "carriage return",
            command: "./scripts/argv.sh x\rtouch {M}",
            restricted: R,
            overridden: Some(Syntax('\r', 19)),
        },
        InjectionCase {
            attack: "subshell",
            command: "./scripts/argv.sh (touch {M})",
            restricted: R,
            overridden: Some(Syntax('(', 18)),
        },
        InjectionCase {
            attack: "`${IFS}` as a separator",
            command: "./scripts/argv.sh${IFS}x;touch${IFS}{M}",
            restricted: R,
            overridden: Some(Syntax('$', 17)),
        },
        InjectionCase {
            attack: "`${IFS}` after a space",
            command: "./scripts/argv.sh ${IFS}touch${IFS}{M}",
            restricted: R,
            overridden: Some(Syntax('$', 18)),
        },
        InjectionCase {
            attack: "variable expansion",
            command: "./scripts/argv.sh $HOME",
            restricted: R,
            overridden: Some(Syntax('$', 18)),
        },
        InjectionCase {
            attack: "comment hides the rest",
            command: "./scripts/argv.sh #x",
            restricted: R,
            overridden: Some(Syntax('#', 18)),
        },
        InjectionCase {
            attack: "single-quoted `;` is data",
            command: "./scripts/argv.sh 'x; touch {M}'",
            restricted: Data(&["x; touch {M}"]),
            overridden: Some(Data(&["x; touch {M}"])),
        },
        InjectionCase {
            attack: "single-quoted `$(…)` is data",
            command: "./scripts/argv.sh '$(touch {M})'",
            restricted: Data(&["$(touch {M})"]),
            overridden: Some(Data(&["$(touch {M})"])),
        },
        InjectionCase {
            attack: "breaking out of single quotes",
            command: "./scripts/argv.sh 'x'\\''; touch {M}; '\\'''",
            restricted: Data(&["x'; touch {M}; '"]),
            overridden: Some(Data(&["x'; touch {M}; '"])),
        },
        InjectionCase {
            attack: "breaking out of double quotes",
            command: "./scripts/argv.sh \"x\\\"; touch {M}; \\\"\"",
            restricted: Data(&["x\"; touch {M}; \""]),
            overridden: Some(Data(&["x\"; touch {M}; \""])),
        },
        InjectionCase {
            attack: "escaped `;` is data",
            command: "./scripts/argv.sh \\; touch {M}",
            restricted: Data(&[";", "touch", "{M}"]),
            overridden: Some(Data(&[";", "touch", "{M}"])),
        },
        InjectionCase {
            attack: "unclosed quote",
            command: "./scripts/argv.sh 'x",
            restricted: R,
            overridden: Some(Refused("the quote `'` at byte 18 is never closed")),
        },
        InjectionCase {
            attack: "trailing backslash",
            command: "./scripts/argv.sh x\\",
            restricted: R,
            overridden: Some(Refused("the line ends with a lone `\\`")),
        },
        InjectionCase {
            attack: "single-quoted `${IFS}` is data",
            command: "./scripts/argv.sh '${IFS}' '$HOME'",
            restricted: Data(&["${IFS}", "$HOME"]),
            overridden: Some(Data(&["${IFS}", "$HOME"])),
        },
        InjectionCase {
            attack: "glob is not expanded",
            command: "./scripts/argv.sh * /etc/* ~/.ssh/*",
            restricted: Data(&["*", "/etc/*", "~/.ssh/*"]),
            overridden: Some(Data(&["*", "/etc/*", "~/.ssh/*"])),
        },
        InjectionCase {
            attack: "another program",
            command: "sh -c 'touch {M}'",
            restricted: R,
            overridden: None,
        },
        InjectionCase {
            attack: "environment assignment prefix",
            command: "PATH=/tmp ./scripts/argv.sh x",
            restricted: R,
            overridden: None,
        },
        InjectionCase {
            attack: "python: code and `-c` after the script are strings",
            command: "python3 scripts/argv.py -c '__import__(\"os\").system(\"touch {M}\")'",
            restricted: Data(&["-c", "__import__(\"os\").system(\"touch {M}\")"]),
            overridden: None,
        },
        InjectionCase {
            attack: "python: `-c` before the script",
            command: "python3 -c 'open(\"{M}\", \"w\")' scripts/argv.py",
            restricted: R,
            overridden: None,
        },
        InjectionCase {
            attack: "python: quoted `;`",
            command: "python3 scripts/argv.py 'x; touch {M}'",
            restricted: Data(&["x; touch {M}"]),
            overridden: None,
        },
    ]
};

impl Run {
    /// The exact answer of `call_tool(RUN)`: text or error.
    fn tool_answer(self, m: &str) -> Result<String, String> {
        match self {
            Run::Refused(e) => Err(e.replace("{M}", m)),
            Run::Syntax(c, at) => Err(format!(
                "shell syntax `{}` at byte {at} is not supported without a shell; quote it with '…' to pass it literally",
                c.escape_default()
            )),
            Run::Data(args) => Ok(format!("exit code: 0\n{}", Self::stdout(args, m))),
        }
    }

    fn stdout(args: &[&str], m: &str) -> String {
        args.iter()
            .map(|a| format!("<{}>\n", a.replace("{M}", m)))
            .collect()
    }

    /// The exact answer of `Session::handle(<execute_script>)`.
    fn xml_answer(self, m: &str) -> String {
        match (self, self.tool_answer(m)) {
            (Run::Data(args), _) => xml_result(&Self::stdout(args, m)),
            (_, Err(e)) => format!("<script_error>{}</script_error>", escape(&e, false)),
            (_, Ok(_)) => unreachable!(),
        }
    }
}

#[test]
fn command_injection_in_arguments() {
    let tmp = tempdir();
    settle(&tmp.path().join("cache"), "probe", &["./scripts/argv.sh"]);
    let restricted = session(tmp.path(), &["probe"]);
    let overridden = session(tmp.path(), &["probe"]);
    overridden.policy().allow_all(true);
    // Each row once under `Mode::Restrict`, and once more with the
    // override where it is repeated.
    let rows = INJECTIONS.iter().enumerate().flat_map(|(i, case)| {
        [
            ("Restrict", &restricted, Some(case.restricted)),
            ("override", &overridden, case.overridden),
        ]
        .into_iter()
        .filter_map(move |(layer, session, expect)| Some((i, case, layer, session, expect?)))
    });
    each_row(
        rows,
        |(_, case, layer, _, _)| format!("{} / {layer}", case.attack),
        |&(i, case, layer, session, expect)| {
            let marker = tmp.path().join(format!("pwned-{i}-{layer}"));
            inject(
                session,
                case,
                expect,
                &marker,
                &format!("{} / {layer}", case.attack),
            );
        },
    );
}

/// Runs `case` through the function call and `<execute_script>` of
/// `session`: exactly `expect`, and `marker` never created.
fn inject(
    session: &Session<LocalExecutor>,
    case: &InjectionCase,
    expect: Run,
    marker: &Path,
    row: &str,
) {
    let m = marker.to_str().unwrap();
    let command = case.command.replace("{M}", m);
    let got = model_text(session.call_tool(RUN, &json_args("probe", "command", &command)));
    assert_eq!(got, expect.tool_answer(m), "[{row}] call_tool({RUN})");
    assert_no_leak(row, RUN, got.as_ref().unwrap_or_else(|e| e));
    let reply = format!(
        "<execute_script skill=\"probe\">{}</execute_script>",
        escape(&command, false)
    );
    let instruction = Instruction::ExecuteScript {
        skill: "probe".into(),
        command: command.clone(),
    };
    let got = handle_xml(session, &reply, &instruction, row);
    assert_eq!(got, expect.xml_answer(m), "[{row}] <execute_script>");
    assert_no_leak(row, "<execute_script>", &got);
    assert!(!marker.exists(), "[{row}] the injected command ran");
}

// ---------------------------------------------------------------------------
// 3. Tools outside `allowed-tools` under `Mode::Restrict`.

#[derive(Debug, Clone, Copy)]
enum Step {
    Activate(&'static str),
    Unload(&'static str),
    /// A deny rule of the host.
    Deny(&'static str),
    /// The development override.
    Override,
}

/// What a `Bash` call must give through the session.
#[derive(Debug, Clone, Copy)]
enum Bash {
    /// Ran; this was its stdout.
    Runs(&'static str),
    /// Refused with this exact message.
    Refused(&'static str),
}

struct BashCase {
    attack: &'static str,
    steps: &'static [Step],
    command: &'static str,
    expect: Bash,
}

const BASH_CASES: &[BashCase] = {
    use Bash::{Refused, Runs};
    use Step::{Activate, Deny, Override, Unload};
    &[
        BashCase {
            attack: "control: a granted command runs",
            steps: &[Activate("probe")],
            command: "./scripts/argv.sh x",
            expect: Runs("<x>\n"),
        },
        BashCase {
            attack: "a program the skill does not list",
            steps: &[Activate("probe")],
            command: "ls -la",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "a look-alike of the granted prefix",
            steps: &[Activate("probe")],
            command: "./scripts/argv.shx",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "the granted script under another spelling",
            steps: &[Activate("probe")],
            command: "scripts/argv.sh x",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "a shell operator after the granted prefix",
            steps: &[Activate("probe")],
            command: "./scripts/argv.sh x; ls",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "another active skill's rules do not count: the skill's own are listed",
            steps: &[Activate("probe"), Activate("writer")],
            command: "ls",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "a skill without allowed-tools lifts nothing",
            steps: &[Activate("probe"), Activate("free")],
            command: "ls",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "no skill active: the skill's own rules allow its script",
            steps: &[],
            command: "./scripts/argv.sh x",
            expect: Runs("<x>\n"),
        },
        BashCase {
            attack: "no skill active: the skill's own rules refuse the rest",
            steps: &[],
            command: "ls",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "only an unrestricting skill active",
            steps: &[Activate("free")],
            command: "ls",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "unload leaves the skill's own rules in force",
            steps: &[Activate("probe"), Unload("probe")],
            command: "ls",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "after unload, another active skill's grant does not widen them",
            steps: &[Activate("probe"), Activate("procs"), Unload("probe")],
            command: "./scripts/argv.py x",
            expect: Refused(NOT_ALLOWED_PROBE),
        },
        BashCase {
            attack: "a deny rule beats the skill's grant",
            steps: &[Activate("probe"), Deny("Bash(./scripts/argv.sh:*)")],
            command: "./scripts/argv.sh x",
            expect: Refused(
                "`./scripts/argv.sh x` is denied by the rule `Bash(./scripts/argv.sh:*)`",
            ),
        },
        BashCase {
            attack: "a deny rule beats the development override",
            steps: &[Activate("probe"), Deny("Bash(rm:*)"), Override],
            command: "rm -rf x",
            expect: Refused("`rm -rf x` is denied by the rule `Bash(rm:*)`"),
        },
        BashCase {
            attack: "a deny rule sees every piece of a compound command",
            steps: &[Activate("probe"), Deny("Bash(rm:*)"), Override],
            command: "./scripts/argv.sh x && rm -rf x",
            expect: Refused("`./scripts/argv.sh x && rm -rf x` is denied by the rule `Bash(rm:*)`"),
        },
        BashCase {
            attack: "a deny rule sees a quoted program",
            steps: &[Activate("probe"), Deny("Bash(rm:*)"), Override],
            command: "'rm' -rf x",
            expect: Refused("`'rm' -rf x` is denied by the rule `Bash(rm:*)`"),
        },
        BashCase {
            attack: "a deny rule sees an escaped program after an operator",
            steps: &[Activate("probe"), Deny("Bash(rm:*)"), Override],
            command: "./scripts/argv.sh x; r\\m -rf x",
            expect: Refused("`./scripts/argv.sh x; r\\m -rf x` is denied by the rule `Bash(rm:*)`"),
        },
        BashCase {
            attack: "a deny rule holds after unload and re-activation",
            steps: &[
                Deny("Bash(./scripts/argv.sh:*)"),
                Activate("probe"),
                Unload("probe"),
                Activate("probe"),
            ],
            command: "./scripts/argv.sh x",
            expect: Refused(
                "`./scripts/argv.sh x` is denied by the rule `Bash(./scripts/argv.sh:*)`",
            ),
        },
    ]
};

fn apply(session: &Session<LocalExecutor>, steps: &[Step]) {
    for step in steps {
        match *step {
            Step::Activate(name) => {
                session.activate(name, "").unwrap();
            }
            Step::Unload(name) => assert!(session.unload(name), "{name} was active"),
            Step::Deny(r) => session.policy().deny(rule(r)),
            Step::Override => session.policy().allow_all(true),
        }
    }
}

#[test]
fn tools_outside_allowed_tools_under_restrict() {
    let tmp = tempdir();
    settle(&tmp.path().join("cache"), "probe", &["./scripts/argv.sh"]);
    each_row(
        BASH_CASES,
        |case| case.attack.to_string(),
        |case| run_bash(tmp.path(), case),
    );
}

/// Runs `case` in a fresh `Mode::Restrict` session (its cache under
/// `tmp`), through `Session::run`, the function call and
/// `<execute_script>`.
fn run_bash(tmp: &Path, case: &BashCase) {
    let row = case.attack;
    let session = Session::new(&S, LocalExecutor::new(tmp.join("cache")), Mode::Restrict);
    apply(&session, case.steps);
    let (run, tool, xml) = match case.expect {
        Bash::Runs(stdout) => (
            Ok((Some(0), stdout.to_string(), String::new())),
            Ok(format!("exit code: 0\n{stdout}")),
            xml_result(stdout),
        ),
        Bash::Refused(e) => (
            Err(e.to_string()),
            Err(e.to_string()),
            format!("<script_error>{}</script_error>", escape(e, false)),
        ),
    };
    assert_eq!(
        model_text(session.run("probe", case.command)),
        run,
        "[{row}] Session::run"
    );
    assert_eq!(
        model_text(session.call_tool(RUN, &json_args("probe", "command", case.command))),
        tool,
        "[{row}] call_tool({RUN})"
    );
    let reply = format!(
        "<execute_script skill=\"probe\">{}</execute_script>",
        escape(case.command, false)
    );
    let instruction = Instruction::ExecuteScript {
        skill: "probe".into(),
        command: case.command.into(),
    };
    assert_eq!(
        handle_xml(&session, &reply, &instruction, row),
        xml,
        "[{row}] <execute_script>"
    );
}

/// A grant was checked against the command line only, not against the
/// skill whose directory the command runs in: with `procs` active
/// (`Bash(./scripts/*)`), `run_skill_script` ran `probe`'s script although
/// `probe`'s own rules do not list it. A run is now decided by the rules of
/// the skill it runs in alone (active or not): refused as `probe`'s
/// restriction, with the text the model reads, before anything of `probe`
/// is materialised or run.
#[test]
fn a_grant_does_not_run_another_skills_scripts() {
    let tmp = tempdir();
    let session = session(tmp.path(), &["procs"]);
    let probe_dir = tmp
        .path()
        .join("cache")
        .join(cache_dir_name(&skill("probe")));
    // (entry point, answer)
    let answers = [
        (
            "Session::run",
            session
                .run("probe", "./scripts/argv.py x")
                .map(|(code, out, err)| format!("{code:?} {out} {err}")),
        ),
        (
            "call_tool(run_skill_script)",
            session.call_tool(RUN, &json_args("probe", "command", "./scripts/argv.py x")),
        ),
    ];
    for (entry, answer) in answers {
        match answer {
            Err(e @ SessionError::Restricted(_)) => assert_eq!(
                e.to_string(),
                NOT_ALLOWED_PROBE,
                "[inactive skill, another skill's grant] via {entry}"
            ),
            other => panic!("[inactive skill, another skill's grant] via {entry}: {other:?}"),
        }
    }
    assert!(
        !probe_dir.exists(),
        "the inactive skill was materialised at {}",
        probe_dir.display()
    );
}

/// `skb run` activates the one skill named and refuses with status 126.
#[test]
fn tools_outside_allowed_tools_through_skills_run() {
    let cache = tempdir();
    each_row(
        SKILLS_RUN_CASES,
        |(row, ..)| row.to_string(),
        |(row, argv, status, stdout, stderr)| {
            let out = skills()
                .current_dir(workspace())
                .env("XDG_CACHE_HOME", cache.path())
                .args(["run", "probe", "--from", FIXTURES, "--"])
                .args(*argv)
                .output()
                .unwrap();
            let (out_text, err_text) = texts(&out);
            let want_err = if stderr.is_empty() {
                String::new()
            } else {
                format!("skb: {stderr}\n")
            };
            assert_eq!(
                (out.status.code(), out_text.as_str(), err_text),
                (Some(*status), *stdout, want_err),
                "[{row}] skb run"
            );
        },
    );
}

/// The bundled calculator said it evaluates arithmetic safely, yet its
/// `Bash(python3:*)` let any Python run: an interpreter with a wildcard is
/// any program. Scoped to its own script, it runs that and nothing else,
/// through `skb run` and the MCP server's `run_skill_script`.
#[test]
fn the_example_calculator_runs_only_its_own_script() {
    // The calculator's script runs with python3: without it, say so.
    skills_tests::tool("python3", "python3");
    const REFUSED: &str = "Tool 'Bash' not allowed for skill 'calculator'. \
        Allowed tools: ['Bash(python3 scripts/calc.py:*)', 'Read']";
    let root = workspace();
    let marker = tempdir();
    let touch = format!("open('{}/pwned', 'w')", marker.path().display());
    let import = format!(
        "__import__('os').system('touch {}/pwned2')",
        marker.path().display()
    );
    let attacks: Vec<Vec<String>> = [
        vec!["python3", "-c", &import],
        vec!["python3", "-c", &touch],
        vec!["python3", "-m", "http.server"],
        vec!["python3", "-"],
        vec!["python3", "-I", "scripts/calc.py", "1"],
        vec!["python3", "scripts/../scripts/calc.py", "1"],
        vec!["python3"],
        vec!["python3.11", "-c", &touch],
        vec!["/usr/bin/python3", "-c", &touch],
    ]
    .into_iter()
    .map(|argv| argv.into_iter().map(String::from).collect())
    .collect();
    each_row(
        attacks,
        |argv| argv.join(" "),
        |argv| {
            let out = skills()
                .current_dir(&root)
                .args(["run", "calculator", "--from", "skills", "--"])
                .args(argv)
                .output()
                .unwrap();
            assert_eq!(
                (
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr).as_ref()
                ),
                (Some(126), format!("skb: {REFUSED}\n").as_str()),
            );
            // What the MCP server's `run_skill_script` calls.
            let session = Session::new(
                &EXAMPLES,
                LocalExecutor::new(marker.path().join("cache")),
                Mode::Restrict,
            );
            let line = argv.join(" ");
            let answer = session.call_tool(RUN, &json_args("calculator", "command", &line));
            assert_eq!(model_text(answer), Err(REFUSED.to_string()));
        },
    );
    assert!(!marker.path().join("pwned").exists() && !marker.path().join("pwned2").exists());
    // Its own script still runs, with any arguments (as data).
    let out = skills()
        .current_dir(&root)
        .args(["run", "calculator", "--from", "skills", "--"])
        .args(["python3", "scripts/calc.py", "15 * 23"])
        .output()
        .unwrap();
    assert_eq!(
        (out.status.code(), out.stdout.as_slice()),
        (Some(0), b"345\n".as_slice())
    );
}

/// A rule that pre-approves an interpreter, a launcher or a tool with a
/// command-running option, followed by a wildcard, is any program: each is
/// warned (`SK309`) with the rule and the program named; rules that fix
/// the script or a harmless subcommand, exact commands and `Bash` alone are
/// not.
#[test]
fn wildcards_that_allow_any_program_are_warned() {
    let rows: &[(&str, Option<&str>)] = &[
        ("Bash(python3:*)", Some("python3")),
        ("Bash(node *)", Some("node")),
        ("Bash(bash:*)", Some("bash")),
        ("Bash(sh -c:*)", Some("sh")),
        ("Bash(perl:*)", Some("perl")),
        ("Bash(ruby:*)", Some("ruby")),
        ("Bash(deno:*)", Some("deno")),
        ("Bash(env:*)", Some("env")),
        ("Bash(xargs:*)", Some("xargs")),
        ("Bash(npx:*)", Some("npx")),
        ("Bash(git:*)", Some("git")),
        ("Bash(git grep:*)", Some("git")),
        ("Bash(/usr/bin/python3 -u:*)", Some("python3")),
        ("Bash(py*)", Some("py*")),
        ("Bash(python3 scripts/calc.py:*)", None),
        ("Bash(git status:*)", None),
        ("Bash(python3 --version)", None),
        ("Bash(./scripts/*)", None),
        ("Bash", None),
    ];
    each_row(
        rows,
        |(rule, _)| rule.to_string(),
        |&(rule, program)| {
            let tmp = tempdir();
            let dir = tmp.path().join("demo");
            fs::create_dir(&dir).unwrap();
            fs::write(
                dir.join("SKILL.md"),
                format!("---\nname: demo\ndescription: Demonstrates. Use when asked.\nallowed-tools: {rule} Read\n---\nBody.\n"),
            )
            .unwrap();
            let out = skills()
                .arg("validate")
                .arg(&dir)
                .args(["--format", "json"])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0));
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let warned: Vec<(String, u64, u64)> = report["skills"][0]["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["code"] == "SK309")
                .map(|d| {
                    (
                        d["message"].as_str().unwrap().to_string(),
                        d["line"].as_u64().unwrap(),
                        d["column"].as_u64().unwrap(),
                    )
                })
                .collect();
            let want: Vec<(String, u64, u64)> = program
                .map(|p| {
                    (
                        format!("`{rule}` lets `{p}` run any program: its arguments can name the code it runs"),
                        4,
                        16,
                    )
                })
                .into_iter()
                .collect();
            assert_eq!(warned, want);
        },
    );
}

/// `skb run probe --from FIXTURES -- ARGV`: (attack, argv, status,
/// stdout, stderr).
const SKILLS_RUN_CASES: &[(&str, &[&str], i32, &str, &str)] = &[
    (
        "control: granted",
        &["./scripts/argv.sh", "x y"],
        0,
        "<x y>\n",
        "",
    ),
    ("not listed", &["ls", "-la"], 126, "", NOT_ALLOWED_PROBE),
    (
        "absolute shell",
        &["/bin/sh", "-c", "id"],
        126,
        "",
        NOT_ALLOWED_PROBE,
    ),
    (
        "shell syntax in an argument is data",
        &["./scripts/argv.sh", "x; id", "$(id)", "<(id)"],
        0,
        "<x; id>\n<$(id)>\n<<(id)>\n",
        "",
    ),
    (
        "`..` after the granted prefix",
        &["./scripts/argv.sh/../../x"],
        126,
        "",
        NOT_ALLOWED_PROBE,
    ),
];
/// Tools other than `Bash`, asked of the session's policy directly.
#[test]
fn other_tools_under_restrict() {
    let tmp = tempdir();
    each_row(
        TOOL_CASES,
        |case| case.attack.to_string(),
        |case| {
            let session = session(tmp.path(), &[]);
            apply(&session, case.steps);
            let got = session.policy().check(case.tool, case.argument);
            let ok = match (&case.expect, &got) {
                (Expect::AllowedBy(s), Decision::Allow { by }) => by.as_deref() == Some(*s),
                (Expect::Restricted(msg), Decision::Restricted(e)) => e.to_string() == *msg,
                (Expect::DeniedBy(r), Decision::Denied { rule }) => rule == r,
                (Expect::Ask, Decision::Ask) => true,
                _ => false,
            };
            assert!(
                ok,
                "[{}] expected {:?}, got {got:?}",
                case.attack, case.expect
            );
        },
    );
}

/// The policy's decision.
#[derive(Debug)]
enum Expect {
    AllowedBy(&'static str),
    Restricted(&'static str),
    DeniedBy(&'static str),
    Ask,
}

/// A tool (and its argument) asked of the policy after `steps`.
struct ToolCase {
    attack: &'static str,
    steps: &'static [Step],
    tool: &'static str,
    argument: Option<&'static str>,
    expect: Expect,
}

const TOOL_CASES: &[ToolCase] = {
    use Step::{Activate, Deny, Override, Unload};
    &[
        ToolCase {
            attack: "a listed tool",
            steps: &[Activate("probe")],
            tool: "Read",
            argument: Some("/etc/passwd"),
            expect: Expect::AllowedBy("probe"),
        },
        ToolCase {
            attack: "Write, not listed",
            steps: &[Activate("probe")],
            tool: "Write",
            argument: Some("notes.md"),
            expect: Expect::Restricted(
                "Tool 'Write' not allowed for skill 'probe'. Allowed tools: \
                 ['Read', 'Bash(./scripts/argv.sh:*)', 'Bash(python3 scripts/argv.py:*)']",
            ),
        },
        ToolCase {
            attack: "a case variant of a listed tool",
            steps: &[Activate("probe")],
            tool: "read",
            argument: None,
            expect: Expect::Restricted(
                "Tool 'read' not allowed for skill 'probe'. Allowed tools: \
                 ['Read', 'Bash(./scripts/argv.sh:*)', 'Bash(python3 scripts/argv.py:*)']",
            ),
        },
        ToolCase {
            attack: "Bash without a command cannot match a pattern",
            steps: &[Activate("probe")],
            tool: "Bash",
            argument: None,
            expect: Expect::Restricted(
                "Tool 'Bash' not allowed for skill 'probe'. Allowed tools: \
                 ['Read', 'Bash(./scripts/argv.sh:*)', 'Bash(python3 scripts/argv.py:*)']",
            ),
        },
        ToolCase {
            attack: "an MCP tool, not listed",
            steps: &[Activate("writer")],
            tool: "mcp__github__delete_repo",
            argument: None,
            expect: Expect::Restricted(
                "Tool 'mcp__github__delete_repo' not allowed for skill 'writer'. Allowed tools: ['Read', 'Write']",
            ),
        },
        ToolCase {
            attack: "a deny rule beats a listed tool and the override",
            steps: &[Activate("writer"), Deny("Write"), Override],
            tool: "Write",
            argument: Some("x"),
            expect: Expect::DeniedBy("Write"),
        },
        ToolCase {
            attack: "unload revokes the grant",
            steps: &[Activate("writer"), Unload("writer")],
            tool: "Write",
            argument: Some("x"),
            expect: Expect::Ask,
        },
    ]
};
// ---------------------------------------------------------------------------
// 4. Processes that outlive their script.

/// A process's state letter and process group, from `/proc/<pid>/stat`.
fn proc_stat(pid: u32) -> Option<(char, u32)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let pgrp = fields.nth(1)?.parse().ok()?;
    Some((state, pgrp))
}

/// Whether `pid`, a process of ours in process group `pgrp`, is gone: no
/// such process, a zombie awaiting its new parent, or the pid already
/// reused by a process outside the group. Polls for up to 3 s (the kill is
/// immediate; reaping may lag).
fn gone(pid: u32, pgrp: u32) -> bool {
    let until = Instant::now() + Duration::from_secs(3);
    loop {
        match proc_stat(pid) {
            None | Some(('Z', _)) => return true,
            Some((_, g)) if g != pgrp => return true,
            Some(_) => {}
        }
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The live (non-zombie) processes in process group `pgrp`.
fn live_in_group(pgrp: u32) -> Vec<u32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| matches!(proc_stat(pid), Some((state, g)) if g == pgrp && state != 'Z'))
        .collect()
}

struct ProcCase {
    attack: &'static str,
    script: &'static str,
    timed_out: bool,
}

const PROC_CASES: &[ProcCase] = &[
    ProcCase {
        attack: "background grandchild, leader sleeps past the limit",
        script: "scripts/fork-wait.sh",
        timed_out: true,
    },
    ProcCase {
        attack: "leader exits at once, grandchild holds the pipes",
        script: "scripts/fork-exit.sh",
        timed_out: false,
    },
    ProcCase {
        attack: "leader exits at once, grandchild let go of the pipes",
        script: "scripts/fork-quiet-exit.sh",
        timed_out: false,
    },
    ProcCase {
        attack: "double fork (orphaned grandchild), leader sleeps",
        script: "scripts/double-fork.sh",
        timed_out: true,
    },
    ProcCase {
        attack: "double fork, leader exits at once",
        script: "scripts/double-fork-exit.sh",
        timed_out: false,
    },
    ProcCase {
        attack: "grandchild and leader ignore SIGHUP, SIGINT and SIGTERM",
        script: "scripts/ignore-signals.sh",
        timed_out: true,
    },
];

/// The two pids a `procs` script prints first: its own, then its
/// grandchild's.
fn printed_pids(row: &str, out: &Output) -> (u32, u32) {
    let text = String::from_utf8_lossy(&out.stdout);
    let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    match pids[..] {
        [leader, grandchild, ..] => (leader, grandchild),
        _ => panic!("[{row}] the script did not print two pids: {out:?}"),
    }
}

#[test]
fn no_process_outlives_its_run() {
    if fs::metadata("/proc/self/stat").is_err() {
        println!("note: /proc is unavailable; the process table cannot be inspected");
        return;
    }
    let procs = skill("procs");
    // One thread a row: the rows that time out wait for it side by side.
    each_row_on(
        PROC_CASES.len(),
        PROC_CASES,
        |case| case.attack.to_string(),
        |case| {
            let row = case.attack;
            let tmp = tempdir();
            let mut exec = LocalExecutor::new(tmp.path());
            // 1 s for the rows that must time out; ample for the others,
            // which exit at once (a loaded machine must not flip them).
            exec.timeout = Duration::from_secs(if case.timed_out { 1 } else { 30 });
            let out = exec.run(&procs, &Command::argv([case.script])).unwrap();
            assert_eq!(out.timed_out, case.timed_out, "[{row}] {out:?}");
            if case.timed_out {
                assert_eq!((out.exit_code, out.signal), (None, Some(9)), "[{row}]");
            } else {
                assert_eq!((out.exit_code, out.signal), (Some(0), None), "[{row}]");
            }
            let (leader, grandchild) = printed_pids(row, &out);
            assert_ne!(leader, grandchild, "[{row}]");
            assert!(
                gone(grandchild, leader),
                "[{row}] the grandchild {grandchild} survived"
            );
            // Nothing else of the group is left either.
            let until = Instant::now() + Duration::from_secs(3);
            while !live_in_group(leader).is_empty() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(10));
            }
            assert_eq!(
                live_in_group(leader),
                [] as [u32; 0],
                "[{row}] left running"
            );
        },
    );
}

/// The process-group kill cannot reach a process that starts its own
/// session (`exec/run.rs` and the guide say so): only a cgroup or a
/// sandbox would. The row is written to what should ideally happen.
#[test]
#[ignore = "LIMITATION (documented): a grandchild that calls setsid(2) leaves the process group and survives the run"]
fn a_setsid_grandchild_is_killed_too() {
    let tmp = tempdir();
    let mut exec = LocalExecutor::new(tmp.path());
    exec.timeout = Duration::from_secs(1);
    let out = exec
        .run(
            &skill("procs"),
            &Command::argv(["scripts/setsid-escape.sh"]),
        )
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let pid: u32 = text
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("a pid: {out:?}"));
    // It leads its own session, so its own process group.
    let survived = !gone(pid, pid);
    if survived {
        // Do not leave it behind.
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status();
    }
    assert!(!survived, "the setsid grandchild {pid} survived the run");
}

// ---------------------------------------------------------------------------
// 5. Output floods.

/// Peak resident memory of this process, in bytes (`VmHWM`).
fn peak_rss() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn marker(cap: usize) -> String {
    format!("\n[output truncated at {cap} bytes]\n")
}

const MIB: usize = 1 << 20;

struct FloodCase {
    attack: &'static str,
    /// Arguments of `procs`' script; `flood.sh OUT ERR` writes that many
    /// zero bytes to each stream, `endless.sh` floods until killed.
    argv: &'static [&'static str],
    max_output: usize,
    /// The executor's time limit, in milliseconds.
    timeout_ms: u64,
    timed_out: bool,
    /// Bytes kept of (stdout, stderr) before any marker.
    kept: (usize, usize),
    truncated: (bool, bool),
}

const FLOOD_CASES: &[FloodCase] = &[
    FloodCase {
        attack: "200 MiB on each stream, default cap",
        argv: &["scripts/flood.sh", "209715200", "209715200"],
        max_output: DEFAULT_MAX_OUTPUT,
        timeout_ms: 60_000,
        timed_out: false,
        kept: (DEFAULT_MAX_OUTPUT, DEFAULT_MAX_OUTPUT),
        truncated: (true, true),
    },
    FloodCase {
        attack: "16 MiB on stdout only, 4 KiB cap",
        argv: &["scripts/flood.sh", "16777216", "0"],
        max_output: 4096,
        timeout_ms: 60_000,
        timed_out: false,
        kept: (4096, 0),
        truncated: (true, false),
    },
    FloodCase {
        attack: "exactly the cap is not truncated",
        argv: &["scripts/flood.sh", "4096", "4096"],
        max_output: 4096,
        timeout_ms: 60_000,
        timed_out: false,
        kept: (4096, 4096),
        truncated: (false, false),
    },
    FloodCase {
        attack: "one byte over the cap",
        argv: &["scripts/flood.sh", "4097", "4097"],
        max_output: 4096,
        timeout_ms: 60_000,
        timed_out: false,
        kept: (4096, 4096),
        truncated: (true, true),
    },
    FloodCase {
        attack: "a zero cap keeps only the marker",
        argv: &["scripts/flood.sh", "10", "10"],
        max_output: 0,
        timeout_ms: 60_000,
        timed_out: false,
        kept: (0, 0),
        truncated: (true, true),
    },
    FloodCase {
        attack: "endless output until the time limit",
        argv: &["scripts/endless.sh"],
        max_output: 64 * 1024,
        timeout_ms: 300,
        timed_out: true,
        kept: (64 * 1024, 64 * 1024),
        truncated: (true, true),
    },
];

/// Runs in a process of its own: the peak memory it checks is the
/// process's.
#[test]
fn output_floods_are_capped_and_memory_stays_bounded() {
    crate::in_own_process(
        "security::output_floods_are_capped_and_memory_stays_bounded",
        floods_are_capped_and_memory_stays_bounded,
    );
}

fn floods_are_capped_and_memory_stays_bounded() {
    let procs = skill("procs");
    let before = peak_rss();
    each_row(
        FLOOD_CASES,
        |case| case.attack.to_string(),
        |case| flood(&procs, case),
    );
    let mut flooded: usize = FLOOD_CASES
        .iter()
        .flat_map(|case| case.argv.iter().skip(1))
        .map(|n| n.parse::<usize>().unwrap_or(0))
        .sum();

    // A flood through `run_skill_script`: what the model gets is bounded
    // too.
    let tmp = tempdir();
    settle(
        &tmp.path().join("cache"),
        "procs",
        &["scripts/flood.sh", "0", "0"],
    );
    let session = session(tmp.path(), &["procs"]);
    let text = session
        .call_tool(
            RUN,
            &json_args("procs", "command", "./scripts/flood.sh 33554432 33554432"),
        )
        .unwrap();
    let mark = marker(DEFAULT_MAX_OUTPUT);
    assert_eq!(
        text.matches(mark.as_str()).count(),
        2,
        "both streams are marked"
    );
    assert_eq!(
        text.len(),
        "exit code: 0\n".len() + "\nstderr:\n".len() + 2 * (DEFAULT_MAX_OUTPUT + mark.len())
    );
    flooded += 2 * 32 * MIB;

    match (before, peak_rss()) {
        (Some(before), Some(after)) => {
            let grew = after.saturating_sub(before);
            println!("{flooded} bytes flooded; peak RSS grew by {grew} bytes");
            assert!(
                grew < 64 * MIB as u64,
                "peak RSS grew by {grew} bytes while {flooded} bytes were flooded"
            );
        }
        _ => println!("note: /proc/self/status is unavailable; memory not measured"),
    }
}

/// One row of [`FLOOD_CASES`], through the executor.
fn flood(procs: &Skill<'_>, case: &FloodCase) {
    let row = case.attack;
    let tmp = tempdir();
    let mut exec = LocalExecutor::new(tmp.path());
    exec.max_output = case.max_output;
    exec.timeout = Duration::from_millis(case.timeout_ms);
    let out = exec
        .run(procs, &Command::argv(case.argv.iter().copied()))
        .unwrap();
    assert_eq!(out.timed_out, case.timed_out, "[{row}]");
    if !case.timed_out {
        assert_eq!(out.exit_code, Some(0), "[{row}] {:?}", out.exit_code);
    }
    let mark = marker(case.max_output);
    for (name, bytes, truncated, kept, want_truncated) in [
        (
            "stdout",
            &out.stdout,
            out.stdout_truncated,
            case.kept.0,
            case.truncated.0,
        ),
        (
            "stderr",
            &out.stderr,
            out.stderr_truncated,
            case.kept.1,
            case.truncated.1,
        ),
    ] {
        assert_eq!(truncated, want_truncated, "[{row}] {name} truncated");
        let want_len = kept + if want_truncated { mark.len() } else { 0 };
        assert_eq!(bytes.len(), want_len, "[{row}] {name} length");
        assert!(
            bytes.len() <= case.max_output + mark.len(),
            "[{row}] {name}"
        );
        assert_eq!(
            bytes.ends_with(mark.as_bytes()),
            want_truncated,
            "[{row}] {name} marker"
        );
        if case.argv[0] == "scripts/flood.sh" {
            assert!(
                bytes[..kept].iter().all(|&b| b == 0),
                "[{row}] {name} bytes"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// 6. A tampered cache.

/// Where a planted symlink points.
#[derive(Debug, Clone, Copy)]
enum Target {
    EtcPasswd,
    /// A copy, outside the cache, of the file it replaces (same bytes).
    Copy,
    /// `..`: the cache root.
    Parent,
    Dangling,
}

/// What is done to the cache after the skill was materialised once.
#[derive(Debug, Clone, Copy)]
enum Tamper {
    /// A new symlink at this path in the skill directory.
    PlantSymlink(&'static str, Target),
    /// This file replaced by a symlink.
    FileToSymlink(&'static str, Target),
    /// This directory replaced by a symlink to a copy of it.
    DirToSymlink(&'static str),
    /// This file's bytes changed (same size).
    Rewrite(&'static str),
    /// This file's mode changed.
    Chmod(&'static str, u32),
    Remove(&'static str),
    /// This file replaced by an (empty) directory.
    FileToDir(&'static str),
    /// This directory replaced by an (empty) file.
    DirToFile(&'static str),
    /// A new executable script at this path (its directories created), as
    /// another skill's script could write it.
    AddFile(&'static str),
    /// A new (empty) directory.
    AddDir(&'static str),
    /// A new FIFO.
    AddFifo(&'static str),
    /// The skill directory replaced by a symlink to a copy of it.
    SkillDirToSymlink,
    /// The skill directory's mode.
    SkillDirMode(u32),
    /// A symlink to a valid copy planted at the skill's cache name before
    /// it was ever materialised there.
    PrePlantSkillDir,
    /// The cache root replaced by a symlink to it.
    RootToSymlink,
    RootMode(u32),
    RootIsFile,
    /// The cache root given to another user (needs root privileges).
    RootOwner,
}

/// What the next run does.
#[derive(Debug, Clone, Copy)]
enum Outcome {
    /// The skill directory is set aside and written again, and the run goes
    /// ahead; the first difference found is at this path under the skill
    /// directory (`""`: the directory itself), for this reason.
    Rebuilt(&'static str, &'static str),
    /// `UnsafeCache` of the cache root: refused, nothing moved.
    UnsafeRoot(&'static str),
}

struct CacheCase {
    attack: &'static str,
    tamper: Tamper,
    outcome: Outcome,
}

const SYMLINK_ADDED: &str = "a symlink was added";
const FILE_ADDED: &str = "a file was added";
const DIR_ADDED: &str = "a directory was added";
const WRITABLE: &str = "it is writable by group or others; `chmod 700` it";

const CACHE_CASES: &[CacheCase] = {
    use Outcome::{Rebuilt, UnsafeRoot};
    use Tamper::*;
    &[
        CacheCase {
            attack: "symlink to /etc/passwd planted beside the scripts",
            tamper: PlantSymlink("scripts/passwd", Target::EtcPasswd),
            outcome: Rebuilt("scripts/passwd", SYMLINK_ADDED),
        },
        CacheCase {
            attack: "symlink to the cache root planted at the top",
            tamper: PlantSymlink("up", Target::Parent),
            outcome: Rebuilt("up", SYMLINK_ADDED),
        },
        CacheCase {
            attack: "dangling symlink planted",
            tamper: PlantSymlink("references/later", Target::Dangling),
            outcome: Rebuilt("references/later", SYMLINK_ADDED),
        },
        CacheCase {
            attack: "script replaced by a symlink to identical bytes outside",
            tamper: FileToSymlink("scripts/argv.sh", Target::Copy),
            outcome: Rebuilt("scripts/argv.sh", SYMLINK_ADDED),
        },
        CacheCase {
            attack: "SKILL.md replaced by a symlink to /etc/passwd",
            tamper: FileToSymlink("SKILL.md", Target::EtcPasswd),
            outcome: Rebuilt("SKILL.md", SYMLINK_ADDED),
        },
        CacheCase {
            attack: "scripts/ replaced by a symlink to a copy",
            tamper: DirToSymlink("scripts"),
            outcome: Rebuilt("scripts", SYMLINK_ADDED),
        },
        CacheCase {
            attack: "script rewritten, same size",
            tamper: Rewrite("scripts/argv.sh"),
            outcome: Rebuilt("scripts/argv.sh", "its contents changed"),
        },
        CacheCase {
            attack: "script made world-writable",
            tamper: Chmod("scripts/argv.sh", 0o777),
            outcome: Rebuilt("scripts/argv.sh", "its mode changed"),
        },
        CacheCase {
            attack: "script removed",
            tamper: Remove("scripts/argv.sh"),
            outcome: Rebuilt("scripts/argv.sh", "the file is missing"),
        },
        CacheCase {
            attack: "script replaced by a directory",
            tamper: FileToDir("scripts/argv.sh"),
            outcome: Rebuilt("scripts/argv.sh", "not a regular file"),
        },
        CacheCase {
            attack: "references/ replaced by a file",
            tamper: DirToFile("references"),
            outcome: Rebuilt("references", "not a directory"),
        },
        CacheCase {
            attack: "a script another skill wrote beside the scripts",
            tamper: AddFile("scripts/pwn.sh"),
            outcome: Rebuilt("scripts/pwn.sh", FILE_ADDED),
        },
        CacheCase {
            attack: "a module planted for python3 to import from the script's directory",
            tamper: AddFile("scripts/json.py"),
            outcome: Rebuilt("scripts/json.py", FILE_ADDED),
        },
        CacheCase {
            attack: "a __pycache__ planted for python3 to load",
            tamper: AddFile("scripts/__pycache__/argv.cpython-312.pyc"),
            outcome: Rebuilt("scripts/__pycache__", DIR_ADDED),
        },
        CacheCase {
            attack: "a file added at the top",
            tamper: AddFile("Makefile"),
            outcome: Rebuilt("Makefile", FILE_ADDED),
        },
        CacheCase {
            attack: "a directory added at the top",
            tamper: AddDir("hooks"),
            outcome: Rebuilt("hooks", DIR_ADDED),
        },
        CacheCase {
            attack: "a FIFO added beside the references",
            tamper: AddFifo("references/pipe"),
            outcome: Rebuilt("references/pipe", FILE_ADDED),
        },
        CacheCase {
            attack: "skill directory replaced by a symlink to a copy",
            tamper: SkillDirToSymlink,
            outcome: Rebuilt("", "it is a symlink"),
        },
        CacheCase {
            attack: "skill directory pre-planted as a symlink",
            tamper: PrePlantSkillDir,
            outcome: Rebuilt("", "it is a symlink"),
        },
        CacheCase {
            attack: "skill directory made world-writable",
            tamper: SkillDirMode(0o757),
            outcome: Rebuilt("", WRITABLE),
        },
        CacheCase {
            attack: "cache root is a symlink",
            tamper: RootToSymlink,
            outcome: UnsafeRoot("it is a symlink"),
        },
        CacheCase {
            attack: "cache root world-writable",
            tamper: RootMode(0o777),
            outcome: UnsafeRoot(WRITABLE),
        },
        CacheCase {
            attack: "cache root world-writable with the sticky bit, like /tmp",
            tamper: RootMode(0o1777),
            outcome: UnsafeRoot(WRITABLE),
        },
        CacheCase {
            attack: "cache root group-writable",
            tamper: RootMode(0o770),
            outcome: UnsafeRoot(WRITABLE),
        },
        CacheCase {
            attack: "cache root is a file",
            tamper: RootIsFile,
            outcome: UnsafeRoot("it is not a directory"),
        },
        CacheCase {
            attack: "cache root owned by another user",
            tamper: RootOwner,
            outcome: UnsafeRoot("it is owned by another user"),
        },
    ]
};

fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir(to).unwrap();
    set_mode(to, 0o700);
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn is_root() -> bool {
    fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find(|l| l.starts_with("Uid:"))
            .is_some_and(|l| l.split_whitespace().nth(2) == Some("0"))
    })
}

impl CacheCase {
    /// Tampers with the cache at `root` (the skill at `dir`, already
    /// materialised unless pre-planted); returns the planted path to check
    /// afterwards, or `None` when the case cannot be set up here.
    fn tamper(&self, tmp: &Path, root: &Path, dir: &Path) -> Option<Option<PathBuf>> {
        let outside = tmp.join("outside");
        let target = |t: Target, original: &Path| -> PathBuf {
            match t {
                Target::EtcPasswd => PathBuf::from("/etc/passwd"),
                Target::Copy => {
                    fs::copy(original, &outside).unwrap();
                    outside.clone()
                }
                Target::Parent => PathBuf::from(".."),
                Target::Dangling => tmp.join("nothing-here"),
            }
        };
        let planted = match self.tamper {
            Tamper::PlantSymlink(rel, t) => {
                let at = dir.join(rel);
                symlink(target(t, &at), &at).unwrap();
                Some(at)
            }
            Tamper::FileToSymlink(rel, t) => {
                let at = dir.join(rel);
                let to = target(t, &at);
                fs::remove_file(&at).unwrap();
                symlink(to, &at).unwrap();
                Some(at)
            }
            Tamper::DirToSymlink(rel) => {
                let at = dir.join(rel);
                copy_dir(&at, &outside);
                fs::remove_dir_all(&at).unwrap();
                symlink(&outside, &at).unwrap();
                Some(at)
            }
            Tamper::Rewrite(rel) => {
                let at = dir.join(rel);
                let len = fs::metadata(&at).unwrap().len() as usize;
                let evil = format!("#!/bin/sh\ntouch {}/pwned\n", tmp.display());
                let mut bytes = evil.into_bytes();
                bytes.resize(len, b'#');
                fs::write(&at, bytes).unwrap();
                None
            }
            Tamper::Chmod(rel, mode) => {
                set_mode(&dir.join(rel), mode);
                None
            }
            Tamper::Remove(rel) => {
                fs::remove_file(dir.join(rel)).unwrap();
                None
            }
            Tamper::FileToDir(rel) => {
                let at = dir.join(rel);
                fs::remove_file(&at).unwrap();
                fs::create_dir(&at).unwrap();
                None
            }
            Tamper::DirToFile(rel) => {
                let at = dir.join(rel);
                fs::remove_dir_all(&at).unwrap();
                fs::write(&at, b"").unwrap();
                None
            }
            Tamper::AddFile(rel) => {
                let at = dir.join(rel);
                fs::create_dir_all(at.parent().unwrap()).unwrap();
                fs::write(&at, format!("#!/bin/sh\ntouch {}/pwned\n", tmp.display())).unwrap();
                set_mode(&at, 0o755);
                None
            }
            Tamper::AddDir(rel) => {
                fs::create_dir(dir.join(rel)).unwrap();
                None
            }
            Tamper::AddFifo(rel) => {
                let status = std::process::Command::new("mkfifo")
                    .arg(dir.join(rel))
                    .status()
                    .unwrap();
                assert!(status.success(), "mkfifo");
                None
            }
            Tamper::SkillDirToSymlink => {
                fs::rename(dir, &outside).unwrap();
                symlink(&outside, dir).unwrap();
                Some(dir.to_path_buf())
            }
            Tamper::PrePlantSkillDir => {
                // Materialised elsewhere, a valid copy; linked at the name.
                let elsewhere = tmp.join("elsewhere");
                skills_bundle::exec::materialise(&skill("probe"), &elsewhere).unwrap();
                let name = dir.file_name().unwrap();
                fs::create_dir(root).unwrap();
                set_mode(root, 0o700);
                symlink(elsewhere.join(name), dir).unwrap();
                Some(dir.to_path_buf())
            }
            Tamper::SkillDirMode(mode) => {
                set_mode(dir, mode);
                None
            }
            Tamper::RootToSymlink => {
                fs::rename(root, &outside).unwrap();
                symlink(&outside, root).unwrap();
                Some(root.to_path_buf())
            }
            Tamper::RootMode(mode) => {
                set_mode(root, mode);
                None
            }
            Tamper::RootIsFile => {
                fs::remove_dir_all(root).unwrap();
                fs::write(root, b"").unwrap();
                None
            }
            Tamper::RootOwner => {
                if !is_root() {
                    return None;
                }
                std::os::unix::fs::chown(root, Some(65534), Some(65534)).unwrap();
                None
            }
        };
        Some(planted)
    }

    /// The path the outcome names, and the text of the log line (a
    /// rebuild) or of the error (a refusal).
    fn expected(&self, root: &Path, dir: &Path) -> (PathBuf, String) {
        match self.outcome {
            Outcome::Rebuilt(rel, reason) => {
                let path = if rel.is_empty() {
                    dir.to_path_buf()
                } else {
                    dir.join(rel)
                };
                let text = format!(
                    "the cached copy of skill `probe` was changed ({reason}: `{}`); it was set aside and written again from the bundle",
                    path.display()
                );
                (path, text)
            }
            Outcome::UnsafeRoot(reason) => (
                root.to_path_buf(),
                format!(
                    "refusing the cache directory `{}`: {reason}",
                    root.display()
                ),
            ),
        }
    }
}

#[test]
fn a_tampered_cache_is_rebuilt_and_logged_or_its_unsafe_root_refused() {
    each_row(
        CACHE_CASES
            .iter()
            .flat_map(|case| Via::ALL.map(|via| (case, via))),
        |(case, via)| format!("{} (via {via:?})", case.attack),
        |&(case, via)| tamper_then_run(case, via),
    );
}

/// How the tampered skill is run.
#[derive(Debug, Clone, Copy)]
enum Via {
    Executor,
    FunctionCall,
    Xml,
}

impl Via {
    const ALL: [Via; 3] = [Via::Executor, Via::FunctionCall, Via::Xml];
}

/// Materialises and runs `probe` once (unless the row pre-plants the
/// directory), tampers as the row says, then runs it `via` the executor,
/// the function call or `<execute_script>`: a changed skill directory is
/// rebuilt (logged with the first difference), the run goes ahead with the
/// bundle's files, and nothing planted runs or survives; an unsafe cache
/// root is refused with the exact `ExecError` and left as found.
fn tamper_then_run(case: &CacheCase, via: Via) {
    crate::logged();
    let probe = skill("probe");
    let command = Command::argv(["./scripts/argv.sh", "x"]);
    let row = case.attack;
    let tmp = tempdir();
    let root = tmp.path().join("cache");
    let dir = root.join(cache_dir_name(&probe));
    let exec = LocalExecutor::new(&root);
    if !matches!(case.tamper, Tamper::PrePlantSkillDir) {
        // Materialised and run once, as an agent would have.
        let out = exec.run(&probe, &command).unwrap();
        assert_eq!(out.stdout, b"<x>\n", "[{row}] first run");
    }
    let Some(planted) = case.tamper(tmp.path(), &root, &dir) else {
        println!("note: [{row}] skipped: needs root privileges");
        return;
    };
    let (path, text) = case.expected(&root, &dir);
    let session = Session::new(&S, exec.clone(), Mode::Restrict);
    session.activate("probe", "").unwrap();
    let answer: Result<Vec<u8>, String> = match via {
        Via::Executor => exec
            .run(&probe, &command)
            .map(|out| out.stdout)
            .map_err(|e| {
                match (&e, case.outcome) {
                    (ExecError::UnsafeCache { path: p, reason: r }, Outcome::UnsafeRoot(want)) => {
                        assert_eq!((p, r.as_str()), (&path, want), "[{row}]");
                    }
                    _ => panic!("[{row}] expected {:?}, got {e:?}", case.outcome),
                }
                e.to_string()
            }),
        Via::FunctionCall => model_text(
            session.call_tool(RUN, &json_args("probe", "command", "./scripts/argv.sh x")),
        )
        .map(String::into_bytes),
        Via::Xml => {
            let reply = session.handle_xml(&Instruction::ExecuteScript {
                skill: "probe".into(),
                command: "./scripts/argv.sh x".into(),
            });
            assert_no_leak(row, "<execute_script>", &reply);
            match reply.strip_prefix("<script_error>") {
                Some(e) => Err(e.trim_end_matches("</script_error>").to_string()),
                None => Ok(reply.into_bytes()),
            }
        }
    };
    let logged = crate::logged();
    let rebuilds: Vec<&String> = logged
        .iter()
        .filter(|l| l.contains(&dir.display().to_string()))
        .collect();
    match case.outcome {
        Outcome::Rebuilt(..) => {
            let out = String::from_utf8(answer.unwrap_or_else(|e| {
                panic!("[{row}] via {via:?}: refused instead of rebuilt: {e}")
            }))
            .unwrap();
            let printed = match via {
                Via::Xml => "&lt;x&gt;",
                _ => "<x>",
            };
            assert!(out.contains(printed), "[{row}] via {via:?}: {out}");
            assert_eq!(rebuilds, [&text], "[{row}] via {via:?}: the log");
            // The bundle's files, as the first run left them; nothing planted.
            let fresh = skills_bundle::exec::materialise(&probe, &root).unwrap();
            assert_eq!((&fresh.dir, &fresh.rebuilt), (&dir, &None), "[{row}]");
            if let Some(planted) = planted {
                assert!(
                    !fs::symlink_metadata(&planted).is_ok_and(|m| m.file_type().is_symlink()),
                    "[{row}] the planted symlink {} is still there",
                    planted.display()
                );
            }
            let names: Vec<_> = fs::read_dir(&root)
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            assert_eq!(
                names,
                [dir.file_name().unwrap()],
                "[{row}] left beside the skill"
            );
        }
        Outcome::UnsafeRoot(_) => {
            let want = match via {
                Via::Xml => escape(&text, false),
                _ => text.clone(),
            };
            assert_eq!(
                answer.map_err(|e| e.replace("\n", "")),
                Err(want),
                "[{row}] via {via:?}"
            );
            assert!(rebuilds.is_empty(), "[{row}] {rebuilds:?}");
            // Left as found.
            if let Some(planted) = planted {
                assert!(
                    fs::symlink_metadata(&planted).is_ok_and(|m| m.file_type().is_symlink()),
                    "[{row}] the planted symlink was removed"
                );
            }
        }
    }
    // Targets outside the cache are untouched.
    assert!(fs::symlink_metadata("/etc/passwd").is_ok_and(|m| m.is_file()));
    assert!(
        !tmp.path().join("pwned").exists(),
        "[{row}] the tampered script ran"
    );
}

/// A script that writes into its own directory (its working directory)
/// made every later run of the skill fail until the cache was deleted by
/// hand. Now each later run finds the added file, rebuilds the directory
/// from the bundle, says so on stderr, and runs.
#[test]
fn a_script_writing_into_its_own_directory_does_not_break_later_runs() {
    let tmp = tempdir();
    let skill = tmp.path().join("skills/note");
    fs::create_dir_all(skill.join("scripts")).unwrap();
    fs::write(
        skill.join("SKILL.md"),
        "---\nname: note\ndescription: Keeps a note. Use when asked to remember.\nallowed-tools: Bash(./scripts/note.sh:*)\n---\nRun `scripts/note.sh`.\n",
    )
    .unwrap();
    let script = skill.join("scripts/note.sh");
    fs::write(&script, "#!/bin/sh\necho \"$1\" > out.txt\ncat out.txt\n").unwrap();
    set_mode(&script, 0o755);
    let cache = tmp.path().join("cache");
    let run = |word: &str| {
        skills()
            .args(["run", "note", "--from"])
            .arg(tmp.path().join("skills"))
            .args(["--", "./scripts/note.sh", word])
            .env("XDG_CACHE_HOME", &cache)
            .output()
            .unwrap()
    };
    let first = run("one");
    assert_eq!(
        (
            first.status.code(),
            first.stdout.as_slice(),
            first.stderr.as_slice()
        ),
        (Some(0), b"one\n".as_slice(), b"".as_slice())
    );
    let dir = fs::read_dir(cache.join("skills"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    for word in ["two", "three"] {
        let out = run(word);
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stdout).as_ref()
            ),
            (Some(0), format!("{word}\n").as_str()),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "skb: warning: the cached copy of skill `note` was changed (a file was added: `{}`); it was set aside and written again from the bundle\n",
                dir.join("out.txt").display()
            )
        );
    }
}

/// The whole attack: a script of one skill writes a script into another
/// skill's cache directory, where that skill's glob grant
/// (`Bash(./scripts/*)`) lets the model run it. It ran; now the added file
/// is found before anything starts, the directory is written again from
/// the bundle, and the planted script is gone.
#[test]
fn a_script_another_skill_added_is_not_run() {
    crate::logged();
    let tmp = tempdir();
    let root = tmp.path().join("cache");
    let procs_dir = skills_bundle::exec::materialise(&skill("procs"), &root)
        .unwrap()
        .dir;
    let planted = procs_dir.join("scripts/pwn.sh");
    let marker = tmp.path().join("pwned");
    let mut exec = LocalExecutor::new(&root);
    exec.allow_shell = true;
    let write = format!(
        "printf '#!/bin/sh\\ntouch %s\\n' '{}' > '../{}/scripts/pwn.sh' && chmod 755 '../{}/scripts/pwn.sh'",
        marker.display(),
        cache_dir_name(&skill("procs")),
        cache_dir_name(&skill("procs")),
    );
    let out = exec.run(&skill("free"), &Command::shell(write)).unwrap();
    assert!(out.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(planted.is_file(), "the other skill's script wrote nothing");

    let session = session(tmp.path(), &["procs"]);
    let answer = session.call_tool(RUN, &json_args("procs", "command", "./scripts/pwn.sh"));
    match answer {
        Err(SessionError::Exec(ExecError::Spawn { program, source })) => {
            assert_eq!(
                (program, source.kind()),
                (planted.display().to_string(), std::io::ErrorKind::NotFound)
            );
        }
        other => panic!("call_tool({RUN}) gave {other:?}"),
    }
    assert!(!marker.exists(), "the planted script ran");
    assert!(!planted.exists(), "the planted script is still there");
    let log = format!(
        "the cached copy of skill `procs` was changed ({FILE_ADDED}: `{}`); it was set aside and written again from the bundle",
        planted.display()
    );
    assert!(crate::logged().contains(&log), "{log}");
}

/// A script run right after its skill was materialised must start, even
/// while other threads of the agent start processes (concurrent tool
/// calls). Today `exec()` can fail with ETXTBSY ("Text file busy"): a child
/// forked by another thread while `materialise` held a script open for
/// writing keeps a copy of that descriptor until it execs. Written to what
/// should happen; a retry on ETXTBSY, or materialising before any fork can
/// race with it, would fix it.
#[test]
fn a_script_runs_right_after_being_materialised() {
    let probe = skill("probe");
    let stop = std::sync::atomic::AtomicBool::new(false);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        // Other threads starting processes all along.
        for _ in 0..2 {
            scope.spawn(|| {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let _ = std::process::Command::new("true").status();
                }
            });
        }
        let runners: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    for _ in 0..50 {
                        let tmp = tempdir();
                        let exec = LocalExecutor::new(tmp.path());
                        let command = Command::argv(["./scripts/argv.sh", "x"]);
                        if let Err(e) = exec.run(&probe, &command) {
                            failures.lock().unwrap().push(e.to_string());
                        }
                    }
                })
            })
            .collect();
        for runner in runners {
            runner.join().unwrap();
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of 200 first runs failed, e.g. {}",
        failures.len(),
        failures[0]
    );
}

// ---------------------------------------------------------------------------
// 7. Timeouts past the clock.

/// A timeout the deadline arithmetic cannot take. `Instant + Duration`
/// overflowed (a panic) after the child was spawned, leaving the script
/// running; under `skb serve` the worker thread died and the call never
/// got an answer. Now refused before anything starts, with the maximum.
const TIMEOUT_CASES: &[(&str, Duration)] = &[
    (
        "2^64 - 1 seconds, the largest `--timeout` accepted",
        Duration::from_secs(u64::MAX),
    ),
    (
        "2^63 seconds, the first that overflowed the clock",
        Duration::from_secs(1 << 63),
    ),
    ("Duration::MAX", Duration::MAX),
    (
        "one nanosecond past the maximum",
        MAX_TIMEOUT.saturating_add(Duration::from_nanos(1)),
    ),
];

#[test]
fn timeouts_past_the_maximum_are_refused_before_the_run() {
    let tmp = tempdir();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    each_row(
        TIMEOUT_CASES,
        |(row, _)| row.to_string(),
        |(row, timeout)| refuse_timeout(tmp.path(), &runtime, row, timeout),
    );
}

/// `timeout` through the executor, then the function call, blocking and
/// async.
fn refuse_timeout(tmp: &Path, runtime: &tokio::runtime::Runtime, row: &str, timeout: &Duration) {
    let command = Command::argv(["./scripts/argv.sh", "x"]);
    let mut exec = LocalExecutor::new(tmp.join("cache"));
    exec.timeout = *timeout;
    let text = format!(
        "the timeout {timeout:?} is over the maximum of 604800 s (7 days); set at most that"
    );
    match exec.run(&skill("probe"), &command) {
        Err(e @ ExecError::TimeoutTooLong { timeout: t }) => {
            assert_eq!((t, e.to_string()), (*timeout, text.clone()), "[{row}]");
        }
        other => panic!("[{row}] expected TimeoutTooLong, got {other:?}"),
    }
    let session = Session::new(&S, exec, Mode::Restrict);
    session.activate("probe", "").unwrap();
    let args = json_args("probe", "command", "./scripts/argv.sh x");
    // Blocking, and async as `skb serve` runs it: an answer, no panic.
    for (entry, answer) in [
        ("blocking", session.call_tool(RUN, &args)),
        (
            "async",
            runtime.block_on(session.call_tool_async(RUN, &args)),
        ),
    ] {
        assert!(
            matches!(
                answer,
                Err(SessionError::Exec(ExecError::TimeoutTooLong { timeout: t })) if t == *timeout
            ),
            "[{row}] call_tool({RUN}), {entry}: {answer:?}"
        );
        assert_eq!(
            model_text(answer),
            Err(text.clone()),
            "[{row}] call_tool({RUN}), {entry}"
        );
    }
}

/// The maximum itself runs.
#[test]
fn a_timeout_of_the_maximum_runs() {
    let tmp = tempdir();
    let command = Command::argv(["./scripts/argv.sh", "x"]);
    let mut exec = LocalExecutor::new(tmp.path().join("cache"));
    exec.timeout = MAX_TIMEOUT;
    let out = exec.run(&skill("probe"), &command).unwrap();
    assert_eq!(out.stdout, b"<x>\n");
}

/// `--timeout` of `skb run` and `skb serve`: refused as a usage error
/// (status 2) naming the maximum, before any skill is loaded.
#[test]
fn timeouts_past_the_maximum_through_the_cli() {
    let cache = tempdir();
    let rows = CLI_TIMEOUT_CASES
        .iter()
        .flat_map(|&(row, value)| [(row, value, "run"), (row, value, "serve")]);
    each_row(
        rows,
        |(row, _, command)| format!("{row} / skills {command}"),
        |&(row, value, command)| {
            let args = match command {
                "run" => vec![
                    "run",
                    "probe",
                    "--from",
                    FIXTURES,
                    "--timeout",
                    value,
                    "--",
                    "./scripts/argv.sh",
                    "x",
                ],
                _ => vec!["serve", FIXTURES, "--timeout", value],
            };
            let out = skills()
                .current_dir(workspace())
                .env("XDG_CACHE_HOME", cache.path())
                .args(&args)
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap();
            let (stdout, stderr) = texts(&out);
            assert_eq!(
                (out.status.code(), stdout.as_str(), stderr.as_str()),
                (
                    Some(2),
                    "",
                    format!(
                        "error: invalid value '{value}' for '--timeout <TIMEOUT>': at most 604800 seconds (7 days)\n\nFor more information, try '--help'.\n"
                    )
                    .as_str()
                ),
                "[{row}] skills {command}"
            );
        },
    );
}

/// `--timeout` values past the maximum: (row, value).
const CLI_TIMEOUT_CASES: &[(&str, &str)] = &[
    ("2^64 - 1 seconds", "18446744073709551615"),
    ("2^63 seconds", "9223372036854775808"),
    ("past u64", "99999999999999999999999"),
    ("one second past the maximum", "604801"),
];

// ---------------------------------------------------------------------------
// 8. Descriptors the caller left open.

/// Where the leaked descriptor comes from, and which run sees it.
#[derive(Debug, Clone, Copy)]
enum Leak {
    /// A file this process opened, `O_CLOEXEC` cleared; the blocking run.
    InProcess,
    /// The same; the async run.
    InProcessAsync,
    /// Descriptor 7, opened by the shell that starts `skb run`.
    FromParent,
}

const FD_CASES: &[(&str, Leak)] = &[
    (
        "a file the agent opened without O_CLOEXEC, blocking run",
        Leak::InProcess,
    ),
    (
        "a file the agent opened without O_CLOEXEC, async run",
        Leak::InProcessAsync,
    ),
    (
        "a descriptor `skb run` inherited from its parent",
        Leak::FromParent,
    ),
];

/// The descriptors `scripts/fds.sh` printed (`N -> TARGET`), but the
/// directory `ls` itself opened to list them.
fn started_with(stdout: &[u8]) -> Vec<(String, String)> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|l| l.split_once(" -> "))
        .filter_map(|(head, target)| {
            let fd = head.rsplit(' ').next()?.to_string();
            let listing = target.starts_with("/proc/") && target.ends_with("/fd");
            (!listing).then(|| (fd, target.to_string()))
        })
        .collect()
}

#[test]
fn scripts_inherit_no_descriptor_but_the_standard_streams() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    each_row(
        FD_CASES,
        |(row, _)| row.to_string(),
        |(row, leak)| started_with_the_standard_streams(&runtime, row, *leak),
    );
}

/// Runs `fds.sh` of `procs` with a descriptor left open as `leak` says:
/// the script starts with 0, 1 and 2 only.
fn started_with_the_standard_streams(runtime: &tokio::runtime::Runtime, row: &str, leak: Leak) {
    let tmp = tempdir();
    let secret = tmp.path().join("secret");
    fs::write(&secret, b"the agent's own file\n").unwrap();
    let command = Command::argv(["./scripts/fds.sh"]);
    let exec = LocalExecutor::new(tmp.path().join("cache"));
    let stdout = match leak {
        Leak::InProcess | Leak::InProcessAsync => {
            let file = fs::File::open(&secret).unwrap();
            rustix::io::fcntl_setfd(&file, rustix::io::FdFlags::empty()).unwrap();
            let out = if matches!(leak, Leak::InProcess) {
                exec.run(&skill("procs"), &command).unwrap()
            } else {
                use skills_bundle::exec::AsyncScriptExecutor;
                runtime
                    .block_on(exec.run_async(&skill("procs"), &command))
                    .unwrap()
            };
            drop(file);
            out.stdout
        }
        Leak::FromParent => {
            let out = std::process::Command::new("/bin/sh")
                .arg("-c")
                .arg("exec 7<\"$1\"; shift; exec \"$@\"")
                .arg("sh")
                .arg(&secret)
                .arg(skills_bin())
                .args(["run", "procs", "--from", FIXTURES, "--", "./scripts/fds.sh"])
                .current_dir(workspace())
                .env("XDG_CACHE_HOME", tmp.path().join("cache"))
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "[{row}] {}", texts(&out).1);
            out.stdout
        }
    };
    let fds = started_with(&stdout);
    assert!(
        fds.iter().all(|(_, target)| !target.ends_with("/secret")),
        "[{row}] the script got the agent's file: {fds:?}"
    );
    let numbers: Vec<&str> = fds.iter().map(|(fd, _)| fd.as_str()).collect();
    assert_eq!(numbers, ["0", "1", "2"], "[{row}] {fds:?}");
}

// ---------------------------------------------------------------------------
// 9. Arguments through activation: `!`cmd`` with `--run-commands`.

/// The script of every activation skill: each argument as `<ARG>` on its
/// own line, exactly as received.
const RUN_SH: &str = "#!/bin/sh\nfor arg in \"$@\"; do\n  printf '<%s>\\n' \"$arg\"\ndone\n";

/// One skill's activation with hostile arguments.
struct ArgCase {
    attack: &'static str,
    /// The skill's `allowed-tools`.
    allowed: &'static str,
    /// Its body (`{M}`: the marker file, which must never be created).
    body: &'static str,
    /// The arguments, as a model passes them (`{M}` as above).
    arguments: &'static str,
    /// The body of the activation (after the header), or its error, exactly
    /// (`{M}` as above, `{D}` the skill's folder).
    expect: Result<&'static str, &'static str>,
}

const ECHO: &str = "Bash(echo:*)";
const OWN_SCRIPT: &str = "Bash(${CLAUDE_SKILL_DIR}/scripts/run.sh:*)";
const ECHO_ARGUMENTS: &str = "Out: !`echo $ARGUMENTS`\n";
const RUN_ARGUMENTS: &str = "Out: !`${CLAUDE_SKILL_DIR}/scripts/run.sh $ARGUMENTS`\n";

const ARG_CASES: &[ArgCase] = &[
    // Item 1 of issue 17: a pattern rule let arguments reach `sh -c`.
    ArgCase {
        attack: "pattern rule: `$0 $$ $HOME` is echoed, not expanded by sh",
        allowed: ECHO,
        body: ECHO_ARGUMENTS,
        arguments: "$0 $$ $HOME",
        expect: Ok("Out: $0 $$ $HOME\n"),
    },
    ArgCase {
        attack: "pattern rule: `$(…)` in the arguments",
        allowed: ECHO,
        body: ECHO_ARGUMENTS,
        arguments: "$(touch {M})",
        expect: Ok("Out: $(touch {M})\n"),
    },
    ArgCase {
        attack: "pattern rule: backquotes in the arguments",
        allowed: ECHO,
        body: ECHO_ARGUMENTS,
        arguments: "`touch {M}`",
        expect: Ok("Out: `touch {M}`\n"),
    },
    ArgCase {
        attack: "pattern rule: `;`, `|`, `&&` and `>` in the arguments",
        allowed: ECHO,
        body: ECHO_ARGUMENTS,
        arguments: "a; touch {M} | b && c > {M}",
        expect: Ok("Out: a; touch {M} | b && c > {M}\n"),
    },
    ArgCase {
        attack: "pattern rule: `#` in the arguments",
        allowed: ECHO,
        body: ECHO_ARGUMENTS,
        arguments: "a #b",
        expect: Ok("Out: a #b\n"),
    },
    ArgCase {
        attack: "pattern rule: a newline in the arguments",
        allowed: ECHO,
        body: ECHO_ARGUMENTS,
        arguments: "a\ntouch {M}",
        expect: Ok("Out: a touch {M}\n"),
    },
    ArgCase {
        attack: "pattern rule: `${IFS}` and `${HOME}` are data, not braced expansions",
        allowed: ECHO,
        body: ECHO_ARGUMENTS,
        arguments: "x${IFS}touch${IFS}{M} ${HOME}",
        expect: Ok("Out: x${IFS}touch${IFS}{M} ${HOME}\n"),
    },
    ArgCase {
        attack: "pattern rule: process substitution `<(…)` under `Bash(cat:*)`",
        allowed: "Bash(cat:*)",
        body: "Out: !`cat $ARGUMENTS`\n",
        arguments: "<(touch {M})",
        expect: Err(
            "the skill's command !`cat '<(touch' '{M})'` failed (exit code 1); its stderr:\n\
             cat: '<(touch': No such file or directory\n\
             cat: '{M})': No such file or directory",
        ),
    },
    ArgCase {
        attack: "pattern rule: breaking out of the author's double quotes",
        allowed: ECHO,
        body: "Out: !`echo \"$0\"`\n",
        arguments: "'x\"; touch {M}; \"'",
        expect: Ok("Out: x\"; touch {M}; \"\n"),
    },
    ArgCase {
        attack: "pattern rule: breaking out of the author's single quotes",
        allowed: ECHO,
        body: "Out: !`echo '$0'`\n",
        arguments: "\"x'; touch {M}; '\"",
        expect: Ok("Out: x'; touch {M}; '\n"),
    },
    ArgCase {
        attack: "pattern rule: a backslash before the author's closing quote",
        allowed: ECHO,
        body: "Out: !`echo \"$0\" '$1'`\n",
        arguments: "'\\' '\\'",
        expect: Ok("Out: \\ \\\n"),
    },
    ArgCase {
        attack: "pattern rule: `${CLAUDE_SKILL_DIR}` in the arguments is one word",
        allowed: ECHO,
        body: "Out: !`echo $0`\n",
        arguments: "'${CLAUDE_SKILL_DIR}'",
        expect: Ok("Out: {D}\n"),
    },
    ArgCase {
        attack: "pattern rule: a line with shell syntax is refused whatever the arguments",
        allowed: ECHO,
        body: "Out: !`echo $0; echo done`\n",
        arguments: "x",
        expect: Err(
            "the skill's command !`echo x; echo done` was not allowed: no rule allows \
             `Bash(echo x; echo done)`; it holds shell syntax (`;` at byte 6), which only a \
             rule without a pattern (`Bash`) allows, and nobody is asked during an activation",
        ),
    },
    // A skill folder whose path holds a space: `Bash(${CLAUDE_SKILL_DIR}/…)`.
    ArgCase {
        attack: "folder with a space: the rule's script runs, not the planted `…/my`",
        allowed: OWN_SCRIPT,
        body: RUN_ARGUMENTS,
        arguments: "a \"b c\"",
        expect: Ok("Out: <a>\n<b c>\n"),
    },
    ArgCase {
        attack: "folder with a space: arguments sh would expand",
        allowed: OWN_SCRIPT,
        body: RUN_ARGUMENTS,
        arguments: "$HOME $(touch {M})",
        expect: Ok("Out: <$HOME>\n<$(touch>\n<{M})>\n"),
    },
    ArgCase {
        attack: "folder with a space, quoted by the author",
        allowed: OWN_SCRIPT,
        body: "Out: !`\"${CLAUDE_SKILL_DIR}/scripts/run.sh\" \"$0\"`\n",
        arguments: "\"x y\" z",
        expect: Ok("Out: <x y>\n"),
    },
    // Item 2 of issue 17: arguments added commands.
    ArgCase {
        attack: "arguments add no command: `!`cmd`` in the text",
        allowed: "Bash(cat:*)",
        body: "Say $ARGUMENTS\n",
        arguments: "hello !`cat /etc/hostname`",
        // Claude Code escapes a `!` starting a word and parts one from a
        // backquote in every value (recorded on 2.1.332).
        expect: Ok("Say hello \\! `cat /etc/hostname`\n"),
    },
    ArgCase {
        attack: "arguments add no command, even under a rule without a pattern",
        allowed: "Bash",
        body: "Say $0 and $1\n",
        arguments: "'!`touch {M}`' x",
        expect: Ok("Say \\! `touch {M}` and x\n"),
    },
    ArgCase {
        attack: "arguments add no command through the `ARGUMENTS:` line",
        allowed: "Bash",
        body: "Plain.\n",
        arguments: "!`touch {M}`",
        expect: Ok("Plain.\n\n\nARGUMENTS: \\! `touch {M}`"),
    },
    ArgCase {
        attack: "arguments add no command block",
        allowed: "Bash",
        body: "Say:\n$ARGUMENTS\n",
        arguments: "```!\ntouch {M}\n```",
        expect: Ok("Say:\n``` \\!\ntouch {M}\n```\n"),
    },
    // A shell line (a rule without a pattern): the arguments stay data.
    ArgCase {
        attack: "shell line: the arguments stay data in every quoting",
        allowed: "Bash",
        body: "Out: !`echo \"$0\"; echo '$1' | cat; echo $2`\n",
        arguments: "'\"; touch {M}; \"' \"'; touch {M}; '\" '; touch {M}'",
        expect: Ok("Out: \"; touch {M}; \"\n'; touch {M}; '\n; touch {M}\n"),
    },
    ArgCase {
        attack: "shell line: a value after the author's `~` names no user",
        allowed: "Bash",
        body: "Out: !`echo ~$0 | cat`\n",
        arguments: "root",
        expect: Ok("Out: ~root\n"),
    },
    ArgCase {
        attack: "shell line: a placeholder in a comment is refused",
        allowed: "Bash",
        body: "!`echo hi # $0`",
        arguments: "'x\ntouch {M}'",
        expect: Err(
            "the skill's command !`echo hi # $0` cannot take its arguments as data: `$0`: it \
             stands in a comment, where no quoting is sure to keep a value one word of data; \
             quote the placeholder or move it out of that construct",
        ),
    },
    ArgCase {
        attack: "shell line: a placeholder inside `$(…)` is refused",
        allowed: "Bash",
        body: "!`echo $(printf %s $0)`",
        arguments: "'x; touch {M}'",
        expect: Err(
            "the skill's command !`echo $(printf %s $0)` cannot take its arguments as data: \
             `$0`: it stands after `$(`, where no quoting is sure to keep a value one word of \
             data; quote the placeholder or move it out of that construct",
        ),
    },
    ArgCase {
        attack: "shell line: a placeholder after bash's `[[` is refused",
        allowed: "Bash",
        body: "!`[[ $0 -eq 1 ]] && echo one`",
        arguments: "'a[$(touch {M})]'",
        expect: Err(
            "the skill's command !`[[ $0 -eq 1 ]] && echo one` cannot take its arguments as \
             data: `$0`: it stands after `[[`, where no quoting is sure to keep a value one \
             word of data; quote the placeholder or move it out of that construct",
        ),
    },
];

/// The skills of [`ARG_CASES`] (`case-<row>`), in a folder whose path holds
/// a space (`<tmp>/my skills`), beside a program `<tmp>/my` that creates
/// the marker: a command line split at that space runs it.
struct ArgSkills {
    tmp: tempfile::TempDir,
    root: PathBuf,
    marker: PathBuf,
}

impl ArgSkills {
    fn new<'c>(cases: impl IntoIterator<Item = (String, &'c str, &'c str)>) -> ArgSkills {
        let tmp = tempdir();
        let root = tmp.path().join("my skills");
        let marker = tmp.path().join("pwned");
        let planted = tmp.path().join("my");
        fs::write(
            &planted,
            format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
        )
        .unwrap();
        fs::set_permissions(&planted, fs::Permissions::from_mode(0o755)).unwrap();
        let skills = ArgSkills { tmp, root, marker };
        for (name, allowed, body) in cases {
            let dir = skills.root.join(&name);
            fs::create_dir_all(dir.join("scripts")).unwrap();
            let body = body.replace("{M}", &skills.m());
            let md = format!(
                "---\nname: {name}\ndescription: Hostile arguments. Use when testing.\nallowed-tools: '{allowed}'\n---\n{body}"
            );
            fs::write(dir.join("SKILL.md"), md).unwrap();
            let script = dir.join("scripts/run.sh");
            fs::write(&script, RUN_SH).unwrap();
            fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
        }
        skills
    }

    fn m(&self) -> String {
        self.marker.to_str().unwrap().to_string()
    }

    fn dir(&self, name: &str) -> String {
        self.root.join(name).to_str().unwrap().to_string()
    }

    /// The skills compiled as `skills_bundle!` compiles them.
    fn bundle(&self) -> Bundle {
        use skills_compiler::{self as compiler, Options, Profile, embed, pack::write_pack};
        let roots = [self.root.clone()];
        let options = Options {
            profile: Profile::ClaudeCode,
            ..Options::default()
        };
        let checked = compiler::check(&roots, &options);
        let plan = embed::plan(&checked, &roots, &[]).unwrap();
        let bytes = write_pack(&plan, skills_core::zip::write::DosTime::EPOCH).unwrap();
        Bundle::from_pack(&bytes, skills_bundle::pack::Trust::Unsigned).unwrap()
    }

    /// `name` activated through the library, as `skb show --style
    /// claude-code --run-commands` does: its rules granted with the
    /// variables filled, commands run by the executor (a shell allowed, the
    /// policy deciding), `executor` seeing each command first.
    fn activate(
        &self,
        bundle: &Bundle,
        name: &str,
        arguments: &str,
        executor: &impl ScriptExecutor,
    ) -> Result<String, String> {
        use skills_bundle::activation::claude_code::Vars;
        use skills_bundle::activation::{Options, PolicyRunner, Rule};
        let skill = bundle.get(name).unwrap();
        let dir = self.dir(name);
        let vars = Vars {
            skill_dir: &dir,
            session_id: Some("session"),
            project_dir: Some("/project"),
        };
        let policy = skills_bundle::ToolPolicy::new(Mode::PreApprove);
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

    /// `skb show NAME --style claude-code --run-commands --args …`: its
    /// stdout, or its error without the `skb: ` prefix.
    fn show(&self, name: &str, arguments: &str) -> Result<String, String> {
        let out = skills()
            .env("XDG_CACHE_HOME", self.tmp.path().join("cli-cache"))
            .env("LC_ALL", "C")
            .args(["show", name, "--style", "claude-code", "--run-commands"])
            .args(["--session-id", "session", "--project-dir", "/project"])
            .arg("--from")
            .arg(&self.root)
            .args(["--args", arguments])
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&out);
        // What Claude Code would run without asking is said on stderr, one
        // line a command; the rest is the answer.
        let stderr: String = stderr
            .lines()
            .filter(|l| !l.starts_with("skb: Claude Code (default permission mode)"))
            .map(|l| format!("{l}\n"))
            .collect();
        if out.status.success() {
            assert_eq!(stderr, "", "{name}: stderr of a success");
            Ok(stdout)
        } else {
            assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
            assert_eq!(stdout, "", "{name}: stdout of a failure");
            let error = stderr.strip_prefix("skb: ").unwrap_or(&stderr);
            Err(error.strip_suffix('\n').unwrap_or(error).to_string())
        }
    }
}

/// Every row of [`ARG_CASES`] through the library and through `skills
/// show`: exactly the expected text or error, and the marker never made.
fn check_arg_cases() {
    let skills = ArgSkills::new(
        ARG_CASES
            .iter()
            .enumerate()
            .map(|(i, c)| (format!("case-{i}"), c.allowed, c.body)),
    );
    let bundle = skills.bundle();
    let executor = {
        let mut e = LocalExecutor::new(skills.tmp.path().join("cache"));
        e.allow_shell = true;
        e
    };
    let m = skills.m();
    each_row(
        ARG_CASES.iter().enumerate(),
        |(_, case)| case.attack.to_string(),
        |&(i, case)| {
            // A marker a failed row left would fail the next ones too.
            let _ = fs::remove_file(&skills.marker);
            let name = format!("case-{i}");
            let dir = skills.dir(&name);
            let fill = |s: &str| s.replace("{M}", &m).replace("{D}", &dir);
            let want = case
                .expect
                .map(|body| format!("Base directory for this skill: {dir}\n\n{}", fill(body)))
                .map_err(fill);
            let arguments = fill(case.arguments);
            let got = skills.activate(&bundle, &name, &arguments, &executor);
            assert_eq!(got, want, "Skill::activate_with");
            assert!(
                !skills.marker.exists(),
                "the library ran an injected command"
            );
            assert_eq!(
                skills.show(&name, &arguments),
                want,
                "skb show --run-commands"
            );
            assert!(
                !skills.marker.exists(),
                "`skb show` ran an injected command"
            );
        },
    );
}

#[test]
fn arguments_through_activation_stay_data() {
    check_arg_cases();
}

// ---------------------------------------------------------------------------
// 10. The same where `/bin/sh` is bash (Fedora, RHEL 9, Arch, openSUSE).

/// Arguments a shell would read as something else than data (`{M}`: the
/// marker file). Each is passed as `$0` (quoted so that it is exactly
/// `$0`) and as the whole `$ARGUMENTS`.
const HOSTILE: &[&str] = &[
    "$0 $$ $HOME",
    "<(touch {M})",
    ">(touch {M})",
    "$(touch {M})",
    "`touch {M}`",
    "\"$(touch {M})\"",
    "x; touch {M}",
    "x | touch {M}",
    "x && touch {M}",
    "x || touch {M}",
    "x & touch {M}",
    "x >{M}",
    "x >> {M}",
    "< /etc/passwd",
    "#x\ntouch {M}",
    "x\ntouch {M}",
    "x\r\ntouch {M}",
    "${IFS}touch${IFS}{M}",
    "$IFS",
    "${HOME}",
    "$((1+1))",
    "$[1+1]",
    "a[$(touch {M})]",
    "\"; touch {M}; \"",
    "'; touch {M}; '",
    "\\\"; touch {M} #",
    "'\\''; touch {M}; '\\''",
    "$'\\x27; touch {M}; \\x27'",
    "\\",
    "x\\",
    "\\\n",
    "!`touch {M}`",
    "```!\ntouch {M}\n```",
    "*",
    "~",
    "~root",
    "{a,b}",
    "a=b",
    "PATH=/tmp",
    "-e",
    "${CLAUDE_SKILL_DIR}",
    "",
    " ",
    "\t",
    "é 😀",
    "it's",
    "\"quoted\"",
];

/// Where the author puts the argument in a command: the placeholder
/// written so, and whether `$0` (else `$ARGUMENTS`).
const CONTEXTS: &[(&str, bool)] = &[
    ("$0", true),
    ("\"$0\"", true),
    ("'$0'", true),
    ("$ARGUMENTS", false),
    ("\"$ARGUMENTS\"", false),
    ("'$ARGUMENTS'", false),
];

/// The pattern rules, each with the program of its commands and the
/// program it names in argv.
const PROGRAMS: &[(&str, &str, &str)] = &[
    (ECHO, "echo", "echo"),
    ("Bash(cat:*)", "cat", "cat"),
    (
        OWN_SCRIPT,
        "${CLAUDE_SKILL_DIR}/scripts/run.sh",
        "scripts/run.sh",
    ),
    (
        OWN_SCRIPT,
        "\"${CLAUDE_SKILL_DIR}/scripts/run.sh\"",
        "scripts/run.sh",
    ),
];

/// A [`ScriptExecutor`] that records each command, then runs it.
struct Recording {
    inner: LocalExecutor,
    seen: std::sync::Mutex<Vec<skills_bundle::exec::Invocation>>,
}

impl ScriptExecutor for Recording {
    fn run(&self, skill: &Skill<'_>, command: &Command) -> Result<Output, ExecError> {
        self.seen.lock().unwrap().push(command.invocation.clone());
        self.inner.run(skill, command)
    }
}

impl Recording {
    fn take(&self) -> Vec<skills_bundle::exec::Invocation> {
        std::mem::take(&mut *self.seen.lock().unwrap())
    }
}

/// Every hostile argument under every pattern rule, in every context of the
/// author's command: the executor is asked to run exactly the rule's
/// program with the argument's words as they were given (no shell, no
/// other program), and the marker never appears; a line that needs a
/// shell runs only under a rule without a pattern, with the arguments
/// data; an argument never adds a command.
fn check_hostile_arguments() {
    use skills_bundle::activation::{argument_words, claude_code::Vars, split_arguments};
    use skills_bundle::exec::Invocation;
    use skills_bundle::shell::quote;
    let mut skills_of = Vec::new();
    for (p, (rule, program, _)) in PROGRAMS.iter().enumerate() {
        for (c, (context, _)) in CONTEXTS.iter().enumerate() {
            let body = format!("Out: !`{program} {context}`\n");
            skills_of.push((format!("p{p}-c{c}"), *rule, body));
        }
    }
    let shell_line = "Out: !`printf '[%s]' \"$0\" '$1' $2; echo`\n";
    skills_of.push(("shell-line".into(), "Bash", shell_line.into()));
    skills_of.push((
        "shell-line-pattern".into(),
        ECHO,
        "!`echo $0; echo x`".into(),
    ));
    skills_of.push(("no-command".into(), "Bash", "Say $ARGUMENTS, $0.\n".into()));
    let skills = ArgSkills::new(
        skills_of
            .iter()
            .map(|(name, rule, body)| (name.clone(), *rule, body.as_str())),
    );
    let bundle = skills.bundle();
    let mut inner = LocalExecutor::new(skills.tmp.path().join("cache"));
    // A shell is allowed: only the policy stands between a line and `sh`.
    inner.allow_shell = true;
    let executor = Recording {
        inner,
        seen: std::sync::Mutex::new(Vec::new()),
    };
    let m = skills.m();
    let rows = HOSTILE.iter().map(|h| h.replace("{M}", &m));
    each_row(
        rows,
        |h| format!("{h:?}"),
        |hostile| {
            let _ = fs::remove_file(&skills.marker);
            let quoted = quote(hostile);
            assert_eq!(
                split_arguments(&quoted),
                [hostile.as_str()],
                "$0 is the argument"
            );
            for (p, (_, _, argv0)) in PROGRAMS.iter().enumerate() {
                for (c, (context, dollar0)) in CONTEXTS.iter().enumerate() {
                    let name = format!("p{p}-c{c}");
                    let dir = skills.dir(&name);
                    let vars = Vars {
                        skill_dir: &dir,
                        session_id: Some("session"),
                        project_dir: Some("/project"),
                    };
                    let (arguments, words) = match (dollar0, context.starts_with('$')) {
                        (true, true) if hostile.is_empty() => (&quoted, vec![]),
                        (true, _) => (&quoted, vec![vars.expand(hostile)]),
                        (false, true) => (
                            hostile,
                            argument_words(hostile)
                                .iter()
                                .map(|w| vars.expand(w))
                                .collect(),
                        ),
                        (false, false) => (hostile, vec![vars.expand(hostile)]),
                    };
                    let got = skills.activate(&bundle, &name, arguments, &executor);
                    let argv: Vec<String> = std::iter::once(argv0.to_string())
                        .chain(words.iter().cloned())
                        .collect();
                    assert_eq!(
                        executor.take(),
                        [Invocation::Argv(argv)],
                        "{name}: `{context}` under {}",
                        PROGRAMS[p].0
                    );
                    assert!(!skills.marker.exists(), "{name}: an injected command ran");
                    match *argv0 {
                        "scripts/run.sh" => {
                            let printed: Vec<String> =
                                words.iter().map(|w| format!("<{w}>")).collect();
                            let want = format!(
                                "Base directory for this skill: {dir}\n\nOut: {}\n",
                                printed.join("\n")
                            );
                            assert_eq!(got, Ok(want), "{name}");
                        }
                        "echo" => assert!(got.is_ok(), "{name}: {got:?}"),
                        _ => assert!(
                            match &got {
                                Ok(_) => true,
                                Err(e) => e.contains("` failed (exit code 1)"),
                            },
                            "{name}: {got:?}"
                        ),
                    }
                }
            }
            // A shell line under a rule without a pattern: the arguments are
            // data in every quoting.
            let dir = skills.dir("shell-line");
            let vars = Vars {
                skill_dir: &dir,
                session_id: Some("session"),
                project_dir: Some("/project"),
            };
            let value = vars.expand(hostile);
            let three = [quoted.as_str(); 3].join(" ");
            let got = skills.activate(&bundle, "shell-line", &three, &executor);
            let printed = if value.is_empty() {
                "[][]".to_string()
            } else {
                format!("[{value}][{value}][{value}]")
            };
            assert_eq!(
                got,
                Ok(format!(
                    "Base directory for this skill: {dir}\n\nOut: {printed}\n"
                )),
                "shell-line"
            );
            let seen = executor.take();
            assert!(
                matches!(seen.as_slice(), [Invocation::Shell(_)]),
                "shell-line: {seen:?}"
            );
            assert!(
                !skills.marker.exists(),
                "shell-line: an injected command ran"
            );
            // The same line under a pattern rule: refused, nothing run.
            let got = skills.activate(&bundle, "shell-line-pattern", &quoted, &executor);
            assert!(
                got.as_ref()
                    .is_err_and(|e| e.contains("was not allowed: no rule allows")),
                "shell-line-pattern: {got:?}"
            );
            assert_eq!(
                executor.take(),
                Vec::<Invocation>::new(),
                "shell-line-pattern"
            );
            // No command in the body: none from the arguments either.
            for arguments in [hostile.as_str(), quoted.as_str()] {
                let got = skills.activate(&bundle, "no-command", arguments, &executor);
                assert!(got.is_ok(), "no-command: {got:?}");
                assert_eq!(
                    executor.take(),
                    Vec::<Invocation>::new(),
                    "no-command ran a command"
                );
            }
            assert!(!skills.marker.exists(), "an injected command ran");
        },
    );
}

#[test]
fn hostile_arguments_reach_the_rules_program_as_data() {
    check_hostile_arguments();
}

/// Runs `test` (the body of the test `name`) in a child of this test
/// binary, in a private mount namespace where `/bin/sh` is bash
/// (`unshare --mount`, then `mount --bind /bin/bash /bin/sh`; needs root),
/// as it is on Fedora, RHEL 9, Arch and openSUSE, where bash 5.1+ runs
/// `<(…)` even as `sh`. Fails, loudly, when the namespace cannot be made or
/// `/bin/sh` is not bash inside it.
fn with_bash_as_sh(name: &str, test: impl FnOnce()) {
    const INSIDE: &str = "SKILLS_TESTS_SH_IS_BASH";
    if std::env::var_os(INSIDE).is_some_and(|v| v == name) {
        let sh = std::process::Command::new("/bin/sh")
            .args(["-c", "echo \"${BASH_VERSION:-not bash}\""])
            .output()
            .unwrap();
        let version = String::from_utf8_lossy(&sh.stdout);
        assert!(
            version.starts_with(|c: char| c.is_ascii_digit()),
            "/bin/sh is not bash in the namespace: {version}"
        );
        println!("/bin/sh is bash {}", version.trim());
        test();
        return;
    }
    assert!(
        Path::new("/bin/bash").is_file(),
        "this test needs bash: `apt-get install -y bash`"
    );
    let out = std::process::Command::new("unshare")
        .args(["--mount", "--propagation", "private", "--", "/bin/sh", "-c"])
        .arg("mount --bind /bin/bash /bin/sh && exec \"$@\"")
        .arg("sh")
        .arg(std::env::current_exe().unwrap())
        .args([
            name,
            "--exact",
            "--ignored",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(INSIDE, name)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run `unshare` ({e}): this test needs util-linux"));
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    print!("{text}");
    assert!(
        out.status.success(),
        "`{name}` with /bin/sh bound to bash failed; making the namespace needs root \
         (`unshare --mount`, `mount --bind`):\n{text}"
    );
    assert!(
        text.contains("/bin/sh is bash ") && text.contains("test result: ok. 1 passed"),
        "`{name}` did not run with /bin/sh bound to bash"
    );
}

/// The acceptance of issue 17: with `/bin/sh` bash, no argument under any
/// pattern rule runs a program the rule does not name. Needs root, so it
/// is run by `.ci/run` (`-- --ignored --exact` this test).
#[test]
#[ignore = "needs root (a mount namespace with bash bound over /bin/sh): run by .ci/run"]
fn no_argument_runs_a_program_when_sh_is_bash() {
    with_bash_as_sh(
        "security::no_argument_runs_a_program_when_sh_is_bash",
        || {
            check_arg_cases();
            check_hostile_arguments();
        },
    );
}

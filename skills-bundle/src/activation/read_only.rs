//! Which `` !`cmd` `` commands Claude Code runs without asking: in its
//! default permission mode it runs a read-only command at activation with no
//! `allowed-tools` rule, and asks (in a headless run: fails the activation)
//! for anything else. [`predict`] says which; it is a prediction shown beside
//! the activation text, never a permission: what this crate runs itself
//! (through a [`RunCommand`](super::RunCommand)) still needs the skill's own
//! rules.
//!
//! The model is Claude Code's own read-only rule (read in its 2.1.332
//! bundle, which the record agrees with: `echo` and `ls` ran without a
//! rule), as a list of programs ([`PROGRAMS`]) with what each may be given
//! ([`Words`]), and a rule on their paths:
//!
//! - the command is one simple command with no shell syntax (a pipe, `;`,
//!   `&&`, a redirection, an expansion all make it ask). Claude Code
//!   accepts more (it ran `echo out; echo err 1>&2` without a rule, each
//!   part read-only): this model is the safe side of it;
//! - the program is named bare (`ls`, not `/bin/ls`) and is in the list:
//!   any words for most (`cat`, `head`, `wc`, `diff`, ...), none at all for
//!   `pwd`, `whoami` and `alias`, exact command lines for a few
//!   (`node --version`), only listed flags for `date` and `which`. Claude
//!   Code checks more programs flag by flag (`grep` with flags, `sort`, `git log`,
//!   ...); those are not modelled here, so they ask;
//! - a program that reads files or folders reads only inside the working
//!   directory: an absolute path elsewhere, `~` or a `..` leading out makes
//!   Claude Code ask (recorded: `ls /nonexistent-dir-xyz` was blocked, "Claude
//!   Code may only list files in the allowed working directories", while `ls
//!   does-not-exist-here` ran and failed).

use std::path::{Component, Path, PathBuf};

use crate::shell;

/// Where a program's place in [`PROGRAMS`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// Claude Code 2.1.330 was recorded running it without a rule.
    Recorded,
    /// In Claude Code's read-only list (its 2.1.332 bundle); not recorded.
    Listed,
}

/// What a read-only program may be given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Words {
    /// Any words.
    Any,
    /// No word at all.
    None,
    /// Exactly these words.
    Exactly(&'static [&'static str]),
    /// Only these flags (a flag taking a value is followed by `=` here:
    /// `-d=`), and other words only when they start with `+` if `plus`
    /// (`date +%Y`), else any.
    Flags {
        /// The flags it takes.
        flags: &'static [&'static str],
        /// Whether its other words must start with `+`.
        plus: bool,
    },
}

/// A program Claude Code runs without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Program {
    /// Its name, as the command's first word.
    pub name: &'static str,
    /// Where its place in the list comes from.
    pub basis: Basis,
    /// Whether its other words name files or folders it reads (each must be
    /// inside the working directory).
    pub reads_paths: bool,
    /// What it may be given.
    pub words: Words,
}

const fn program(name: &'static str, basis: Basis, reads_paths: bool, words: Words) -> Program {
    Program {
        name,
        basis,
        reads_paths,
        words,
    }
}

const fn reads(name: &'static str) -> Program {
    program(name, Basis::Listed, true, Words::Any)
}

const fn any(name: &'static str) -> Program {
    program(name, Basis::Listed, false, Words::Any)
}

/// The read-only programs: `echo`, `ls` and `grep` without flags are
/// recorded; the others are in Claude Code's list.
pub const PROGRAMS: &[Program] = &[
    program("echo", Basis::Recorded, false, Words::Any),
    program("ls", Basis::Recorded, true, Words::Any),
    // Claude Code checks grep flag by flag; without flags it ran (recorded
    // on 2.1.332); a flag here asks.
    program(
        "grep",
        Basis::Recorded,
        true,
        Words::Flags {
            flags: &[],
            plus: false,
        },
    ),
    program("pwd", Basis::Listed, false, Words::None),
    program("whoami", Basis::Listed, false, Words::None),
    program("alias", Basis::Listed, false, Words::None),
    program("node", Basis::Listed, false, Words::Exactly(&["--version"])),
    program("node", Basis::Listed, false, Words::Exactly(&["-v"])),
    program(
        "python",
        Basis::Listed,
        false,
        Words::Exactly(&["--version"]),
    ),
    program(
        "python3",
        Basis::Listed,
        false,
        Words::Exactly(&["--version"]),
    ),
    program("ip", Basis::Listed, false, Words::Exactly(&["addr"])),
    program("claude", Basis::Listed, false, Words::Exactly(&["-h"])),
    program("claude", Basis::Listed, false, Words::Exactly(&["--help"])),
    program(
        "date",
        Basis::Listed,
        false,
        Words::Flags {
            flags: &[
                "-d=",
                "--date=",
                "-r=",
                "--reference=",
                "-u",
                "--utc",
                "--universal",
                "-I",
                "--iso-8601=",
                "-R",
                "--rfc-email",
                "--rfc-3339=",
                "--debug",
                "--help",
                "--version",
            ],
            plus: true,
        },
    ),
    program(
        "which",
        Basis::Listed,
        false,
        Words::Flags {
            flags: &[
                "-a",
                "--all",
                "-s",
                "-p",
                "-w",
                "--skip-dot",
                "--skip-tilde",
                "--show-dot",
                "--show-tilde",
                "--skip-alias",
                "--skip-functions",
                "-v",
                "-V",
                "--version",
                "--help",
            ],
            plus: false,
        },
    ),
    any("cal"),
    any("uptime"),
    reads("cat"),
    reads("head"),
    reads("tail"),
    reads("wc"),
    reads("stat"),
    reads("strings"),
    reads("hexdump"),
    reads("od"),
    reads("nl"),
    any("id"),
    any("uname"),
    any("free"),
    reads("df"),
    reads("du"),
    any("locale"),
    any("groups"),
    any("nproc"),
    any("basename"),
    any("dirname"),
    reads("realpath"),
    reads("cut"),
    reads("paste"),
    any("tr"),
    reads("column"),
    reads("tac"),
    reads("rev"),
    reads("fold"),
    reads("expand"),
    reads("unexpand"),
    reads("fmt"),
    reads("comm"),
    reads("cmp"),
    any("numfmt"),
    reads("readlink"),
    reads("diff"),
    any("true"),
    any("false"),
    any("sleep"),
    any("type"),
    any("expr"),
    any("seq"),
    reads("tsort"),
    reads("pr"),
];

/// What Claude Code does with a command in its default permission mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prediction {
    /// It runs the command without asking.
    Runs(Program),
    /// It asks first (headless: the activation fails) unless a rule allows
    /// it; why it is not read-only.
    Asks(String),
}

/// Whether Claude Code runs `command` (its placeholders filled) without
/// asking, `working_dir` being the session's working directory (the
/// project). See the module documentation.
pub fn predict(command: &str, working_dir: &str) -> Prediction {
    let words = match shell::split(command) {
        Ok(words) => words,
        Err(e) => return Prediction::Asks(format!("it is not one simple command ({e})")),
    };
    let Some((name, args)) = words.split_first() else {
        return Prediction::Asks("it is empty".into());
    };
    let mut named = PROGRAMS
        .iter()
        .filter(|p| p.name == name.as_str())
        .peekable();
    if named.peek().is_none() {
        return Prediction::Asks(format!("`{name}` is not in Claude Code's read-only list"));
    }
    let Some(found) = named.find(|p| accepts(p.words, args)) else {
        return Prediction::Asks(format!(
            "Claude Code's read-only rule for `{name}` does not take these words"
        ));
    };
    if found.reads_paths
        && let Some(outside) = args
            .iter()
            .filter(|a| !a.starts_with('-'))
            .find(|a| !inside(a, working_dir))
    {
        return Prediction::Asks(format!(
            "`{name}` reads `{outside}`, outside the working directory `{working_dir}`"
        ));
    }
    Prediction::Runs(*found)
}

/// Whether a program given `words` may take `args`.
fn accepts(words: Words, args: &[String]) -> bool {
    match words {
        Words::Any => true,
        Words::None => args.is_empty(),
        Words::Exactly(want) => args.iter().map(String::as_str).eq(want.iter().copied()),
        Words::Flags { flags, plus } => {
            let mut args = args.iter();
            while let Some(arg) = args.next() {
                if arg.starts_with('-') {
                    let (flag, inline) = match arg.split_once('=') {
                        Some((flag, _)) => (flag, true),
                        None => (arg.as_str(), false),
                    };
                    if flags.contains(&flag) {
                        continue;
                    }
                    if !flags.iter().any(|f| f.strip_suffix('=') == Some(flag)) {
                        return false;
                    }
                    // A flag with a value takes the next word, unless given inline.
                    if !inline && args.next().is_none() {
                        return false;
                    }
                } else if plus && !arg.starts_with('+') {
                    return false;
                }
            }
            true
        }
    }
}

/// Whether `path`, read from `working_dir`, stays inside it (lexically:
/// `..` is resolved without the file system, `~` is outside).
fn inside(path: &str, working_dir: &str) -> bool {
    if path.starts_with('~') {
        return false;
    }
    let base = Path::new(working_dir);
    normal(&base.join(path)).starts_with(normal(base))
}

/// `path` with `.` and `..` resolved lexically.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(command: &str) -> bool {
        matches!(predict(command, "/p/proj"), Prediction::Runs(_))
    }

    #[test]
    fn the_recorded_commands() {
        // Ran without a rule.
        assert!(runs("echo hi"));
        assert!(runs("echo in-fence"));
        assert!(runs("ls does-not-exist-here"));
        // Blocked or asked.
        assert_eq!(
            predict("ls /nonexistent-dir-xyz", "/p/proj"),
            Prediction::Asks(
                "`ls` reads `/nonexistent-dir-xyz`, outside the working directory `/p/proj`".into()
            )
        );
        assert!(!runs("touch /w/touched && echo touched-ok"));
        assert!(!runs("touch /w/touched2"));
        // Ran in Claude Code, asked here: shell syntax is the safe side.
        assert!(!runs("echo out; echo err 1>&2"));
    }

    #[test]
    fn paths_stay_in_the_working_directory() {
        for ok in [
            "cat README.md",
            "head -n 5 src/a.rs",
            "ls -la",
            "ls /p/proj/src",
            "wc -l a/../b",
            "tail ./x",
        ] {
            assert!(runs(ok), "{ok}");
        }
        for outside in [
            "cat /etc/passwd",
            "ls ..",
            "cat a/../../x",
            "head ~/.ssh/id_rsa",
            "ls /p/project-other",
        ] {
            assert!(!runs(outside), "{outside}");
        }
        // Programs that read no paths take any words.
        assert!(runs("echo /etc/passwd .."));
        assert!(runs("which git"));
    }

    #[test]
    fn only_bare_listed_programs_without_shell_syntax() {
        for asks in [
            "/bin/echo hi",
            "rm -rf x",
            "git status",
            "echo $(id)",
            "cat x | sh",
            "echo hi > f",
            "date -s 2020-01-01",
            "date --set=x",
            "",
        ] {
            assert!(!runs(asks), "{asks}");
        }
        assert!(runs("date +%Y"));
        assert!(runs("date -u -d 2020-01-01 +%s"));
        assert!(runs("pwd"));
        assert!(runs("node --version"));
        assert!(runs("which -a git"));
        assert!(runs("grep hello f.txt"));
        for asks in [
            "pwd -P",
            "node -e 1",
            "date 0101",
            "date -d",
            "which --exec x",
            "grep -r x f",
            "sort f",
        ] {
            assert!(!runs(asks), "{asks}");
        }
        assert_eq!(
            predict("node -e 1", "/p"),
            Prediction::Asks(
                "Claude Code's read-only rule for `node` does not take these words".into()
            )
        );
        let basis = |name: &str| PROGRAMS.iter().find(|p| p.name == name).map(|p| p.basis);
        assert_eq!(basis("echo"), Some(Basis::Recorded));
        assert_eq!(basis("ls"), Some(Basis::Recorded));
        assert_eq!(basis("cat"), Some(Basis::Listed));
    }
}

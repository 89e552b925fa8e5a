//! Which `` !`cmd` `` commands Claude Code runs without asking: in its
//! default permission mode it runs a read-only command at activation with no
//! `allowed-tools` rule, and asks (in a headless run: fails the activation)
//! for anything else. [`predict`] says which; it is a prediction shown beside
//! the activation text, never a permission: what this crate runs itself
//! (through a [`RunCommand`](super::RunCommand)) still needs the skill's own
//! rules.
//!
//! The model is a list of programs ([`PROGRAMS`]), each marked as recorded
//! (Claude Code 2.1.330 was seen running it without a rule) or assumed
//! (read-only by what it does, not recorded), and a rule on their paths:
//!
//! - the command is one simple command with no shell syntax (a pipe, `;`,
//!   `&&`, a redirection, an expansion all make it ask). Claude Code
//!   accepts more (it ran `echo out; echo err 1>&2` without a rule): this
//!   model is the safe side of it;
//! - the program is named bare (`ls`, not `/bin/ls`) and is in the list;
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
    /// Read-only by what it does; not in the record.
    Assumed,
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
}

const fn program(name: &'static str, basis: Basis, reads_paths: bool) -> Program {
    Program {
        name,
        basis,
        reads_paths,
    }
}

/// The read-only programs: `echo` and `ls` are recorded; the others are
/// assumed.
pub const PROGRAMS: &[Program] = &[
    program("echo", Basis::Recorded, false),
    program("ls", Basis::Recorded, true),
    program("pwd", Basis::Assumed, false),
    program("cat", Basis::Assumed, true),
    program("head", Basis::Assumed, true),
    program("tail", Basis::Assumed, true),
    program("wc", Basis::Assumed, true),
    program("date", Basis::Assumed, false),
    program("which", Basis::Assumed, false),
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
    let Some(found) = PROGRAMS.iter().find(|p| p.name == name.as_str()) else {
        return Prediction::Asks(format!("`{name}` is not a read-only program of this model"));
    };
    // `date -s`/`--set` sets the clock.
    if found.name == "date" && args.iter().any(|a| a == "-s" || a.starts_with("--set")) {
        return Prediction::Asks("`date` sets the clock".into());
    }
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
        assert!(runs("pwd"));
        let basis = |name: &str| PROGRAMS.iter().find(|p| p.name == name).map(|p| p.basis);
        assert_eq!(basis("echo"), Some(Basis::Recorded));
        assert_eq!(basis("ls"), Some(Basis::Recorded));
        assert_eq!(basis("cat"), Some(Basis::Assumed));
    }
}

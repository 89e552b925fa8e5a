//! What a command runs besides itself: the script file it names (read again
//! as the language it is run with), and sandbox escapes in code it runs
//! inline.

use super::cmd::{Cmd, FETCHERS, has_word, span_of};
use crate::ctx::{Ctx, Kind, Unit};
use crate::rule::{Severity, id};

/// The file a command runs and the language it runs it as: a shell's,
/// Python's or JavaScript's first operand (`bash x.png`, `. ./env.dat`,
/// `python3 -u tool`, `deno run x`), or the program itself when named by a
/// relative path (`./tools/setup`: `None`, run as its shebang says, by a
/// shell when it says nothing). Not code given inline (`-c`, `-e`, `-m`).
pub(super) fn runs_script<'c>(cmd: &'c Cmd<'_>) -> Option<(&'c str, Option<Kind>)> {
    let name = cmd.name.as_str();
    let operand = |inline: &[&str], skip: usize| {
        let args = cmd.args.get(skip..)?;
        if args.iter().any(|a| inline.contains(&a.text.as_str())) {
            return None;
        }
        args.iter()
            .map(|a| a.text.as_str())
            .find(|a| !a.starts_with('-') && !a.starts_with('+'))
    };
    let python = name.starts_with("python") || name.starts_with("pypy");
    let (file, kind) = match name {
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "source" | "." => {
            (operand(&["-c"], 0)?, Kind::Shell)
        }
        "pwsh" | "powershell" => (
            operand(
                &[
                    "-c",
                    "-command",
                    "-Command",
                    "-encodedcommand",
                    "-EncodedCommand",
                ],
                0,
            )?,
            Kind::PowerShell,
        ),
        _ if python => (operand(&["-c", "-m"], 0)?, Kind::Python),
        "node" | "tsx" | "ts-node" => (operand(&["-e", "-p", "--eval", "--print"], 0)?, Kind::Js),
        "deno" | "bun" => {
            let skip = usize::from(cmd.args.first().is_some_and(|a| a.text == "run"));
            (operand(&["-e", "--eval"], skip)?, Kind::Js)
        }
        _ => {
            let program = cmd
                .words
                .get(cmd.words.len().checked_sub(cmd.args.len() + 1)?)?;
            let path = program.text.as_str();
            return (path.contains('/') && !path.starts_with(['/', '~']) && !path.contains("$("))
                .then_some((path, None));
        }
    };
    (!file.is_empty() && !file.contains("$(") && !file.starts_with(['<', '/']))
        .then_some((file, Some(kind)))
}

pub(super) fn sandbox_escape(
    ctx: &mut Ctx<'_>,
    unit: &Unit<'_>,
    cmd: &Cmd<'_>,
    code: &str,
    pattern: &str,
) {
    let Ok(re) = crate::text::regex(pattern) else {
        return;
    };
    if re.is_match(code)
        && (FETCHERS.iter().any(|f| has_word(code, f))
            || code.contains("pip install")
            || code.contains("npm i")
            || code.contains("http"))
    {
        ctx.report(unit, id::SandboxEscape, Severity::High, span_of(cmd.words),
            format!("`{}` runs network commands from inside its own code, where the agent's tool rules do not see them", cmd.name));
    }
}

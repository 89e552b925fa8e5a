//! `skb run NAME -- COMMAND...`: one command in a skill's directory, as
//! an agent's `run_skill_script` would run it.
//!
//! The skill is activated in a fresh `Session` (so its `allowed-tools` are
//! granted), the command is checked against the policy as `Bash` with that
//! command line, and run by `LocalExecutor`: the skill's files materialised
//! into the private cache (`$XDG_CACHE_HOME/skills` or `~/.cache/skills`),
//! no shell, a reduced environment, the time limit and the output caps.
//! The command's stdout and stderr are passed through and its exit status
//! kept; output cut at `--max-output` is said on stderr and fails the run
//! (the command's own status if it failed, else 1), so a run never exits 0
//! with less output than the command wrote.

use std::io::{self, Write};
use std::time::Duration;

use skills_bundle::Mode;
use skills_bundle::exec::LocalExecutor;
use skills_bundle::session::Session;
use skills_compiler::render::thousands;

use crate::Outcome;
use crate::args::{PolicyArg, RunArgs};
use crate::bundle::bundle_of;

/// Runs `skb run`.
pub fn run(args: &RunArgs) -> io::Result<Outcome> {
    let Some(bundle) = bundle_of(&args.from, &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    let mut executor = LocalExecutor::with_default_cache().map_err(io::Error::other)?;
    executor.timeout = Duration::from_secs(args.timeout);
    executor.max_output = usize::try_from(args.max_output).unwrap_or(usize::MAX);
    let mode = match args.policy {
        PolicyArg::Restrict => Mode::Restrict,
        PolicyArg::PreApprove => Mode::PreApprove,
    };
    let session = Session::new(&bundle, executor, mode);
    if let Err(e) = session.activate(&args.name, "") {
        eprintln!("skb: {e}");
        return Ok(Outcome::Invalid);
    }
    // Each argument one word, as `split_args` reads it back.
    let line = skills_bundle::shell::join(&args.command);
    match session.run_output(&args.name, &line) {
        Ok(out) => {
            io::stdout().write_all(&out.stdout)?;
            io::stdout().flush()?;
            io::stderr().write_all(&out.stderr)?;
            if out.timed_out {
                eprintln!("skb: killed at the time limit of {} s", args.timeout);
                return Ok(Outcome::Code(TIMED_OUT));
            }
            let code = out
                .exit_code
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(1);
            let cut: Vec<&str> = [
                ("stdout", out.stdout_truncated),
                ("stderr", out.stderr_truncated),
            ]
            .into_iter()
            .filter_map(|(stream, cut)| cut.then_some(stream))
            .collect();
            if !cut.is_empty() {
                eprintln!(
                    "skb: the command's {} went past {} bytes and was cut; raise the limit with `--max-output`",
                    cut.join(" and "),
                    thousands(args.max_output)
                );
                return Ok(Outcome::Code(code.max(1)));
            }
            Ok(Outcome::Code(code))
        }
        Err(e) => {
            eprintln!("skb: {e}");
            Ok(Outcome::Code(REFUSED))
        }
    }
}

/// The exit status of a command killed at the time limit (as `timeout(1)`).
pub const TIMED_OUT: u8 = 124;

/// The exit status of a refused command (as a shell's "cannot execute").
pub const REFUSED: u8 = 126;

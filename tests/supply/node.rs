//! Finding Node 22 and Vercel's `skills` CLI, installed by npm into one
//! prefix, and running the CLI offline, without telemetry, in a home of
//! the test's own.
//!
//! The prefix is `$SKILLS_VERCEL_CLI_PREFIX`, else `<workspace>/target/vercel-cli`
//! (`skills_tests::tier::vercel_cli`); a missing install fails the test
//! with the command that makes it. Every test that runs it is the
//! acceptance tier's.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use skills_tests::tier::VERCEL_INSTALL as INSTALL;

/// Node 22 and the CLI's entry point.
pub struct VercelCli {
    node: PathBuf,
    cli: PathBuf,
}

/// The installed CLI; panics naming the install command when it is missing.
pub fn vercel_cli() -> VercelCli {
    let (node, cli) = skills_tests::tier::vercel_cli();
    let version = Command::new(&node)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{}`: {e}", node.display()));
    let version = String::from_utf8_lossy(&version.stdout);
    assert!(
        version.starts_with("v22."),
        "`{}` is Node {version}; Vercel's CLI needs 22: `{INSTALL}`",
        node.display()
    );
    VercelCli { node, cli }
}

impl VercelCli {
    /// `node cli.mjs`, for a caller that sets its own arguments and
    /// environment.
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.node);
        command.arg(&self.cli);
        command
    }

    /// Runs `skills ARGS` in `project`, with `home` as its home (its global
    /// lock and settings land there), telemetry off and no standard input.
    pub fn run(&self, project: &Path, home: &Path, args: &[&str]) -> Output {
        let output = Command::new(&self.node)
            .arg(&self.cli)
            .args(args)
            .current_dir(project)
            .env("HOME", home)
            .env("XDG_STATE_HOME", home.join("state"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("DISABLE_TELEMETRY", "1")
            .env("DO_NOT_TRACK", "1")
            .env("NO_COLOR", "1")
            .env("CI", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run `{}`: {e}", self.node.display()));
        assert!(
            output.status.success(),
            "`skills {}` failed ({}):\n{}\n{}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }
}

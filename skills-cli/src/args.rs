//! Command-line arguments (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Validate, inspect and package Agent Skills.
#[derive(Debug, Parser)]
#[command(name = "skills", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check skill directories against the Agent Skills specification.
    ///
    /// Each PATH may be one skill directory, a SKILL.md file, a directory of
    /// skills (flat or nested), a Claude Code plugin or a marketplace.
    /// Exit status: 0 valid, 1 any error (or warning with --deny-warnings),
    /// 2 usage or I/O failure.
    Validate(ValidateArgs),
}

/// `skills validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Skill directories, SKILL.md files, plugins or marketplaces.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Which rules apply.
    #[arg(long, value_enum, default_value_t = ProfileArg::Spec)]
    pub profile: ProfileArg,
    /// Treat warnings as errors (exit 1 when there is any).
    #[arg(long)]
    pub deny_warnings: bool,
    /// Skip the checks beyond the specification (codes SK3xx).
    #[arg(long)]
    pub no_lints: bool,
    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Deepest directory level searched below each path.
    #[arg(long, default_value_t = 6)]
    pub max_depth: usize,
    /// Most directories visited below each path.
    #[arg(long, default_value_t = 2000)]
    pub max_dirs: usize,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// Output formats of `skills validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Diagnostics with source snippets, like rustc.
    Human,
    /// One JSON document.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// Exactly what `skills-ref validate` prints (one directory per path, profile `spec`).
    SkillsRef,
}

/// Profiles, as named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileArg {
    /// The Agent Skills specification, as `skills-ref` enforces it.
    Spec,
    /// What Claude Code and Codex load.
    ClaudeCode,
}

/// Colour choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

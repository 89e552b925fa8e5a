//! Arguments of the commands that install skills: `add`, `install`,
//! `update`, `remove`, `list`.

use std::path::PathBuf;

use clap::Args;
use skills_core::client::InstallTarget;

use super::{CheckArgs, ListFormat};
use crate::supply::targets::parse_target;

/// The project a command changes.
#[derive(Debug, Args)]
pub struct ProjectArgs {
    /// The project folder: where `skb.lock` is and the clients' folders are.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub project: PathBuf,
    /// Work in the user's folders (`~/.claude/skills`, ...) with the lock in
    /// `~/.config/skb/skb.lock`, instead of the project's.
    #[arg(short = 'g', long)]
    pub global: bool,
}

/// What a remote source must be to be installed.
#[derive(Debug, Args)]
pub struct PolicyArgs {
    /// Trust this minisign public key (a `.pub` file or the base64 key) for
    /// this run (repeatable).
    #[arg(short = 'p', long = "pubkey", value_name = "KEY")]
    pub pubkeys: Vec<String>,
    /// Install from a remote source that is not signed by a trusted key
    /// (recorded in the lock).
    #[arg(long)]
    pub allow_unsigned: bool,
    /// Install a signed version older than the one locked.
    #[arg(long)]
    pub allow_downgrade: bool,
}

/// `skb add`.
#[derive(Debug, Args)]
pub struct AddArgs {
    /// Where the skills are: a folder, plugin or marketplace; a pack or
    /// `.skill` zip; an HTTPS URL of one (`#sha256=<hex>` pins it); a git
    /// repository (URL, or `owner/repo[/path][#ref]` on GitHub, `@skill`
    /// picking one skill as in `npx skills`); a
    /// well-known index (a site or its `index.json`); `oci://host/repo:tag`.
    pub source: String,
    /// Install only this skill (repeatable; default: every skill found).
    #[arg(short, long = "skill", value_name = "NAME")]
    pub skills: Vec<String>,
    /// Install for this client (repeatable): claude-code, codex, gemini-cli,
    /// opencode, copilot, cursor, goose, amp. Default: the clients whose
    /// folders the project has, else claude-code and codex.
    #[arg(short, long = "client", value_name = "CLIENT", value_parser = parse_target)]
    pub clients: Vec<&'static InstallTarget>,
    /// Only list what the source holds; install nothing.
    #[arg(long)]
    pub list: bool,
    /// Replace folders with local edits (keeping a backup in `.skb/backup`).
    #[arg(long)]
    pub force: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    #[command(flatten)]
    pub project: ProjectArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb install`.
#[derive(Debug, Args)]
pub struct InstallArgs {
    /// Change nothing when anything differs from the lock: exit 1 if a
    /// source's content is not what the lock says or the lock would change
    /// (the CI mode).
    #[arg(long)]
    pub frozen: bool,
    /// Replace folders with local edits (keeping a backup).
    #[arg(long, conflicts_with = "frozen")]
    pub force: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    #[command(flatten)]
    pub project: ProjectArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb update`.
#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// The skills to update (default: all).
    pub names: Vec<String>,
    /// Replace folders with local edits (keeping a backup).
    #[arg(long)]
    pub force: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    #[command(flatten)]
    pub project: ProjectArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb remove`.
#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The skills to remove.
    #[arg(required = true)]
    pub names: Vec<String>,
    /// Remove folders with local edits too (keeping a backup).
    #[arg(long)]
    pub force: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    #[command(flatten)]
    pub project: ProjectArgs,
}

/// `skb list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    #[command(flatten)]
    pub project: ProjectArgs,
}

/// `skb publish`.
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// Skill folders, plugins or archives to publish.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The site's folder: `.well-known/agent-skills/` is written in it.
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// The version published (SemVer), naming its immutable folder.
    #[arg(long, value_name = "VERSION")]
    pub release: String,
    /// Sign each archive with this minisign secret key (`<archive>.minisig`).
    #[arg(long, value_name = "FILE")]
    pub sign: Option<PathBuf>,
    /// The site's root URL, to write absolute URLs in the site index
    /// (default: URLs relative to the index).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    #[command(flatten)]
    pub check: CheckArgs,
}

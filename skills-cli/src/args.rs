//! Command-line arguments (clap derive).

use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use skills_bundle::zip::Limits;
use skills_compiler::client::Client;
use skills_compiler::{FileLimits, Options, Profile};
use skills_core::catalog::Style;
use skills_core::client::InstallTarget;

use skills_install::accept::{Allow, FailOn, parse_allow, parse_fail_on};
use skills_install::targets::parse_target;

/// The widest a line of `--help` is, whatever the terminal's width.
pub const HELP_WIDTH: usize = 100;

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "skb",
    version,
    about = "validate, inspect, package, sign and serve Agent Skills",
    long_about = None,
    max_term_width = HELP_WIDTH
)]
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
    /// Where the clients differ on a skill (one lists it and another does
    /// not, under another name, or ignores a control the other obeys), a
    /// warning says so (SK491-SK493); `skb fix` writes what makes them
    /// agree where a file can. Exit status: 0 valid, 1 any error (or
    /// warning with --deny-warnings), 2 usage or I/O failure.
    Validate(ValidateArgs),
    /// Write what makes the clients treat each skill alike, where a file
    /// can: `policy.allow_implicit_invocation: false` in
    /// `agents/openai.yaml` for a skill with `disable-model-invocation:
    /// true` (Codex then keeps it out of its model's list, as Claude Code
    /// does); a byte-order mark or blank lines before SKILL.md's opening
    /// `---` removed; `name: <folder>` added where the frontmatter has no
    /// name.
    ///
    /// Skills are found as `skb validate` finds them. Only what is needed
    /// is changed, so a second run changes nothing. A symbolic link is
    /// never edited; files are replaced whole (a temporary file renamed
    /// into place), keeping their permissions. Exit status: 0 nothing left
    /// to fix (or, without --dry-run, all fixed); 1 --dry-run found fixes
    /// to make, or a file could not be fixed safely (stderr says why); 2
    /// usage or I/O failure.
    Fix(FixArgs),
    /// Scan skills for attacks: prompt injection, exfiltration, credential
    /// theft, remote code, persistence, hidden text and more, in every file.
    ///
    /// Each PATH is read as `skb validate` reads it (skill directories,
    /// plugins, marketplaces, packs, `.skill` archives), and every folder
    /// holding a SKILL.md (any letter case) is scanned, valid or not.
    /// A finding is silenced by a marker in the file that gives a reason
    /// (`skb-scan: allow SK630 -- installs rustup from its official host`),
    /// or by a --baseline. Exit status: 0 no finding at or above --fail-on
    /// remains, 1 one does, 2 usage or I/O failure (a path that does not
    /// exist, a folder that could not be read, a bad baseline).
    Scan(ScanArgs),
    /// Validate skills, then write them as a reproducible skill pack (or as
    /// Claude `.skill` archives), optionally signed.
    ///
    /// The pack's bytes depend only on the skills' contents, names and modes,
    /// and on SOURCE_DATE_EPOCH (default: 1980-01-01). Exit status: 0 packed,
    /// 1 invalid skills, 2 usage or I/O failure.
    Pack(PackArgs),
    /// Check a pack: its signature, then its manifest, then every file's
    /// hash, then the manifest's metadata against each skill's `SKILL.md`.
    ///
    /// Exit status: 0 verified, 1 verification failed, 2 usage or I/O failure.
    Verify(VerifyArgs),
    /// List the skills of a pack, an archive or a directory: files, sizes,
    /// compression, digest.
    Inspect(InspectArgs),
    /// Extract a pack (or a `.skill`/`.zip` archive) into a new directory.
    ///
    /// Everything is written to a fresh temporary directory, validated there
    /// (--profile), and renamed into place only when it holds skills and none
    /// is invalid, so a failure leaves nothing behind. Exit status: 0
    /// unpacked, 1 a bad archive or invalid skills, 2 usage or I/O failure.
    Unpack(UnpackArgs),
    /// Start a new skill: a folder every modelled client accepts as it is.
    ///
    /// `skb init NAME` makes `NAME/` (in --dir, default the current folder)
    /// holding a `SKILL.md` (the name; a description saying what the skill
    /// does, then when to use it; an `allowed-tools` rule naming the one
    /// program it runs) and `scripts/example.py`, that rule's program.
    /// Without NAME, the current folder becomes the skill, named by the
    /// folder. Nothing is ever overwritten: a name already taken, or any of
    /// the files already there, is refused and nothing is written. Exit
    /// status: 0 made, 2 a bad name, something in the way, or I/O failure.
    Init(InitArgs),
    /// Generate a minisign key pair for signing packs.
    Keygen(KeygenArgs),
    /// Print the skill catalog a model is given for these skills: the
    /// `<available_skills>` block of an agent built from them (--style xml),
    /// or the listing a client shows its model (--style and the client's
    /// name, below). Nothing is printed when there are no skills.
    Catalog(CatalogArgs),
    /// Print a skill's activation (level 2) as the model sees it: base
    /// directory, then the body with Claude Code's placeholders filled
    /// (`$ARGUMENTS`, `$0`, named arguments, `${CLAUDE_SKILL_DIR}`, ...);
    /// with --style and a client's name, byte for byte what that client
    /// gives its model. !`command` lines are shown as not run unless
    /// --run-commands is given.
    Show(ShowArgs),
    /// Print one file of a skill (level 3), as `Skill::read` returns it.
    Read(ReadArgs),
    /// Run a command in a skill's directory under its `allowed-tools`, as an
    /// agent would: files materialised into the private cache, no shell,
    /// reduced environment, time and output limits.
    ///
    /// Exit status: the command's own; 124 when it was killed at the time
    /// limit; 126 when the policy refused it; 1 when it exited 0 but its
    /// output went past --max-output and was cut; 1 or 2 as usual before it
    /// ran.
    Run(RunArgs),
    /// Serve skills to an MCP client (Claude Code, Codex, Cursor, ...): tools,
    /// resources, prompts and the skills extension, over stdio or, with
    /// --http, streamable HTTP on a loopback address.
    ///
    /// stdout carries the protocol; messages go to stderr. A pack is served
    /// only once its signature checks (--pubkey), or with --unsigned.
    /// Exit status: 0 when the client closed the connection; 1 invalid skills
    /// or a pack that fails its checks; 2 usage or I/O failure.
    Serve(ServeArgs),
    /// A language server for `SKILL.md` (and `agents/openai.yaml`, plugin
    /// manifests) on stdio, for editors: diagnostics as you type (the
    /// checks of `validate` under --profile, and of `scan`), hover notes on
    /// how each client reads a key, completion, the edits of `fix` as code
    /// actions, and `skb.preview`.
    ///
    /// stdin and stdout carry the protocol. The client's
    /// `initializationOptions` may set `profile`, `scan` and `debounceMs`.
    /// Exit status: 0 after `shutdown` and `exit`; 1 when the client left
    /// without `shutdown`; 2 usage or I/O failure.
    Lsp(LspArgs),
    /// Print one skill's frontmatter as JSON, exactly as `skills-ref
    /// read-properties` does.
    ReadProperties(ReadPropertiesArgs),
    /// Print the `<available_skills>` block for skill directories, exactly as
    /// `skills-ref to-prompt` does.
    ToPrompt(ToPromptArgs),
    /// Compare two packs, archives or directories: every metadata field the
    /// runtime obeys, and every file by content hash and mode.
    ///
    /// Exit status: 0 identical content, 1 different, 2 usage or I/O failure.
    Diff(DiffArgs),
    /// Install skills from a folder, pack, URL, git repository, well-known
    /// index or OCI registry into clients' skills folders, and lock them.
    ///
    /// Every skill is validated (--profile) and, from a remote source,
    /// signature-checked first; each folder is written beside its target and
    /// renamed into place. Exit status: 0 installed, 1 refused (invalid,
    /// unsigned, local edits), 2 usage or I/O failure.
    Add(AddArgs),
    /// Restore exactly what `skb.lock` says into the clients' folders.
    ///
    /// With --frozen (CI), exit 1 when any source's content differs from the
    /// lock or the lock would change, writing nothing.
    Install(InstallArgs),
    /// Fetch the newest allowed version of locked skills and print what
    /// changed, file by file (--dry-run: what would change, as `outdated`).
    Update(UpdateArgs),
    /// Report, writing nothing, which locked skills their sources have
    /// newer versions of: the new pin, its signer, the files that would
    /// change, or why `update` would refuse it.
    ///
    /// Each source is fetched and checked exactly as `update` checks it (the
    /// trust policy against the lock, the security gate). Exit status: 0
    /// every skill current, 1 some skill outdated or refused, 2 a source
    /// could not be read, usage or I/O failure.
    Outdated(OutdatedArgs),
    /// Remove installed skills from their folders and from the lock.
    Remove(RemoveArgs),
    /// List the skills `skb.lock` records, with where they are installed.
    List(ListArgs),
    /// Take over what Vercel's `npx skills` installed: each skill of
    /// `skills-lock.json` checked against its `computedHash`, fetched again
    /// from its source, and locked in `skb.lock` where it is installed.
    /// `skills-lock.json` is left as it is, so `npx skills` keeps working.
    Import(ImportArgs),
    /// Push a pack and its signature to an OCI registry as one artifact.
    ///
    /// The reference is `oci://host[:port]/repository:tag`; the `.minisig`
    /// beside the pack goes in as a layer of the same artifact. Credentials:
    /// Docker's `config.json` (what `docker login` and `oras login` write),
    /// or SKB_REGISTRY_USERNAME and SKB_REGISTRY_PASSWORD, or
    /// SKB_REGISTRY_TOKEN.
    Push(PushArgs),
    /// Pull a pack (and its signature) from an OCI registry into a file,
    /// every blob checked against its digest.
    Pull(PullArgs),
    /// Manage trusted publisher keys.
    ///
    /// Keys live in the project's `skills-trust.json` (committed, so CI
    /// trusts the same keys) or, with --user, in `~/.config/skb/trust.json`.
    #[command(subcommand)]
    Trust(TrustCommand),
    /// Write skills as a static Agent Skills well-known index.
    ///
    /// `.well-known/agent-skills/index.json`, and each version's archive,
    /// signature and index in a folder of its own that later publications
    /// never rewrite. Serve DIR from any static host; `skb add
    /// https://your.site` installs from it.
    Publish(PublishArgs),
    /// Print a shell completion script.
    ///
    /// For example `skb completions bash > ~/.local/share/bash-completion/completions/skb`.
    Completions(CompletionsArgs),
    /// Print the man page (roff), or write one page per subcommand with --dir.
    ///
    /// For example `skb man | man -l -`.
    Man(ManArgs),
}

/// Bounds on the archives read (`.skill`, `.zip`, `.skillpack`), checked
/// on their declared sizes before anything is inflated. The defaults
/// (`skills_bundle::zip::Limits`) are sized from 454 real skills, whose
/// largest file is 242 KB, all together 22.2 MB, none deflating over 12:1.
/// An archive over one is refused, naming its flag.
#[derive(Debug, Clone, Copy, Args)]
pub struct LimitArgs {
    /// Most entries in an archive, directories included.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_entries: usize,
    /// Largest file inside an archive, uncompressed (bytes, or with a KiB,
    /// MiB or GiB suffix).
    #[arg(long, value_name = "SIZE", default_value = "16MiB", value_parser = parse_size)]
    pub max_entry_size: u64,
    /// Largest sum of an archive's files, uncompressed.
    #[arg(long, value_name = "SIZE", default_value = "256MiB", value_parser = parse_size)]
    pub max_total_size: u64,
    /// Largest compression ratio of a file over 1 MiB, and of a whole
    /// archive over 1 MiB (deflate reaches 1032).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max_ratio: u64,
}

impl LimitArgs {
    /// The zip reader's limits.
    pub fn limits(&self) -> Limits {
        Limits::DEFAULT
            .with_max_entries(self.max_entries)
            .with_max_entry_size(self.max_entry_size)
            .with_max_total_size(self.max_total_size)
            .with_max_ratio(self.max_ratio)
    }
}

/// Bounds on each skill's files, checked while they are listed
/// (`skills_compiler::FileLimits`). A skill over one is invalid (error
/// SK007, naming the flag): it is never packed without some of its files.
#[derive(Debug, Clone, Copy, Args)]
pub struct SkillLimitArgs {
    /// Most files in one skill.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_files: usize,
    /// Largest sum of one skill's files (bytes, or with a KiB, MiB or GiB
    /// suffix).
    #[arg(long, value_name = "SIZE", default_value = "256MiB", value_parser = parse_size)]
    pub max_skill_size: u64,
    /// Deepest directory level of a skill's files, below the skill
    /// directory.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub max_skill_depth: usize,
}

impl SkillLimitArgs {
    /// The compiler's limits.
    pub fn file_limits(&self) -> FileLimits {
        FileLimits {
            max_files: self.max_files,
            max_total_bytes: self.max_skill_size,
            max_depth: self.max_skill_depth,
            ..FileLimits::default()
        }
    }
}

/// A byte count: digits, optionally followed by `KiB`, `MiB` or `GiB`.
fn parse_size(text: &str) -> Result<u64, String> {
    let (digits, shift) = [("KiB", 10), ("MiB", 20), ("GiB", 30)]
        .into_iter()
        .find_map(|(unit, shift)| text.strip_suffix(unit).map(|d| (d, shift)))
        .unwrap_or((text, 0));
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| {
            format!("`{text}` is not a size: write bytes, or a number with KiB, MiB or GiB")
        })
}

/// Options shared by the commands that validate before they write.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Which rules apply.
    #[arg(long, value_enum, default_value_t = ProfileArg::SPEC)]
    pub profile: ProfileArg,
    /// Treat warnings as errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Skip the checks beyond the specification (codes SK3xx).
    #[arg(long)]
    pub no_lints: bool,
    /// Leave out files matching this glob (relative to each path; repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
    #[command(flatten)]
    pub skill_limits: SkillLimitArgs,
}

impl CheckArgs {
    /// The compiler's options: profile, lints, discovery and the limits on
    /// each skill's files.
    pub fn options(&self) -> Options {
        let mut discovery = self.discovery.options();
        // The `opencode` profile reads a project as OpenCode does.
        discovery.outside_repository = self
            .profile
            .profile()
            .client()
            .is_some_and(Client::reads_outside_repository);
        Options {
            profile: self.profile.profile(),
            lints: !self.no_lints,
            discovery,
            files: self.skill_limits.file_limits(),
            ..Options::default()
        }
    }
}

/// Where skills are looked for. A path that is a project folder (it holds
/// a client's skills folder, `.claude/skills`, `.agents/skills`,
/// `.gemini/skills`, ...; or it is the working directory, `.`, and holds no
/// skill itself) is read as the clients read it: their skills folders from
/// there up to the repository's root (Gemini CLI: there only).
#[derive(Debug, Clone, Args)]
pub struct DiscoveryArgs {
    /// Also read the user's skills folders (`~/.claude/skills`,
    /// `$CODEX_HOME/skills`, `~/.agents/skills`, `~/.gemini/skills`,
    /// `~/.config/opencode/skills`, ...). Off by default, so that a check
    /// does not depend on whose machine (or CI runner) it runs on.
    #[arg(long)]
    pub user: bool,
    #[command(flatten)]
    pub limits: DiscoveryLimitArgs,
}

/// How far discovery walks below each path.
#[derive(Debug, Clone, Copy, Args)]
pub struct DiscoveryLimitArgs {
    /// Deepest directory level searched below each path (reaching it is
    /// an error).
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub max_depth: usize,
    /// Most directories read below each path (reaching it is an error).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub max_dirs: usize,
}

impl DiscoveryArgs {
    /// The compiler's discovery options.
    pub fn options(&self) -> skills_compiler::DiscoveryOptions {
        skills_compiler::DiscoveryOptions {
            user: if self.user {
                skills_compiler::UserFolders::from_env()
            } else {
                None
            },
            ..self.limits.options()
        }
    }
}

impl DiscoveryLimitArgs {
    /// The compiler's discovery options, without the user's folders.
    pub fn options(&self) -> skills_compiler::DiscoveryOptions {
        skills_compiler::DiscoveryOptions {
            max_depth: self.max_depth,
            max_dirs: self.max_dirs,
            ..skills_compiler::DiscoveryOptions::default()
        }
    }
}

/// `skb pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    /// Skill directories, plugins, marketplaces, project folders, `.skill`
    /// or `.zip` archives.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// The pack to write (with `--format skill`: the directory to write the
    /// `.skill` files into, a plugin's under `<plugin>/`).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Sign with this minisign secret key (writes `<OUT>.minisig`). The
    /// password comes from SKILLS_KEY_PASSWORD, else from a prompt.
    #[arg(long, value_name = "KEY")]
    pub sign: Option<PathBuf>,
    /// With --sign: the release to sign with the pack, a SemVer version
    /// (`1.4.0`, `2.0.0-rc.1`), so installers can refuse a release older than
    /// the one they locked. The time of signing is signed too
    /// (SOURCE_DATE_EPOCH, else now): it orders releases whose versions
    /// cannot be compared.
    #[arg(long, value_name = "VERSION", requires = "sign")]
    pub release: Option<String>,
    /// What to write.
    #[arg(long, value_enum, default_value_t = PackFormat::Skillpack)]
    pub format: PackFormat,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// Output formats of `skb pack`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PackFormat {
    /// One signed-ready skill pack holding every skill.
    Skillpack,
    /// One Claude `.skill` zip per skill, as Anthropic's `package_skill.py`
    /// lays it out.
    Skill,
}

/// `skb verify`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("trust").args(["pubkey", "unsigned"])))]
pub struct VerifyArgs {
    /// The pack.
    #[arg(required_unless_present = "installed")]
    pub pack: Option<PathBuf>,
    /// Check the installed skills against `skb.lock` instead: every file of
    /// every folder re-hashed; each edited, added or removed file named;
    /// every signer record verified again with the trusted keys (and
    /// --pubkey's, for this run); exit 1 on any difference.
    #[arg(long, conflicts_with_all = ["pack", "unsigned", "signature"])]
    pub installed: bool,
    #[command(flatten)]
    pub project: ProjectArgs,
    /// The minisign public key: a `.pub` file or the base64 key itself.
    #[arg(
        short = 'p',
        long,
        value_name = "KEY",
        required_unless_present_any = ["unsigned", "installed"]
    )]
    pub pubkey: Option<String>,
    /// The signature file (default: `<PACK>.minisig`).
    #[arg(long, value_name = "FILE")]
    pub signature: Option<PathBuf>,
    /// Check integrity only (manifest and hashes), without a signature.
    #[arg(long, conflicts_with = "pubkey")]
    pub unsigned: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// `skb inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// A pack, a `.skill`/`.zip` archive, or skill directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    /// List every file, not only the skills.
    #[arg(long)]
    pub files: bool,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// Human or JSON output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// A table.
    Human,
    /// One JSON document.
    Json,
}

/// `skb unpack`.
#[derive(Debug, Args)]
pub struct UnpackArgs {
    /// The pack or archive.
    pub pack: PathBuf,
    /// The directory to create (must not exist).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Require a signature by this minisign public key first.
    #[arg(short = 'p', long, value_name = "KEY")]
    pub pubkey: Option<String>,
    /// The signature file (default: `<PACK>.minisig`).
    #[arg(long, value_name = "FILE")]
    pub signature: Option<PathBuf>,
    /// Which rules the skills must pass before anything is written.
    #[arg(long, value_enum, default_value_t = ProfileArg::SPEC)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub discovery: DiscoveryLimitArgs,
    #[command(flatten)]
    pub skill_limits: SkillLimitArgs,
}

/// `skb init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The skill's name, which is its folder's name: 1-64 of `a-z`, `0-9`
    /// and `-`. Default: the current folder becomes the skill.
    pub name: Option<String>,
    /// The folder to make the skill in (with NAME).
    #[arg(long, value_name = "DIR", requires = "name")]
    pub dir: Option<PathBuf>,
}

/// `skb keygen`.
#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// Where to write the public key.
    #[arg(short = 'p', long, value_name = "FILE", default_value = "skills.pub")]
    pub pubkey: PathBuf,
    /// Where to write the secret key.
    #[arg(short = 's', long, value_name = "FILE", default_value = "skills.key")]
    pub seckey: PathBuf,
    /// Do not encrypt the secret key with a password (as `minisign -W`).
    #[arg(short = 'W', long)]
    pub no_password: bool,
    /// Overwrite existing key files.
    #[arg(short, long)]
    pub force: bool,
}

/// `skb catalog`.
#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// Skill directories, plugins, archives, or one pack. Without any, the
    /// current directory: with a client's style, read as the project that
    /// client would be started in (its skills folders from here up to the
    /// repository's root), never searched for every `SKILL.md` below.
    pub paths: Vec<PathBuf>,
    /// Whose catalog: `xml` (the reference's block, of the validated
    /// skills) or a client's (each skill read as that client reads it, from
    /// the folders found as it finds them; with `claude-code`, `--user`
    /// puts `~/.claude/skills` first, as Claude Code does).
    #[arg(long, value_enum, default_value_t = StyleArg::XML)]
    pub style: StyleArg,
    /// Keep the catalog within this budget, in the style's unit: characters
    /// for `xml` (descriptions are dropped before names; no budget by
    /// default) and `codex` (default 21,760); terminal columns for
    /// `claude-code`, which is Claude Code's `SLASH_COMMAND_TOOL_CHAR_BUDGET`
    /// (read from the environment when this flag is absent; default 30,000).
    #[arg(long, value_name = "N")]
    pub budget: Option<usize>,
    #[command(flatten)]
    pub check: CheckArgs,
}

impl CatalogArgs {
    /// The paths given, or the current directory.
    pub fn roots(&self) -> Vec<PathBuf> {
        if self.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            self.paths.clone()
        }
    }
}

/// `skb show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The skill's name (`plugin:skill` inside a plugin).
    pub name: String,
    /// What `$ARGUMENTS` stands for.
    #[arg(long, visible_alias = "args", default_value = "")]
    pub arguments: String,
    /// Show the activation as this client gives it to its model.
    #[arg(long, value_enum, value_name = "CLIENT")]
    pub style: Option<ClientArg>,
    #[command(flatten)]
    pub activation: ActivationArgs,
    /// Where the skills are: directories, archives, or one pack.
    #[arg(long = "from", value_name = "PATH", default_value = ".")]
    pub from: Vec<PathBuf>,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb show`'s activation options (`cmd::activation`).
#[derive(Debug, Args)]
pub struct ActivationArgs {
    /// `${CLAUDE_SESSION_ID}` (default: a new random UUID).
    #[arg(long, value_name = "ID")]
    pub session_id: Option<String>,
    /// `${CLAUDE_PROJECT_DIR}` (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project_dir: Option<PathBuf>,
    /// Run each !`command` of the instructions once and put its output in
    /// place (default: a marker saying it was not run). A command runs only
    /// if the skill's `allowed-tools` or an --allow rule allows it as a
    /// `Bash` call; one with shell syntax needs a rule without a pattern
    /// (`Bash`). A failing command fails the activation.
    #[arg(long)]
    pub run_commands: bool,
    /// With --run-commands: also allow these `allowed-tools` rules, for
    /// example `Bash(git:*)` (repeatable).
    #[arg(long, value_name = "RULE", requires = "run_commands")]
    pub allow: Vec<String>,
    /// With --style claude-code: print `{"tool_result": ..., "text": ...}`,
    /// the two blocks Claude Code sends (the `Launching skill:` result and
    /// the text); with --style codex: `{"message": ...}`.
    #[arg(long, requires = "style")]
    pub json: bool,
}

/// `skb read`.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// The skill's name.
    pub name: String,
    /// The file, relative to the skill directory.
    pub path: String,
    /// Where the skills are: directories, archives, or one pack.
    #[arg(long = "from", value_name = "PATH", default_value = ".")]
    pub from: Vec<PathBuf>,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The skill's name.
    pub name: String,
    /// The command and its arguments (after `--`).
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,
    /// Where the skills are: directories, archives, or one pack.
    #[arg(long = "from", value_name = "PATH", default_value = ".")]
    pub from: Vec<PathBuf>,
    /// Time limit in seconds (at most 604800, 7 days).
    #[arg(long, default_value_t = 60, value_parser = timeout_secs)]
    pub timeout: u64,
    /// Most output kept of each stream, stdout and stderr (bytes, or with a
    /// KiB, MiB or GiB suffix); output cut at it fails the run.
    #[arg(long, value_name = "SIZE", default_value = "1MiB", value_parser = parse_size)]
    pub max_output: u64,
    /// `allowed-tools` as a restriction (anything unlisted fails) or as
    /// the specification does (unlisted needs confirmation, which `run`
    /// cannot ask for, so it fails too, with another message).
    #[arg(long, value_enum, default_value_t = PolicyArg::Restrict)]
    pub policy: PolicyArg,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb lsp`.
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Which rules grade the diagnostics, as `skb validate --profile`.
    #[arg(long, value_enum, default_value_t = ProfileArg::SPEC)]
    pub profile: ProfileArg,
    /// Leave out the scanner's findings.
    #[arg(long)]
    pub no_scan: bool,
    /// How long a document rests after an edit before it is checked, in
    /// milliseconds.
    #[arg(long, value_name = "MS", default_value_t = skills_lsp::settings::DEFAULT_DEBOUNCE_MS)]
    pub debounce: u64,
}

/// `skb serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where the skills are: directories, plugins, project folders,
    /// archives, or one pack.
    #[arg(default_value = ".", value_name = "SOURCE")]
    pub source: Vec<PathBuf>,
    /// Serve the pack only if it is signed by this minisign public key (a
    /// `.pub` file or the base64 key itself).
    #[arg(short = 'p', long, value_name = "KEY", conflicts_with = "unsigned")]
    pub pubkey: Option<String>,
    /// The signature file (default: `<PACK>.minisig`).
    #[arg(long, value_name = "FILE", requires = "pubkey")]
    pub signature: Option<PathBuf>,
    /// Serve a pack without checking a signature (integrity only).
    #[arg(long)]
    pub unsigned: bool,
    /// Serve streamable HTTP on this loopback address (for example
    /// 127.0.0.1:8080; port 0 picks one) at `/mcp`, instead of stdio.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<std::net::SocketAddr>,
    /// `allowed-tools` as a restriction, or as the specification does;
    /// see `skb run --policy`.
    #[arg(long, value_enum, default_value_t = PolicyArg::Restrict)]
    pub mode: PolicyArg,
    /// Time limit of one script run, in seconds (at most 604800, 7 days).
    #[arg(long, default_value_t = 60, value_parser = timeout_secs)]
    pub timeout: u64,
    /// Most output of one script run given to the client, per stream
    /// (bytes, or with a KiB, MiB or GiB suffix); what is cut is marked
    /// `[output truncated at N bytes]`.
    #[arg(long, value_name = "SIZE", default_value = "1MiB", value_parser = parse_size)]
    pub max_output: u64,
    /// Where scripts' skills are materialised (default:
    /// `$XDG_CACHE_HOME/skills` or `~/.cache/skills`).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// With --http: the most MCP sessions open at once; one more
    /// `initialize` gets HTTP 503.
    #[arg(long, value_name = "N", requires = "http",
          default_value_t = skills_bundle_mcp::DEFAULT_MAX_SESSIONS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_sessions: usize,
    /// With --http: close an MCP session idle this many seconds.
    #[arg(long, value_name = "SECONDS", requires = "http",
          default_value_t = skills_bundle_mcp::DEFAULT_IDLE_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: u64,
    /// With --http: also serve web pages of this origin
    /// (`http://HOST:PORT`), besides the server's own; repeatable.
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    pub allow_origin: Vec<skills_bundle_mcp::Origin>,
    /// With --http: the most connections open at once. One more closes the
    /// connection that has waited longest for its client's next request
    /// (or, when every one is serving a request, gets HTTP 503).
    #[arg(long, value_name = "N", requires = "http",
          default_value_t = skills_bundle_mcp::DEFAULT_MAX_CONNECTIONS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_connections: usize,
    /// With --http: close a connection whose request line and headers have
    /// not all arrived this many seconds after it opened (or after the
    /// first byte of a later request).
    #[arg(long, value_name = "SECONDS", requires = "http",
          default_value_t = skills_bundle_mcp::DEFAULT_HEADER_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout: u64,
    /// With --http: answer HTTP 408 and close the connection when a
    /// request's body has not all arrived this many seconds after its
    /// headers.
    #[arg(long, value_name = "SECONDS", requires = "http",
          default_value_t = skills_bundle_mcp::DEFAULT_BODY_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    pub body_timeout: u64,
    /// With --http: close a connection on which nothing has moved for this
    /// many seconds while the server waits for its client (no next
    /// request, or an answer the client does not read).
    #[arg(long, value_name = "SECONDS", requires = "http",
          default_value_t = skills_bundle_mcp::DEFAULT_CONNECTION_IDLE_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    pub connection_idle_timeout: u64,
    /// Over stdio: the most answers in flight (requests read and not yet
    /// answered, answers not yet written). At this many the server reads no
    /// more requests until the client has read answers.
    #[arg(long, value_name = "N", conflicts_with = "http",
          default_value_t = skills_bundle_mcp::DEFAULT_MAX_IN_FLIGHT,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_in_flight: usize,
    /// Answer a request not answered in this many seconds with an error
    /// (-32001) and stop its script. Longer than --timeout; default 600, or
    /// --timeout plus 60 when that is longer.
    #[arg(long, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout: Option<u64>,
    #[command(flatten)]
    pub check: CheckArgs,
}

impl ServeArgs {
    /// `--request-timeout`, or its default for `--timeout`; an error when
    /// it would cut a script run off before the run's own time limit.
    pub fn request_timeout(&self) -> Result<std::time::Duration, String> {
        let secs = match self.request_timeout {
            Some(secs) if secs <= self.timeout => {
                return Err(format!(
                    "`--request-timeout` ({secs} s) must be longer than `--timeout` ({} s): a script run would be cut off before its own time limit",
                    self.timeout
                ));
            }
            Some(secs) => secs,
            None => skills_bundle_mcp::DEFAULT_REQUEST_TIMEOUT
                .as_secs()
                .max(self.timeout.saturating_add(60)),
        };
        Ok(std::time::Duration::from_secs(secs))
    }
}

/// `--timeout`: whole seconds, at most the executor's `MAX_TIMEOUT`, so
/// that no run (and no server) starts with a timeout it would refuse.
fn timeout_secs(value: &str) -> Result<u64, String> {
    let max = skills_bundle::exec::MAX_TIMEOUT.as_secs();
    let too_long = || format!("at most {max} seconds (7 days)");
    match value.parse::<u64>() {
        Ok(secs) if secs <= max => Ok(secs),
        Ok(_) => Err(too_long()),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(too_long()),
        Err(e) => Err(e.to_string()),
    }
}

/// `--policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    /// Anything the skill does not list is refused.
    Restrict,
    /// Listed tools are pre-approved; the rest would need confirmation.
    PreApprove,
}

/// `skb read-properties`.
#[derive(Debug, Args)]
pub struct ReadPropertiesArgs {
    /// A skill directory or its `SKILL.md`.
    #[arg(value_name = "SKILL_PATH")]
    pub skill_path: Option<PathBuf>,
}

/// `skb to-prompt`.
#[derive(Debug, Args)]
pub struct ToPromptArgs {
    /// Skill directories or their `SKILL.md` files.
    #[arg(value_name = "SKILL_PATHS")]
    pub skill_paths: Vec<PathBuf>,
}

/// `skb diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The old side: a pack, an archive or a directory.
    pub old: PathBuf,
    /// The new side.
    pub new: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Skill directories, SKILL.md files, plugins, marketplaces or project
    /// folders (the default, `.`, is the working directory).
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Which rules apply.
    #[arg(long, value_enum, default_value_t = ProfileArg::SPEC)]
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
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub skill_limits: SkillLimitArgs,
    /// Also scan the skills for attacks (as `skb scan`) and print the
    /// findings after the validation report; the exit status is 1 when
    /// either fails.
    #[arg(long)]
    pub scan: bool,
    /// With --scan: the lowest severity that fails the run.
    #[arg(long, value_name = "SEVERITY|none", value_parser = parse_fail_on, default_value = "high", requires = "scan")]
    pub scan_fail_on: FailOn,
}

/// `skb fix`.
#[derive(Debug, Args)]
pub struct FixArgs {
    /// Skill directories, SKILL.md files, plugins, marketplaces or project
    /// folders (the default, `.`, is the working directory).
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Write nothing: print each change as a unified diff (stdout) and
    /// what it does (stderr); exit 1 when there is any.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
}

/// `skb scan`.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Skill directories, SKILL.md files, plugins, marketplaces, packs,
    /// `.skill` or `.zip` archives, or project folders (the default, `.`, is
    /// the working directory).
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Output format (`markdown` only with --rules).
    #[arg(long, value_enum, default_value_t = ScanFormat::Human)]
    pub format: ScanFormat,
    /// Exit 1 when a finding at or above this severity remains after inline
    /// suppressions and the baseline (`none`: never).
    #[arg(long, value_name = "SEVERITY|none", value_parser = parse_fail_on, default_value = "high")]
    pub fail_on: FailOn,
    /// Show findings at or above this severity (the summary counts the
    /// others).
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = SeverityArg::Low)]
    pub min_severity: SeverityArg,
    /// Hide the findings recorded in this baseline file (written by
    /// --write-baseline); the summary counts them, and the entries that no
    /// longer match (stale).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write every current finding to this baseline file (after inline
    /// suppressions, whatever --min-severity and --baseline), then exit 0
    /// unless the scan could not be completed.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Print the rules (code, name, category, severity, summary) instead of
    /// scanning; with --format markdown, the guide's table.
    #[arg(long)]
    pub rules: bool,
    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Output formats of `skb scan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScanFormat {
    /// Findings with their evidence, like rustc.
    Human,
    /// One JSON document.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// The rule table as Markdown (with --rules).
    Markdown,
}

/// A severity, as named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeverityArg {
    /// Everything.
    Info,
    /// Dangerous in the wrong hands, common in honest skills.
    Low,
    /// Needs a reviewer's eye.
    Medium,
    /// An attack pattern.
    High,
    /// An attack in progress.
    Critical,
}

impl SeverityArg {
    /// The scanner's severity.
    pub fn severity(self) -> skills_scan::Severity {
        use skills_scan::Severity;
        match self {
            SeverityArg::Info => Severity::Info,
            SeverityArg::Low => Severity::Low,
            SeverityArg::Medium => Severity::Medium,
            SeverityArg::High => Severity::High,
            SeverityArg::Critical => Severity::Critical,
        }
    }
}

/// `skb completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `skb man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `skb.1` and one page per subcommand (`skb-validate.1`,
    /// ...) into this directory, created if needed, instead of printing
    /// `skb.1`.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Output formats of `skb validate`.
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

/// A profile, as named on the command line: `spec`, or one per client of
/// the registry ([`skills_core::client::CLIENTS`]), whose values and help
/// lines come from the registry's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileArg(pub Profile);

impl ProfileArg {
    /// `spec`, the default.
    pub const SPEC: ProfileArg = ProfileArg(Profile::Spec);

    /// The compiler's profile.
    pub fn profile(self) -> Profile {
        self.0
    }
}

impl From<ClientArg> for ProfileArg {
    /// The profile that validates for the client.
    fn from(client: ClientArg) -> ProfileArg {
        ProfileArg(Profile::of(client.0))
    }
}

impl ValueEnum for ProfileArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [ProfileArg; Profile::ALL.len()] = {
            let mut all = [ProfileArg::SPEC; Profile::ALL.len()];
            let mut i = 0;
            while i < Profile::ALL.len() {
                all[i] = ProfileArg(Profile::ALL[i]);
                i += 1;
            }
            all
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self.0.client() {
            None => "The Agent Skills specification, as `skills-ref` enforces it",
            Some(client) => client.info().profile_about,
        };
        Some(PossibleValue::new(self.0.as_str()).help(help))
    }
}

/// A catalog style, as named on the command line: `xml`, or one per client
/// of the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StyleArg(pub Style);

impl StyleArg {
    /// `xml`, the default.
    pub const XML: StyleArg = StyleArg(Style::Xml);

    /// The client whose listing this is; `None` for `xml`.
    pub fn client(self) -> Option<Client> {
        self.0.client()
    }
}

impl ValueEnum for StyleArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [StyleArg; Style::ALL.len()] = {
            let mut all = [StyleArg::XML; Style::ALL.len()];
            let mut i = 0;
            while i < Style::ALL.len() {
                all[i] = StyleArg(Style::ALL[i]);
                i += 1;
            }
            all
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self.0.client() {
            None => "The reference's `<available_skills>` block",
            Some(client) => client.info().catalog_about,
        };
        Some(PossibleValue::new(self.0.as_str()).help(help))
    }
}

/// A client, as named on the command line: one per row of the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientArg(pub Client);

impl ClientArg {
    /// The client.
    pub fn client(self) -> Client {
        self.0
    }
}

impl ValueEnum for ClientArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [ClientArg; Client::ALL.len()] = {
            let mut all = [ClientArg(Client::ClaudeCode); Client::ALL.len()];
            let mut i = 0;
            while i < Client::ALL.len() {
                all[i] = ClientArg(Client::ALL[i]);
                i += 1;
            }
            all
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.as_str()).help(self.0.info().activation_about))
    }
}

/// Colour choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl Color {
    /// Whether to colour output going to a stream that `is_terminal` or not.
    pub fn enabled(self, is_terminal: bool) -> bool {
        self.enabled_with(is_terminal, std::env::var_os("NO_COLOR").as_deref())
    }

    /// [`Color::enabled`] with `NO_COLOR`'s value given: no-color.org asks
    /// for no colour when it is set to anything but the empty string.
    fn enabled_with(self, is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => is_terminal && no_color.is_none_or(std::ffi::OsStr::is_empty),
        }
    }
}

// The commands that install skills: `add`, `install`, `update`, `remove`,
// `list`, `publish`.
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
    /// Trust this public key for this run (repeatable): minisign (a `.pub`
    /// file or the base64 key), or SSH or OpenPGP for a git source (as
    /// `skb trust add` takes them).
    #[arg(short = 'p', long = "pubkey", value_name = "KEY")]
    pub pubkeys: Vec<String>,
    /// Install from a remote source that is not signed by a trusted key
    /// (recorded in the lock).
    #[arg(long)]
    pub allow_unsigned: bool,
    /// Install a signed version older than the one locked.
    #[arg(long)]
    pub allow_downgrade: bool,
    /// Accept a locked skill signed now by a key of another publisher than
    /// the locked one (recorded in the lock).
    #[arg(long)]
    pub allow_publisher_change: bool,
    /// Accept a locked name installed from another source than the locked
    /// one (recorded in the lock).
    #[arg(long)]
    pub allow_source_change: bool,
    /// Fetch over plain `http://`, `git://` or a registry over `http://`
    /// from hosts other than this machine (no transport security: only a
    /// signature or a pinned digest then protects what is fetched).
    #[arg(long)]
    pub allow_plain_text: bool,
    /// Fetch git sources without the commit cache (`~/.cache/skb/git`):
    /// every commit from the network, into a throwaway repository (also
    /// `SKB_NO_CACHE=1`).
    #[arg(long)]
    pub no_cache: bool,
}

impl PolicyArgs {
    /// The installer's flags.
    pub fn flags(&self) -> skills_install::PolicyFlags {
        skills_install::PolicyFlags {
            allow_unsigned: self.allow_unsigned,
            allow_downgrade: self.allow_downgrade,
            allow_publisher_change: self.allow_publisher_change,
            allow_source_change: self.allow_source_change,
        }
    }
}

/// The security scan a skill passes before it is installed.
#[derive(Debug, Clone, Args)]
pub struct GateArgs {
    /// Refuse a skill whose security scan reports a finding at or above
    /// this severity (info, low, medium, high, critical), or `none` to
    /// install whatever it reports. Default: what the lock records for the
    /// skill, else high.
    #[arg(long, value_name = "SEVERITY|none", value_parser = parse_fail_on)]
    pub scan_fail_on: Option<FailOn>,
    /// Accept findings at or above the gate (repeatable): a rule's code or
    /// name (`SK604`) accepts its every finding in the skill, a fingerprint
    /// (`SK604:1a2b…`, as a refusal prints it) one finding. Each accepted
    /// finding is recorded in the lock.
    #[arg(long = "allow-finding", value_name = "CODE|FINGERPRINT", value_parser = parse_allow)]
    pub allow_findings: Vec<Allow>,
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
    /// opencode, qwen-code, copilot, kimi-code, cursor, goose, windsurf,
    /// cline, roo-code, kiro, openhands, amp (also as `npx skills` names
    /// them: github-copilot, roo, kiro-cli, kimi-code-cli). Default: the
    /// clients whose folders the project has, else claude-code and codex.
    #[arg(short, long = "client", value_name = "CLIENT", value_parser = parse_target)]
    pub clients: Vec<&'static InstallTarget>,
    /// Install into this folder too (repeatable), for a client no --client
    /// names: relative to the project (with --global, to the home folder, or
    /// `~/…`), never outside it; the lock records it as a client's folder.
    /// With --dir and no --client, only the folders named.
    #[arg(long = "dir", value_name = "PATH")]
    pub dirs: Vec<String>,
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
    pub gate: GateArgs,
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
    pub gate: GateArgs,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb update`.
#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// The skills to update (default: all).
    pub names: Vec<String>,
    /// Replace folders with local edits (keeping a backup).
    #[arg(long, conflicts_with = "dry_run")]
    pub force: bool,
    /// Write nothing: report what would change, as `skb outdated` does
    /// (and with its exit status).
    #[arg(long)]
    pub dry_run: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    #[command(flatten)]
    pub project: ProjectArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub gate: GateArgs,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb outdated`.
#[derive(Debug, Args)]
pub struct OutdatedArgs {
    /// The skills to check (default: all locked ones).
    pub names: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    #[command(flatten)]
    pub project: ProjectArgs,
    #[command(flatten)]
    pub policy: PolicyArgs,
    #[command(flatten)]
    pub gate: GateArgs,
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
    /// Write the index only, without its browsable pages (`index.html`
    /// and `<name>/index.html` beside it).
    #[arg(long)]
    pub no_html: bool,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Replace folders that differ from what their source gives now (the
    /// replaced ones are kept in `.skb/backup`), and links (`npx skills`
    /// links client folders to `.agents/skills`) with copies.
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
    pub gate: GateArgs,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `skb push`.
#[derive(Debug, Args)]
pub struct PushArgs {
    /// The pack.
    pub pack: PathBuf,
    /// Where: `oci://host[:port]/repository:tag`.
    pub reference: String,
    /// The signature to attach (default: `<PACK>.minisig` when it exists).
    #[arg(long, value_name = "FILE")]
    pub signature: Option<PathBuf>,
    /// Push without the signature beside the pack.
    #[arg(long, conflicts_with = "signature")]
    pub unsigned: bool,
}

/// `skb pull`.
#[derive(Debug, Args)]
pub struct PullArgs {
    /// What: `oci://host[:port]/repository:tag` or `…@sha256:<hex>`.
    pub reference: String,
    /// The pack file to write (its signature goes to `<OUTPUT>.minisig`).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}

/// `skb trust`.
#[derive(Debug, Subcommand)]
pub enum TrustCommand {
    /// Trust a publisher's public key: minisign (packs, indexes), SSH or
    /// OpenPGP (git commits and tags), or a Sigstore signer (issuer and
    /// identity, for bundles beside archives); optionally pin sources to
    /// its keys.
    Add(TrustAddArgs),
    /// List trusted publishers, keys and pins.
    List(TrustListArgs),
    /// Retire a key: it still verifies releases already locked, nothing new.
    Retire(TrustRetireArgs),
    /// Stop trusting a key.
    Remove(TrustRemoveArgs),
}

/// Which trust file a `skb trust` command changes.
#[derive(Debug, Args)]
pub struct TrustFileArgs {
    /// The project (its `skills-trust.json`).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub project: PathBuf,
    /// The user's file (`~/.config/skb/trust.json`) instead.
    #[arg(long)]
    pub user: bool,
}

/// `skb trust add`.
#[derive(Debug, Args)]
pub struct TrustAddArgs {
    /// The publisher's name.
    pub name: String,
    /// The public key, or a file holding it: minisign (`.pub` file or
    /// base64 key), SSH (`ssh-ed25519 AAAA…`, a `.pub` file) or OpenPGP
    /// (an armored block, `gpg --armor --export FPR`); its kind is read
    /// from it. Not given with `--sigstore-identity`.
    #[arg(required_unless_present = "sigstore_identity")]
    pub key: Option<String>,
    /// Trust Sigstore bundles (beside archives) signed through this OIDC
    /// issuer, exactly (`https://token.actions.githubusercontent.com` for
    /// GitHub Actions); with `--sigstore-identity`.
    #[arg(
        long,
        value_name = "URL",
        requires = "sigstore_identity",
        conflicts_with = "key"
    )]
    pub sigstore_issuer: Option<String>,
    /// ...by a certificate identity matching this pattern: a workflow
    /// (`https://github.com/O/R/.github/workflows/F.yml@refs/tags/*`) or
    /// an email address; `*` matches within one path segment, ref name or
    /// email local part, never across `/` or `@`.
    #[arg(long, value_name = "PATTERN", requires = "sigstore_issuer")]
    pub sigstore_identity: Option<String>,
    /// Pin sources matching this pattern to the publisher's keys
    /// (`github.com/acme/*`, `oci://ghcr.io/acme/*`; repeatable).
    #[arg(long = "source", value_name = "PATTERN")]
    pub sources: Vec<String>,
    #[command(flatten)]
    pub file: TrustFileArgs,
}

/// `skb trust list`.
#[derive(Debug, Args)]
pub struct TrustListArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
    /// The project (its `skills-trust.json`).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub project: PathBuf,
}

/// `skb trust retire`.
#[derive(Debug, Args)]
pub struct TrustRetireArgs {
    /// The publisher's name.
    pub name: String,
    /// The key id, as `skb trust list` shows it (16 hex digits, `SHA256:…`
    /// for an SSH key, a 40-digit fingerprint for an OpenPGP key).
    pub key_id: String,
    /// When or why (`2026-11-27`, `rotated`).
    pub reason: String,
    #[command(flatten)]
    pub file: TrustFileArgs,
}

/// `skb trust remove`.
#[derive(Debug, Args)]
pub struct TrustRemoveArgs {
    /// The publisher's name.
    pub name: String,
    /// The key id.
    pub key_id: String,
    #[command(flatten)]
    pub file: TrustFileArgs,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_set_to_something_turns_colour_off() {
        use std::ffi::OsStr;
        assert!(Color::Auto.enabled_with(true, None));
        assert!(Color::Auto.enabled_with(true, Some(OsStr::new(""))));
        assert!(!Color::Auto.enabled_with(true, Some(OsStr::new("1"))));
        assert!(!Color::Auto.enabled_with(false, None));
        assert!(Color::Always.enabled_with(false, Some(OsStr::new("1"))));
        assert!(!Color::Never.enabled_with(true, None));
    }

    /// The profile, style and client values are the registry's, with a
    /// help line each, and each parses to what it names.
    #[test]
    fn client_values_come_from_the_registry() {
        let names = |values: Vec<Option<PossibleValue>>| -> Vec<String> {
            values
                .into_iter()
                .map(|v| {
                    let v = v.expect("every value is shown");
                    assert!(v.get_help().is_some(), "{} has no help", v.get_name());
                    v.get_name().to_owned()
                })
                .collect()
        };
        let clients: Vec<&str> = Client::ALL.iter().map(|c| c.as_str()).collect();
        let profiles = names(
            ProfileArg::value_variants()
                .iter()
                .map(ValueEnum::to_possible_value)
                .collect(),
        );
        assert_eq!(profiles[0], "spec");
        assert_eq!(profiles[1..], clients);
        let styles = names(
            StyleArg::value_variants()
                .iter()
                .map(ValueEnum::to_possible_value)
                .collect(),
        );
        assert_eq!(styles[0], "xml");
        assert_eq!(styles[1..], clients);
        let client_names = names(
            ClientArg::value_variants()
                .iter()
                .map(ValueEnum::to_possible_value)
                .collect(),
        );
        assert_eq!(client_names, clients);
        for client in Client::ALL {
            let Command::Show(show) = Cli::try_parse_from([
                "skb",
                "show",
                "x",
                "--style",
                client.as_str(),
                "--profile",
                client.as_str(),
            ])
            .unwrap()
            .command
            else {
                panic!("not show");
            };
            assert_eq!(show.style.map(ClientArg::client), Some(client));
            assert_eq!(show.check.profile.profile(), Profile::of(client));
            let Command::Catalog(catalog) =
                Cli::try_parse_from(["skb", "catalog", "--style", client.as_str()])
                    .unwrap()
                    .command
            else {
                panic!("not catalog");
            };
            assert_eq!(catalog.style.client(), Some(client));
        }
        assert!(Cli::try_parse_from(["skb", "validate", "--profile", "xml"]).is_err());
    }

    /// The limit flags' defaults are the libraries' own, on every command
    /// that takes them.
    #[test]
    fn limit_defaults_are_the_libraries() {
        let parse = |args: &[&str]| Cli::try_parse_from(args).unwrap().command;
        let Command::Validate(validate) = parse(&["skb", "validate"]) else {
            panic!("not validate");
        };
        assert_eq!(validate.limits.limits(), Limits::default());
        assert_eq!(validate.skill_limits.file_limits(), FileLimits::default());
        let Command::Pack(pack) = parse(&["skb", "pack", "-o", "p"]) else {
            panic!("not pack");
        };
        let options = pack.check.options();
        let defaults = Options::default();
        assert_eq!(options.files, defaults.files);
        assert_eq!(
            (options.discovery.max_depth, options.discovery.max_dirs),
            (defaults.discovery.max_depth, defaults.discovery.max_dirs)
        );
        let Command::Unpack(unpack) = parse(&["skb", "unpack", "p", "-o", "o"]) else {
            panic!("not unpack");
        };
        assert_eq!(unpack.skill_limits.file_limits(), FileLimits::default());
        assert_eq!(
            unpack.discovery.options().max_dirs,
            defaults.discovery.max_dirs
        );
        // Each flag reaches the library.
        let Command::Validate(raised) = parse(&[
            "skb",
            "validate",
            "--max-files",
            "3",
            "--max-skill-size",
            "2KiB",
            "--max-skill-depth",
            "4",
            "--max-entries",
            "5",
        ]) else {
            panic!("not validate");
        };
        let files = FileLimits {
            max_files: 3,
            max_total_bytes: 2048,
            max_depth: 4,
            ..FileLimits::default()
        };
        assert_eq!(raised.skill_limits.file_limits(), files);
        assert_eq!(raised.limits.limits().max_entries, 5);
        let Command::Run(run) = parse(&["skb", "run", "x", "--", "id"]) else {
            panic!("not run");
        };
        let default = skills_bundle::exec::DEFAULT_MAX_OUTPUT as u64;
        assert_eq!(run.max_output, default);
        let Command::Serve(serve) = parse(&["skb", "serve"]) else {
            panic!("not serve");
        };
        assert_eq!(serve.max_output, default);
    }
}

//! The clients skills are written for, in one table ([`CLIENTS`]).
//!
//! Every crate that names a client reads it from here: the compiler's
//! profiles, discovery of the clients' skills folders, the clients' readers,
//! the catalog dialects ([`crate::catalog::Style`] is the table's clients
//! plus the reference's `xml`), and the command line's values and their help.
//! A client is one [`Client`] variant and one [`ClientInfo`] row; what it
//! *does* with a skill folder (how it reads `SKILL.md`, how it renders its
//! listing) lives in that client's own modules.
//!
//! The rows describe the clients as they were recorded: Claude Code 2.1.330,
//! OpenAI's Codex CLI 0.169.0, Google's Gemini CLI 0.61.0, OpenCode
//! 1.18.33, GitHub Copilot CLI 1.0.102, Qwen Code 0.24.4 and Kimi Code
//! 2.1.0, each run for real and watched (what it read, listed and sent
//! its model). Where a client's documentation and what it did disagree,
//! the rows say what it did.

/// A client that reads skill folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Client {
    /// Claude Code (recorded: 2.1.330).
    ClaudeCode,
    /// OpenAI's Codex CLI (recorded: 0.169.0).
    Codex,
    /// Google's Gemini CLI (recorded: 0.61.0).
    GeminiCli,
    /// OpenCode (recorded: 1.18.33).
    OpenCode,
    /// GitHub Copilot CLI (recorded: 1.0.102).
    Copilot,
    /// Qwen Code (recorded: 0.24.4).
    QwenCode,
    /// Moonshot AI's Kimi Code (recorded: 2.1.0).
    KimiCode,
}

/// Where a user's skills folder is, relative to which home directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserBase {
    /// The user's home directory (`HOME`, `USERPROFILE` on Windows).
    Home,
    /// Codex's home (`$CODEX_HOME`, default `~/.codex`).
    CodexHome,
}

/// One of a client's user skills folders: `rel` below `base`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserFolder {
    /// The home directory it is below.
    pub base: UserBase,
    /// The folder, `/`-separated, relative to `base`.
    pub rel: &'static str,
}

/// How a client scans one of its skills folders for skills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scan {
    /// Only the folder's direct children, hidden ones included, following
    /// links to directories (Claude Code).
    Children,
    /// Down to a depth limit, skipping hidden directories, following links
    /// to directories (Codex).
    Walk,
    /// A `SKILL.md` in the folder itself, and the folder's direct children
    /// but hidden ones, following links (Gemini CLI).
    RootAndChildren,
    /// A `SKILL.md` in the folder itself, and every directory below it but
    /// hidden ones, at any depth, following links (OpenCode; Copilot CLI,
    /// for which a `SKILL.md` in the folder itself also hides every other
    /// skill of that folder: `skills_compiler::client::copilot`).
    Recursive,
    /// Every directory below the folder down to [`TREE_DEPTH`], hidden
    /// ones and `node_modules` loaded when they hold a `SKILL.md` but never
    /// looked into, following links; not a `SKILL.md` in the folder
    /// itself, but a loose `NAME.md` there is a skill too (Kimi Code:
    /// `skills_compiler::client::kimi_code`).
    Tree,
}

impl Scan {
    /// Whether the scan finds a skill `depth` directories below its skills
    /// folder (0: the folder itself), `hidden` when a directory on the way
    /// (the skill's own included) starts with `.`.
    pub fn reaches(self, depth: usize, hidden: bool) -> bool {
        match self {
            Scan::Children => depth == 1,
            Scan::Walk => (1..=WALK_DEPTH).contains(&depth) && !hidden,
            Scan::RootAndChildren => depth <= 1 && !hidden,
            Scan::Recursive => !hidden,
            // No scan descends into a hidden directory, so a hidden skill
            // found below the folder is hidden by its own name.
            Scan::Tree => (1..=TREE_DEPTH).contains(&depth),
        }
    }

    /// Whether the scan looks below the folder's direct children.
    pub fn descends(self) -> bool {
        matches!(self, Scan::Walk | Scan::Recursive | Scan::Tree)
    }
}

/// How many levels below a skills folder [`Scan::Walk`] looks (Codex: 6).
pub const WALK_DEPTH: usize = 6;

/// How many levels below a skills folder [`Scan::Tree`] loads skills
/// (Kimi Code reads directories down to 8 levels below the folder, and
/// the skill folders in the deepest).
pub const TREE_DEPTH: usize = 9;

/// Which directories of a project a client reads skills folders in, from
/// the directory it is started in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Levels {
    /// The start directory and each parent up to the root of its git
    /// repository; the start directory alone outside a repository (Claude
    /// Code, Codex).
    UpToRepository,
    /// The start directory only (Gemini CLI: a repository's root folders
    /// are not read from a subdirectory).
    Start,
    /// The start directory and each parent up to the root of its git
    /// repository; outside a repository, every parent up to the file
    /// system's root (OpenCode).
    UpToRepositoryOrRoot,
    /// The root of the git repository the start directory is in, only; the
    /// start directory outside a repository (Kimi Code: from a
    /// subdirectory it reads the root's folders, not its own).
    RepositoryRoot,
}

/// Which of two skills with one name a client keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precedence {
    /// The first it reads (Claude Code: the user's over the project's).
    FirstWins,
    /// Both are loaded (Codex lists each, by its path).
    Both,
    /// The last it reads, at the list position of the first (Gemini CLI).
    LastWins,
    /// One of them, not the same one from run to run (OpenCode: recorded
    /// runs of one tree kept different copies).
    Unstable,
}

/// Which name a client lists a skill under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListedName {
    /// The skill folder's name, with the frontmatter's `name` shown beside
    /// it where they differ (Claude Code).
    FolderName,
    /// The frontmatter's `name` (Codex).
    Frontmatter,
}

/// Everything about one client that is data rather than behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientInfo {
    /// The client.
    pub client: Client,
    /// Its name on the command line, in the macro and in reports:
    /// `claude-code`. The profile that validates for the client, its
    /// catalog style and its activation style all carry this name.
    pub id: &'static str,
    /// Its name in prose: `Claude Code`.
    pub title: &'static str,
    /// What its profile accepts, as one line of `--help`.
    pub profile_about: &'static str,
    /// What its catalog is, as one line of `--help`.
    pub catalog_about: &'static str,
    /// How it gives a skill's activation to its model, as one line of
    /// `--help`.
    pub activation_about: &'static str,
    /// Its skills folders in a project folder, relative to each directory
    /// from the start directory up to the repository's root, in the order
    /// the client reads them.
    pub project_folders: &'static [&'static str],
    /// The user's own skills folders, in the order the client reads them.
    pub user_folders: &'static [UserFolder],
    /// Whether the client reads the user's folders before the project's
    /// (Claude Code) or after (Codex).
    pub user_first: bool,
    /// How it scans a skills folder.
    pub scan: Scan,
    /// Which directories of a project it reads skills folders in.
    pub levels: Levels,
    /// The name it lists a skill under.
    pub listed_name: ListedName,
    /// Which of two skills with one name it keeps.
    pub precedence: Precedence,
    /// The names of the skills the client brings itself, which a skill of
    /// the same name replaces (their text is the client's, not modelled).
    pub builtin_skills: &'static [&'static str],
}

/// Every client, in [`Client`] order: the one table.
pub const CLIENTS: [ClientInfo; 7] = [
    ClientInfo {
        client: Client::ClaudeCode,
        id: "claude-code",
        title: "Claude Code",
        profile_about: "What Claude Code loads and lists: errors where it would not load a skill",
        catalog_about: "Claude Code's skill listing",
        activation_about: "Claude Code: the text it sends after a `Skill` call, its placeholders filled",
        project_folders: &[".claude/skills"],
        user_folders: &[UserFolder {
            base: UserBase::Home,
            rel: ".claude/skills",
        }],
        user_first: true,
        scan: Scan::Children,
        levels: Levels::UpToRepository,
        listed_name: ListedName::FolderName,
        precedence: Precedence::FirstWins,
        builtin_skills: &[],
    },
    ClientInfo {
        client: Client::Codex,
        id: "codex",
        title: "Codex",
        profile_about: "What Codex CLI loads: errors where Codex rejects, with its reason",
        catalog_about: "Codex's list of available skills",
        activation_about: "OpenAI's Codex CLI: the `<skill>` message it adds for `$name`, the file unchanged",
        project_folders: &[".agents/skills", ".codex/skills"],
        user_folders: &[
            UserFolder {
                base: UserBase::CodexHome,
                rel: "skills",
            },
            UserFolder {
                base: UserBase::Home,
                rel: ".agents/skills",
            },
        ],
        user_first: false,
        scan: Scan::Walk,
        levels: Levels::UpToRepository,
        listed_name: ListedName::Frontmatter,
        precedence: Precedence::Both,
        builtin_skills: &[],
    },
    ClientInfo {
        client: Client::GeminiCli,
        id: "gemini-cli",
        title: "Gemini CLI",
        profile_about: "What Gemini CLI loads and lists: errors where it would skip a skill",
        catalog_about: "Gemini CLI's `# Available Agent Skills` section",
        activation_about: "Gemini CLI: the `<activated_skill>` answer to `activate_skill`",
        project_folders: &[".gemini/skills", ".agents/skills"],
        user_folders: &[
            UserFolder {
                base: UserBase::Home,
                rel: ".gemini/skills",
            },
            UserFolder {
                base: UserBase::Home,
                rel: ".agents/skills",
            },
        ],
        user_first: true,
        scan: Scan::RootAndChildren,
        levels: Levels::Start,
        listed_name: ListedName::Frontmatter,
        precedence: Precedence::LastWins,
        builtin_skills: &["skill-creator", "antigravity-support"],
    },
    ClientInfo {
        client: Client::OpenCode,
        id: "opencode",
        title: "OpenCode",
        profile_about: "What OpenCode loads and lists: errors where it would drop a skill",
        catalog_about: "OpenCode's `<available_skills>` list, sorted by name",
        activation_about: "OpenCode: the `<skill_content>` answer to its `skill` tool",
        project_folders: &[
            ".claude/skills",
            ".agents/skills",
            ".opencode/skills",
            ".opencode/skill",
        ],
        user_folders: &[
            UserFolder {
                base: UserBase::Home,
                rel: ".claude/skills",
            },
            UserFolder {
                base: UserBase::Home,
                rel: ".agents/skills",
            },
            UserFolder {
                base: UserBase::Home,
                rel: ".config/opencode/skills",
            },
            UserFolder {
                base: UserBase::Home,
                rel: ".config/opencode/skill",
            },
            UserFolder {
                base: UserBase::Home,
                rel: ".opencode/skills",
            },
        ],
        user_first: true,
        scan: Scan::Recursive,
        levels: Levels::UpToRepositoryOrRoot,
        listed_name: ListedName::Frontmatter,
        precedence: Precedence::Unstable,
        builtin_skills: &["customize-opencode"],
    },
    ClientInfo {
        client: Client::Copilot,
        id: "copilot",
        title: "GitHub Copilot CLI",
        profile_about: "What GitHub Copilot CLI loads and lists: errors where it would drop a skill",
        catalog_about: "Copilot CLI's `<available_skills>` list, within its budget",
        activation_about: "Copilot CLI: the `<skill-context>` message after its `skill` tool",
        project_folders: &[".github/skills", ".agents/skills", ".claude/skills"],
        user_folders: &[
            UserFolder {
                base: UserBase::Home,
                rel: ".copilot/skills",
            },
            UserFolder {
                base: UserBase::Home,
                rel: ".agents/skills",
            },
        ],
        user_first: false,
        scan: Scan::Recursive,
        levels: Levels::UpToRepository,
        listed_name: ListedName::Frontmatter,
        precedence: Precedence::FirstWins,
        builtin_skills: &["customize-cloud-agent", "github-pr-media"],
    },
    // Recorded (Qwen Code 0.24.4): the working directory's `.qwen/skills`
    // and `.agents/skills` only, one level deep, hidden folders included;
    // then `~/.qwen/skills`, `~/.agents/skills`; its bundled skills last.
    ClientInfo {
        client: Client::QwenCode,
        id: "qwen-code",
        title: "Qwen Code",
        profile_about: "What Qwen Code loads and lists: errors where it would drop or hide a skill",
        catalog_about: "Qwen Code's `<available_skills>` reminder, sorted by name",
        activation_about: "Qwen Code: the `Base directory for this skill` answer to its `skill` tool",
        project_folders: &[".qwen/skills", ".agents/skills"],
        user_folders: &[
            UserFolder {
                base: UserBase::Home,
                rel: ".qwen/skills",
            },
            UserFolder {
                base: UserBase::Home,
                rel: ".agents/skills",
            },
        ],
        user_first: false,
        scan: Scan::Children,
        levels: Levels::Start,
        listed_name: ListedName::Frontmatter,
        precedence: Precedence::FirstWins,
        builtin_skills: &[
            "batch",
            "browser-use",
            "computer-use",
            "dataviz",
            "extension-creator",
            "goal-draft",
            "loop",
            "new-app",
            "qc-helper",
            "review",
            "simplify",
            "stuck",
            "workflow-authoring",
            "workflow-creator",
        ],
    },
    // Recorded (Kimi Code 2.1.0): `.kimi-code/skills` and `.agents/skills`
    // at the git root only; then `~/.kimi-code/skills`, `~/.agents/skills`;
    // its three built-ins last. Every level down to 9, hidden skill folders
    // included, and loose `NAME.md` files at a folder's top.
    ClientInfo {
        client: Client::KimiCode,
        id: "kimi-code",
        title: "Kimi Code",
        profile_about: "What Kimi Code loads and lists: errors where it would drop or hide a skill",
        catalog_about: "Kimi Code's `# Skills` section, grouped by scope",
        activation_about: "Kimi Code: the `<skill-loaded>` message after its `Skill` tool, placeholders filled",
        project_folders: &[".kimi-code/skills", ".agents/skills"],
        user_folders: &[
            UserFolder {
                base: UserBase::Home,
                rel: ".kimi-code/skills",
            },
            UserFolder {
                base: UserBase::Home,
                rel: ".agents/skills",
            },
        ],
        user_first: false,
        scan: Scan::Tree,
        levels: Levels::RepositoryRoot,
        listed_name: ListedName::Frontmatter,
        precedence: Precedence::FirstWins,
        builtin_skills: &["check-kimi-code-docs", "update-config", "write-goal"],
    },
];

impl Client {
    /// Every client, in the table's order.
    pub const ALL: [Client; CLIENTS.len()] = {
        let mut all = [Client::ClaudeCode; CLIENTS.len()];
        let mut i = 0;
        while i < CLIENTS.len() {
            all[i] = CLIENTS[i].client;
            i += 1;
        }
        all
    };

    /// The client's row of the table.
    pub const fn info(self) -> &'static ClientInfo {
        &CLIENTS[self as usize]
    }

    /// The client's name: `claude-code`, `codex`, `gemini-cli`, `opencode`.
    pub const fn as_str(self) -> &'static str {
        self.info().id
    }

    /// The client's name in prose: `Claude Code`, `Codex`, ...
    pub const fn title(self) -> &'static str {
        self.info().title
    }

    /// Whether the client reads the skills folders above a project that is
    /// in no git repository ([`Levels::UpToRepositoryOrRoot`]: OpenCode).
    pub fn reads_outside_repository(self) -> bool {
        self.info().levels == Levels::UpToRepositoryOrRoot
    }

    /// Parses a client name.
    pub fn from_name(name: &str) -> Option<Client> {
        Client::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

impl std::fmt::Display for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Every client's project skills folders, in the table's order.
pub fn project_folders() -> impl Iterator<Item = (Client, &'static str)> {
    CLIENTS
        .iter()
        .flat_map(|c| c.project_folders.iter().map(move |rel| (c.client, *rel)))
}

/// Every project skills folder once, in the table's order of first mention:
/// `.claude/skills`, `.agents/skills`, `.codex/skills`, ...
pub fn distinct_project_folders() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for (_, rel) in project_folders() {
        if !all.contains(&rel) {
            all.push(rel);
        }
    }
    all
}

/// The clients that read the project skills folder `rel` (`.agents/skills`
/// is read by Codex, Gemini CLI and OpenCode).
pub fn project_readers(rel: &str) -> impl Iterator<Item = Client> + '_ {
    CLIENTS
        .iter()
        .filter(move |c| c.project_folders.contains(&rel))
        .map(|c| c.client)
}

/// A skills folder an installer writes into (`skb add --client ID`), and
/// the folder of the same client in the user's home.
///
/// The clients `skb` models ([`Client`]) are here with the folders their
/// table row reads; the others are the folders their makers document for
/// skills. `recorded` says which were observed by running the real program
/// (the versions are in the comments below): where a client's
/// documentation and what it did disagree, what it did is written here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstallTarget {
    /// Its name on the command line: `claude-code`.
    pub id: &'static str,
    /// Its name in prose.
    pub title: &'static str,
    /// The folder in a project, `/`-separated.
    pub project: &'static str,
    /// The folder in the user's home.
    pub user: UserFolder,
    /// The modelled client, whose profile says how it would list a skill.
    pub client: Option<Client>,
    /// Whether the folders were observed from the real program.
    pub recorded: bool,
    /// Where the folders come from: the recorded version, or the page of
    /// the maker's documentation that names them.
    pub source: &'static str,
    /// Other names `--client` takes for it: the ones Vercel's `npx skills`
    /// uses (`github-copilot`, `roo`, `kiro-cli`), so its users' commands
    /// keep working.
    pub aliases: &'static [&'static str],
}

/// Every folder `skb add` can install into, one row per client; clients
/// sharing `.agents/skills` share its copy.
pub const INSTALL_TARGETS: [InstallTarget; 15] = [
    InstallTarget {
        id: "claude-code",
        title: "Claude Code",
        project: ".claude/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".claude/skills",
        },
        client: Some(Client::ClaudeCode),
        recorded: true,
        source: "recorded: Claude Code 2.1.330",
        aliases: &[],
    },
    InstallTarget {
        id: "codex",
        title: "Codex",
        project: ".agents/skills",
        user: UserFolder {
            base: UserBase::CodexHome,
            rel: "skills",
        },
        client: Some(Client::Codex),
        recorded: true,
        source: "recorded: Codex CLI 0.169.0",
        aliases: &[],
    },
    // Recorded (Gemini CLI 0.61.0): the working directory's `.gemini/skills`
    // and `.agents/skills`, no walk up; `~/.gemini/skills`, `~/.agents/skills`.
    InstallTarget {
        id: "gemini-cli",
        title: "Gemini CLI",
        project: ".gemini/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".gemini/skills",
        },
        client: Some(Client::GeminiCli),
        recorded: true,
        source: "recorded: Gemini CLI 0.61.0",
        aliases: &[],
    },
    // Recorded (OpenCode 1.18.33): `.opencode/skills` (and `.claude`,
    // `.agents`) from the working directory up to the git root;
    // `~/.config/opencode/skills`.
    InstallTarget {
        id: "opencode",
        title: "OpenCode",
        project: ".opencode/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".config/opencode/skills",
        },
        client: Some(Client::OpenCode),
        recorded: true,
        source: "recorded: OpenCode 1.18.33",
        aliases: &[],
    },
    // Recorded (Qwen Code 0.24.4): the working directory's `.qwen/skills`;
    // `~/.qwen/skills`.
    InstallTarget {
        id: "qwen-code",
        title: "Qwen Code",
        project: ".qwen/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".qwen/skills",
        },
        client: Some(Client::QwenCode),
        recorded: true,
        source: "recorded: Qwen Code 0.24.4",
        aliases: &[],
    },
    // Recorded (Copilot CLI 1.0.102): `.github/skills` (and `.agents`,
    // `.claude`) from the working directory up to the git root;
    // `~/.copilot/skills`, `~/.agents/skills`.
    InstallTarget {
        id: "copilot",
        title: "GitHub Copilot CLI",
        project: ".github/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".copilot/skills",
        },
        client: Some(Client::Copilot),
        recorded: true,
        source: "recorded: GitHub Copilot CLI 1.0.102",
        aliases: &["github-copilot"],
    },
    // Recorded (Kimi Code 2.1.0): `.kimi-code/skills` (and `.agents`) at the
    // git root; `~/.kimi-code/skills`.
    InstallTarget {
        id: "kimi-code",
        title: "Kimi Code",
        project: ".kimi-code/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".kimi-code/skills",
        },
        client: Some(Client::KimiCode),
        recorded: true,
        source: "recorded: Kimi Code 2.1.0",
        aliases: &["kimi-code-cli"],
    },
    InstallTarget {
        id: "cursor",
        title: "Cursor",
        project: ".cursor/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".cursor/skills",
        },
        client: None,
        recorded: false,
        source: "https://cursor.com/docs/context/skills",
        aliases: &[],
    },
    // Documented: `.agents/skills` in the project, `~/.config/agents/skills`
    // (and `~/.config/goose/skills`, `~/.claude/skills`) in the home.
    InstallTarget {
        id: "goose",
        title: "Goose",
        project: ".agents/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".config/agents/skills",
        },
        client: None,
        recorded: false,
        source: "https://block.github.io/goose/docs/guides/context-engineering/using-skills",
        aliases: &[],
    },
    // Documented: `.windsurf/skills` and `~/.codeium/windsurf/skills` (also
    // `.agents/skills`, `~/.agents/skills`).
    InstallTarget {
        id: "windsurf",
        title: "Windsurf",
        project: ".windsurf/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".codeium/windsurf/skills",
        },
        client: None,
        recorded: false,
        source: "https://docs.windsurf.com/windsurf/cascade/skills",
        aliases: &[],
    },
    // Documented: `.cline/skills` (also `.clinerules/skills`) and
    // `~/.cline/skills`.
    InstallTarget {
        id: "cline",
        title: "Cline",
        project: ".cline/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".cline/skills",
        },
        client: None,
        recorded: false,
        source: "https://docs.cline.bot/customization/skills",
        aliases: &[],
    },
    InstallTarget {
        id: "roo-code",
        title: "Roo Code",
        project: ".roo/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".roo/skills",
        },
        client: None,
        recorded: false,
        source: "https://docs.roocode.com/features/skills",
        aliases: &["roo"],
    },
    // Documented: the workspace's skill wins over the global one of its name.
    InstallTarget {
        id: "kiro",
        title: "Kiro",
        project: ".kiro/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".kiro/skills",
        },
        client: None,
        recorded: false,
        source: "https://kiro.dev/docs/skills",
        aliases: &["kiro-cli"],
    },
    // Documented: `.agents/skills` (`.openhands/skills` kept for older
    // projects) and `~/.agents/skills`.
    InstallTarget {
        id: "openhands",
        title: "OpenHands",
        project: ".agents/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".agents/skills",
        },
        client: None,
        recorded: false,
        source: "https://docs.openhands.dev/overview/skills",
        aliases: &[],
    },
    // Recorded, listing only (Amp 0.0.1790142911-g7618fb, `amp skill
    // list`): `.agents/skills` and `.claude/skills` of the working directory
    // and every parent, past the git root; `~/.config/amp/skills`,
    // `~/.agents/skills`, `~/.config/agents/skills`, `~/.claude/skills`; at
    // any depth, hidden folders and `skill.md` included. Its agent runs on
    // its own service, so no catalog or activation is known: its name rules
    // are `skills_compiler::client::amp`.
    InstallTarget {
        id: "amp",
        title: "Amp",
        project: ".agents/skills",
        user: UserFolder {
            base: UserBase::Home,
            rel: ".config/amp/skills",
        },
        client: None,
        recorded: true,
        source: "recorded: Amp 0.0.1790142911 (`amp skill list`)",
        aliases: &[],
    },
];

/// The install target called `id`, or one of its [`InstallTarget::aliases`].
pub fn install_target(id: &str) -> Option<&'static InstallTarget> {
    INSTALL_TARGETS
        .iter()
        .find(|t| t.id == id)
        .or_else(|| INSTALL_TARGETS.iter().find(|t| t.aliases.contains(&id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_variant_order_with_unique_names() {
        for (i, row) in CLIENTS.iter().enumerate() {
            assert_eq!(row.client as usize, i, "{}", row.id);
            assert_eq!(row.client.info(), row);
            assert_eq!(Client::from_name(row.id), Some(row.client));
        }
        let mut ids: Vec<&str> = CLIENTS.iter().map(|c| c.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), CLIENTS.len());
        assert_eq!(Client::from_name("spec"), None);
        assert_eq!(Client::from_name("xml"), None);
    }

    #[test]
    fn every_modelled_client_installs_into_a_folder_it_reads() {
        for row in &CLIENTS {
            let target = install_target(row.id).expect("a target per client");
            assert_eq!(target.client, Some(row.client));
            assert!(row.project_folders.contains(&target.project), "{}", row.id);
            assert!(row.user_folders.contains(&target.user), "{}", row.id);
        }
        let mut ids: Vec<&str> = INSTALL_TARGETS
            .iter()
            .flat_map(|t| std::iter::once(t.id).chain(t.aliases.iter().copied()))
            .collect();
        let names = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), names, "an id or alias names two targets");
        assert_eq!(install_target("roo").map(|t| t.id), Some("roo-code"));
        assert_eq!(
            install_target("github-copilot").map(|t| t.id),
            Some("copilot")
        );
    }

    #[test]
    fn project_folders_in_table_order() {
        let folders: Vec<(Client, &str)> = project_folders().collect();
        assert_eq!(
            folders,
            [
                (Client::ClaudeCode, ".claude/skills"),
                (Client::Codex, ".agents/skills"),
                (Client::Codex, ".codex/skills"),
                (Client::GeminiCli, ".gemini/skills"),
                (Client::GeminiCli, ".agents/skills"),
                (Client::OpenCode, ".claude/skills"),
                (Client::OpenCode, ".agents/skills"),
                (Client::OpenCode, ".opencode/skills"),
                (Client::OpenCode, ".opencode/skill"),
                (Client::Copilot, ".github/skills"),
                (Client::Copilot, ".agents/skills"),
                (Client::Copilot, ".claude/skills"),
                (Client::QwenCode, ".qwen/skills"),
                (Client::QwenCode, ".agents/skills"),
                (Client::KimiCode, ".kimi-code/skills"),
                (Client::KimiCode, ".agents/skills"),
            ]
        );
        assert_eq!(
            distinct_project_folders(),
            [
                ".claude/skills",
                ".agents/skills",
                ".codex/skills",
                ".gemini/skills",
                ".opencode/skills",
                ".opencode/skill",
                ".github/skills",
                ".qwen/skills",
                ".kimi-code/skills"
            ]
        );
        assert_eq!(
            project_readers(".agents/skills").collect::<Vec<_>>(),
            [
                Client::Codex,
                Client::GeminiCli,
                Client::OpenCode,
                Client::Copilot,
                Client::QwenCode,
                Client::KimiCode
            ]
        );
    }

    #[test]
    fn scans_reach_what_the_clients_read() {
        // (depth, hidden) -> Claude Code, Codex (limit 6), Gemini CLI, OpenCode,
        // Copilot CLI, Qwen Code, Kimi Code (limit 9).
        for (depth, hidden, want) in [
            (0, false, [false, false, true, true, true, false, false]),
            (1, false, [true, true, true, true, true, true, true]),
            (1, true, [true, false, false, false, false, true, true]),
            (2, false, [false, true, false, true, true, false, true]),
            (2, true, [false, false, false, false, false, false, true]),
            (7, false, [false, false, false, true, true, false, true]),
            (10, false, [false, false, false, true, true, false, false]),
        ] {
            let got = CLIENTS.map(|c| c.scan.reaches(depth, hidden));
            assert_eq!(got, want, "depth {depth}, hidden {hidden}");
        }
    }
}

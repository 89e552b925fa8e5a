//! What a file is to an agent or its client, by its path alone: a settings
//! file, a standing-instructions file, a slash command or subagent, a
//! plugin's manifest. Shared by the engine, which reads each file by what it
//! is, and by the analyzers that judge what a command writes where.

/// Whether `path` is a file an agent reads its settings or MCP servers
/// from.
pub(crate) fn is_agent_settings(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".claude.json",
        ".mcp.json",
        ".codex/config.toml",
        ".gemini/settings.json",
        ".cursor/mcp.json",
        "claude_desktop_config.json",
        ".vscode/mcp.json",
        "opencode.json",
        ".continue/config.json",
        ".windsurf/mcp.json",
        ".codeium/windsurf/mcp_config.json",
        ".amp/settings.json",
        ".config/goose/config.yaml",
    ]
    .iter()
    .any(|f| p.ends_with(f))
}

/// Whether `path` is a readme (`README.md`, `readme.txt`, `README`): a
/// page for the people who install a skill, which no client loads into
/// its model as the skill's instructions.
pub(crate) fn is_readme(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.get(..6)
        .is_some_and(|head| head.eq_ignore_ascii_case("readme"))
        && name[6..]
            .chars()
            .all(|c| c == '.' || c.is_ascii_alphanumeric())
}

/// Whether `path` is a file an agent reads as standing instructions.
pub(crate) fn is_instruction_file(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    let name = p.rsplit('/').next().unwrap_or(&p);
    matches!(
        name,
        "claude.md"
            | "agents.md"
            | "gemini.md"
            | "memory.md"
            | ".cursorrules"
            | ".windsurfrules"
            | ".clinerules"
            | "copilot-instructions.md"
            | "claude.local.md"
            | "conventions.md"
    ) || p.contains(".cursor/rules/")
        || p.contains(".github/instructions/")
        || p.contains(".claude/instructions")
        || p.contains(".clinerules/")
        || p.contains(".windsurf/rules/")
        || p.contains(".claude/memory")
}

/// Whether `path` is a slash command or a subagent: Markdown a client hands
/// the model as instructions, with frontmatter (`allowed-tools`, `tools`)
/// and, for commands, `` !`command` `` lines run as it loads.
pub(crate) fn is_prompt_file(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let Some((dir, name)) = lower.rsplit_once('/') else {
        return false;
    };
    let folder = dir.rsplit('/').next().unwrap_or(dir);
    name.ends_with(".md") && (folder == "commands" || folder == "agents")
}

/// Whether `path` is a plugin's or an extension's manifest, read for the
/// hooks and servers it declares (a Claude Code plugin's `.lsp.json` lists
/// language servers, each a command line the client starts).
pub(crate) fn is_manifest(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    matches!(
        name,
        "plugin.json"
            | "marketplace.json"
            | "hooks.json"
            | "gemini-extension.json"
            | "mcp.json"
            | "lsp.json"
            | ".lsp.json"
            | "claude_desktop_config.json"
    )
}

/// Whether `path` is a script of an agent's hooks (`hooks/NAME.sh` of a
/// plugin or a settings folder), whose standard input is the hook's
/// payload; git's hooks (`hooks/pre-commit`) read refs and messages.
pub(crate) fn is_hook_script(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let Some((dir, name)) = lower.rsplit_once('/') else {
        return false;
    };
    let folder = dir.rsplit('/').next().unwrap_or(dir);
    folder == "hooks"
        && !dir.ends_with(".git/hooks")
        && !GIT_HOOKS.contains(&name.trim_end_matches(".sh"))
}

/// Git's hook names.
pub(crate) const GIT_HOOKS: [&str; 10] = [
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-rebase",
    "post-rewrite",
    "pre-receive",
];

#[cfg(test)]
mod tests {
    use super::is_readme;

    #[test]
    fn a_readme_by_its_file_name() {
        for path in [
            "README.md",
            "adr/README.md",
            "readme.txt",
            "README",
            "docs/Readme.rst",
        ] {
            assert!(is_readme(path), "{path}");
        }
        for path in [
            "SKILL.md",
            "README-install.sh",
            "readme_helper.py",
            "READ.md",
            "notes/READMEs/x.md",
        ] {
            assert!(!is_readme(path), "{path}");
        }
    }
}

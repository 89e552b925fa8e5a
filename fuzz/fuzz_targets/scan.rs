//! Fuzzes the scanner, `skills_scan::scan`, on one skill made of the bytes:
//! the first byte picks the names of a script and of a second file (a
//! reference, a configuration file the scanner reads for hooks and MCP
//! servers, a plugin's command or agent, a file another tool runs: an
//! install script, a task, a recipe, a workflow, a `.pth`), and the rest is split at `0xFF` bytes (never in UTF-8) into
//! `SKILL.md`, the script and the second file.
//!
//! Any input must give a report, never a panic, a hang or unbounded memory;
//! every finding must name one of the files scanned.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_scan::{Options, SkillFile, scan};

/// Script names, by the selector's low three bits.
const SCRIPTS: [&str; 8] = [
    "scripts/run.sh",
    "scripts/run.py",
    "scripts/run.js",
    "scripts/run.ps1",
    "scripts/run",
    "scripts/install.bash",
    "scripts/tool.mjs",
    "scripts/run.rb",
];

/// Names of the second file, by the selector's other five bits and, past
/// the first 32, the low bit of the second byte.
const OTHERS: [&str; 51] = [
    "references/guide.md",
    "docker-compose.yml",
    ".claude/settings.json",
    ".mcp.json",
    "hooks/hooks.json",
    "CLAUDE.md",
    "assets/data.bin",
    // A second module for the script to import (`from utils import run`,
    // `require('./utils')`).
    "scripts/utils.py",
    ".claude-plugin/plugin.json",
    ".claude-plugin/marketplace.json",
    "gemini-extension.json",
    "commands/deploy.md",
    "agents/reviewer.md",
    "server.py",
    "src/index.ts",
    "tools.json",
    "package.json",
    "composer.json",
    ".vscode/tasks.json",
    ".devcontainer/devcontainer.json",
    "Makefile",
    "justfile",
    "Dockerfile",
    ".envrc",
    ".curlrc",
    ".githooks/pre-commit",
    ".pre-commit-config.yaml",
    ".github/workflows/ci.yml",
    "action.yml",
    "lib/site.pth",
    "assets/jobs.cron",
    ".cursor/mcp.json",
    "assets/Taskfile.yml",
    "assets/init.gradle",
    "build.rs",
    "tox.ini",
    "assets/gitconfig",
    "gen.go",
    "tools/Program.cs",
    "src/Main.java",
    "scripts/doctor.php",
    "scripts/check.lua",
    "assets/envrc",
    "notebooks/eda.ipynb",
    "assets/githooks/post-checkout",
    "k8s/pod.yaml",
    ".lsp.json",
    "build.zig",
    ".cargo/config.toml",
    "hooks/fold.sh",
    "pre-commit-config.yaml",
];

fuzz_target!(|bytes: &[u8]| {
    let Some((&selector, rest)) = bytes.split_first() else {
        return;
    };
    let more = rest.first().map_or(0, |&b| usize::from(b & 1));
    let mut parts = rest.splitn(3, |&b| b == 0xFF);
    let names = [
        "SKILL.md",
        SCRIPTS[usize::from(selector & 7)],
        OTHERS[(usize::from(selector >> 3) + 32 * more) % OTHERS.len()],
    ];
    let files: Vec<SkillFile<'_>> = names
        .iter()
        .zip(parts.by_ref())
        .map(|(&path, bytes)| SkillFile { path, bytes })
        .collect();
    let report = scan(&files, &Options::default());
    for f in &report.findings {
        assert!(
            files.iter().any(|file| file.path == f.path),
            "{} at {}:{} names no scanned file",
            f.rule.code,
            f.path,
            f.line
        );
    }
});

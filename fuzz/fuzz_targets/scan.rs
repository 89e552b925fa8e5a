//! Fuzzes the scanner, `skills_scan::scan`, on one skill made of the bytes:
//! the first byte picks the names of a script and of a second file (a
//! reference, or a configuration file the scanner reads for hooks and MCP
//! servers), and the rest is split at `0xFF` bytes (never in UTF-8) into
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

/// Names of the second file, by the selector's next three bits.
const OTHERS: [&str; 8] = [
    "references/guide.md",
    // A second module for the script to import (`from utils import run`,
    // `require('./utils')`).
    "scripts/utils.py",
    ".claude/settings.json",
    ".mcp.json",
    "hooks/hooks.json",
    "CLAUDE.md",
    "assets/data.bin",
    "references/config.yaml",
];

fuzz_target!(|bytes: &[u8]| {
    let Some((&selector, rest)) = bytes.split_first() else {
        return;
    };
    let mut parts = rest.splitn(3, |&b| b == 0xFF);
    let names = [
        "SKILL.md",
        SCRIPTS[usize::from(selector & 7)],
        OTHERS[usize::from((selector >> 3) & 7)],
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

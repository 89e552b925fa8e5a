//! Which folders a skill is installed into: the clients asked for with
//! `--client`, else the clients whose folders the project already has, else
//! Claude Code and `.agents/skills` (read by Codex, Gemini CLI, OpenCode,
//! Goose and Amp). Clients that share a folder share one copy.

use std::io;
use std::path::{Path, PathBuf};

use skills_core::client::{INSTALL_TARGETS, InstallTarget, UserBase};

/// The targets of a project (`root`), in table order, one per folder.
pub fn project_targets(
    root: &Path,
    asked: &[&'static InstallTarget],
) -> Vec<&'static InstallTarget> {
    let chosen: Vec<&'static InstallTarget> = if asked.is_empty() {
        let present: Vec<&'static InstallTarget> = INSTALL_TARGETS
            .iter()
            .filter(|t| root.join(t.project).is_dir())
            .collect();
        if present.is_empty() {
            INSTALL_TARGETS
                .iter()
                .filter(|t| t.id == "claude-code" || t.id == "codex")
                .collect()
        } else {
            present
        }
    } else {
        asked.to_vec()
    };
    let mut out: Vec<&'static InstallTarget> = Vec::new();
    for t in chosen {
        if !out.iter().any(|o| o.project == t.project) {
            out.push(t);
        }
    }
    out
}

/// The user's folder of `target`, as an absolute path and as the lock
/// records it (`~/…`).
pub fn user_folder(target: &InstallTarget, home: &Path) -> io::Result<(PathBuf, String)> {
    match target.user.base {
        UserBase::Home => Ok((home.join(target.user.rel), format!("~/{}", target.user.rel))),
        UserBase::CodexHome => {
            let codex =
                std::env::var_os("CODEX_HOME").map_or_else(|| home.join(".codex"), PathBuf::from);
            let dir = codex.join(target.user.rel);
            let rel = dir.strip_prefix(home).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "CODEX_HOME ({}) is outside the home directory: the lock records user folders below `~/`",
                        codex.display()
                    ),
                )
            })?;
            Ok((dir.clone(), format!("~/{}", rel.to_string_lossy())))
        }
    }
}

/// Parses a `--client` value.
pub fn parse_target(s: &str) -> Result<&'static InstallTarget, String> {
    skills_core::client::install_target(s).ok_or_else(|| {
        let ids: Vec<&str> = INSTALL_TARGETS.iter().map(|t| t.id).collect();
        format!("unknown client `{s}` (one of: {})", ids.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(t: &[&InstallTarget]) -> Vec<&'static str> {
        t.iter().map(|t| t.id).collect()
    }

    #[test]
    fn the_default_is_the_folders_the_project_has_else_claude_and_agents() {
        let tmp = tempfile::tempdir().expect("tempdir");
        assert_eq!(
            ids(&project_targets(tmp.path(), &[])),
            ["claude-code", "codex"]
        );
        std::fs::create_dir_all(tmp.path().join(".gemini/skills")).expect("mkdir");
        assert_eq!(ids(&project_targets(tmp.path(), &[])), ["gemini-cli"]);
        let asked = [
            parse_target("codex").expect("codex"),
            parse_target("amp").expect("amp"),
        ];
        assert_eq!(ids(&project_targets(tmp.path(), &asked)), ["codex"]);
        assert!(
            parse_target("vim")
                .expect_err("unknown")
                .contains("claude-code")
        );
    }
}

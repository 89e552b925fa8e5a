//! Which folders a skill is installed into: the clients asked for and the
//! folders named (`--dir`), else the clients whose folders the project
//! already has, else Claude Code and `.agents/skills` (read by Codex, Gemini
//! CLI, OpenCode, Copilot CLI, Qwen Code, Amp and others). Clients that
//! share a folder share one copy. In the user's scope, each client's user
//! folder below the home folder.
//!
//! A folder named directly must be inside the scope's root (the project, or
//! the home folder), written without `..`, apart from skb's state folder,
//! and in a project named `skills` (the lock's rule,
//! [`skills_core::lock::Scope::holds_skills`]): the lock records it as it
//! records a client's folder, so `install --frozen`, `verify` and `remove`
//! treat it alike, and a lock can never name a folder outside its root.

use std::path::{Component, Path};

use skills_core::client::{INSTALL_TARGETS, InstallTarget, UserBase};

use crate::error::{Error, ErrorKind, Result, Stage};
use crate::project::{Opened, Project};
use crate::root::{Kind, Rel};

/// One skills folder a skill goes to.
#[derive(Debug, Clone)]
pub struct Dest {
    /// The skills folder below the root (`.claude/skills`).
    pub folder: Rel,
    /// The skills folder as the lock records it (`.claude/skills`,
    /// `~/.claude/skills`).
    pub recorded: String,
    /// The clients asked for that read it (none when restoring a lock).
    pub targets: Vec<&'static InstallTarget>,
}

/// The folders to install into for the clients `asked` and the folders
/// `dirs` (`--dir`, as typed), or the default when both are empty.
pub(crate) fn dests(
    project: &Project,
    opened: &Opened,
    asked: &[&'static InstallTarget],
    dirs: &[String],
) -> Result<Vec<Dest>> {
    let mut out = if dirs.is_empty() || !asked.is_empty() {
        client_dests(project, opened, asked)?
    } else {
        Vec::new()
    };
    for typed in dirs {
        let (folder, recorded) = named_folder(project, typed)?;
        if !out.iter().any(|d| d.folder == folder) {
            out.push(Dest {
                folder,
                recorded,
                targets: Vec::new(),
            });
        }
    }
    Ok(out)
}

/// The folders of the clients `asked` (or the default).
fn client_dests(
    project: &Project,
    opened: &Opened,
    asked: &[&'static InstallTarget],
) -> Result<Vec<Dest>> {
    let mut out: Vec<Dest> = Vec::new();
    if project.global {
        let chosen: Vec<&'static InstallTarget> = if asked.is_empty() {
            default_targets()
        } else {
            asked.to_vec()
        };
        for t in chosen {
            let (folder, recorded) = user_folder(t, &project.root)?;
            match out.iter_mut().find(|d| d.folder == folder) {
                Some(d) => d.targets.push(t),
                None => out.push(Dest {
                    folder,
                    recorded,
                    targets: vec![t],
                }),
            }
        }
        return Ok(out);
    }
    let has = |t: &InstallTarget| {
        Rel::new(t.project).and_then(|r| opened.target.kind(&r).ok().flatten()) == Some(Kind::Dir)
    };
    for t in project_targets(&has, asked) {
        out.push(Dest {
            folder: rel(t.project)?,
            recorded: t.project.to_string(),
            targets: vec![t],
        });
    }
    // Every client asked for that shares a folder chosen reads it too.
    for t in asked {
        if let Some(d) = out.iter_mut().find(|d| d.recorded == t.project)
            && !d.targets.iter().any(|x| x.id == t.id)
        {
            d.targets.push(t);
        }
    }
    Ok(out)
}

/// The folders a locked skill is installed in, as [`Dest`]s (the skill's
/// own folder name taken off).
pub(crate) fn locked_dests(project: &Project, installed: &[String]) -> Result<Vec<Dest>> {
    installed
        .iter()
        .map(|rec| {
            let folder = project.installed_rel(rec)?;
            let parent = folder.split().0.ok_or_else(|| {
                Error::refused(
                    Stage::Lock,
                    format!("`{rec}` is not a skill folder inside a skills folder"),
                )
            })?;
            Ok(Dest {
                folder: rel(parent)?,
                recorded: rec.rsplit_once('/').map_or("", |(p, _)| p).to_string(),
                targets: Vec::new(),
            })
        })
        .collect()
}

fn default_targets() -> Vec<&'static InstallTarget> {
    INSTALL_TARGETS
        .iter()
        .filter(|t| t.id == "claude-code" || t.id == "codex")
        .collect()
}

/// The targets of a project whose folders `has` tells, in table order,
/// one per folder.
fn project_targets(
    has: &dyn Fn(&InstallTarget) -> bool,
    asked: &[&'static InstallTarget],
) -> Vec<&'static InstallTarget> {
    let chosen: Vec<&'static InstallTarget> = if asked.is_empty() {
        let present: Vec<&'static InstallTarget> =
            INSTALL_TARGETS.iter().filter(|t| has(t)).collect();
        if present.is_empty() {
            default_targets()
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

/// The user's folder of `target` below `home`, and as the lock records it
/// (`~/…`).
fn user_folder(target: &InstallTarget, home: &Path) -> Result<(Rel, String)> {
    match target.user.base {
        UserBase::Home => Ok((rel(target.user.rel)?, format!("~/{}", target.user.rel))),
        UserBase::CodexHome => {
            let codex = std::env::var_os("CODEX_HOME")
                .map_or_else(|| home.join(".codex"), std::path::PathBuf::from);
            let dir = codex.join(target.user.rel);
            let below = dir
                .strip_prefix(home)
                .ok()
                .and_then(|r| r.to_str())
                .and_then(Rel::new)
                .ok_or_else(|| {
                    Error::new(
                        Stage::Resolve,
                        ErrorKind::Usage,
                        format!(
                            "CODEX_HOME ({}) is outside the home directory: the lock records user folders below `~/`",
                            codex.display()
                        ),
                    )
                })?;
            let recorded = format!("~/{below}");
            Ok((below, recorded))
        }
    }
}

/// Reads a client's name as `--client` takes it.
pub fn parse_target(s: &str) -> std::result::Result<&'static InstallTarget, String> {
    skills_core::client::install_target(s).ok_or_else(|| {
        let ids: Vec<&str> = INSTALL_TARGETS.iter().map(|t| t.id).collect();
        format!("unknown client `{s}` (one of: {})", ids.join(", "))
    })
}

/// The folder `typed` (`--dir`) below the scope's root, and as the lock
/// records it: relative to the root (`~/` may start it in the user's
/// scope), or absolute inside the root; refused outside the root, with
/// `..`, as the root itself, or holding or inside skb's state folder.
fn named_folder(project: &Project, typed: &str) -> Result<(Rel, String)> {
    let usage = |why: &str| {
        Error::new(
            Stage::Resolve,
            ErrorKind::Usage,
            format!("--dir `{typed}`: {why}"),
        )
    };
    let path = Path::new(typed);
    let below = match typed.strip_prefix("~/") {
        Some(rest) if project.global => Path::new(rest),
        Some(_) => return Err(usage("`~/` names the user's scope: add --global")),
        None if path.is_absolute() => path.strip_prefix(&project.root).map_err(|_| {
            usage(&format!(
                "outside {} ({})",
                if project.global {
                    "the home folder"
                } else {
                    "the project"
                },
                project.root.display()
            ))
        })?,
        None => path,
    };
    let mut parts: Vec<&str> = Vec::new();
    for c in below.components() {
        match c {
            Component::Normal(p) => {
                parts.push(p.to_str().ok_or_else(|| usage("not UTF-8"))?);
            }
            Component::CurDir => {}
            _ => return Err(usage("a folder below the root is written without `..`")),
        }
    }
    if parts.is_empty() {
        return Err(usage("the root itself is not a skills folder"));
    }
    let joined = parts.join("/");
    let folder = Rel::new(&joined).ok_or_else(|| usage("not a plain relative path"))?;
    let absolute = project.root.join(&joined);
    let state = project.state_dir();
    if absolute.starts_with(state) || state.starts_with(&absolute) {
        return Err(usage(&format!(
            "holds or is inside skb's state folder ({})",
            state.display()
        )));
    }
    if !project.scope().holds_skills(&joined) {
        return Err(usage(
            "a project's skills folder is a client's or one named `skills`, outside `.git` and `.skb` (`tools/agent/skills`), so that a committed lock can only ever write skill folders",
        ));
    }
    let recorded = project.scope().record(&joined);
    Ok((folder, recorded))
}

fn rel(path: &str) -> Result<Rel> {
    Rel::new(path).ok_or_else(|| {
        Error::new(
            Stage::Resolve,
            ErrorKind::Usage,
            format!("`{path}`: not a relative path"),
        )
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
        assert_eq!(
            ids(&project_targets(&|_| false, &[])),
            ["claude-code", "codex"]
        );
        assert_eq!(
            ids(&project_targets(&|t| t.project == ".gemini/skills", &[])),
            ["gemini-cli"]
        );
        let asked = [
            parse_target("codex").expect("codex"),
            parse_target("amp").expect("amp"),
        ];
        assert_eq!(ids(&project_targets(&|_| false, &asked)), ["codex"]);
        assert!(
            parse_target("vim")
                .expect_err("unknown")
                .contains("claude-code")
        );
    }

    #[test]
    fn a_named_folder_stays_inside_its_root_and_apart_from_the_state_folder() {
        let project = Project::at(Path::new("/p"));
        let ok = |t: &str| named_folder(&project, t).map(|(f, r)| (f.as_str().to_string(), r));
        let err = |t: &str| named_folder(&project, t).expect_err(t).to_string();
        assert_eq!(
            ok("tools/agent/skills").expect("relative"),
            ("tools/agent/skills".into(), "tools/agent/skills".into())
        );
        assert_eq!(
            ok("./.windsurf/skills/").expect("dot and slash"),
            (".windsurf/skills".into(), ".windsurf/skills".into())
        );
        assert_eq!(
            ok("/p/.roo/skills").expect("absolute inside").1,
            ".roo/skills"
        );
        assert!(err("/elsewhere/skills").contains("outside the project"));
        assert!(err("../x").contains("without `..`"));
        assert!(err("a/../../x").contains("without `..`"));
        assert!(err(".").contains("the root itself"));
        assert!(err(".skb").contains("state folder"));
        assert!(err(".skb/skills").contains("state folder"));
        assert!(err("x/.git/skills").contains("outside `.git` and `.skb`"));
        assert!(err(".git/hooks").contains("named `skills`"));
        assert!(err(".github/workflows").contains("named `skills`"));
        assert!(err("~/.kiro/skills").contains("--global"));

        let home = Project::user(Path::new("/h")).expect("user scope");
        assert_eq!(
            named_folder(&home, "~/.kiro/skills").expect("home").1,
            "~/.kiro/skills"
        );
        assert_eq!(
            named_folder(&home, "/h/.codeium/windsurf/skills")
                .expect("absolute in home")
                .1,
            "~/.codeium/windsurf/skills"
        );
        assert!(
            named_folder(&home, "/p/x")
                .expect_err("outside")
                .to_string()
                .contains("outside the home folder")
        );
    }
}

//! What every installing command starts from: the project, the trusted
//! keys, the target folders, and how results are printed.

use std::io::{self, Write};
use std::path::PathBuf;

use skills_core::client::InstallTarget;
use skills_supply::trust::{self, TrustStore};

use super::install::Dest;
use super::project::Project;
use super::targets;
use crate::args::ListFormat;
use crate::args::{CheckArgs, PolicyArgs, ProjectArgs};
use crate::sign;

/// The project (or the user's scope) the arguments name.
pub fn project(args: &ProjectArgs) -> io::Result<Project> {
    if args.global {
        return Ok(Project::user(&home()?));
    }
    let root = std::path::absolute(&args.project)?;
    Ok(Project::at(&root))
}

/// The home directory.
pub fn home() -> io::Result<PathBuf> {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "HOME is not set"))
}

/// The trust store: the project's `skills-trust.json`, the user's
/// `trust.json`, and the keys `--pubkey` names for this run (trusted for
/// every source, never written to a file).
pub fn trust(project: &Project, policy: &PolicyArgs) -> io::Result<TrustStore> {
    let user = trust::user_file();
    let mut store = TrustStore::load(&project.root, user.as_deref())
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    for arg in &policy.pubkeys {
        let key = sign::load_public_key(arg)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        store
            .project_mut()
            .add_key("command-line", &key)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    }
    Ok(store)
}

/// The folders to install into: the clients asked for (or the default),
/// in the project or the user's home.
pub fn dests(project: &Project, asked: &[&'static InstallTarget]) -> io::Result<Vec<Dest>> {
    if project.global {
        let mut out: Vec<Dest> = Vec::new();
        let chosen: Vec<&InstallTarget> = if asked.is_empty() {
            skills_core::client::INSTALL_TARGETS
                .iter()
                .filter(|t| t.id == "claude-code" || t.id == "codex")
                .collect()
        } else {
            asked.to_vec()
        };
        for t in chosen {
            let (folder, recorded) = targets::user_folder(t, &project.root)?;
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
    let asked_or_default = targets::project_targets(&project.root, asked);
    let mut out: Vec<Dest> = Vec::new();
    for t in asked_or_default {
        out.push(Dest {
            folder: project.root.join(t.project),
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
pub fn locked_dests(project: &Project, installed: &[String]) -> Vec<Dest> {
    installed
        .iter()
        .map(|rec| {
            let parent = rec.rsplit_once('/').map_or("", |(p, _)| p).to_string();
            Dest {
                folder: project.folder(&parent),
                recorded: parent,
                targets: Vec::new(),
            }
        })
        .collect()
}

/// Prints `lines` (human) or `json` on stdout.
pub fn print(format: ListFormat, lines: &[String], json: &serde_json::Value) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match format {
        ListFormat::Human => {
            for l in lines {
                writeln!(out, "{l}")?;
            }
        }
        ListFormat::Json => {
            serde_json::to_writer_pretty(&mut out, json).map_err(io::Error::other)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

/// The profile the lock records for a skill validated with `check`
/// (`None` for `spec`, the default).
pub fn locked_profile(check: &CheckArgs) -> Option<String> {
    match check.profile.0 {
        skills_compiler::Profile::Spec => None,
        p => Some(p.as_str().to_string()),
    }
}

/// `check` with the profile a lock entry records (`spec` when none).
pub fn with_locked_profile(check: &CheckArgs, profile: Option<&str>) -> io::Result<CheckArgs> {
    let mut check = check.clone();
    check.profile = match profile {
        None => crate::args::ProfileArg(skills_compiler::Profile::Spec),
        Some(name) => {
            crate::args::ProfileArg(skills_compiler::Profile::from_name(name).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("the lock names profile `{name}`, which this skb does not know"),
                )
            })?)
        }
    };
    Ok(check)
}

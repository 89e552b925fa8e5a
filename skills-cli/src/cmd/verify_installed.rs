//! `skb verify --installed`: every installed folder re-hashed against
//! `skb.lock`, parsing nothing, so that it is cheap enough to run at every
//! agent start. Each edited, added or removed file is named; exit 1 on any.
//!
//! The skills are checked on all cores (`skills_compiler::parallel`), each
//! file read once with a bound of its locked size.

use std::io;

use serde_json::json;
use skills_compiler::parallel;
use skills_core::lock::tree::{self, Drift};

use crate::Outcome;
use crate::args::VerifyArgs;
use crate::supply::session;

/// Runs `skb verify --installed`.
pub fn run(args: &VerifyArgs) -> io::Result<Outcome> {
    let project = session::project(&args.project)?;
    if !project.has_lock() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "{}: no lock file, so nothing is known to be installed",
                project.lock_path.display()
            ),
        ));
    }
    let lock = project.read_lock()?;
    let folders: Vec<(&str, String, &[skills_core::lock::LockedFile])> = lock
        .skills
        .iter()
        .flat_map(|s| {
            s.installed
                .iter()
                .map(move |rec| (s.name.as_str(), rec.clone(), s.files.as_slice()))
        })
        .collect();
    let checked: Vec<io::Result<Vec<Drift>>> = parallel::map(&folders, 0, |(_, rec, files)| {
        tree::check(&project.folder(rec), files)
    });
    let mut lines = Vec::new();
    let mut drifted = Vec::new();
    let mut files = 0usize;
    for ((name, rec, locked), result) in folders.iter().zip(checked) {
        files += locked.len();
        let drift = result.map_err(|e| io::Error::new(e.kind(), format!("{rec}: {e}")))?;
        if drift.is_empty() {
            continue;
        }
        for d in &drift {
            lines.push(format!("{rec}: {d}"));
        }
        drifted.push(json!({
            "skill": name,
            "folder": rec,
            "changes": drift.iter().map(ToString::to_string).collect::<Vec<_>>(),
        }));
    }
    let ok = drifted.is_empty();
    lines.push(if ok {
        format!(
            "verified {} skills in {} folders ({files} files): as locked",
            lock.skills.len(),
            folders.len()
        )
    } else {
        format!(
            "{} of {} folders differ from {}",
            drifted.len(),
            folders.len(),
            project.lock_path.display()
        )
    });
    let format = args.format;
    let json = json!({ "ok": ok, "skills": lock.skills.len(), "folders": folders.len(), "files": files, "drift": drifted });
    session::print(format, &lines, &json)?;
    Ok(if ok {
        Outcome::Success
    } else {
        Outcome::Invalid
    })
}

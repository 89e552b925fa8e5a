//! `skb remove NAME…`: delete installed skills and their lock entries; a
//! folder with local edits is kept unless `--force` (which backs it up).

use std::io;

use serde_json::json;
use skills_core::lock::tree;

use crate::Outcome;
use crate::args::RemoveArgs;
use crate::supply::install::backup_path;
use crate::supply::place;
use crate::supply::project::invalid;
use crate::supply::session;

/// Runs `skb remove`.
pub fn run(args: &RemoveArgs) -> io::Result<Outcome> {
    let project = session::project(&args.project)?;
    let _guard = project.lock()?;
    let mut lock = project.read_lock()?;
    // Everything checked before anything is removed.
    let mut plan = Vec::new();
    for name in &args.names {
        let Some(locked) = lock.get(name) else {
            return Err(invalid(format!(
                "{}: no skill `{name}` is locked; nothing was removed",
                project.lock_path.display()
            )));
        };
        for rec in &locked.installed {
            let dir = project.folder(rec);
            if std::fs::symlink_metadata(&dir).is_err() {
                continue;
            }
            let drift = tree::check(&dir, &locked.files)?;
            if !drift.is_empty() && !args.force {
                let each: Vec<String> = drift.iter().map(ToString::to_string).collect();
                return Err(invalid(format!(
                    "skill `{name}`: {} has local edits ({}); nothing was removed; --force removes it and keeps a backup",
                    dir.display(),
                    each.join(", ")
                )));
            }
            plan.push((name.clone(), dir, !drift.is_empty()));
        }
    }
    for (name, dir, edited) in &plan {
        let backup = edited.then(|| backup_path(&project, name));
        place::remove(dir, backup.as_deref())?;
        if let Some(b) = backup {
            eprintln!("skb: kept the edited {} in {}", dir.display(), b.display());
        }
    }
    let mut lines = Vec::new();
    for name in &args.names {
        if let Some(l) = lock.remove(name) {
            lines.push(format!("removed {name} from {}", l.installed.join(", ")));
        }
    }
    project.write_lock(&lock)?;
    session::print(args.format, &lines, &json!({ "removed": args.names }))?;
    Ok(Outcome::Success)
}

//! `remove`: installed skills deleted with their lock entries, all in one
//! commit; a folder with local edits is kept unless `force` (which backs it
//! up).

use skills_core::lock::tree;

use crate::error::{Error, Result, Stage};
use crate::install::Staging;
use crate::installer::Installer;
use crate::root::Kind;

/// What `remove` is asked.
#[derive(Debug, Clone)]
pub struct RemoveRequest {
    /// The skills to remove.
    pub names: Vec<String>,
    /// Remove folders with local edits too (kept as backups).
    pub force: bool,
}

/// What `remove` did.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Removed {
    /// Each skill removed, with the folders it was in.
    pub removed: Vec<(String, Vec<String>)>,
}

impl Installer<'_> {
    /// Removes the skills `request` names.
    pub fn remove(&self, request: &RemoveRequest) -> Result<Removed> {
        let opened = self.project.open()?;
        let _guard = self.project.guard(&opened, self.observer)?;
        let mut lock = self.project.read()?;
        // Everything checked before anything is staged.
        let mut changes = Staging::new(&self.project, &opened, request.force);
        for name in &request.names {
            let Some(locked) = lock.get(name) else {
                return Err(Error::refused(
                    Stage::Lock,
                    format!(
                        "{}: no skill `{name}` is locked; nothing was removed",
                        self.project.lock_path.display()
                    ),
                ));
            };
            for rec in &locked.installed {
                let rel = self.project.installed_rel(rec)?;
                let dir = opened.target.show(&rel);
                match opened
                    .target
                    .kind(&rel)
                    .map_err(|e| Error::io(Stage::Stage, &dir, e))?
                {
                    None => continue,
                    Some(Kind::Dir) => {}
                    Some(_) if request.force => {
                        changes.remove(rel, Some(name.clone()));
                        continue;
                    }
                    Some(_) => {
                        return Err(Error::refused(
                            Stage::Stage,
                            format!(
                                "skill `{name}`: {} is not a folder skb installed (a link or a file); nothing was removed; --force removes it and keeps it in a backup",
                                dir.display()
                            ),
                        ));
                    }
                }
                let drift = tree::check(&dir, &locked.files)
                    .map_err(|e| Error::io(Stage::Stage, &dir, e))?;
                if !drift.is_empty() && !request.force {
                    let each: Vec<String> = drift.iter().map(ToString::to_string).collect();
                    return Err(Error::refused(
                        Stage::Stage,
                        format!(
                            "skill `{name}`: {} has local edits ({}); nothing was removed; --force removes it and keeps a backup",
                            dir.display(),
                            each.join(", ")
                        ),
                    ));
                }
                changes.remove(rel, (!drift.is_empty()).then(|| name.clone()));
            }
        }
        let mut out = Removed::default();
        for name in &request.names {
            if let Some(l) = lock.remove(name) {
                out.removed.push((name.clone(), l.installed));
            }
        }
        changes.commit(&mut lock, self.observer)?;
        Ok(out)
    }
}

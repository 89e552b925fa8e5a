//! Building from a lock: the skill folders `skb.lock` says are installed,
//! each checked file by file against the lock before it is compiled, so a
//! binary embeds only what was reviewed and pinned (`skills_bundle!(lock =
//! "skb.lock")`).
//!
//! Every skill's project folders are checked (all copies, not only the one
//! embedded); a folder that differs is an error naming the lock, the folder
//! and each edited, added or removed file. Folders below `~/` (installed
//! with `skb add --global`) are not the project's and are refused.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use skills_core::{digest, fsread};

use crate::embed::Plan;
use skills_core::lock::{self, Lock, tree};

/// The folders a lock names, checked.
#[derive(Debug)]
pub struct LockedRoots {
    /// One folder per locked skill (its first installed folder), to compile.
    pub roots: Vec<PathBuf>,
    /// Each root's expected digest (`sha256:<hex>`), in `roots` order.
    pub digests: Vec<(String, String)>,
    /// The files read (the lock and every installed file), for rebuilds.
    pub read: Vec<PathBuf>,
}

/// Reads the lock at `path` (named `label` in messages) and checks every
/// folder it names against it; `Err` is a message naming the lock and each
/// difference.
pub fn roots(path: &Path, label: &str) -> Result<LockedRoots, String> {
    let shown = label;
    let bytes = fsread::read_file(path, lock::MAX_LOCK_FILE)
        .map_err(|e| format!("{shown}: {}", e.reason))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| format!("{shown}: not UTF-8"))?;
    let lock = Lock::parse(text).map_err(|e| format!("{shown}: {e}"))?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut out = LockedRoots {
        roots: Vec::new(),
        digests: Vec::new(),
        read: vec![path.to_path_buf()],
    };
    let mut problems = String::new();
    if lock.skills.is_empty() {
        return Err(format!(
            "{shown}: locks no skill; `skb add SOURCE` installs one"
        ));
    }
    for skill in &lock.skills {
        let mut first = None;
        for rec in &skill.installed {
            if rec.starts_with("~/") {
                let _ = write!(
                    problems,
                    "\n  skill `{}`: `{rec}` is in the user's home, not the project",
                    skill.name
                );
                continue;
            }
            let dir = base.join(rec);
            match tree::check(&dir, &skill.files) {
                Ok(drift) if drift.is_empty() => {
                    first.get_or_insert(dir.clone());
                    out.read
                        .extend(skill.files.iter().map(|f| dir.join(&f.path)));
                }
                Ok(drift) => {
                    let each: Vec<String> = drift.iter().map(ToString::to_string).collect();
                    let _ = write!(
                        problems,
                        "\n  skill `{}`: `{rec}` differs from the lock: {}",
                        skill.name,
                        each.join(", ")
                    );
                }
                Err(e) => {
                    let _ = write!(problems, "\n  skill `{}`: `{rec}`: {e}", skill.name);
                }
            }
        }
        match first {
            Some(dir) => {
                out.roots.push(dir);
                out.digests.push((skill.name.clone(), skill.digest.clone()));
            }
            None if skill.installed.is_empty() => {
                let _ = write!(problems, "\n  skill `{}`: installed nowhere", skill.name);
            }
            None => {}
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(format!(
            "{shown}: the installed skills differ from the lock (`skb install` restores them; `skb update` takes new versions):{problems}"
        ))
    }
}

/// Checks that each skill `digests` names (folder name, `sha256:<hex>`)
/// compiled to that digest in `plan`.
pub fn check_digests(plan: &Plan, digests: &[(String, String)]) -> Result<(), String> {
    for (name, want) in digests {
        let got = plan
            .skills
            .iter()
            .find(|s| s.meta.name.rsplit(':').next() == Some(name.as_str()))
            .map(|s| format!("sha256:{}", digest::bundle_digest([s.digested()])));
        if got.as_deref() != Some(want.as_str()) {
            return Err(format!(
                "skill `{name}`: compiled to {}, the lock says {want}",
                got.as_deref().unwrap_or("nothing")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_core::lock::{LockedSkill, Resolved};

    #[test]
    fn a_folder_that_differs_is_named_with_its_files() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join(".claude/skills/a");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("SKILL.md"), "x").expect("write");
        let mut l = Lock::default();
        l.insert(LockedSkill {
            name: "a".into(),
            source: "s".into(),
            resolved: Resolved::Folder { path: "s".into() },
            digest: format!("sha256:{}", "0".repeat(64)),
            signer: None,
            unsigned: None,
            profile: None,
            scan: None,
            installed: vec![".claude/skills/a".into()],
            files: tree::hash_files([("SKILL.md", &b"x"[..], false)]),
        });
        let path = tmp.path().join("skb.lock");
        std::fs::write(&path, l.to_json()).expect("write");
        let ok = roots(&path, "skb.lock").expect("as locked");
        assert_eq!(ok.roots, vec![dir.clone()]);
        assert!(ok.read.contains(&dir.join("SKILL.md")));
        std::fs::write(dir.join("SKILL.md"), "y").expect("write");
        let e = roots(&path, "skb.lock").expect_err("edited");
        assert!(
            e.contains("`.claude/skills/a` differs from the lock: edited: SKILL.md"),
            "{e}"
        );
    }
}

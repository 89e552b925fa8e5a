//! Building from a lock: the skill folders `skb.lock` says are installed,
//! each checked file by file against the lock before it is compiled, so a
//! binary embeds only what was reviewed and pinned (`skills_bundle!(lock =
//! "skb.lock")`).
//!
//! The lock is read and the tree checked by `skills_core::lock` (the reader
//! and the check `skb verify --installed` and the runtime use), as a
//! project's lock: every skill's folders are checked (all copies, not only
//! the one embedded), none through a symbolic link; a folder that differs
//! is an error naming the lock, the folder and each difference. Folders
//! below `~/` (installed with `skb add --global`) are not the project's and
//! are refused by the reader. An entry of a client's skills folder that the
//! lock does not name is not embedded, so it is no error here.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use skills_core::digest;
use skills_core::lock::installed::{self, Finding};
use skills_core::lock::tree::Change;
use skills_core::lock::{self, ReadError, Scope};

use crate::embed::Plan;

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
    let base = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let scope = Scope::project(base);
    let lock = lock::read(path, &scope).map_err(|e| format!("{shown}: {}", why(&e)))?;
    if lock.skills.is_empty() {
        return Err(format!(
            "{shown}: locks no skill; `skb add SOURCE` installs one"
        ));
    }
    let report = installed::verify(&scope, &lock, &[]).map_err(|e| format!("{shown}: {e}"))?;
    // What is embedded is the lock's folders only.
    let findings: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| !matches!(f.drift.change, Change::Unlisted(_)))
        .collect();
    let mut out = LockedRoots {
        roots: Vec::new(),
        digests: Vec::new(),
        read: vec![path.to_path_buf()],
    };
    let mut problems = String::new();
    for skill in &lock.skills {
        let mut first = None;
        for rec in &skill.installed {
            let differs = findings
                .iter()
                .any(|f| f.folder == *rec && f.skill.as_deref() == Some(skill.name.as_str()));
            if !differs {
                let dir = base.join(rec);
                out.read
                    .extend(skill.files.iter().map(|f| dir.join(&f.path)));
                first.get_or_insert(dir);
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
    // Each folder's differences on one line, in the report's order.
    let mut i = 0;
    while let Some(first) = findings.get(i) {
        let same: Vec<String> = findings[i..]
            .iter()
            .take_while(|f| f.folder == first.folder && f.skill == first.skill)
            .map(|f| f.drift.to_string())
            .collect();
        i += same.len();
        match &first.skill {
            Some(skill) => {
                let _ = write!(
                    problems,
                    "\n  skill `{skill}`: `{}` differs from the lock: {}",
                    first.folder,
                    same.join(", ")
                );
            }
            None => {
                let _ = write!(problems, "\n  `{}`: {}", first.folder, same.join(", "));
            }
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

/// Why the lock could not be read, without its path (the label names it).
fn why(e: &ReadError) -> String {
    match e {
        ReadError::File(e) => e.reason.to_string(),
        ReadError::NotUtf8 { at, .. } => format!("not UTF-8 (at byte {at})"),
        ReadError::Parse { error, .. } => error.to_string(),
        ReadError::Scope { error, .. } => error.to_string(),
        other => other.to_string(),
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
    use skills_core::lock::{Lock, LockedSkill, Resolved, tree};

    fn lock_of(installed: &str) -> Lock {
        let mut l = Lock::default();
        l.insert(LockedSkill {
            name: "a".into(),
            origin: None,
            accepted: Vec::new(),
            source: "s".into(),
            resolved: Resolved::Folder { path: "s".into() },
            digest: format!("sha256:{}", "0".repeat(64)),
            signer: None,
            unsigned: None,
            profile: None,
            scan: None,
            installed: vec![installed.into()],
            files: tree::hash_files([("SKILL.md", &b"x"[..], false)]),
        });
        l
    }

    #[test]
    fn an_unlisted_folder_is_not_embedded_and_no_error_but_a_link_is() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join(".claude/skills/a");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("SKILL.md"), "x").expect("write");
        std::fs::create_dir_all(tmp.path().join(".claude/skills/mine")).expect("mkdir");
        let path = tmp.path().join("skb.lock");
        std::fs::write(&path, lock_of(".claude/skills/a").to_json()).expect("write");
        let ok = roots(&path, "skb.lock").expect("as locked");
        assert_eq!(ok.roots, vec![dir.clone()]);
        #[cfg(unix)]
        {
            let outside = tmp.path().join("outside");
            std::fs::rename(&dir, &outside).expect("mv");
            std::os::unix::fs::symlink(&outside, &dir).expect("link");
            let e = roots(&path, "skb.lock").expect_err("a link");
            assert!(
                e.contains(
                    "skill `a`: `.claude/skills/a` differs from the lock: a symbolic link to"
                ),
                "{e}"
            );
        }
    }

    #[test]
    fn a_folder_in_the_home_is_refused_by_the_reader() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let path = tmp.path().join("skb.lock");
        std::fs::write(&path, lock_of("~/.claude/skills/a").to_json()).expect("write");
        let e = roots(&path, "skb.lock").expect_err("home");
        assert!(
            e.starts_with("skb.lock: skill `a`: `~/.claude/skills/a` is in the user's home"),
            "{e}"
        );
    }

    #[test]
    fn a_folder_that_differs_is_named_with_its_files() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join(".claude/skills/a");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("SKILL.md"), "x").expect("write");
        let mut l = Lock::default();
        l.insert(LockedSkill {
            name: "a".into(),
            origin: None,
            accepted: Vec::new(),
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

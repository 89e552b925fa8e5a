//! Fixing a skill: what makes the clients treat it alike, where a file can
//! ([`skill_md`], [`openai_yaml`]): a byte-order mark or blank lines before
//! `SKILL.md`'s opening `---` removed, `name: <folder>` added where the
//! frontmatter has none, and `policy.allow_implicit_invocation: false`
//! written in `agents/openai.yaml` for a skill Claude Code keeps out of its
//! model's list (`disable-model-invocation: true`), so that Codex does too.
//! What no file can change (a client that reads no control at all, a name
//! the author chose) is left to the validator to report.
//!
//! [`plan`] reads each file below the skill's open folder without following
//! links ([`Dir`]): a `SKILL.md` or `agents/openai.yaml` that is a symbolic
//! link, or not a regular file, is never edited. [`write()`] writes a file
//! whole to a temporary file in its folder, with the old file's
//! permissions, and renames it over the old one, after checking it still
//! holds the bytes the edit was made from. A second run finds nothing to
//! change. [`udiff`] shows an edit without making it. `skb fix` runs these
//! and renders what they did.

pub mod openai_yaml;
pub mod skill_md;
pub mod udiff;

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use skills_core::fsread::{Dir, FileError, Reason, read_open};

use crate::CheckedSkill;
use crate::MAX_SKILL_MD;
use crate::client::codex::OPENAI_YAML;
use crate::client::differences::Control;
use crate::render::path_string;
use crate::rules::dir_name;

/// One file to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The file, as discovery reached it.
    pub path: PathBuf,
    /// Relative to the skill folder.
    pub rel: &'static str,
    /// The bytes it holds now, `None` when it is new.
    pub old: Option<Vec<u8>>,
    /// The bytes to write.
    pub new: String,
    /// What changes, one sentence each.
    pub what: Vec<String>,
}

/// What a skill needs.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The files to write, in order.
    pub edits: Vec<Edit>,
    /// Changes wanted but left to the author, with why.
    pub left: Vec<String>,
}

/// The edits `skill` needs.
pub fn plan(skill: &CheckedSkill) -> Plan {
    plan_given(skill, None)
}

/// The edits `skill` needs, its `SKILL.md` being `given` (an editor's
/// unsaved text) rather than what the disk holds, when it is: the edit of
/// `SKILL.md` is then made from, and its `old` is, those bytes.
pub fn plan_given(skill: &CheckedSkill, given: Option<&[u8]>) -> Plan {
    let mut plan = Plan::default();
    // Only `SKILL.md` is a skill to every client; `skill.md` is left as it is.
    if skill
        .skill_md
        .as_ref()
        .is_none_or(|p| p.file_name().is_none_or(|n| n != "SKILL.md"))
    {
        return plan;
    }
    let dir = match Dir::open(&skill.dir) {
        Ok(d) => d,
        Err(e) => {
            plan.left.push(format!("the folder cannot be opened: {e}"));
            return plan;
        }
    };
    let read = match given {
        Some(bytes) => Ok(bytes.to_vec()),
        None => dir.read(Path::new("SKILL.md"), MAX_SKILL_MD),
    };
    let bytes = match read {
        Ok(b) => b,
        Err(e) => {
            plan.left
                .push(format!("`SKILL.md` is not edited: {}", reason(&e)));
            return plan;
        }
    };
    // Not UTF-8: no client reads it as its author meant; nothing here helps.
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return plan;
    };
    // The folder's name as the name rule reads it (`rules::dir_name`), so
    // that the name added is the one the validator asks for.
    let folder = dir_name(&skill.dir);
    let edited = skill_md::edit(text, &folder);
    plan.left.extend(edited.left);
    let now = edited.text.as_deref().unwrap_or(text);
    let frontmatter = skill_md::frontmatter(now).and_then(|(_, root)| root);
    if let Some(new) = edited.text.clone() {
        plan.edits.push(Edit {
            path: skill.dir.join("SKILL.md"),
            rel: "SKILL.md",
            what: edited
                .changes
                .iter()
                .map(skill_md::Change::describe)
                .collect(),
            old: Some(bytes),
            new,
        });
    }
    if Control::DisableModelInvocation.is_set_in(frontmatter.as_ref(), None) {
        policy(&dir, &skill.dir, &mut plan);
    }
    plan
}

/// Plans `agents/openai.yaml` for a skill Claude Code keeps out of its
/// model's list.
fn policy(dir: &Dir, skill_dir: &Path, plan: &mut Plan) {
    let path = skill_dir.join(OPENAI_YAML);
    let old = match dir.read(Path::new(OPENAI_YAML), MAX_SKILL_MD) {
        Ok(b) => Some(b),
        Err(e) if e.is_not_found() && !is_link(&skill_dir.join("agents")) => None,
        Err(e) => {
            plan.left
                .push(format!("`{OPENAI_YAML}` is not edited: {}", reason(&e)));
            return;
        }
    };
    let text = match old.as_deref().map(std::str::from_utf8) {
        Some(Err(_)) => {
            plan.left.push(format!("`{OPENAI_YAML}` is not UTF-8"));
            return;
        }
        Some(Ok(t)) => Some(t),
        None => None,
    };
    match openai_yaml::set_policy(text) {
        Ok(Some(new)) => plan.edits.push(Edit {
            path,
            rel: OPENAI_YAML,
            what: vec![format!(
                "`policy.allow_implicit_invocation: false` {}, so that Codex keeps the skill out of its model's list as Claude Code does (`disable-model-invocation: true`)",
                if old.is_some() { "set" } else { "written" }
            )],
            old,
            new,
        }),
        Ok(None) => {}
        Err(why) => plan.left.push(format!(
            "`{OPENAI_YAML}` is not edited: {why}; Codex lists the skill to its model, which Claude Code does not"
        )),
    }
}

fn reason(e: &FileError) -> String {
    match &e.reason {
        Reason::Link => "it is a symbolic link, or reached through one".into(),
        r => r.to_string(),
    }
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Writes `edit` in the skill folder `skill_dir`: the file must still hold
/// what the edit was made from (and still be a regular file, not a link);
/// the new bytes go to a temporary file beside it, with its permissions,
/// renamed over it. The error says why, for the user.
pub fn write(skill_dir: &Path, edit: &Edit) -> Result<(), String> {
    let dir = Dir::open(skill_dir).map_err(|e| format!("the folder cannot be opened: {e}"))?;
    let rel = Path::new(edit.rel);
    let permissions: Option<Permissions> = match dir.open_file(rel) {
        Ok((mut file, meta)) => {
            let limit = edit.old.as_ref().map_or(0, |o| o.len() as u64);
            let now = read_open(&mut file, &meta, limit).map_err(|r| format!("{r}"));
            if edit.old.is_none() || now.ok().as_ref() != edit.old.as_ref() {
                return Err("it changed while `skb fix` ran".into());
            }
            Some(meta.permissions())
        }
        Err(e) if e.is_not_found() && edit.old.is_none() => None,
        Err(e) => return Err(reason(&e)),
    };
    let target = skill_dir.join(rel);
    let folder = target.parent().unwrap_or(skill_dir);
    if edit.old.is_none() {
        if is_link(folder) {
            return Err(format!("`{}` is a symbolic link", path_string(folder)));
        }
        fs::create_dir_all(folder).map_err(|e| e.to_string())?;
    }
    let name = rel
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy());
    let (tmp, mut file) =
        temporary(folder, &name).map_err(|e| format!("cannot write beside it: {e}"))?;
    let written = (|| -> io::Result<()> {
        file.write_all(edit.new.as_bytes())?;
        if let Some(permissions) = permissions.or_else(new_file_permissions) {
            file.set_permissions(permissions)?;
        }
        file.sync_all()
    })();
    drop(file);
    let renamed = written
        .map_err(|e| format!("cannot write beside it: {e}"))
        .and_then(|()| {
            fs::rename(&tmp, &target)
                .map_err(|e| format!("cannot rename the new file into place: {e}"))
        });
    if renamed.is_err() {
        // Best effort: the error said what failed; the leftover is ours.
        let _ = fs::remove_file(&tmp);
    }
    renamed
}

/// A new file `.<name>.<pid>-<n>.skb-fix` in `folder`, created there and
/// nowhere else (`create_new`: never an existing file or a link).
fn temporary(folder: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut n = 0u32;
    loop {
        let path = folder.join(format!(".{name}.{pid}-{n}.skb-fix"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// A new file's permissions: on Unix readable by all, as an editor would
/// write it (whatever the umask); elsewhere as created.
fn new_file_permissions() -> Option<Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(Permissions::from_mode(0o644))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    //! The fixes on skill folders: planned, written, planned again.

    use super::*;
    use crate::{Options, Profile};

    /// The skill folders under `root`, checked as `skb fix` checks them.
    fn plans(root: &Path) -> Vec<(PathBuf, Plan)> {
        let options = Options {
            profile: Profile::Spec,
            lints: false,
            ..Options::default()
        };
        let checked = crate::check(&[root.to_path_buf()], &options);
        checked
            .skills
            .iter()
            .map(|s| (s.dir.clone(), plan(s)))
            .collect()
    }

    fn skill(root: &Path, folder: &str, skill_md: &str) -> PathBuf {
        let dir = root.join(folder);
        fs::create_dir_all(&dir).expect("folder");
        fs::write(dir.join("SKILL.md"), skill_md).expect("SKILL.md");
        dir
    }

    #[test]
    fn each_fix_before_and_after_then_nothing_left() {
        let root = tempfile::tempdir().expect("temp dir");
        let dir = skill(
            root.path(),
            "quiet-skill",
            "\u{FEFF}\n---\ndescription: d\ndisable-model-invocation: true\n---\nBody\n",
        );
        let planned = plans(root.path());
        let [(_, plan)] = planned.as_slice() else {
            panic!("one skill: {planned:?}")
        };
        assert!(plan.left.is_empty(), "{:?}", plan.left);
        let rels: Vec<&str> = plan.edits.iter().map(|e| e.rel).collect();
        assert_eq!(rels, ["SKILL.md", OPENAI_YAML]);
        assert_eq!(plan.edits[0].what.len(), 3, "{:?}", plan.edits[0].what);
        assert_eq!(plan.edits[1].old, None);
        for edit in &plan.edits {
            write(&dir, edit).expect("written");
        }
        assert_eq!(
            fs::read_to_string(dir.join("SKILL.md")).expect("read"),
            "---\nname: quiet-skill\ndescription: d\ndisable-model-invocation: true\n---\nBody\n"
        );
        assert_eq!(
            fs::read_to_string(dir.join(OPENAI_YAML)).expect("read"),
            openai_yaml::NEW_FILE
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.join(OPENAI_YAML))
                .expect("meta")
                .permissions();
            assert_eq!(mode.mode() & 0o777, 0o644);
        }
        // Idempotent: a second plan finds nothing, and no temporary file is left.
        let again = plans(root.path());
        assert_eq!(again[0].1, Plan::default());
        let leftovers: Vec<_> = fs::read_dir(&dir)
            .expect("list")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".skb-fix"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn a_skill_that_cannot_be_fixed_is_left_unchanged() {
        let root = tempfile::tempdir().expect("temp dir");
        let text = "---\n{description: d, disable-model-invocation: true}\n---\nBody\n";
        let dir = skill(root.path(), "flow", text);
        fs::create_dir_all(dir.join("agents")).expect("agents");
        fs::write(dir.join(OPENAI_YAML), "policy: [a]\n").expect("openai.yaml");
        let planned = plans(root.path());
        let [(_, plan)] = planned.as_slice() else {
            panic!("one skill: {planned:?}")
        };
        assert!(plan.edits.is_empty(), "{:?}", plan.edits);
        assert_eq!(plan.left.len(), 2, "{:?}", plan.left);
        assert!(plan.left[0].contains("by hand"), "{:?}", plan.left);
        assert!(plan.left[1].starts_with("`agents/openai.yaml` is not edited"));
        assert_eq!(
            fs::read_to_string(dir.join("SKILL.md")).expect("read"),
            text
        );
    }

    #[test]
    fn a_file_changed_since_the_plan_is_not_overwritten() {
        let root = tempfile::tempdir().expect("temp dir");
        let dir = skill(root.path(), "s", "\n---\nname: s\ndescription: d\n---\n");
        let planned = plans(root.path());
        let edit = &planned[0].1.edits[0];
        fs::write(dir.join("SKILL.md"), "changed by hand\n").expect("write");
        let err = write(&dir, edit).expect_err("changed");
        assert!(err.contains("changed while"), "{err}");
        assert_eq!(
            fs::read_to_string(dir.join("SKILL.md")).expect("read"),
            "changed by hand\n"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_skill_md_is_never_edited() {
        let root = tempfile::tempdir().expect("temp dir");
        let elsewhere = root.path().join("elsewhere.md");
        fs::write(&elsewhere, "\n---\nname: s\ndescription: d\n---\n").expect("write");
        let dir = root.path().join("skills/s");
        fs::create_dir_all(&dir).expect("folder");
        std::os::unix::fs::symlink(&elsewhere, dir.join("SKILL.md")).expect("link");
        for (_, plan) in plans(&root.path().join("skills")) {
            assert!(plan.edits.is_empty(), "{:?}", plan.edits);
        }
    }
}

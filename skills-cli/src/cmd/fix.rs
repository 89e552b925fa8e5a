//! `skb fix`: writes what makes the clients treat a skill alike, where a
//! file can ([`skill_md`], [`openai_yaml`]): a byte-order mark or blank
//! lines before `SKILL.md`'s opening `---` removed, `name: <folder>` added
//! where the frontmatter has none, and `policy.allow_implicit_invocation:
//! false` written in `agents/openai.yaml` for a skill Claude Code keeps out
//! of its model's list (`disable-model-invocation: true`), so that Codex
//! does too. What no file can change (a client that reads no control at
//! all, a name the author chose) is left to `skb validate` to report.
//!
//! Skills are found as `skb validate` finds them. Each file is read below
//! the skill's open folder without following links ([`Dir`]): a
//! `SKILL.md` or `agents/openai.yaml` that is a symbolic link, or not a
//! regular file, is never edited. A file is written whole to a temporary
//! file in its folder, with the old file's permissions, and renamed over
//! it, after checking it still holds the bytes the edit was made from. A
//! second run finds nothing to change. With `--dry-run` nothing is
//! written: each change is printed as a unified diff ([`udiff`]).

mod openai_yaml;
mod skill_md;
mod udiff;

use std::fs::{self, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use skills_compiler::client::codex::OPENAI_YAML;
use skills_compiler::client::differences::Control;
use skills_compiler::render::{path_string, shown};
use skills_compiler::{self as compiler, MAX_SKILL_MD, Options, Profile};
use skills_core::fsread::{Dir, FileError, Reason, read_open};

use crate::Outcome;
use crate::args::FixArgs;

/// One file to write.
#[derive(Debug)]
struct Edit {
    /// The file, as discovery reached it.
    path: PathBuf,
    /// Relative to the skill folder.
    rel: &'static str,
    /// The bytes it holds now, `None` when it is new.
    old: Option<Vec<u8>>,
    /// The bytes to write.
    new: String,
    /// What changes, one sentence each.
    what: Vec<String>,
}

/// What a skill needs.
#[derive(Debug, Default)]
struct Plan {
    edits: Vec<Edit>,
    /// Changes wanted but left to the author, with why.
    left: Vec<String>,
}

/// Runs `skb fix`.
pub fn run(args: &FixArgs) -> io::Result<Outcome> {
    let options = Options {
        profile: Profile::Spec,
        lints: false,
        discovery: args.discovery.options(),
        ..Options::default()
    };
    let result = compiler::check(&args.paths, &options);
    let mut err = io::stderr().lock();
    let mut usage = false;
    for d in result
        .roots
        .iter()
        .flat_map(|(_, ds)| ds)
        .filter(|d| d.is_error())
    {
        writeln!(err, "skb: {}", shown(&d.message))?;
        usage = true;
    }
    if usage {
        return Ok(Outcome::Usage);
    }
    let mut out = io::stdout().lock();
    let (mut files, mut skills, mut left) = (0, 0, 0);
    for skill in &result.skills {
        let plan = plan(skill);
        for why in &plan.left {
            let dir = path_string(&skill.dir);
            writeln!(err, "skb: could not fix `{}`: {}", shown(&dir), shown(why))?;
            left += 1;
        }
        skills += usize::from(!plan.edits.is_empty());
        for edit in &plan.edits {
            let path = path_string(&edit.path);
            let label = shown(&path);
            if args.dry_run {
                let old = edit.old.as_deref().map(String::from_utf8_lossy);
                let diff = udiff::unified(&label, old.as_deref(), &edit.new);
                out.write_all(diff.as_bytes())?;
                for what in &edit.what {
                    writeln!(err, "would fix `{label}`: {what}")?;
                }
                files += 1;
                continue;
            }
            match write(&skill.dir, edit) {
                Ok(()) => {
                    for what in &edit.what {
                        writeln!(out, "fixed `{label}`: {what}")?;
                    }
                    files += 1;
                }
                Err(why) => {
                    writeln!(err, "skb: could not fix `{label}`: {}", shown(&why))?;
                    left += 1;
                }
            }
        }
    }
    let summary = match (files, args.dry_run) {
        (0, _) => format!("nothing to fix in {}", count(result.skills.len(), "skill")),
        (n, true) => format!(
            "would fix {} in {} (dry run: nothing written)",
            count(n, "file"),
            count(skills, "skill")
        ),
        (n, false) => format!("fixed {} in {}", count(n, "file"), count(skills, "skill")),
    };
    if args.dry_run {
        writeln!(err, "{summary}")?;
    } else {
        writeln!(out, "{summary}")?;
    }
    out.flush()?;
    Ok(if left > 0 || (args.dry_run && files > 0) {
        Outcome::Invalid
    } else {
        Outcome::Success
    })
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The edits `skill` needs.
fn plan(skill: &compiler::CheckedSkill) -> Plan {
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
    let bytes = match dir.read(Path::new("SKILL.md"), MAX_SKILL_MD) {
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
    let folder = folder_name(&skill.dir);
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

/// The folder's name (of its canonical path when the path given ends in
/// `.` or `..`).
fn folder_name(dir: &Path) -> String {
    match dir.file_name() {
        Some(n) => n.to_string_lossy().into_owned(),
        None => dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default(),
    }
}

/// Writes `edit` in the skill folder `skill_dir`: the file must still hold
/// what the edit was made from (and still be a regular file, not a link);
/// the new bytes go to a temporary file beside it, with its permissions,
/// renamed over it.
fn write(skill_dir: &Path, edit: &Edit) -> Result<(), String> {
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
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".skb-fix")
        .tempfile_in(folder)
        .map_err(|e| format!("cannot write beside it: {e}"))?;
    let written = (|| -> io::Result<()> {
        tmp.write_all(edit.new.as_bytes())?;
        if let Some(permissions) = permissions.or_else(new_file_permissions) {
            tmp.as_file().set_permissions(permissions)?;
        }
        tmp.as_file().sync_all()
    })();
    written.map_err(|e| format!("cannot write beside it: {e}"))?;
    tmp.persist(&target)
        .map_err(|e| format!("cannot rename the new file into place: {}", e.error))?;
    Ok(())
}

/// A new file's permissions: on Unix readable by all, as an editor would
/// write it (a temporary file is only its owner's); elsewhere as created.
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

//! `skb diff`: which skills, metadata fields and files differ between
//! two packs, archives or directories: every field the manifest records
//! (what the runtime obeys: `allowed_tools`, `body`, ...), and each file by
//! content hash and mode.

use std::collections::BTreeMap;
use std::io::{self, Write};

use skills_compiler::render::{count, thousands};
use skills_core::meta::side_by_side;

use crate::Outcome;
use crate::args::{DiffArgs, ListFormat};
use crate::listing::{self, ListedFile, ListedSkill};

/// One difference.
#[derive(Debug)]
enum Change<'a> {
    SkillAdded(&'a ListedSkill),
    SkillRemoved(&'a ListedSkill),
    FileAdded(&'a str, &'a ListedFile),
    FileRemoved(&'a str, &'a ListedFile),
    FileChanged(&'a str, &'a ListedFile, &'a ListedFile),
    /// A metadata field: the skill, the field, its old and new values.
    Field(&'a str, &'static str, &'a str, &'a str),
}

/// Runs `skb diff`.
pub fn run(args: &DiffArgs) -> io::Result<Outcome> {
    let (Some(old), Some(new)) = (
        listing::list(std::slice::from_ref(&args.old), &args.check)?,
        listing::list(std::slice::from_ref(&args.new), &args.check)?,
    ) else {
        return Ok(Outcome::Usage);
    };
    let olds: BTreeMap<&str, &ListedSkill> =
        old.skills.iter().map(|s| (s.name.as_str(), s)).collect();
    let news: BTreeMap<&str, &ListedSkill> =
        new.skills.iter().map(|s| (s.name.as_str(), s)).collect();
    let mut changes = Vec::new();
    let names: std::collections::BTreeSet<&str> = olds.keys().chain(news.keys()).copied().collect();
    for name in names {
        match (olds.get(name), news.get(name)) {
            (Some(a), None) => changes.push(Change::SkillRemoved(a)),
            (None, Some(b)) => changes.push(Change::SkillAdded(b)),
            (Some(a), Some(b)) => files(name, a, b, &mut changes),
            (None, None) => {}
        }
    }
    let mut out = io::stdout().lock();
    match args.format {
        ListFormat::Human => {
            for c in &changes {
                match c {
                    Change::SkillAdded(s) => writeln!(
                        out,
                        "+ {} ({})",
                        s.name,
                        count(s.files.len() as u64, "file")
                    )?,
                    Change::SkillRemoved(s) => writeln!(
                        out,
                        "- {} ({})",
                        s.name,
                        count(s.files.len() as u64, "file")
                    )?,
                    Change::FileAdded(skill, f) => writeln!(out, "+ {skill}/{}", f.path)?,
                    Change::FileRemoved(skill, f) => writeln!(out, "- {skill}/{}", f.path)?,
                    Change::FileChanged(skill, a, b) => writeln!(
                        out,
                        "~ {skill}/{} ({}; {} -> {} bytes)",
                        a.path,
                        what_changed(a, b),
                        thousands(a.size),
                        thousands(b.size)
                    )?,
                    Change::Field(skill, field, _, _) => writeln!(out, "~ {skill} ({field})")?,
                }
            }
            if changes.is_empty() {
                writeln!(out, "same content: digest {}", old.digest)?;
            } else {
                writeln!(
                    out,
                    "{} changes; digest {} -> {}",
                    changes.len(),
                    old.digest,
                    new.digest
                )?;
            }
        }
        ListFormat::Json => {
            let items: Vec<serde_json::Value> = changes.iter().map(json).collect();
            let doc = serde_json::json!({
                "same": changes.is_empty(),
                "old_digest": old.digest,
                "new_digest": new.digest,
                "changes": items,
            });
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).map_err(io::Error::other)?
            )?;
        }
    }
    out.flush()?;
    Ok(if changes.is_empty() {
        Outcome::Success
    } else {
        Outcome::Invalid
    })
}

fn files<'a>(name: &'a str, a: &'a ListedSkill, b: &'a ListedSkill, changes: &mut Vec<Change<'a>>) {
    for (field, old, new) in side_by_side(&a.fields, &b.fields) {
        if old != new {
            changes.push(Change::Field(name, field, old, new));
        }
    }
    let olds: BTreeMap<&str, &ListedFile> = a.files.iter().map(|f| (f.path.as_str(), f)).collect();
    let news: BTreeMap<&str, &ListedFile> = b.files.iter().map(|f| (f.path.as_str(), f)).collect();
    let paths: std::collections::BTreeSet<&str> = olds.keys().chain(news.keys()).copied().collect();
    for path in paths {
        match (olds.get(path), news.get(path)) {
            (Some(x), None) => changes.push(Change::FileRemoved(name, x)),
            (None, Some(y)) => changes.push(Change::FileAdded(name, y)),
            (Some(x), Some(y)) if x.sha256 != y.sha256 || x.executable != y.executable => {
                changes.push(Change::FileChanged(name, x, y));
            }
            _ => {}
        }
    }
}

fn what_changed(a: &ListedFile, b: &ListedFile) -> &'static str {
    match (a.sha256 != b.sha256, a.executable != b.executable) {
        (true, true) => "content and mode",
        (true, false) => "content",
        _ => "mode",
    }
}

fn json(c: &Change<'_>) -> serde_json::Value {
    let file = |f: &ListedFile| serde_json::json!({"size": f.size, "sha256": f.sha256, "mode": if f.executable { "0755" } else { "0644" }});
    match c {
        Change::SkillAdded(s) => serde_json::json!({"change": "added", "skill": s.name}),
        Change::SkillRemoved(s) => serde_json::json!({"change": "removed", "skill": s.name}),
        Change::FileAdded(skill, f) => {
            serde_json::json!({"change": "added", "skill": skill, "path": f.path, "new": file(f)})
        }
        Change::FileRemoved(skill, f) => {
            serde_json::json!({"change": "removed", "skill": skill, "path": f.path, "old": file(f)})
        }
        Change::FileChanged(skill, a, b) => {
            serde_json::json!({"change": "changed", "skill": skill, "path": a.path, "old": file(a), "new": file(b)})
        }
        Change::Field(skill, field, old, new) => {
            // Each value is the manifest's JSON: shown as JSON, not as a string of it.
            let value =
                |v: &str| serde_json::from_str(v).unwrap_or_else(|_| serde_json::Value::from(v));
            serde_json::json!({"change": "metadata", "skill": skill, "field": field, "old": value(old), "new": value(new)})
        }
    }
}

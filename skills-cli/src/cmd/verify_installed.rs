//! `skb verify --installed`: the installed tree against `skb.lock`
//! (`skills_core::lock::installed`: every installed folder re-hashed,
//! parsing nothing, the clients' skills folders listed for folders nobody
//! locked, nothing below the project read through a link, unsafe modes
//! named), and the folders Vercel's CLI installed against its
//! `skills-lock.json`. Cheap enough to run at every agent start. Each
//! difference is named; exit 1 on any.

use std::io;

use serde_json::{Value, json};
use skills_core::listing::EntryKind;
use skills_core::lock::installed::{self, Finding, Report};
use skills_core::lock::tree::{Change, Drift};
use skills_core::lock::{Lock, Scope};
use skills_supply::vercel::{self, State};

use crate::Outcome;
use crate::args::VerifyArgs;
use crate::supply::session;

/// Runs `skb verify --installed`.
pub fn run(args: &VerifyArgs) -> io::Result<Outcome> {
    let scope = if args.project.global {
        Scope::user_from_env().map_err(|e| io::Error::new(io::ErrorKind::NotFound, e))?
    } else {
        Scope::project(std::path::absolute(&args.project.project)?)
    };
    let lock_path = scope.lock_path();
    let vercel_path = scope.root().join(vercel::LOCK_FILE);
    let has_vercel = !scope.is_user() && std::fs::symlink_metadata(&vercel_path).is_ok();
    let lock = match scope.read_lock() {
        Ok(lock) => lock,
        Err(e) if e.is_not_found() && has_vercel => Lock::default(),
        Err(e) if e.is_not_found() => {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "{}: no lock file (nor Vercel's {}), so nothing is known to be installed",
                    lock_path.display(),
                    vercel::LOCK_FILE
                ),
            ));
        }
        Err(e) => return Err(invalid(e.to_string())),
    };
    // Vercel's first: the folders its lock records are not unlisted.
    let vercel_found = if has_vercel {
        let vlock = vercel::read_in(scope.root())
            .map_err(|e| invalid(format!("{}: {e}", vercel_path.display())))?;
        vercel::verify(scope.root(), &vlock)
    } else {
        Vec::new()
    };
    let elsewhere: Vec<String> = vercel_found
        .iter()
        .filter(|f| f.state != State::Missing)
        .map(|f| f.folder.to_string_lossy().into_owned())
        .collect();
    let report =
        installed::verify(&scope, &lock, &elsewhere).map_err(|e| invalid(e.to_string()))?;

    let mut lines: Vec<String> = report.findings.iter().map(ToString::to_string).collect();
    let mut drifted = grouped(&report);
    let mut vercel_checked = 0usize;
    let mut vercel_total = 0usize;
    for f in &vercel_found {
        let folder = f.folder.display().to_string();
        vercel_total += usize::from(!matches!(f.state, State::Linked { .. }));
        let (problem, finding) = match &f.state {
            State::Matches => {
                vercel_checked += 1;
                continue;
            }
            State::Linked { .. } => continue,
            State::Differs { locked, actual } => (
                format!(
                    "differs from {}'s computedHash ({locked}, now {actual})",
                    vercel::LOCK_FILE
                ),
                json!({ "kind": "differs", "path": "", "locked": locked, "actual": actual }),
            ),
            State::Missing => (
                format!("missing (listed in {})", vercel::LOCK_FILE),
                json!({ "kind": "missing", "path": "" }),
            ),
            State::ForeignLink { link, target } => {
                let at = link.display().to_string();
                let shown = if at == folder {
                    String::new()
                } else {
                    format!(" at `{at}`")
                };
                (
                    format!(
                        "a symbolic link{shown} to `{}`, which is not Vercel's link to its copy in {}",
                        target.display(),
                        vercel::AGENT_FOLDERS[0]
                    ),
                    json!({ "kind": "link", "path": "", "link": at, "target": target.to_string_lossy() }),
                )
            }
            State::Unreadable(why) => (
                format!("unreadable: {why}"),
                json!({ "kind": "unreadable", "path": "", "error": why }),
            ),
        };
        lines.push(format!("{folder}: {problem}"));
        drifted.push(json!({
            "skill": f.skill,
            "folder": folder,
            "lock": vercel::LOCK_FILE,
            "changes": [problem],
            "findings": [finding],
        }));
    }
    let ok = drifted.is_empty();
    // Skill folders (ours and Vercel's) that differ; findings about the
    // client folders around them (unlisted entries, modes) counted apart.
    let mut differing: Vec<&str> = drifted
        .iter()
        .filter(|d| !d["skill"].is_null())
        .filter_map(|d| d["folder"].as_str())
        .collect();
    differing.sort_unstable();
    differing.dedup();
    let around = report.findings.iter().filter(|f| f.skill.is_none()).count();
    lines.push(if ok {
        let vercel_part = if has_vercel {
            format!("; {vercel_checked} folders as {} says", vercel::LOCK_FILE)
        } else {
            String::new()
        };
        format!(
            "verified {} skills in {} folders ({} files): as locked{vercel_part}",
            report.skills, report.folders, report.files
        )
    } else {
        let mut summary = format!(
            "{} of {} folders differ from {}",
            differing.len(),
            report.folders + vercel_total,
            lock_path.display()
        );
        if around > 0 {
            summary.push_str(&format!(
                "; {around} finding{} in the client folders they are in",
                if around == 1 { "" } else { "s" }
            ));
        }
        summary
    });
    let json = json!({
        "ok": ok,
        "skills": report.skills,
        "folders": report.folders,
        "files": report.files,
        "drift": drifted,
    });
    session::print(args.format, &lines, &json)?;
    Ok(if ok {
        Outcome::Success
    } else {
        Outcome::Invalid
    })
}

/// The report's findings, one entry per folder (and skill): the findings
/// as text (`changes`) and as objects with a stable `kind` (`findings`).
fn grouped(report: &Report) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut last: Option<&Finding> = None;
    for f in &report.findings {
        let same = last.is_some_and(|l| l.folder == f.folder && l.skill == f.skill);
        if !same {
            out.push(json!({
                "skill": f.skill,
                "folder": f.folder,
                "changes": [],
                "findings": [],
            }));
        }
        last = Some(f);
        if let Some(entry) = out.last_mut() {
            if let Some(changes) = entry["changes"].as_array_mut() {
                changes.push(json!(f.drift.to_string()));
            }
            if let Some(findings) = entry["findings"].as_array_mut() {
                findings.push(finding(&f.drift));
            }
        }
    }
    out
}

/// One difference as an object: `kind` ([`Change::kind`]), `path` inside
/// the folder (`""` for the folder itself), and what the kind says.
fn finding(drift: &Drift) -> Value {
    let mut o = json!({ "kind": drift.change.kind(), "path": drift.path });
    let extra = match &drift.change {
        Change::NotAFile(what) | Change::NotAFolder(what) => json!({ "what": what }),
        Change::Link { target } => json!({ "target": target }),
        Change::Through { link, target } => json!({ "link": link, "target": target }),
        Change::Permissions(mode) => json!({ "mode": format!("{mode:04o}") }),
        Change::Unlisted(kind) => json!({ "what": match kind {
            EntryKind::Dir => "folder",
            EntryKind::File => "file",
            EntryKind::Symlink => "link",
            EntryKind::Other => "other",
        } }),
        Change::Unreadable(why) => json!({ "error": why }),
        _ => json!({}),
    };
    if let (Some(o), Value::Object(extra)) = (o.as_object_mut(), extra) {
        o.extend(extra);
    }
    o
}

/// An error of kind `InvalidData` (exit status 1).
fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

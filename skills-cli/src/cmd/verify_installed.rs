//! `skb verify --installed`: the installed tree against `skb.lock`
//! (`skills_core::lock::installed`: every installed folder re-hashed,
//! parsing nothing, the clients' skills folders listed for folders nobody
//! locked, nothing below the project read through a link, unsafe modes
//! named), and the folders Vercel's CLI installed against its
//! `skills-lock.json`. Cheap enough to run at every agent start. Each
//! difference is named; exit 1 on any.

use std::io;

use serde_json::{Value, json};
use skills_compiler::render;
use skills_core::listing::EntryKind;
use skills_core::lock::installed::{Finding, Report};
use skills_core::lock::tree::{Change, Drift};
use skills_install::Installer;
use skills_supply::vercel::{self, State};

use crate::Outcome;
use crate::args::VerifyArgs;
use crate::installing;

/// Runs `skb verify --installed`.
pub fn run(args: &VerifyArgs) -> io::Result<Outcome> {
    let observer = installing::Stderr::new(crate::args::Color::Auto);
    let project = installing::project(&args.project)?;
    let trust = installing::trust_store(&project, args.pubkey.as_slice())?;
    let lock_path = project.lock_path.clone();
    let mut installer = Installer::new(project, &observer).map_err(installing::into_io)?;
    installer.trust = trust;
    let verified = installer.verify().map_err(installing::into_io)?;
    let report = &verified.report;

    let mut lines: Vec<String> = report.findings.iter().map(ToString::to_string).collect();
    let mut drifted = grouped(report);
    let mut vercel_checked = 0usize;
    let mut vercel_total = 0usize;
    for f in &verified.vercel {
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
    // Every signer record re-verified with the trusted keys (and
    // --pubkey's), its trust decision re-made: a lock edited to other bytes
    // under a kept signer block fails here, offline.
    for problem in &verified.unattested {
        lines.push(format!("{}: {problem}", lock_path.display()));
    }
    if verified.interrupted {
        lines.push(format!(
            "{}: an interrupted skb command left a transaction; the next `skb install` (or add, update, remove) finishes or undoes it",
            installer.project.state_dir().display()
        ));
    }
    let ok = drifted.is_empty() && verified.unattested.is_empty() && !verified.interrupted;
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
        let vercel_part = if verified.vercel_lock {
            format!(
                "; {} as {} says",
                render::count(vercel_checked as u64, "folder"),
                vercel::LOCK_FILE
            )
        } else {
            String::new()
        };
        format!(
            "verified {} in {} ({}): as locked{vercel_part}",
            render::count(report.skills as u64, "skill"),
            render::count(report.folders as u64, "folder"),
            render::count(report.files as u64, "file")
        )
    } else {
        let mut parts = vec![format!(
            "{} of {} differ from {}",
            differing.len(),
            render::count((report.folders + vercel_total) as u64, "folder"),
            lock_path.display()
        )];
        if around > 0 {
            parts.push(format!(
                "{around} finding{} in the client folders they are in",
                if around == 1 { "" } else { "s" }
            ));
        }
        if !verified.unattested.is_empty() {
            let n = verified.unattested.len();
            parts.push(format!(
                "{n} signer record{} do{} not hold",
                if n == 1 { "" } else { "s" },
                if n == 1 { "es" } else { "" }
            ));
        }
        if verified.interrupted {
            parts.push("an interrupted transaction".to_string());
        }
        parts.join("; ")
    });
    let json = json!({
        "ok": ok,
        "skills": report.skills,
        "folders": report.folders,
        "files": report.files,
        "drift": drifted,
        "signers": verified.unattested.iter().map(|p| json!({ "skill": p.skill, "problem": p.message })).collect::<Vec<_>>(),
        "interrupted": verified.interrupted,
    });
    installing::print(args.format, &lines, &json)?;
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

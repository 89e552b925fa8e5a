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
use skills_supply::vercel;

use crate::Outcome;
use crate::args::VerifyArgs;
use crate::installing as session;

/// Runs `skb verify --installed`.
pub fn run(args: &VerifyArgs) -> io::Result<Outcome> {
    let project = session::project(&args.project)?;
    let vercel_path = project.root.join(vercel::LOCK_FILE);
    let has_vercel = !project.global && std::fs::symlink_metadata(&vercel_path).is_ok();
    if !project.lock_path.exists() && !has_vercel {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "{}: no lock file (nor Vercel's {}), so nothing is known to be installed",
                project.lock_path.display(),
                vercel::LOCK_FILE
            ),
        ));
    }
    if project.interrupted().map_err(crate::installing::into_io)? {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "an interrupted skb command left a transaction in {}: run `skb install` to finish or undo it before verifying",
                project.state_dir().display()
            ),
        ));
    }
    let lock = project.read().map_err(crate::installing::into_io)?;
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
    // Every signer record re-verified with the trusted keys, and its trust
    // decision re-made: a lock edited to other bytes under a kept signer
    // block fails here, offline.
    let trust = crate::installing::trust_store(&project, args.pubkey.as_slice())?;
    let unattested = skills_install::attestation::problems(&trust, &lock);
    for problem in &unattested {
        lines.push(format!("{}: {problem}", project.lock_path.display()));
    }
    // What Vercel's CLI installed, against its `computedHash`.
    let mut vercel_checked = 0usize;
    let mut vercel_total = 0usize;
    if has_vercel {
        let vlock = vercel::read(&vercel_path).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {e}", vercel_path.display()),
            )
        })?;
        for f in vercel::verify(&project.root, &vlock) {
            let folder = f.folder.display().to_string();
            vercel_total += usize::from(!matches!(f.state, vercel::State::Linked { .. }));
            let problem = match &f.state {
                vercel::State::Matches => {
                    vercel_checked += 1;
                    continue;
                }
                vercel::State::Linked { .. } => continue,
                vercel::State::Differs { locked, actual } => {
                    format!(
                        "differs from {}'s computedHash ({locked}, now {actual})",
                        vercel::LOCK_FILE
                    )
                }
                vercel::State::Missing => format!("missing (listed in {})", vercel::LOCK_FILE),
                vercel::State::Unreadable(why) => format!("unreadable: {why}"),
            };
            lines.push(format!("{folder}: {problem}"));
            drifted.push(json!({ "skill": f.skill, "folder": folder, "lock": vercel::LOCK_FILE, "changes": [problem] }));
        }
    }
    let ok = drifted.is_empty() && unattested.is_empty();
    let mut differing: Vec<&str> = drifted
        .iter()
        .filter_map(|d| d["folder"].as_str())
        .collect();
    differing.sort_unstable();
    differing.dedup();
    lines.push(if ok {
        let vercel_part = if has_vercel {
            format!("; {vercel_checked} folders as {} says", vercel::LOCK_FILE)
        } else {
            String::new()
        };
        format!(
            "verified {} skills in {} folders ({files} files): as locked{vercel_part}",
            lock.skills.len(),
            folders.len()
        )
    } else {
        let mut parts = Vec::new();
        if !differing.is_empty() {
            parts.push(format!(
                "{} of {} folders differ",
                differing.len(),
                folders.len() + vercel_total
            ));
        }
        if !unattested.is_empty() {
            parts.push(format!(
                "{} signer record{} do{} not hold",
                unattested.len(),
                if unattested.len() == 1 { "" } else { "s" },
                if unattested.len() == 1 { "es" } else { "" }
            ));
        }
        format!("{} ({})", parts.join("; "), project.lock_path.display())
    });
    let format = args.format;
    let json = json!({
        "ok": ok,
        "skills": lock.skills.len(),
        "folders": folders.len(),
        "files": files,
        "drift": drifted,
        "signers": unattested.iter().map(|p| json!({"skill": p.skill, "problem": p.message})).collect::<Vec<_>>(),
    });
    session::print(format, &lines, &json)?;
    Ok(if ok {
        Outcome::Success
    } else {
        Outcome::Invalid
    })
}

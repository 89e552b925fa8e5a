//! `skb verify`: signature, then archive and manifest, then every file,
//! then the manifest's metadata against each `SKILL.md`.
//!
//! Each step is reported on its own line, and the first failure stops the
//! run with exit status 1 and says which step failed and why. A file whose
//! bytes do not match the manifest is reported by path; every file is
//! checked, so one report names all of them. The last step derives each
//! skill's metadata again from its (hash-checked) `SKILL.md`, as `skills
//! pack` did, and names every field the manifest states otherwise: the
//! digest binds the manifest, but whoever edits an unsigned pack can
//! recompute it.

use std::io::{self, Write};
use std::path::Path;

use skills_bundle::pack::{Pack, PackError, Trust};
use skills_bundle::{File, Skill};
use skills_compiler::{parallel, render};

use crate::Outcome;
use crate::args::{ListFormat, VerifyArgs};
use crate::trust::{Signed, TrustError};
use skills_install::extract;

/// How many steps a verified pack passes: signature, archive, manifest,
/// files, metadata.
const STEPS: usize = 5;

/// One step's result.
struct Step {
    name: &'static str,
    ok: bool,
    detail: String,
}

/// Runs `skb verify`.
pub fn run(args: &VerifyArgs) -> io::Result<Outcome> {
    let path = match &args.pack {
        Some(path) if !args.installed => path.as_path(),
        _ => return crate::cmd::verify_installed::run(args),
    };
    let bytes = extract::read_archive(path)?;
    let mut steps = Vec::new();
    let signed = match &args.pubkey {
        Some(arg) => match Signed::load(arg, args.signature.as_deref(), path) {
            Ok(signed) => Some(signed),
            Err(e @ TrustError::NotSigned { .. }) => {
                steps.push(Step {
                    name: "signature",
                    ok: false,
                    detail: e.to_string(),
                });
                return report(args, path, &steps);
            }
            Err(e) => return Err(e.into()),
        },
        None => None,
    };
    let trust = signed.as_ref().map_or(Trust::Unsigned, Signed::trust);
    let key = signed.as_ref().map(|s| s.public_key.clone());
    let pack = match Pack::open_with_limits(&bytes, trust, &args.limits.limits()) {
        Ok(pack) => pack,
        Err(e) => {
            let failed = match &e {
                PackError::Signature(_) | PackError::SignedDigest { .. } => "signature",
                PackError::Archive(_) => "archive",
                // The manifest step is the last: whatever else a pack is
                // refused for is found while reading its contents.
                _ => "manifest",
            };
            for name in ["signature", "archive", "manifest"] {
                if name == failed {
                    steps.push(Step {
                        name,
                        ok: false,
                        detail: extract::pack_message(&e),
                    });
                    break;
                }
                steps.push(passed(name, &key, None, &bytes, None));
            }
            return report(args, path, &steps);
        }
    };
    steps.push(passed(
        "signature",
        &key,
        pack.trusted_comment(),
        &bytes,
        Some(&pack),
    ));
    steps.push(passed("archive", &key, None, &bytes, Some(&pack)));
    steps.push(passed("manifest", &key, None, &bytes, Some(&pack)));
    let files: Vec<(Skill<'_>, File<'_>)> = pack
        .bundle()
        .skills()
        .flat_map(|s| s.files().map(move |f| (s, f)))
        .collect();
    let total = files.len();
    let bad = check_files(&files);
    steps.push(Step {
        name: "files",
        ok: bad.is_empty(),
        detail: if bad.is_empty() {
            format!("{total} of {total} match their SHA-256")
        } else {
            format!("{} of {total} damaged: {}", bad.len(), bad.join("; "))
        },
    });
    if bad.is_empty() {
        steps.push(metadata(&pack)?);
    }
    report(args, path, &steps)
}

/// The manifest's metadata against each skill's `SKILL.md`, derived again.
fn metadata(pack: &Pack) -> io::Result<Step> {
    let found = extract::disagreements(pack)?;
    let skills = pack.manifest().skills.len();
    let each: Vec<String> = found.iter().map(ToString::to_string).collect();
    Ok(Step {
        name: "metadata",
        ok: found.is_empty(),
        detail: if found.is_empty() {
            format!(
                "{skills} of {} agree with their `SKILL.md`",
                render::count(skills as u64, "skill")
            )
        } else {
            format!(
                "the manifest disagrees with `SKILL.md`: {}",
                each.join("; ")
            )
        },
    })
}

/// Inflates and hash-checks every file on all cores, keeping none of them;
/// returns the failures, in file order.
fn check_files(files: &[(Skill<'_>, File<'_>)]) -> Vec<String> {
    parallel::map(files, 0, |(skill, file)| {
        file.verify()
            .err()
            .map(|e| format!("{}/{}: {e}", skill.source_dir(), file.path()))
    })
    .into_iter()
    .flatten()
    .collect()
}

fn passed(
    name: &'static str,
    key: &Option<String>,
    comment: Option<&str>,
    bytes: &[u8],
    pack: Option<&Pack>,
) -> Step {
    let detail = match (name, pack) {
        ("signature", _) => match key {
            Some(k) => match comment {
                Some(c) => format!("good signature by {k} (trusted comment: {c})"),
                None => format!("good signature by {k}"),
            },
            None => "not checked (--unsigned): integrity only, not authenticity".to_string(),
        },
        ("archive", Some(p)) => format!(
            "{} bytes, {} entries",
            bytes.len(),
            1 + p
                .manifest()
                .skills
                .iter()
                .map(|s| s.files.len())
                .sum::<usize>()
        ),
        ("manifest", Some(p)) => format!(
            "{}, digest {}",
            render::count(p.manifest().skills.len() as u64, "skill"),
            p.manifest().digest
        ),
        _ => "ok".to_string(),
    };
    Step {
        name,
        ok: true,
        detail,
    }
}

fn report(args: &VerifyArgs, pack: &Path, steps: &[Step]) -> io::Result<Outcome> {
    let ok = steps.iter().all(|s| s.ok) && steps.len() == STEPS;
    let mut out = io::stdout().lock();
    match args.format {
        ListFormat::Human => {
            for s in steps {
                writeln!(
                    out,
                    "{:<10} {:<6} {}",
                    s.name,
                    if s.ok { "ok" } else { "FAILED" },
                    s.detail
                )?;
            }
            writeln!(
                out,
                "{} {}",
                if ok { "verified" } else { "NOT verified:" },
                display(pack)
            )?;
        }
        ListFormat::Json => {
            let doc = serde_json::json!({
                "pack": display(pack),
                "verified": ok,
                "steps": steps.iter().map(|s| serde_json::json!({
                    "step": s.name, "ok": s.ok, "detail": s.detail,
                })).collect::<Vec<_>>(),
            });
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).map_err(io::Error::other)?
            )?;
        }
    }
    out.flush()?;
    Ok(if ok {
        Outcome::Success
    } else {
        Outcome::Invalid
    })
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

//! `skb inspect`: skills, files, sizes, compression and digest of a pack
//! or of skill directories.
//!
//! A pack is read as it is (its signature is not checked: `skb verify`
//! does that); directories and other archives are validated and compressed
//! as `skb pack` would, so the figures are those of the pack it would
//! write.

use std::io::{self, Write};

use skills_compiler::render::{self, thousands};

use crate::Outcome;
use crate::args::{InspectArgs, ListFormat};
use crate::listing::{self, Listing};

/// Runs `skb inspect`.
pub fn run(args: &InspectArgs) -> io::Result<Outcome> {
    let Some(listing) = listing::list(&args.paths, &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    let mut out = io::stdout().lock();
    match args.format {
        ListFormat::Human => human(&mut out, &listing, args.files)?,
        ListFormat::Json => {
            let doc = json(&listing);
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).map_err(io::Error::other)?
            )?;
        }
    }
    out.flush()?;
    Ok(Outcome::Success)
}

fn human(out: &mut dyn Write, l: &Listing, files: bool) -> io::Result<()> {
    let size: u64 = l.skills.iter().map(|s| s.size()).sum();
    let stored: u64 = l.skills.iter().map(|s| s.stored()).sum();
    let count: usize = l.skills.iter().map(|s| s.files.len()).sum();
    let width = l
        .skills
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(5)
        .max(5);
    writeln!(
        out,
        "{:<width$}  {:>5}  {:>12}  {:>12}  {:>7}",
        "SKILL", "FILES", "SIZE", "STORED", "RATIO"
    )?;
    for s in &l.skills {
        writeln!(
            out,
            "{:<width$}  {:>5}  {:>12}  {:>12}  {:>7}",
            s.name,
            s.files.len(),
            thousands(s.size()),
            thousands(s.stored()),
            listing::ratio(s.stored(), s.size())
        )?;
        if files {
            for f in &s.files {
                writeln!(
                    out,
                    "  {} {:>12}  {:>12}  {}  {}",
                    if f.executable { "0755" } else { "0644" },
                    thousands(f.size),
                    thousands(f.stored),
                    &f.sha256[..16],
                    f.path
                )?;
            }
        }
    }
    writeln!(
        out,
        "{}, {}, {}, stored in {} ({})",
        render::count(l.skills.len() as u64, "skill"),
        render::count(count as u64, "file"),
        render::count(size, "byte"),
        render::count(stored, "byte"),
        listing::ratio(stored, size)
    )?;
    if let Some(tool) = &l.tool {
        writeln!(
            out,
            "written by {tool}; signature not checked (see `skb verify`)"
        )?;
    }
    writeln!(out, "digest {}", l.digest)
}

fn json(l: &Listing) -> serde_json::Value {
    serde_json::json!({
        "kind": l.kind,
        "tool": l.tool,
        "digest": l.digest,
        "size": l.skills.iter().map(|s| s.size()).sum::<u64>(),
        "stored": l.skills.iter().map(|s| s.stored()).sum::<u64>(),
        "skills": l.skills.iter().map(|s| serde_json::json!({
            "name": s.name,
            "description": s.description,
            "size": s.size(),
            "stored": s.stored(),
            "files": s.files.iter().map(|f| serde_json::json!({
                "path": f.path,
                "size": f.size,
                "stored": f.stored,
                "mode": if f.executable { "0755" } else { "0644" },
                "sha256": f.sha256,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

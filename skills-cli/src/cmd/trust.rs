//! `skb trust add|list|retire|remove`: the trusted publisher keys of the
//! project (`skills-trust.json`) or the user (`--user`).

use std::io::{self, Write};
use std::path::Path;

use serde_json::json;
use skills_supply::trust::{self, Origin, TrustFile, TrustStore};

use crate::Outcome;
use crate::args::{ListFormat, TrustCommand, TrustFileArgs};

fn trust_error(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, e.to_string())
}

fn file(args: &TrustFileArgs) -> io::Result<TrustFile> {
    if args.user {
        let path = trust::user_file()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "HOME is not set"))?;
        TrustFile::load(&path, Origin::User).map_err(trust_error)
    } else {
        TrustFile::load(&args.project.join(trust::PROJECT_FILE), Origin::Project)
            .map_err(trust_error)
    }
}

fn saved(f: &TrustFile, what: &str) -> io::Result<Outcome> {
    f.save().map_err(trust_error)?;
    writeln!(io::stdout().lock(), "{what} ({})", f.path().display())?;
    Ok(Outcome::Success)
}

/// Runs `skb trust`.
pub fn run(cmd: &TrustCommand) -> io::Result<Outcome> {
    match cmd {
        TrustCommand::Add(a) => {
            let key = skills_core::pack::sign::load_public_key(&a.key).map_err(trust_error)?;
            let mut f = file(&a.file)?;
            let id = f.add_key(&a.name, &key).map_err(trust_error)?;
            for pattern in &a.sources {
                f.pin(&a.name, pattern).map_err(trust_error)?;
            }
            saved(&f, &format!("trusted key {id} of `{}`", a.name))
        }
        TrustCommand::Retire(a) => {
            let mut f = file(&a.file)?;
            f.retire_key(&a.name, &a.key_id, &a.reason)
                .map_err(trust_error)?;
            saved(&f, &format!("retired key {} of `{}`", a.key_id, a.name))
        }
        TrustCommand::Remove(a) => {
            let mut f = file(&a.file)?;
            f.remove_key(&a.name, &a.key_id).map_err(trust_error)?;
            saved(&f, &format!("removed key {} of `{}`", a.key_id, a.name))
        }
        TrustCommand::List(a) => list(&a.project, a.format),
    }
}

fn list(project: &Path, format: ListFormat) -> io::Result<Outcome> {
    let store = TrustStore::load(project, trust::user_file().as_deref()).map_err(trust_error)?;
    let publishers = store.publishers();
    let mut out = io::stdout().lock();
    match format {
        ListFormat::Human => {
            for p in &publishers {
                for k in &p.keys {
                    writeln!(
                        out,
                        "{}\t{}\t{}{}",
                        p.name,
                        k.id,
                        k.origin,
                        k.retired
                            .as_ref()
                            .map(|r| format!("\tretired: {r}"))
                            .unwrap_or_default()
                    )?;
                }
                for s in &p.sources {
                    writeln!(out, "{}\tpins {s}", p.name)?;
                }
            }
        }
        ListFormat::Json => {
            let doc = json!(publishers.iter().map(|p| json!({
                "name": p.name,
                "comment": p.comment,
                "sources": p.sources,
                "keys": p.keys.iter().map(|k| json!({
                    "id": k.id, "key": k.key, "retired": k.retired, "origin": k.origin.to_string(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>());
            serde_json::to_writer_pretty(&mut out, &doc).map_err(io::Error::other)?;
            writeln!(out)?;
        }
    }
    Ok(Outcome::Success)
}

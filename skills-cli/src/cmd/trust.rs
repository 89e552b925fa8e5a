//! `skb trust add|list|retire|remove`: the trusted publisher keys of the
//! project (`skills-trust.json`) or the user (`--user`).

use std::io::{self, Write};
use std::path::Path;

use serde_json::json;
use skills_supply::trust::{self, KeyKind, Origin, TrustFile, TrustStore};

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

/// The text of an SSH or OpenPGP public key `arg` gives (a file, or the
/// key itself), which signs git commits and tags; `None` when it is
/// neither.
pub(crate) fn git_key_text(arg: &str) -> io::Result<Option<String>> {
    let looks_like = |text: &str| {
        let text = text.trim_start();
        text.starts_with("-----BEGIN PGP PUBLIC KEY BLOCK-----")
            || ["ssh-", "ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-"]
                .iter()
                .any(|p| text.starts_with(p))
    };
    if looks_like(arg) {
        return Ok(Some(arg.to_owned()));
    }
    let path = Path::new(arg);
    if !path.is_file() {
        return Ok(None);
    }
    let bytes = skills_core::fsread::read_file(path, trust::MAX_KEY_TEXT as u64)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Ok(looks_like(&text).then_some(text))
}

/// Runs `skb trust`.
pub fn run(cmd: &TrustCommand) -> io::Result<Outcome> {
    match cmd {
        TrustCommand::Add(a) => {
            let key = match (&a.key, &a.sigstore_issuer, &a.sigstore_identity) {
                (_, Some(issuer), Some(identity)) => {
                    let one_word = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
                    if !one_word(issuer) || !one_word(identity) {
                        return Err(trust_error("a Sigstore issuer or identity holds no spaces"));
                    }
                    trust::sigstore_key_text(issuer, identity)
                }
                (Some(key), ..) => match skills_core::pack::sign::load_public_key(key) {
                    Ok(key) => key,
                    Err(minisign) => git_key_text(key)?.ok_or_else(|| trust_error(minisign))?,
                },
                _ => {
                    return Err(trust_error(
                        "give a public key, or --sigstore-issuer with --sigstore-identity",
                    ));
                }
            };
            let mut f = file(&a.file)?;
            let id = f.add_key(&a.name, &key).map_err(trust_error)?;
            for pattern in &a.sources {
                f.pin(&a.name, pattern).map_err(trust_error)?;
            }
            let kind = f
                .publisher(&a.name)
                .and_then(|p| p.keys.iter().find(|k| k.id == id))
                .map_or(KeyKind::Minisign, |k| k.kind);
            let what = match kind {
                KeyKind::Sigstore => {
                    format!("trusted Sigstore signer {id} of `{}` ({key})", a.name)
                }
                _ => format!("trusted key {id} of `{}` ({kind} key)", a.name),
            };
            saved(&f, &what)
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
                    // A Sigstore entry's id is a digest: its issuer and
                    // identity say what it trusts.
                    let what = match k.kind {
                        KeyKind::Sigstore => format!("\t{}", k.key),
                        _ => String::new(),
                    };
                    writeln!(
                        out,
                        "{}\t{}\t{}\t{}{what}{}",
                        p.name,
                        k.id,
                        k.kind,
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
                    "id": k.id, "kind": k.kind.as_str(), "key": k.key, "retired": k.retired, "origin": k.origin.to_string(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>());
            serde_json::to_writer_pretty(&mut out, &doc).map_err(io::Error::other)?;
            writeln!(out)?;
        }
    }
    Ok(Outcome::Success)
}

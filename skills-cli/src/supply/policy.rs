//! The installer's side of the trust policy: what `add` and `update` may
//! install for one skill, decided by the trust store's policy
//! ([`skills_supply::trust`]: trusted keys, per-source pins, retired keys,
//! rollback) over the signature fetched with it, and recorded in the lock.
//!
//! One addition of the installer's own: a download pinned by its digest
//! (`https://…#sha256=<hex>`) is trusted as pinned, as the user vouched for
//! those exact bytes. And an allowance recorded in the lock
//! (`--allow-unsigned` at `add`) carries over to that skill's updates; a
//! local pack signed by a key that is not trusted is refused, as a remote
//! one is.

use std::io;

use skills_core::lock::{LockedSkill, Signer};
use skills_supply::trust::{Decision, LockedSigned, PolicyFlags, Provenance, TrustStore};

use super::fetched::Fetched;
use super::project::invalid;

/// The lock's signer and unsigned-reason for the skill `name` from
/// `fetched`, or the refusal naming the source, the skill, the key and the
/// flag that overrides it.
pub fn decide(
    trust: &TrustStore,
    fetched: &Fetched,
    name: &str,
    locked: Option<&LockedSkill>,
    flags: PolicyFlags,
    source: &str,
) -> io::Result<(Option<Signer>, Option<String>)> {
    let signer = fetched.signer_for(name);
    if signer.is_none()
        && let Some(pin) = &fetched.pinned
    {
        return Ok((None, Some(pin.clone())));
    }
    let locked_signed = locked.and_then(|l| {
        l.signer.as_ref().map(|s| LockedSigned {
            key_id: s.key.clone(),
            digest: s.digest.clone().unwrap_or_default(),
            version: s.version.clone(),
            timestamp: s.timestamp,
        })
    });
    let flags = PolicyFlags {
        allow_unsigned: flags.allow_unsigned || locked.is_some_and(|l| l.unsigned.is_some()),
        ..flags
    };
    // A local pack or zip signed by a key nobody here trusts is refused as a
    // remote one would be: its signature says it was meant to be checked.
    // (The store verifies a signature only with a key it has, so an
    // untrusted one carries no digest.)
    if let Some(s) = &signer
        && !fetched.remote
        && s.digest.is_none()
        && trust.key(&s.key_id).is_none()
        && !flags.allow_unsigned
    {
        return Err(invalid(format!(
            "refusing `{source}` skill `{name}`: signed by key {}, which is not in the trust store; trust it with `skb trust add` (or --pubkey KEY) or pass --allow-unsigned",
            s.key_id
        )));
    }
    // Local or remote by the kind of source fetched, never by its spelling.
    let from = if fetched.remote {
        Provenance::remote(source)
    } else {
        Provenance::local(source)
    };
    let decision = trust
        .check(&from, name, signer.as_ref(), locked_signed.as_ref(), &flags)
        .map_err(|refusal| invalid(refusal.to_string()))?;
    Ok(match decision {
        Decision::Signed { .. } => (
            signer.map(|s| Signer {
                key: s.key_id,
                digest: s.digest,
                version: s.version,
                timestamp: s.timestamp,
            }),
            None,
        ),
        Decision::Local => (None, None),
        unsigned @ Decision::Unsigned { .. } => (None, Some(unsigned.to_string())),
    })
}

//! The lock's records checked again where they are used: every signer
//! record against the locked digest and files with the trusted key
//! ([`skills_core::lock::attest`]), and the trust decision it stands for
//! re-made with today's trust store (the key still trusted, of the kind
//! recorded, and allowed by the pins of the origin the record names). A git
//! signature (SSH or OpenPGP) lives in the repository, not the lock: offline
//! its record is checked to name the locked commit and a key allowed here;
//! `install --frozen` fetches it again and checks it. So does a Sigstore
//! bundle, beside its archive: offline its record is checked to name the
//! locked archive and an entry allowed here that accepts the recorded
//! identity and issuer. `install` and `install
//! --frozen` refuse a lock that fails; `verify --installed` reports it.

use skills_core::lock::{Lock, attest};
use skills_supply::trust::TrustStore;

pub use skills_core::lock::attest::Problem;

/// Every problem with the records of `lock`, one per skill, by name.
pub fn problems(trust: &TrustStore, lock: &Lock) -> Vec<Problem> {
    let key = |id: &str| trust.key(id).map(|k| k.key.clone());
    let mut out = attest::check(lock, &key);
    for skill in &lock.skills {
        let Some(signer) = &skill.signer else {
            continue;
        };
        if out.iter().any(|p| p.skill == skill.name) {
            continue;
        }
        let origin = skill
            .origin
            .clone()
            .unwrap_or_else(|| crate::origin::of_resolved(&skill.resolved));
        if origin.starts_with("local:") {
            continue;
        }
        let allowed = trust.keys_for(&origin);
        let kind = match (&signer.git, &signer.sigstore) {
            (Some(git), _) => git.kind.as_str(),
            (None, Some(_)) => "sigstore",
            (None, None) => "minisign",
        };
        let accepts = |k: &skills_supply::trust::TrustedKey| {
            signer.sigstore.as_ref().is_none_or(|s| {
                let who = skills_supply::sigstore::Signer {
                    identity: s.identity.clone(),
                    issuer: s.issuer.clone(),
                };
                skills_supply::trust::sigstore_accepts(&k.key, &who)
            })
        };
        if !allowed
            .iter()
            .any(|k| k.id == signer.key && k.kind.as_str() == kind && accepts(k))
        {
            out.push(Problem {
                skill: skill.name.clone(),
                message: format!(
                    "it is recorded as signed by key {}, which the trust store does not allow for {origin}",
                    signer.key
                ),
            });
        }
    }
    out.sort_by(|a, b| a.skill.cmp(&b.skill));
    out
}

/// The problems as one refusal message, or `None` when there are none.
pub(crate) fn refusal(problems: &[Problem], lock_path: &std::path::Path) -> Option<String> {
    if problems.is_empty() {
        return None;
    }
    let lines: Vec<String> = problems.iter().map(|p| format!("  {p}")).collect();
    Some(format!(
        "{}: {} signer record{} do{} not hold; nothing was written (review the lock's change; `skb update NAME` records a skill again from its source):\n{}",
        lock_path.display(),
        problems.len(),
        if problems.len() == 1 { "" } else { "s" },
        if problems.len() == 1 { "es" } else { "" },
        lines.join("\n")
    ))
}

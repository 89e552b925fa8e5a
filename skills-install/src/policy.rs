//! The verify stage's trust decision for one skill, and what the lock
//! records of it: the trust store's policy ([`skills_supply::trust`]:
//! trusted keys, pins, retired keys, rollback) applied to the signature
//! fetched with the skill, then the installer's own rules about the lock,
//! each bound to what was actually fetched (its origin: the canonical
//! spelling of what was fetched, `skills_supply::canonical::identity`):
//!
//! - **An allowance never travels.** A recorded `--allow-unsigned` and the
//!   gate's recorded acceptances carry over to a skill's updates only from
//!   the origin they were given for.
//! - **A locked name does not change hands silently.** Installing a locked
//!   name from another origin (another URL, a pack that happens to hold a
//!   skill of that name) needs `--allow-source-change`; a release signed by
//!   a key of another publisher than the locked one needs
//!   `--allow-publisher-change`; each acceptance is recorded in the lock.
//! - **A signature is kept as evidence.** A signed skill's record keeps the
//!   signature and the lock keeps the listing its digest covers, checked
//!   here against the content validated ([`skills_core::lock::attest`]
//!   checks them again later); a signature whose trusted comment names no
//!   content digest binds bytes the lock cannot keep, and is refused
//!   (installed as unsigned only with `--allow-unsigned`).
//!
//! A Sigstore bundle beside an archive binds the archive's bytes, which are
//! what is extracted and validated: the lock records who signed it, the
//! log entry and the bundle's digest, and the archive's SHA-256 as the
//! signed digest. A bundle beside a local archive is held to the trust
//! store as a remote one is (it says it was meant to be checked).
//!
//! One addition of the installer's own: a download pinned by its digest
//! (`https://…#sha256=<hex>`) is trusted as pinned, as the user vouched for
//! those exact bytes. A local pack signed by a key that is not trusted is
//! refused, as a remote one is.

use std::cell::OnceCell;

use skills_compiler::embed::{Plan, PlanSkill};
use skills_core::digest::{bundle_listing, listing_digest};
use skills_core::lock::{LockedSkill, Resolved, Signer, attest};
use skills_supply::trust::{Decision, LockedSigned, Provenance, RefusalKind, TrustStore};

use crate::error::{Error, Result, Stage};
use crate::fetched::Fetched;

/// The flags that loosen the policy, each recorded when it is used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PolicyFlags {
    /// `--allow-unsigned`: install from a remote source without a trusted
    /// signature.
    pub allow_unsigned: bool,
    /// `--allow-downgrade`: install a release older than the locked one.
    pub allow_downgrade: bool,
    /// `--allow-publisher-change`: a locked skill signed now by a key of
    /// another publisher.
    pub allow_publisher_change: bool,
    /// `--allow-source-change`: a locked name installed from another
    /// origin than the locked one.
    pub allow_source_change: bool,
}

/// The listing a signed digest covers, as the lock keeps it (every line
/// after the first).
#[derive(Debug, Clone)]
pub(crate) enum Listing {
    /// The whole plan's ([`Candidate::whole`], shared by the skills of one
    /// signed pack): kept once, by [`Listing::keep`].
    Whole,
    /// One skill's own (an index entry): its digest and lines.
    Own(String, Vec<String>),
}

impl Listing {
    /// Keeps the listing in `lock` (the whole plan's once, however many
    /// skills of the pack are kept).
    pub(crate) fn keep(
        self,
        lock: &mut skills_core::lock::Lock,
        whole: &OnceCell<(String, Vec<String>)>,
    ) {
        match self {
            Listing::Own(digest, lines) => lock.keep_listing(digest, lines),
            Listing::Whole => {
                if let Some((digest, lines)) = whole.get()
                    && lock.listing(digest) != Some(&lines[1..])
                {
                    lock.keep_listing(digest.clone(), lines[1..].to_vec());
                }
            }
        }
    }
}

/// What the verify stage decided for one skill: what the lock records.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decided {
    /// The signature, kept as evidence.
    pub(crate) signer: Option<Signer>,
    /// Why it is installed unsigned, when a remote source is.
    pub(crate) unsigned: Option<String>,
    /// Changes a flag accepted (recorded in the lock).
    pub(crate) accepted: Vec<String>,
    /// The listing the signed digest covers, for the lock to keep.
    pub(crate) listing: Option<Listing>,
    /// Whether the locked record's allowances (gate acceptances) carry
    /// over: same origin.
    pub(crate) same_origin: bool,
}

/// A skill about to be installed, and where it comes from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate<'a> {
    /// What was fetched.
    pub(crate) fetched: &'a Fetched,
    /// Its validated plan.
    pub(crate) plan: &'a Plan,
    /// The skill, in `plan`.
    pub(crate) skill: &'a PlanSkill,
    /// The source as written.
    pub(crate) source: &'a str,
    /// Its origin ([`crate::origin`]).
    pub(crate) origin: &'a str,
    /// The listing of the whole plan and its digest, made once for all the
    /// skills of one fetched source (a pack's signature covers them all).
    pub(crate) whole: &'a OnceCell<(String, Vec<String>)>,
}

/// Decides whether `candidate` may be installed, given the lock's record
/// of that name (`locked`) and `flags`; the refusal names the source, the
/// skill, the key and the flag that overrides.
pub(crate) fn decide(
    trust: &TrustStore,
    candidate: &Candidate<'_>,
    locked: Option<&LockedSkill>,
    flags: PolicyFlags,
) -> Result<Decided> {
    let Candidate {
        fetched,
        plan,
        skill,
        source,
        origin,
        whole,
    } = *candidate;
    let name = &*skill.meta.name;
    let refuse = |why: String| {
        Error::refused(
            Stage::Verify,
            format!("refusing `{source}` skill `{name}`: {why}"),
        )
    };
    let mut decided = Decided::default();
    // The origin the locked record was made for (a version 1 lock keeps
    // none: its pin says).
    let locked_origin = locked.map(|l| {
        l.origin
            .clone()
            .unwrap_or_else(|| crate::origin::of_resolved(&l.resolved))
    });
    decided.same_origin = locked_origin.as_deref().is_none_or(|o| o == origin);
    if let (Some(l), Some(from)) = (locked, &locked_origin)
        && from != origin
    {
        if !flags.allow_source_change {
            return Err(refuse(format!(
                "the lock has `{}` from {from}, and this is {origin}: another source for a locked name; check it is the one you mean and pass --allow-source-change (recorded in the lock)",
                l.name
            )));
        }
        decided
            .accepted
            .push(format!("source {from} -> {origin}: --allow-source-change"));
    }
    let signed = fetched.signer_for(name);
    if signed.is_none()
        && let Some(pin) = &fetched.pinned
    {
        decided.unsigned = Some(pin.clone());
        return Ok(decided);
    }
    // Rollback and retired keys compare with the locked release only when
    // it is the same origin's.
    let locked_signed = locked.filter(|_| decided.same_origin).and_then(|l| {
        l.signer.as_ref().map(|s| LockedSigned {
            key_id: s.key.clone(),
            // A git signature's release is its commit.
            digest: s
                .digest
                .clone()
                .or_else(|| s.git.as_ref().map(|g| g.commit.clone()))
                .unwrap_or_default(),
            version: s.version.clone(),
            timestamp: s.timestamp,
        })
    });
    let carried_unsigned = locked
        .filter(|_| decided.same_origin)
        .and_then(|l| l.unsigned.clone());
    let store_flags = skills_supply::trust::PolicyFlags {
        allow_unsigned: flags.allow_unsigned || carried_unsigned.is_some(),
        allow_downgrade: flags.allow_downgrade,
    };
    // A local pack or zip signed by a key nobody here trusts is refused as a
    // remote one would be: its signature says it was meant to be checked.
    // (The store verifies a signature only with a key it has, so an
    // untrusted one carries no digest.)
    if let Some(s) = &signed
        && !fetched.remote
        && s.signer.digest.is_none()
        && trust.key(&s.signer.key_id).is_none()
        && !store_flags.allow_unsigned
    {
        return Err(refuse(format!(
            "signed by key {}, which is not in the trust store; trust it with `skb trust add` (or --pubkey KEY) or pass --allow-unsigned",
            s.signer.key_id
        )));
    }
    // Pins apply to every location the bytes came through; a local source
    // is one by its kind, not its spelling.
    let sigstore = signed.as_ref().is_some_and(|s| s.signer.sigstore.is_some());
    let from = if fetched.remote || sigstore {
        fetched
            .locations_for(name)
            .iter()
            .fold(Provenance::remote(source), |p, url| p.through(url))
    } else {
        Provenance::local(source)
    };
    let decision = trust
        .check(
            &from,
            name,
            signed.as_ref().map(|s| &s.signer),
            locked_signed.as_ref(),
            &store_flags,
        )
        .map_err(|refusal| {
            let mut message = refusal.to_string();
            if matches!(*refusal.kind, RefusalKind::Unsigned)
                && matches!(fetched.resolved_for(name), Resolved::Git { .. })
            {
                message.push_str(
                    " (a git source is signed by its signed annotated tag, `git tag -s`, or \
                     its signed commit, `git commit -S`, with an SSH or OpenPGP key the trust \
                     store holds; a lightweight tag signs nothing)",
                );
            }
            if sigstore && matches!(*refusal.kind, RefusalKind::Untrusted { .. }) {
                message.push_str(
                    " (a `sigstore` entry trusts an OIDC issuer, exactly, and an identity \
                     pattern whose `*` stays within one path segment or ref name)",
                );
            }
            Error::refused(Stage::Verify, message)
        })?;
    match decision {
        Decision::Signed {
            publisher, key_id, ..
        } => {
            let Some(signed) = signed else {
                return Err(refuse(
                    "the store reports a signature that was not fetched".into(),
                ));
            };
            // Another publisher than the locked one.
            if let Some(held) = locked.and_then(|l| l.signer.as_ref())
                && held.key != key_id
            {
                let before = trust
                    .key(&held.key)
                    .map(|k| k.publisher.clone())
                    .unwrap_or_else(|| "a key no longer trusted".to_string());
                if before != publisher {
                    if !flags.allow_publisher_change {
                        return Err(refuse(format!(
                            "the lock has it signed by key {} ({before}); this release is signed by key {key_id} of `{publisher}`: a change of publisher; pass --allow-publisher-change to accept it (recorded in the lock)",
                            held.key
                        )));
                    }
                    decided.accepted.push(format!(
                        "publisher {} ({before}) -> {key_id} ({publisher}): --allow-publisher-change",
                        held.key
                    ));
                }
            }
            if let Some(record) = crate::signature::bundle_record(&signed) {
                // The bundle is over the archive fetched, whose contents
                // are what was validated: the lock records who signed it.
                decided.signer = Some(Signer {
                    key: key_id.clone(),
                    digest: signed.signer.digest.clone(),
                    version: None,
                    timestamp: Some(record.integrated_time),
                    signature: None,
                    git: None,
                    sigstore: Some(record),
                });
                return Ok(decided);
            }
            if let Some(git) = &signed.git {
                // The signature is over the commit checked out (checked by
                // `skills_supply::git`): the lock records what vouched.
                decided.signer = Some(Signer {
                    key: key_id.clone(),
                    digest: None,
                    version: signed.signer.version.clone(),
                    timestamp: signed.signer.timestamp,
                    signature: None,
                    git: Some(git.clone()),
                    sigstore: None,
                });
                return Ok(decided);
            }
            let (signer, listing) = evidence(
                &signed,
                plan,
                skill,
                fetched.per_skill_signer.contains_key(name),
                whole,
            )
            .map_err(|why| {
                refuse(format!(
                    "{why}; pass --allow-unsigned to install it unsigned"
                ))
            })?;
            decided.signer = Some(signer);
            decided.listing = Some(listing);
        }
        Decision::Local => {}
        unsigned @ Decision::Unsigned { .. } => {
            decided.unsigned = Some(match (flags.allow_unsigned, carried_unsigned) {
                // Carried from the same origin: the record stays as made.
                (false, Some(before)) => before,
                _ => format!("{unsigned}, for {origin}"),
            });
        }
    }
    Ok(decided)
}

/// The lock's record of a trusted signature: the signature itself and the
/// listing its digest covers, which must be the content validated (the
/// skill alone for an index entry, the whole plan for a pack).
fn evidence(
    signed: &crate::fetched::Signed,
    plan: &Plan,
    skill: &PlanSkill,
    per_skill: bool,
    whole: &OnceCell<(String, Vec<String>)>,
) -> std::result::Result<(Signer, Listing), String> {
    let s = &signed.signer;
    let record = attest::record(&signed.text)
        .ok_or_else(|| format!("its signature by key {} cannot be read back", s.key_id))?;
    let digest = s.digest.clone().ok_or_else(|| {
        format!(
            "its signature by key {} has a trusted comment naming no content digest (`{}`): it binds bytes the lock cannot keep, so it could never be checked again",
            s.key_id, record.comment
        )
    })?;
    let (content, listing) = if per_skill {
        let lines = bundle_listing([skill.digested()]);
        let content = listing_digest(&lines);
        (
            content.clone(),
            Listing::Own(content, lines.into_iter().skip(1).collect()),
        )
    } else {
        let (content, _) = whole.get_or_init(|| {
            let lines = bundle_listing(plan.skills.iter().map(PlanSkill::digested));
            (listing_digest(&lines), lines)
        });
        (content.clone(), Listing::Whole)
    };
    if content != digest {
        return Err(format!(
            "key {} signed the content digest {digest}, and what was fetched and validated has {content}",
            s.key_id
        ));
    }
    Ok((
        Signer {
            key: s.key_id.clone(),
            digest: Some(digest.clone()),
            version: s.version.clone(),
            timestamp: s.timestamp,
            signature: Some(record),
            git: None,
            sigstore: None,
        },
        listing,
    ))
}

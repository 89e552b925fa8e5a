//! The lock as an attestation: each signer record checked again, offline,
//! against the locked digest and files, with the trusted key.
//!
//! A lock records who signed each skill. A pull request that swaps a
//! skill's `resolved`, `digest` and `files` and keeps its `signer` block
//! would otherwise install bytes the publisher never signed, and the lock
//! would still say "signed by acme 1.2.0". So a signed skill's record
//! keeps the signature itself ([`SignatureRecord`]) and the lock keeps
//! the canonical listing the signed digest is the SHA-256 of
//! ([`Lock::listings`]); [`check`] then proves, with nothing but the lock
//! and the trusted public key:
//!
//! 1. the key (its id in the record, in the signature, and in the store)
//!    signed the trusted comment: the minisign global signature, an
//!    Ed25519 signature of the file signature and the comment, verifies;
//! 2. the comment's claims (digest, version, time) are the record's;
//! 3. the listing kept for that digest hashes to it;
//! 4. the listing holds a skill whose own digest is the skill's locked
//!    `digest`, installed under this name;
//! 5. that skill's `file` lines are exactly the locked `files` (so the
//!    files `verify --installed` compares folders with are the signed
//!    ones).
//!
//! A record that fails any step is an error naming the skill. Records
//! written by version 1 locks keep no signature and cannot be checked: an
//! error too (`skb update NAME` records it again).

use std::collections::HashMap;
use std::fmt;

use ct_codecs::{Base64, Decoder};

use super::model::{GitSigned, Lock, LockedSkill, Resolved, SignatureRecord, Signer};
use crate::digest::{self, file_line, listing_digest};
use crate::pack::signature::{claims, key_id_hex};

/// Why a skill's signer record does not attest its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The skill.
    pub skill: String,
    /// What does not hold.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "skill `{}`: {}", self.skill, self.message)
    }
}

/// Every signer record of `lock` checked ([`check_skill`]), with the
/// public keys `key` gives by key id (16 uppercase hex digits; the bare
/// base64 key, as a trust store holds it); one problem per skill that
/// fails. Each signature is verified once and each listing hashed once,
/// however many skills name them (a pack of 454 skills is one of each).
pub fn check(lock: &Lock, key: &dyn Fn(&str) -> Option<String>) -> Vec<Problem> {
    let mut checker = Checker::new(lock, key);
    lock.skills
        .iter()
        .filter(|s| s.signer.is_some())
        .filter_map(|s| {
            checker.skill(s).err().map(|message| Problem {
                skill: s.name.clone(),
                message,
            })
        })
        .collect()
}

/// Checks one signed skill's record (see the module documentation); a
/// skill without a signer passes (nothing is claimed).
pub fn check_skill(
    lock: &Lock,
    skill: &LockedSkill,
    key: &dyn Fn(&str) -> Option<String>,
) -> Result<(), String> {
    Checker::new(lock, key).skill(skill)
}

/// The skills of one verified listing, by their own digest: each one's
/// `skill` line and its `file` lines.
type Sections<'a> = HashMap<String, (&'a str, Vec<&'a str>)>;

/// One lock's checks, remembering what several skills share.
struct Checker<'a> {
    lock: &'a Lock,
    key: &'a dyn Fn(&str) -> Option<String>,
    /// Verdicts of signatures, by key id and record.
    signatures: HashMap<(&'a str, &'a SignatureRecord), Result<(), String>>,
    /// Listings, by signed digest: their skills, or why they do not hold.
    listings: HashMap<&'a str, Result<Sections<'a>, String>>,
}

impl<'a> Checker<'a> {
    fn new(lock: &'a Lock, key: &'a dyn Fn(&str) -> Option<String>) -> Checker<'a> {
        Checker {
            lock,
            key,
            signatures: HashMap::new(),
            listings: HashMap::new(),
        }
    }

    fn skill(&mut self, skill: &'a LockedSkill) -> Result<(), String> {
        let Some(signer) = &skill.signer else {
            return Ok(());
        };
        if let Some(git) = &signer.git {
            return git_record(skill, git, &signer.key);
        }
        if signer.sigstore.is_some() {
            return sigstore_record(skill, signer);
        }
        let Some(sig) = &signer.signature else {
            return Err(format!(
                "its signer record (key {}) keeps no signature (a version 1 lock): it cannot be checked; `skb update {}` records it again",
                signer.key, skill.name
            ));
        };
        let key = self.key;
        self.signatures
            .entry((signer.key.as_str(), sig))
            .or_insert_with(|| {
                let public = key(&signer.key).ok_or_else(|| {
                    format!(
                        "it is recorded as signed by key {}, which the trust store does not hold (`skb trust add`, or --pubkey for one run)",
                        signer.key
                    )
                })?;
                verify_comment(sig, &signer.key, &public)
            })
            .clone()?;
        let signed = claims(&sig.comment).ok_or_else(|| {
            format!(
                "the trusted comment signed by key {} names no content digest (`{}`): it binds the signed bytes only, which the lock does not hold",
                signer.key, sig.comment
            )
        })?;
        if signer.digest.as_deref() != Some(signed.digest.as_str())
            || signer.version != signed.version
            || signer.timestamp != signed.timestamp
        {
            return Err(format!(
                "its signer record (digest {}, version {}, time {}) is not what key {} signed (`{}`)",
                signer.digest.as_deref().unwrap_or("none"),
                signer.version.as_deref().unwrap_or("none"),
                signer
                    .timestamp
                    .map_or("none".to_string(), |t| t.to_string()),
                signer.key,
                sig.comment
            ));
        }
        let Some(digest) = signer.digest.as_deref() else {
            return Err("its signer record names no digest".to_string());
        };
        let lock = self.lock;
        let sections = self
            .listings
            .entry(digest)
            .or_insert_with(|| verified_listing(lock, digest))
            .as_ref()
            .map_err(Clone::clone)?;
        let locked = skill
            .digest
            .strip_prefix("sha256:")
            .ok_or_else(|| format!("its digest `{}` is not `sha256:`", skill.digest))?;
        let (signed_name, signed_files) = sections.get(locked).ok_or_else(|| {
            format!(
                "its digest {} is not a skill of what key {} signed ({digest})",
                skill.digest, signer.key
            )
        })?;
        // The name it was signed under: this one, or a plugin's `p:name`.
        let quoted = crate::json::quote(&skill.name);
        let in_plugin = format!(":{}", &quoted[1..]);
        if *signed_name != quoted
            && !(signed_name.starts_with('"') && signed_name.ends_with(&in_plugin))
        {
            return Err(format!(
                "what key {} signed under this digest is the skill {signed_name}, not `{}`",
                signer.key, skill.name
            ));
        }
        let locked_files: Vec<String> = skill
            .files
            .iter()
            .map(|f| file_line(&f.sha256, f.executable, f.size, &f.path))
            .collect();
        if signed_files.len() != locked_files.len()
            || signed_files.iter().zip(&locked_files).any(|(a, b)| *a != b)
        {
            return Err(format!(
                "its locked files are not the files key {} signed",
                signer.key
            ));
        }
        Ok(())
    }
}

/// A git signature's record: what it says was signed is the commit the
/// lock pins. The signature itself is in the repository, not the lock: it
/// is checked again by fetching (`install --frozen`), and the key against
/// the trust store by the installer.
fn git_record(skill: &LockedSkill, git: &GitSigned, key: &str) -> Result<(), String> {
    match &skill.resolved {
        Resolved::Git { commit, .. } if *commit == git.commit => Ok(()),
        Resolved::Git { commit, .. } => Err(format!(
            "its signer record says key {key} signed commit {}, and the lock pins commit {commit}",
            git.commit
        )),
        other => Err(format!(
            "its signer record is a git signature (key {key}), and it is pinned to {}, not a git commit",
            other.describe()
        )),
    }
}

/// A Sigstore signature's record: the archive it signed is the one the
/// lock pins (same SHA-256). The bundle is beside the archive, not in the
/// lock: `install --frozen` fetches both again and verifies the bundle
/// anew, holding it to the recorded digest, identity and issuer; the
/// entry that accepted the signer is the installer's to check.
fn sigstore_record(skill: &LockedSkill, signer: &Signer) -> Result<(), String> {
    let key = &signer.key;
    let pinned = match &skill.resolved {
        Resolved::File { sha256, .. }
        | Resolved::Url { sha256, .. }
        | Resolved::Index { sha256, .. } => sha256,
        other => {
            return Err(format!(
                "its signer record is a Sigstore bundle (entry {key}), and it is pinned to {}, not an archive",
                other.describe()
            ));
        }
    };
    if signer.digest.as_deref() != Some(pinned.as_str()) {
        return Err(format!(
            "its signer record says the Sigstore bundle (entry {key}) signed an archive of SHA-256 {}, and the lock pins {pinned}",
            signer.digest.as_deref().unwrap_or("(none)")
        ));
    }
    Ok(())
}

/// The listing `lock` keeps for `digest`, hashed to it, as its skills by
/// their own digest.
fn verified_listing<'a>(lock: &'a Lock, digest: &str) -> Result<Sections<'a>, String> {
    let listing = lock
        .listing(digest)
        .ok_or_else(|| format!("the lock keeps no listing of the signed digest {digest}"))?;
    let mut lines: Vec<&str> = Vec::with_capacity(listing.len() + 1);
    lines.push(digest::VERSION);
    lines.extend(listing.iter().map(String::as_str));
    if listing_digest(&lines) != digest {
        return Err(format!(
            "the listing the lock keeps for {digest} does not hash to it"
        ));
    }
    let mut out = HashMap::new();
    for section in sections(listing) {
        let mut own = vec![digest::VERSION];
        own.extend(section.iter().copied());
        let name = section
            .first()
            .and_then(|l| l.strip_prefix("skill "))
            .unwrap_or_default();
        let files = section
            .iter()
            .copied()
            .filter(|l| l.starts_with("file "))
            .collect();
        out.insert(listing_digest(&own), (name, files));
    }
    Ok(out)
}

/// The skills of a listing (without its first line): each run of lines
/// from a `skill` line to the next.
fn sections(listing: &[String]) -> impl Iterator<Item = Vec<&str>> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    for line in listing {
        if line.starts_with("skill ") || out.is_empty() {
            out.push(Vec::new());
        }
        if let Some(last) = out.last_mut() {
            last.push(line.as_str());
        }
    }
    out.into_iter()
}

/// Verifies that the key `public` (base64, its id `key_id`) made `sig`'s
/// global signature over its file signature and trusted comment.
fn verify_comment(sig: &SignatureRecord, key_id: &str, public: &str) -> Result<(), String> {
    let bad = |what: &str| format!("its signature by key {key_id} {what}");
    let pk = Base64::decode_to_vec(public.trim(), None).map_err(|_| bad("has no usable key"))?;
    let line = Base64::decode_to_vec(sig.line.trim(), None)
        .map_err(|_| bad("is not a minisign signature line"))?;
    let global = Base64::decode_to_vec(sig.global.trim(), None)
        .map_err(|_| bad("has no readable global signature"))?;
    let (Some(pk_id), Some(pk_bytes)) = (pk.get(2..10), pk.get(10..42)) else {
        return Err(bad("has no usable key"));
    };
    let (Some(sig_id), Some(file_sig)) = (line.get(2..10), line.get(10..74)) else {
        return Err(bad("is not a minisign signature line"));
    };
    if pk.len() != 42 || line.len() != 74 || global.len() != 64 {
        return Err(bad("has the wrong length"));
    }
    let id = |b: &[u8]| -> Option<String> { Some(key_id_hex(b.try_into().ok()?)) };
    if id(pk_id).as_deref() != Some(key_id) || id(sig_id).as_deref() != Some(key_id) {
        return Err(format!(
            "its signature was made with key {}, not the recorded {key_id}",
            id(sig_id).unwrap_or_default()
        ));
    }
    let key =
        ed25519_compact::PublicKey::from_slice(pk_bytes).map_err(|_| bad("has no usable key"))?;
    let global =
        ed25519_compact::Signature::from_slice(&global).map_err(|_| bad("is malformed"))?;
    let mut signed = Vec::with_capacity(64 + sig.comment.len());
    signed.extend_from_slice(file_sig);
    signed.extend_from_slice(sig.comment.as_bytes());
    key.verify(&signed, &global)
        .map_err(|_| bad("does not verify: the record or its trusted comment was changed"))
}

/// The signature record of a minisign signature's text (`.minisig`), for
/// the lock: its signature line, trusted comment and global signature;
/// `None` when it is not a minisign signature.
pub fn record(minisig: &str) -> Option<SignatureRecord> {
    let mut lines = minisig.trim_start().lines();
    lines
        .next()?
        .strip_prefix(crate::pack::signature::UNTRUSTED_PREFIX)?;
    let line = lines.next()?.trim().to_string();
    let comment = lines.next()?.strip_prefix("trusted comment: ")?.to_string();
    let global = lines.next()?.trim().to_string();
    Some(SignatureRecord {
        line,
        comment,
        global,
    })
}

#[cfg(test)]
mod tests {
    use ct_codecs::Encoder;

    use super::*;
    use crate::digest::{bundle_digest, bundle_listing, hex, sha256};
    use crate::lock::{LockedFile, Resolved, Signer};
    use crate::meta::{FileMeta, SkillMeta};

    /// A publisher's key: (key id, base64 public key, signing key).
    fn publisher(seed: u8) -> (String, String, ed25519_compact::KeyPair) {
        let kp = ed25519_compact::KeyPair::from_seed(ed25519_compact::Seed::new([seed; 32]));
        let id = [seed, 1, 2, 3, 4, 5, 6, 7];
        let mut public = b"Ed".to_vec();
        public.extend_from_slice(&id);
        public.extend_from_slice(kp.pk.as_ref());
        (
            key_id_hex(id),
            Base64::encode_to_string(&public).expect("base64"),
            kp,
        )
    }

    /// What minisign writes for `comment` signed with `kp` (the file
    /// signature itself is not checked offline: any 64 bytes do).
    fn sign(seed: u8, kp: &ed25519_compact::KeyPair, comment: &str) -> SignatureRecord {
        let file_sig = [7u8; 64];
        let mut line = b"ED".to_vec();
        line.extend_from_slice(&[seed, 1, 2, 3, 4, 5, 6, 7]);
        line.extend_from_slice(&file_sig);
        let mut signed = file_sig.to_vec();
        signed.extend_from_slice(comment.as_bytes());
        let global = kp.sk.sign(&signed, None);
        SignatureRecord {
            line: Base64::encode_to_string(&line).expect("base64"),
            comment: comment.to_string(),
            global: Base64::encode_to_string(global.as_ref()).expect("base64"),
        }
    }

    fn meta(name: &str) -> (SkillMeta, Vec<FileMeta>) {
        let m = SkillMeta {
            name: name.to_string().into(),
            description: format!("Does {name}.").into(),
            skill_md: "SKILL.md".into(),
            ..SkillMeta::default()
        };
        let f = FileMeta {
            path: "SKILL.md".to_string().into(),
            size: 3,
            sha256: sha256(name.as_bytes()),
            executable: false,
        };
        (m, vec![f])
    }

    /// A lock holding `b` from a signed pack of `a`, `b` and `c`.
    fn signed_lock(seed: u8) -> (Lock, String, String) {
        let (id, public, kp) = publisher(seed);
        let pack: Vec<(SkillMeta, Vec<FileMeta>)> = ["a", "b", "c"].map(meta).into();
        let listing = bundle_listing(pack.iter().map(|(m, f)| (m, f.iter().collect())));
        let digest = bundle_digest(pack.iter().map(|(m, f)| (m, f.iter().collect())));
        let (bm, bf) = &pack[1];
        let comment = format!("skills-digest-v2:{digest} version:1.2.0");
        let mut lock = Lock::default();
        lock.insert(LockedSkill {
            name: "b".into(),
            source: "https://acme.dev/tools.skillpack".into(),
            origin: Some("https://acme.dev/tools.skillpack".into()),
            resolved: Resolved::Url {
                url: "https://acme.dev/tools.skillpack".into(),
                sha256: "0".repeat(64),
            },
            digest: format!("sha256:{}", bundle_digest([(bm, bf.iter().collect())])),
            signer: Some(Signer {
                key: id.clone(),
                digest: Some(digest.clone()),
                version: Some("1.2.0".into()),
                timestamp: None,
                signature: Some(sign(seed, &kp, &comment)),
                git: None,
                sigstore: None,
            }),
            unsigned: None,
            profile: None,
            scan: None,
            accepted: Vec::new(),
            installed: vec![".claude/skills/b".into()],
            files: bf
                .iter()
                .map(|f| LockedFile {
                    path: f.path.to_string(),
                    size: f.size,
                    sha256: hex(&f.sha256),
                    executable: f.executable,
                })
                .collect(),
        });
        lock.keep_listing(digest, listing[1..].to_vec());
        (lock, id, public)
    }

    fn keys(id: String, public: String) -> impl Fn(&str) -> Option<String> {
        move |k: &str| (k == id).then(|| public.clone())
    }

    #[test]
    fn a_signed_skill_of_a_pack_is_attested_by_the_key_alone() {
        let (lock, id, public) = signed_lock(1);
        assert_eq!(check(&lock, &keys(id, public)), Vec::new());
        // Survives the lock file.
        let (lock, id, public) = signed_lock(1);
        let read = Lock::parse(&lock.to_json()).expect("reads");
        assert_eq!(check(&read, &keys(id, public)), Vec::new());
    }

    fn fails(lock: &Lock, id: &str, public: &str, want: &str) {
        let problems = check(lock, &keys(id.to_string(), public.to_string()));
        assert_eq!(problems.len(), 1, "{want}: {problems:?}");
        assert!(
            problems[0].message.contains(want),
            "{want}: {}",
            problems[0]
        );
        assert_eq!(problems[0].skill, "b");
    }

    #[test]
    fn a_swapped_digest_files_or_claim_is_an_error_naming_the_skill() {
        let (lock, id, public) = signed_lock(2);
        // The pull request of the issue: other bytes, the signer kept.
        let mut swapped = lock.clone();
        let (m, f) = meta("evil");
        let evil = SkillMeta {
            name: "b".to_string().into(),
            ..m
        };
        swapped.skills[0].digest =
            format!("sha256:{}", bundle_digest([(&evil, f.iter().collect())]));
        fails(&swapped, &id, &public, "is not a skill of what key");
        let mut files = lock.clone();
        files.skills[0].files[0].sha256 = "f".repeat(64);
        fails(&files, &id, &public, "not the files key");
        let mut claim = lock.clone();
        if let Some(s) = claim.skills[0].signer.as_mut() {
            s.version = Some("9.9.9".into());
        }
        fails(&claim, &id, &public, "is not what key");
        let mut comment = lock.clone();
        if let Some(sig) = comment.skills[0]
            .signer
            .as_mut()
            .and_then(|s| s.signature.as_mut())
        {
            sig.comment = sig.comment.replace("1.2.0", "9.9.9");
        }
        fails(&comment, &id, &public, "does not verify");
        let mut listing = lock.clone();
        listing.listings[0].1[1] = "description \"Other.\"".into();
        fails(&listing, &id, &public, "does not hash");
        let mut v1 = lock.clone();
        if let Some(s) = v1.skills[0].signer.as_mut() {
            s.signature = None;
        }
        fails(&v1, &id, &public, "keeps no signature");
    }

    #[test]
    fn another_key_or_no_key_does_not_attest() {
        let (lock, id, _) = signed_lock(3);
        let (_, other_public, _) = publisher(4);
        fails(&lock, &id, &other_public, "made with key");
        let problems = check(&lock, &|_: &str| None);
        assert!(
            problems[0].message.contains("does not hold"),
            "{problems:?}"
        );
        // A record re-signed by another trusted key, claiming to be acme's.
        let (mut forged, acme, acme_public) = signed_lock(5);
        let (bob, _, bob_kp) = publisher(6);
        if let Some(s) = forged.skills[0].signer.as_mut() {
            let comment = s
                .signature
                .as_ref()
                .map(|x| x.comment.clone())
                .unwrap_or_default();
            s.signature = Some(sign(6, &bob_kp, &comment));
        }
        fails(&forged, &acme, &acme_public, "made with key");
        let _ = bob;
    }
}

//! The install policy: given where a skill came from, what signed it and
//! what the lock holds, install it (saying on what grounds, for the lock to
//! record) or refuse (naming the source, the skill, the key and the flag
//! that overrides).
//!
//! Where it came from is a [`Provenance`]: whether the source is a folder
//! on this machine, which the caller knows from the kind of source it
//! fetched (never guessed from its spelling), and the canonical locations
//! the bytes came through, whose pins choose the keys (see the crate's
//! `trust` module).
//!
//! | source | signature                            | without flags | override            |
//! |--------|--------------------------------------|---------------|---------------------|
//! | local  | any, or none                         | installed     |                     |
//! | remote | none                                 | refused       | `--allow-unsigned`  |
//! | remote | key not trusted (or not pinned here) | refused       | `--allow-unsigned`  |
//! | remote | Sigstore signer no `sigstore` entry (pinned here) accepts | refused | `--allow-unsigned` |
//! | remote | retired key, not the locked release  | refused       | `--allow-unsigned`  |
//! | any    | trusted key, older than the locked   | refused       | `--allow-downgrade` |
//! | any    | trusted key, otherwise               | installed     |                     |
//!
//! "Older" compares signed versions when both releases have one, else
//! signed times; a release with neither, where the locked one has either,
//! cannot be shown not to be older and is refused the same way. Only a
//! trusted signature's claims are believed, so rollback is checked for
//! trusted signers only; an unsigned install says so in the lock instead.

use std::cmp::Ordering;
use std::fmt;

use super::identity::{self, SIGNER_PREFIX as SIGSTORE_SIGNER};
use super::provenance::Provenance;
use super::signer::Signer;
use super::version::compare_versions;
use super::{KeyKind, TrustStore, TrustedKey};

/// What the lock recorded of the installed release's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedSigned {
    /// The key id that signed it.
    pub key_id: String,
    /// Its content digest.
    pub digest: String,
    /// Its signed version, if any.
    pub version: Option<String>,
    /// Its signed time, if any.
    pub timestamp: Option<u64>,
}

/// The flags that loosen the policy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PolicyFlags {
    /// `--allow-unsigned`: install from a remote source without a trusted
    /// signature.
    pub allow_unsigned: bool,
    /// `--allow-downgrade`: install a release older than the locked one.
    pub allow_downgrade: bool,
}

/// Why a skill may be installed: what the lock records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Signed by a trusted key.
    Signed {
        /// The publisher's name.
        publisher: String,
        /// The key id.
        key_id: String,
        /// The key is retired: accepted because this is the locked release.
        retired: bool,
        /// Older than the locked release, allowed by `--allow-downgrade`.
        downgrade: bool,
    },
    /// A folder on this machine, which needs no signature.
    Local,
    /// Remote and without a trusted signature, allowed by
    /// `--allow-unsigned`; the key id of an untrusted signature, if any.
    Unsigned {
        /// The key that signed it, not trusted here.
        key_id: Option<String>,
    },
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Signed {
                publisher,
                key_id,
                retired,
                downgrade,
            } => {
                write!(f, "signed by key {key_id} of `{publisher}`")?;
                if *retired {
                    f.write_str(", retired, valid for the locked release only")?;
                }
                if *downgrade {
                    f.write_str("; older than the locked release, allowed by --allow-downgrade")?;
                }
                Ok(())
            }
            Decision::Local => f.write_str("a local folder, installed without a signature"),
            Decision::Unsigned { key_id: None } => {
                f.write_str("unsigned, allowed by --allow-unsigned")
            }
            Decision::Unsigned {
                key_id: Some(key_id),
            } => write!(
                f,
                "signed by key {key_id}, not trusted here: taken as unsigned, allowed by --allow-unsigned"
            ),
        }
    }
}

/// A refusal to install `skill` from `source`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The source as written.
    pub source: String,
    /// The skill's name.
    pub skill: String,
    /// Why (boxed: a refusal is the rare path, kept off the stack of the
    /// common one).
    pub kind: Box<RefusalKind>,
}

/// Why a skill was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RefusalKind {
    /// A remote source without a signature.
    Unsigned,
    /// Signed by a key that is not trusted for this source.
    Untrusted {
        /// The key id.
        key_id: String,
        /// The publishers pinning the source (`acme`, `acme (user)`); none
        /// when no pin applies and the key is simply unknown.
        pins: Vec<String>,
    },
    /// Signed by a retired key, and not the locked release.
    Retired {
        /// The key id.
        key_id: String,
        /// Its publisher.
        publisher: String,
        /// When or why it was retired.
        reason: String,
    },
    /// Older than the locked release.
    Downgrade {
        /// The key id.
        key_id: String,
        /// What is offered: `version 1.0.0` or `signed at 1700000000`.
        offered: String,
        /// What is locked, in the same terms.
        locked: String,
    },
    /// Signed without a version or time, where the locked release has one:
    /// it may be older.
    Unordered {
        /// The key id.
        key_id: String,
        /// What is locked: `version 1.2.0` or `signed at 1700000000`.
        locked: String,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "refusing `{}` skill `{}`: ", self.source, self.skill)?;
        match self.kind.as_ref() {
            RefusalKind::Unsigned => f.write_str(
                "it is not signed, and a remote source must be signed by a trusted key \
                 (no key id to trust); pass --allow-unsigned to install it unsigned",
            ),
            RefusalKind::Untrusted { key_id, pins } => {
                // A Sigstore signer is named by identity and issuer, and
                // trusted by an entry that matches them.
                let (signer, how) = if key_id.starts_with(SIGSTORE_SIGNER) {
                    (
                        key_id.clone(),
                        "`skb trust add NAME --sigstore-issuer ISSUER --sigstore-identity PATTERN`",
                    )
                } else {
                    (format!("key {key_id}"), "`skb trust add`")
                };
                if pins.is_empty() {
                    write!(
                        f,
                        "signed by {signer}, which is not in the trust store; \
                         trust it with {how} or pass --allow-unsigned"
                    )
                } else {
                    write!(
                        f,
                        "signed by {signer}, which is not trusted for this source (pin: {}); \
                         trust it with {how} or pass --allow-unsigned",
                        pins.join(", ")
                    )
                }
            }
            RefusalKind::Retired {
                key_id,
                publisher,
                reason,
            } => write!(
                f,
                "signed by key {key_id} of `{publisher}`, retired ({reason}), which verifies \
                 only the release already locked; install a release signed by a current key \
                 of `{publisher}`, or pass --allow-unsigned"
            ),
            RefusalKind::Downgrade {
                key_id,
                offered,
                locked,
            } => write!(
                f,
                "its {offered} (key {key_id}) is older than the locked {locked}; \
                 pass --allow-downgrade to install it"
            ),
            RefusalKind::Unordered { key_id, locked } => write!(
                f,
                "its signature (key {key_id}) has no version or time to compare with the \
                 locked {locked}, so it may be older; pass --allow-downgrade to install it"
            ),
        }
    }
}

impl std::error::Error for Refusal {}

impl TrustStore {
    /// Decides whether `skill` from `from` may be installed, given what
    /// signed it (`signer`, from [`TrustStore::signer`]; `None` when it is
    /// not signed) and the lock's record of the installed release's
    /// signature (`locked`; `None` when nothing signed is locked). The key
    /// must be allowed by the pins of every location of `from`. The module
    /// documentation has the table.
    pub fn check(
        &self,
        from: &Provenance,
        skill: &str,
        signer: Option<&Signer>,
        locked: Option<&LockedSigned>,
        flags: &PolicyFlags,
    ) -> Result<Decision, Refusal> {
        let refuse = |kind| Refusal {
            source: from.source.clone(),
            skill: skill.to_owned(),
            kind: Box::new(kind),
        };
        let trusted = match signer {
            Some(signer) => self.trusted_key(&from.locations, signer, locked),
            None => Err(RefusalKind::Unsigned),
        };
        match trusted {
            Ok((key, signer)) => {
                let downgrade = match older(signer, locked) {
                    Some(_) if flags.allow_downgrade => true,
                    Some(kind) => return Err(refuse(kind)),
                    None => false,
                };
                Ok(Decision::Signed {
                    publisher: key.publisher.clone(),
                    key_id: key.id.clone(),
                    retired: key.retired.is_some(),
                    downgrade,
                })
            }
            Err(_) if from.local => Ok(Decision::Local),
            Err(_) if flags.allow_unsigned => Ok(Decision::Unsigned {
                key_id: signer.map(|s| s.key_id.clone()),
            }),
            Err(kind) => Err(refuse(kind)),
        }
    }

    /// The key that makes `signer` trusted for what came through
    /// `locations`, or why none does.
    fn trusted_key<'a, 's>(
        &'a self,
        locations: &[String],
        signer: &'s Signer,
        locked: Option<&LockedSigned>,
    ) -> Result<(&'a TrustedKey, &'s Signer), RefusalKind> {
        let resolved = self.resolve(locations);
        let Some(key) = resolved.keys.into_iter().find(|k| match &signer.sigstore {
            Some(verified) => {
                k.kind == KeyKind::Sigstore && identity::accepts(&k.key, &verified.signer)
            }
            None => k.kind != KeyKind::Sigstore && k.id == signer.key_id,
        }) else {
            return Err(RefusalKind::Untrusted {
                key_id: signer.key_id.clone(),
                pins: resolved.pins,
            });
        };
        match &key.retired {
            Some(reason) if !is_locked_release(signer, locked) => Err(RefusalKind::Retired {
                key_id: key.id.clone(),
                publisher: key.publisher.clone(),
                reason: reason.clone(),
            }),
            _ => Ok((key, signer)),
        }
    }
}

/// Whether `signer` signed exactly the locked release: same key, same
/// content.
fn is_locked_release(signer: &Signer, locked: Option<&LockedSigned>) -> bool {
    locked.is_some_and(|l| {
        l.key_id == signer.key_id && signer.digest.as_deref() == Some(l.digest.as_str())
    })
}

/// Why `signer`'s release counts as older than the locked one, if it does.
fn older(signer: &Signer, locked: Option<&LockedSigned>) -> Option<RefusalKind> {
    let locked = locked?;
    if signer.digest.as_deref() == Some(locked.digest.as_str()) {
        return None;
    }
    let by_version = match (&signer.version, &locked.version) {
        (Some(offered), Some(held)) => compare_versions(offered, held).map(|order| {
            (
                order,
                format!("version {offered}"),
                format!("version {held}"),
            )
        }),
        _ => None,
    };
    let by_time = || match (signer.timestamp, locked.timestamp) {
        (Some(offered), Some(held)) => Some((
            offered.cmp(&held),
            format!("signing time {offered}"),
            format!("signing time {held}"),
        )),
        _ => None,
    };
    match by_version.or_else(by_time) {
        Some((Ordering::Less, offered, held)) => Some(RefusalKind::Downgrade {
            key_id: signer.key_id.clone(),
            offered,
            locked: held,
        }),
        Some(_) => None,
        None => {
            let held = match (&locked.version, locked.timestamp) {
                (Some(version), _) => format!("version {version}"),
                (None, Some(time)) => format!("signing time {time}"),
                (None, None) => return None,
            };
            Some(RefusalKind::Unordered {
                key_id: signer.key_id.clone(),
                locked: held,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    //! The policy table, row by row, on a store read from real files.

    use std::path::Path;

    use super::*;
    use crate::trust::is_local;

    const OLD: &str = "RWSE9TbhK4nkT7K4t0/B/lNihgeUqInocCWnqPbcZYcA8KQM8M8MFlRq";
    const OLD_ID: &str = "4FE4892BE136F584";
    const NEW: &str = "RWQF5xph8jCG4/OjEU48pItL8GxHOPv6n7U5LKQfMBz5eY34pEEONwVU";
    const NEW_ID: &str = "E38630F2611AE705";
    const BOB: &str = "RWRUcT8oec9Zg6ga54nIHe2d3QlIJTirPJzxZFKNSQISo5vTkX4BKfaj";
    const BOB_ID: &str = "8359CF79283F7154";
    const STRANGER_ID: &str = "0123456789ABCDEF";

    const ACME: &str = "acme/skills";
    const LOCAL: &str = "./vendor/skills";
    const ELSEWHERE: &str = "https://skills.example.org/index.json";

    const NONE: PolicyFlags = PolicyFlags {
        allow_unsigned: false,
        allow_downgrade: false,
    };
    const UNSIGNED_OK: PolicyFlags = PolicyFlags {
        allow_unsigned: true,
        allow_downgrade: false,
    };
    const DOWNGRADE_OK: PolicyFlags = PolicyFlags {
        allow_unsigned: false,
        allow_downgrade: true,
    };

    /// `acme` (an old retired key and a new one) pins `github.com/acme/*`;
    /// `bob` pins nothing. `user`, when given, is the user's file.
    fn store(dir: &Path, user: Option<&str>) -> TrustStore {
        let project = format!(
            r#"{{"version": 1, "publishers": {{
                "acme": {{"keys": [{{"key": "{OLD}", "retired": "2026-03-01: rotated"}}, {{"key": "{NEW}"}}],
                          "sources": ["github.com/acme/*"]}},
                "bob": {{"keys": [{{"key": "{BOB}"}}]}}
            }}}}"#
        );
        std::fs::write(dir.join("skills-trust.json"), project).expect("writes the project file");
        let user_path = dir.join("user.json");
        if let Some(text) = user {
            std::fs::write(&user_path, text).expect("writes the user file");
        }
        TrustStore::load(dir, user.map(|_| user_path.as_path())).expect("loads the store")
    }

    fn signer(key_id: &str, digest: &str, version: Option<&str>, timestamp: Option<u64>) -> Signer {
        Signer {
            key_id: key_id.into(),
            digest: Some(digest.into()),
            version: version.map(Into::into),
            timestamp,
            sigstore: None,
        }
    }

    fn locked(
        key_id: &str,
        digest: &str,
        version: Option<&str>,
        timestamp: Option<u64>,
    ) -> LockedSigned {
        LockedSigned {
            key_id: key_id.into(),
            digest: digest.into(),
            version: version.map(Into::into),
            timestamp,
        }
    }

    fn signed(
        publisher: &str,
        key_id: &str,
        retired: bool,
        downgrade: bool,
    ) -> Result<Decision, RefusalKind> {
        Ok(Decision::Signed {
            publisher: publisher.into(),
            key_id: key_id.into(),
            retired,
            downgrade,
        })
    }

    fn untrusted(key_id: &str, pins: &[&str]) -> Result<Decision, RefusalKind> {
        Err(RefusalKind::Untrusted {
            key_id: key_id.into(),
            pins: pins.iter().map(|p| p.to_string()).collect(),
        })
    }

    fn retired() -> Result<Decision, RefusalKind> {
        Err(RefusalKind::Retired {
            key_id: OLD_ID.into(),
            publisher: "acme".into(),
            reason: "2026-03-01: rotated".into(),
        })
    }

    fn downgrade(key_id: &str, offered: &str, locked: &str) -> Result<Decision, RefusalKind> {
        Err(RefusalKind::Downgrade {
            key_id: key_id.into(),
            offered: offered.into(),
            locked: locked.into(),
        })
    }

    /// Runs `check` and keeps the refusal's kind, after checking that the
    /// refusal names the source, the skill, the key and a flag.
    fn decide(
        store: &TrustStore,
        source: &str,
        signer: Option<&Signer>,
        locked: Option<&LockedSigned>,
        flags: PolicyFlags,
    ) -> Result<Decision, RefusalKind> {
        let from = if is_local(source) {
            Provenance::local(source)
        } else {
            Provenance::remote(source)
        };
        store
            .check(&from, "pdf", signer, locked, &flags)
            .map_err(|refusal| {
                let text = refusal.to_string();
                assert!(
                    text.starts_with(&format!("refusing `{source}` skill `pdf`: ")),
                    "{text}"
                );
                assert!(text.contains("pass --allow-"), "{text}");
                match signer {
                    Some(s) => assert!(text.contains(&format!("key {}", s.key_id)), "{text}"),
                    None => assert!(text.contains("not signed"), "{text}"),
                }
                *refusal.kind
            })
    }

    #[test]
    fn local_folders_need_no_signature() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = store(dir.path(), None);
        let stranger = signer(STRANGER_ID, "d", None, None);
        let old = signer(OLD_ID, "d", None, None);
        assert_eq!(decide(&store, LOCAL, None, None, NONE), Ok(Decision::Local));
        assert_eq!(
            decide(&store, LOCAL, Some(&stranger), None, NONE),
            Ok(Decision::Local)
        );
        assert_eq!(
            decide(&store, LOCAL, Some(&old), None, NONE),
            Ok(Decision::Local)
        );
        let new = signer(NEW_ID, "d", None, None);
        assert_eq!(
            decide(&store, LOCAL, Some(&new), None, NONE),
            signed("acme", NEW_ID, false, false)
        );
        // Trusted claims are believed wherever the pack comes from.
        let older = signer(NEW_ID, "d", Some("1.0.0"), None);
        let held = locked(NEW_ID, "e", Some("1.2.0"), None);
        assert_eq!(
            decide(&store, LOCAL, Some(&older), Some(&held), NONE),
            downgrade(NEW_ID, "version 1.0.0", "version 1.2.0")
        );
    }

    #[test]
    fn remote_sources_need_a_trusted_signature_or_allow_unsigned() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = store(dir.path(), None);
        for source in [
            ACME,
            ELSEWHERE,
            "file:///srv/repo",
            "oci://ghcr.io/acme/skills:1",
        ] {
            assert_eq!(
                decide(&store, source, None, None, NONE),
                Err(RefusalKind::Unsigned)
            );
            assert_eq!(
                decide(&store, source, None, None, UNSIGNED_OK),
                Ok(Decision::Unsigned { key_id: None })
            );
            // --allow-downgrade does not stand in for --allow-unsigned.
            assert_eq!(
                decide(&store, source, None, None, DOWNGRADE_OK),
                Err(RefusalKind::Unsigned)
            );
        }
        let stranger = signer(STRANGER_ID, "d", None, None);
        assert_eq!(
            decide(&store, ELSEWHERE, Some(&stranger), None, NONE),
            untrusted(STRANGER_ID, &[])
        );
        assert_eq!(
            decide(&store, ACME, Some(&stranger), None, NONE),
            untrusted(STRANGER_ID, &["acme"])
        );
        assert_eq!(
            decide(&store, ACME, Some(&stranger), None, UNSIGNED_OK),
            Ok(Decision::Unsigned {
                key_id: Some(STRANGER_ID.into())
            })
        );
    }

    #[test]
    fn pins_choose_the_keys_of_a_source() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = store(dir.path(), None);
        let new = signer(NEW_ID, "d", None, None);
        let bob = signer(BOB_ID, "d", None, None);
        for written in [
            ACME,
            "https://github.com/acme/skills.git",
            "git@github.com:Acme/other",
        ] {
            assert_eq!(
                decide(&store, written, Some(&new), None, NONE),
                signed("acme", NEW_ID, false, false)
            );
            // Trusted, but not for a source pinned to another publisher.
            assert_eq!(
                decide(&store, written, Some(&bob), None, NONE),
                untrusted(BOB_ID, &["acme"])
            );
        }
        // Unpinned sources take any trusted key.
        assert_eq!(
            decide(&store, ELSEWHERE, Some(&bob), None, NONE),
            signed("bob", BOB_ID, false, false)
        );
        assert_eq!(
            decide(&store, ELSEWHERE, Some(&new), None, NONE),
            signed("acme", NEW_ID, false, false)
        );
        assert_eq!(
            store
                .keys_for(ACME)
                .iter()
                .map(|k| k.id.as_str())
                .collect::<Vec<_>>(),
            [OLD_ID, NEW_ID]
        );
        assert_eq!(store.keys_for(ELSEWHERE).len(), 3);
    }

    /// A user's pin holds even where the project names the source too: a key
    /// must be one both allow.
    #[test]
    fn every_files_pin_applies() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let user = format!(
            r#"{{"version": 1, "publishers": {{
                "corp": {{"keys": [{{"key": "{NEW}"}}, {{"key": "{BOB}"}}], "sources": ["https://github.com/acme/*"]}}
            }}}}"#
        );
        let store = store(dir.path(), Some(&user));
        let new = signer(NEW_ID, "d", None, None);
        let bob = signer(BOB_ID, "d", None, None);
        assert_eq!(
            decide(&store, ACME, Some(&new), None, NONE),
            signed("acme", NEW_ID, false, false)
        );
        assert_eq!(
            decide(&store, ACME, Some(&bob), None, NONE),
            untrusted(BOB_ID, &["acme", "corp (user)"])
        );
        assert_eq!(store.keys_for(ACME).len(), 1);
    }

    /// Pins accumulate over the locations the bytes came through: a
    /// redirect to an unpinned place keeps the source's pin, one from an
    /// unpinned place to a pinned one takes its pin, and one to a place
    /// pinned to another publisher asks for a key both allow.
    #[test]
    fn pins_accumulate_over_every_location() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let project = format!(
            r#"{{"version": 1, "publishers": {{
                "acme": {{"keys": [{{"key": "{NEW}"}}], "sources": ["github.com/acme/*"]}},
                "bob": {{"keys": [{{"key": "{BOB}"}}], "sources": ["cdn.example/bob/*"]}}
            }}}}"#
        );
        std::fs::write(dir.path().join("skills-trust.json"), project)
            .expect("writes the project file");
        let store = TrustStore::load(dir.path(), None).expect("loads the store");
        let judge = |from: &Provenance, key_id: &str| {
            let signer = signer(key_id, "d", None, None);
            store
                .check(from, "pdf", Some(&signer), None, &NONE)
                .map_err(|refusal| *refusal.kind)
        };
        let acme = Provenance::remote(ACME).through("https://cdn.example/blobs/1");
        assert_eq!(judge(&acme, NEW_ID), signed("acme", NEW_ID, false, false));
        assert_eq!(judge(&acme, BOB_ID), untrusted(BOB_ID, &["acme"]));
        let redirected =
            Provenance::remote("https://skills.example/pdf").through("https://GitHub.com/acme/pdf");
        assert_eq!(judge(&redirected, BOB_ID), untrusted(BOB_ID, &["acme"]));
        assert_eq!(
            judge(&redirected, NEW_ID),
            signed("acme", NEW_ID, false, false)
        );
        let both = Provenance::remote(ACME).through("https://cdn.example/bob/x");
        assert_eq!(judge(&both, NEW_ID), untrusted(NEW_ID, &["acme", "bob"]));
        assert_eq!(judge(&both, BOB_ID), untrusted(BOB_ID, &["acme", "bob"]));
        assert_eq!(
            Provenance::remote(ACME).locations(),
            ["github.com/acme/skills"]
        );
        assert!(
            Provenance::local("./x")
                .through("https://a.example/")
                .is_local()
        );
    }

    #[test]
    fn a_retired_key_verifies_only_the_locked_release() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = store(dir.path(), None);
        let old = signer(OLD_ID, "d1", Some("1.2.0"), Some(100));
        assert_eq!(decide(&store, ACME, Some(&old), None, NONE), retired());
        let same = locked(OLD_ID, "d1", Some("1.2.0"), Some(100));
        assert_eq!(
            decide(&store, ACME, Some(&old), Some(&same), NONE),
            signed("acme", OLD_ID, true, false)
        );
        // A new release by the retired key, even a newer one: refused.
        let newer = signer(OLD_ID, "d2", Some("1.3.0"), Some(200));
        assert_eq!(
            decide(&store, ACME, Some(&newer), Some(&same), NONE),
            retired()
        );
        // The same content locked under another key is not this release.
        let other = locked(NEW_ID, "d1", Some("1.2.0"), Some(100));
        assert_eq!(
            decide(&store, ACME, Some(&old), Some(&other), NONE),
            retired()
        );
        // A signature whose comment names no digest is no locked release.
        let blank = Signer {
            digest: None,
            ..old.clone()
        };
        assert_eq!(
            decide(&store, ACME, Some(&blank), Some(&same), NONE),
            retired()
        );
        assert_eq!(
            decide(&store, ACME, Some(&newer), Some(&same), UNSIGNED_OK),
            Ok(Decision::Unsigned {
                key_id: Some(OLD_ID.into())
            })
        );
        // Rotation: the lock holds the old key's release, the update comes
        // signed by the new key, and is ordered against it.
        let rotated = signer(NEW_ID, "d3", Some("1.3.0"), Some(300));
        assert_eq!(
            decide(&store, ACME, Some(&rotated), Some(&same), NONE),
            signed("acme", NEW_ID, false, false)
        );
        let rolled_back = signer(NEW_ID, "d0", Some("1.1.0"), Some(300));
        assert_eq!(
            decide(&store, ACME, Some(&rolled_back), Some(&same), NONE),
            downgrade(NEW_ID, "version 1.1.0", "version 1.2.0")
        );
    }

    /// Offered version and time, locked version and time, and the verdict.
    type Row = (
        Option<&'static str>,
        Option<u64>,
        Option<&'static str>,
        Option<u64>,
        Result<Decision, RefusalKind>,
    );

    #[test]
    fn older_releases_need_allow_downgrade() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = store(dir.path(), None);
        let ok = || signed("acme", NEW_ID, false, false);
        let rows: [Row; 13] = [
            (
                Some("1.0.0"),
                None,
                Some("1.2.0"),
                None,
                downgrade(NEW_ID, "version 1.0.0", "version 1.2.0"),
            ),
            (Some("1.2.0"), None, Some("1.2.0"), None, ok()),
            (Some("1.3.0"), None, Some("1.2.0"), None, ok()),
            (
                Some("1.0.0-rc.1"),
                None,
                Some("1.0.0"),
                None,
                downgrade(NEW_ID, "version 1.0.0-rc.1", "version 1.0.0"),
            ),
            (Some("2.0.0-rc.1"), None, Some("1.9.9"), None, ok()),
            // The version decides, whatever the times say.
            (Some("1.3.0"), Some(1), Some("1.2.0"), Some(9), ok()),
            // Without two versions, the times decide.
            (
                None,
                Some(100),
                None,
                Some(200),
                downgrade(NEW_ID, "signing time 100", "signing time 200"),
            ),
            (None, Some(300), None, Some(200), ok()),
            (
                Some("1.0.0"),
                Some(100),
                None,
                Some(200),
                downgrade(NEW_ID, "signing time 100", "signing time 200"),
            ),
            // Nothing to compare with what the lock has: it may be older.
            (
                None,
                None,
                Some("1.2.0"),
                None,
                Err(RefusalKind::Unordered {
                    key_id: NEW_ID.into(),
                    locked: "version 1.2.0".into(),
                }),
            ),
            (
                Some("1.0.0"),
                None,
                None,
                Some(200),
                Err(RefusalKind::Unordered {
                    key_id: NEW_ID.into(),
                    locked: "signing time 200".into(),
                }),
            ),
            // A lock without claims has nothing to roll back from.
            (None, None, None, None, ok()),
            (Some("0.1.0"), Some(1), None, None, ok()),
        ];
        for (version, time, held_version, held_time, expected) in rows {
            let offered = signer(NEW_ID, "new", version, time);
            let held = locked(NEW_ID, "held", held_version, held_time);
            let row = format!("{version:?} {time:?} vs {held_version:?} {held_time:?}");
            assert_eq!(
                decide(&store, ACME, Some(&offered), Some(&held), NONE),
                expected,
                "{row}"
            );
            let allowed = decide(&store, ACME, Some(&offered), Some(&held), DOWNGRADE_OK);
            let expected = signed("acme", NEW_ID, false, expected.is_err());
            assert_eq!(allowed, expected, "{row}");
            assert_eq!(
                decide(&store, ACME, Some(&offered), None, NONE),
                ok(),
                "{row}: nothing locked"
            );
        }
        // The locked release itself, whatever it claims, is no downgrade.
        let same = signer(NEW_ID, "held", Some("1.0.0"), None);
        let held = locked(NEW_ID, "held", Some("1.2.0"), None);
        assert_eq!(decide(&store, ACME, Some(&same), Some(&held), NONE), ok());
        // An untrusted signature's claims are not believed: no rollback
        // check, only --allow-unsigned.
        let stranger = signer(STRANGER_ID, "x", Some("0.0.1"), None);
        assert_eq!(
            decide(&store, ACME, Some(&stranger), Some(&held), UNSIGNED_OK),
            Ok(Decision::Unsigned {
                key_id: Some(STRANGER_ID.into())
            })
        );
    }

    #[test]
    fn decisions_say_what_the_lock_records() {
        let shown = [
            (
                Decision::Local,
                "a local folder, installed without a signature",
            ),
            (
                Decision::Unsigned { key_id: None },
                "unsigned, allowed by --allow-unsigned",
            ),
            (
                Decision::Unsigned {
                    key_id: Some(BOB_ID.into()),
                },
                "signed by key 8359CF79283F7154, not trusted here: taken as unsigned, allowed by --allow-unsigned",
            ),
            (
                Decision::Signed {
                    publisher: "acme".into(),
                    key_id: OLD_ID.into(),
                    retired: true,
                    downgrade: true,
                },
                "signed by key 4FE4892BE136F584 of `acme`, retired, valid for the locked release only; \
                 older than the locked release, allowed by --allow-downgrade",
            ),
        ];
        for (decision, text) in shown {
            assert_eq!(decision.to_string(), text);
        }
        let refusal = Refusal {
            source: ACME.into(),
            skill: "pdf".into(),
            kind: Box::new(RefusalKind::Untrusted {
                key_id: BOB_ID.into(),
                pins: vec!["acme".into()],
            }),
        };
        assert_eq!(
            refusal.to_string(),
            "refusing `acme/skills` skill `pdf`: signed by key 8359CF79283F7154, which is not trusted \
             for this source (pin: acme); trust it with `skb trust add` or pass --allow-unsigned"
        );
    }
}

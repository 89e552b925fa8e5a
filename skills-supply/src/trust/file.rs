//! One trust file on disk: its JSON format, its checks, and its writing.
//!
//! ```json
//! {
//!   "version": 1,
//!   "publishers": {
//!     "acme": {
//!       "comment": "Acme's release keys",
//!       "keys": [
//!         { "key": "RWQ…", "id": "1A2B3C4D5E6F7A8B", "retired": "2026-03-01: moved to a hardware key" },
//!         { "key": "RWS…", "id": "8B7A6F5E4D3C2B1A" }
//!       ],
//!       "sources": ["github.com/acme/*", "oci://ghcr.io/acme/*"]
//!     }
//!   }
//! }
//! ```
//!
//! A key's `kind` is `minisign` when left out; an SSH key is written
//! `{ "kind": "ssh", "key": "ssh-ed25519 AAAA…", "id": "SHA256:…" }`, an
//! OpenPGP key `{ "kind": "openpgp", "key": "-----BEGIN PGP PUBLIC KEY
//! BLOCK-----…", "id": "<40 hex digits>" }`, a Sigstore signer `{ "kind":
//! "sigstore", "key": "<OIDC issuer> <identity pattern>", "id":
//! "sigstore:<16 hex digits>" }` (see [`super::KeyKind`]).
//!
//! Publishers are sorted by name and written two-space indented, one
//! change a few lines of diff. A key's `id` is written for the reader (it is
//! what minisign, `ssh-keygen` and refusals print) and checked against the
//! key when present; an OpenPGP key's fingerprint must be written (this
//! crate does not compute it: `gpg` does, when the key is added and each
//! time it is put in a keyring). Unknown fields, a publisher named twice, a key given twice, or
//! one key under two names are errors that name the file: a trust file is
//! not guessed at.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use skills_core::fsread;

use super::kind::{self, KeyKind};
use super::{Origin, Publisher, TrustError, TrustedKey};

/// The project's trust file, at the project's root.
pub const PROJECT_FILE: &str = "skills-trust.json";

/// The format version written in, and accepted from, trust files.
const FORMAT_VERSION: u32 = 1;
/// The largest trust file read: 1 MiB, some thousands of keys.
const MAX_TRUST_FILE: u64 = 1 << 20;
/// The longest publisher name.
const MAX_NAME: usize = 64;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    version: u32,
    #[serde(default, deserialize_with = "unique_map")]
    publishers: BTreeMap<String, PublisherEntry>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PublisherEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comment: Option<String>,
    keys: Vec<KeyEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sources: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retired: Option<String>,
}

/// A trust file's publishers, read from or to be written to `path`.
#[derive(Debug, Clone)]
pub struct TrustFile {
    path: PathBuf,
    origin: Origin,
    publishers: BTreeMap<String, Publisher>,
}

impl TrustFile {
    /// Reads `path`; a file that does not exist is an empty store.
    pub fn load(path: &Path, origin: Origin) -> Result<TrustFile, TrustError> {
        let mut file = TrustFile {
            path: path.to_path_buf(),
            origin,
            publishers: BTreeMap::new(),
        };
        let bytes = match fsread::read_file(path, MAX_TRUST_FILE) {
            Ok(bytes) => bytes,
            Err(e) if e.is_not_found() => return Ok(file),
            Err(e) => return Err(TrustError::Read(e)),
        };
        let document: Document =
            serde_json::from_slice(&bytes).map_err(|e| TrustError::Syntax {
                path: path.to_path_buf(),
                line: e.line(),
                column: e.column(),
                // Without serde_json's "at line L column C": the path says it.
                message: {
                    let text = e.to_string();
                    let at = format!(" at line {} column {}", e.line(), e.column());
                    text.strip_suffix(&at).unwrap_or(&text).to_owned()
                },
            })?;
        let invalid = |message: String| TrustError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        if document.version != FORMAT_VERSION {
            return Err(invalid(format!(
                "`version` is {}; this skb reads version {FORMAT_VERSION}",
                document.version
            )));
        }
        for (name, entry) in document.publishers {
            check_name(&name).map_err(&invalid)?;
            if entry.keys.is_empty() {
                return Err(invalid(format!("publisher `{name}` has no keys")));
            }
            if let Some(pattern) = entry.sources.iter().find(|s| s.trim().is_empty()) {
                return Err(invalid(format!(
                    "publisher `{name}` has an empty source pattern {pattern:?}"
                )));
            }
            let mut publisher = Publisher {
                name: name.clone(),
                comment: entry.comment,
                keys: Vec::new(),
                sources: entry.sources,
            };
            for key in entry.keys {
                let parsed = kind::parse(&key.key)
                    .map_err(|e| invalid(format!("publisher `{name}`: {e}")))?;
                if let Some(written) = &key.kind
                    && KeyKind::from_name(written) != Some(parsed.kind)
                {
                    return Err(invalid(format!(
                        "publisher `{name}`: a key written as kind `{written}` is a {} key",
                        parsed.kind
                    )));
                }
                let id = match (parsed.id, key.id) {
                    (Some(id), Some(written)) if written != id => {
                        return Err(invalid(format!(
                            "publisher `{name}`: the key written with id `{written}` has id `{id}`"
                        )));
                    }
                    (Some(id), _) => id,
                    (None, Some(written)) if kind::is_openpgp_fingerprint(&written) => written,
                    (None, _) => {
                        return Err(invalid(format!(
                            "publisher `{name}`: an OpenPGP key needs its `id`, the primary key's \
                             fingerprint in 40 uppercase hex digits (`skb trust add` writes it)"
                        )));
                    }
                };
                if key.retired.as_deref().is_some_and(|r| r.trim().is_empty()) {
                    return Err(invalid(format!(
                        "publisher `{name}`: key `{id}` has an empty `retired`: say when or why"
                    )));
                }
                publisher.keys.push(TrustedKey {
                    publisher: name.clone(),
                    kind: parsed.kind,
                    key: parsed.key,
                    id,
                    retired: key.retired,
                    origin,
                });
            }
            file.insert(publisher).map_err(&invalid)?;
        }
        Ok(file)
    }

    /// The file this store is read from and saved to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this is the project's file or the user's.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The publishers, sorted by name.
    pub fn publishers(&self) -> impl Iterator<Item = &Publisher> {
        self.publishers.values()
    }

    /// The publisher called `name`.
    pub fn publisher(&self, name: &str) -> Option<&Publisher> {
        self.publishers.get(name)
    }

    /// Trusts `key` (a minisign, SSH or armored OpenPGP public key, or a
    /// `.pub` file's text: see [`KeyKind`]) as one of `name`'s keys,
    /// creating the publisher if need be, and returns its id. An
    /// OpenPGP key's fingerprint is computed by `gpg`. Adding a key `name`
    /// already has changes nothing; a key trusted under another name is an
    /// error.
    pub fn add_key(&mut self, name: &str, key: &str) -> Result<String, TrustError> {
        check_name(name).map_err(TrustError::Argument)?;
        let parsed = kind::parse(key).map_err(TrustError::Argument)?;
        let id = match parsed.id {
            Some(id) => id,
            None => crate::git::signature::openpgp_fingerprint(&parsed.key)
                .map_err(|e| TrustError::Argument(e.to_string()))?,
        };
        if let Some(other) = self
            .publishers
            .values()
            .find(|p| p.name != name && p.has(&id))
        {
            return Err(TrustError::Argument(format!(
                "key `{id}` is already trusted as `{}` in `{}`",
                other.name,
                self.path.display()
            )));
        }
        let publisher = self
            .publishers
            .entry(name.to_owned())
            .or_insert_with(|| Publisher {
                name: name.to_owned(),
                comment: None,
                keys: Vec::new(),
                sources: Vec::new(),
            });
        if !publisher.has(&id) {
            publisher.keys.push(TrustedKey {
                publisher: name.to_owned(),
                kind: parsed.kind,
                key: parsed.key,
                id: id.clone(),
                retired: None,
                origin: self.origin,
            });
        }
        Ok(id)
    }

    /// Marks `name`'s key `id` retired, for `reason` (a date or a why): it
    /// still verifies the releases already locked, and no new ones.
    pub fn retire_key(&mut self, name: &str, id: &str, reason: &str) -> Result<(), TrustError> {
        if reason.trim().is_empty() {
            return Err(TrustError::Argument(
                "say when or why the key is retired".to_owned(),
            ));
        }
        let key = self.key_mut(name, id)?;
        key.retired = Some(reason.trim().to_owned());
        Ok(())
    }

    /// Stops trusting `name`'s key `id`; a publisher left with no keys is
    /// removed, with its pins.
    pub fn remove_key(&mut self, name: &str, id: &str) -> Result<(), TrustError> {
        self.key_mut(name, id)?;
        if let Some(publisher) = self.publishers.get_mut(name) {
            publisher
                .keys
                .retain(|key| !key.id.eq_ignore_ascii_case(id));
            if publisher.keys.is_empty() {
                self.publishers.remove(name);
            }
        }
        Ok(())
    }

    /// Pins the sources `pattern` matches to `name`'s keys: from now on they
    /// must be signed by one of them.
    pub fn pin(&mut self, name: &str, pattern: &str) -> Result<(), TrustError> {
        let pattern = pattern.trim();
        if pattern.is_empty() {
            return Err(TrustError::Argument("a source pattern is empty".to_owned()));
        }
        let publisher = self
            .publishers
            .get_mut(name)
            .ok_or_else(|| self_unknown(name))?;
        if !publisher.sources.iter().any(|s| s == pattern) {
            publisher.sources.push(pattern.to_owned());
        }
        Ok(())
    }

    /// Writes the file (creating its folder), through a temporary file
    /// renamed into place, so a reader sees the old file or the new one.
    pub fn save(&self) -> Result<(), TrustError> {
        let document = Document {
            version: FORMAT_VERSION,
            publishers: self
                .publishers
                .iter()
                .map(|(name, p)| {
                    let entry = PublisherEntry {
                        comment: p.comment.clone(),
                        keys: p
                            .keys
                            .iter()
                            .map(|k| KeyEntry {
                                kind: (k.kind != KeyKind::Minisign)
                                    .then(|| k.kind.as_str().to_owned()),
                                key: k.key.clone(),
                                id: Some(k.id.clone()),
                                retired: k.retired.clone(),
                            })
                            .collect(),
                        sources: p.sources.clone(),
                    };
                    (name.clone(), entry)
                })
                .collect(),
        };
        let write_error = |source| TrustError::Write {
            path: self.path.clone(),
            source,
        };
        let mut text = serde_json::to_string_pretty(&document)
            .map_err(|e| write_error(std::io::Error::other(e)))?;
        text.push('\n');
        let dir = match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(dir).map_err(write_error)?;
        let mut staged = tempfile::Builder::new()
            .prefix(".skb-trust-")
            .tempfile_in(dir)
            .map_err(write_error)?;
        staged
            .write_all(text.as_bytes())
            .and_then(|()| staged.as_file().sync_all())
            .map_err(write_error)?;
        staged
            .persist(&self.path)
            .map_err(|e| write_error(e.error))?;
        Ok(())
    }

    fn insert(&mut self, publisher: Publisher) -> Result<(), String> {
        for key in &publisher.keys {
            let twice = publisher.keys.iter().filter(|k| k.id == key.id).count() > 1;
            if twice {
                return Err(format!(
                    "publisher `{}` lists key `{}` twice",
                    publisher.name, key.id
                ));
            }
            if let Some(other) = self.publishers.values().find(|p| p.has(&key.id)) {
                return Err(format!(
                    "key `{}` is listed under both `{}` and `{}`",
                    key.id, other.name, publisher.name
                ));
            }
        }
        self.publishers.insert(publisher.name.clone(), publisher);
        Ok(())
    }

    fn key_mut(&mut self, name: &str, id: &str) -> Result<&mut TrustedKey, TrustError> {
        let path = self.path.clone();
        let publisher = self
            .publishers
            .get_mut(name)
            .ok_or_else(|| self_unknown(name))?;
        publisher
            .keys
            .iter_mut()
            .find(|key| key.id.eq_ignore_ascii_case(id))
            .ok_or_else(|| {
                TrustError::Argument(format!(
                    "publisher `{name}` has no key `{id}` in `{}`",
                    path.display()
                ))
            })
    }
}

fn self_unknown(name: &str) -> TrustError {
    TrustError::Argument(format!("no publisher is named `{name}`"))
}

/// Publisher names: 1 to 64 ASCII letters, digits, `-`, `_` and `.`, so
/// they print plainly in messages and read the same in every shell.
fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{name}` cannot name a publisher: use 1 to {MAX_NAME} letters, digits, `-`, `_` or `.`"
        ))
    }
}

/// A JSON object read into a map, refusing a name given twice (which
/// `serde_json` would otherwise let the last one win).
fn unique_map<'de, D, V>(deserializer: D) -> Result<BTreeMap<String, V>, D::Error>
where
    D: Deserializer<'de>,
    V: Deserialize<'de>,
{
    struct Unique<V>(std::marker::PhantomData<V>);
    impl<'de, V: Deserialize<'de>> Visitor<'de> for Unique<V> {
        type Value = BTreeMap<String, V>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object of publishers")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((name, value)) = map.next_entry::<String, V>()? {
                if out.contains_key(&name) {
                    return Err(serde::de::Error::custom(format!(
                        "publisher `{name}` is given twice"
                    )));
                }
                out.insert(name, value);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_map(Unique(std::marker::PhantomData))
}

#[cfg(test)]
mod tests {
    //! Key kinds as the file writes and reads them.

    use super::*;

    const SSH: &str =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIN7ddr9NB3fwP482JUoSL9F5oQ/D1Tz55cxp6sPF3FXw";
    const SSH_ID: &str = "SHA256:zJ6r4ceeUc7PQ7MHu8cjKILgx1eNNKpNjFZycWpioFI";
    const PGP_ID: &str = "1F86E4068CA2C6C775D978587D1139CC94BB9C1C";
    const BLOCK: &str =
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\\n\\nmDMEZ0\\n-----END PGP PUBLIC KEY BLOCK-----";

    fn load(text: &str) -> Result<TrustFile, TrustError> {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join(PROJECT_FILE);
        std::fs::write(&path, text).expect("writes the file");
        TrustFile::load(&path, Origin::Project)
    }

    #[test]
    fn ssh_and_openpgp_keys_round_trip_with_their_kind() {
        let text = format!(
            r#"{{"version": 1, "publishers": {{"acme": {{"keys": [
                {{"kind": "ssh", "key": "{SSH} laptop", "id": "{SSH_ID}"}},
                {{"kind": "openpgp", "key": "{BLOCK}", "id": "{PGP_ID}"}}
            ]}}}}}}"#
        );
        let file = load(&text).expect("loads");
        let keys = &file.publisher("acme").expect("acme").keys;
        assert_eq!(
            keys.iter()
                .map(|k| (k.kind, k.id.as_str(), k.key.as_str()))
                .collect::<Vec<_>>(),
            [
                (KeyKind::Ssh, SSH_ID, SSH),
                (
                    KeyKind::OpenPgp,
                    PGP_ID,
                    BLOCK.replace("\\n", "\n").as_str()
                ),
            ]
        );
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut copy = file.clone();
        copy.path = dir.path().join("copy.json");
        copy.save().expect("saves");
        let written = std::fs::read_to_string(&copy.path).expect("reads back");
        assert!(written.contains("\"kind\": \"ssh\""), "{written}");
        let again = TrustFile::load(&copy.path, Origin::Project).expect("reloads");
        assert_eq!(again.publisher("acme"), file.publisher("acme"));
    }

    #[test]
    fn a_key_is_refused_when_its_kind_or_id_does_not_hold() {
        let one = |entry: &str| {
            format!(r#"{{"version": 1, "publishers": {{"acme": {{"keys": [{entry}]}}}}}}"#)
        };
        let cases = [
            (
                one(&format!(r#"{{"kind": "openpgp", "key": "{SSH}"}}"#)),
                "written as kind `openpgp` is a ssh key",
            ),
            (
                one(&format!(r#"{{"key": "{SSH}", "id": "SHA256:other"}}"#)),
                "has id `SHA256:zJ6r",
            ),
            (
                one(&format!(r#"{{"kind": "openpgp", "key": "{BLOCK}"}}"#)),
                "an OpenPGP key needs its `id`",
            ),
            (
                one(&format!(
                    r#"{{"key": "{BLOCK}", "id": "e38630f2611ae705"}}"#
                )),
                "an OpenPGP key needs its `id`",
            ),
        ];
        for (text, want) in cases {
            let e = load(&text).expect_err(want).to_string();
            assert!(e.contains(want), "{want}: {e}");
        }
    }
}

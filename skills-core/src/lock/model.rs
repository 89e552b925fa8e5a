//! The lock's content, as the reader makes it and the writer writes it.

/// The lock's file name, at the top of the project.
pub const FILE_NAME: &str = "skb.lock";

/// The format version this crate writes. Version 1 (no signatures kept,
/// no origins, no listings) is still read; its signer records cannot be
/// verified again, which `verify --installed` says.
pub const VERSION: u64 = 2;

/// Largest lock file read: 1,339 skills with their files take about 2 MiB.
pub const MAX_LOCK_FILE: u64 = 64 << 20;

/// A lock file's content.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lock {
    /// The skills, sorted by name, names unique.
    pub skills: Vec<LockedSkill>,
    /// The content each signature names, so that it can be checked again
    /// without the network: for each signed digest (hex), the canonical
    /// listing it is the SHA-256 of ([`crate::digest::bundle_listing`]),
    /// every line after the first. Sorted by digest; only digests a skill's
    /// [`Signer::digest`] names.
    pub listings: Vec<(String, Vec<String>)>,
}

/// One installed skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedSkill {
    /// The skill's name.
    pub name: String,
    /// The source as the user wrote it (`acme/skills@v1`, a path, a URL).
    pub source: String,
    /// What was actually fetched, in one canonical form
    /// (`https://github.com/acme/skills`, `local:vendor/skills`): what the
    /// trust decision, the allowances and the pins are bound to. `None` in
    /// version 1 locks.
    pub origin: Option<String>,
    /// What the source resolved to: the pin `install` fetches again.
    pub resolved: Resolved,
    /// The skill's digest, `sha256:<hex>` ([`crate::digest`]).
    pub digest: String,
    /// Who signed it, when it was signed.
    pub signer: Option<Signer>,
    /// Why it was installed without a signature, when it was.
    pub unsigned: Option<String>,
    /// The validator profile it was installed under, when not `spec`
    /// (`install` validates with the same one).
    pub profile: Option<String>,
    /// What the install gate's security scan saw and accepted; `None` in
    /// locks written before the gate.
    pub scan: Option<LockedScan>,
    /// Changes a flag accepted, each as the flag recorded it (a change of
    /// publisher or of source for this name); sorted.
    pub accepted: Vec<String>,
    /// Where it is installed: `/`-separated paths relative to the project,
    /// or below the home directory as `~/…`; sorted.
    pub installed: Vec<String>,
    /// Every file of the skill, sorted by path.
    pub files: Vec<LockedFile>,
}

/// A source pinned to exact content.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Resolved {
    /// A folder on this machine (a skill, a plugin, a marketplace): pinned
    /// by the files' hashes only.
    Folder {
        /// The folder, as given.
        path: String,
    },
    /// A pack or a `.skill` zip on this machine.
    File {
        /// The file, as given.
        path: String,
        /// SHA-256 of its bytes, hex.
        sha256: String,
    },
    /// A pack, a `.skill` zip or a `SKILL.md` downloaded over HTTPS.
    Url {
        /// The URL.
        url: String,
        /// SHA-256 of the bytes downloaded, hex.
        sha256: String,
    },
    /// A git repository at a commit.
    Git {
        /// The repository's URL.
        url: String,
        /// The full commit id.
        commit: String,
        /// The folder inside the repository, `/`-separated, if not its top.
        path: Option<String>,
    },
    /// An entry of an Agent Skills well-known index.
    Index {
        /// The index's URL.
        url: String,
        /// The entry's URL, resolved against the index.
        entry: String,
        /// The entry's version, when the index gives one.
        version: Option<String>,
        /// The entry's SHA-256, hex, as the index states and the download
        /// matched.
        sha256: String,
    },
    /// An OCI artifact.
    Oci {
        /// The reference, `oci://host/repository`, without tag or digest.
        reference: String,
        /// The tag it was resolved from, if any.
        tag: Option<String>,
        /// The manifest digest, `sha256:<hex>`.
        digest: String,
    },
}

/// The signature a skill was installed under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    /// The minisign key id, 16 uppercase hex digits.
    pub key: String,
    /// The digest the signature's trusted comment names (hex): the pack's,
    /// or the skill's for an index entry.
    pub digest: Option<String>,
    /// The version the signature names, if any.
    pub version: Option<String>,
    /// When it was signed (Unix seconds), if the signature says.
    pub timestamp: Option<u64>,
    /// The signature itself, kept so that the claims above can be checked
    /// again with the trusted key; `None` in version 1 locks and for a git
    /// signature.
    pub signature: Option<SignatureRecord>,
    /// For a git source signed with an SSH or OpenPGP key: what was signed.
    /// Then `key` is that key's id (`SHA256:…` or a 40-digit OpenPGP
    /// fingerprint), `version` the signed tag's name and `timestamp` the
    /// signed object's time; `digest` is `None`.
    pub git: Option<GitSigned>,
    /// For an archive signed by a Sigstore bundle: who signed it and where
    /// the log recorded it. Then `key` is the trust store's `sigstore`
    /// entry that accepted it (`sigstore:` and 16 uppercase hex digits),
    /// `digest` the archive's SHA-256 (the bundle's artifact, which the
    /// pin in `resolved` holds too) and `timestamp` the log's integrated
    /// time.
    pub sigstore: Option<SigstoreSigned>,
}

/// What a Sigstore bundle the lock records says. `install --frozen`
/// fetches the archive and its bundle again, verifies the bundle anew over
/// the archive and holds it to this record (the same bundle, by digest,
/// hence the same signer and log entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigstoreSigned {
    /// The certificate's identity (a workflow URI or an email address).
    pub identity: String,
    /// The OIDC issuer that vouched for it.
    pub issuer: String,
    /// The transparency log entry's index.
    pub log_index: u64,
    /// When the log integrated it (Unix seconds).
    pub integrated_time: u64,
    /// The SHA-256 of the bundle's bytes (hex).
    pub bundle: String,
}

/// What a git signature the lock records was made over: the commit
/// checked out, itself or through a signed tag. `install --frozen` fetches
/// them again and checks they are still signed by the same key (a tag that
/// moved is refused).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSigned {
    /// `ssh` or `openpgp`.
    pub kind: String,
    /// The commit (the one `resolved` pins).
    pub commit: String,
    /// The signed tag's name, when a tag vouched.
    pub tag: Option<String>,
    /// The signed tag object's id, when a tag vouched.
    pub tag_object: Option<String>,
}

/// A minisign signature as the lock keeps it: enough to verify, with the
/// signer's public key, that the key signed the trusted comment (its
/// global signature covers the file signature and the comment).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SignatureRecord {
    /// The signature line: base64 of the algorithm, the key id and the
    /// Ed25519 signature of the signed bytes.
    pub line: String,
    /// The trusted comment, as signed.
    pub comment: String,
    /// The global signature line: base64 of the Ed25519 signature of the
    /// signature and the trusted comment.
    pub global: String,
}

/// What the security scan of a skill found when it was installed, and the
/// findings at or above the gate that were accepted: `install --frozen`
/// refuses a finding at or above its gate that is not in
/// [`LockedScan::allowed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedScan {
    /// The scanner and its version (`skills-scan 0.1.0`).
    pub engine: String,
    /// The gate: the lowest severity that refuses a skill
    /// (`info` … `critical`), or `none`.
    pub fail_on: String,
    /// How many findings of each severity the scan reported (suppressed
    /// ones not counted), accepted or not.
    pub findings: FindingCounts,
    /// The findings at or above the gate that were accepted, as
    /// `CODE:fingerprint` (`SK604:1a2b…`), sorted.
    pub allowed: Vec<String>,
}

/// Findings counted by severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FindingCounts {
    /// `critical` findings.
    pub critical: u64,
    /// `high` findings.
    pub high: u64,
    /// `medium` findings.
    pub medium: u64,
    /// `low` findings.
    pub low: u64,
    /// `info` findings.
    pub info: u64,
}

/// The gate values a lock may record, lowest first, then `none`.
pub const FAIL_ON: [&str; 6] = ["info", "low", "medium", "high", "critical", "none"];

impl FindingCounts {
    /// Each severity's name with its count, highest first.
    pub fn by_name(&self) -> [(&'static str, u64); 5] {
        [
            ("critical", self.critical),
            ("high", self.high),
            ("medium", self.medium),
            ("low", self.low),
            ("info", self.info),
        ]
    }

    /// The count of the severity called `name`, to change it.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut u64> {
        match name {
            "critical" => Some(&mut self.critical),
            "high" => Some(&mut self.high),
            "medium" => Some(&mut self.medium),
            "low" => Some(&mut self.low),
            "info" => Some(&mut self.info),
            _ => None,
        }
    }
}

/// Whether `entry` is an accepted finding as the lock writes one:
/// `CODE:fingerprint`, the code an uppercase letter then uppercase letters
/// and digits, the fingerprint 8 to 64 lowercase hex digits.
pub fn is_allowed_entry(entry: &str) -> bool {
    let Some((code, fingerprint)) = entry.split_once(':') else {
        return false;
    };
    code.len() <= 16
        && code.starts_with(|c: char| c.is_ascii_uppercase())
        && code
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        && (8..=64).contains(&fingerprint.len())
        && fingerprint
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// One file of an installed skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedFile {
    /// Its path in the skill folder, `/`-separated.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// SHA-256 of its content, hex.
    pub sha256: String,
    /// Whether it is installed executable.
    pub executable: bool,
}

impl Lock {
    /// The skill called `name`.
    pub fn get(&self, name: &str) -> Option<&LockedSkill> {
        self.skills
            .binary_search_by(|s| s.name.as_str().cmp(name))
            .ok()
            .and_then(|i| self.skills.get(i))
    }

    /// Adds `skill`, replacing the one of the same name.
    pub fn insert(&mut self, skill: LockedSkill) {
        match self
            .skills
            .binary_search_by(|s| s.name.as_str().cmp(&skill.name))
        {
            Ok(i) => self.skills[i] = skill,
            Err(i) => self.skills.insert(i, skill),
        }
    }

    /// The listing kept for the signed digest `digest` (hex).
    pub fn listing(&self, digest: &str) -> Option<&[String]> {
        self.listings
            .binary_search_by(|(d, _)| d.as_str().cmp(digest))
            .ok()
            .and_then(|i| self.listings.get(i))
            .map(|(_, lines)| lines.as_slice())
    }

    /// Keeps `lines` as the listing of `digest`.
    pub fn keep_listing(&mut self, digest: String, lines: Vec<String>) {
        match self
            .listings
            .binary_search_by(|(d, _)| d.as_str().cmp(&digest))
        {
            Ok(i) => self.listings[i].1 = lines,
            Err(i) => self.listings.insert(i, (digest, lines)),
        }
    }

    /// Drops the listings no skill's signer names.
    pub fn prune_listings(&mut self) {
        let named: std::collections::BTreeSet<&str> = self
            .skills
            .iter()
            .filter_map(|s| s.signer.as_ref()?.digest.as_deref())
            .collect();
        let keep: Vec<bool> = self
            .listings
            .iter()
            .map(|(d, _)| named.contains(d.as_str()))
            .collect();
        let mut keep = keep.into_iter();
        self.listings.retain(|_| keep.next().unwrap_or(false));
    }

    /// Removes the skill called `name`, returning it.
    pub fn remove(&mut self, name: &str) -> Option<LockedSkill> {
        let i = self
            .skills
            .binary_search_by(|s| s.name.as_str().cmp(name))
            .ok()?;
        Some(self.skills.remove(i))
    }
}

impl Resolved {
    /// The `type` written in the lock.
    pub fn kind(&self) -> &'static str {
        match self {
            Resolved::Folder { .. } => "folder",
            Resolved::File { .. } => "file",
            Resolved::Url { .. } => "url",
            Resolved::Git { .. } => "git",
            Resolved::Index { .. } => "index",
            Resolved::Oci { .. } => "oci",
        }
    }

    /// Whether the source is remote: fetched over a network (a signature
    /// is then required by default).
    pub fn is_remote(&self) -> bool {
        !matches!(self, Resolved::Folder { .. } | Resolved::File { .. })
    }

    /// The pin in one line, for messages: `git https://… @ 1a2b3c4`.
    pub fn describe(&self) -> String {
        match self {
            Resolved::Folder { path } => format!("folder {path}"),
            Resolved::File { path, sha256 } => format!("{path} (sha256 {})", short(sha256)),
            Resolved::Url { url, sha256 } => format!("{url} (sha256 {})", short(sha256)),
            Resolved::Git { url, commit, path } => match path {
                Some(p) => format!("{url} at {} in {p}", short(commit)),
                None => format!("{url} at {}", short(commit)),
            },
            Resolved::Index { entry, version, .. } => match version {
                Some(v) => format!("{entry} (version {v})"),
                None => entry.clone(),
            },
            Resolved::Oci {
                reference, digest, ..
            } => format!("{reference}@{digest}"),
        }
    }
}

/// The first 12 characters of a hex id, for messages.
fn short(hex: &str) -> &str {
    hex.get(..12).unwrap_or(hex)
}

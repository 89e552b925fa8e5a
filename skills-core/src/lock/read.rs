//! Reading a lock file: strict, so that a hand edit that would change what
//! `install` fetches is an error naming the place, never a guess.

use std::fmt;

use super::duplicate::first_duplicate;
use super::model::{
    FAIL_ON, FindingCounts, GitSigned, Lock, LockedFile, LockedScan, LockedSkill, Resolved,
    SignatureRecord, Signer, SigstoreSigned, VERSION, is_allowed_entry,
};
use crate::json::{self, Node, Value};

/// Deepest nesting the format has (object → skills → skill → files → file).
const MAX_DEPTH: usize = 8;

/// Why a lock file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
    /// Byte offset in the file.
    pub at: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.at)
    }
}

impl std::error::Error for ParseError {}

fn err(node: &Node, message: impl Into<String>) -> ParseError {
    ParseError {
        message: message.into(),
        at: node.span.start,
    }
}

type Members<'a> = &'a [(String, Node)];

fn object<'a>(node: &'a Node, what: &dyn fmt::Display) -> Result<Members<'a>, ParseError> {
    match &node.value {
        Value::Object(m) => match first_duplicate(m, |(k, _)| k.as_str()) {
            Some((k, v)) => Err(err(v, format!("{what}: `{k}` appears twice"))),
            None => Ok(m),
        },
        _ => Err(err(
            node,
            format!("{what} must be an object, not {}", node.kind()),
        )),
    }
}

fn only(
    members: Members<'_>,
    node: &Node,
    what: &dyn fmt::Display,
    known: &[&str],
) -> Result<(), ParseError> {
    match members.iter().find(|(k, _)| !known.contains(&k.as_str())) {
        Some((k, v)) => Err(err(v, format!("{what}: unknown key `{k}`"))),
        None => {
            let _ = node;
            Ok(())
        }
    }
}

fn field<'a>(members: Members<'a>, key: &str) -> Option<&'a Node> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn string(
    members: Members<'_>,
    node: &Node,
    key: &str,
    what: &dyn fmt::Display,
) -> Result<String, ParseError> {
    match field(members, key) {
        Some(v) => v.as_str().map(str::to_string).ok_or_else(|| {
            err(
                v,
                format!("{what}: `{key}` must be a string, not {}", v.kind()),
            )
        }),
        None => Err(err(node, format!("{what}: `{key}` is missing"))),
    }
}

fn opt_string(members: Members<'_>, key: &str, what: &str) -> Result<Option<String>, ParseError> {
    match field(members, key) {
        None => Ok(None),
        Some(v) => v.as_str().map(|s| Some(s.to_string())).ok_or_else(|| {
            err(
                v,
                format!("{what}: `{key}` must be a string, not {}", v.kind()),
            )
        }),
    }
}

fn number(text: &str, node: &Node, what: &dyn fmt::Display) -> Result<u64, ParseError> {
    let digits = text.get(node.span.clone()).unwrap_or("");
    if !matches!(node.value, Value::Number)
        || digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
    {
        return Err(err(node, format!("{what} must be a whole number")));
    }
    digits
        .parse()
        .map_err(|_| err(node, format!("{what} is too large")))
}

fn hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

pub(super) fn parse(text: &str) -> Result<Lock, ParseError> {
    let root = json::parse(text, MAX_DEPTH).map_err(|e| ParseError {
        message: e.message,
        at: e.at,
    })?;
    let top = object(&root, &"the lock")?;
    let version =
        field(top, "version").ok_or_else(|| err(&root, "the lock: `version` is missing"))?;
    let v = number(text, version, &"`version`")?;
    if !(1..=VERSION).contains(&v) {
        return Err(err(
            version,
            format!(
                "lock format version {v}: this skb reads versions 1 to {VERSION} (a newer skb wrote it?)"
            ),
        ));
    }
    // Version 1 has none of version 2's keys: a lock naming itself 1 is
    // read as one, so that nothing of version 2 is half-trusted.
    let v2 = v >= 2;
    only(
        top,
        &root,
        &"the lock",
        if v2 {
            &["version", "skills", "listings"]
        } else {
            &["version", "skills"]
        },
    )?;
    let skills_node =
        field(top, "skills").ok_or_else(|| err(&root, "the lock: `skills` is missing"))?;
    let mut skills = Vec::new();
    for (name, node) in object(skills_node, &"`skills`")? {
        skills.push(skill(text, name, node, v2)?);
    }
    // Sorted and unique (duplicates were refused above) whatever the order
    // in the file: a hand-merged lock reads the same.
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    let mut listings = Vec::new();
    if let Some(node) = field(top, "listings") {
        for (digest, lines) in object(node, &"`listings`")? {
            if !hex(digest, 64) {
                return Err(err(
                    lines,
                    format!("`listings`: `{digest}` is not a digest (64 lowercase hex digits)"),
                ));
            }
            let Value::Array(items) = &lines.value else {
                return Err(err(
                    lines,
                    format!("`listings`: `{digest}` must be an array of lines"),
                ));
            };
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                match item.as_str() {
                    Some(line) if !line.contains('\n') => out.push(line.to_string()),
                    _ => {
                        return Err(err(
                            item,
                            format!(
                                "`listings`: `{digest}` holds lines (strings without a line end)"
                            ),
                        ));
                    }
                }
            }
            listings.push((digest.clone(), out));
        }
    }
    listings.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Lock { skills, listings })
}

fn skill(text: &str, name: &str, node: &Node, v2: bool) -> Result<LockedSkill, ParseError> {
    let what = format!("skill `{name}`");
    let m = object(node, &what)?;
    const V1: [&str; 9] = [
        "source",
        "resolved",
        "digest",
        "signer",
        "unsigned",
        "profile",
        "scan",
        "installed",
        "files",
    ];
    let v2_keys: Vec<&str> = V1.iter().copied().chain(["origin", "accepted"]).collect();
    only(m, node, &what, if v2 { &v2_keys } else { &V1 })?;
    if name.is_empty() || name.contains(['/', '\\', '\0']) || name == "." || name == ".." {
        return Err(err(node, format!("{what}: not a skill name")));
    }
    let digest = string(m, node, "digest", &what)?;
    if !digest.strip_prefix("sha256:").is_some_and(|h| hex(h, 64)) {
        let at = field(m, "digest").unwrap_or(node);
        return Err(err(
            at,
            format!("{what}: `digest` must be `sha256:` and 64 lowercase hex digits"),
        ));
    }
    let resolved_node =
        field(m, "resolved").ok_or_else(|| err(node, format!("{what}: `resolved` is missing")))?;
    let signer = match field(m, "signer") {
        None => None,
        Some(s) => Some(signer(text, s, &what, v2)?),
    };
    let accepted = match field(m, "accepted") {
        None => Vec::new(),
        Some(n) => strings(n, &format!("{what}: `accepted`"))?,
    };
    let scan = match field(m, "scan") {
        None => None,
        Some(s) => Some(scan(text, s, &what)?),
    };
    let installed = match field(m, "installed") {
        None => return Err(err(node, format!("{what}: `installed` is missing"))),
        Some(n) => match &n.value {
            Value::Array(items) => {
                let mut out = Vec::new();
                for item in items {
                    let p = item.as_str().ok_or_else(|| {
                        err(item, format!("{what}: `installed` holds paths (strings)"))
                    })?;
                    if !install_path(p) {
                        return Err(err(
                            item,
                            format!(
                                "{what}: `{p}` is not a folder inside the project or below `~/`"
                            ),
                        ));
                    }
                    out.push(p.to_string());
                }
                out.sort();
                out.dedup();
                out
            }
            _ => return Err(err(n, format!("{what}: `installed` must be an array"))),
        },
    };
    let files_node =
        field(m, "files").ok_or_else(|| err(node, format!("{what}: `files` is missing")))?;
    let mut files = Vec::new();
    for (path, f) in object(files_node, &format!("{what}: `files`"))? {
        files.push(file(text, path, f, &what)?);
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(LockedSkill {
        name: name.to_string(),
        source: string(m, node, "source", &what)?,
        origin: opt_string(m, "origin", &what)?,
        accepted,
        resolved: resolved(resolved_node, &what)?,
        digest,
        signer,
        unsigned: opt_string(m, "unsigned", &what)?,
        profile: opt_string(m, "profile", &what)?,
        scan,
        installed,
        files,
    })
}

/// An array of strings, sorted and without repeats.
fn strings(node: &Node, what: &str) -> Result<Vec<String>, ParseError> {
    let Value::Array(items) = &node.value else {
        return Err(err(node, format!("{what} must be an array")));
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(
            item.as_str()
                .ok_or_else(|| err(item, format!("{what} holds strings")))?
                .to_string(),
        );
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// A path `installed` may hold: relative, `/`-separated, no `.`/`..`, or
/// the same below `~/`.
fn install_path(p: &str) -> bool {
    let rel = p.strip_prefix("~/").unwrap_or(p);
    crate::path::is_normal(rel)
}

fn signer(text: &str, node: &Node, what: &str, v2: bool) -> Result<Signer, ParseError> {
    let what = format!("{what}: `signer`");
    let m = object(node, &what)?;
    if v2 {
        only(
            m,
            node,
            &what,
            &[
                "key",
                "digest",
                "version",
                "timestamp",
                "signature",
                "git",
                "sigstore",
            ],
        )?;
    } else {
        only(m, node, &what, &["key", "digest", "version", "timestamp"])?;
    }
    let signature = match field(m, "signature") {
        None => None,
        Some(n) => {
            let what = format!("{what}: `signature`");
            let s = object(n, &what)?;
            only(s, n, &what, &["line", "comment", "global"])?;
            Some(SignatureRecord {
                line: string(s, n, "line", &what)?,
                comment: string(s, n, "comment", &what)?,
                global: string(s, n, "global", &what)?,
            })
        }
    };
    let git = match field(m, "git") {
        None => None,
        Some(n) => Some(git_signed(n, &format!("{what}: `git`"))?),
    };
    let sigstore = match field(m, "sigstore") {
        None => None,
        Some(n) => Some(sigstore_signed(text, n, &format!("{what}: `sigstore`"))?),
    };
    let key = string(m, node, "key", &what)?;
    let upper_hex = |k: &str, n: usize| {
        k.len() == n && k.bytes().all(|b| matches!(b, b'0'..=b'9' | b'A'..=b'F'))
    };
    let key_ok = match git.as_ref().map(|g| g.kind.as_str()) {
        None if sigstore.is_some() => key
            .strip_prefix("sigstore:")
            .is_some_and(|k| upper_hex(k, 16)),
        None => upper_hex(&key, 16),
        Some("ssh") => key.strip_prefix("SHA256:").is_some_and(|b| {
            b.len() == 43
                && b.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
        }),
        _ => upper_hex(&key, 40),
    };
    if !key_ok {
        return Err(err(
            node,
            format!(
                "{what}: `key` must be 16 uppercase hex digits (minisign), `SHA256:` and 43 \
                 base64 digits (an SSH key's, with `git`), 40 uppercase hex digits (an \
                 OpenPGP fingerprint, with `git`) or `sigstore:` and 16 uppercase hex digits \
                 (with `sigstore`)"
            ),
        ));
    }
    if git.is_some() && (signature.is_some() || field(m, "digest").is_some()) {
        return Err(err(
            node,
            format!("{what}: a git signature keeps no `signature` or `digest`"),
        ));
    }
    if sigstore.is_some() && (signature.is_some() || git.is_some() || field(m, "digest").is_none())
    {
        return Err(err(
            node,
            format!(
                "{what}: a Sigstore signature keeps the archive's `digest`, and no `signature` \
                 or `git`"
            ),
        ));
    }
    let timestamp = match field(m, "timestamp") {
        None => None,
        Some(t) => Some(number(text, t, &format!("{what}: `timestamp`"))?),
    };
    let digest = opt_string(m, "digest", &what)?;
    if digest.as_deref().is_some_and(|d| !hex(d, 64)) {
        return Err(err(
            node,
            format!("{what}: `digest` must be 64 lowercase hex digits"),
        ));
    }
    Ok(Signer {
        key,
        digest,
        version: opt_string(m, "version", &what)?,
        timestamp,
        signature,
        git,
        sigstore,
    })
}

/// A signer's `sigstore` record: `identity`, `issuer`, `log_index`,
/// `integrated_time` and the bundle's digest, `bundle`.
fn sigstore_signed(text: &str, node: &Node, what: &str) -> Result<SigstoreSigned, ParseError> {
    let m = object(node, &what)?;
    only(
        m,
        node,
        &what,
        &[
            "identity",
            "issuer",
            "log_index",
            "integrated_time",
            "bundle",
        ],
    )?;
    let number_of = |key: &str| match field(m, key) {
        Some(n) => number(text, n, &format!("{what}: `{key}`")),
        None => Err(err(node, format!("{what}: `{key}` is missing"))),
    };
    let record = SigstoreSigned {
        identity: string(m, node, "identity", &what)?,
        issuer: string(m, node, "issuer", &what)?,
        log_index: number_of("log_index")?,
        integrated_time: number_of("integrated_time")?,
        bundle: string(m, node, "bundle", &what)?,
    };
    let printable = |s: &str| !s.is_empty() && !s.chars().any(char::is_control);
    if !hex(&record.bundle, 64) || !printable(&record.identity) || !printable(&record.issuer) {
        return Err(err(
            node,
            format!(
                "{what}: `bundle` must be 64 lowercase hex digits, `identity` and `issuer` \
                 printable text"
            ),
        ));
    }
    Ok(record)
}

/// A signer's `git` record: `kind`, `commit`, and `tag` with `tag_object`
/// or neither.
fn git_signed(node: &Node, what: &str) -> Result<GitSigned, ParseError> {
    let m = object(node, &what)?;
    only(m, node, &what, &["kind", "commit", "tag", "tag_object"])?;
    let kind = string(m, node, "kind", &what)?;
    if kind != "ssh" && kind != "openpgp" {
        return Err(err(
            node,
            format!("{what}: `kind` must be `ssh` or `openpgp`"),
        ));
    }
    let object_id = |id: &str| hex(id, 40) || hex(id, 64);
    let commit = string(m, node, "commit", &what)?;
    let tag = opt_string(m, "tag", what)?;
    let tag_object = opt_string(m, "tag_object", what)?;
    if !object_id(&commit)
        || tag.is_some() != tag_object.is_some()
        || tag_object.as_deref().is_some_and(|t| !object_id(t))
        || tag
            .as_deref()
            .is_some_and(|t| t.is_empty() || t.len() > 255)
    {
        return Err(err(
            node,
            format!(
                "{what}: `commit` and `tag_object` must be object ids (40 or 64 lowercase hex \
                 digits), and `tag` is given with `tag_object` or not at all"
            ),
        ));
    }
    Ok(GitSigned {
        kind,
        commit,
        tag,
        tag_object,
    })
}

fn scan(text: &str, node: &Node, what: &str) -> Result<LockedScan, ParseError> {
    let what = format!("{what}: `scan`");
    let m = object(node, &what)?;
    only(
        m,
        node,
        &what,
        &["engine", "fail_on", "findings", "allowed"],
    )?;
    let engine = string(m, node, "engine", &what)?;
    let fail_on = string(m, node, "fail_on", &what)?;
    if !FAIL_ON.contains(&fail_on.as_str()) {
        let at = field(m, "fail_on").unwrap_or(node);
        return Err(err(
            at,
            format!("{what}: `fail_on` must be one of {}", FAIL_ON.join(", ")),
        ));
    }
    let counts_node =
        field(m, "findings").ok_or_else(|| err(node, format!("{what}: `findings` is missing")))?;
    let mut findings = FindingCounts::default();
    for (severity, count) in object(counts_node, &format!("{what}: `findings`"))? {
        let n = number(text, count, &format!("{what}: `findings`: `{severity}`"))?;
        match findings.get_mut(severity) {
            Some(slot) => *slot = n,
            None => {
                return Err(err(
                    count,
                    format!(
                        "{what}: `findings`: unknown severity `{severity}` (critical, high, medium, low or info)"
                    ),
                ));
            }
        }
    }
    let allowed = match field(m, "allowed") {
        None => return Err(err(node, format!("{what}: `allowed` is missing"))),
        Some(n) => match &n.value {
            Value::Array(items) => {
                let mut out = Vec::new();
                for item in items {
                    match item.as_str() {
                        Some(a) if is_allowed_entry(a) => out.push(a.to_string()),
                        _ => {
                            return Err(err(
                                item,
                                format!(
                                    "{what}: `allowed` holds findings as `CODE:fingerprint` (`SK604:` and lowercase hex)"
                                ),
                            ));
                        }
                    }
                }
                out.sort();
                out.dedup();
                out
            }
            _ => return Err(err(n, format!("{what}: `allowed` must be an array"))),
        },
    };
    Ok(LockedScan {
        engine,
        fail_on,
        findings,
        allowed,
    })
}

/// What a file entry is called in messages (`skill `pdf`: file `a.md``),
/// written only when there is a message: a lock may hold 100,000 files.
struct FileEntry<'a> {
    skill: &'a str,
    path: &'a str,
}

impl fmt::Display for FileEntry<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: file `{}`", self.skill, self.path)
    }
}

fn file(text: &str, path: &str, node: &Node, skill: &str) -> Result<LockedFile, ParseError> {
    let what = FileEntry { skill, path };
    if !crate::path::is_normal(path) {
        return Err(err(
            node,
            format!("{what}: not a relative path inside the skill"),
        ));
    }
    let m = object(node, &what)?;
    only(m, node, &what, &["size", "sha256", "executable"])?;
    let size_node =
        field(m, "size").ok_or_else(|| err(node, format!("{what}: `size` is missing")))?;
    let sha256 = string(m, node, "sha256", &what)?;
    if !hex(&sha256, 64) {
        return Err(err(
            node,
            format!("{what}: `sha256` must be 64 lowercase hex digits"),
        ));
    }
    let executable = match field(m, "executable") {
        None => false,
        Some(e) => e
            .as_bool()
            .ok_or_else(|| err(e, format!("{what}: `executable` must be true or false")))?,
    };
    Ok(LockedFile {
        path: path.to_string(),
        size: number(text, size_node, &format_args!("{what}: `size`"))?,
        sha256,
        executable,
    })
}

fn resolved(node: &Node, what: &str) -> Result<Resolved, ParseError> {
    let what = format!("{what}: `resolved`");
    let m = object(node, &what)?;
    let kind = string(m, node, "type", &what)?;
    let s = |key: &str| string(m, node, key, &what);
    let o = |key: &str| opt_string(m, key, &what);
    let sha = |key: &str| -> Result<String, ParseError> {
        let v = s(key)?;
        if hex(&v, 64) {
            Ok(v)
        } else {
            Err(err(
                node,
                format!("{what}: `{key}` must be 64 lowercase hex digits"),
            ))
        }
    };
    let (r, keys): (Resolved, &[&str]) = match kind.as_str() {
        "folder" => (Resolved::Folder { path: s("path")? }, &["type", "path"]),
        "file" => (
            Resolved::File {
                path: s("path")?,
                sha256: sha("sha256")?,
            },
            &["type", "path", "sha256"],
        ),
        "url" => (
            Resolved::Url {
                url: s("url")?,
                sha256: sha("sha256")?,
            },
            &["type", "url", "sha256"],
        ),
        "git" => {
            let commit = s("commit")?;
            if !(hex(&commit, 40) || hex(&commit, 64)) {
                return Err(err(
                    node,
                    format!("{what}: `commit` must be a full commit id"),
                ));
            }
            let path = o("path")?;
            if path.as_deref().is_some_and(|p| !crate::path::is_normal(p)) {
                return Err(err(node, format!("{what}: `path` must be a relative path")));
            }
            (
                Resolved::Git {
                    url: s("url")?,
                    commit,
                    path,
                },
                &["type", "url", "commit", "path"],
            )
        }
        "index" => (
            Resolved::Index {
                url: s("url")?,
                entry: s("entry")?,
                version: o("version")?,
                sha256: sha("sha256")?,
            },
            &["type", "url", "entry", "version", "sha256"],
        ),
        "oci" => {
            let digest = s("digest")?;
            if !digest.strip_prefix("sha256:").is_some_and(|h| hex(h, 64)) {
                return Err(err(
                    node,
                    format!("{what}: `digest` must be `sha256:` and 64 hex digits"),
                ));
            }
            (
                Resolved::Oci {
                    reference: s("reference")?,
                    tag: o("tag")?,
                    digest,
                },
                &["type", "reference", "tag", "digest"],
            )
        }
        other => {
            return Err(err(
                node,
                format!("{what}: unknown type `{other}` (folder, file, url, git, index or oci)"),
            ));
        }
    };
    only(m, node, &what, keys)?;
    Ok(r)
}

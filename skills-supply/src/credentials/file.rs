//! The user's credentials file, `credentials.json` beside the user's trust
//! file (`$XDG_CONFIG_HOME/skb/`, else `~/.config/skb/`):
//!
//! ```json
//! {
//!   "version": 1,
//!   "hosts": {
//!     "https://skills.example.com": { "token": "…" },
//!     "pkgs.example.com:8443": { "username": "ci", "password": "…" }
//!   }
//! }
//! ```
//!
//! Each key is an origin (`[scheme://]host[:port]`, see [`Origin`]); each
//! value a bearer `token`, or a `username` and `password`. Unknown fields,
//! a key that is not an origin, one origin written twice, or an entry with
//! neither or both kinds are errors naming the file, and never quoting a
//! value: JSON errors give only the line and column. There is no project
//! credentials file: a project's files are committed, secrets are not.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::auth::Auth;
use super::origin::Origin;
use super::secret::Secret;

/// The file's name, in skb's configuration folder.
pub const FILE_NAME: &str = "credentials.json";
/// The largest credentials file read.
const MAX_FILE: u64 = 1 << 20;

/// The user's credentials file (`None` without `XDG_CONFIG_HOME` or `HOME`).
pub fn user_file() -> Option<PathBuf> {
    crate::trust::user_file().map(|trust| trust.with_file_name(FILE_NAME))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    version: u32,
    #[serde(default)]
    hosts: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    token: Option<String>,
    username: Option<String>,
    password: Option<String>,
}

/// The entries of the file at `path`; none when it does not exist.
pub(crate) fn load(path: &Path) -> Result<Vec<(Origin, Auth)>, String> {
    let bytes = match skills_core::fsread::read_file(path, MAX_FILE) {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => return Ok(Vec::new()),
        Err(e) => return Err(e.reason.to_string()),
    };
    parse(&bytes)
}

fn parse(bytes: &[u8]) -> Result<Vec<(Origin, Auth)>, String> {
    let doc: Document = serde_json::from_slice(bytes).map_err(|e| {
        format!(
            "not a credentials file (line {}, column {}; see GUIDE.md, \"Private sources\")",
            e.line(),
            e.column()
        )
    })?;
    if doc.version != 1 {
        return Err(format!("version {} is not 1", doc.version));
    }
    let mut entries: Vec<(Origin, Auth)> = Vec::new();
    for (key, entry) in doc.hosts {
        let origin = Origin::parse(&key)
            .ok_or_else(|| format!("`{key}` is not an origin (`[https://]host[:port]`)"))?;
        if entries.iter().any(|(o, _)| *o == origin) {
            return Err(format!("`{origin}` is given twice"));
        }
        let auth = match (entry.token, entry.username, entry.password) {
            (Some(token), None, None) => Auth::Bearer(Secret::new(token)),
            (None, Some(username), Some(password)) => Auth::Basic {
                username,
                password: Secret::new(password),
            },
            _ => {
                return Err(format!(
                    "`{key}`: give a `token`, or a `username` and a `password`"
                ));
            }
        };
        if auth.is_empty() {
            return Err(format!("`{key}`: the credential is empty"));
        }
        entries.push((origin, auth));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_passwords_by_origin() {
        let got = parse(
            br#"{"version":1,"hosts":{"https://a.example":{"token":"t"},
                 "b.example:8443":{"username":"u","password":"p"}}}"#,
        )
        .unwrap();
        let of = |o: &str| {
            let o = Origin::parse(o).unwrap();
            got.iter().find(|(k, _)| *k == o).map(|(_, a)| a.clone())
        };
        assert_eq!(got.len(), 2);
        assert_eq!(of("a.example"), Some(Auth::Bearer(Secret::new("t"))));
        let basic = Auth::Basic {
            username: "u".into(),
            password: Secret::new("p"),
        };
        assert_eq!(of("https://b.example:8443"), Some(basic));
    }

    #[test]
    fn refusals_never_quote_a_secret() {
        for (text, why) in [
            (
                r#"{"version":1,"hosts":{"a":{"token":"s3cret","password":"x"}}}"#,
                "give a",
            ),
            (
                r#"{"version":1,"hosts":{"a/b":{"token":"s3cret"}}}"#,
                "not an origin",
            ),
            (
                r#"{"version":1,"hosts":{"a":{"token":"s3cret","extra":1}}}"#,
                "line 1",
            ),
            (
                r#"{"version":1,"hosts":{"a":{"token":["s3cret"]}}}"#,
                "line 1",
            ),
            (
                r#"{"version":1,"hosts":{"a":{"token":"s3cret"},"A.":{"token":"s3cret"}}}"#,
                "twice",
            ),
            (r#"{"version":2,"hosts":{}}"#, "version 2"),
        ] {
            let e = parse(text.as_bytes()).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
            assert!(!e.contains("s3cret"), "{text}: {e}");
        }
    }
}

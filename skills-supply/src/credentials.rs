//! Who we are to an HTTPS server: credentials per origin (scheme, host and
//! port), found where curl, git, uv and Deno users keep them, and the
//! [`Secret`] type that keeps them out of every message.
//!
//! # Where they come from, first match wins
//!
//! 1. `SKB_AUTH`, one variable listing `token@host` and `user:password@host`
//!    entries (`env.rs`): CI fills it from its secrets store.
//! 2. The user's `credentials.json` in skb's configuration folder
//!    (`file.rs`), keyed by origin.
//! 3. `.netrc` (`$NETRC`, else `~/.netrc`; `netrc.rs`): a `machine` entry
//!    for the host (any port), else its `default` entry.
//!
//! Why one variable naming its hosts rather than one variable per host
//! (`SKB_TOKEN_<HOST>`): a host cannot be spelled in a variable's name
//! without a lossy mapping (`my-host.com` and `my.host.com` would meet in
//! `MY_HOST_COM`, and a port has no place), while a list keeps the exact
//! origin beside its secret, as `DENO_AUTH_TOKENS` does; cargo's and uv's
//! per-name variables (`CARGO_REGISTRIES_<NAME>_TOKEN`,
//! `UV_INDEX_<NAME>_PASSWORD`) need a registry name we do not have for a
//! URL typed on the command line.
//!
//! # What is never done
//!
//! A credential is looked up for the origin of the URL asked for, and sent
//! only to that origin: a redirect to another scheme, host or port is
//! followed without it ([`crate::http`]). It is sent over `https://`, or
//! over `http://` only to a loopback host; never in plain text elsewhere,
//! whatever `allow_http` says. It is never printed: [`Secret`] redacts
//! itself, errors name the origin and where the credential came from, and
//! no credential is written to a lock or any other file. Git's own
//! credential helpers are git's business: `git` runs them as it always does.
//! OCI registries have their own order (`oci::Credentials`): the
//! `SKB_REGISTRY_*` variables, then `SKB_AUTH` and the credentials file
//! ([`HostCredentials::ambient_listed`], no `.netrc`), then Docker's config
//! and credential helpers; they share [`Secret`].

mod auth;
mod env;
mod file;
mod netrc;
mod origin;
mod secret;

use std::fmt;
use std::path::{Path, PathBuf};

use url::Url;

pub use auth::Auth;
pub use env::ENV_AUTH;
pub use file::{FILE_NAME, user_file};
pub use origin::Origin;
pub use secret::Secret;

/// The largest `.netrc` read.
const MAX_NETRC: u64 = 1 << 20;

/// Where a credential was found, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The `SKB_AUTH` variable.
    Env,
    /// The user's credentials file.
    File(PathBuf),
    /// A `.netrc`.
    Netrc(PathBuf),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Env => write!(f, "`{ENV_AUTH}`"),
            Source::File(path) | Source::Netrc(path) => write!(f, "`{}`", path.display()),
        }
    }
}

/// Why credentials could not be read; names the variable or file, never a
/// secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CredentialsError {
    /// The variable or file.
    pub source: Source,
    /// What is wrong with it.
    pub why: String,
}

impl fmt::Display for CredentialsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read credentials from {}: {}",
            self.source, self.why
        )
    }
}

impl std::error::Error for CredentialsError {}

/// Credentials per origin, in the order they are looked up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostCredentials {
    listed: Vec<(Origin, Auth, Source)>,
    netrc: Vec<netrc::Machine>,
    netrc_path: PathBuf,
}

/// Which credentials a download uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum HostAuth {
    /// Those of the environment ([`HostCredentials::ambient`]), read at
    /// each download.
    #[default]
    Ambient,
    /// These (empty: none).
    Given(HostCredentials),
}

impl HostAuth {
    /// The credentials this stands for.
    pub(crate) fn resolve(&self) -> Result<HostCredentials, CredentialsError> {
        match self {
            HostAuth::Ambient => HostCredentials::ambient(),
            HostAuth::Given(given) => Ok(given.clone()),
        }
    }
}

/// `SKB_AUTH`'s value, if set.
fn env_auth() -> Result<Option<String>, CredentialsError> {
    match std::env::var(ENV_AUTH) {
        Ok(value) => Ok(Some(value)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(CredentialsError {
            source: Source::Env,
            why: "not UTF-8".into(),
        }),
    }
}

impl HostCredentials {
    /// The environment's: `SKB_AUTH`, the user's credentials file
    /// ([`user_file`]), and `$NETRC` (else `~/.netrc`; `NETRC` set empty
    /// reads none).
    pub fn ambient() -> Result<HostCredentials, CredentialsError> {
        let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
        let netrc = match std::env::var_os("NETRC") {
            Some(path) if path.is_empty() => None,
            Some(path) => Some(PathBuf::from(path)),
            None => var("HOME").map(|home| Path::new(&home).join(".netrc")),
        };
        HostCredentials::load(
            env_auth()?.as_deref(),
            user_file().as_deref(),
            netrc.as_deref(),
        )
    }

    /// What registries read ([`crate::oci`]): `SKB_AUTH` and the user's
    /// credentials file, no `.netrc` (Docker and ORAS read none, and its
    /// `default` entry would go to every registry).
    pub fn ambient_listed() -> Result<HostCredentials, CredentialsError> {
        HostCredentials::load(env_auth()?.as_deref(), user_file().as_deref(), None)
    }

    /// From `SKB_AUTH`'s value, a credentials file and a `.netrc`, each
    /// optional; a file that does not exist holds none.
    pub fn load(
        auth: Option<&str>,
        file: Option<&Path>,
        netrc: Option<&Path>,
    ) -> Result<HostCredentials, CredentialsError> {
        let mut listed = Vec::new();
        if let Some(value) = auth {
            let entries = env::parse(value).map_err(|why| CredentialsError {
                source: Source::Env,
                why,
            })?;
            listed.extend(entries.into_iter().map(|(o, a)| (o, a, Source::Env)));
        }
        if let Some(path) = file {
            let source = Source::File(path.to_path_buf());
            let entries = file::load(path).map_err(|why| CredentialsError {
                source: source.clone(),
                why,
            })?;
            listed.extend(entries.into_iter().map(|(o, a)| (o, a, source.clone())));
        }
        let mut machines = Vec::new();
        let mut netrc_path = PathBuf::new();
        if let Some(path) = netrc {
            let bad = |why: String| CredentialsError {
                source: Source::Netrc(path.to_path_buf()),
                why,
            };
            match skills_core::fsread::read_file(path, MAX_NETRC) {
                Ok(bytes) => {
                    let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8".into()))?;
                    machines = netrc::parse(&text).map_err(bad)?;
                    netrc_path = path.to_path_buf();
                }
                Err(e) if e.is_not_found() => {}
                Err(e) => return Err(bad(e.reason.to_string())),
            }
        }
        Ok(HostCredentials {
            listed,
            netrc: machines,
            netrc_path,
        })
    }

    /// The credential for `url`'s origin, and where it was found.
    pub fn for_url(&self, url: &Url) -> Option<(Auth, Source)> {
        let origin = Origin::of(url)?;
        if let Some((_, auth, source)) = self.listed.iter().find(|(o, _, _)| *o == origin) {
            return Some((auth.clone(), source.clone()));
        }
        netrc::lookup(&self.netrc, origin.host()).map(|m| {
            let auth = Auth::Basic {
                username: m.login.clone(),
                password: m.password.clone(),
            };
            (auth, Source::Netrc(self.netrc_path.clone()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn the_variable_then_the_file_then_netrc() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(FILE_NAME);
        std::fs::write(
            &file,
            r#"{"version":1,"hosts":{"a.example":{"token":"from-file"},"b.example":{"token":"b"}}}"#,
        )
        .unwrap();
        let netrc = dir.path().join("netrc");
        std::fs::write(
            &netrc,
            "machine b.example login n password nb\nmachine c.example login n password nc\n\
             default login d password dd\n",
        )
        .unwrap();
        let creds =
            HostCredentials::load(Some("from-env@a.example"), Some(&file), Some(&netrc)).unwrap();
        let got = |u: &str| creds.for_url(&url(u));
        assert_eq!(
            got("https://a.example/x"),
            Some((Auth::Bearer(Secret::new("from-env")), Source::Env))
        );
        assert_eq!(
            got("https://b.example/x").map(|(a, _)| a),
            Some(Auth::Bearer(Secret::new("b")))
        );
        let basic = |u: &str, p: &str| Auth::Basic {
            username: u.into(),
            password: Secret::new(p),
        };
        assert_eq!(
            got("https://c.example:8443/x"),
            Some((basic("n", "nc"), Source::Netrc(netrc.clone())))
        );
        assert_eq!(
            got("https://z.example/").map(|(a, _)| a),
            Some(basic("d", "dd"))
        );
        // The variable's and the file's entries are for one port.
        assert_eq!(
            got("https://a.example:8443/x").map(|(a, _)| a),
            Some(basic("d", "dd"))
        );
        assert_eq!(got("ftp://a.example/x"), None);
    }

    #[test]
    fn missing_files_hold_nothing_and_broken_ones_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let none = HostCredentials::load(
            None,
            Some(&dir.path().join("no.json")),
            Some(&dir.path().join("no-netrc")),
        )
        .unwrap();
        assert_eq!(none, HostCredentials::default());
        let netrc = dir.path().join("netrc");
        std::fs::write(&netrc, "machine a password \"s3cret").unwrap();
        let e = HostCredentials::load(None, None, Some(&netrc))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("netrc") && e.contains("line 1") && !e.contains("s3cret"),
            "{e}"
        );
        let e = HostCredentials::load(Some("s3cret"), None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains(ENV_AUTH) && !e.contains("s3cret"), "{e}");
    }

    #[test]
    fn headers_and_debug() {
        let basic = Auth::Basic {
            username: "u".into(),
            password: Secret::new("p"),
        };
        assert_eq!(basic.header(), "Basic dTpw");
        assert_eq!(Auth::Bearer(Secret::new("t")).header(), "Bearer t");
        let creds = HostCredentials::load(Some("s3cret@a;u:pw0rd@b"), None, None).unwrap();
        let shown = format!("{creds:?} {:?}", creds.for_url(&url("https://b/")));
        assert!(
            !shown.contains("s3cret") && !shown.contains("pw0rd"),
            "{shown}"
        );
    }
}

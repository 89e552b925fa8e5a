//! Who we are to a registry: the credentials Docker and ORAS users already
//! have (`SKB_REGISTRY_*` environment variables, then `auths` in
//! `$DOCKER_CONFIG/config.json` or `~/.docker/config.json`), each for the
//! one registry host it was configured for, and the `WWW-Authenticate`
//! challenges a registry answers with (`Basic`, or `Bearer` with a token
//! `realm`).
//!
//! # Scoped to a host
//!
//! Credentials found in the environment or a Docker config are used only
//! for the registry they name, compared in one canonical form
//! ([`canonical_host`]): the host as the URL standard reads it (lowercase,
//! IDNA, an IPv4 address in dotted decimal in any of its spellings, IPv6
//! compressed in brackets), one trailing dot dropped, port 443 (the port
//! `https://` implies) dropped and any other port kept. Docker Hub's names
//! (`docker.io`, `index.docker.io`, `registry-1.docker.io`) are one
//! registry. The environment's credentials need `SKB_REGISTRY_HOST`;
//! without it, or for another registry, they are not sent, and a `401`
//! says so. A Docker config key is a host, optionally with `http://` or
//! `https://` before it and Docker's own `/`, `/v1/` or `/v2/` after it;
//! any other path (a key for a namespace, or a URL that merely contains
//! the registry's name) matches no registry.
//!
//! # skb's own credentials
//!
//! After the `SKB_REGISTRY_*` variables and before the Docker config,
//! `SKB_AUTH` and the user's `credentials.json` ([`crate::credentials`])
//! are read for the registry's origin (`https://host[:port]`, or
//! `http://` for a loopback registry), so one entry serves a host's HTTPS
//! sources and its registry. `.netrc` is not: Docker and ORAS read none,
//! and its `default` entry would go to every registry.
//!
//! # Docker's credential helpers
//!
//! As Docker reads its config: a `credHelpers` entry for the registry
//! (keys matched as `auths` keys are) names the helper to run; else
//! `credsStore` names the one for every registry; else `auths` is read.
//! The helper is run as `helper.rs` says; its "not found" is anonymous,
//! as in Docker, and any other failure an error naming it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use url::Url;

use super::OciError;
use super::env::{ENV_HOST, ENV_PASSWORD, ENV_TOKEN, ENV_USERNAME};
use super::helper;
use crate::credentials::{Auth, HostCredentials, Secret as Hidden};

/// Where credentials come from. `Debug` shows no password or token.
#[derive(Clone, Default, PartialEq, Eq)]
pub enum Credentials {
    /// For the registry `SKB_REGISTRY_HOST` names: `SKB_REGISTRY_TOKEN`,
    /// else `SKB_REGISTRY_USERNAME` and `SKB_REGISTRY_PASSWORD`; for any
    /// registry, its entry in the Docker config in `$DOCKER_CONFIG` (or
    /// `~/.docker`); else anonymous.
    #[default]
    Ambient,
    /// The Docker config in this folder (`<folder>/config.json`), else anonymous.
    DockerConfig(PathBuf),
    /// A user name and password (or access token).
    Basic {
        /// The user name.
        username: String,
        /// The password or access token.
        password: String,
    },
    /// A bearer token, sent as is.
    Bearer(String),
    /// No credentials.
    Anonymous,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Ambient => f.write_str("Ambient"),
            Credentials::DockerConfig(path) => f.debug_tuple("DockerConfig").field(path).finish(),
            Credentials::Basic { username, .. } => f
                .debug_struct("Basic")
                .field("username", username)
                .field("password", &Hidden::default())
                .finish(),
            Credentials::Bearer(_) => f.debug_tuple("Bearer").field(&Hidden::default()).finish(),
            Credentials::Anonymous => f.write_str("Anonymous"),
        }
    }
}

/// What the registry is told, once resolved for one host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Secret {
    Basic {
        username: String,
        password: Hidden,
    },
    /// A refresh token (Docker's `identitytoken`) traded for an access token.
    Identity(Hidden),
    Bearer(Hidden),
    None,
}

impl Secret {
    /// `Basic <base64(user:password)>`, for basic challenges and token requests.
    pub(crate) fn basic_header(&self) -> Option<String> {
        match self {
            Secret::Basic { username, password } => Some(format!(
                "Basic {}",
                STANDARD.encode(format!("{username}:{}", password.expose()))
            )),
            _ => None,
        }
    }
}

/// What is sent to one registry, and why credentials set in the
/// environment were not (for the message of a `401`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Identity {
    pub(crate) secret: Secret,
    pub(crate) withheld: Option<String>,
}

/// The largest Docker config read (they hold a few entries).
const CONFIG_MAX: u64 = 1 << 20;

/// Resolves `credentials` for `registry` (`host[:port]`, spoken to at
/// `origin`'s scheme); `env` reads an environment variable (a parameter so
/// tests need not change the process's). Credentials given by the caller
/// are for this registry; those found in the environment, skb's
/// credentials or the Docker config only for the host they name.
pub(crate) fn resolve(
    credentials: &Credentials,
    registry: &str,
    origin: &Url,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Identity, OciError> {
    let given = |secret| {
        Ok(Identity {
            secret,
            withheld: None,
        })
    };
    match credentials {
        Credentials::Anonymous => given(Secret::None),
        Credentials::Bearer(token) => given(Secret::Bearer(Hidden::new(token.clone()))),
        Credentials::Basic { username, password } => given(Secret::Basic {
            username: username.clone(),
            password: Hidden::new(password.clone()),
        }),
        Credentials::DockerConfig(folder) => given(from_docker_config(folder, registry, env)?),
        Credentials::Ambient => {
            let (from_env, withheld) = from_env(registry, env);
            if let Some(secret) = from_env {
                return given(secret);
            }
            if let Some(secret) = from_skb(origin)? {
                return Ok(Identity { secret, withheld });
            }
            let folder = env("DOCKER_CONFIG")
                .map(PathBuf::from)
                .or_else(|| env("HOME").map(|home| Path::new(&home).join(".docker")));
            let secret = match folder {
                Some(folder) => from_docker_config(&folder, registry, env)?,
                None => Secret::None,
            };
            Ok(Identity { secret, withheld })
        }
    }
}

/// The environment's credentials when `SKB_REGISTRY_HOST` names
/// `registry`; otherwise none, and, when some are set, why they are not
/// sent.
fn from_env(
    registry: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> (Option<Secret>, Option<String>) {
    let token = env(ENV_TOKEN).filter(|t| !t.is_empty());
    let basic = match (env(ENV_USERNAME), env(ENV_PASSWORD)) {
        (Some(username), Some(password)) => Some(Secret::Basic {
            username,
            password: Hidden::new(password),
        }),
        _ => None,
    };
    let (secret, names) = match (token, basic) {
        (Some(token), _) => (Secret::Bearer(Hidden::new(token)), ENV_TOKEN.to_owned()),
        (None, Some(basic)) => (basic, format!("{ENV_USERNAME}` and `{ENV_PASSWORD}")),
        (None, None) => return (None, None),
    };
    let wanted = canonical_host(registry);
    let configured = env(ENV_HOST).filter(|h| !h.trim().is_empty());
    let why = match configured.as_deref().map(|h| (h, key_host(h.trim()))) {
        Some((_, Some(host))) if Some(&host) == wanted.as_ref() => return (Some(secret), None),
        Some((_, Some(host))) => format!("it names `{host}`, not `{registry}`"),
        Some((written, None)) => format!("`{written}` is not a `host[:port]`"),
        None => "it is not set".to_owned(),
    };
    let withheld = format!(
        "the credentials in `{names}` were not sent: they go only to the registry \
         `{ENV_HOST}` names, and {why}"
    );
    (None, Some(withheld))
}

/// skb's own credential for the registry at `origin`: `SKB_AUTH`, then the
/// user's `credentials.json` (not `.netrc`: see
/// [`HostCredentials::ambient_listed`]).
fn from_skb(origin: &Url) -> Result<Option<Secret>, OciError> {
    let listed = HostCredentials::ambient_listed().map_err(OciError::HostCredentials)?;
    Ok(listed.for_url(origin).map(|(auth, _)| match auth {
        Auth::Bearer(token) => Secret::Bearer(token),
        Auth::Basic { username, password } => Secret::Basic { username, password },
    }))
}

/// `host[:port]` in the one form registries are compared in (see the
/// module doc), or `None` when `text` is not a bare host and port.
pub(crate) fn canonical_host(text: &str) -> Option<String> {
    let url = Url::parse(&format!("https://{text}/")).ok()?;
    let bare = url.path() == "/"
        && url.username().is_empty()
        && url.password().is_none()
        && url.query().is_none()
        && url.fragment().is_none();
    let host = url.host_str()?;
    let host = host.strip_suffix('.').unwrap_or(host);
    if !bare || host.is_empty() {
        return None;
    }
    let host = match host {
        "index.docker.io" | "registry-1.docker.io" => "docker.io",
        other => other,
    };
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    })
}

/// The registry a Docker config key is for: a host, optionally with
/// `http://` or `https://` before it and `/`, `/v1/` or `/v2/` after it
/// (what `docker login` writes); `None` for any other key.
fn key_host(key: &str) -> Option<String> {
    let lower = key.to_ascii_lowercase();
    let bare = ["https://", "http://"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme).map(|_| &key[scheme.len()..]))
        .unwrap_or(key);
    let (host, path) = bare.split_once('/').unwrap_or((bare, ""));
    if !matches!(path, "" | "v1" | "v1/" | "v2" | "v2/") {
        return None;
    }
    canonical_host(host)
}

/// What `<folder>/config.json` gives `registry`: the answer of its
/// credential helper (`credHelpers`, else `credsStore`), else
/// `auths.<registry>`: `auth` (base64 of `user:password`, or of
/// `<token>:…` with an `identitytoken`), or `username`/`password`. A
/// missing file or entry is anonymous; a helper is found on `env`'s `PATH`.
fn from_docker_config(
    folder: &Path,
    registry: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Secret, OciError> {
    let path = folder.join("config.json");
    let bad = |why: String| OciError::Credentials {
        path: path.clone(),
        why,
    };
    let text = match skills_core::fsread::read_file(&path, CONFIG_MAX) {
        Ok(text) => text,
        Err(e) if e.is_not_found() => return Ok(Secret::None),
        Err(e) => return Err(bad(e.reason.to_string())),
    };
    let config: DockerConfig =
        serde_json::from_slice(&text).map_err(|e| bad(format!("not a Docker config: {e}")))?;
    let helper = lookup(&config.cred_helpers, registry).or(config.creds_store.as_ref());
    if let Some(name) = helper {
        // Docker asks its helpers about Docker Hub by the v1 index URL.
        let server = match canonical_host(registry).as_deref() {
            Some("docker.io") => "https://index.docker.io/v1/",
            _ => registry,
        };
        return Ok(
            match helper::get(name, server, env("PATH").as_deref()).map_err(bad)? {
                Some((username, secret)) if username == "<token>" => Secret::Identity(secret),
                Some((username, password)) => Secret::Basic { username, password },
                None => Secret::None,
            },
        );
    }
    let Some(entry) = lookup(&config.auths, registry) else {
        return Ok(Secret::None);
    };
    if let Some(token) = entry.identitytoken.as_ref().filter(|t| !t.is_empty()) {
        return Ok(Secret::Identity(Hidden::new(token.clone())));
    }
    if let Some(auth) = entry.auth.as_ref().filter(|a| !a.is_empty()) {
        let decoded = STANDARD
            .decode(auth.trim())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or_else(|| {
                bad(format!(
                    "`auths.{registry}.auth` is not base64 of `user:password`"
                ))
            })?;
        let (username, password) = decoded.split_once(':').ok_or_else(|| {
            bad(format!(
                "`auths.{registry}.auth` has no `:` between user and password"
            ))
        })?;
        return Ok(Secret::Basic {
            username: username.to_owned(),
            password: Hidden::new(password),
        });
    }
    match (&entry.username, &entry.password) {
        (Some(username), Some(password)) => Ok(Secret::Basic {
            username: username.clone(),
            password: Hidden::new(password.clone()),
        }),
        _ => Ok(Secret::None),
    }
}

/// The entry for `registry`: the key written exactly as the registry is,
/// else the first key (in the file's sorted order) whose registry
/// ([`key_host`]) is the same host.
fn lookup<'a, T>(auths: &'a BTreeMap<String, T>, registry: &str) -> Option<&'a T> {
    let wanted = canonical_host(registry)?;
    if let Some(entry) = auths.get(registry) {
        return Some(entry);
    }
    auths
        .iter()
        .find_map(|(key, entry)| (key_host(key).as_ref() == Some(&wanted)).then_some(entry))
}

#[derive(serde::Deserialize, Default)]
struct DockerConfig {
    #[serde(default)]
    auths: BTreeMap<String, AuthEntry>,
    #[serde(default, rename = "credsStore")]
    creds_store: Option<String>,
    #[serde(default, rename = "credHelpers")]
    cred_helpers: BTreeMap<String, String>,
}

#[derive(serde::Deserialize, Default)]
struct AuthEntry {
    auth: Option<String>,
    username: Option<String>,
    password: Option<String>,
    identitytoken: Option<String>,
}

/// A `WWW-Authenticate` challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Challenge {
    Basic,
    Bearer {
        realm: String,
        service: Option<String>,
        scope: Option<String>,
    },
}

/// Parses `Basic realm="…"` or `Bearer realm="…",service="…",scope="…"`
/// (quoted or token values, any order, case-insensitive scheme and keys).
pub(crate) fn parse_challenge(header: &str) -> Option<Challenge> {
    let header = header.trim();
    let (scheme, params) = header.split_once(' ').unwrap_or((header, ""));
    let params = parse_params(params);
    if scheme.eq_ignore_ascii_case("basic") {
        return Some(Challenge::Basic);
    }
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    Some(Challenge::Bearer {
        realm: params.get("realm")?.clone(),
        service: params.get("service").cloned(),
        scope: params.get("scope").cloned(),
    })
}

fn parse_params(text: &str) -> BTreeMap<String, String> {
    let mut params = BTreeMap::new();
    let mut rest = text.trim();
    while let Some((key, after)) = rest.split_once('=') {
        let key = key
            .trim()
            .trim_start_matches(',')
            .trim()
            .to_ascii_lowercase();
        let after = after.trim_start();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, escaped)) = chars.next() {
                            value.push(escaped);
                        }
                    }
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    c => value.push(c),
                }
            }
            (value, &quoted[end..])
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (after[..end].trim().to_owned(), &after[end..])
        };
        params.insert(key, value);
        rest = next.trim_start().trim_start_matches(',');
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_challenges() {
        let c = parse_challenge(
            r#"Bearer realm="https://auth.example/token",service="registry.example",scope="repository:a/b:pull,push""#,
        );
        assert_eq!(
            c,
            Some(Challenge::Bearer {
                realm: "https://auth.example/token".into(),
                service: Some("registry.example".into()),
                scope: Some("repository:a/b:pull,push".into()),
            })
        );
        assert_eq!(
            parse_challenge(r#"basic realm="Registry Realm""#),
            Some(Challenge::Basic)
        );
        assert_eq!(parse_challenge("Bearer service=x"), None);
        assert_eq!(parse_challenge("Negotiate"), None);
    }

    /// An environment reader over `vars`, with `DOCKER_CONFIG` set to
    /// `docker`.
    fn env_of(
        docker: &Path,
        vars: &'static [(&'static str, &'static str)],
    ) -> impl Fn(&str) -> Option<String> {
        let docker = docker.to_str().unwrap_or_default().to_owned();
        move |name: &str| {
            if name == "DOCKER_CONFIG" {
                return Some(docker.clone());
            }
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    fn at(registry: &str) -> Url {
        Url::parse(&format!("https://{registry}/")).unwrap()
    }

    fn secret(registry: &str, env: &dyn Fn(&str) -> Option<String>) -> Secret {
        match resolve(&Credentials::Ambient, registry, &at(registry), env) {
            Ok(identity) => identity.secret,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn ambient_order_is_token_then_user_then_docker_config() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config.json"),
            r#"{"auths":{"https://reg.example:5000/v1/":{"auth":"dTpwOnE="},"other":{"identitytoken":"it"}}}"#,
        )
        .unwrap();
        let basic = |u: &str, p: &str| Secret::Basic {
            username: u.into(),
            password: p.into(),
        };
        let env = env_of(dir.path(), &[]);
        assert_eq!(secret("reg.example:5000", &env), basic("u", "p:q"));
        assert_eq!(secret("other", &env), Secret::Identity("it".into()));
        assert_eq!(secret("nowhere", &env), Secret::None);
        let vars = &[
            (ENV_HOST, "other"),
            (ENV_USERNAME, "a"),
            (ENV_PASSWORD, "b"),
        ];
        assert_eq!(secret("other", &env_of(dir.path(), vars)), basic("a", "b"));
        let vars = &[
            (ENV_HOST, "other"),
            (ENV_TOKEN, "t"),
            (ENV_USERNAME, "a"),
            (ENV_PASSWORD, "b"),
        ];
        assert_eq!(
            secret("other", &env_of(dir.path(), vars)),
            Secret::Bearer("t".into())
        );
    }

    /// Attack: `SKB_REGISTRY_TOKEN` (or user and password) was sent to any
    /// registry a source or a lock names. Without `SKB_REGISTRY_HOST`, or
    /// for another registry, it is not sent, and the reason is kept for
    /// the message of a `401`.
    #[test]
    fn ambient_credentials_are_not_sent_to_a_registry_they_were_not_configured_for() {
        let dir = tempfile::tempdir().unwrap();
        let token = &[(ENV_TOKEN, "t")];
        let user = &[(ENV_USERNAME, "a"), (ENV_PASSWORD, "b")];
        for vars in [&token[..], &user[..]] {
            let identity = resolve(
                &Credentials::Ambient,
                "evil.example",
                &at("evil.example"),
                &env_of(dir.path(), vars),
            )
            .unwrap();
            assert_eq!(identity.secret, Secret::None);
            let why = identity.withheld.unwrap_or_default();
            assert!(why.contains(ENV_HOST) && why.contains("not set"), "{why}");
        }
        let url = &[(ENV_HOST, "https://ghcr.io/"), (ENV_TOKEN, "t")];
        let env = env_of(dir.path(), url);
        assert_eq!(secret("ghcr.io", &env), Secret::Bearer("t".into()));
        let scoped = &[(ENV_HOST, "GHCR.io.:443"), (ENV_TOKEN, "t")];
        let env = env_of(dir.path(), scoped);
        assert_eq!(secret("ghcr.io", &env), Secret::Bearer("t".into()));
        let elsewhere = resolve(
            &Credentials::Ambient,
            "evil.example",
            &at("evil.example"),
            &env,
        )
        .unwrap();
        assert_eq!(elsewhere.secret, Secret::None);
        let why = elsewhere.withheld.unwrap_or_default();
        assert!(why.contains("names `ghcr.io`, not `evil.example`"), "{why}");
        for registry in ["ghcr.io:5000", "ghcr.io.evil.example", "evil.example"] {
            assert_eq!(secret(registry, &env), Secret::None, "{registry}");
        }
        let bad = &[(ENV_HOST, "ghcr.io/acme"), (ENV_TOKEN, "t")];
        let env = env_of(dir.path(), bad);
        let identity = resolve(&Credentials::Ambient, "ghcr.io", &at("ghcr.io"), &env).unwrap();
        assert_eq!(identity.secret, Secret::None);
        assert!(
            identity
                .withheld
                .unwrap_or_default()
                .contains("not a `host[:port]`")
        );
    }

    #[test]
    fn debug_never_shows_a_password_or_token() {
        let shown = format!(
            "{:?} {:?} {:?} {:?}",
            Credentials::Basic {
                username: "u".into(),
                password: "pw-s3cret".into(),
            },
            Credentials::Bearer("tok-s3cret".into()),
            Secret::Basic {
                username: "u".into(),
                password: "pw-s3cret".into(),
            },
            Secret::Identity("tok-s3cret".into()),
        );
        assert!(
            !shown.contains("s3cret") && shown.contains("\"u\""),
            "{shown}"
        );
    }

    #[test]
    fn hosts_compare_in_one_form() {
        for (a, b) in [
            ("ghcr.io", "GHCR.IO"),
            ("ghcr.io", "ghcr.io."),
            ("ghcr.io", "ghcr.io:443"),
            ("127.0.0.1:5000", "127.1:5000"),
            ("127.0.0.1:5000", "0x7f.0.0.1:5000"),
            ("[::1]:5000", "[0:0:0:0:0:0:0:1]:5000"),
            ("docker.io", "index.docker.io"),
            ("docker.io", "registry-1.docker.io"),
        ] {
            assert_eq!(canonical_host(a), canonical_host(b), "{a} {b}");
            assert!(canonical_host(a).is_some(), "{a}");
        }
        for (a, b) in [
            ("ghcr.io", "ghcr.io:80"),
            ("ghcr.io", "ghcr.io.evil.example"),
        ] {
            assert_ne!(canonical_host(a), canonical_host(b), "{a} {b}");
        }
        for not_a_host in [
            "",
            "ghcr.io/acme",
            "user@ghcr.io",
            "ghcr.io?x",
            "ghcr.io#x",
            "a b",
        ] {
            assert_eq!(canonical_host(not_a_host), None, "{not_a_host}");
        }
    }

    /// Attack: a Docker config key that is not the registry's host (a path
    /// after it, or the registry's name inside another URL) was used for it.
    #[test]
    fn docker_config_keys_name_exactly_one_host() {
        for (key, host) in [
            ("ghcr.io", Some("ghcr.io")),
            ("https://ghcr.io", Some("ghcr.io")),
            ("HTTPS://GHCR.IO/", Some("ghcr.io")),
            ("http://127.0.0.1:5000/v2/", Some("127.0.0.1:5000")),
            ("https://index.docker.io/v1/", Some("docker.io")),
            ("https://evil.example/ghcr.io", None),
            ("ghcr.io/acme", None),
            ("https://ghcr.io/acme/skills", None),
            ("ghcr.io@evil.example", None),
            ("ftp://ghcr.io", None),
        ] {
            assert_eq!(key_host(key).as_deref(), host, "{key}");
        }
    }

    #[test]
    fn a_broken_docker_config_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config.json"),
            r#"{"auths":{"h":{"auth":"!!"}}}"#,
        )
        .unwrap();
        let err = resolve(
            &Credentials::DockerConfig(dir.path().into()),
            "h",
            &at("h"),
            &|_| None,
        )
        .map(|identity| identity.secret)
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("config.json") && err.contains("base64"),
            "{err}"
        );
    }
}

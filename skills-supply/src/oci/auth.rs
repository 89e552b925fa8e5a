//! Who we are to a registry: the credentials Docker and ORAS users already
//! have (`SKB_REGISTRY_*` environment variables, then `auths` in
//! `$DOCKER_CONFIG/config.json` or `~/.docker/config.json`), and the
//! `WWW-Authenticate` challenges a registry answers with (`Basic`, or `Bearer`
//! with a token `realm`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::OciError;

/// Environment variable: user name for every registry (with the password).
pub const ENV_USERNAME: &str = "SKB_REGISTRY_USERNAME";
/// Environment variable: password or personal access token (with the user name).
pub const ENV_PASSWORD: &str = "SKB_REGISTRY_PASSWORD";
/// Environment variable: a bearer token sent as is, for CI systems that mint one.
pub const ENV_TOKEN: &str = "SKB_REGISTRY_TOKEN";

/// Where credentials come from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Credentials {
    /// `SKB_REGISTRY_TOKEN`, else `SKB_REGISTRY_USERNAME` and
    /// `SKB_REGISTRY_PASSWORD`, else the Docker config in `$DOCKER_CONFIG`
    /// (or `~/.docker`), else anonymous.
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

/// What the registry is told, once resolved for one host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Secret {
    Basic {
        username: String,
        password: String,
    },
    /// A refresh token (Docker's `identitytoken`) traded for an access token.
    Identity(String),
    Bearer(String),
    None,
}

impl Secret {
    /// `Basic <base64(user:password)>`, for basic challenges and token requests.
    pub(crate) fn basic_header(&self) -> Option<String> {
        match self {
            Secret::Basic { username, password } => Some(format!(
                "Basic {}",
                STANDARD.encode(format!("{username}:{password}"))
            )),
            _ => None,
        }
    }
}

/// The largest Docker config read (they hold a few entries).
const CONFIG_MAX: u64 = 1 << 20;

/// Resolves `credentials` for `registry` (`host[:port]`); `env` reads an
/// environment variable (a parameter so tests need not change the process's).
pub(crate) fn resolve(
    credentials: &Credentials,
    registry: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Secret, OciError> {
    match credentials {
        Credentials::Anonymous => Ok(Secret::None),
        Credentials::Bearer(token) => Ok(Secret::Bearer(token.clone())),
        Credentials::Basic { username, password } => Ok(Secret::Basic {
            username: username.clone(),
            password: password.clone(),
        }),
        Credentials::DockerConfig(folder) => from_docker_config(folder, registry),
        Credentials::Ambient => {
            if let Some(token) = env(ENV_TOKEN).filter(|t| !t.is_empty()) {
                return Ok(Secret::Bearer(token));
            }
            if let (Some(username), Some(password)) = (env(ENV_USERNAME), env(ENV_PASSWORD)) {
                return Ok(Secret::Basic { username, password });
            }
            let folder = env("DOCKER_CONFIG")
                .map(PathBuf::from)
                .or_else(|| env("HOME").map(|home| Path::new(&home).join(".docker")));
            match folder {
                Some(folder) => from_docker_config(&folder, registry),
                None => Ok(Secret::None),
            }
        }
    }
}

/// `auths.<registry>` of `<folder>/config.json`: `auth` (base64 of
/// `user:password`, or of `<token>:…` with an `identitytoken`), or
/// `username`/`password`. A missing file or entry is anonymous.
fn from_docker_config(folder: &Path, registry: &str) -> Result<Secret, OciError> {
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
    let Some(entry) = lookup(&config.auths, registry) else {
        return Ok(Secret::None);
    };
    if let Some(token) = entry.identitytoken.as_ref().filter(|t| !t.is_empty()) {
        return Ok(Secret::Identity(token.clone()));
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
            password: password.to_owned(),
        });
    }
    match (&entry.username, &entry.password) {
        (Some(username), Some(password)) => Ok(Secret::Basic {
            username: username.clone(),
            password: password.clone(),
        }),
        _ => Ok(Secret::None),
    }
}

/// The entry for `registry`: as written, with an `https://` or `http://`
/// prefix (older `docker login`), and Docker Hub's historic key.
fn lookup<'a>(auths: &'a BTreeMap<String, AuthEntry>, registry: &str) -> Option<&'a AuthEntry> {
    if let Some(entry) = auths.get(registry) {
        return Some(entry);
    }
    let hub = matches!(
        registry,
        "docker.io" | "index.docker.io" | "registry-1.docker.io"
    );
    auths.iter().find_map(|(key, entry)| {
        let bare = key
            .strip_prefix("https://")
            .or_else(|| key.strip_prefix("http://"))
            .unwrap_or(key);
        let host = bare.split('/').next().unwrap_or(bare);
        (host == registry || (hub && host == "index.docker.io")).then_some(entry)
    })
}

#[derive(serde::Deserialize, Default)]
struct DockerConfig {
    #[serde(default)]
    auths: BTreeMap<String, AuthEntry>,
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

    #[test]
    fn ambient_order_is_token_then_user_then_docker_config() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config.json"),
            r#"{"auths":{"https://reg.example:5000/v1/":{"auth":"dTpwOnE="},"other":{"identitytoken":"it"}}}"#,
        )
        .unwrap();
        let docker = dir.path().to_str().unwrap().to_owned();
        let env = |vars: &'static [(&'static str, &'static str)]| {
            let docker = docker.clone();
            move |name: &str| {
                if name == "DOCKER_CONFIG" {
                    return Some(docker.clone());
                }
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let got = resolve(&Credentials::Ambient, "reg.example:5000", &env(&[])).unwrap();
        assert_eq!(
            got,
            Secret::Basic {
                username: "u".into(),
                password: "p:q".into()
            }
        );
        let got = resolve(&Credentials::Ambient, "other", &env(&[])).unwrap();
        assert_eq!(got, Secret::Identity("it".into()));
        let got = resolve(&Credentials::Ambient, "nowhere", &env(&[])).unwrap();
        assert_eq!(got, Secret::None);
        let vars = &[(ENV_USERNAME, "a"), (ENV_PASSWORD, "b")];
        let got = resolve(&Credentials::Ambient, "other", &env(vars)).unwrap();
        assert_eq!(
            got,
            Secret::Basic {
                username: "a".into(),
                password: "b".into()
            }
        );
        let vars = &[(ENV_TOKEN, "t"), (ENV_USERNAME, "a"), (ENV_PASSWORD, "b")];
        let got = resolve(&Credentials::Ambient, "other", &env(vars)).unwrap();
        assert_eq!(got, Secret::Bearer("t".into()));
    }

    #[test]
    fn a_broken_docker_config_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config.json"),
            r#"{"auths":{"h":{"auth":"!!"}}}"#,
        )
        .unwrap();
        let err = resolve(&Credentials::DockerConfig(dir.path().into()), "h", &|_| {
            None
        })
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("config.json") && err.contains("base64"),
            "{err}"
        );
    }
}

//! One conversation with one registry repository over the distribution API
//! (`/v2/…`), on `ureq`: the scheme (`http://` only for loopback registries
//! or when told `insecure`), answering `401` challenges once (`Basic`, or a
//! `Bearer` token fetched from the challenge's realm), retrying with backoff
//! on connection failures, `5xx` and `429` (never on another `4xx`), and
//! reading every body with a bound checked before anything is allocated.

use std::thread;
use std::time::Duration;

use ureq::Body;
use ureq::http::{self, Method, Response, StatusCode};

use super::auth::{self, Challenge, Secret};
use super::{OciError, OciOptions, Reference};

/// The largest token-endpoint or error body read.
const SMALL_BODY_MAX: u64 = 1 << 20;
/// The longest `Retry-After` honoured, so a registry cannot park us.
const RETRY_AFTER_MAX: Duration = Duration::from_secs(30);

/// A session with one repository: the agent, the base URL and the
/// `Authorization` value earned so far.
pub(crate) struct Session<'a> {
    agent: ureq::Agent,
    base: String,
    pub(crate) reference: &'a Reference,
    secret: Secret,
    authorization: Option<String>,
    /// `pull` or `pull,push`: the scope asked of a token realm.
    actions: &'static str,
    options: &'a OciOptions,
}

impl<'a> Session<'a> {
    pub(crate) fn new(
        reference: &'a Reference,
        options: &'a OciOptions,
        push: bool,
    ) -> Result<Session<'a>, OciError> {
        reference.check()?;
        let env = |name: &str| std::env::var(name).ok();
        let secret = auth::resolve(&options.credentials, &reference.registry, &env)?;
        let plain = reference.is_loopback() || options.insecure;
        let host = match reference.registry.as_str() {
            "docker.io" | "index.docker.io" => "registry-1.docker.io",
            other => other,
        };
        let base = format!("{}://{host}", if plain { "http" } else { "https" });
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(15)))
            .timeout_per_call(Some(options.timeout))
            .max_redirects(10)
            .user_agent(concat!("skills-supply/", env!("CARGO_PKG_VERSION")))
            .build();
        let authorization = match &secret {
            Secret::Bearer(token) => Some(format!("Bearer {token}")),
            _ => None,
        };
        Ok(Session {
            agent: ureq::Agent::new_with_config(config),
            base,
            reference,
            secret,
            authorization,
            actions: if push { "pull,push" } else { "pull" },
            options,
        })
    }

    /// `<base>/v2/<repository>/<rest>`.
    pub(crate) fn url(&self, rest: &str) -> String {
        format!("{}/v2/{}/{rest}", self.base, self.reference.repository)
    }

    /// An upload `Location`, absolute or relative to the registry.
    pub(crate) fn absolute(&self, location: &str) -> String {
        if location.starts_with("http://") || location.starts_with("https://") {
            location.to_owned()
        } else {
            format!("{}/{}", self.base, location.trim_start_matches('/'))
        }
    }

    /// Sends one request, answering a `401` challenge once and retrying
    /// transient failures; returns whatever final response the registry gave.
    pub(crate) fn send(
        &mut self,
        method: Method,
        url: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Response<Body>, OciError> {
        let mut challenged = false;
        let mut attempt = 0;
        loop {
            let mut request = http::Request::builder().method(method.clone()).uri(url);
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            if let Some(value) = &self.authorization {
                request = request.header("Authorization", value);
            }
            let request = request
                .body(body)
                .map_err(|e| self.transport(url, e.to_string()))?;
            let response = match self.agent.run(request) {
                Ok(response) => response,
                Err(error) if transient(&error) && attempt < self.options.retries => {
                    attempt += 1;
                    thread::sleep(backoff(attempt, None));
                    continue;
                }
                Err(error) => return Err(self.transport(url, error.to_string())),
            };
            let status = response.status();
            if status == StatusCode::UNAUTHORIZED && !challenged {
                challenged = true;
                let header = response
                    .headers()
                    .get("www-authenticate")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                self.authorization = Some(self.answer(&header)?);
                continue;
            }
            if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
                return Err(self.unauthorized(status.as_u16()));
            }
            let retryable = status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS;
            if retryable && attempt < self.options.retries {
                attempt += 1;
                let after = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                thread::sleep(backoff(attempt, after));
                continue;
            }
            return Ok(response);
        }
    }

    /// The `Authorization` value that answers a `WWW-Authenticate` challenge.
    fn answer(&mut self, header: &str) -> Result<String, OciError> {
        if matches!(self.secret, Secret::Bearer(_)) {
            // The caller's own token was refused: trading nothing for an
            // anonymous token would only hide that.
            return Err(self.unauthorized(401));
        }
        match auth::parse_challenge(header) {
            Some(Challenge::Basic) => match self.secret.basic_header() {
                Some(value) => Ok(value),
                None => Err(self.unauthorized(401)),
            },
            Some(Challenge::Bearer {
                realm,
                service,
                scope,
            }) => self.token(&realm, service, scope),
            None => Err(self.unauthorized(401)),
        }
    }

    /// Trades the credentials (or nothing, for anonymous pulls) for a bearer
    /// token at `realm`, for this repository's scope and the challenge's.
    fn token(
        &mut self,
        realm: &str,
        service: Option<String>,
        scope: Option<String>,
    ) -> Result<String, OciError> {
        let plain_ok = self.reference.is_loopback() || self.options.insecure;
        let allowed = realm.starts_with("https://") || (plain_ok && realm.starts_with("http://"));
        if !allowed {
            return Err(self.transport(
                realm,
                "the registry's token realm is not an https:// URL".to_owned(),
            ));
        }
        let ours = format!("repository:{}:{}", self.reference.repository, self.actions);
        let mut params: Vec<(&str, String)> = Vec::new();
        if let Some(service) = service {
            params.push(("service", service));
        }
        params.push(("scope", ours.clone()));
        if let Some(scope) = scope.filter(|s| *s != ours) {
            params.push(("scope", scope));
        }
        let (method, url, body, content_type) = match &self.secret {
            Secret::Identity(refresh) => {
                params.push(("grant_type", "refresh_token".to_owned()));
                params.push(("refresh_token", refresh.clone()));
                params.push(("client_id", "skills-supply".to_owned()));
                (
                    Method::POST,
                    realm.to_owned(),
                    form(&params),
                    Some("application/x-www-form-urlencoded"),
                )
            }
            _ => {
                let sep = if realm.contains('?') { '&' } else { '?' };
                (
                    Method::GET,
                    format!("{realm}{sep}{}", form(&params)),
                    String::new(),
                    None,
                )
            }
        };
        let mut request = http::Request::builder().method(method).uri(&url);
        if let Some(value) = self.secret.basic_header() {
            request = request.header("Authorization", value);
        }
        if let Some(content_type) = content_type {
            request = request.header("Content-Type", content_type);
        }
        let request = request
            .body(body.as_bytes())
            .map_err(|e| self.transport(realm, e.to_string()))?;
        let mut response = self
            .agent
            .run(request)
            .map_err(|e| self.transport(realm, e.to_string()))?;
        let status = response.status();
        if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
            return Err(self.unauthorized(status.as_u16()));
        }
        let bytes = read_bounded(&mut response, SMALL_BODY_MAX)
            .map_err(|why| self.transport(realm, why))?;
        if !status.is_success() {
            return Err(self.transport(realm, format!("the token endpoint answered {status}")));
        }
        #[derive(serde::Deserialize)]
        struct Token {
            token: Option<String>,
            access_token: Option<String>,
        }
        let token: Token = serde_json::from_slice(&bytes)
            .map_err(|e| self.transport(realm, format!("the token answer is not JSON: {e}")))?;
        token
            .token
            .or(token.access_token)
            .filter(|t| !t.is_empty())
            .map(|t| format!("Bearer {t}"))
            .ok_or_else(|| self.transport(realm, "the token answer has no `token`".to_owned()))
    }

    fn transport(&self, url: &str, why: String) -> OciError {
        OciError::Transport {
            reference: self.reference.to_string(),
            url: url.to_owned(),
            why,
        }
    }

    fn unauthorized(&self, status: u16) -> OciError {
        OciError::Unauthorized {
            reference: self.reference.to_string(),
            status,
            had_credentials: !matches!(self.secret, Secret::None),
        }
    }
}

/// Reads a body of at most `max` bytes, refusing a larger `Content-Length`
/// before reading and stopping a longer body at the bound.
pub(crate) fn read_bounded(response: &mut Response<Body>, max: u64) -> Result<Vec<u8>, String> {
    let announced = response.body().content_length();
    if let Some(length) = announced
        && length > max
    {
        return Err(format!("{length} bytes announced; the limit is {max}"));
    }
    response
        .body_mut()
        .with_config()
        .limit(max)
        .read_to_vec()
        .map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) => {
                format!("more than {max} bytes; the limit is {max}")
            }
            other => other.to_string(),
        })
}

/// The registry's own words for a failure: `errors[].code` and `.message`
/// of its JSON body, or the status alone.
pub(crate) fn explain(response: &mut Response<Body>) -> String {
    let status = response.status();
    let body = read_bounded(response, SMALL_BODY_MAX).unwrap_or_default();
    #[derive(serde::Deserialize)]
    struct Errors {
        errors: Vec<Detail>,
    }
    #[derive(serde::Deserialize)]
    struct Detail {
        code: Option<String>,
        message: Option<String>,
    }
    match serde_json::from_slice::<Errors>(&body) {
        Ok(errors) if !errors.errors.is_empty() => {
            let details: Vec<String> = errors
                .errors
                .iter()
                .map(|d| {
                    format!(
                        "{}: {}",
                        d.code.as_deref().unwrap_or("ERROR"),
                        d.message.as_deref().unwrap_or("")
                    )
                })
                .collect();
            format!("{status} ({})", details.join("; "))
        }
        _ => status.to_string(),
    }
}

/// A response header as text.
pub(crate) fn header<'r>(response: &'r Response<Body>, name: &str) -> Option<&'r str> {
    response.headers().get(name).and_then(|v| v.to_str().ok())
}

fn transient(error: &ureq::Error) -> bool {
    matches!(
        error,
        ureq::Error::Io(_) | ureq::Error::Timeout(_) | ureq::Error::ConnectionFailed
    )
}

/// 250 ms, 500 ms, 1 s, … (or the registry's `Retry-After`, capped).
fn backoff(attempt: u32, after: Option<Duration>) -> Duration {
    after.map_or_else(
        || Duration::from_millis(250u64.saturating_mul(1 << attempt.min(6)) / 2),
        |after| after.min(RETRY_AFTER_MAX),
    )
}

/// `application/x-www-form-urlencoded` of `params`.
fn form(params: &[(&str, String)]) -> String {
    params
        .iter()
        .map(|(key, value)| format!("{key}={}", percent(value)))
        .collect::<Vec<_>>()
        .join("&")
}

fn percent(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_percent_encoded() {
        let params = [("scope", "repository:a/b:pull,push".to_owned())];
        assert_eq!(form(&params), "scope=repository%3Aa%2Fb%3Apull%2Cpush");
    }

    #[test]
    fn backoff_grows_and_caps_retry_after() {
        assert!(backoff(2, None) > backoff(1, None));
        assert_eq!(backoff(1, Some(Duration::from_secs(3600))), RETRY_AFTER_MAX);
    }

    #[test]
    fn basic_header_is_base64_of_user_colon_password() {
        let secret = Secret::Basic {
            username: "u".into(),
            password: "p".into(),
        };
        assert_eq!(secret.basic_header().as_deref(), Some("Basic dTpw"));
    }
}

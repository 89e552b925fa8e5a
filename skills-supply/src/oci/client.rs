//! One conversation with one registry repository over the distribution API
//! (`/v2/…`), on `ureq`: the scheme (`http://` only for loopback registries
//! or when told `insecure`), redirects followed here hop by hop under the
//! scheme rule of [`crate::http`], the `Authorization` header sent to the
//! registry's origin only, answering the registry's `401` challenges once
//! (`Basic`, or a `Bearer` token fetched from the challenge's realm),
//! retrying with backoff on connection failures, `5xx` and `429` (never on
//! another `4xx`), and reading every body with a bound checked before
//! anything is allocated. Servers are checked against the roots of
//! [`crate::tls`].

use std::thread;
use std::time::Duration;

use ureq::Body;
use ureq::http::{self, Method, Response, StatusCode};
use url::{Origin, Url};

use super::auth::{self, Challenge, Secret};
use super::{OciError, OciOptions, Reference};
use crate::http::check_hop;

/// The largest token-endpoint or error body read.
const SMALL_BODY_MAX: u64 = 1 << 20;
/// The longest `Retry-After` honoured, so a registry cannot park us.
const RETRY_AFTER_MAX: Duration = Duration::from_secs(30);
/// The most redirects followed for one request.
const MAX_REDIRECTS: usize = 10;

/// A session with one repository: the agent, the base URL and the
/// `Authorization` value earned so far.
pub(crate) struct Session<'a> {
    agent: ureq::Agent,
    /// `http(s)://<registry>/`: the origin credentials go to.
    base: Url,
    pub(crate) reference: &'a Reference,
    secret: Secret,
    /// Why the environment's credentials were not sent here, if so.
    withheld: Option<String>,
    authorization: Option<String>,
    /// `pull` or `pull,push`: the scope asked of a token realm.
    actions: &'static str,
    options: &'a OciOptions,
}

/// Why one exchange (a request and its redirects) gave no response.
enum Failed {
    /// The transport failed at this URL: may be tried again.
    Transport(Box<(Url, ureq::Error)>),
    /// Refused by the rules, or a broken redirect: final.
    Refused(OciError),
}

impl<'a> Session<'a> {
    pub(crate) fn new(
        reference: &'a Reference,
        options: &'a OciOptions,
        push: bool,
    ) -> Result<Session<'a>, OciError> {
        reference.check()?;
        let env = |name: &str| std::env::var(name).ok();
        let host = match reference.registry.as_str() {
            "docker.io" | "index.docker.io" => "registry-1.docker.io",
            other => other,
        };
        // Plain `http://` where the transport rule allows it: a loopback
        // registry, or any when told `insecure`.
        let plain = format!("http://{host}/");
        let base = match check_hop(None, &plain, options.insecure) {
            Ok(url) => url,
            Err(_) => Url::parse(&format!("https://{host}/")).map_err(|e| OciError::Reference {
                reference: reference.to_string(),
                why: format!("the registry is not a host: {e}"),
            })?,
        };
        // skb's own credentials are looked up by the registry's name, on
        // the scheme it is spoken to.
        let named = Url::parse(&format!("{}://{}/", base.scheme(), reference.registry))
            .unwrap_or_else(|_| base.clone());
        let identity = auth::resolve(&options.credentials, &reference.registry, &named, &env)?;
        let tls = crate::tls::config().map_err(|why| OciError::Transport {
            reference: reference.to_string(),
            url: base.to_string(),
            why,
        })?;
        let config = ureq::Agent::config_builder()
            .tls_config(tls)
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(15)))
            .timeout_per_call(Some(options.timeout))
            // Redirects are followed by `exchange`, hop by hop.
            .max_redirects(0)
            .user_agent(concat!("skills-supply/", env!("CARGO_PKG_VERSION")))
            .build();
        let authorization = match &identity.secret {
            Secret::Bearer(token) => Some(format!("Bearer {}", token.expose())),
            _ => None,
        };
        Ok(Session {
            agent: ureq::Agent::new_with_config(config),
            base,
            reference,
            secret: identity.secret,
            withheld: identity.withheld,
            authorization,
            actions: if push { "pull,push" } else { "pull" },
            options,
        })
    }

    /// `<base>/v2/<repository>/<rest>`.
    pub(crate) fn url(&self, rest: &str) -> Result<Url, OciError> {
        let text = format!("{}v2/{}/{rest}", self.base, self.reference.repository);
        Url::parse(&text).map_err(|e| self.transport(&text, e.to_string()))
    }

    /// An upload `Location` from the answer to `from`, absolute or relative,
    /// checked against the scheme rule as a redirect is.
    pub(crate) fn location(&self, from: &Url, location: &str) -> Result<Url, OciError> {
        check_hop(Some(from), location, self.options.insecure)
            .map_err(|e| self.transport(from.as_str(), format!("the upload location: {e}")))
    }

    /// Sends one request, answering the registry's `401` challenge once and
    /// retrying transient failures; returns whatever final response came.
    pub(crate) fn send(
        &mut self,
        method: Method,
        url: &Url,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Response<Body>, OciError> {
        let mut challenged = false;
        let mut attempt = 0;
        loop {
            let credential = self
                .authorization
                .as_deref()
                .map(|value| (value, self.base.origin()));
            let (at, response) = match self.exchange(&method, url, headers, body, credential) {
                Ok(answer) => answer,
                Err(Failed::Transport(failed))
                    if transient(&failed.1) && attempt < self.options.retries =>
                {
                    attempt += 1;
                    thread::sleep(backoff(attempt, None));
                    continue;
                }
                Err(Failed::Transport(failed)) => {
                    return Err(self.transport(failed.0.as_str(), failed.1.to_string()));
                }
                Err(Failed::Refused(e)) => return Err(e),
            };
            let status = response.status();
            let ours = at.origin() == self.base.origin();
            if (status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN) && !ours {
                return Err(self.transport(
                    at.as_str(),
                    format!(
                        "answered {status}: credentials go only to the registry `{}`",
                        self.reference.registry
                    ),
                ));
            }
            if status == StatusCode::UNAUTHORIZED && !challenged {
                challenged = true;
                let header = response
                    .headers()
                    .get("www-authenticate")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                self.authorization = Some(self.answer(&at, &header)?);
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

    /// One request and, for `GET` and `HEAD`, the redirects that follow it,
    /// each hop checked by the scheme rule before it is contacted; the
    /// `Authorization` value in `credential` is sent only to its origin.
    /// Returns the URL that answered and its answer.
    fn exchange(
        &self,
        method: &Method,
        url: &Url,
        headers: &[(&str, &str)],
        body: &[u8],
        credential: Option<(&str, Origin)>,
    ) -> Result<(Url, Response<Body>), Failed> {
        let mut at = url.clone();
        for _ in 0..=MAX_REDIRECTS {
            let mut request = http::Request::builder()
                .method(method.clone())
                .uri(at.as_str());
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            if let Some((value, origin)) = &credential
                && at.origin() == *origin
            {
                request = request.header("Authorization", *value);
            }
            let request = request
                .body(body)
                .map_err(|e| Failed::Refused(self.transport(at.as_str(), e.to_string())))?;
            let response = self
                .agent
                .run(request)
                .map_err(|e| Failed::Transport(Box::new((at.clone(), e))))?;
            let redirect = matches!(response.status().as_u16(), 301 | 302 | 303 | 307 | 308);
            if !redirect || (*method != Method::GET && *method != Method::HEAD) {
                return Ok((at, response));
            }
            let location = header(&response, "location").ok_or_else(|| {
                Failed::Refused(self.transport(
                    at.as_str(),
                    format!("redirect ({}) without a `Location`", response.status()),
                ))
            })?;
            at = check_hop(Some(&at), location, self.options.insecure)
                .map_err(|e| Failed::Refused(self.transport(at.as_str(), e.to_string())))?;
        }
        Err(Failed::Refused(self.transport(
            url.as_str(),
            format!("more than {MAX_REDIRECTS} redirects"),
        )))
    }

    /// The `Authorization` value that answers the registry's
    /// `WWW-Authenticate` challenge (received from `at`).
    fn answer(&mut self, at: &Url, header: &str) -> Result<String, OciError> {
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
            }) => self.token(at, &realm, service, scope),
            None => Err(self.unauthorized(401)),
        }
    }

    /// Trades the credentials (or nothing, for anonymous pulls) for a bearer
    /// token at `realm` (named by the registry's challenge from `at`), for
    /// this repository's scope and the challenge's. The realm is a hop from
    /// the registry under the scheme rule: `https://`, or `http://` to a
    /// loopback host (any host when `insecure`), never down from `https://`.
    fn token(
        &mut self,
        at: &Url,
        realm: &str,
        service: Option<String>,
        scope: Option<String>,
    ) -> Result<String, OciError> {
        let realm_url = check_hop(Some(at), realm, self.options.insecure).map_err(|e| {
            self.transport(realm, format!("the registry's token realm is refused: {e}"))
        })?;
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
                params.push(("refresh_token", refresh.expose().to_owned()));
                params.push(("client_id", "skills-supply".to_owned()));
                (
                    Method::POST,
                    realm_url.clone(),
                    form(&params),
                    Some("application/x-www-form-urlencoded"),
                )
            }
            _ => {
                let sep = if realm_url.query().is_some() {
                    '&'
                } else {
                    '?'
                };
                let text = format!("{realm_url}{sep}{}", form(&params));
                let url = Url::parse(&text).map_err(|e| self.transport(realm, e.to_string()))?;
                (Method::GET, url, String::new(), None)
            }
        };
        let mut headers = Vec::new();
        if let Some(content_type) = content_type {
            headers.push(("Content-Type", content_type));
        }
        let basic = self.secret.basic_header();
        let credential = basic.as_deref().map(|value| (value, realm_url.origin()));
        let (_, mut response) =
            match self.exchange(&method, &url, &headers, body.as_bytes(), credential) {
                Ok(answer) => answer,
                Err(Failed::Transport(failed)) => {
                    return Err(self.transport(failed.0.as_str(), failed.1.to_string()));
                }
                Err(Failed::Refused(e)) => return Err(e),
            };
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
            withheld: self.withheld.clone(),
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

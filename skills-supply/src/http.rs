//! One bounded HTTPS download: [`get`] fetches a URL into memory, or says
//! precisely why not, naming the URL; [`download`] also says which URLs the
//! bytes came through, so that key pins apply to every one of them.
//!
//! Every remote source (a pack, a `.skill` zip or a `SKILL.md` by URL, a
//! well-known index and its entries) comes through here, so the rules are
//! kept in one place:
//!
//! - **Scheme.** `https://` always; `http://` only to a loopback host
//!   (`127.0.0.0/8`, `::1`, `localhost`: a local mirror or a test server)
//!   unless [`HttpOptions::allow_http`] says otherwise. A redirect from
//!   `https://` to `http://` is refused whatever the options.
//! - **Redirects** are followed here, not by ureq, so that each hop is
//!   checked against the scheme rule before it is contacted; more than
//!   [`HttpOptions::max_redirects`] hops, or a hop back to a URL already
//!   visited, is an error naming the URL. [`Download::urls`] lists the URL
//!   asked for and every hop of the attempt that returned the bytes.
//! - **Size.** A `Content-Length` over [`HttpOptions::max_bytes`] is refused
//!   before the body is read; a body without one, or longer than it said,
//!   is read in chunks and stopped at one byte over the limit. The buffer
//!   never grows past the limit plus one chunk.
//! - **Time.** [`HttpOptions::timeout`] bounds each attempt from the DNS
//!   look-up to the last body byte, redirects included, so a server that
//!   trickles bytes fails by it; [`HttpOptions::connect_timeout`] bounds
//!   connecting.
//! - **Retries.** Connection errors, time-outs, a body cut short, 5xx and
//!   429 are tried again up to [`HttpOptions::retries`] times, after 200 ms,
//!   400 ms, 800 ms, ... (at most 5 s), or after the server's `Retry-After`
//!   when it asks for 10 s or less (a longer wait ends the tries with the
//!   status error). A 4xx other than 429, a size or scheme refusal and a
//!   redirect error are final at once.
//! - **Credentials** ([`crate::credentials`], [`HttpOptions::credentials`]):
//!   the one configured for the origin of the URL asked for is sent to
//!   that origin only, as `Authorization`: a redirect to another scheme,
//!   host or port is followed without it, and one back to the origin gets
//!   it again. It is sent over `https://`, or over `http://` only to a
//!   loopback host, never in plain text to another host whatever
//!   `allow_http` says. A `401` or `403` is final and says whether a
//!   credential was sent and where it came from, never what it is. A URL
//!   carrying a user or password is refused (it would be printed and
//!   locked), that part left out of the message.
//! - **Roots.** Servers are checked against Mozilla's roots, or those of
//!   the file `SSL_CERT_FILE` names ([`crate::tls`]).
//!
//! No content decoding is asked for (`Accept-Encoding: identity`), so the
//! bytes counted against the limit are the bytes returned, and a digest
//! computed over them is the digest of what the server stores. A proxy
//! named by the environment (`HTTPS_PROXY`, `NO_PROXY`, ...) is used, except
//! for loopback hosts.

use std::collections::HashSet;
use std::fmt;
use std::io::Read;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use url::{Host, Url};

use crate::credentials::{Auth, HostAuth, Origin, Source};

/// How [`get`] bounds one download.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// Largest body accepted, in bytes. Default 256 MiB (the zip reader's
    /// default total size).
    pub max_bytes: u64,
    /// Longest one attempt may take, redirects and the whole body included.
    /// Default 5 minutes.
    pub timeout: Duration,
    /// Longest connecting may take. Default 15 s.
    pub connect_timeout: Duration,
    /// Most redirects followed. Default 10.
    pub max_redirects: u32,
    /// Tries after the first on a fault that may pass. Default 3.
    pub retries: u32,
    /// Allows `http://` to any host, not only to loopback. Default `false`.
    pub allow_http: bool,
    /// The credentials sent to the origin asked for. Default: the
    /// environment's ([`HostAuth::Ambient`]).
    pub credentials: HostAuth,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            max_bytes: 256 << 20,
            timeout: Duration::from_secs(300),
            connect_timeout: Duration::from_secs(15),
            max_redirects: 10,
            retries: 3,
            allow_http: false,
            credentials: HostAuth::Ambient,
        }
    }
}

/// Why [`get`] returned no bytes; each names the URL concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HttpError {
    /// The URL does not parse, or is not `http(s)://`.
    BadUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `http://` to a host that is not loopback, without `allow_http`.
    Insecure {
        /// The URL.
        url: String,
    },
    /// A redirect from `https://` to `http://`.
    Downgrade {
        /// The URL that redirected.
        from: String,
        /// Where it pointed.
        to: String,
    },
    /// The server answered with an error status.
    Status {
        /// The URL.
        url: String,
        /// The HTTP status code.
        code: u16,
    },
    /// The body is over [`HttpOptions::max_bytes`].
    TooLarge {
        /// The URL.
        url: String,
        /// The limit, in bytes.
        limit: u64,
    },
    /// The attempt took longer than its time-out.
    Timeout {
        /// The URL.
        url: String,
        /// The time-out that ran out.
        after: Duration,
    },
    /// A redirect pointed back to a URL already visited.
    RedirectLoop {
        /// The URL visited twice.
        url: String,
    },
    /// More redirects than [`HttpOptions::max_redirects`].
    TooManyRedirects {
        /// The URL the last redirect pointed to.
        url: String,
        /// The limit.
        max: u32,
    },
    /// A redirect status without a usable `Location`.
    BadRedirect {
        /// The URL that redirected.
        url: String,
        /// What is wrong with its `Location`.
        reason: String,
    },
    /// The host could not be reached (DNS, refused connection, TLS).
    Connect {
        /// The URL.
        url: String,
        /// The transport's message.
        message: String,
    },
    /// The transfer broke after the response started.
    Transfer {
        /// The URL.
        url: String,
        /// The transport's message.
        message: String,
    },
    /// The server answered `401` or `403`.
    Unauthorized {
        /// The URL.
        url: String,
        /// `401` or `403`.
        code: u16,
        /// Which credential was sent (its origin and where it came from,
        /// never itself), or why none was.
        why: String,
    },
    /// The credentials or the TLS roots could not be read.
    Setup {
        /// The URL.
        url: String,
        /// What is wrong, naming the variable or file.
        reason: String,
    },
}

impl HttpError {
    /// The URL the error is about (for a downgrade, the one redirected to).
    pub fn url(&self) -> &str {
        match self {
            HttpError::BadUrl { url, .. }
            | HttpError::Insecure { url }
            | HttpError::Status { url, .. }
            | HttpError::TooLarge { url, .. }
            | HttpError::Timeout { url, .. }
            | HttpError::RedirectLoop { url }
            | HttpError::TooManyRedirects { url, .. }
            | HttpError::BadRedirect { url, .. }
            | HttpError::Connect { url, .. }
            | HttpError::Transfer { url, .. }
            | HttpError::Unauthorized { url, .. }
            | HttpError::Setup { url, .. } => url,
            HttpError::Downgrade { to, .. } => to,
        }
    }

    /// Whether trying again may succeed.
    fn transient(&self) -> bool {
        match self {
            HttpError::Status { code, .. } => *code == 429 || (500..600).contains(code),
            HttpError::Timeout { .. } | HttpError::Connect { .. } | HttpError::Transfer { .. } => {
                true
            }
            _ => false,
        }
    }
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::BadUrl { url, reason } => write!(f, "`{url}`: not a usable URL: {reason}"),
            HttpError::Insecure { url } => write!(
                f,
                "`{url}`: plain `http://` is refused except to a loopback host; use `https://`"
            ),
            HttpError::Downgrade { from, to } => write!(
                f,
                "`{from}` redirects to `{to}`: a redirect from `https://` to `http://` is refused"
            ),
            HttpError::Status { url, code } => write!(f, "`{url}`: the server answered {code}"),
            HttpError::TooLarge { url, limit } => {
                write!(
                    f,
                    "`{url}`: the response is over the limit of {limit} bytes"
                )
            }
            HttpError::Timeout { url, after } => {
                write!(f, "`{url}`: no complete answer within {after:?}")
            }
            HttpError::RedirectLoop { url } => write!(f, "`{url}`: redirect loop"),
            HttpError::TooManyRedirects { url, max } => {
                write!(f, "`{url}`: more than {max} redirects")
            }
            HttpError::BadRedirect { url, reason } => write!(f, "`{url}`: bad redirect: {reason}"),
            HttpError::Connect { url, message } => write!(f, "`{url}`: cannot connect: {message}"),
            HttpError::Transfer { url, message } => {
                write!(f, "`{url}`: the transfer broke: {message}")
            }
            HttpError::Unauthorized { url, code, why } => {
                write!(f, "`{url}`: the server answered {code}: {why}")
            }
            HttpError::Setup { url, reason } => write!(f, "`{url}`: {reason}"),
        }
    }
}

impl std::error::Error for HttpError {}

/// What [`download`] brought back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    /// The body of the last response.
    pub bytes: Vec<u8>,
    /// The URL asked for, as parsed (`url`'s normal form), then the target
    /// of each redirect followed, in order: the last one served `bytes`.
    /// Trust pins apply to each (`trust::Provenance::through`).
    pub urls: Vec<String>,
}

/// The first wait between tries; each next one doubles, up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(200);
/// The longest wait between tries that we choose.
const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// The longest `Retry-After` honoured; a server asking for more is not
/// tried again.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(10);
/// How much of a body is read at a time.
const CHUNK: usize = 64 << 10;

/// Downloads `url` within `opts`: its bytes, as [`download`] does.
pub fn get(
    url: &str,
    opts: &HttpOptions,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<Vec<u8>, HttpError> {
    download(url, opts, progress).map(|d| d.bytes)
}

/// Downloads `url` within `opts`, calling `progress(received, total)` as
/// bytes arrive (`total` from `Content-Length` when the server sent one;
/// a new try starts again from 0), and says which URLs the bytes came
/// through. Only the seconds form of `Retry-After` is read; a date is taken
/// as no wait asked.
pub fn download(
    url: &str,
    opts: &HttpOptions,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<Download, HttpError> {
    let start = checked_url(url, opts)?;
    let setup = |reason: String| HttpError::Setup {
        url: url.to_string(),
        reason,
    };
    let credential = Credential::for_start(&start, opts).map_err(|e| setup(e.to_string()))?;
    let agent = agent(opts).map_err(setup)?;
    let mut tries = 0;
    loop {
        let failure = match attempt(&agent, &start, &credential, opts, progress) {
            Ok(download) => return Ok(download),
            Err(f) => f,
        };
        if !failure.error.transient() || tries >= opts.retries {
            return Err(failure.error);
        }
        let backoff = FIRST_BACKOFF
            .saturating_mul(1 << tries.min(16))
            .min(MAX_BACKOFF);
        let wait = match failure.retry_after {
            Some(asked) if asked > MAX_RETRY_AFTER => return Err(failure.error),
            Some(asked) => asked.max(backoff),
            None => backoff,
        };
        std::thread::sleep(wait);
        tries += 1;
    }
}

/// A failed attempt: the error, and the wait the server asked for.
#[derive(Debug)]
struct Failure {
    error: HttpError,
    retry_after: Option<Duration>,
}

impl From<HttpError> for Failure {
    fn from(error: HttpError) -> Self {
        Failure {
            error,
            retry_after: None,
        }
    }
}

/// `url` parsed and checked against the scheme rule.
fn checked_url(url: &str, opts: &HttpOptions) -> Result<Url, HttpError> {
    let parsed = Url::parse(url).map_err(|e| HttpError::BadUrl {
        url: url.to_string(),
        reason: e.to_string(),
    })?;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        let mut shown = parsed.clone();
        let _ = shown.set_username("");
        let _ = shown.set_password(None);
        return Err(HttpError::BadUrl {
            url: shown.into(),
            reason: "a user or password in a URL is refused (it would be printed and \
                     locked): give it in `SKB_AUTH`, the credentials file or `.netrc`"
                .into(),
        });
    }
    match parsed.scheme() {
        "https" => Ok(parsed),
        "http" if opts.allow_http || is_loopback(&parsed) => Ok(parsed),
        "http" => Err(HttpError::Insecure {
            url: url.to_string(),
        }),
        other => Err(HttpError::BadUrl {
            url: url.to_string(),
            reason: format!("scheme `{other}` is neither `https` nor `http`"),
        }),
    }
}

/// Whether `url`'s host is a loopback address or `localhost`.
fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        Some(Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

/// Where a redirect from `from` to `location` leads, if it may be followed.
fn redirect_target(from: &Url, location: &str, opts: &HttpOptions) -> Result<Url, HttpError> {
    let to = from.join(location).map_err(|e| HttpError::BadRedirect {
        url: from.to_string(),
        reason: format!("`Location: {location}`: {e}"),
    })?;
    if from.scheme() == "https" && to.scheme() == "http" {
        return Err(HttpError::Downgrade {
            from: from.to_string(),
            to: to.to_string(),
        });
    }
    checked_url(to.as_str(), opts)
}

/// The credential of one download: what is sent to the origin asked for,
/// or why nothing is.
#[derive(Debug)]
struct Credential {
    origin: Option<Origin>,
    auth: Option<(Auth, Source)>,
    withheld: Option<String>,
}

impl Credential {
    /// The credential configured for `start`'s origin, unless it would go
    /// in plain text to a host that is not loopback.
    fn for_start(
        start: &Url,
        opts: &HttpOptions,
    ) -> Result<Credential, crate::credentials::CredentialsError> {
        let origin = Origin::of(start);
        let found = opts.credentials.resolve()?.for_url(start);
        let (auth, withheld) = match (found, &origin) {
            (Some((_, source)), Some(o)) if o.is_plain() && !is_loopback(start) => (
                None,
                Some(format!(
                    "the credential for `{o}` from {source} was not sent: credentials go \
                     over `http://` only to a loopback host"
                )),
            ),
            (found, _) => (found, None),
        };
        Ok(Credential {
            origin,
            auth,
            withheld,
        })
    }

    /// The `Authorization` value for a request to `url`: the credential
    /// when `url` is on the origin asked for.
    fn header_for(&self, url: &Url) -> Option<String> {
        let (auth, _) = self.auth.as_ref()?;
        (self.origin.is_some() && Origin::of(url) == self.origin).then(|| auth.header())
    }

    /// A `401` or `403` from `url`: which credential was sent, or why none.
    fn refused(&self, url: &Url, code: u16) -> HttpError {
        let origin = self
            .origin
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let why = match (&self.withheld, &self.auth) {
            (Some(why), _) => why.clone(),
            (None, Some((_, source))) if self.header_for(url).is_some() => {
                format!("the credential for `{origin}` from {source} was refused")
            }
            (None, Some(_)) => format!(
                "a redirect led to another origin, and the credential for `{origin}` \
                 goes only there"
            ),
            (None, None) => format!(
                "no credential is configured for `{origin}` (`{}`, the credentials \
                 file or `.netrc`: see GUIDE.md, \"Private sources\")",
                crate::credentials::ENV_AUTH
            ),
        };
        HttpError::Unauthorized {
            url: url.to_string(),
            code,
            why,
        }
    }
}

/// The agent for one [`get`]: redirects and status codes left to us, the
/// TLS roots of [`crate::tls`].
fn agent(opts: &HttpOptions) -> Result<ureq::Agent, String> {
    Ok(ureq::Agent::config_builder()
        .tls_config(crate::tls::config()?)
        .max_redirects(0)
        .http_status_as_error(false)
        .timeout_connect(Some(opts.connect_timeout))
        .user_agent(concat!("skills-supply/", env!("CARGO_PKG_VERSION")))
        // Bytes as stored, whatever features ureq has elsewhere in a build.
        .accept_encoding("identity")
        .build()
        .new_agent())
}

/// One attempt, following redirects.
fn attempt(
    agent: &ureq::Agent,
    start: &Url,
    credential: &Credential,
    opts: &HttpOptions,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<Download, Failure> {
    let deadline = Instant::now() + opts.timeout;
    let mut url = start.clone();
    let mut visited = HashSet::from([url.to_string()]);
    let mut urls = vec![url.to_string()];
    let mut hops = 0;
    loop {
        let left = deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| HttpError::Timeout {
                url: url.to_string(),
                after: opts.timeout,
            })?;
        let mut request = agent.get(url.as_str());
        if let Some(value) = credential.header_for(&url) {
            request = request.header("Authorization", value);
        }
        let mut config = request.config().timeout_global(Some(left));
        if is_loopback(&url) {
            // A proxy from the environment cannot reach our own loopback.
            config = config.proxy(None);
        }
        let mut response = config
            .build()
            .call()
            .map_err(|e| transport_error(&url, e, opts))?;
        let status = response.status().as_u16();
        if matches!(status, 301 | 302 | 303 | 307 | 308) {
            let location =
                header(response.headers(), "location").ok_or_else(|| HttpError::BadRedirect {
                    url: url.to_string(),
                    reason: format!("status {status} without a `Location`"),
                })?;
            let next = redirect_target(&url, &location, opts)?;
            hops += 1;
            if !visited.insert(next.to_string()) {
                return Err(HttpError::RedirectLoop { url: next.into() }.into());
            }
            if hops > opts.max_redirects {
                let max = opts.max_redirects;
                return Err(HttpError::TooManyRedirects {
                    url: next.into(),
                    max,
                }
                .into());
            }
            urls.push(next.to_string());
            url = next;
            continue;
        }
        if matches!(status, 401 | 403) {
            return Err(credential.refused(&url, status).into());
        }
        if !(200..300).contains(&status) {
            return Err(Failure {
                retry_after: header(response.headers(), "retry-after")
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs),
                error: HttpError::Status {
                    url: url.to_string(),
                    code: status,
                },
            });
        }
        let bytes = read_body(&url, &mut response, opts, progress)?;
        return Ok(Download { bytes, urls });
    }
}

/// A header's value as text, if present and visible ASCII.
fn header(headers: &ureq::http::HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// Reads the body of a 2xx response within the size limit.
fn read_body(
    url: &Url,
    response: &mut ureq::http::Response<ureq::Body>,
    opts: &HttpOptions,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<Vec<u8>, HttpError> {
    let too_large = || HttpError::TooLarge {
        url: url.to_string(),
        limit: opts.max_bytes,
    };
    let total = response.body().content_length();
    if total.is_some_and(|n| n > opts.max_bytes) {
        return Err(too_large());
    }
    // Never trust a length for more than the limit allows.
    let capacity = total
        .unwrap_or(0)
        .min(opts.max_bytes)
        .min(CHUNK as u64 * 16);
    let mut body = Vec::with_capacity(usize::try_from(capacity).unwrap_or(CHUNK));
    let mut reader = response
        .body_mut()
        .with_config()
        .reader()
        .take(opts.max_bytes.saturating_add(1));
    let mut chunk = vec![0; CHUNK];
    progress(0, total);
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(url, e, opts)),
        };
        body.extend_from_slice(&chunk[..n]);
        if body.len() as u64 > opts.max_bytes {
            return Err(too_large());
        }
        progress(body.len() as u64, total);
    }
    Ok(body)
}

/// A ureq error as ours.
fn transport_error(url: &Url, e: ureq::Error, opts: &HttpOptions) -> HttpError {
    let url = url.to_string();
    match e {
        ureq::Error::Timeout(ureq::Timeout::Connect) => HttpError::Timeout {
            url,
            after: opts.connect_timeout,
        },
        ureq::Error::Timeout(_) => HttpError::Timeout {
            url,
            after: opts.timeout,
        },
        ureq::Error::BodyExceedsLimit(_) => HttpError::TooLarge {
            url,
            limit: opts.max_bytes,
        },
        other => HttpError::Connect {
            url,
            message: other.to_string(),
        },
    }
}

/// An I/O error while reading a body: ureq wraps its own errors (a
/// time-out, a size limit) in `io::Error`.
fn io_error(url: &Url, e: std::io::Error, opts: &HttpOptions) -> HttpError {
    if e.get_ref().is_some_and(|inner| inner.is::<ureq::Error>()) {
        if let Some(Ok(inner)) = e.into_inner().map(|i| i.downcast::<ureq::Error>()) {
            return transport_error(url, *inner, opts);
        }
        return HttpError::Transfer {
            url: url.to_string(),
            message: "read failed".to_string(),
        };
    }
    HttpError::Transfer {
        url: url.to_string(),
        message: e.to_string(),
    }
}

/// The scheme rule of [`get`] for a transport that makes its own requests
/// (OCI, which follows its redirects hop by hop; git, whose `http://` and
/// `git://` hosts are judged by it): `to`, resolved against `from` when it
/// is a redirect's `Location`, parsed and returned if [`get`] would contact
/// it (`https://`; `http://` to a loopback host, or to any host with
/// `allow_http`; never a redirect from `https://` to `http://`).
pub(crate) fn check_hop(from: Option<&Url>, to: &str, allow_http: bool) -> Result<Url, HttpError> {
    let opts = HttpOptions {
        allow_http,
        credentials: HostAuth::Given(Default::default()),
        ..HttpOptions::default()
    };
    match from {
        Some(from) => redirect_target(from, to, &opts),
        None => checked_url(to, &opts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn loopback_hosts_are_recognised() {
        for u in [
            "http://127.0.0.1:1/",
            "http://127.9.9.9/",
            "http://[::1]:8/",
            "http://LOCALHOST/",
        ] {
            assert!(is_loopback(&url(u)), "{u}");
        }
        for u in [
            "http://10.0.0.1/",
            "http://example.com/",
            "http://localhost.example/",
            "http://[::2]/",
        ] {
            assert!(!is_loopback(&url(u)), "{u}");
        }
    }

    #[test]
    fn plain_http_needs_loopback_or_the_option() {
        let opts = HttpOptions::default();
        assert!(checked_url("http://127.0.0.1/x", &opts).is_ok());
        let e = checked_url("http://example.com/x", &opts);
        assert!(matches!(e, Err(HttpError::Insecure { .. })), "{e:?}");
        let allow = HttpOptions {
            allow_http: true,
            ..HttpOptions::default()
        };
        assert!(checked_url("http://example.com/x", &allow).is_ok());
        let e = checked_url("ftp://example.com/x", &allow);
        assert!(matches!(e, Err(HttpError::BadUrl { .. })), "{e:?}");
        let e = checked_url("not a url", &allow);
        assert!(matches!(e, Err(HttpError::BadUrl { .. })), "{e:?}");
    }

    /// Attack on the lock: `https://user:token@host/…` would be recorded
    /// (and printed) as typed, and a redirect could plant one.
    #[test]
    fn a_url_carrying_a_user_or_password_is_refused_without_showing_it() {
        let opts = HttpOptions::default();
        for u in ["https://u:s3cret@h.example/x", "https://s3cret@h.example/x"] {
            let e = checked_url(u, &opts);
            let text = format!("{e:?}");
            assert!(matches!(e, Err(HttpError::BadUrl { .. })), "{text}");
            assert!(
                !text.contains("s3cret") && text.contains("h.example"),
                "{text}"
            );
        }
        let from = url("https://h.example/a");
        let e = redirect_target(&from, "https://u:s3cret@h.example/b", &opts);
        assert!(matches!(e, Err(HttpError::BadUrl { .. })), "{e:?}");
    }

    #[test]
    fn a_redirect_from_https_to_http_is_refused_even_to_loopback() {
        let allow = HttpOptions {
            allow_http: true,
            ..HttpOptions::default()
        };
        let from = url("https://example.com/a");
        for location in ["http://127.0.0.1/b", "http://example.com/b"] {
            let e = redirect_target(&from, location, &allow);
            assert!(
                matches!(e, Err(HttpError::Downgrade { .. })),
                "{location}: {e:?}"
            );
            let text = e.map(|u| u.to_string()).unwrap_or_else(|e| e.to_string());
            assert!(text.contains("https://example.com/a"), "{text}");
        }
        assert!(redirect_target(&from, "/b", &allow).is_ok());
        assert!(redirect_target(&from, "https://other.example/b", &allow).is_ok());
    }

    #[test]
    fn relative_redirects_resolve_against_the_url() {
        let opts = HttpOptions::default();
        let from = url("http://127.0.0.1:9/a/b");
        let to = redirect_target(&from, "c?x=1", &opts).map(String::from);
        assert_eq!(to, Ok("http://127.0.0.1:9/a/c?x=1".to_string()));
        let e = redirect_target(&from, "http://example.com/", &opts);
        assert!(matches!(e, Err(HttpError::Insecure { .. })), "{e:?}");
        let e = redirect_target(&from, "file:///etc/passwd", &opts);
        assert!(matches!(e, Err(HttpError::BadUrl { .. })), "{e:?}");
    }

    /// Attack: `--allow-plain-text` (or a token configured for an
    /// `http://` origin) put a credential on the wire in clear to a host
    /// that is not this machine; or a hop to another port or scheme got it.
    #[test]
    fn credentials_go_to_their_origin_and_in_clear_only_to_loopback() {
        let creds = crate::credentials::HostCredentials::load(
            Some("t@http://example.com;t@http://127.0.0.1:9"),
            None,
            None,
        )
        .unwrap();
        let opts = HttpOptions {
            allow_http: true,
            credentials: HostAuth::Given(creds),
            ..HttpOptions::default()
        };
        let remote = url("http://example.com/x");
        let withheld = Credential::for_start(&remote, &opts).unwrap();
        assert_eq!(withheld.header_for(&remote), None);
        let text = withheld.refused(&remote, 401).to_string();
        assert!(text.contains("only to a loopback host"), "{text}");
        let local = Credential::for_start(&url("http://127.0.0.1:9/x"), &opts).unwrap();
        let header = local.header_for(&url("http://127.0.0.1:9/y"));
        assert_eq!(header.as_deref(), Some("Bearer t"));
        for elsewhere in [
            "http://127.0.0.1:10/y",
            "https://127.0.0.1:9/y",
            "http://localhost:9/",
        ] {
            assert_eq!(local.header_for(&url(elsewhere)), None, "{elsewhere}");
        }
    }

    #[test]
    fn only_passing_faults_are_transient() {
        let s = |code| HttpError::Status {
            url: String::new(),
            code,
        };
        assert!(s(500).transient() && s(503).transient() && s(429).transient());
        assert!(!s(404).transient() && !s(403).transient() && !s(400).transient());
        let big = HttpError::TooLarge {
            url: String::new(),
            limit: 1,
        };
        assert!(!big.transient());
    }
}

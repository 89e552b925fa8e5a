//! The trusted root (`trusted_root.json`): which Fulcio CAs issue signing
//! certificates, which Rekor logs and CT logs sign what this verifier
//! checks, and when each was valid.
//!
//! Every key and CA has a validity window (`validFor`), a closed interval
//! whose start is required: a key without one is a malformed root, not
//! one valid since ever. The Sigstore public-good root is built in
//! ([`TrustedRoot::public_good`]); a caller may bring another.

use serde::Deserialize;
use sha2::{Digest as _, Sha256};

use super::bundle::base64;
use super::error::{SigstoreError, malformed, unsupported};
use super::x509::{KeyType, PublicKey};

/// The largest trusted root read.
pub const MAX_ROOT_BYTES: usize = 1 << 20;

/// The Sigstore public-good instance's trusted root, as its TUF repository
/// served it (see `NOTICE` beside it).
const PUBLIC_GOOD: &[u8] = include_bytes!("public-good.json");

/// Which CAs and logs a bundle must chain and be logged to.
#[derive(Debug, Clone)]
pub struct TrustedRoot {
    pub(crate) tlogs: Vec<LogKey>,
    pub(crate) ctlogs: Vec<LogKey>,
    pub(crate) cas: Vec<Authority>,
}

/// A transparency log's (Rekor's or a CT log's) key.
#[derive(Debug, Clone)]
pub(crate) struct LogKey {
    /// The log ID: SHA-256 of the key's DER for Rekor v1 and CT logs.
    pub(crate) key_id: Vec<u8>,
    pub(crate) key: PublicKey,
    pub(crate) valid: Window,
}

/// A certificate authority: its chain, issuing certificate first and root
/// last.
#[derive(Debug, Clone)]
pub(crate) struct Authority {
    pub(crate) chain: Vec<Vec<u8>>,
    pub(crate) valid: Window,
}

/// A closed interval of time, in nanoseconds since the Unix epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    start: i128,
    end: Option<i128>,
}

impl Window {
    /// Whether the second `secs` falls within the window, ends included.
    pub(crate) fn contains(self, secs: u64) -> bool {
        let t = i128::from(secs) * 1_000_000_000;
        self.start <= t && self.end.is_none_or(|end| t <= end)
    }
}

impl TrustedRoot {
    /// The Sigstore public-good root built into this crate.
    pub fn public_good() -> Result<TrustedRoot, SigstoreError> {
        TrustedRoot::parse(PUBLIC_GOOD)
    }

    /// Reads a trusted root from its JSON.
    pub fn parse(json: &[u8]) -> Result<TrustedRoot, SigstoreError> {
        if json.len() > MAX_ROOT_BYTES {
            return malformed(format!(
                "trusted root: {} bytes; the limit is {MAX_ROOT_BYTES}",
                json.len()
            ));
        }
        let raw: RawRoot = serde_json::from_slice(json).map_err(|e| {
            SigstoreError::new(super::ErrorKind::Malformed, format!("trusted root: {e}"))
        })?;
        if !matches!(
            raw.media_type.as_str(),
            "application/vnd.dev.sigstore.trustedroot+json;version=0.1"
                | "application/vnd.dev.sigstore.trustedroot.v0.2+json"
        ) {
            return malformed(format!(
                "trusted root: media type `{}` is not a trusted root 0.1 or 0.2",
                raw.media_type
            ));
        }
        Ok(TrustedRoot {
            tlogs: logs(&raw.tlogs)?,
            ctlogs: logs(&raw.ctlogs)?,
            cas: raw
                .certificate_authorities
                .iter()
                .map(RawAuthority::check)
                .collect::<Result<_, _>>()?,
        })
    }

    /// The Rekor key with ID `key_id`.
    pub(crate) fn tlog(&self, key_id: &[u8]) -> Option<&LogKey> {
        self.tlogs.iter().find(|log| log.key_id == key_id)
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawRoot {
    media_type: String,
    #[serde(default)]
    tlogs: Vec<RawLog>,
    #[serde(default)]
    ctlogs: Vec<RawLog>,
    #[serde(default)]
    certificate_authorities: Vec<RawAuthority>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawLog {
    public_key: RawPublicKey,
    log_id: RawLogId,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawLogId {
    key_id: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawPublicKey {
    raw_bytes: String,
    key_details: String,
    valid_for: Option<RawWindow>,
}

#[derive(Debug, Deserialize)]
struct RawWindow {
    start: Option<String>,
    end: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawAuthority {
    cert_chain: RawChain,
    valid_for: Option<RawWindow>,
}

#[derive(Debug, Deserialize)]
struct RawChain {
    #[serde(default)]
    certificates: Vec<RawCert>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawCert {
    raw_bytes: String,
}

/// The logs whose keys are of a kind this verifier uses; a key of another
/// kind (an RSA CT log) verifies nothing here, so it is left out.
fn logs(raw: &[RawLog]) -> Result<Vec<LogKey>, SigstoreError> {
    raw.iter()
        .filter(|log| {
            KINDS
                .iter()
                .any(|kind| kind.details() == log.public_key.key_details)
        })
        .map(RawLog::check)
        .collect()
}

const KINDS: [KeyType; 3] = [KeyType::P256, KeyType::P384, KeyType::Ed25519];

impl RawLog {
    fn check(&self) -> Result<LogKey, SigstoreError> {
        let der = base64(
            &self.public_key.raw_bytes,
            "trusted root: publicKey.rawBytes",
        )?;
        let key = PublicKey::from_spki(&der)?;
        if key.kind.details() != self.public_key.key_details {
            return unsupported(format!(
                "trusted root: a log key of kind `{}` whose bytes are `{}`",
                self.public_key.key_details,
                key.kind.details()
            ));
        }
        let key_id = base64(&self.log_id.key_id, "trusted root: logId.keyId")?;
        if key.kind != KeyType::Ed25519 && key_id != Sha256::digest(&der).as_slice() {
            return malformed("trusted root: a log ID that is not its key's SHA-256");
        }
        Ok(LogKey {
            key_id,
            key,
            valid: window(self.public_key.valid_for.as_ref())?,
        })
    }
}

impl RawAuthority {
    fn check(&self) -> Result<Authority, SigstoreError> {
        let chain: Vec<Vec<u8>> = self
            .cert_chain
            .certificates
            .iter()
            .map(|c| base64(&c.raw_bytes, "trusted root: certChain"))
            .collect::<Result<_, _>>()?;
        if chain.is_empty() {
            return malformed("trusted root: a certificate authority with no certificate");
        }
        Ok(Authority {
            chain,
            valid: window(self.valid_for.as_ref())?,
        })
    }
}

fn window(raw: Option<&RawWindow>) -> Result<Window, SigstoreError> {
    let Some(RawWindow {
        start: Some(start),
        end,
    }) = raw
    else {
        return malformed("trusted root: a `validFor` without a start");
    };
    Ok(Window {
        start: rfc3339(start)?,
        end: end.as_deref().map(rfc3339).transpose()?,
    })
}

/// Nanoseconds since the epoch of an RFC 3339 time
/// (`2022-12-31T23:59:59.999Z`, or with an offset `+01:00`).
pub(crate) fn rfc3339(text: &str) -> Result<i128, SigstoreError> {
    let bad = || {
        SigstoreError::new(
            super::ErrorKind::Malformed,
            format!("trusted root: `{text}` is not an RFC 3339 time"),
        )
    };
    let b = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| -> Result<i64, SigstoreError> {
        let part = b.get(range).ok_or_else(bad)?;
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        Ok(part.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let sep = |i: usize, allowed: &[u8]| match b.get(i) {
        Some(c) if allowed.contains(c) => Ok(()),
        _ => Err(bad()),
    };
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    sep(4, b"-")?;
    sep(7, b"-")?;
    sep(10, b"Tt ")?;
    let (hour, minute, second) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    sep(13, b":")?;
    sep(16, b":")?;
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return Err(bad());
    }
    let mut i = 19;
    let mut nanos: i128 = 0;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let fraction = b.get(start..i).ok_or_else(bad)?;
        if fraction.is_empty() || fraction.len() > 9 {
            return Err(bad());
        }
        let value = fraction
            .iter()
            .fold(0i128, |n, d| n * 10 + i128::from(d - b'0'));
        nanos = value * 10i128.pow(9 - fraction.len() as u32);
    }
    let offset = match b.get(i..) {
        Some(b"Z" | b"z") => 0,
        Some([sign @ (b'+' | b'-'), ..]) if b.len() == i + 6 => {
            sep(i + 3, b":")?;
            let minutes = digits(i + 1..i + 3)? * 60 + digits(i + 4..i + 6)?;
            if *sign == b'+' {
                minutes * 60
            } else {
                -minutes * 60
            }
        }
        _ => return Err(bad()),
    };
    let secs =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Ok(i128::from(secs) * 1_000_000_000 + nanos)
}

/// Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rfc3339_times() {
        assert_eq!(rfc3339("1970-01-01T00:00:00Z").unwrap(), 0);
        assert_eq!(
            rfc3339("2023-07-12T15:56:36Z").unwrap(),
            1_689_177_396 * 1_000_000_000
        );
        assert_eq!(
            rfc3339("2022-12-31T23:59:59.999Z").unwrap(),
            1_672_531_199 * 1_000_000_000 + 999_000_000
        );
        assert_eq!(
            rfc3339("2023-07-12T17:56:36+02:00").unwrap(),
            rfc3339("2023-07-12T15:56:36Z").unwrap()
        );
        for bad in [
            "",
            "2023-07-12",
            "2023-13-01T00:00:00Z",
            "2023-07-12T15:56:36",
            "2023-07-12T15:56:36.Z",
            "2023-07-12T15:56:36.1234567890Z",
            "2023-07-12T15:56:36+0200",
        ] {
            assert!(rfc3339(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn windows_are_closed() {
        let w = Window {
            start: 10 * 1_000_000_000,
            end: Some(20 * 1_000_000_000),
        };
        assert!(!w.contains(9) && w.contains(10) && w.contains(20) && !w.contains(21));
    }

    #[test]
    fn reads_the_public_good_root() {
        let root = TrustedRoot::public_good().unwrap();
        assert_eq!(root.cas.len(), 2);
        assert!(!root.tlogs.is_empty() && !root.ctlogs.is_empty());
    }

    #[test]
    fn refuses_a_key_without_a_start() {
        let json = String::from_utf8(PUBLIC_GOOD.to_vec()).unwrap().replace(
            "\"start\": \"2021-01-12T11:53:27Z\"",
            "\"end\": \"2031-01-12T11:53:27Z\"",
        );
        let err = TrustedRoot::parse(json.as_bytes()).unwrap_err();
        assert!(err.to_string().contains("without a start"), "{err}");
    }
}

//! The certificates an HTTPS server is checked against, for every
//! transport that makes its own requests ([`crate::http`], [`crate::oci`]):
//! Mozilla's roots, built in (webpki-roots), or, when `SSL_CERT_FILE`
//! names a PEM file, the certificates in that file instead, as OpenSSL,
//! curl, git, Python and uv read the variable (a company's own CA, a test
//! CA). A file that cannot be read or holds no certificate is an error
//! naming it: we never fall back to other roots.

use ureq::tls::{PemItem, RootCerts, TlsConfig};

/// The variable naming a PEM file of root certificates.
pub const ENV_CERT_FILE: &str = "SSL_CERT_FILE";
/// The largest certificate file read (Mozilla's bundle is about 220 KiB).
const MAX_CERT_FILE: u64 = 8 << 20;

/// The TLS settings of every agent: the roots above.
pub(crate) fn config() -> Result<TlsConfig, String> {
    let Some(path) = std::env::var_os(ENV_CERT_FILE).filter(|p| !p.is_empty()) else {
        return Ok(TlsConfig::default());
    };
    let path = std::path::PathBuf::from(path);
    let bad = |why: String| format!("`{ENV_CERT_FILE}` (`{}`): {why}", path.display());
    let pem = skills_core::fsread::read_file(&path, MAX_CERT_FILE)
        .map_err(|e| bad(e.reason.to_string()))?;
    let mut certs = Vec::new();
    for item in ureq::tls::parse_pem(&pem) {
        match item {
            Ok(PemItem::Certificate(cert)) => certs.push(cert),
            Ok(_) => {}
            Err(e) => return Err(bad(format!("not PEM: {e}"))),
        }
    }
    if certs.is_empty() {
        return Err(bad("no certificate in it".into()));
    }
    Ok(TlsConfig::builder()
        .root_certs(RootCerts::new_with_certs(&certs))
        .build())
}

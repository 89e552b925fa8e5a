//! How to talk to registries: credentials, transport, bounds and retries.

use std::time::Duration;

use super::Credentials;

/// The default [`OciOptions::max_pack_bytes`]: 256 MiB.
pub const DEFAULT_MAX_PACK: u64 = 256 << 20;

/// How to talk to registries.
#[derive(Debug, Clone)]
pub struct OciOptions {
    /// Where credentials come from (default: environment, then Docker config).
    pub credentials: Credentials,
    /// Use `http://` for a registry that is not on loopback.
    pub insecure: bool,
    /// The largest pack layer pulled, checked against its descriptor before
    /// downloading and against the bytes while reading.
    pub max_pack_bytes: u64,
    /// Retries after a connection failure, `5xx` or `429` (default 3).
    pub retries: u32,
    /// The longest one request may take, body included (default 5 min).
    pub timeout: Duration,
}

impl Default for OciOptions {
    fn default() -> OciOptions {
        OciOptions {
            credentials: Credentials::Ambient,
            insecure: false,
            max_pack_bytes: DEFAULT_MAX_PACK,
            retries: 3,
            timeout: Duration::from_secs(300),
        }
    }
}

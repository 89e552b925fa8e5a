//! The executor's defaults and bounds.

use std::time::Duration;

/// The default timeout: 60 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The longest timeout: 7 days, far past any tool call, and a deadline
/// every clock can represent. A run with a longer [`LocalExecutor::timeout`](super::LocalExecutor::timeout)
/// is refused before it starts ([`ExecError::TimeoutTooLong`](super::ExecError::TimeoutTooLong)).
pub const MAX_TIMEOUT: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// The default cap per output stream: 1 MiB.
pub const DEFAULT_MAX_OUTPUT: usize = 1 << 20;

/// The environment variables passed on by default (when set).
pub const DEFAULT_ENV_ALLOW: &[&str] =
    &["PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "USER"];

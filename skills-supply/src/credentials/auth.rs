//! A credential for one origin, and the `Authorization` header it makes.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::secret::Secret;

/// A credential for one origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    /// `Authorization: Bearer <token>`.
    Bearer(Secret),
    /// `Authorization: Basic <base64(user:password)>`.
    Basic {
        /// The user name (not secret: it may be named in messages).
        username: String,
        /// The password.
        password: Secret,
    },
}

impl Auth {
    /// The `Authorization` header's value.
    pub(crate) fn header(&self) -> String {
        match self {
            Auth::Bearer(token) => format!("Bearer {}", token.expose()),
            Auth::Basic { username, password } => format!(
                "Basic {}",
                STANDARD.encode(format!("{username}:{}", password.expose()))
            ),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Auth::Bearer(token) => token.is_empty(),
            Auth::Basic { username, password } => username.is_empty() && password.is_empty(),
        }
    }
}

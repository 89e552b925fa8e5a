//! Where a secret key's password comes from, for `keygen`, `pack --sign`
//! and `publish --sign`: `SKILLS_KEY_PASSWORD`, else the terminal.
//!
//! Keys, signatures and their rules are [`skills_core::pack::sign`]'s; this
//! module only finds the password and words the errors with the flags that
//! fix them.

use std::env::{self, VarError};
use std::fmt;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use skills_core::pack::sign::{self, SecretKey, SignError};

/// The environment variable read for a secret key's password.
pub const PASSWORD_ENV: &str = "SKILLS_KEY_PASSWORD";

/// Why a key could not be generated or loaded: the library's reason, or no
/// password at hand.
#[derive(Debug)]
pub enum KeyError {
    /// What [`skills_core::pack::sign`] refused.
    Sign(SignError),
    /// The secret key is encrypted and no password is at hand.
    NoPassword(PathBuf),
    /// A new secret key needs a password and none is at hand.
    NoNewPassword(PathBuf),
    /// `SKILLS_KEY_PASSWORD` is set but is not UTF-8.
    PasswordNotUnicode,
    /// The password typed twice for a new key differs.
    PasswordMismatch,
    /// Reading a password from the terminal failed.
    Prompt(io::Error),
}

impl From<SignError> for KeyError {
    fn from(e: SignError) -> Self {
        Self::Sign(e)
    }
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sign(e @ SignError::Exists(_)) => write!(f, "{e}: pass `--force` to replace it"),
            Self::Sign(e @ SignError::EmptyPassword) => {
                write!(f, "{e}: choose one, or pass `-W` for an unencrypted key")
            }
            Self::Sign(e) => write!(f, "{e}"),
            Self::NoPassword(path) => write!(
                f,
                "`{}` is encrypted: set `{PASSWORD_ENV}`, or run in a terminal to type its password",
                path.display()
            ),
            Self::NoNewPassword(path) => write!(
                f,
                "`{}` needs a password: set `{PASSWORD_ENV}`, run in a terminal to type one, \
                 or pass `-W` for an unencrypted key",
                path.display()
            ),
            Self::PasswordNotUnicode => write!(f, "`{PASSWORD_ENV}` is not valid UTF-8"),
            Self::PasswordMismatch => write!(f, "the two passwords differ"),
            Self::Prompt(source) => {
                write!(f, "cannot read a password from the terminal: {source}")
            }
        }
    }
}

impl std::error::Error for KeyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Sign(e) => e.source(),
            Self::Prompt(source) => Some(source),
            _ => None,
        }
    }
}

/// The password for a new secret key: `SKILLS_KEY_PASSWORD` if set, else
/// typed twice on the terminal if stdin is one, else an error suggesting
/// `-W`. An empty password is returned as is; [`sign::keygen`] refuses it.
pub fn new_password(sk_path: &Path) -> Result<String, KeyError> {
    if let Some(password) = env_password()? {
        return Ok(password);
    }
    if !io::stdin().is_terminal() {
        return Err(KeyError::NoNewPassword(sk_path.to_path_buf()));
    }
    let first = prompt(&format!("Password for `{}`: ", sk_path.display()))?;
    let second = prompt("Password (again): ")?;
    if first == second {
        Ok(first)
    } else {
        Err(KeyError::PasswordMismatch)
    }
}

/// Loads a secret key file in minisign's format, encrypted or not. The
/// password of an encrypted key is `SKILLS_KEY_PASSWORD` if set, else typed on
/// the terminal if stdin is one; otherwise loading fails with a message that
/// says so. The variable is not read for an unencrypted key.
pub fn load_secret_key(sk_path: &Path) -> Result<SecretKey, KeyError> {
    sign::read_secret_key(sk_path, || match env_password()? {
        Some(password) => Ok(password),
        None if io::stdin().is_terminal() => {
            prompt(&format!("Password for `{}`: ", sk_path.display()))
        }
        None => Err(KeyError::NoPassword(sk_path.to_path_buf())),
    })
}

/// `SKILLS_KEY_PASSWORD`, if set.
fn env_password() -> Result<Option<String>, KeyError> {
    match env::var(PASSWORD_ENV) {
        Ok(password) => Ok(Some(password)),
        Err(VarError::NotPresent) => Ok(None),
        Err(VarError::NotUnicode(_)) => Err(KeyError::PasswordNotUnicode),
    }
}

/// Reads a password on the terminal, without echo.
fn prompt(text: &str) -> Result<String, KeyError> {
    rpassword::prompt_password(text).map_err(KeyError::Prompt)
}

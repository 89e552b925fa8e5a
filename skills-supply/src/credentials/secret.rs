//! A secret (password, token) that never shows itself: `Debug` and
//! `Display` print `<redacted>`; the text is reached only by [`Secret::expose`],
//! at the one place it is put on the wire.

use std::fmt;

/// A password or token; prints as `<redacted>`.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Secret(String);

impl Secret {
    /// Wraps `text`.
    pub fn new(text: impl Into<String>) -> Secret {
        Secret(text.into())
    }

    /// The text, for the header or helper that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<&str> for Secret {
    fn from(text: &str) -> Secret {
        Secret::new(text)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_never_prints() {
        let s = Secret::new("hunter2");
        assert_eq!(
            format!("{s} {s:?} {s:#?}"),
            "<redacted> <redacted> <redacted>"
        );
        assert_eq!(s.expose(), "hunter2");
    }
}

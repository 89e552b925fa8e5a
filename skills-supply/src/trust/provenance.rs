//! Where a skill came from, as the policy judges it: whether the source is a
//! folder on this machine, and every canonical location its bytes came
//! through.

use crate::canonical;

/// What a trust decision is about: the source as written (for messages),
/// whether it is a folder or file on this machine, and every canonical
/// location its bytes came through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    pub(super) source: String,
    pub(super) local: bool,
    pub(super) locations: Vec<String>,
}

impl Provenance {
    /// A source fetched from elsewhere (a URL, a repository, a registry, a
    /// `file://` URL): the pins of every canonical reading of `source`
    /// apply, and those of every location added with
    /// [`through`](Self::through).
    pub fn remote(source: &str) -> Provenance {
        Provenance {
            source: source.to_owned(),
            local: false,
            locations: canonical::readings(source),
        }
    }

    /// A folder or file on this machine, read by path: it needs no
    /// signature, and no pin applies to it (a path names no publisher's
    /// location), so a signature on it is judged against every trusted key.
    pub fn local(source: &str) -> Provenance {
        Provenance {
            source: source.to_owned(),
            local: true,
            locations: Vec::new(),
        }
    }

    /// Adds `url`, a location the bytes came through: the URL a transport
    /// actually fetched and each redirect's target (for HTTP, every URL of
    /// [`crate::http::Download::urls`]). Its pins apply too, on top of the
    /// others': they can narrow the keys, never widen them.
    #[must_use]
    pub fn through(mut self, url: &str) -> Provenance {
        for reading in canonical::readings(url) {
            if !self.locations.contains(&reading) {
                self.locations.push(reading);
            }
        }
        self
    }

    /// The source as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether it is a folder or file on this machine.
    pub fn is_local(&self) -> bool {
        self.local
    }

    /// The canonical locations pins are applied to: the source's readings
    /// (its [`canonical::identity`] first), then the ones added.
    pub fn locations(&self) -> &[String] {
        &self.locations
    }
}

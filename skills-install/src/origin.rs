//! What a trust decision is about: the origin of a skill, the one
//! canonical spelling of what is actually fetched, not what was typed
//! ([`skills_supply::canonical::identity`]: RFC 3986 normal form, one host
//! form, no scheme for the web's and git's, `oci://` kept), recorded in
//! the lock and compared when the skill is updated or added again. A git
//! repository is its URL (its folder is no part of who publishes it), an
//! index its `index.json`, an OCI artifact `oci://host/repository`. A
//! source on this machine is `local:` and its path as the lock records it.

use skills_core::lock::Resolved;
use skills_supply::canonical::identity;

/// The origin of what `resolved` pins.
pub(crate) fn of_resolved(resolved: &Resolved) -> String {
    match resolved {
        Resolved::Folder { path } | Resolved::File { path, .. } => format!("local:{path}"),
        Resolved::Url { url, .. } | Resolved::Git { url, .. } | Resolved::Index { url, .. } => {
            identity(url)
        }
        Resolved::Oci { reference, .. } => identity(reference),
        other => other.describe(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_location_written_many_ways_is_one_origin() {
        let url = |u: &str| {
            of_resolved(&Resolved::Url {
                url: u.into(),
                sha256: "0".repeat(64),
            })
        };
        let one = url("https://acme.dev/tools.skillpack");
        for written in [
            "https://Acme.dev/x/../tools.skillpack",
            "https://acme.dev:443/tools.skillpack",
            "https://user:pw@acme.dev./tools.skillpack?x=1#frag",
            "HTTPS://ACME.DEV/./tools.skillpack",
        ] {
            assert_eq!(url(written), one, "{written}");
        }
        let git = |u: &str, path: Option<&str>| {
            of_resolved(&Resolved::Git {
                url: u.into(),
                commit: "a".repeat(40),
                path: path.map(Into::into),
            })
        };
        assert_eq!(
            git("https://github.com/acme/skills.git", Some("skills/pdf")),
            git("https://github.com/Acme/skills", None)
        );
        assert_ne!(one, url("https://acme.dev/other.skillpack"));
        assert_eq!(
            of_resolved(&Resolved::Folder {
                path: "vendor/x".into()
            }),
            "local:vendor/x"
        );
    }
}

//! What a trust decision is about: the origin of a skill, one canonical
//! string for what was actually fetched (not what was typed), recorded in
//! the lock and compared when the skill is updated or re-added.
//!
//! Remote origins are URLs in one form ([`canonical`]): scheme and host in
//! lower case, IPv4 in dotted form, the default port, dot segments, user
//! information, query and fragment dropped. A git repository is its URL
//! without `.git` (its folder is no part of who publishes it), an index is
//! its `index.json`, an OCI artifact `oci://host/repository`. A source on
//! this machine is `local:` and its path as the lock records it.

use skills_core::lock::Resolved;

/// The origin of what `resolved` pins.
pub(crate) fn of_resolved(resolved: &Resolved) -> String {
    match resolved {
        Resolved::Folder { path } | Resolved::File { path, .. } => format!("local:{path}"),
        Resolved::Url { url, .. } => canonical(url),
        Resolved::Git { url, .. } => {
            let c = canonical(url);
            c.strip_suffix(".git").map(str::to_string).unwrap_or(c)
        }
        Resolved::Index { url, .. } => canonical(url),
        Resolved::Oci { reference, .. } => canonical(reference),
        other => other.describe(),
    }
}

/// `url` in one form (see the module documentation); a text that is no
/// URL (`git@host:path`) is trimmed and lower-cased up to its path.
pub(crate) fn canonical(url: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(url.trim()) else {
        return scp_like(url.trim());
    };
    let _ = parsed.set_username("");
    let _ = parsed.set_password(None);
    parsed.set_query(None);
    parsed.set_fragment(None);
    if let Some(host) = parsed.host_str() {
        let trimmed = host.trim_end_matches('.').to_ascii_lowercase();
        if trimmed != host {
            let _ = parsed.set_host(Some(&trimmed));
        }
    }
    let mut s = parsed.to_string();
    while s.ends_with('/') && s.matches('/').count() > 3 {
        s.pop();
    }
    s
}

/// `user@Host:owner/repo` as `ssh://host/owner/repo`.
fn scp_like(text: &str) -> String {
    match text.split_once(':') {
        Some((authority, path)) if !authority.contains('/') => {
            let host = authority.rsplit('@').next().unwrap_or(authority);
            format!(
                "ssh://{}/{}",
                host.trim_end_matches('.').to_ascii_lowercase(),
                path.trim_start_matches('/')
            )
        }
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_location_written_many_ways_is_one_origin() {
        for written in [
            "https://Acme.dev/x/../tools.skillpack",
            "https://acme.dev:443/tools.skillpack",
            "https://user:pw@acme.dev./tools.skillpack?x=1#frag",
            "HTTPS://ACME.DEV/./tools.skillpack",
        ] {
            assert_eq!(
                canonical(written),
                "https://acme.dev/tools.skillpack",
                "{written}"
            );
        }
        assert_eq!(canonical("http://127.1:8080/a"), "http://127.0.0.1:8080/a");
        assert_eq!(
            canonical("git@GitHub.com:acme/skills.git"),
            "ssh://github.com/acme/skills.git"
        );
        assert_eq!(
            of_resolved(&Resolved::Git {
                url: "https://github.com/acme/skills.git".into(),
                commit: "a".repeat(40),
                path: Some("skills/pdf".into()),
            }),
            "https://github.com/acme/skills"
        );
        assert_eq!(
            of_resolved(&Resolved::Folder {
                path: "vendor/x".into()
            }),
            "local:vendor/x"
        );
    }
}

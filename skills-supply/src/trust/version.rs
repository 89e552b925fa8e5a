//! The order of signed release versions, for refusing a rollback.
//!
//! A version is what a pack's trusted comment may claim
//! ([`skills_core::pack::signature::is_version`] says which strings are
//! versions); this module says which of two is older, by SemVer 2.0
//! precedence: numbers compare as numbers, a pre-release is older than its
//! release, pre-release identifiers compare one by one (numeric ones as
//! numbers and below alphanumeric ones, a shorter list first), and build
//! metadata is ignored. The comparison is the `semver` crate's.

use std::cmp::Ordering;

use skills_core::pack::signature::is_version;

/// Which of two versions takes precedence, by SemVer 2.0; `None` when either
/// is not a version. `1.0.0-rc.1` < `1.0.0` and `1.0.0+a` == `1.0.0+b`.
pub fn compare_versions(a: &str, b: &str) -> Option<Ordering> {
    let parse = |v: &str| {
        is_version(v)
            .then(|| semver::Version::parse(v).ok())
            .flatten()
    };
    Some(parse(a)?.cmp_precedence(&parse(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chain SemVer 2.0's precedence rule gives as its example, each
    /// older than the next, and every pair of it ordered as the chain says.
    #[test]
    fn precedence_follows_semver() {
        let chain = [
            "0.9.9",
            "1.0.0-0",
            "1.0.0-9",
            "1.0.0-10",
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
            "1.0.1",
            "1.2.0",
            "1.10.0",
            "2.0.0",
            "10.0.0",
        ];
        for (i, a) in chain.iter().enumerate() {
            for (j, b) in chain.iter().enumerate() {
                assert_eq!(compare_versions(a, b), Some(i.cmp(&j)), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn build_metadata_is_ignored() {
        assert_eq!(
            compare_versions("1.0.0+build.1", "1.0.0+build.2"),
            Some(Ordering::Equal)
        );
        assert_eq!(
            compare_versions("1.0.0-rc.1+z", "1.0.0+a"),
            Some(Ordering::Less)
        );
    }

    #[test]
    fn what_is_no_version_has_no_order() {
        for bad in ["", "1.0", "v1.0.0", "01.0.0", "1.0.0-01", "latest"] {
            assert_eq!(compare_versions(bad, "1.0.0"), None, "{bad}");
            assert_eq!(compare_versions("1.0.0", bad), None, "{bad}");
        }
    }

    /// `skills_core`'s reading of a version and the `semver` crate's agree,
    /// so a version a pack may claim always has an order.
    #[test]
    fn skills_core_and_semver_agree_on_what_a_version_is() {
        let parts = [
            "0",
            "1",
            "01",
            "18446744073709551615",
            "18446744073709551616",
            "",
            "a",
        ];
        let tails = [
            "",
            "-",
            "-0",
            "-00",
            "-01",
            "-a",
            "-a.",
            "-a..b",
            "-a-b.0",
            "-é",
            "+",
            "+0",
            "+01",
            "+a.b",
            "+a..b",
            "-rc.1+b.2",
            "+a+b",
            "-a_b",
        ];
        for major in parts {
            for minor in ["0", "12"] {
                for tail in tails {
                    let v = format!("{major}.{minor}.3{tail}");
                    assert_eq!(is_version(&v), semver::Version::parse(&v).is_ok(), "{v:?}");
                }
            }
        }
    }
}

//! Versions as [`publish`](super::publish) uses them: a path segment under
//! `<name>/`, so a narrow alphabet, and an order to pick the newest.
//!
//! The order is semantic versioning's where the text is one: dot-separated
//! parts, numeric parts compared as numbers, others as text (a number
//! before text); a version with a pre-release (`-rc.1`) before the same
//! one without; build metadata (`+...`) ignored, then the whole text
//! byte-wise as the last tie-break, so the order is total and the newest
//! always the same one.

use std::cmp::Ordering;

/// Checks that `version` is 1-64 of `A-Z a-z 0-9 . _ + -`, starting with
/// a letter or digit (so never `.` or `..`).
pub(crate) fn check(version: &str) -> Result<(), String> {
    let ok = (1..=64).contains(&version.len())
        && version
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._+-".contains(&b))
        && version
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric());
    if ok {
        Ok(())
    } else {
        Err(format!(
            "version `{}` must be 1-64 of `A-Z a-z 0-9 . _ + -`, starting with a letter or digit",
            version.escape_debug()
        ))
    }
}

/// Orders two versions, newest last.
pub(crate) fn compare(a: &str, b: &str) -> Ordering {
    let (a_core, a_pre) = split(a);
    let (b_core, b_pre) = split(b);
    parts(a_core, b_core)
        .then_with(|| match (a_pre, b_pre) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (Some(x), Some(y)) => parts(x, y),
        })
        .then_with(|| a.cmp(b))
}

/// The core and the pre-release of a version, build metadata dropped.
fn split(v: &str) -> (&str, Option<&str>) {
    let v = v.split('+').next().unwrap_or(v);
    match v.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (v, None),
    }
}

/// Compares dot-separated parts; a shorter list before a longer one it
/// begins.
fn parts(a: &str, b: &str) -> Ordering {
    let mut xs = a.split('.');
    let mut ys = b.split('.');
    loop {
        match (xs.next(), ys.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(m), Ok(n)) => m.cmp(&n),
                    (Ok(_), Err(_)) => Ordering::Less,
                    (Err(_), Ok(_)) => Ordering::Greater,
                    (Err(_), Err(_)) => x.cmp(y),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sort_as_semver_does() {
        let mut v = vec![
            "1.10.0",
            "1.2.0",
            "1.2.0-rc.2",
            "0.9",
            "1.2.0-rc.10",
            "2.0.0",
            "1.2.0+b1",
        ];
        v.sort_by(|a, b| compare(a, b));
        assert_eq!(
            v,
            [
                "0.9",
                "1.2.0-rc.2",
                "1.2.0-rc.10",
                "1.2.0",
                "1.2.0+b1",
                "1.10.0",
                "2.0.0"
            ]
        );
    }

    #[test]
    fn versions_that_are_not_path_segments_are_refused() {
        for bad in [
            "",
            ".",
            "..",
            "-1",
            "1/2",
            "1\\2",
            "1 2",
            "é",
            &"1".repeat(65),
        ] {
            assert!(check(bad).is_err(), "{bad:?}");
        }
        for good in ["1", "1.0.0", "2026.11.27", "1.0.0-rc.1+build_7"] {
            assert!(check(good).is_ok(), "{good:?}");
        }
    }
}

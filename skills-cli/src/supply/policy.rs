//! Rollback: whether a signed version is older than the one locked.
//!
//! Versions compare by SemVer precedence when both signatures name one,
//! else by signing time when both carry one; otherwise nothing is known
//! to be older.

use std::cmp::Ordering;

use skills_core::lock::Signer;

use super::fetched::Sig;

/// Whether `new` is older than `old`.
pub fn older(new: &Signer, old: &Signer) -> bool {
    if let (Some(a), Some(b)) = (&new.version, &old.version)
        && let Some(o) = compare_versions(a, b)
    {
        return o == Ordering::Less;
    }
    matches!((new.timestamp, old.timestamp), (Some(a), Some(b)) if a < b)
}

/// `version 1.2.0` or `signed at <time>`, for messages.
pub fn describe(s: &Signer) -> String {
    match (&s.version, s.timestamp) {
        (Some(v), _) => format!("version {v}"),
        (None, Some(t)) => format!("at {t} (Unix time)"),
        (None, None) => "without a version".to_string(),
    }
}

/// SemVer 2.0 precedence; `None` when either is not a version.
pub fn compare_versions(a: &str, b: &str) -> Option<Ordering> {
    let pa = parse(a)?;
    let pb = parse(b)?;
    Some(
        pa.0.cmp(&pb.0)
            .then_with(|| match (pa.1.is_empty(), pb.1.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => {
                    for (x, y) in pa.1.iter().zip(&pb.1) {
                        let o = match (x.parse::<u64>(), y.parse::<u64>()) {
                            (Ok(m), Ok(n)) => m.cmp(&n),
                            (Ok(_), Err(_)) => Ordering::Less,
                            (Err(_), Ok(_)) => Ordering::Greater,
                            (Err(_), Err(_)) => x.cmp(y),
                        };
                        if o != Ordering::Equal {
                            return o;
                        }
                    }
                    pa.1.len().cmp(&pb.1.len())
                }
            }),
    )
}

fn parse(v: &str) -> Option<([u64; 3], Vec<&str>)> {
    let v = v.split_once('+').map_or(v, |(c, _)| c);
    let (core, pre) = match v.split_once('-') {
        Some((c, p)) => (c, p.split('.').collect()),
        None => (v, Vec::new()),
    };
    let mut nums = [0u64; 3];
    let mut parts = core.split('.');
    for n in &mut nums {
        let p = parts.next()?;
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *n = p.parse().ok()?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some((nums, pre))
}

/// What `add` and `update` may install for the skill `name` from
/// `fetched`: its signer, or why it is installed unsigned; refused when a
/// remote source is unsigned (and not pinned by digest) without
/// `--allow-unsigned`, or signed as an older version than `locked` without
/// `--allow-downgrade`.
pub fn decide(
    fetched: &super::fetched::Fetched,
    name: &str,
    locked: Option<&skills_core::lock::LockedSkill>,
    allow_unsigned: bool,
    allow_downgrade: bool,
    source: &str,
) -> std::io::Result<(Option<Signer>, Option<String>)> {
    use super::session::refuse;
    let (signer, untrusted) = match fetched.signer_for(name) {
        Some(Sig::Trusted(s)) => (Some(s), None),
        Some(Sig::Untrusted(key)) => (None, Some(key)),
        None => (None, None),
    };
    let unsigned = match (&signer, fetched.remote) {
        (None, true) => match &fetched.pinned {
            Some(pin) => Some(pin.clone()),
            None if allow_unsigned => Some(match &untrusted {
                Some(key) => format!("--allow-unsigned (signed by untrusted key {key})"),
                None => "--allow-unsigned".to_string(),
            }),
            None => match locked.and_then(|l| l.unsigned.clone()) {
                Some(allowed) => Some(allowed),
                None => {
                    let why = match &untrusted {
                        Some(key) => format!(
                            "signed by key {key}, which is not trusted; trust it (--pubkey KEY) or pass --allow-unsigned to install it anyway (recorded in the lock)"
                        ),
                        None => "it is not signed, and a remote source must be signed by a trusted key (--pubkey KEY); pass --allow-unsigned to install it anyway (recorded in the lock)".to_string(),
                    };
                    return Err(refuse(source, name, &why));
                }
            },
        },
        // A local file with a signature nobody here trusts is refused as a
        // remote one is: its signature says someone meant it to be checked.
        (None, false) => match untrusted {
            Some(key) if allow_unsigned => {
                Some(format!("--allow-unsigned (signed by untrusted key {key})"))
            }
            Some(key) => {
                return Err(refuse(
                    source,
                    name,
                    &format!(
                        "signed by key {key}, which is not trusted; trust it (--pubkey KEY) or pass --allow-unsigned to install it anyway"
                    ),
                ));
            }
            None => None,
        },
        _ => None,
    };
    if let (Some(new), Some(old)) = (&signer, locked.and_then(|l| l.signer.as_ref()))
        && !allow_downgrade
        && older(new, old)
    {
        return Err(refuse(
            source,
            name,
            &format!(
                "signed {} by key {}, older than the locked {}; pass --allow-downgrade to install it",
                describe(new),
                new.key,
                describe(old)
            ),
        ));
    }
    Ok((signer, unsigned))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver_precedence() {
        use Ordering::*;
        let cases = [
            ("1.0.0", "1.0.1", Less),
            ("1.10.0", "1.9.0", Greater),
            ("1.0.0-alpha", "1.0.0", Less),
            ("1.0.0-alpha.1", "1.0.0-alpha.beta", Less),
            ("1.0.0-beta.2", "1.0.0-beta.11", Less),
            ("1.0.0+b1", "1.0.0+b2", Equal),
        ];
        for (a, b, o) in cases {
            assert_eq!(compare_versions(a, b), Some(o), "{a} {b}");
        }
        assert_eq!(compare_versions("1.0", "1.0.0"), None);
    }

    #[test]
    fn older_by_version_else_by_time() {
        let s = |v: Option<&str>, t: Option<u64>| Signer {
            key: "0".repeat(16),
            version: v.map(String::from),
            timestamp: t,
        };
        assert!(older(
            &s(Some("1.0.0"), Some(9)),
            &s(Some("1.1.0"), Some(1))
        ));
        assert!(!older(
            &s(Some("1.2.0"), Some(1)),
            &s(Some("1.1.0"), Some(9))
        ));
        assert!(older(&s(None, Some(1)), &s(None, Some(2))));
        assert!(!older(&s(None, None), &s(Some("1.0.0"), None)));
    }
}

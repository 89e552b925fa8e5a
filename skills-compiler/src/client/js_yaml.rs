//! What js-yaml's default schema makes of a plain scalar and which tags it
//! knows: the typing two clients apply to a frontmatter this crate's YAML
//! reader has parsed. Gemini CLI reads frontmatter with js-yaml 4, OpenCode
//! (through gray-matter) with js-yaml 3; the two versions differ in a few
//! rules, each named here with its [`Version`], so that one implementation
//! serves both clients.
//!
//! - Null: empty, `~`, `null`/`Null`/`NULL`; booleans: `true`/`false` in
//!   those three spellings (never `yes`, `on`: YAML 1.2).
//! - Integers: an optional sign, then decimal digits with `_` between
//!   them, `0x` hexadecimal, `0b` binary; octal is `0o17` in version 4 and
//!   `017` in version 3, where `1:30` (base 60) is an integer too.
//! - Floats: `1.5`, `1e5`, `.5`, `.inf`, `.nan` (three spellings each);
//!   version 3 wants no leading zero before the point (`01.5` is text) and
//!   reads base 60 (`1:30.5`).
//! - Dates: `YYYY-MM-DD`, or a date, `T` or blanks, a time, a fraction and
//!   a zone (the same in both versions).
//! - Tags: the schema's thirteen (`!!str`, `!!int`, ...); any other makes
//!   loading fail. The non-specific `!` is accepted by version 4 only.

/// The js-yaml release a client reads with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    /// js-yaml 3 (OpenCode, through gray-matter).
    Three,
    /// js-yaml 4 (Gemini CLI).
    Four,
}

/// What a plain scalar is when it is not text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar {
    /// `null`.
    Null,
    /// A boolean.
    Bool,
    /// A number (an integer or a float).
    Number,
    /// A date.
    Date,
}

/// What js-yaml's default schema makes of the plain scalar `s`: `None`
/// when it is text.
pub(crate) fn plain(s: &str, version: Version) -> Option<Scalar> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => Some(Scalar::Null),
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => Some(Scalar::Bool),
        _ if is_int(s, version) || is_float(s, version) => Some(Scalar::Number),
        _ if is_timestamp(s) => Some(Scalar::Date),
        _ => None,
    }
}

/// The tags the default schema knows, by their short name (`!!str`).
const KNOWN_TAGS: [&str; 13] = [
    "str",
    "seq",
    "map",
    "null",
    "bool",
    "int",
    "float",
    "timestamp",
    "merge",
    "binary",
    "omap",
    "pairs",
    "set",
];

/// The short name of a standard tag (`!!int`, `!<tag:yaml.org,2002:int>`:
/// `int`); `None` for any other.
pub(crate) fn standard_tag(tag: &str) -> Option<&str> {
    tag.strip_prefix("!!")
        .or_else(|| tag.strip_prefix("!<tag:yaml.org,2002:")?.strip_suffix('>'))
}

/// Whether loading fails on `tag` (as written: `!foo`, `!!custom`).
pub(crate) fn is_unknown_tag(tag: &str, version: Version) -> bool {
    match standard_tag(tag) {
        Some(name) => !KNOWN_TAGS.contains(&name),
        None => !(tag == "!" && version == Version::Four),
    }
}

/// Integers: see the module's list.
fn is_int(s: &str, version: Version) -> bool {
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    let digits = |body: &str, ok: fn(char) -> bool| {
        body.chars().all(|c| c == '_' || ok(c))
            && body.chars().any(|c| c != '_')
            && !body.ends_with('_')
    };
    if unsigned == "0" {
        return true;
    }
    if let Some(rest) = unsigned.strip_prefix('0') {
        if let Some(b) = rest.strip_prefix('b') {
            return digits(b, |c| matches!(c, '0' | '1'));
        }
        if let Some(x) = rest.strip_prefix('x') {
            return digits(x, |c| c.is_ascii_hexdigit());
        }
        return match version {
            Version::Three => digits(rest, |c| matches!(c, '0'..='7')),
            Version::Four => match rest.strip_prefix('o') {
                Some(o) => digits(o, |c| matches!(c, '0'..='7')),
                None => digits(rest, |c| c.is_ascii_digit()),
            },
        };
    }
    if unsigned.starts_with('_') {
        return false;
    }
    match (version, unsigned.split_once(':')) {
        (Version::Three, Some((head, sixty))) => {
            digits(head, |c| c.is_ascii_digit()) && sixty.split(':').all(is_sexagesimal_digit)
        }
        (Version::Four, Some(_)) => false,
        (_, None) => digits(unsigned, |c| c.is_ascii_digit()),
    }
}

/// `[0-5]?[0-9]`.
fn is_sexagesimal_digit(part: &str) -> bool {
    match part.as_bytes() {
        [d] => d.is_ascii_digit(),
        [a, d] => (b'0'..=b'5').contains(a) && d.is_ascii_digit(),
        _ => false,
    }
}

/// Floats: see the module's list.
fn is_float(s: &str, version: Version) -> bool {
    if s.ends_with('_') {
        return false;
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    let signed = unsigned.len() != s.len();
    if matches!(unsigned, ".inf" | ".Inf" | ".INF")
        || (!signed && matches!(s, ".nan" | ".NaN" | ".NAN"))
    {
        return true;
    }
    let digits_ = |t: &str| t.chars().all(|c| c.is_ascii_digit() || c == '_');
    if version == Version::Three
        && let Some((whole, frac)) = unsigned.split_once('.')
        && let Some((head, sixty)) = whole.split_once(':')
    {
        // Base 60: `[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`.
        return head.starts_with(|c: char| c.is_ascii_digit())
            && digits_(head)
            && sixty.split(':').all(is_sexagesimal_digit)
            && digits_(frac);
    }
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    // The integer part: `[0-9][0-9_]*` (4), `0|[1-9][0-9_]*` (3).
    let head_ok = |int: &str| match version {
        Version::Four => int.starts_with(|c: char| c.is_ascii_digit()) && digits_(int),
        Version::Three => {
            int == "0" || (int.starts_with(|c: char| matches!(c, '1'..='9')) && digits_(int))
        }
    };
    let mantissa_ok = match mantissa.split_once('.') {
        // `.5`: no sign, at least one digit or `_`.
        Some(("", frac)) => !signed && !frac.is_empty() && digits_(frac),
        Some((int, frac)) => head_ok(int) && digits_(frac),
        None => head_ok(mantissa),
    };
    mantissa_ok && exponent_ok
}

/// Dates: `YYYY-MM-DD`, or `YYYY-M-D`, then `T`/`t` or blanks, `H:MM:SS`,
/// a fraction, and a zone after optional blanks (`Z`, `+H`, `-HH:MM`);
/// read left to right as js-yaml's pattern reads it.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |from: usize, n: usize| {
        b.get(from..from + n)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    if b.len() == 10 && digits(0, 4) && b[4] == b'-' && digits(5, 2) && b[7] == b'-' && digits(8, 2)
    {
        return true;
    }
    let mut i = 0;
    let take = |min: usize, max: usize, i: &mut usize| {
        let n = b[*i..]
            .iter()
            .take(max)
            .take_while(|c| c.is_ascii_digit())
            .count();
        *i += n;
        n >= min
    };
    let lit = |c: u8, i: &mut usize| {
        let ok = b.get(*i) == Some(&c);
        *i += usize::from(ok);
        ok
    };
    if !(take(4, 4, &mut i)
        && lit(b'-', &mut i)
        && take(1, 2, &mut i)
        && lit(b'-', &mut i)
        && take(1, 2, &mut i))
    {
        return false;
    }
    match b.get(i) {
        Some(b'T' | b't') => i += 1,
        Some(b' ' | b'\t') => {
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
        }
        _ => return false,
    }
    if !(take(1, 2, &mut i)
        && lit(b':', &mut i)
        && take(2, 2, &mut i)
        && lit(b':', &mut i)
        && take(2, 2, &mut i))
    {
        return false;
    }
    if lit(b'.', &mut i) {
        take(0, usize::MAX, &mut i);
    }
    if i == b.len() {
        return true;
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if lit(b'Z', &mut i) {
        return i == b.len();
    }
    if !(lit(b'-', &mut i) || lit(b'+', &mut i)) || !take(1, 2, &mut i) {
        return false;
    }
    if lit(b':', &mut i) && !take(2, 2, &mut i) {
        return false;
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    use Version::{Four, Three};

    #[test]
    fn both_versions_type_these_alike() {
        for s in [
            "12345",
            "-0",
            "0x1F",
            "0b101",
            "1_000",
            "+5",
            "1.5",
            "1e5",
            "1.",
            ".5",
            "-.inf",
            ".NaN",
            "2024-01-01",
            "2024-1-2 3:04:05",
            "2024-01-01T10:00:00Z",
            "2024-01-01t10:00:00.5 +02:00",
            "2024-1-2 10:20:30 +01:00",
            "~",
            "",
            "null",
            "True",
        ] {
            assert!(plain(s, Four).is_some(), "4: {s}");
            assert!(plain(s, Three).is_some(), "3: {s}");
        }
        for s in [
            "yes",
            "on",
            "1.2.3",
            "0x",
            "_1",
            "1_",
            "1e",
            "-.5",
            ".nan1",
            "2024-01-01x",
            "abc",
            "-",
            "0b2",
            "2024-01-01T1:00",
            "ns:thing",
            "1:60",
        ] {
            assert_eq!(plain(s, Four), None, "4: {s}");
            assert_eq!(plain(s, Three), None, "3: {s}");
        }
        assert_eq!(plain("2024-01-01", Four), Some(Scalar::Date));
        assert_eq!(plain("~", Three), Some(Scalar::Null));
        assert_eq!(plain("FALSE", Three), Some(Scalar::Bool));
    }

    #[test]
    fn where_the_versions_differ() {
        // (text, js-yaml 4, js-yaml 3): octal, base 60, a leading zero.
        for (s, four, three) in [
            ("0o17", true, false),
            ("017", true, true),
            ("019", true, false),
            ("1:30", false, true),
            ("1:30.5", false, true),
            ("01.5", true, false),
        ] {
            assert_eq!(plain(s, Four).is_some(), four, "4: {s}");
            assert_eq!(plain(s, Three).is_some(), three, "3: {s}");
        }
    }

    #[test]
    fn tags() {
        for v in [Three, Four] {
            assert!(!is_unknown_tag("!!str", v));
            assert!(!is_unknown_tag("!<tag:yaml.org,2002:int>", v));
            assert!(is_unknown_tag("!foo", v));
            assert!(is_unknown_tag("!!custom", v));
        }
        assert!(!is_unknown_tag("!", Four));
        assert!(is_unknown_tag("!", Three));
        assert_eq!(standard_tag("!!int"), Some("int"));
        assert_eq!(standard_tag("!foo"), None);
    }
}

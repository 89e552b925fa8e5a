//! How a YAML 1.1 reader types an unquoted scalar.
//!
//! The reference validator reads every value as a string, but PyYAML (used
//! by Anthropic's `quick_validate.py` and many Python clients) applies the
//! YAML 1.1 implicit resolvers: `yes` is a boolean, `1.10` is the float 1.1,
//! `2024-01-02` is a date. These are PyYAML's resolver patterns, written out
//! without a regex engine.

/// What PyYAML would make of a plain scalar, when it is not a string.
pub(crate) fn implicit_type(s: &str) -> Option<&'static str> {
    if is_bool(s) {
        Some("a boolean")
    } else if is_null(s) {
        Some("null")
    } else if is_int(s) {
        Some("an integer")
    } else if is_float(s) {
        Some("a number")
    } else if is_timestamp(s) {
        Some("a date")
    } else {
        None
    }
}

/// PyYAML's booleans: `yes`, `no`, `true`, `false`, `on`, `off` in three casings.
pub(crate) fn is_bool(s: &str) -> bool {
    const WORDS: [&str; 6] = ["yes", "no", "true", "false", "on", "off"];
    WORDS.iter().any(|w| {
        s == *w || s == w.to_uppercase() || {
            let mut c = w.chars();
            c.next()
                .is_some_and(|f| s == format!("{}{}", f.to_ascii_uppercase(), c.as_str()))
        }
    })
}

fn is_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

fn strip_sign(s: &str) -> &str {
    s.strip_prefix(['-', '+']).unwrap_or(s)
}

fn all(s: &str, f: impl Fn(u8) -> bool) -> bool {
    !s.is_empty() && s.bytes().all(f)
}

fn is_int(s: &str) -> bool {
    let t = strip_sign(s);
    if let Some(b) = t.strip_prefix("0b") {
        return all(b, |c| c == b'0' || c == b'1' || c == b'_');
    }
    if let Some(x) = t.strip_prefix("0x") {
        return all(x, |c| c.is_ascii_hexdigit() || c == b'_');
    }
    if t == "0" {
        return true;
    }
    if let Some(o) = t.strip_prefix('0') {
        return all(o, |c| (b'0'..=b'7').contains(&c) || c == b'_');
    }
    if t.starts_with(|c: char| ('1'..='9').contains(&c)) {
        if all(t, |c| c.is_ascii_digit() || c == b'_') {
            return true;
        }
        return sexagesimal(t);
    }
    false
}

/// `[1-9][0-9_]*(:[0-5]?[0-9])+`
fn sexagesimal(t: &str) -> bool {
    let mut parts = t.split(':');
    let Some(head) = parts.next() else {
        return false;
    };
    if !all(head, |c| c.is_ascii_digit() || c == b'_') {
        return false;
    }
    let mut any = false;
    for p in parts {
        any = true;
        let ok = match p.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, b] => (b'0'..=b'5').contains(a) && b.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    any
}

fn is_float(s: &str) -> bool {
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let t = strip_sign(s);
    if matches!(t, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    // [0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)?  |  \.[0-9_]+([eE][-+][0-9]+)?
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    if let Some(e) = exponent {
        let Some(digits) = e.strip_prefix(['-', '+']) else {
            return false;
        };
        if !all(digits, |c| c.is_ascii_digit()) {
            return false;
        }
    }
    let Some((int, frac)) = mantissa.split_once('.') else {
        return exponent.is_none() && float_sexagesimal(t);
    };
    let digits_ = |x: &str| x.bytes().all(|c| c.is_ascii_digit() || c == b'_');
    if int.is_empty() {
        !frac.is_empty() && digits_(frac)
    } else if int.starts_with(|c: char| c.is_ascii_digit()) && digits_(int) && digits_(frac) {
        true
    } else {
        exponent.is_none() && float_sexagesimal(t)
    }
}

/// `[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`
fn float_sexagesimal(t: &str) -> bool {
    let Some((left, frac)) = t.rsplit_once('.') else {
        return false;
    };
    frac.bytes().all(|c| c.is_ascii_digit() || c == b'_')
        && left.contains(':')
        && left.starts_with(|c: char| c.is_ascii_digit())
        && sexagesimal(left)
}

fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let date = |b: &[u8]| -> Option<usize> {
        // [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}
        if b.len() < 8 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
            return None;
        }
        let mut i = 5;
        let month = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !(1..=2).contains(&month) {
            return None;
        }
        i += month;
        if b.get(i) != Some(&b'-') {
            return None;
        }
        i += 1;
        let day = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !(1..=2).contains(&day) {
            return None;
        }
        Some(i + day)
    };
    match date(b) {
        Some(n) if n == b.len() => true,
        // A date and a time: accept the common forms PyYAML reads as datetimes.
        Some(n) => {
            let rest = &s[n..];
            let rest = rest
                .strip_prefix(['T', 't'])
                .or_else(|| (rest.starts_with([' ', '\t'])).then(|| rest.trim_start()));
            rest.is_some_and(|r| {
                let hms: Vec<&str> = r.splitn(3, ':').collect();
                hms.len() == 3
                    && (1..=2).contains(&hms[0].len())
                    && hms[0].bytes().all(|c| c.is_ascii_digit())
                    && hms[1].len() == 2
                    && hms[1].bytes().all(|c| c.is_ascii_digit())
                    && hms[2].len() >= 2
                    && hms[2].as_bytes()[..2].iter().all(u8::is_ascii_digit)
            })
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pyyaml_types() {
        for (s, t) in [
            ("yes", "a boolean"),
            ("No", "a boolean"),
            ("OFF", "a boolean"),
            ("~", "null"),
            ("null", "null"),
            ("123", "an integer"),
            ("0o17", ""),
            ("017", "an integer"),
            ("0x1F", "an integer"),
            ("1_000", "an integer"),
            ("1:30", "an integer"),
            ("1.0", "a number"),
            ("1.10", "a number"),
            (".5", "a number"),
            ("1e5", ""),
            ("1.0e+5", "a number"),
            ("-.inf", "a number"),
            ("2024-01-02", "a date"),
            ("2024-01-02T10:00:00Z", "a date"),
            ("1.0.0", ""),
            ("v1", ""),
            ("yEs", ""),
            ("my-skill", ""),
        ] {
            assert_eq!(implicit_type(s).unwrap_or(""), t, "{s}");
        }
    }
}

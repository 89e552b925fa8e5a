//! A frontmatter value as JSON, with the types a YAML reader gives it.
//!
//! The rules read every scalar as a string, as the reference does; what a
//! skill's frontmatter *means* to a client, and what SEP-2640 serves as
//! `frontmatter` ("rendered verbatim as a JSON object"), keeps YAML's
//! types: `user-invocable: false` is the boolean `false`, `version: 2` the
//! number 2, while `"false"` written quoted stays a string. Plain scalars
//! are resolved by the YAML 1.2 core schema (`true`/`false`, `null`/`~`,
//! decimal, `0o` octal and `0x` hexadecimal integers, decimals and
//! exponents); `.inf` and `.nan`, which JSON cannot hold, and integers
//! beyond 64 bits stay strings. Mapping keys are strings, as JSON needs.

use crate::properties::{json_string as push_string, py_str};
use crate::yaml::{Node, Value};

/// Compact JSON of a YAML node, scalars typed as the module says.
pub fn to_json(n: &Node) -> String {
    let mut out = String::new();
    push(&mut out, n);
    out
}

fn push(out: &mut String, n: &Node) {
    match &n.value {
        Value::Str(s) if n.plain => match scalar(s) {
            Some(typed) => out.push_str(&typed),
            None => push_string(out, s),
        },
        Value::Str(s) => push_string(out, s),
        Value::Seq(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push(out, item);
            }
            out.push(']');
        }
        Value::Map(entries) => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_string(out, &py_str(k));
                out.push(':');
                push(out, v);
            }
            out.push('}');
        }
    }
}

/// The JSON of a plain scalar that the core schema does not read as a
/// string.
fn scalar(s: &str) -> Option<String> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Some("null".into()),
        "true" | "True" | "TRUE" => return Some("true".into()),
        "false" | "False" | "FALSE" => return Some("false".into()),
        _ => {}
    }
    if let Some(digits) = s.strip_prefix("0o") {
        return radix(digits, 8);
    }
    if let Some(digits) = s.strip_prefix("0x") {
        return radix(digits, 16);
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse::<i64>().ok().map(|i| i.to_string());
    }
    if is_float(unsigned) {
        return s
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(|f| format!("{f:?}"));
    }
    None
}

fn radix(digits: &str, radix: u32) -> Option<String> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    i64::from_str_radix(digits, radix)
        .ok()
        .map(|i| i.to_string())
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, the core schema's
/// float without its sign.
fn is_float(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(at) => (&s[..at], Some(&s[at + 1..])),
        None => (s, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", fraction)) => digits(fraction),
        Some((whole, fraction)) => digits(whole) && (fraction.is_empty() || digits(fraction)),
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml;

    fn json_of(yaml_text: &str) -> String {
        let file = format!("---\n{yaml_text}---\n");
        let parsed = yaml::parse(&file, 4, file.len() - 4);
        to_json(parsed.root.as_ref().expect("parsed"))
    }

    #[test]
    fn plain_scalars_keep_their_yaml_types() {
        assert_eq!(
            json_of(
                "a: false\nb: \"false\"\nc: 2\nd: 1.0\ne: ~\nf: 0x1F\ng: -3\nh: 1e3\ni: .inf\nj: yes\nk: 1.2.3\nl: 007\n"
            ),
            r#"{"a":false,"b":"false","c":2,"d":1.0,"e":null,"f":31,"g":-3,"h":1000.0,"i":".inf","j":"yes","k":"1.2.3","l":7}"#
        );
        assert_eq!(
            json_of("paths:\n  - \"src/**\"\n  - '*.rs'\nn: 99999999999999999999\nm: |\n  true\n"),
            r#"{"paths":["src/**","*.rs"],"n":"99999999999999999999","m":"true\n"}"#
        );
        // Strings as Python's `json.dumps` writes them: ASCII only.
        assert_eq!(
            json_of("s: \"a\\\"b\\n\u{e9}\"\n"),
            r#"{"s":"a\"b\n\u00e9"}"#
        );
    }
}

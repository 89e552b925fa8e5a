//! The frontmatter as Qwen Code's `parse` gives it: the `yaml` package's
//! core schema, else its own line reader ([`parse_simple`]), nulls dropped.
//!
//! The YAML is read with this crate's reader ([`crate::yaml`]); its verdict
//! on whether the text parses is taken as the `yaml` package's (both are
//! YAML 1.2 readers; they agree on the recorded cases). A repeated key is
//! an error to the `yaml` package. Plain scalars take the core schema's
//! types ([`core_scalar`]). A tag is not modelled: such a frontmatter's
//! reading is not known.

use crate::client::shared_yaml;
use crate::yaml::{Node, Value};

/// A value as JavaScript holds it after the YAML is read.
#[derive(Debug, Clone, PartialEq)]
pub enum JsValue {
    /// A string.
    Str(String),
    /// A number.
    Num(f64),
    /// A boolean.
    Bool(bool),
    /// An array (nulls dropped).
    List(Vec<JsValue>),
    /// An object, in key order (nulls dropped).
    Map(Vec<(String, JsValue)>),
}

impl JsValue {
    /// `String(value)`, as JavaScript makes text of it.
    pub fn js_string(&self) -> String {
        match self {
            JsValue::Str(s) => s.clone(),
            JsValue::Num(n) => js_number_string(*n),
            JsValue::Bool(b) => b.to_string(),
            JsValue::List(items) => items
                .iter()
                .map(JsValue::js_string)
                .collect::<Vec<_>>()
                .join(","),
            JsValue::Map(_) => "[object Object]".to_owned(),
        }
    }

    /// The value under `key` of an object.
    pub fn get(&self, key: &str) -> Option<&JsValue> {
        match self {
            JsValue::Map(entries) => entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// JavaScript's text of a number, for the numbers frontmatters hold:
/// integers below 10^21 without a fraction, others as Rust's shortest
/// form (JavaScript writes exponents below 10^-6, which is not modelled).
fn js_number_string(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{n:.0}").replace("-0", if n == 0.0 { "0" } else { "-0" })
    } else {
        format!("{n}")
    }
}

/// The frontmatter `text` (between the `---` lines) as Qwen Code reads it,
/// and whether its line reader read it (the YAML failed); `Err(why)` when
/// its reading is not modelled.
pub fn frontmatter(text: &str) -> Result<(JsValue, bool), String> {
    let parsed = shared_yaml::parse(text);
    if let Some(limit) = parsed.limit {
        return Err(format!(
            "the YAML {}, the most this tool reads; what Qwen Code reads past that is not recorded",
            limit.phrase()
        ));
    }
    let tagged = parsed
        .problems
        .iter()
        .any(|p| p.code == crate::diag::Code::YamlTag);
    if tagged {
        return Err(
            "the YAML uses a tag, and what Qwen Code's YAML reader makes of a tagged value is not modelled"
                .into(),
        );
    }
    let refused = parsed.is_fatal()
        || parsed
            .problems
            .iter()
            .any(|p| p.code == crate::diag::Code::YamlDuplicateKey);
    match &parsed.root {
        Some(root) if !refused && root.as_map().is_some() => {
            Ok((from_node(root).unwrap_or(JsValue::Map(Vec::new())), false))
        }
        _ => Ok((parse_simple(text), true)),
    }
}

/// A node under the core schema; `None` for null.
fn from_node(node: &Node) -> Option<JsValue> {
    match &node.value {
        Value::Str(s) if node.plain => core_scalar(s),
        Value::Str(s) => Some(JsValue::Str(s.clone())),
        Value::Seq(items) => Some(JsValue::List(items.iter().filter_map(from_node).collect())),
        Value::Map(entries) => Some(JsValue::Map(
            entries
                .iter()
                .filter_map(|(k, v)| {
                    let key = match &k.value {
                        Value::Str(s) => s.clone(),
                        _ => return None,
                    };
                    from_node(v).map(|v| (key, v))
                })
                .collect(),
        )),
    }
}

/// A plain scalar under YAML 1.2's core schema: null, boolean, integer
/// (decimal, `0o`, `0x`), float (`.inf`, `.nan`, decimal with exponent),
/// else text. `None` for null.
pub(crate) fn core_scalar(s: &str) -> Option<JsValue> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return None,
        "true" | "True" | "TRUE" => return Some(JsValue::Bool(true)),
        "false" | "False" | "FALSE" => return Some(JsValue::Bool(false)),
        ".nan" | ".NaN" | ".NAN" => return Some(JsValue::Num(f64::NAN)),
        _ => {}
    }
    let (sign, rest) = match s.strip_prefix(['-', '+']) {
        Some(rest) => (if s.starts_with('-') { -1.0 } else { 1.0 }, rest),
        None => (1.0, s),
    };
    if matches!(rest, ".inf" | ".Inf" | ".INF") {
        return Some(JsValue::Num(sign * f64::INFINITY));
    }
    let radix = |digits: &str, base: u32| {
        (!digits.is_empty() && digits.chars().all(|c| c.is_digit(base)))
            .then(|| u128::from_str_radix(digits, base).ok().map(|n| n as f64))
            .flatten()
    };
    if let Some(n) = s.strip_prefix("0x").and_then(|hex| radix(hex, 16)) {
        return Some(JsValue::Num(n));
    }
    if let Some(n) = s.strip_prefix("0o").and_then(|oct| radix(oct, 8)) {
        return Some(JsValue::Num(n));
    }
    if is_decimal(rest)
        && let Ok(n) = rest.parse::<f64>()
    {
        return Some(JsValue::Num(sign * n));
    }
    Some(JsValue::Str(s.to_owned()))
}

/// `[0-9]+` or `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn is_decimal(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        None => digits(mantissa),
        Some(("", frac)) => digits(frac),
        Some((int, frac)) => digits(int) && (frac.is_empty() || digits(frac)),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

/// Qwen Code's line reader (`parseSimple`), line for line: `key: value`
/// lines (split at the first `:`), `  - item` lists under `key:`, and
/// one level of `  key: value` objects; values typed by `simple_value`.
pub fn parse_simple(text: &str) -> JsValue {
    let lines: Vec<&str> = text
        .split('\n')
        .filter(|l| {
            let t = l.trim_matches(js_space);
            !t.is_empty() && !t.starts_with('#')
        })
        .collect();
    let mut result: Vec<(String, JsValue)> = Vec::new();
    let set = |result: &mut Vec<(String, JsValue)>, key: String, value: Option<JsValue>| {
        result.retain(|(k, _)| *k != key);
        if let Some(value) = value {
            result.push((key, value));
        }
    };
    let mut current_key = String::new();
    let mut array: Option<Vec<JsValue>> = None;
    let mut object: Option<(String, Vec<(String, JsValue)>)> = None;
    for (i, line) in lines.iter().enumerate() {
        if let Some(item) = line.strip_prefix("  - ") {
            array
                .get_or_insert_with(Vec::new)
                .extend(simple_value(item.trim_matches(js_space)));
            continue;
        }
        if let Some(items) = array.take() {
            set(
                &mut result,
                std::mem::take(&mut current_key),
                Some(JsValue::List(items)),
            );
        }
        if line.starts_with("  ")
            && let Some((_, entries)) = object.as_mut()
        {
            let t = line.trim_matches(js_space);
            let (key, value) = t.split_once(':').unwrap_or((t, ""));
            let key = key.trim_matches(js_space).to_owned();
            entries.retain(|(k, _)| *k != key);
            if let Some(v) = simple_value(value.trim_matches(js_space)) {
                entries.push((key, v));
            }
            continue;
        }
        if let Some((key, entries)) = object.take() {
            set(&mut result, key, Some(JsValue::Map(entries)));
        }
        if let Some((key, value)) = line.split_once(':') {
            let value = value.trim_matches(js_space);
            let key = key.trim_matches(js_space).to_owned();
            if value.is_empty() {
                current_key = key;
                if let Some(next) = lines.get(i + 1) {
                    if next.starts_with("  - ") {
                        continue;
                    } else if next.starts_with("  ") {
                        object = Some((std::mem::take(&mut current_key), Vec::new()));
                        continue;
                    }
                }
                // `key:` alone, not followed by an indented line, sets nothing.
            } else {
                set(&mut result, key, simple_value(value));
            }
        }
    }
    if let Some(items) = array {
        set(&mut result, current_key, Some(JsValue::List(items)));
    }
    if let Some((key, entries)) = object {
        set(&mut result, key, Some(JsValue::Map(entries)));
    }
    JsValue::Map(result)
}

/// `parseValue`: `true`, `false`, `null` (dropped), `""`, a double-quoted
/// string (`\"` and `\\` unescaped), a finite JavaScript number, else the
/// text.
fn simple_value(value: &str) -> Option<JsValue> {
    match value {
        "true" => return Some(JsValue::Bool(true)),
        "false" => return Some(JsValue::Bool(false)),
        "null" => return None,
        "" => return Some(JsValue::Str(String::new())),
        _ => {}
    }
    if value.len() >= 2 && value.starts_with('"') && value.ends_with('"') {
        let inner = &value[1..value.len() - 1];
        return Some(JsValue::Str(
            inner.replace("\\\"", "\"").replace("\\\\", "\\"),
        ));
    }
    match js_number(value) {
        Some(n) if n.is_finite() => Some(JsValue::Num(n)),
        _ => Some(JsValue::Str(value.to_owned())),
    }
}

/// JavaScript's `Number(s)` for a trimmed, non-empty `s`: decimal with an
/// optional sign, fraction and exponent; `0x`, `0o`, `0b` without a sign;
/// `Infinity`. `None` for `NaN`.
fn js_number(s: &str) -> Option<f64> {
    for (prefix, base) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(digits) = s.strip_prefix(prefix) {
            return (!digits.is_empty() && digits.chars().all(|c| c.is_digit(base)))
                .then(|| u128::from_str_radix(digits, base).ok().map(|n| n as f64))
                .flatten();
        }
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if unsigned == "Infinity" {
        return Some(if s.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if !is_decimal(unsigned) {
        return None;
    }
    s.parse::<f64>().ok()
}

fn js_space(c: char) -> bool {
    skills_core::catalog::claude_code::is_js_whitespace(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(yaml: &str, key: &str) -> Option<String> {
        frontmatter(yaml).ok()?.0.get(key).map(JsValue::js_string)
    }

    #[test]
    fn the_yaml_when_it_parses_the_lines_otherwise() {
        assert_eq!(
            field("name: a\ndescription: 12345", "description").as_deref(),
            Some("12345")
        );
        assert_eq!(
            field(
                "name: a\ndescription:\n  - item one\n  - item two",
                "description"
            )
            .as_deref(),
            Some("item one,item two")
        );
        assert_eq!(
            field("name: a\ndescription: 0x1F", "description").as_deref(),
            Some("31")
        );
        assert_eq!(
            field("name: a\ndescription: 1.50", "description").as_deref(),
            Some("1.5")
        );
        assert_eq!(field("name: a\ndescription: ~", "description"), None);
        assert_eq!(
            field(
                "name: a\ndescription: Use when: the plain scalar has a colon-space",
                "description"
            )
            .as_deref(),
            Some("Use when: the plain scalar has a colon-space")
        );
        assert_eq!(
            field("name: a\ndescription: [unclosed flow", "description").as_deref(),
            Some("[unclosed flow")
        );
        assert_eq!(
            field("name: a\n\tdescription: tab indented", "description").as_deref(),
            Some("tab indented")
        );
        // A repeated key: the line reader, which keeps the last.
        assert_eq!(
            field("name: a\nname: b\ndescription: d", "name").as_deref(),
            Some("b")
        );
        assert_eq!(
            field("name: \"q\\\"x\"\ndescription: d: e", "name").as_deref(),
            Some("q\"x")
        );
        assert!(frontmatter("name: !foo a\ndescription: d").is_err());
    }

    #[test]
    fn the_line_reader() {
        let v =
            parse_simple("# c\nname: x\ntools:\n  - a\n  - 2\nmeta:\n  k: v\nflag: true\nn: null");
        assert_eq!(
            v.get("tools"),
            Some(&JsValue::List(vec![
                JsValue::Str("a".into()),
                JsValue::Num(2.0)
            ]))
        );
        assert_eq!(
            v.get("meta").map(JsValue::js_string).as_deref(),
            Some("[object Object]")
        );
        assert_eq!(v.get("flag"), Some(&JsValue::Bool(true)));
        assert_eq!(v.get("n"), None);
        assert_eq!(js_number("1e3"), Some(1000.0));
        assert_eq!(js_number("0b101"), Some(5.0));
        assert_eq!(js_number("1_000"), None);
        assert_eq!(JsValue::Num(-0.0).js_string(), "0");
        assert_eq!(JsValue::Num(7.0).js_string(), "7");
    }
}

//! The reference's `read_properties` and `to_prompt`, exactly.
//!
//! `skills-ref read-properties` prints a skill's frontmatter as Python's
//! `json.dumps(indent=2)` (ASCII-only, `\uXXXX` escapes), and `to-prompt`
//! prints the `<available_skills>` block with `html.escape`d names and
//! descriptions. Both go through the same parser as validation; only the
//! rendering copies Python's conventions, so the output is byte-identical.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::options::Options;
use crate::profile::Profile;
use crate::skill::check_skill;
use crate::yaml::{Node, Value};
use skills_core::pyrepr;

/// Why properties could not be read, with the reference's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PropertiesError {
    /// `SKILL.md` missing or unreadable frontmatter (the reference's `ParseError`).
    Parse(String),
    /// A required field missing or empty (the reference's `ValidationError`).
    Validation(String),
    /// Something the reference does not anticipate (it raises a Python exception).
    Other(String),
}

impl std::fmt::Display for PropertiesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PropertiesError::Parse(m)
            | PropertiesError::Validation(m)
            | PropertiesError::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PropertiesError {}

/// A skill's properties, as the reference's `SkillProperties`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Properties {
    /// `name`, stripped (not NFKC-normalised: the reference normalises only to validate).
    pub name: String,
    /// `description`, stripped.
    pub description: String,
    /// `license`, whatever its shape.
    pub license: Option<Node>,
    /// `compatibility`, whatever its shape.
    pub compatibility: Option<Node>,
    /// `allowed-tools`, whatever its shape.
    pub allowed_tools: Option<Node>,
    /// `metadata`: a mapping's values turned into strings as Python's `str()` does.
    pub metadata: Option<Metadata>,
    /// Where `SKILL.md` is.
    pub skill_md: PathBuf,
}

/// The `metadata` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Metadata {
    /// A mapping, each value as Python's `str()` of it.
    Map(Vec<(String, String)>),
    /// Anything else, kept as it is.
    Other(Node),
}

/// Reads `dir`'s properties as `skills_ref.read_properties` does.
pub fn read_properties(dir: &Path) -> Result<Properties, PropertiesError> {
    let options = Options {
        profile: Profile::Spec,
        lints: false,
        ..Options::default()
    };
    let skill = check_skill(dir, None, &options);
    let Some(skill_md) = skill.skill_md.clone() else {
        return Err(PropertiesError::Parse(format!(
            "SKILL.md not found in {}",
            dir.display()
        )));
    };
    if let Some(d) = skill
        .diagnostics
        .iter()
        .find(|d| d.is_error() && d.code.stops_reading())
    {
        return Err(match &d.reference {
            Some(r) => PropertiesError::Parse(r.clone()),
            None => PropertiesError::Other(d.message.clone()),
        });
    }
    let Some(root) = skill.frontmatter.as_ref() else {
        return Err(PropertiesError::Parse(
            "SKILL.md frontmatter must be a YAML mapping".into(),
        ));
    };
    let required = |key: &str| -> Result<String, PropertiesError> {
        match root.get(key) {
            None => Err(PropertiesError::Validation(format!(
                "Missing required field in frontmatter: {key}"
            ))),
            Some(n) => match n.as_str().map(crate::pyunicode::strip) {
                Some(s) if !s.is_empty() => Ok(s.to_string()),
                _ => Err(PropertiesError::Validation(format!(
                    "Field '{key}' must be a non-empty string"
                ))),
            },
        }
    };
    // The reference checks presence of both before their values.
    for key in ["name", "description"] {
        if root.get(key).is_none() {
            return Err(PropertiesError::Validation(format!(
                "Missing required field in frontmatter: {key}"
            )));
        }
    }
    let name = required("name")?;
    let description = required("description")?;
    let metadata = root.get("metadata").map(|m| match &m.value {
        Value::Map(entries) => Metadata::Map(
            entries
                .iter()
                .map(|(k, v)| (py_str(k), py_str(v)))
                .collect(),
        ),
        _ => Metadata::Other(m.clone()),
    });
    Ok(Properties {
        name,
        description,
        license: root.get("license").cloned(),
        compatibility: root.get("compatibility").cloned(),
        allowed_tools: root.get("allowed-tools").cloned(),
        metadata,
        skill_md,
    })
}

impl Properties {
    /// `json.dumps(props.to_dict(), indent=2)`.
    pub fn to_json(&self) -> String {
        let mut fields: Vec<(&str, Json<'_>)> = vec![
            ("name", Json::Str(&self.name)),
            ("description", Json::Str(&self.description)),
        ];
        if let Some(n) = &self.license {
            fields.push(("license", Json::Node(n)));
        }
        if let Some(n) = &self.compatibility {
            fields.push(("compatibility", Json::Node(n)));
        }
        if let Some(n) = &self.allowed_tools {
            fields.push(("allowed-tools", Json::Node(n)));
        }
        match &self.metadata {
            Some(Metadata::Map(m)) if !m.is_empty() => fields.push(("metadata", Json::Pairs(m))),
            Some(Metadata::Other(n)) if truthy(n) => fields.push(("metadata", Json::Node(n))),
            _ => {}
        }
        let mut out = String::new();
        write_object(&mut out, 0, fields.iter().map(|(k, v)| (*k, v)));
        out
    }
}

/// Python truthiness of a parsed value.
fn truthy(n: &Node) -> bool {
    match &n.value {
        Value::Str(s) => !s.is_empty(),
        Value::Seq(v) => !v.is_empty(),
        Value::Map(m) => !m.is_empty(),
    }
}

enum Json<'a> {
    Str(&'a str),
    Node(&'a Node),
    Pairs(&'a [(String, String)]),
}

fn write_value(out: &mut String, indent: usize, v: &Json<'_>) {
    match v {
        Json::Str(s) => json_string(out, s),
        Json::Pairs(pairs) => {
            let items: Vec<(&str, Json<'_>)> = pairs
                .iter()
                .map(|(k, v)| (k.as_str(), Json::Str(v)))
                .collect();
            write_object(out, indent, items.iter().map(|(k, v)| (*k, v)));
        }
        Json::Node(n) => match &n.value {
            Value::Str(s) => json_string(out, s),
            Value::Seq(items) => {
                if items.is_empty() {
                    out.push_str("[]");
                    return;
                }
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    out.push_str(&" ".repeat(indent + 2));
                    write_value(out, indent + 2, &Json::Node(item));
                }
                out.push('\n');
                out.push_str(&" ".repeat(indent));
                out.push(']');
            }
            Value::Map(entries) => {
                let keys: Vec<String> = entries.iter().map(|(k, _)| py_str(k)).collect();
                let items: Vec<(&str, Json<'_>)> = keys
                    .iter()
                    .zip(entries)
                    .map(|(k, (_, v))| (k.as_str(), Json::Node(v)))
                    .collect();
                write_object(out, indent, items.iter().map(|(k, v)| (*k, v)));
            }
        },
    }
}

fn write_object<'a, 'b: 'a>(
    out: &mut String,
    indent: usize,
    fields: impl Iterator<Item = (&'a str, &'a Json<'b>)>,
) {
    let mut any = false;
    for (i, (k, v)) in fields.enumerate() {
        any = true;
        out.push_str(if i == 0 { "{\n" } else { ",\n" });
        out.push_str(&" ".repeat(indent + 2));
        json_string(out, k);
        out.push_str(": ");
        write_value(out, indent + 2, v);
    }
    if any {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
        out.push('}');
    } else {
        out.push_str("{}");
    }
}

/// Python's `json.dumps` of a string with `ensure_ascii=True`.
pub(crate) fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Python's `str()` of a strictyaml value: strings as they are, lists and
/// dicts as their `repr`.
pub(crate) fn py_str(n: &Node) -> String {
    match &n.value {
        Value::Str(s) => s.clone(),
        _ => py_repr(n),
    }
}

fn py_repr(n: &Node) -> String {
    match &n.value {
        Value::Str(s) => pyrepr::repr(s),
        Value::Seq(items) => format!(
            "[{}]",
            items.iter().map(py_repr).collect::<Vec<_>>().join(", ")
        ),
        Value::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{}: {}", py_repr(k), py_repr(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The reference's `to_prompt`: the `<available_skills>` block for
/// `(name, description, SKILL.md location)` triples.
pub fn to_prompt<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str, &'a Path)>) -> String {
    let located: Vec<(&str, &str, String)> = skills
        .into_iter()
        .map(|(n, d, l)| (n, d, l.display().to_string()))
        .collect();
    skills_core::catalog::render(located.iter().map(|(n, d, l)| (*n, *d, l.as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_like_python() {
        let mut s = String::new();
        json_string(&mut s, "café \"q\" \\ 🚀\n");
        assert_eq!(s, r#""caf\u00e9 \"q\" \\ \ud83d\ude80\n""#);
    }
}

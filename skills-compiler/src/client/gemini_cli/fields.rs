//! The `name` and `description` Gemini CLI 0.61.0 reads from a frontmatter:
//! the YAML's, when it parses (with js-yaml) to a mapping whose `name` and
//! `description` are both text; else those of its line reading
//! ([`line_fields`]), which takes the lines as written.
//!
//! The YAML is parsed with this crate's reader ([`crate::yaml`]), whose
//! verdicts match js-yaml's on what frontmatters hold; where js-yaml differs
//! from it, this module says so:
//! - js-yaml refuses a repeated key anywhere in the document (the reader
//!   keeps the last value): the line reading follows;
//! - a plain scalar is text unless js-yaml's default schema types it: null
//!   (`~`, `null`, empty), a boolean (`true`, `False`, ...: not `yes`), an
//!   integer (`12345`, `0x1F`, `1_000`), a float (`1.5`, `.inf`), a date
//!   (`2024-01-01`); quoted and block scalars are always text;
//! - an unknown tag (`!foo`) makes js-yaml fail: the line reading follows.
//!   The standard tags (`!!str`, ...) and merge keys (`<<`) change what
//!   js-yaml gives in ways not modelled: such a reading is not known.

use crate::yaml::{self, Limit, Node, Value};

use super::frontmatter::line_fields;
use crate::client::js_yaml::{self, Scalar, Version, is_unknown_tag};
use crate::client::shared_yaml;

/// What Gemini CLI takes from a frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fields {
    /// Both from the YAML.
    Yaml {
        /// `name`, before sanitising.
        name: String,
        /// `description`.
        description: String,
    },
    /// From the line reading, because the YAML could not give both.
    Lines {
        /// Why the YAML was not used, as a clause: `the YAML does not parse`.
        why: String,
        /// The `name:` line's value, if any.
        name: Option<String>,
        /// The `description:` lines' value, if any.
        description: Option<String>,
    },
    /// Not known: the YAML uses what this module does not model, or is past
    /// one of the reader's bounds (`why` says which).
    Unknown {
        /// Why.
        why: String,
    },
}

/// The fields Gemini CLI reads from `yaml`, the text between the
/// delimiters.
pub fn fields(yaml: &str) -> Fields {
    let parsed = shared_yaml::parse(yaml);
    if let Some(limit) = parsed.limit {
        return beyond(limit);
    }
    let why = if parsed.is_fatal() {
        Some("the YAML does not parse".to_owned())
    } else if let Some(tag) = tags(yaml, &parsed).find(|t| !is_unknown_tag(t, Version::Four)) {
        return Fields::Unknown {
            why: format!(
                "the YAML uses the tag `{tag}`, and what Gemini CLI's YAML reader (js-yaml) makes of a tagged value is not modelled"
            ),
        };
    } else if let Some(tag) = tags(yaml, &parsed).next() {
        Some(format!(
            "the YAML uses the tag `{tag}`, which Gemini CLI's YAML reader does not know"
        ))
    } else if let Some(d) = parsed
        .problems
        .iter()
        .find(|p| p.code == crate::diag::Code::YamlDuplicateKey)
    {
        Some(format!(
            "the YAML has a {}, which Gemini CLI's YAML reader refuses",
            d.message
        ))
    } else {
        match &parsed.root {
            Some(root) if root.as_map().is_some() => {
                if root
                    .as_map()
                    .is_some_and(|m| m.iter().any(|(k, _)| k.plain && k.as_str() == Some("<<")))
                {
                    return Fields::Unknown {
                        why: "the YAML uses a merge key (`<<`), which Gemini CLI's YAML reader expands; that is not modelled".into(),
                    };
                }
                match (text(root.get("name")), text(root.get("description"))) {
                    (Ok(name), Ok(description)) => return Fields::Yaml { name, description },
                    (Err(kind), _) => Some(not_text("name", kind)),
                    (_, Err(kind)) => Some(not_text("description", kind)),
                }
            }
            Some(root) => Some(format!(
                "the YAML is {}, not a mapping",
                match root.value {
                    Value::Seq(_) => "a list",
                    _ => "a single value",
                }
            )),
            None => Some("the YAML is empty".to_owned()),
        }
    };
    let (name, description) = line_fields(yaml);
    Fields::Lines {
        why: why.unwrap_or_default(),
        name,
        description,
    }
}

/// Why a field of the YAML is not used, as a clause.
fn not_text(field: &str, kind: &str) -> String {
    if kind == "missing" {
        format!("there is no `{field}` in the YAML")
    } else {
        format!("`{field}` is {kind} in the YAML, not text")
    }
}

fn beyond(limit: Limit) -> Fields {
    Fields::Unknown {
        why: format!(
            "the YAML {}, the most this tool reads; what Gemini CLI reads past that is not recorded",
            limit.phrase()
        ),
    }
}

/// The tags `yaml` uses, as written (`!foo`, `!!str`).
fn tags<'y>(yaml: &'y str, parsed: &'y yaml::Parsed) -> impl Iterator<Item = &'y str> + 'y {
    parsed
        .problems
        .iter()
        .filter(|p| p.code == crate::diag::Code::YamlTag)
        .map(|p| yaml.get(p.span.clone()).unwrap_or("!"))
}

/// The text of a field, or what kind of value it is instead (for messages:
/// `a number`, `missing`).
fn text(node: Option<&Node>) -> Result<String, &'static str> {
    let Some(node) = node else {
        return Err("missing");
    };
    match &node.value {
        Value::Seq(_) => Err("a list"),
        Value::Map(_) => Err("a mapping"),
        Value::Str(s) if !node.plain => Ok(s.clone()),
        Value::Str(s) => match plain_type(s) {
            Some(kind) => Err(kind),
            None => Ok(s.clone()),
        },
    }
}

/// What js-yaml 4's default schema makes of a plain scalar other than
/// text, for messages: `None` when it is text.
fn plain_type(s: &str) -> Option<&'static str> {
    js_yaml::plain(s, Version::Four).map(|kind| match kind {
        Scalar::Null => "empty (null)",
        Scalar::Bool => "a boolean",
        Scalar::Number => "a number",
        Scalar::Date => "a date",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(name: &str, description: &str) -> Fields {
        Fields::Yaml {
            name: name.into(),
            description: description.into(),
        }
    }

    #[test]
    fn the_yaml_when_both_are_text() {
        assert_eq!(fields("name: a\ndescription: b"), yaml("a", "b"));
        assert_eq!(
            fields("name: m\ndescription: |\n  Line one.\n  Line two.\n\n  Para two.\n"),
            yaml("m", "Line one.\nLine two.\n\nPara two.\n")
        );
        assert_eq!(
            fields("name: f\ndescription: >\n  Folded line one\n  folded line two.\n"),
            yaml("f", "Folded line one folded line two.\n")
        );
        assert_eq!(fields("name: e\ndescription: \"\""), yaml("e", ""));
        assert_eq!(
            fields("name: yes\ndescription: 1.2.3"),
            yaml("yes", "1.2.3")
        );
        assert_eq!(
            fields("name: x\ndescription: d\nrequires: [a, b]\nmeta: {a: 1}"),
            yaml("x", "d")
        );
    }

    #[test]
    fn the_lines_otherwise() {
        let lines = |f: Fields| match f {
            Fields::Lines {
                name, description, ..
            } => (name, description),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            lines(fields("name: desc-number\ndescription: 12345")),
            (Some("desc-number".into()), Some("12345".into()))
        );
        assert_eq!(
            lines(fields("name: 12345\ndescription: Name is a number."))
                .0
                .as_deref(),
            Some("12345")
        );
        assert_eq!(
            lines(fields("name: q\ndescription: [unclosed flow"))
                .1
                .as_deref(),
            Some("[unclosed flow")
        );
        assert_eq!(
            lines(fields("name: \"q\"\ndescription: a\ndescription: b")),
            (Some("\"q\"".into()), Some("b".into()))
        );
        assert_eq!(
            lines(fields("name: t\ndescription: !foo x")).1.as_deref(),
            Some("!foo x")
        );
        assert_eq!(lines(fields("")), (None, None));
        assert!(matches!(
            fields("name: !!str 1\ndescription: d"),
            Fields::Unknown { .. }
        ));
    }

    #[test]
    fn js_yaml_types() {
        for s in [
            "12345",
            "-0",
            "0x1F",
            "0o17",
            "0b101",
            "1_000",
            "007",
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
            "~",
            "",
            "null",
            "True",
        ] {
            assert!(plain_type(s).is_some(), "{s}");
        }
        for s in [
            "yes",
            "1.2.3",
            "0x",
            "_1",
            "1_",
            "1e",
            "-.5",
            ".nan1",
            "2024-01-01x",
            "12:30",
            "abc",
            "-",
            "0b2",
            "2024-01-01T1:00",
        ] {
            assert_eq!(plain_type(s), None, "{s}");
        }
    }
}

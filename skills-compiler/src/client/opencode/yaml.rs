//! A frontmatter as `js-yaml` 3 reads it for OpenCode: this crate's YAML
//! reader, tabs after the indentation taken as separation, a duplicate key
//! or an unknown tag an error, and each value's JavaScript type
//! ([`crate::client::js_yaml`]).

use std::rc::Rc;

use crate::client::js_yaml::{self, Scalar, Version, is_unknown_tag, standard_tag};
use crate::client::shared_yaml;
use crate::diag::Code;
use crate::yaml::{self, Node, Value};

/// A frontmatter mapping as `js-yaml` 3 reads it: the tree, the text it
/// was parsed from (the node spans point into it) and the tags written.
#[derive(Debug)]
pub struct JsYaml {
    /// The parse, shared with the other readers handed the same text.
    parsed: Rc<yaml::Parsed>,
    /// The text parsed (tabs of the indentation dropped when needed).
    text: String,
    /// Each tag written, as the range of its text.
    tags: Vec<std::ops::Range<usize>>,
}

/// Why `js-yaml` failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlError {
    /// A syntax error, a duplicate key or an unknown tag: our message.
    Invalid(String),
    /// Past one of this tool's bounds.
    Beyond(yaml::Limit),
    /// A frontmatter in a language this tool does not read as OpenCode
    /// does (`---json`, `---js`): why.
    NotModelled(String),
}

/// `yaml` without the tabs `js-yaml` 3 takes as separation: on each line,
/// the blanks after the leading spaces when they hold a tab.
fn without_indent_tabs(yaml: &str) -> String {
    let mut out = String::with_capacity(yaml.len());
    for (i, line) in yaml.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[spaces..];
        let blanks = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        out.push_str(&line[..spaces]);
        if rest[..blanks].contains('\t') {
            out.push_str(&rest[blanks..]);
        } else {
            out.push_str(rest);
        }
    }
    out
}

/// Parses `yaml` as `js-yaml` 3 does (see the module's step 3).
pub fn parse_js_yaml(yaml: &str) -> Result<JsYaml, YamlError> {
    let first = parse_strictly(yaml.to_owned());
    match first {
        Err(YamlError::Invalid(_)) if yaml.contains('\t') => {
            let detabbed = without_indent_tabs(yaml);
            if detabbed == yaml {
                return first;
            }
            // The first error stands when dropping the tabs does not help.
            parse_strictly(detabbed).or(first)
        }
        other => other,
    }
}

fn parse_strictly(text: String) -> Result<JsYaml, YamlError> {
    let parsed = shared_yaml::parse(&text);
    if let Some(limit) = parsed.limit {
        return Err(YamlError::Beyond(limit));
    }
    let mut tags = Vec::new();
    for p in &parsed.problems {
        match p.code {
            Code::InvalidYaml => return Err(YamlError::Invalid(p.message.clone())),
            Code::YamlDuplicateKey => return Err(YamlError::Invalid(p.message.clone())),
            Code::YamlTag => {
                let tag = text.get(p.span.clone()).unwrap_or_default();
                if is_unknown_tag(tag, Version::Three) {
                    return Err(YamlError::Invalid(format!("unknown tag `{tag}`")));
                }
                tags.push(p.span.clone());
            }
            _ => {}
        }
    }
    Ok(JsYaml { parsed, text, tags })
}

impl JsYaml {
    /// The root, `None` for an empty document.
    pub fn root(&self) -> Option<&Node> {
        self.parsed.root.as_ref()
    }

    /// The tag written right before `node`, if any.
    fn tag_of(&self, node: &Node) -> Option<&str> {
        self.tags
            .iter()
            .rev()
            .filter(|t| t.end <= node.span.start)
            .find(|t| {
                self.text
                    .get(t.end..node.span.start)
                    .is_some_and(|between| between.trim().is_empty())
            })
            .and_then(|t| standard_tag(self.text.get(t.clone())?))
    }

    /// The JavaScript type of `node`'s value: `string`, or what else it is.
    pub fn js_type(&self, node: &Node) -> &'static str {
        match (&node.value, self.tag_of(node)) {
            (Value::Seq(_), _) => "list",
            (Value::Map(_), _) => "mapping",
            (Value::Str(_), Some("str")) => "string",
            (Value::Str(_), Some("null")) => "null",
            (Value::Str(_), Some("bool")) => "boolean",
            (Value::Str(_), Some("int" | "float")) => "number",
            (Value::Str(_), Some("timestamp")) => "date",
            (Value::Str(_), Some(_)) => "tagged value",
            (Value::Str(s), None) if node.plain => plain_type(s),
            (Value::Str(_), None) => "string",
        }
    }

    /// `key`'s value when it is a string.
    pub(super) fn string(&self, key: &str) -> Result<Option<String>, &'static str> {
        let Some(node) = self.root().and_then(|r| r.get(key)) else {
            return Ok(None);
        };
        match (self.js_type(node), node.as_str()) {
            ("string", Some(s)) => Ok(Some(s.to_owned())),
            (other, _) => Err(other),
        }
    }
}

/// The JavaScript type `js-yaml` 3's safe schema gives a plain scalar.
fn plain_type(s: &str) -> &'static str {
    match js_yaml::plain(s, Version::Three) {
        None => "string",
        Some(Scalar::Null) => "null",
        Some(Scalar::Bool) => "boolean",
        Some(Scalar::Number) => "number",
        Some(Scalar::Date) => "date",
    }
}

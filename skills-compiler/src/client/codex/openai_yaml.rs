//! `agents/openai.yaml`: the Codex-specific metadata beside a skill's
//! `SKILL.md` (`interface`, `dependencies.tools`, `policy`), read as Codex
//! reads it, with what it would ignore and why.
//!
//! Codex never refuses a skill over this file: a file whose YAML does not
//! parse into its shape (a syntax error, `allow_implicit_invocation: maybe`)
//! is ignored whole, and a field that breaks a rule (empty, too long, an
//! icon outside `assets/`, a colour that is not `#RRGGBB`, a tool without
//! `type` or `value`) is ignored alone. Each of those is an
//! [`OpenAiYamlProblem`] here, with the byte range it is about, so that the
//! `codex` profile can warn with a position. Keys Codex does not read are
//! reported too: a misspelt `allow_implicit_invocation` silently changes
//! nothing. `policy.products` is read as a list of strings (Codex checks its
//! values against its own product list, which is not recorded).

use std::ops::Range;
use std::path::{Component, PathBuf};

use serde::Deserialize;

use super::{MAX_NAME_CHARS, collapse_whitespace};
use crate::yaml::{self, Node, Value};

/// The longest description-like field Codex keeps, in characters.
const MAX_TEXT_CHARS: usize = 1024;

/// What Codex takes from `agents/openai.yaml` (fields it ignores are `None`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenAiYaml {
    /// `interface.display_name`.
    pub display_name: Option<String>,
    /// `interface.short_description`.
    pub short_description: Option<String>,
    /// `interface.icon_small`, relative to the skill folder.
    pub icon_small: Option<PathBuf>,
    /// `interface.icon_large`, relative to the skill folder.
    pub icon_large: Option<PathBuf>,
    /// `interface.brand_color`, `#RRGGBB`.
    pub brand_color: Option<String>,
    /// `interface.default_prompt`.
    pub default_prompt: Option<String>,
    /// `dependencies.tools` Codex keeps, as `(type, value)`.
    pub tools: Vec<(String, String)>,
    /// `policy.allow_implicit_invocation`: `Some(false)` keeps the skill out
    /// of the model's list; it can still be invoked as `$name`.
    pub allow_implicit_invocation: Option<bool>,
    /// `policy.products`.
    pub products: Vec<String>,
}

/// Something in `agents/openai.yaml` that Codex ignores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAiYamlProblem {
    /// What is ignored and why.
    pub message: String,
    /// Byte range in the file, when there is one.
    pub span: Option<Range<usize>>,
}

#[derive(Debug, Default, Deserialize)]
struct SkillMetadataFile {
    #[serde(default)]
    interface: Option<Interface>,
    #[serde(default)]
    dependencies: Option<Dependencies>,
    #[serde(default)]
    policy: Option<Policy>,
}

#[derive(Debug, Default, Deserialize)]
struct Interface {
    display_name: Option<String>,
    short_description: Option<String>,
    icon_small: Option<PathBuf>,
    icon_large: Option<PathBuf>,
    brand_color: Option<String>,
    default_prompt: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct Dependencies {
    #[serde(default)]
    tools: Vec<DependencyTool>,
}

#[derive(Debug, Deserialize)]
struct Policy {
    #[serde(default)]
    allow_implicit_invocation: Option<bool>,
    #[serde(default)]
    products: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
struct DependencyTool {
    #[serde(rename = "type")]
    kind: Option<String>,
    value: Option<String>,
    description: Option<String>,
    transport: Option<String>,
    command: Option<String>,
    url: Option<String>,
}

const KNOWN: &[(&[&str], &[&str])] = &[
    (&[], &["interface", "dependencies", "policy"]),
    (
        &["interface"],
        &[
            "display_name",
            "short_description",
            "icon_small",
            "icon_large",
            "brand_color",
            "default_prompt",
        ],
    ),
    (&["dependencies"], &["tools"]),
    (&["policy"], &["allow_implicit_invocation", "products"]),
];

const TOOL_KEYS: &[&str] = &[
    "type",
    "value",
    "description",
    "transport",
    "command",
    "url",
];

/// Reads `agents/openai.yaml` (its text) as Codex does: what it keeps
/// (`None` when it ignores the whole file) and every problem found.
pub fn read_openai_yaml(text: &str) -> (Option<OpenAiYaml>, Vec<OpenAiYamlProblem>) {
    let mut problems = Vec::new();
    let tree = yaml::parse(text, 0, text.len()).root;
    let parsed: SkillMetadataFile = match yaml_serde::from_str(text) {
        Ok(p) => p,
        Err(e) => {
            let at = e.location().map(|l| l.index());
            problems.push(OpenAiYamlProblem {
                message: format!("Codex ignores the whole file: invalid YAML: {e}"),
                span: at.map(|i| i..i + 1),
            });
            return (None, problems);
        }
    };
    let mut r = Reader {
        tree: tree.as_ref(),
        problems,
    };
    if let Some(tree) = tree.as_ref() {
        r.unknown_keys(tree);
    }
    let mut out = OpenAiYaml::default();
    if let Some(i) = parsed.interface {
        let at = ["interface"];
        out.display_name = r.text(&at, "display_name", i.display_name, MAX_NAME_CHARS);
        out.short_description = r.text(
            &at,
            "short_description",
            i.short_description,
            MAX_TEXT_CHARS,
        );
        out.icon_small = r.icon(&at, "icon_small", i.icon_small);
        out.icon_large = r.icon(&at, "icon_large", i.icon_large);
        out.brand_color = r.color(&at, i.brand_color);
        out.default_prompt = r.text(&at, "default_prompt", i.default_prompt, MAX_TEXT_CHARS);
    }
    if let Some(d) = parsed.dependencies {
        for (n, tool) in d.tools.into_iter().enumerate() {
            if let Some(kept) = r.tool(n, tool) {
                out.tools.push(kept);
            }
        }
    }
    if let Some(p) = parsed.policy {
        out.allow_implicit_invocation = p.allow_implicit_invocation;
        out.products = p.products;
    }
    (Some(out), r.problems)
}

struct Reader<'t> {
    tree: Option<&'t Node>,
    problems: Vec<OpenAiYamlProblem>,
}

impl Reader<'_> {
    fn node(&self, path: &[&str], key: &str) -> Option<&Node> {
        let mut node = self.tree?;
        for step in path {
            node = node.get(step)?;
        }
        node.get(key)
    }

    fn problem(&mut self, node: Option<Range<usize>>, message: String) {
        self.problems.push(OpenAiYamlProblem {
            message,
            span: node,
        });
    }

    fn unknown_keys(&mut self, root: &Node) {
        for (path, keys) in KNOWN {
            let mut node = Some(root);
            for step in *path {
                node = node.and_then(|n| n.get(step));
            }
            let Some(map) = node.and_then(Node::as_map) else {
                continue;
            };
            for (k, _) in map {
                let name = k.as_str().unwrap_or_default();
                if !keys.contains(&name) {
                    let mut full: Vec<&str> = path.to_vec();
                    full.push(name);
                    self.problem(
                        Some(k.span.clone()),
                        format!("Codex does not read `{}`", full.join(".")),
                    );
                }
            }
        }
        let tools = root.get("dependencies").and_then(|d| d.get("tools"));
        if let Some(Value::Seq(items)) = tools.map(|t| &t.value) {
            for (n, item) in items.iter().enumerate() {
                for (k, _) in item.as_map().unwrap_or_default() {
                    let name = k.as_str().unwrap_or_default();
                    if !TOOL_KEYS.contains(&name) {
                        self.problem(
                            Some(k.span.clone()),
                            format!("Codex does not read `dependencies.tools[{n}].{name}`"),
                        );
                    }
                }
            }
        }
    }

    fn span(&self, path: &[&str], key: &str) -> Option<Range<usize>> {
        self.node(path, key).map(|n| n.span.clone())
    }

    /// A text field: collapsed, kept when not blank and within `max`.
    fn text(
        &mut self,
        path: &[&str],
        key: &str,
        value: Option<String>,
        max: usize,
    ) -> Option<String> {
        let value = collapse_whitespace(&value?);
        let field = format!("{}.{key}", path.join("."));
        let span = self.span(path, key);
        if value.is_empty() {
            self.problem(span, format!("`{field}` is empty; Codex ignores it"));
            return None;
        }
        if value.chars().count() > max {
            self.problem(
                span,
                format!("`{field}` exceeds maximum length of {max} characters; Codex ignores it"),
            );
            return None;
        }
        Some(value)
    }

    /// An icon: a relative path whose first part (after `.`) is `assets`,
    /// without `..`.
    fn icon(&mut self, path: &[&str], key: &str, value: Option<PathBuf>) -> Option<PathBuf> {
        let value = value?;
        if value.as_os_str().is_empty() {
            return None;
        }
        let span = self.span(path, key);
        let field = format!("{}.{key}", path.join("."));
        let mut normalized = PathBuf::new();
        let mut why = None;
        if value.is_absolute() {
            why = Some("is absolute");
        }
        for c in value.components() {
            match c {
                Component::CurDir => {}
                Component::Normal(p) => normalized.push(p),
                Component::ParentDir => why = why.or(Some("contains `..`")),
                _ => why = why.or(Some("is absolute")),
            }
        }
        if why.is_none()
            && normalized.components().next() != Some(Component::Normal("assets".as_ref()))
        {
            why = Some("is not under `assets/`");
        }
        match why {
            Some(why) => {
                self.problem(
                    span,
                    format!(
                        "`{field}` {why}; Codex ignores it (an icon is a relative path under the skill's `assets/`)"
                    ),
                );
                None
            }
            None => Some(normalized),
        }
    }

    fn color(&mut self, path: &[&str], value: Option<String>) -> Option<String> {
        let value = value?;
        let value = value.trim();
        if value.is_empty() {
            return None;
        }
        let hex = value.strip_prefix('#').unwrap_or_default();
        if value.len() == 7 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Some(value.to_string());
        }
        let span = self.span(path, "brand_color");
        self.problem(
            span,
            format!("`interface.brand_color` is `{value}`, not `#RRGGBB`; Codex ignores it"),
        );
        None
    }

    fn tool(&mut self, n: usize, tool: DependencyTool) -> Option<(String, String)> {
        let item = self
            .tree
            .and_then(|t| t.get("dependencies"))
            .and_then(|d| d.get("tools"))
            .and_then(|t| match &t.value {
                Value::Seq(items) => items.get(n),
                _ => None,
            });
        let at = |key: &str| item.and_then(|i| i.get(key)).map(|v| v.span.clone());
        let whole = item.map(|i| i.span.clone());
        let field = |key: &str| format!("dependencies.tools[{n}].{key}");
        let mut keep = true;
        let mut required = |r: &mut Self, key: &str, value: Option<String>, max: usize| {
            let Some(value) = value else {
                r.problem(
                    whole.clone(),
                    format!("`{}` is missing; Codex ignores this tool", field(key)),
                );
                keep = false;
                return None;
            };
            let value = r.checked(at(key), &field(key), &value, max);
            keep &= value.is_some();
            value
        };
        let kind = required(self, "type", tool.kind, MAX_NAME_CHARS);
        let value = required(self, "value", tool.value, MAX_TEXT_CHARS);
        for (key, v, max) in [
            ("description", tool.description, MAX_TEXT_CHARS),
            ("transport", tool.transport, MAX_NAME_CHARS),
            ("command", tool.command, MAX_TEXT_CHARS),
            ("url", tool.url, MAX_TEXT_CHARS),
        ] {
            if let Some(v) = v {
                self.checked(at(key), &field(key), &v, max);
            }
        }
        match (keep, kind, value) {
            (true, Some(k), Some(v)) => Some((k, v)),
            _ => None,
        }
    }

    fn checked(
        &mut self,
        span: Option<Range<usize>>,
        field: &str,
        value: &str,
        max: usize,
    ) -> Option<String> {
        let value = collapse_whitespace(value);
        if value.is_empty() {
            self.problem(span, format!("`{field}` is empty; Codex ignores it"));
            None
        } else if value.chars().count() > max {
            self.problem(
                span,
                format!("`{field}` exceeds maximum length of {max} characters; Codex ignores it"),
            );
            None
        } else {
            Some(value)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_file_is_read() {
        let text = "interface:\n  display_name: \"UI  Skill\"\n  short_description: short\n  icon_small: ./assets/s.png\n  brand_color: \"#3B82F6\"\n  default_prompt: Use $x.\ndependencies:\n  tools:\n    - type: mcp\n      value: github\n      url: https://example.com/mcp\npolicy:\n  allow_implicit_invocation: false\n  products: [codex]\n";
        let (read, problems) = read_openai_yaml(text);
        assert_eq!(problems, []);
        let read = read.unwrap_or_default();
        assert_eq!(read.display_name.as_deref(), Some("UI Skill"));
        assert_eq!(read.icon_small, Some(PathBuf::from("assets/s.png")));
        assert_eq!(read.brand_color.as_deref(), Some("#3B82F6"));
        assert_eq!(read.tools, [("mcp".to_string(), "github".to_string())]);
        assert_eq!(read.allow_implicit_invocation, Some(false));
        assert_eq!(read.products, ["codex"]);
    }

    #[test]
    fn a_type_error_ignores_the_whole_file_with_a_position() {
        let text = "policy:\n  allow_implicit_invocation: maybe\n";
        let (read, problems) = read_openai_yaml(text);
        assert_eq!(read, None);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].message.contains("policy.allow_implicit_invocation: invalid type: string \"maybe\", expected a boolean"),
            "{problems:?}"
        );
        assert_eq!(problems[0].span.as_ref().map(|s| s.start), Some(37));
        let (read, problems) = read_openai_yaml("interface: [\n");
        assert_eq!((read, problems.len()), (None, 1));
    }

    #[test]
    fn ignored_fields_are_reported_where_they_are() {
        let text = "interface:\n  display_name: \"\"\n  icon_large: ../logo.png\n  icon_small: /abs/a.png\n  brand_color: blue\n  colour: x\npolicy:\n  allow_implicit_invocations: false\ndependencies:\n  tools:\n    - value: v\n    - type: mcp\n      value: ok\n      extra: 1\n";
        let (read, problems) = read_openai_yaml(text);
        let read = read.unwrap_or_default();
        assert_eq!(read.allow_implicit_invocation, None);
        assert_eq!(read.icon_large, None);
        assert_eq!(read.tools, [("mcp".to_string(), "ok".to_string())]);
        let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        for expected in [
            "Codex does not read `interface.colour`",
            "Codex does not read `policy.allow_implicit_invocations`",
            "Codex does not read `dependencies.tools[1].extra`",
            "`interface.display_name` is empty; Codex ignores it",
            "`interface.icon_large` contains `..`; Codex ignores it (an icon is a relative path under the skill's `assets/`)",
            "`interface.icon_small` is absolute; Codex ignores it (an icon is a relative path under the skill's `assets/`)",
            "`interface.brand_color` is `blue`, not `#RRGGBB`; Codex ignores it",
            "`dependencies.tools[0].type` is missing; Codex ignores this tool",
        ] {
            assert!(messages.contains(&expected), "{expected}\n{messages:#?}");
        }
        assert!(problems.iter().all(|p| p.span.is_some()), "{problems:?}");
        let colour = problems.iter().find(|p| p.message.contains("colour"));
        assert_eq!(
            colour
                .and_then(|p| p.span.clone())
                .and_then(|s| text.get(s)),
            Some("colour")
        );
        let long = format!("interface:\n  display_name: {}\n", "n".repeat(65));
        let (read, problems) = read_openai_yaml(&long);
        assert_eq!(read.and_then(|r| r.display_name), None);
        assert!(problems[0].message.contains("exceeds maximum length of 64"));
    }
}

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
//!
//! The file is read in every build, the macro's included:
//! `policy.allow_implicit_invocation` is part of the metadata a bundle
//! carries. So it is read by one piece of code that needs no libyaml
//! ([`shape`]: the crate's YAML tree typed by serde's rules); where that
//! tree cannot tell what Codex reads (a tag), the file is
//! [`OpenAiYamlReading::undecided`], an error under every profile, and no
//! value is guessed. With the `codex-yaml` feature (the `skb` CLI) the
//! file is also read by libyaml, as Codex does (`libyaml`): for the
//! message Codex logs when it ignores the file, and to report any file the
//! two readings disagree on.

#[cfg(feature = "codex-yaml")]
mod libyaml;
mod shape;

use std::ops::Range;
use std::path::{Component, PathBuf};

pub use self::shape::OpenAiYamlProblem;
use self::shape::{DependencyTool, NotRead};
use super::scan::MAX_NAME_CHARS;
use crate::diag::{Code, Diagnostic};
use crate::files::SkillFile;
use crate::profile::Profile;
use crate::source::Source;
use crate::yaml::{self, Node, Value};
use skills_core::catalog::codex::collapse_whitespace;
use skills_core::fsread::Dir;

/// Where Codex reads a skill's metadata, relative to the skill folder.
pub const OPENAI_YAML: &str = "agents/openai.yaml";
/// The largest `agents/openai.yaml` read, in bytes.
pub(crate) const MAX_OPENAI_YAML: u64 = 1024 * 1024;
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

/// What Codex makes of one `agents/openai.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenAiYamlReading {
    /// What Codex keeps; `None` when it ignores the whole file, or when
    /// that cannot be decided.
    pub read: Option<OpenAiYaml>,
    /// Everything Codex ignores, whole file or field by field.
    pub problems: Vec<OpenAiYamlProblem>,
    /// Why what Codex reads cannot be decided without libyaml (a tag), when
    /// it cannot: the skill's metadata would be a guess.
    pub undecided: Option<OpenAiYamlProblem>,
}

/// Reads `agents/openai.yaml` (its text) as Codex does: what it keeps and
/// every problem found.
pub fn read_openai_yaml(text: &str) -> OpenAiYamlReading {
    let parsed = yaml::parse(text, 0, text.len());
    let typed = shape::typed(text, &parsed);
    let codex = codex_verdict(text, &parsed, &typed);
    let mut reading = OpenAiYamlReading::default();
    let parsed_file = match typed {
        Ok(file) => file,
        Err(NotRead::Ignored(f)) => {
            reading
                .problems
                .push(codex.unwrap_or_else(|| OpenAiYamlProblem {
                    message: format!("Codex ignores the whole file: {}", f.message),
                    span: f.span,
                }));
            return reading;
        }
        Err(NotRead::Undecided(f)) => {
            reading.problems.extend(codex);
            reading.undecided = Some(f.into());
            return reading;
        }
    };
    reading.problems.extend(codex);
    let tree = parsed.root;
    let mut r = Reader {
        tree: tree.as_ref(),
        problems: reading.problems,
    };
    if let Some(tree) = tree.as_ref() {
        r.unknown_keys(tree);
    }
    let mut out = OpenAiYaml::default();
    if let Some(i) = parsed_file.interface {
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
    if let Some(d) = parsed_file.dependencies {
        for (n, tool) in d.tools.into_iter().enumerate() {
            if let Some(kept) = r.tool(n, tool) {
                out.tools.push(kept);
            }
        }
    }
    if let Some(p) = parsed_file.policy {
        out.allow_implicit_invocation = p.allow_implicit_invocation;
        out.products = p.products;
    }
    reading.problems = r.problems;
    reading.read = Some(out);
    reading
}

#[cfg(feature = "codex-yaml")]
use libyaml::verdict as codex_verdict;

/// Codex's own verdict on the whole file needs libyaml: without it, ours
/// stands alone.
#[cfg(not(feature = "codex-yaml"))]
fn codex_verdict(
    _: &str,
    _: &yaml::Parsed,
    _: &Result<shape::SkillMetadataFile, NotRead>,
) -> Option<OpenAiYamlProblem> {
    None
}

/// Reads the skill's `agents/openai.yaml`, when `files` has one, from the
/// open skill folder: returns what Codex takes from it (under every
/// profile: it is part of the skill's metadata), and adds an error when
/// that cannot be decided and (under `codex`) a warning for each thing
/// Codex ignores.
pub(crate) fn check(
    files: &[SkillFile],
    dir: &Dir,
    profile: Profile,
    diags: &mut Vec<Diagnostic>,
) -> Option<Box<OpenAiYaml>> {
    #[cfg(feature = "codex-yaml")]
    let codex = profile == Profile::Codex;
    #[cfg(not(feature = "codex-yaml"))]
    let codex = false;
    let file = files.iter().find(|f| f.rel == OPENAI_YAML)?;
    let (path, physical) = (file.path.clone(), file.physical.clone());
    let bytes = match dir.read(&physical, MAX_OPENAI_YAML) {
        Ok(b) => b,
        Err(e) => {
            if codex {
                diags.push(Diagnostic::new(
                    Code::CodexOpenAiYaml,
                    profile.severity(Code::CodexOpenAiYaml),
                    &path,
                    format!("Codex cannot use `{OPENAI_YAML}`: {e}"),
                ));
            }
            return None;
        }
    };
    let source = Source::new(&path, bytes);
    let Some(text) = source.text() else {
        if codex {
            diags.push(Diagnostic::new(
                Code::CodexOpenAiYaml,
                profile.severity(Code::CodexOpenAiYaml),
                &path,
                format!("Codex ignores `{OPENAI_YAML}`: it is not UTF-8"),
            ));
        }
        return None;
    };
    let reading = read_openai_yaml(text);
    let read = reading.read.map(Box::new);
    let located = |d: Diagnostic, span: Option<Range<usize>>| match span {
        Some(span) => {
            let end = span.end.min(source.bytes().len());
            d.at(&source, span.start.min(end)..end)
        }
        None => d,
    };
    if let Some(u) = reading.undecided {
        let mut d = Diagnostic::new(
            Code::Io,
            profile.severity(Code::Io),
            &path,
            format!(
                "`{OPENAI_YAML}` cannot be read as Codex reads it, so whether Codex lists the skill to its model (`policy.allow_implicit_invocation`) is not known: {}",
                u.message
            ),
        );
        d.set_help("write the file as plain YAML: no tags (`!...`), nested at most 64 levels");
        diags.push(located(d, u.span));
    }
    if !codex {
        return read;
    }
    for p in reading.problems {
        let d = Diagnostic::new(
            Code::CodexOpenAiYaml,
            profile.severity(Code::CodexOpenAiYaml),
            &path,
            p.message,
        );
        diags.push(located(d, p.span));
    }
    read
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
mod tests;

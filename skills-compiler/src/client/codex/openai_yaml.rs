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

use self::shape::{DependencyTool, Failure, NotRead};
use super::{MAX_NAME_CHARS, collapse_whitespace};
use crate::diag::{Code, Diagnostic};
use crate::profile::Profile;
use crate::skill::CheckedSkill;
use crate::source::Source;
use crate::yaml::{self, Node, Value};
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

/// Something in `agents/openai.yaml` that Codex ignores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAiYamlProblem {
    /// What is ignored and why.
    pub message: String,
    /// Byte range in the file, when there is one.
    pub span: Option<Range<usize>>,
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

impl From<Failure> for OpenAiYamlProblem {
    fn from(f: Failure) -> Self {
        OpenAiYamlProblem {
            message: f.message,
            span: f.span,
        }
    }
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

/// Reads the skill's `agents/openai.yaml`, when it has one, from the open
/// skill folder: what Codex takes from it (under every profile: it is part
/// of the skill's metadata), an error when that cannot be decided, and
/// (under `codex`) a warning for each thing Codex ignores.
pub(crate) fn check(skill: &mut CheckedSkill, dir: &Dir, profile: Profile) {
    #[cfg(feature = "codex-yaml")]
    let codex = profile == Profile::Codex;
    #[cfg(not(feature = "codex-yaml"))]
    let codex = false;
    let Some(file) = skill.files.iter().find(|f| f.rel == OPENAI_YAML) else {
        return;
    };
    let (path, physical) = (file.path.clone(), file.physical.clone());
    let bytes = match dir.read(&physical, MAX_OPENAI_YAML) {
        Ok(b) => b,
        Err(e) => {
            if codex {
                skill.diagnostics.push(Diagnostic::new(
                    Code::CodexOpenAiYaml,
                    profile.severity(Code::CodexOpenAiYaml),
                    &path,
                    format!("Codex cannot use `{OPENAI_YAML}`: {e}"),
                ));
            }
            return;
        }
    };
    let source = Source::new(&path, bytes);
    let Some(text) = source.text() else {
        if codex {
            skill.diagnostics.push(Diagnostic::new(
                Code::CodexOpenAiYaml,
                profile.severity(Code::CodexOpenAiYaml),
                &path,
                format!("Codex ignores `{OPENAI_YAML}`: it is not UTF-8"),
            ));
        }
        return;
    };
    let reading = read_openai_yaml(text);
    skill.openai_yaml = reading.read.map(Box::new);
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
        skill.diagnostics.push(located(d, u.span));
    }
    if !codex {
        return;
    }
    for p in reading.problems {
        let d = Diagnostic::new(
            Code::CodexOpenAiYaml,
            profile.severity(Code::CodexOpenAiYaml),
            &path,
            p.message,
        );
        skill.diagnostics.push(located(d, p.span));
    }
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

    fn read_openai_yaml(text: &str) -> (Option<OpenAiYaml>, Vec<OpenAiYamlProblem>) {
        let reading = super::read_openai_yaml(text);
        assert_eq!(reading.undecided, None, "{text:?}");
        (reading.read, reading.problems)
    }

    #[test]
    fn a_type_error_ignores_the_whole_file_with_a_position() {
        let text = "policy:\n  allow_implicit_invocation: maybe\n";
        let (read, problems) = read_openai_yaml(text);
        assert_eq!(read, None);
        assert_eq!(problems.len(), 1);
        // libyaml's message where it is built (as Codex logs it), else ours.
        let message = if cfg!(feature = "codex-yaml") {
            "Codex ignores the whole file: invalid YAML: policy.allow_implicit_invocation: invalid type: string \"maybe\", expected a boolean"
        } else {
            "Codex ignores the whole file: `policy.allow_implicit_invocation` is `maybe`, not `true` or `false`"
        };
        assert!(problems[0].message.starts_with(message), "{problems:?}");
        assert_eq!(problems[0].span.as_ref().map(|s| s.start), Some(37));
        let (read, problems) = read_openai_yaml("interface: [\n");
        assert_eq!((read, problems.len()), (None, 1));
    }

    /// The pieces the property test below writes files from.
    const PIECES: &[&str] = &[
        "policy",
        "allow_implicit_invocation",
        "products",
        "interface",
        "display_name",
        "icon_small",
        "dependencies",
        "tools",
        "type",
        "value",
        "x",
        ": ",
        ":",
        "\n",
        "  ",
        "- ",
        "? ",
        "[",
        "]",
        "{",
        "}",
        ", ",
        "~",
        "true",
        "FALSE",
        "'",
        "\"",
        "&a ",
        "*a",
        "!x ",
        "!!null ",
        "|",
        ">-",
        "\t",
        "# c",
        "\u{85}",
        "\u{feff}",
        "...",
        "---",
        "\\",
    ];

    proptest::proptest! {
        /// Any file gives a reading, never a panic: kept, ignored whole or
        /// undecided, one of the three, with our spans inside the file.
        #[test]
        fn any_file_reads(pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..40)) {
            let text = pieces.concat();
            let reading = super::read_openai_yaml(&text);
            proptest::prop_assert!(reading.read.is_none() || reading.undecided.is_none());
            if let Some(span) = reading.undecided.and_then(|u| u.span) {
                proptest::prop_assert!(span.start <= span.end && span.end <= text.len());
            }
        }
    }

    #[test]
    fn a_tag_is_undecided_and_an_error_under_every_profile() -> std::io::Result<()> {
        for text in [
            "policy:\n  allow_implicit_invocation: !!str false\n",
            "policy:\n  allow_implicit_invocation: &a !!null\n",
            "interface: !x\n  display_name: a\n",
        ] {
            let reading = super::read_openai_yaml(text);
            assert_eq!(reading.read, None, "{text:?}");
            let undecided = reading.undecided.unwrap_or_else(|| panic!("{text:?}"));
            assert!(
                undecided.message.contains("tags a value (`!"),
                "{undecided:?}"
            );
        }
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        std::fs::create_dir_all(dir.join("agents"))?;
        std::fs::write(dir.join("SKILL.md"), "---\nname: s\ndescription: D.\n---\n")?;
        std::fs::write(
            dir.join(OPENAI_YAML),
            "policy:\n  allow_implicit_invocation: !!str false\n",
        )?;
        for profile in Profile::ALL {
            let options = crate::Options {
                profile,
                lints: false,
                ..crate::Options::default()
            };
            let skill = crate::check_dir(&dir, &options);
            let io: Vec<_> = skill
                .diagnostics
                .iter()
                .filter(|d| d.code == Code::Io)
                // Without `codex-yaml`, the `codex` profile also reports that
                // Codex's reading of `SKILL.md` is not known (see
                // `crate::client::tests`).
                .filter(|d| !d.message.contains("`codex-yaml` feature"))
                .map(|d| (d.is_error(), d.label.as_ref().map(|l| l.start.line)))
                .collect();
            assert_eq!(io, [(true, Some(2))], "{profile}");
            assert_eq!(skill.openai_yaml, None);
        }
        Ok(())
    }

    /// Before, libyaml read every file after ours: 200 KB of nested flow
    /// collections took 15 s, and one nested past the reader's scanner
    /// limit (255 flow levels) read as a syntax error, "Codex ignores the
    /// whole file", where Codex reads it. Now both builds decide, without
    /// libyaml, that the file is past a bound: undecided, naming it.
    #[test]
    fn a_file_past_the_bounds_is_undecided_in_every_build() {
        let deep = format!("x: {}{}\n", "[".repeat(1_000), "]".repeat(1_000));
        let nested = format!("x: {}b{}\n", "{a: ".repeat(100), "}".repeat(100));
        let unreadable = format!("{}policy: a: b\n", "k: [x]\n".repeat(65));
        for (text, why) in [
            (
                &deep,
                "the YAML nests deeper than 64 levels, the most this tool reads",
            ),
            (
                &nested,
                "the YAML nests deeper than 64 levels, the most this tool reads",
            ),
            (
                &unreadable,
                "this tool's reader stops at a syntax error (a `: ` inside an unquoted value starts a mapping here; quote the value) and the YAML has 65 `[` and `{`, so how deep libyaml would nest it, how many nodes it would read, or how much its aliases would repeat, is not bounded before libyaml runs (this tool reads at most 64 levels, 100,000 nodes and 1,048,576 bytes repeated by aliases)",
            ),
        ] {
            let reading = super::read_openai_yaml(text);
            assert_eq!(reading.read, None);
            assert_eq!(reading.problems, []);
            assert_eq!(reading.undecided.map(|u| u.message).as_deref(), Some(why));
        }
        // 64 `[` cannot nest deeper than 64: libyaml decides, as before.
        let (read, problems) =
            read_openai_yaml(&format!("{}policy: a: b\n", "k: [x]\n".repeat(64)));
        assert_eq!(read, None);
        assert_eq!(problems.len(), 1, "{problems:?}");
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

//! The types Codex deserializes `agents/openai.yaml` into, and the one
//! reading of the file into them that every build uses: the crate's saphyr
//! tree ([`crate::yaml`]) typed by the rules serde's derive applies over
//! libyaml (`yaml_serde` 0.10, as in Codex). The macro's build has no
//! libyaml, yet a bundle's `allow_implicit_invocation` must be what the CLI
//! derives and what Codex reads; so the rules are written out here, and
//! with the `codex-yaml` feature a test (`super::libyaml`) reads many
//! generated and real files both ways and requires the same result.
//!
//! serde's rules, as `yaml_serde` applies them to these types:
//!
//! - the file is empty (or comments only), or one mapping; a scalar (even
//!   `~`), a list or a second document fails;
//! - a null is a plain `~`, `null`, `Null`, `NULL` or nothing: an optional
//!   field (`interface`, `policy`, `display_name`, ...) that is null is
//!   absent; where a list or a mapping is required, nothing written is an
//!   empty one (a `~` fails);
//! - a string takes any other scalar as written (`12` is `"12"`, `~` in a
//!   list is `"~"`); a list or a mapping there fails;
//! - `allow_implicit_invocation` is a plain `true`, `True`, `TRUE`, `false`,
//!   `False` or `FALSE`; anything else (`"false"` quoted, `yes`, `0`) fails;
//! - a list (`products`, `tools`) must be a list (a null fails), each tool a
//!   mapping;
//! - in a mapping read as a struct, a key that is a list or a mapping fails,
//!   a field given twice fails, other keys are ignored (merge keys `<<` are
//!   not applied).
//!
//! Any failure makes Codex ignore the whole file ([`NotRead::Ignored`]).
//! A block scalar that ends the file without a line break keeps none, as in
//! libyaml. What the tree cannot tell is [`NotRead::Undecided`], never
//! guessed:
//!
//! - a tag (serde reads `!!int false` as `false`, fails on `!x ~` and on
//!   `!!null x`);
//! - where YAML 1.1 (libyaml) and 1.2 (saphyr) read the text apart: `U+0085`,
//!   `U+2028`, `U+2029` (line breaks to libyaml only), a byte-order mark
//!   after the start, a tab after a block indicator (`- <tab>x`) or after
//!   a line's indentation where a value starts (`  <tab>x`), a
//!   document-end line (`...`), a quoted scalar whose next line is
//!   indented less than saphyr wants;
//! - a file past the tree's nesting or size limits, which libyaml may read;
//! - a file libyaml is not given ([`crate::libyaml_bound`]): its nesting or
//!   aliases cannot be bounded before libyaml runs.

use std::ops::Range;
use std::path::PathBuf;

use crate::diag::Code;
use crate::yaml::{Node, Parsed, Value};

/// Something in `agents/openai.yaml` that Codex ignores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAiYamlProblem {
    /// What is ignored and why.
    pub message: String,
    /// Byte range in the file, when there is one.
    pub span: Option<Range<usize>>,
}

impl From<Failure> for OpenAiYamlProblem {
    fn from(f: Failure) -> Self {
        OpenAiYamlProblem {
            message: f.message,
            span: f.span,
        }
    }
}

/// The file, as Codex's `SkillMetadataFile`.
#[derive(Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "codex-yaml", derive(serde::Deserialize))]
pub(super) struct SkillMetadataFile {
    #[cfg_attr(feature = "codex-yaml", serde(default))]
    pub interface: Option<Interface>,
    #[cfg_attr(feature = "codex-yaml", serde(default))]
    pub dependencies: Option<Dependencies>,
    #[cfg_attr(feature = "codex-yaml", serde(default))]
    pub policy: Option<Policy>,
}

#[derive(Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "codex-yaml", derive(serde::Deserialize))]
pub(super) struct Interface {
    pub display_name: Option<String>,
    pub short_description: Option<String>,
    pub icon_small: Option<PathBuf>,
    pub icon_large: Option<PathBuf>,
    pub brand_color: Option<String>,
    pub default_prompt: Option<String>,
}

#[derive(Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "codex-yaml", derive(serde::Deserialize))]
pub(super) struct Dependencies {
    #[cfg_attr(feature = "codex-yaml", serde(default))]
    pub tools: Vec<DependencyTool>,
}

#[derive(Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "codex-yaml", derive(serde::Deserialize))]
pub(super) struct Policy {
    #[cfg_attr(feature = "codex-yaml", serde(default))]
    pub allow_implicit_invocation: Option<bool>,
    #[cfg_attr(feature = "codex-yaml", serde(default))]
    pub products: Vec<String>,
}

#[derive(Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "codex-yaml", derive(serde::Deserialize))]
pub(super) struct DependencyTool {
    #[cfg_attr(feature = "codex-yaml", serde(rename = "type"))]
    pub kind: Option<String>,
    pub value: Option<String>,
    pub description: Option<String>,
    pub transport: Option<String>,
    pub command: Option<String>,
    pub url: Option<String>,
}

/// Why the file was not read into [`SkillMetadataFile`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum NotRead {
    /// Codex ignores the whole file (serde fails on it).
    Ignored(Failure),
    /// Whether Codex reads the file cannot be told without libyaml.
    Undecided(Failure),
}

/// What failed, and where in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Failure {
    /// In our words.
    pub message: String,
    /// Byte range in the file.
    pub span: Option<Range<usize>>,
}

/// Types the tree `parsed` of the file `text` as serde does.
pub(super) fn typed(text: &str, parsed: &Parsed) -> Result<SkillMetadataFile, NotRead> {
    if let Some(apart) = read_apart(text) {
        return Err(NotRead::Undecided(apart));
    }
    if let Err(beyond) = crate::libyaml_bound::check(text, Some(parsed)) {
        return Err(NotRead::Undecided(Failure {
            message: beyond.message,
            span: beyond.span,
        }));
    }
    let first_fatal = parsed.problems.iter().find(|p| p.code == Code::InvalidYaml);
    if let Some(p) = first_fatal {
        let span = Some(p.span.clone());
        return Err(match parsed.limit {
            Some(limit) => NotRead::Undecided(Failure {
                message: format!("the YAML {}, the most this tool reads", limit.phrase()),
                span,
            }),
            None if p.message.contains(QUOTED_INDENTATION) => NotRead::Undecided(Failure {
                message: p.message.clone(),
                span,
            }),
            None => NotRead::Ignored(Failure {
                message: p.message.clone(),
                span,
            }),
        });
    }
    if let Some(span) = first_tag(text, parsed) {
        return Err(NotRead::Undecided(Failure {
            message: format!(
                "it tags a value (`{}`), and how Codex's libyaml reads a tagged value is not modelled",
                text.get(span.clone()).unwrap_or_default()
            ),
            span: Some(span),
        }));
    }
    let duplicates: Vec<&Range<usize>> = parsed
        .problems
        .iter()
        .filter(|p| p.code == Code::YamlDuplicateKey)
        .map(|p| &p.span)
        .collect();
    let t = Typer {
        duplicates,
        unbroken: !text.ends_with(['\n', '\r']),
        text,
    };
    match &parsed.root {
        None => Ok(SkillMetadataFile::default()),
        Some(root) => t.file(root),
    }
}

/// saphyr's message for a quoted scalar continued on a line indented less
/// than it wants, which libyaml reads.
const QUOTED_INDENTATION: &str = "invalid indentation in quoted scalar";

/// The first place where libyaml and saphyr read the text apart.
fn read_apart(text: &str) -> Option<Failure> {
    let at = |i: usize, len: usize, message: &str| Failure {
        message: message.to_string(),
        span: Some(i..i + len),
    };
    if let Some((i, c)) = text.char_indices().find(|&(i, c)| {
        matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}') || (c == '\u{feff}' && i > 0)
    }) {
        return Some(at(
            i,
            c.len_utf8(),
            &format!(
                "it holds U+{:04X}, which libyaml and this reading do not read alike",
                u32::from(c)
            ),
        ));
    }
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if body == "..." || body.starts_with("... ") || body.starts_with("...\t") {
            return Some(at(
                start,
                3,
                "it has a document-end line (`...`), which libyaml and this reading do not read alike",
            ));
        }
        // A tab after the indentation: libyaml reads on only where the line
        // goes on a scalar (tab-led blank and comment lines are read alike),
        // and stops ("cannot start any token") where a token starts; this
        // reading reads on.
        let lead = body.trim_start_matches(' ');
        let content = lead.trim_start_matches([' ', '\t']);
        if lead.starts_with('\t') && !content.is_empty() && !content.starts_with('#') {
            return Some(at(
                start + (body.len() - lead.len()),
                1,
                "it has a tab after a line's indentation, which libyaml and this reading do not read alike",
            ));
        }
        // Block indicators after the indentation, and the blanks after each.
        let mut rest = body.trim_start_matches(' ');
        while let Some(after) = rest.strip_prefix(['-', '?', ':']) {
            let blanks = after.len() - after.trim_start_matches([' ', '\t']).len();
            if blanks == 0 {
                break;
            }
            if after[..blanks].contains('\t') {
                let i = start + (body.len() - after.len());
                return Some(at(
                    i,
                    blanks,
                    "it has a tab after a block indicator, which libyaml and this reading do not read alike",
                ));
            }
            rest = &after[blanks..];
        }
        start += line.len();
    }
    None
}

/// The span of the first tag in the file: the tree reports the first
/// property of a node, so a tag after an anchor (`&a !!null`) is looked for
/// behind the anchor.
fn first_tag(text: &str, parsed: &Parsed) -> Option<Range<usize>> {
    parsed.problems.iter().find_map(|p| match p.code {
        Code::YamlTag => Some(p.span.clone()),
        Code::YamlAnchor => {
            let after = text.get(p.span.end..)?;
            let start = p.span.end + (after.len() - after.trim_start().len());
            let token = text.get(start..)?.split(char::is_whitespace).next()?;
            token.starts_with('!').then(|| start..start + token.len())
        }
        _ => None,
    })
}

struct Typer<'p> {
    /// The spans of keys given twice in their mapping (the tree keeps the
    /// last under the later key's span).
    duplicates: Vec<&'p Range<usize>>,
    /// Whether the file does not end with a line break.
    unbroken: bool,
    text: &'p str,
}

type Typed<T> = Result<T, NotRead>;

fn fail<T>(node: &Node, message: String) -> Typed<T> {
    Err(NotRead::Ignored(Failure {
        message,
        span: Some(node.span.clone()),
    }))
}

/// Whether serde reads the node as a null.
fn is_null(node: &Node) -> bool {
    node.plain && matches!(node.as_str(), Some("" | "~" | "null" | "Null" | "NULL"))
}

/// Whether nothing is written for the node.
fn is_nothing(node: &Node) -> bool {
    node.plain && node.as_str() == Some("")
}

impl Typer<'_> {
    fn file(&self, root: &Node) -> Typed<SkillMetadataFile> {
        if is_nothing(root) {
            return Ok(SkillMetadataFile::default());
        }
        let map = self.mapping(root, "the file")?;
        Ok(SkillMetadataFile {
            interface: self.optional(map, "interface", |n| self.interface(n))?,
            dependencies: self.optional(map, "dependencies", |n| self.dependencies(n))?,
            policy: self.optional(map, "policy", |n| self.policy(n))?,
        })
    }

    fn interface(&self, node: &Node) -> Typed<Interface> {
        let map = self.mapping(node, "`interface`")?;
        let text = |key| self.optional(map, key, |n| self.string(n, key));
        let path = |key| Ok(text(key)?.map(PathBuf::from));
        Ok(Interface {
            display_name: text("display_name")?,
            short_description: text("short_description")?,
            icon_small: path("icon_small")?,
            icon_large: path("icon_large")?,
            brand_color: text("brand_color")?,
            default_prompt: text("default_prompt")?,
        })
    }

    fn dependencies(&self, node: &Node) -> Typed<Dependencies> {
        let map = self.mapping(node, "`dependencies`")?;
        let tools = match self.field(map, "tools")? {
            None => Vec::new(),
            Some(n) => self
                .list(n, "`dependencies.tools`")?
                .iter()
                .map(|tool| self.tool(tool))
                .collect::<Typed<_>>()?,
        };
        Ok(Dependencies { tools })
    }

    fn tool(&self, node: &Node) -> Typed<DependencyTool> {
        let map = self.mapping(node, "a tool of `dependencies.tools`")?;
        let text = |key| self.optional(map, key, |n| self.string(n, key));
        Ok(DependencyTool {
            kind: text("type")?,
            value: text("value")?,
            description: text("description")?,
            transport: text("transport")?,
            command: text("command")?,
            url: text("url")?,
        })
    }

    fn policy(&self, node: &Node) -> Typed<Policy> {
        let map = self.mapping(node, "`policy`")?;
        let allow = self.optional(map, "allow_implicit_invocation", boolean)?;
        let products = match self.field(map, "products")? {
            None => Vec::new(),
            Some(n) => self
                .list(n, "`policy.products`")?
                .iter()
                .map(|p| self.string(p, "an item of `policy.products`"))
                .collect::<Typed<_>>()?,
        };
        Ok(Policy {
            allow_implicit_invocation: allow,
            products,
        })
    }

    /// A mapping read as a struct (nothing written is an empty one): its
    /// keys must be scalars.
    fn mapping<'n>(&self, node: &'n Node, what: &str) -> Typed<&'n [(Node, Node)]> {
        if is_nothing(node) {
            return Ok(&[]);
        }
        let Value::Map(map) = &node.value else {
            return fail(node, format!("{what} is a {}, not a mapping", node.kind()));
        };
        if let Some((key, _)) = map.iter().find(|(k, _)| k.as_str().is_none()) {
            return fail(key, format!("a key of {what} is a {}", key.kind()));
        }
        Ok(map)
    }

    /// The value of the struct field `key`, failing when it is given twice.
    fn field<'n>(&self, map: &'n [(Node, Node)], key: &str) -> Typed<Option<&'n Node>> {
        let Some((k, v)) = map.iter().find(|(k, _)| k.as_str() == Some(key)) else {
            return Ok(None);
        };
        if self.duplicates.contains(&&k.span) {
            return fail(k, format!("`{key}` is given twice"));
        }
        Ok(Some(v))
    }

    /// An optional field: absent or null is `None`, else read by `read`.
    fn optional<'n, T>(
        &self,
        map: &'n [(Node, Node)],
        key: &str,
        read: impl FnOnce(&'n Node) -> Typed<T>,
    ) -> Typed<Option<T>> {
        match self.field(map, key)? {
            Some(n) if !is_null(n) => read(n).map(Some),
            _ => Ok(None),
        }
    }

    /// A string: any scalar, as written; a block scalar ending the file
    /// without a line break keeps none (libyaml's reading).
    fn string(&self, node: &Node, what: &str) -> Typed<String> {
        let Some(s) = node.as_str() else {
            return fail(node, format!("{what} is a {}, not a string", node.kind()));
        };
        // Not plain and not quoted: a block scalar (its span starts at its
        // content).
        let block = !node.plain
            && self
                .text
                .get(node.span.clone())
                .is_some_and(|t| !t.starts_with(['\'', '"']));
        let last = self
            .text
            .get(node.span.end..)
            .is_some_and(|rest| rest.trim().is_empty());
        if block && last && self.unbroken {
            let trimmed = s.strip_suffix('\n').unwrap_or(s);
            return Ok(trimmed.to_string());
        }
        Ok(s.to_string())
    }

    /// A list (nothing written is an empty one).
    fn list<'n>(&self, node: &'n Node, what: &str) -> Typed<&'n [Node]> {
        match &node.value {
            Value::Seq(items) => Ok(items),
            _ if is_nothing(node) => Ok(&[]),
            _ => fail(node, format!("{what} is a {}, not a list", node.kind())),
        }
    }
}

fn boolean(node: &Node) -> Typed<bool> {
    match (node.plain, node.as_str()) {
        (true, Some("true" | "True" | "TRUE")) => Ok(true),
        (true, Some("false" | "False" | "FALSE")) => Ok(false),
        (_, Some(s)) => fail(
            node,
            format!("`policy.allow_implicit_invocation` is `{s}`, not `true` or `false`"),
        ),
        (_, None) => fail(
            node,
            format!(
                "`policy.allow_implicit_invocation` is a {}, not `true` or `false`",
                node.kind()
            ),
        ),
    }
}

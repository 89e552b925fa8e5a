//! How OpenCode 1.18.33 reads a skill folder, as it was observed to when
//! run on test folders: which `SKILL.md` it loads, the name and description
//! it lists, and the order of its catalog ([`listing`]).
//!
//! OpenCode splits the file with `gray-matter` and parses the YAML with
//! `js-yaml` 3 (the safe schema), then keeps the skill only when `name` is
//! a string and `description` a string or absent. The steps, in its order
//! ([`load`]):
//!
//! 1. The file is read as UTF-8 (bad sequences replaced). A leading
//!    byte-order mark is dropped.
//! 2. Split ([`split`]): the text must start with `---` not followed by a
//!    fourth `-` (a leading blank line means no frontmatter). The rest of
//!    that first line, trimmed, names the language (`---yaml`); the YAML
//!    runs to the first line break followed by `---`, or to the end of the
//!    file when no such line comes: an unclosed frontmatter is all YAML,
//!    with an empty body. The body starts after that `---` and one line
//!    break.
//! 3. The YAML is parsed as `js-yaml` 3 does ([`parse_js_yaml`]), which
//!    differs from YAML 1.2 where the record or that parser's rules show
//!    it: indentation is counted in spaces only, so tabs after the spaces
//!    that start a line are separation (`\tdescription: x` is a top-level
//!    key: `bad-yaml-tab` listed); a duplicate key or a tag outside its
//!    schema is an error; plain scalars take the types of its schema
//!    (`12345` a number, `2024-01-02` a date, `1_000` and `0x1F` numbers).
//! 4. When that fails, OpenCode rewrites the frontmatter once
//!    ([`sanitize`]): each line `key: value` at the start of a line (key of
//!    ASCII letters, digits and `_`, not starting with a digit) whose value
//!    holds a `:` and is not quoted, empty, `>` or `|` becomes a block
//!    scalar `key: |-` holding the value (`description: Use when: x` so
//!    reads as `Use when: x`: `bad-yaml-colon` listed). That rewrite looks
//!    for a file starting with `---` and a line break exactly, byte-order
//!    mark included. If the YAML still fails, the skill is dropped
//!    (`bad-yaml-unclosed`).
//! 5. `name` must be a string (any string: no pattern, no length limit, no
//!    match with the folder; `12345` is a number and drops the skill);
//!    `description` a string (listed as written, not escaped, block-scalar
//!    line breaks kept, no length cap) or absent: a skill without one is
//!    loaded and activatable by name but left out of the catalog (a
//!    `null` description, `description:` with nothing after it, is not a
//!    string: dropped, by the parser's rule; not recorded).
//!
//! Of several skills with one name OpenCode keeps the one it loads last,
//! and its load order is not the same from run to run (recorded: the same
//! tree gave different copies in two runs); here the first one discovery
//! finds is kept ([`listing`]: the user's before the project's, as
//! discovery orders them, which is also the copy Claude Code and a bundle
//! keep), with a warning that OpenCode may keep another. The catalog is sorted by name as JavaScript's
//! `localeCompare` sorts ([`collate`], the ICU root
//! order: punctuation first, then case-insensitively, lowercase before
//! uppercase on a tie).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use skills_core::catalog::claude_code::is_js_whitespace;
use skills_core::fsread::{self, Reason};

use super::collate::collate;
use super::js_yaml::{self, Scalar, Version, is_unknown_tag, standard_tag};
use super::reading::{Listed, Outcome, Reading};
use crate::diag::Code;
use crate::discover::FoundSkill;
use crate::yaml::{self, Node, Value};
use skills_core::client::Client;

/// The largest `SKILL.md` this module reads. OpenCode has no limit (none
/// recorded); past this one its reading is not known.
pub const READ_LIMIT: u64 = 16 << 20;

/// A `SKILL.md` as OpenCode loads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The frontmatter `name`, as written.
    pub name: String,
    /// The frontmatter `description`; `None` when there is none (loaded,
    /// not listed).
    pub description: Option<String>,
    /// The body: everything after the frontmatter (untrimmed; the `skill`
    /// tool trims it).
    pub body: String,
    /// Whether the YAML parsed only after OpenCode's rewrite ([`sanitize`]).
    pub sanitized: bool,
}

/// What OpenCode makes of a `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Load {
    /// Loaded.
    Loaded(Loaded),
    /// Dropped: not loaded, not listed, not activatable. Why, in our words.
    Dropped(String),
    /// Past one of this tool's bounds: not known.
    Unknown(String),
}

/// The parts of a `SKILL.md` as `gray-matter` splits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts<'t> {
    /// The language named after the opening `---` (trimmed; empty for
    /// none).
    pub language: &'t str,
    /// The frontmatter text (from the line break that ends the opening
    /// line).
    pub yaml: &'t str,
    /// The body.
    pub body: &'t str,
}

/// Splits `text` (byte-order mark already dropped) as `gray-matter` does;
/// `None` when it has no frontmatter.
pub fn split(text: &str) -> Option<Parts<'_>> {
    let rest = text.strip_prefix("---")?;
    if rest.starts_with('-') {
        return None;
    }
    // The language: up to the first `\r?\n`; without one, all but the last
    // character (`slice(0, -1)`).
    let line_end = match rest.find('\n') {
        Some(i) if rest[..i].ends_with('\r') => i - 1,
        Some(i) => i,
        None => rest.char_indices().last().map_or(0, |(i, _)| i),
    };
    let language = rest[..line_end].trim_matches(is_js_whitespace);
    let rest = if language.is_empty() {
        rest
    } else {
        &rest[line_end..]
    };
    let (yaml, body) = match rest.find("\n---") {
        Some(close) => {
            let after = &rest[close + 4..];
            let after = after.strip_prefix('\r').unwrap_or(after);
            (&rest[..close], after.strip_prefix('\n').unwrap_or(after))
        }
        None => (rest, ""),
    };
    Some(Parts {
        language,
        yaml,
        body,
    })
}

/// OpenCode's rewrite of a frontmatter that did not parse, on the whole
/// file (byte-order mark included): the frontmatter is what lies between
/// a first line exactly `---` and the first line starting with `---`; of its
/// lines (split at `\r?\n`, joined with `\n`), each unindented, uncommented
/// `key: value` whose key is ASCII letters, digits and `_` (not starting
/// with a digit) and whose trimmed value holds a `:` and is not empty, `>`,
/// `|` or quoted becomes `key: |-` and the value indented by two spaces.
/// `None` when the file has no such frontmatter (nothing rewritten).
pub fn sanitize(text: &str) -> Option<String> {
    let rest = text
        .strip_prefix("---\r\n")
        .or_else(|| text.strip_prefix("---\n"))?;
    let close = rest.find("\n---")?;
    let frontmatter = rest[..close].strip_suffix('\r').unwrap_or(&rest[..close]);
    let mut processed = String::with_capacity(frontmatter.len() + 16);
    for (i, line) in frontmatter.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if i > 0 {
            processed.push('\n');
        }
        match block_scalar(line) {
            Some((key, value)) => {
                processed.push_str(key);
                processed.push_str(": |-\n  ");
                processed.push_str(value);
            }
            None => processed.push_str(line),
        }
    }
    // `content.replace(frontmatter, ...)`: the first occurrence.
    let at = text.find(frontmatter)?;
    let mut out = String::with_capacity(text.len() + processed.len());
    out.push_str(&text[..at]);
    out.push_str(&processed);
    out.push_str(&text[at + frontmatter.len()..]);
    Some(out)
}

/// The `(key, trimmed value)` of a line [`sanitize`] turns into a block
/// scalar.
fn block_scalar(line: &str) -> Option<(&str, &str)> {
    let trimmed = line.trim_matches(is_js_whitespace);
    if trimmed.is_empty() || trimmed.starts_with('#') || line.starts_with(is_js_whitespace) {
        return None;
    }
    let key_end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(line.len());
    let key = &line[..key_end];
    if key.is_empty() || key.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let after = line[key_end..].trim_start_matches(is_js_whitespace);
    // `\s*(.*)$`: the blanks (line terminators included) are skipped, then
    // `.` matches no line terminator up to the end.
    let value = after
        .strip_prefix(':')?
        .trim_start_matches(is_js_whitespace);
    if value.contains(['\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    let value = value.trim_end_matches(is_js_whitespace);
    if matches!(value, "" | ">" | "|") || value.starts_with(['"', '\'']) || !value.contains(':') {
        return None;
    }
    Some((key, value))
}

/// A frontmatter mapping as `js-yaml` 3 reads it: the tree, the text it
/// was parsed from (the node spans point into it) and the tags written.
#[derive(Debug)]
pub struct JsYaml {
    /// The root, `None` for an empty document.
    pub root: Option<Node>,
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
    let parsed = yaml::parse(&text, 0, text.len());
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
    Ok(JsYaml {
        root: parsed.root,
        text,
        tags,
    })
}

impl JsYaml {
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
    fn string(&self, key: &str) -> Result<Option<String>, &'static str> {
        let Some(node) = self.root.as_ref().and_then(|r| r.get(key)) else {
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

/// One pass of `gray-matter` over `text`: the parsed frontmatter (`None`
/// when there is none or it is empty) and the body.
fn matter(text: &str) -> Result<(Option<JsYaml>, String), YamlError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let Some(parts) = split(text) else {
        return Ok((None, text.to_owned()));
    };
    // `gray-matter`'s engines: `yaml` (also `yml`, any case), `json`
    // (exactly), `javascript` (also `js`, any case); any other throws.
    let language = parts.language.to_ascii_lowercase();
    if parts.language == "json" || matches!(language.as_str(), "js" | "javascript") {
        return Err(YamlError::NotModelled(format!(
            "the frontmatter is opened as `---{}`, which OpenCode reads in that language; this \
             tool does not",
            parts.language
        )));
    }
    if !matches!(language.as_str(), "" | "yaml" | "yml") {
        return Err(YamlError::Invalid(format!(
            "the frontmatter is opened as `---{}`, a language OpenCode does not read",
            parts.language
        )));
    }
    let parsed = parse_js_yaml(parts.yaml)?;
    Ok((Some(parsed), parts.body.to_owned()))
}

/// Loads `text` (a whole `SKILL.md`) as OpenCode does.
pub fn load(text: &str) -> Load {
    let (parsed, body, sanitized) = match matter(text) {
        Ok((parsed, body)) => (parsed, body, false),
        Err(YamlError::Beyond(limit)) => return beyond(limit),
        Err(YamlError::NotModelled(why)) => return Load::Unknown(why),
        Err(YamlError::Invalid(first)) => {
            let Some(rewritten) = sanitize(text) else {
                return Load::Dropped(format!("the YAML does not parse ({first})"));
            };
            match matter(&rewritten) {
                Ok((parsed, body)) => (parsed, body, true),
                Err(YamlError::Beyond(limit)) => return beyond(limit),
                Err(YamlError::NotModelled(why)) => return Load::Unknown(why),
                Err(YamlError::Invalid(_)) => {
                    return Load::Dropped(format!(
                        "the YAML does not parse ({first}), even with the values holding a `:` \
                         made block scalars"
                    ));
                }
            }
        }
    };
    let Some(yaml) = parsed else {
        return Load::Dropped(
            "no frontmatter (the file must start with `---`), so no `name`".into(),
        );
    };
    if yaml.root.as_ref().and_then(Node::as_map).is_none() {
        return Load::Dropped(
            "the frontmatter is empty or not a mapping, so there is no `name`".into(),
        );
    }
    let name = match yaml.string("name") {
        Ok(Some(name)) => name,
        Ok(None) => return Load::Dropped("no `name`".into()),
        Err(kind) => {
            return Load::Dropped(format!("`name` is a {kind}, not a string"));
        }
    };
    let description = match yaml.string("description") {
        Ok(d) => d,
        Err(kind) => {
            return Load::Dropped(format!("`description` is a {kind}, not a string"));
        }
    };
    Load::Loaded(Loaded {
        name,
        description,
        body,
        sanitized,
    })
}

fn beyond(limit: yaml::Limit) -> Load {
    Load::Unknown(format!(
        "the YAML {}, the most this tool reads; what OpenCode reads past that is not recorded",
        limit.phrase()
    ))
}

/// Reads the skill folder `dir` as OpenCode does.
pub fn read(dir: &Path) -> Reading {
    let path = dir.join("SKILL.md");
    match fsread::read_file(&path, READ_LIMIT + 1) {
        Ok(bytes) => read_bytes(dir, &path, &bytes),
        Err(e) if e.is_not_found() => Reading::new(Outcome::NotListed {
            why: "no `SKILL.md` (OpenCode reads only files named exactly `SKILL.md`)".into(),
        }),
        Err(e) => Reading::new(match e.reason {
            Reason::TooLarge { .. } => Outcome::Unknown {
                why: format!(
                    "`SKILL.md` is over {READ_LIMIT} bytes, the most this tool reads for OpenCode"
                ),
            },
            reason => Outcome::Rejected {
                why: format!("`SKILL.md` cannot be read: {reason}"),
            },
        }),
    }
}

/// Reads `bytes`, the `SKILL.md` at `path` of the skill folder `dir`, as
/// OpenCode does.
pub fn read_bytes(_dir: &Path, path: &Path, bytes: &[u8]) -> Reading {
    read_named(path, bytes).0
}

/// [`read_bytes`], and the name the skill is loaded under when it is
/// (listed or not).
fn read_named(path: &Path, bytes: &[u8]) -> (Reading, Option<String>) {
    if bytes.len() as u64 > READ_LIMIT {
        return (
            Reading::new(Outcome::Unknown {
                why: format!(
                    "`SKILL.md` is over {READ_LIMIT} bytes, the most this tool reads for OpenCode"
                ),
            }),
            None,
        );
    }
    let loaded = match load(&String::from_utf8_lossy(bytes)) {
        Load::Loaded(l) => l,
        Load::Dropped(why) => return (Reading::new(Outcome::Rejected { why }), None),
        Load::Unknown(why) => return (Reading::new(Outcome::Unknown { why }), None),
    };
    let mut reading = Reading::new(Outcome::NotListed { why: String::new() });
    if loaded.sanitized {
        reading.note(
            Code::ClientYamlUnread,
            "the YAML does not parse as written; OpenCode reads it again with each top-level \
             value holding a `:` made a block scalar",
        );
    }
    let name = loaded.name;
    reading.outcome = match loaded.description {
        Some(description) => Outcome::Listed(Listed {
            name: name.clone(),
            alias: None,
            description,
            when_to_use: None,
            location: path.to_path_buf(),
            client: Client::OpenCode,
        }),
        None => Outcome::NotListed {
            why: format!(
                "no `description`: OpenCode loads the skill, and its `skill` tool activates it \
                 by name (`{name}`), but leaves it out of the catalog"
            ),
        },
    };
    (reading, Some(name))
}

/// One skill folder OpenCode reads, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The skill folder.
    pub dir: PathBuf,
    /// Its `SKILL.md`.
    pub skill_md: PathBuf,
    /// The name OpenCode loads it under, when it loads it (listed or not).
    pub name: Option<String>,
    /// How OpenCode reads it.
    pub reading: Reading,
    /// Whether it is a copy of a name found earlier, left out.
    pub replaced: bool,
}

/// Two skills loaded under one name: OpenCode keeps one of them, not
/// always the same; here the first found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The name.
    pub name: String,
    /// The `SKILL.md` found first, which is kept.
    pub kept: PathBuf,
    /// The `SKILL.md` found after it, which is left out.
    pub left_out: PathBuf,
}

impl Duplicate {
    /// The warning, after OpenCode's log line `duplicate skill name`.
    pub fn warning(&self) -> String {
        format!(
            "duplicate skill name `{}`: {} is listed, {} left out; OpenCode keeps one copy of a \
             name, not always the same one",
            self.name,
            self.kept.display(),
            self.left_out.display()
        )
    }
}

/// The skills OpenCode loads from what discovery found, and its catalog.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Every skill folder OpenCode reads, in discovery order, each read
    /// (a copy of a name found earlier is not listed).
    pub found: Vec<Found>,
    /// The names loaded more than once, in the order met.
    pub duplicates: Vec<Duplicate>,
}

impl Listing {
    /// The catalog's entries, in OpenCode's order (by name, [`collate`]).
    pub fn listed(&self) -> Vec<&Listed> {
        let mut listed: Vec<&Listed> = self
            .found
            .iter()
            .filter_map(|f| f.reading.outcome.listed())
            .collect();
        listed.sort_by(|a, b| collate(&a.name, &b.name));
        listed
    }

    /// The skill the `skill` tool loads for `name` (exact match).
    pub fn get(&self, name: &str) -> Option<&Found> {
        self.found
            .iter()
            .find(|f| !f.replaced && f.name.as_deref() == Some(name))
    }

    /// Every name the `skill` tool knows (listed or not), in the order of
    /// its "not found" message: JavaScript's default sort, by UTF-16 code
    /// units.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .found
            .iter()
            .filter_map(|f| f.name.as_deref())
            .collect();
        names.sort_by(|a, b| utf16_order(a, b));
        names.dedup();
        names
    }
}

/// JavaScript's default string order: by UTF-16 code units.
pub fn utf16_order(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// The skills discovery found that OpenCode reads
/// ([`Origin::read_by`](crate::Origin::read_by); a skill found under a root given directly counts),
/// read as OpenCode reads them: every folder in discovery's order, a name
/// loaded twice kept from the first copy found (OpenCode keeps one copy, not
/// always the same: see the module).
pub fn listing(found: &[FoundSkill]) -> Listing {
    let mut listing = Listing::default();
    let mut by_name: HashMap<String, PathBuf> = HashMap::new();
    for skill in found {
        if skill
            .origin
            .as_ref()
            .is_some_and(|o| !o.read_by(Client::OpenCode))
        {
            continue;
        }
        let skill_md = skill.dir.join("SKILL.md");
        let (mut reading, name) = match fsread::read_file(&skill_md, READ_LIMIT + 1) {
            Ok(bytes) => read_named(&skill_md, &bytes),
            Err(_) => (read(&skill.dir), None),
        };
        let mut replaced = false;
        if let Some(name) = &name {
            match by_name.get(name) {
                Some(kept) => {
                    reading.outcome = Outcome::NotListed {
                        why: copy_why(name, kept),
                    };
                    replaced = true;
                    listing.duplicates.push(Duplicate {
                        name: name.clone(),
                        kept: kept.clone(),
                        left_out: skill_md.clone(),
                    });
                }
                None => {
                    by_name.insert(name.clone(), skill_md.clone());
                }
            }
        }
        listing.found.push(Found {
            dir: skill.dir.clone(),
            skill_md,
            name,
            reading,
            replaced,
        });
    }
    listing
}

fn copy_why(name: &str, kept: &Path) -> String {
    format!(
        "another skill named `{name}` ({}) is found first and kept; OpenCode loads one copy of a \
         name, not always the same one from run to run",
        kept.display()
    )
}

/// Applies the one-copy-per-name rule to the readings of one listing, in
/// discovery order: of listed skills with one name, the first is kept.
pub fn resolve_names<'r>(readings: impl Iterator<Item = &'r mut Reading>) {
    let mut first: HashMap<String, PathBuf> = HashMap::new();
    for reading in readings {
        let Some(l) = reading.outcome.listed() else {
            continue;
        };
        match first.get(&l.name) {
            Some(kept) => {
                let why = copy_why(&l.name, kept);
                reading.outcome = Outcome::NotListed { why };
            }
            None => {
                first.insert(l.name.clone(), l.location.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// No text makes the reader panic.
        #[test]
        fn any_text_loads_or_not(
            text in "\u{FEFF}?(---[a-z \t]*\r?\n)?([a-z_-]{0,8}:[ \t]?[\\PC\t:#\\[\\]{}'\"|>-]{0,24}\r?\n){0,6}(---\n)?[\\PC\n]{0,60}"
        ) {
            let _ = load(&text);
        }
    }

    fn loaded(text: &str) -> Option<(String, Option<String>)> {
        match load(text) {
            Load::Loaded(l) => Some((l.name, l.description)),
            _ => None,
        }
    }

    fn listed(name: &str, description: &str) -> Option<(String, Option<String>)> {
        Some((name.to_owned(), Some(description.to_owned())))
    }

    #[test]
    fn the_recorded_frontmatters() {
        let fm = |body: &str| format!("---\n{body}---\nBody.\n");
        assert_eq!(loaded(&fm("name: a\ndescription: D.\n")), listed("a", "D."));
        assert_eq!(
            loaded(
                "---\r\nname: crlf\r\ndescription: CRLF line endings.\r\n---\r\nBody of crlf.\r\n"
            ),
            listed("crlf", "CRLF line endings.")
        );
        assert_eq!(
            loaded("\u{FEFF}---\nname: bom\ndescription: B.\n---\nBody.\n"),
            listed("bom", "B.")
        );
        assert_eq!(
            loaded("---\nname: u\ndescription: Never closed.\n# Body\n"),
            listed("u", "Never closed.")
        );
        assert_eq!(
            loaded(&fm(
                "name: c\ndescription: Use when: the plain scalar has a colon-space\n"
            )),
            listed("c", "Use when: the plain scalar has a colon-space")
        );
        assert_eq!(
            loaded(&fm("name: t\n\tdescription: tab indented\n")),
            listed("t", "tab indented")
        );
        assert_eq!(loaded(&fm("name: e\ndescription: \"\"\n")), listed("e", ""));
        assert_eq!(
            loaded(&fm(
                "name: m\ndescription: |\n  Line one.\n  Line two.\n\n  Para two.\n"
            )),
            listed("m", "Line one.\nLine two.\n\nPara two.\n")
        );
        assert_eq!(
            loaded(&fm(
                "name: f\ndescription: >\n  Folded line one\n  folded line two.\n"
            )),
            listed("f", "Folded line one folded line two.\n")
        );
        assert_eq!(
            loaded(&fm("name: no-desc\n")),
            Some(("no-desc".into(), None))
        );
        for dropped in [
            fm("name: u\ndescription: [unclosed flow\n"),
            fm("name: 12345\ndescription: D.\n"),
            fm("name: d\ndescription: 12345\n"),
            fm("name: d\ndescription:\n  - item one\n  - item two\n"),
            fm("description: D.\n"),
            "# Title\n\nJust markdown.\n".into(),
            "\n---\nname: l\ndescription: D.\n---\nBody.\n".into(),
        ] {
            assert!(
                matches!(load(&dropped), Load::Dropped(_)),
                "{dropped:?}: {:?}",
                load(&dropped)
            );
        }
    }

    /// The rules behind the record, past its cases.
    #[test]
    fn js_yaml_rules() {
        let fm = |body: &str| format!("---\n{body}---\nBody.\n");
        // Types of js-yaml 3's safe schema.
        for not_a_string in [
            "true",
            "~",
            "",
            "0x1F",
            "1_000",
            "017",
            "1:30",
            "1.5",
            ".inf",
            "1e5",
            "2024-01-02",
            "2024-1-2 10:20:30 +01:00",
            "!!int 3",
        ] {
            assert!(
                matches!(
                    load(&fm(&format!("name: {not_a_string}\ndescription: D.\n"))),
                    Load::Dropped(_)
                ),
                "{not_a_string}"
            );
        }
        for string in [
            "yes",
            "on",
            "1.2.3",
            "0o17",
            "1:60",
            "_1",
            "1_",
            "\"12\"",
            "!!str 12",
            "a: b",
            "2024-01-02x",
            "ns:thing",
            "My Skill Name",
        ] {
            let written = if string == "a: b" { "'a: b'" } else { string };
            assert!(
                matches!(
                    load(&fm(&format!("name: {written}\ndescription: D.\n"))),
                    Load::Loaded(_)
                ),
                "{string}: {:?}",
                load(&fm(&format!("name: {written}\ndescription: D.\n")))
            );
        }
        // A duplicate key or an unknown tag is an error, which no rewrite mends.
        assert!(matches!(
            load(&fm("name: a\nname: b\ndescription: D.\n")),
            Load::Dropped(_)
        ));
        assert!(matches!(
            load(&fm("name: !foo a\ndescription: D.\n")),
            Load::Dropped(_)
        ));
        // `null` is not a missing description.
        assert!(matches!(
            load(&fm("name: a\ndescription:\n")),
            Load::Dropped(_)
        ));
        // The rewrite needs `---` and a line break exactly at the start.
        assert!(matches!(
            load("\u{FEFF}---\nname: c\ndescription: a: b\n---\n"),
            Load::Dropped(_)
        ));
        // A language other than YAML after the opening `---`.
        assert!(matches!(
            load("---toml\nname = \"a\"\n---\n"),
            Load::Dropped(_)
        ));
        assert!(matches!(
            load("---json\n{\"name\": \"a\"}\n---\n"),
            Load::Unknown(_)
        ));
        assert_eq!(
            loaded("---YML\nname: a\ndescription: D.\n---\n"),
            listed("a", "D.")
        );
        assert_eq!(
            loaded("---yaml\nname: a\ndescription: D.\n---\n"),
            listed("a", "D.")
        );
        // `----` opens no frontmatter.
        assert!(matches!(
            load("----\nname: a\ndescription: D.\n----\n"),
            Load::Dropped(_)
        ));
    }

    #[test]
    fn split_and_body() {
        let p = split("---\nname: a\n---\n\nBody\n").map(|p| (p.yaml, p.body));
        assert_eq!(p, Some(("\nname: a", "\nBody\n")));
        let p = split("---\r\nname: a\r\n---\r\nBody\r\n").map(|p| (p.yaml, p.body));
        assert_eq!(p, Some(("\r\nname: a\r", "Body\r\n")));
        assert_eq!(split("---\nname: a\n").map(|p| p.body), Some(""));
        assert_eq!(split("--- \nname: a\n---").map(|p| p.body), Some(""));
        let Load::Loaded(l) = load("---\nname: a\n---\n# H\n\nText.\n") else {
            unreachable!("loads")
        };
        assert_eq!(l.body, "# H\n\nText.\n");
    }

    #[test]
    fn the_rewrite() {
        assert_eq!(
            sanitize("---\nname: a\ndescription: Use when: x \nother-key: a: b\n  x: y\nq: 'a: b'\n---\nB: c\n")
                .as_deref(),
            Some("---\nname: a\ndescription: |-\n  Use when: x\nother-key: a: b\n  x: y\nq: 'a: b'\n---\nB: c\n")
        );
        assert_eq!(
            sanitize("---\r\nk : a:b\r\n---\r\n").as_deref(),
            Some("---\r\nk: |-\n  a:b\r\n---\r\n")
        );
        assert_eq!(sanitize("---\nk: a:b\n"), None);
        // `\s*` skips a line terminator before the value; `.` stops at one.
        assert_eq!(
            sanitize("---\nk:\u{2028} a:b\nj: a:b\u{2028}c\n---\n").as_deref(),
            Some("---\nk: |-\n  a:b\nj: a:b\u{2028}c\n---\n")
        );
    }

    #[test]
    fn catalog_order_is_locale_order_and_names_are_code_unit_order() {
        let recorded = [
            "-leading-hyphen",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "args-demo",
            "bad-yaml-colon",
            "bad-yaml-tab",
            "bom",
            "crlf",
            "customize-opencode",
            "desc-angle",
            "desc-empty",
            "double--hyphen",
            "flow-mapping",
            "flow-requires",
            "inner",
            "inner3",
            "long-desc-1100",
            "long-desc-2000",
            "multiline-folded",
            "multiline-literal",
            "My Skill Name",
            "ns:thing",
            "ok-basic",
            "other-name",
            "root-level",
            "spec-keys",
            "unclosed-frontmatter",
            "under_score",
            "unicode-名前",
            "unknown-keys",
            "Upper-Dir",
            "Upper-Name",
        ];
        let mut names = recorded;
        names.reverse();
        names.sort_by(|a, b| collate(a, b));
        assert_eq!(names, recorded);
        names.sort_by(|a, b| utf16_order(a, b));
        assert_eq!(
            &names[..5],
            [
                "-leading-hyphen",
                "My Skill Name",
                "Upper-Dir",
                "Upper-Name",
                &"a".repeat(80)
            ]
        );
        // UTF-16, not code points: U+1F600 (a surrogate pair, 0xD83D...)
        // before U+FF5E.
        assert_eq!(utf16_order("\u{FF5E}", "\u{1F600}"), Ordering::Greater);
        assert_eq!("\u{FF5E}".cmp("\u{1F600}"), Ordering::Less);
    }

    #[test]
    fn the_listing() -> std::io::Result<()> {
        let tmp = tempfile::tempdir()?;
        let skill = |dir: &str, text: &str| -> std::io::Result<FoundSkill> {
            let dir = tmp.path().join(dir);
            std::fs::create_dir_all(&dir)?;
            std::fs::write(dir.join("SKILL.md"), text)?;
            Ok(FoundSkill {
                dir,
                plugin: None,
                root: tmp.path().to_path_buf(),
                origin: None,
            })
        };
        let found = [
            skill("a", "---\nname: x\ndescription: First x.\n---\n")?,
            skill("b", "---\nname: B\ndescription: Upper.\n---\n")?,
            skill("c", "---\nname: x\ndescription: Second x.\n---\n")?,
            skill("d", "---\nname: quiet\n---\nBody.\n")?,
            skill("e", "---\nname: 1\ndescription: D.\n---\n")?,
            skill("f", "---\nname: a-b\ndescription: Hyphen.\n---\n")?,
        ];
        let listing = listing(&found);
        let listed: Vec<(&str, &str)> = listing
            .listed()
            .iter()
            .map(|l| (l.name.as_str(), l.description.as_str()))
            .collect();
        assert_eq!(
            listed,
            [("a-b", "Hyphen."), ("B", "Upper."), ("x", "First x.")]
        );
        assert_eq!(listing.names(), ["B", "a-b", "quiet", "x"]);
        assert_eq!(
            listing.duplicates,
            [Duplicate {
                name: "x".into(),
                kept: found[0].dir.join("SKILL.md"),
                left_out: found[2].dir.join("SKILL.md"),
            }]
        );
        assert_eq!(listing.get("x").map(|f| &f.dir), Some(&found[0].dir));
        assert_eq!(listing.get("quiet").map(|f| &f.dir), Some(&found[3].dir));
        assert!(listing.get("1").is_none() && listing.get("X").is_none());
        // The profile's rule is the same: the first copy of a name is kept.
        let mut readings: Vec<Reading> = found.iter().map(|f| read(&f.dir)).collect();
        resolve_names(readings.iter_mut());
        assert!(readings[0].outcome.listed().is_some());
        assert!(matches!(readings[2].outcome, Outcome::NotListed { .. }));
        Ok(())
    }

    #[test]
    fn readings() {
        let path = Path::new("/p/s/SKILL.md");
        let r = read_bytes(Path::new("/p/s"), path, b"---\nname: n\n---\n");
        assert!(matches!(r.outcome, Outcome::NotListed { .. }));
        let r = read_bytes(
            Path::new("/p/s"),
            path,
            b"---\nname: n\ndescription: a: b\n---\n",
        );
        assert_eq!(r.notes.len(), 1);
        assert_eq!(r.notes[0].code, Code::ClientYamlUnread);
        assert_eq!(
            r.outcome.listed().map(|l| (
                l.name.as_str(),
                l.description.as_str(),
                l.location.as_path()
            )),
            Some(("n", "a: b", path))
        );
        let r = read_bytes(
            Path::new("/p/s"),
            path,
            b"---\nname: 1\ndescription: D\n---\n",
        );
        assert!(matches!(r.outcome, Outcome::Rejected { .. }));
    }
}

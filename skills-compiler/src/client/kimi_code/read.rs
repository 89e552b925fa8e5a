//! How Kimi Code reads one skill file: the split, the fields and their
//! checks ([`load`]), and the [`Reading`] with its notes. The module above
//! says what Kimi Code does.

use std::path::Path;

use skills_core::catalog::claude_code::is_js_whitespace;
use skills_core::client::Client;
use skills_core::fsread;

use crate::client::js_yaml::{self, Scalar, Version, is_unknown_tag, standard_tag};
use crate::client::reading::{Listed, Outcome, Reading};
use crate::diag::Code;
use crate::yaml::{Node, Value};

/// The largest skill file this tool reads (Kimi Code showed no limit).
pub const READ_LIMIT: u64 = 16 << 20;

/// The description Kimi Code gives a loose file whose body has no text.
pub const NO_DESCRIPTION: &str = "No description provided.";

/// What the `type:` key makes of a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// No `type`, `prompt` or `inline`: listed, and the model may load it.
    Inline,
    /// `flow`: loaded (it takes its name), for the user's `/name` only.
    Flow,
    /// `reference`: loaded (it takes its name), neither listed nor loadable
    /// by the model.
    Reference,
}

/// What Kimi Code keeps of a skill file it loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The name (trimmed).
    pub name: String,
    /// The description (trimmed).
    pub description: String,
    /// `when_to_use` (or `when-to-use`), when it is non-empty text, as
    /// written.
    pub when_to_use: Option<String>,
    /// The body, trimmed.
    pub body: String,
    /// `disable-model-invocation: true` (the boolean).
    pub model_disabled: bool,
    /// What `type:` makes of it.
    pub kind: Kind,
    /// The names `$NAME` stands for, from `arguments:`, in order.
    pub arguments: Vec<String>,
}

impl Loaded {
    /// Why the model is not shown it, when it is loaded but hidden.
    pub fn hidden(&self) -> Option<&'static str> {
        if self.model_disabled {
            Some(
                "`disable-model-invocation: true`: Kimi Code loads the skill (it takes its name) but does not list it, and its `Skill` tool refuses it",
            )
        } else {
            match self.kind {
                Kind::Inline => None,
                Kind::Flow => Some(
                    "`type: flow`: Kimi Code loads the skill for its user's `/name` only; it does not list it, and its `Skill` tool refuses it",
                ),
                Kind::Reference => Some(
                    "`type: reference`: Kimi Code loads the skill (it takes its name) but does not list it, and its `Skill` tool refuses it",
                ),
            }
        }
    }
}

/// Why Kimi Code drops a skill file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dropped {
    /// Its reason.
    No(String),
    /// Not modelled (a bound, a tag): the reason.
    Unknown(String),
}

fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// The text split as Kimi Code splits it (lines broken at `\n` or
/// `\r\n`): `Ok(None)` and the whole text when the first line, trimmed, is
/// not `---`; else `Ok(Some(yaml))` with the lines up to the next line
/// that is `---` once trimmed, joined by `\n` and trimmed, and the body
/// after it (lines joined by `\n`). `Err` when the frontmatter is not
/// closed.
pub fn split(text: &str) -> Result<(Option<String>, String), Dropped> {
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    if lines.next().map(js_trim) != Some("---") {
        return Ok((None, text.to_owned()));
    }
    let mut yaml: Vec<&str> = Vec::new();
    for line in lines.by_ref() {
        if js_trim(line) == "---" {
            let body: Vec<&str> = lines.collect();
            return Ok((Some(js_trim(&yaml.join("\n")).to_owned()), body.join("\n")));
        }
        yaml.push(line);
    }
    Err(Dropped::No(
        "its frontmatter is not closed (no second `---` line)".into(),
    ))
}

/// A frontmatter value as Kimi Code's YAML reader (js-yaml 4) types it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Js<'n> {
    Text(&'n str),
    Bool(bool),
    Null,
    Other,
}

fn js(node: &Node) -> Js<'_> {
    match &node.value {
        Value::Str(s) if !node.plain => Js::Text(s),
        Value::Str(s) => match js_yaml::plain(s, Version::Four) {
            None => Js::Text(s),
            Some(Scalar::Null) => Js::Null,
            Some(Scalar::Bool) => Js::Bool(s.eq_ignore_ascii_case("true")),
            Some(Scalar::Number | Scalar::Date) => Js::Other,
        },
        Value::Seq(_) | Value::Map(_) => Js::Other,
    }
}

/// The text of `node` trimmed, when it is text and not blank.
fn non_empty(node: Option<&Node>) -> Option<String> {
    match node.map(js) {
        Some(Js::Text(s)) if !js_trim(s).is_empty() => Some(js_trim(s).to_owned()),
        _ => None,
    }
}

/// The mapping's entries under Kimi Code's names for them
/// (`when_to_use`, `when-to-use`: `whenToUse`; the two spellings of
/// `disable-model-invocation`: `disableModelInvocation`), the last of a
/// name winning.
fn normalised(map: &[(Node, Node)]) -> Vec<(&str, &Node)> {
    let mut out: Vec<(&str, &Node)> = Vec::new();
    // Where each name is in `out`: a look-up per key, not a walk of `out`
    // (thousands of keys stay linear).
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (key, value) in map {
        let Some(key) = key.as_str() else { continue };
        let key = match key {
            "when-to-use" | "when_to_use" => "whenToUse",
            "disable-model-invocation" | "disable_model_invocation" => "disableModelInvocation",
            other => other,
        };
        match at.get(key).and_then(|&i| out.get_mut(i)) {
            Some(slot) => slot.1 = value,
            None => {
                at.insert(key, out.len());
                out.push((key, value));
            }
        }
    }
    out
}

/// The mapping of the YAML `text`, as js-yaml gives it; `Ok(None)` for an
/// empty document or a null.
fn mapping(text: &str) -> Result<Option<Node>, Dropped> {
    if text.is_empty() {
        return Ok(None);
    }
    let parsed = crate::client::shared_yaml::parse(text);
    if let Some(limit) = parsed.limit {
        return Err(Dropped::Unknown(format!(
            "the YAML {}, the most this tool reads; what Kimi Code reads past that is not recorded",
            limit.phrase()
        )));
    }
    if parsed.is_fatal() {
        return Err(Dropped::No("its YAML does not parse".into()));
    }
    let (strs, tags): (Vec<_>, Vec<_>) = parsed
        .problems
        .iter()
        .filter(|p| p.code == Code::YamlTag)
        .map(|p| (text.get(p.span.clone()).unwrap_or("!"), p.span.clone()))
        .partition(|(t, _)| standard_tag(t) == Some("str"));
    let tags: Vec<&str> = tags.into_iter().map(|(t, _)| t).collect();
    // `!!str` makes the scalar it tags text, which is all it does.
    let text_at: Vec<usize> = strs
        .iter()
        .flat_map(|(_, span)| {
            let gap = text
                .get(span.end..)
                .map_or(0, |t| t.len() - t.trim_start_matches([' ', '\t']).len());
            [span.start, span.end + gap]
        })
        .collect();
    if let Some(tag) = tags.iter().find(|t| is_unknown_tag(t, Version::Four)) {
        return Err(Dropped::No(format!(
            "its YAML uses the tag `{tag}`, which Kimi Code's YAML reader (js-yaml) does not know"
        )));
    }
    if let Some(tag) = tags.first() {
        return Err(Dropped::Unknown(format!(
            "the YAML uses the tag `{tag}`, and what Kimi Code's YAML reader (js-yaml) makes of a tagged value is not modelled"
        )));
    }
    if let Some(d) = parsed
        .problems
        .iter()
        .find(|p| p.code == Code::YamlDuplicateKey)
    {
        return Err(Dropped::No(format!(
            "its YAML has a {}, which Kimi Code's YAML reader (js-yaml) refuses",
            d.message
        )));
    }
    // The parse is shared with the other readers of this text: the root is
    // copied, then marked.
    match parsed.root.as_ref() {
        None => Ok(None),
        Some(root) if root.plain && root.as_str().is_some_and(|s| js_yaml::plain(s, Version::Four) == Some(Scalar::Null)) => Ok(None),
        Some(root) => match root.as_map() {
            Some(map) if map.iter().any(|(k, _)| k.plain && k.as_str() == Some("<<")) => {
                Err(Dropped::Unknown(
                    "the YAML uses a merge key (`<<`), which Kimi Code's YAML reader expands; that is not modelled".into(),
                ))
            }
            Some(_) => {
                let mut root = root.clone();
                as_text(&mut root, &text_at);
                Ok(Some(root))
            }
            None => Err(Dropped::No(
                "its frontmatter is not a mapping at the top level".into(),
            )),
        },
    }
}

/// Marks the scalars starting at one of `starts` as text (not typed).
fn as_text(node: &mut Node, starts: &[usize]) {
    match &mut node.value {
        Value::Str(_) => {
            if starts.contains(&node.span.start) {
                node.plain = false;
            }
        }
        Value::Seq(items) => items.iter_mut().for_each(|i| as_text(i, starts)),
        Value::Map(entries) => entries.iter_mut().for_each(|(_, v)| as_text(v, starts)),
    }
}

/// Reads `text` as Kimi Code does: `stem` is the skill folder's name (a
/// `SKILL.md`, `directory`) or the loose file's name without `.md`.
pub fn load(text: &str, stem: &str, directory: bool) -> Result<Loaded, Dropped> {
    let (yaml, body) = split(text)?;
    if directory && yaml.is_none() {
        return Err(Dropped::No(
            "its first line is not `---`: a `SKILL.md` must start with a frontmatter".into(),
        ));
    }
    let root = match &yaml {
        Some(y) => mapping(y)?,
        None => None,
    };
    let entries = root
        .as_ref()
        .and_then(Node::as_map)
        .map(normalised)
        .unwrap_or_default();
    let get = |key: &str| entries.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let kind = match get("type") {
        None => Kind::Inline,
        Some(node) => match js(node) {
            Js::Text(s) => match js_trim(s) {
                "prompt" | "inline" => Kind::Inline,
                "flow" => Kind::Flow,
                "reference" => Kind::Reference,
                _ => {
                    return Err(Dropped::No(format!(
                        "its `type` is `{s}`; Kimi Code loads only `prompt`, `inline`, `flow` and `reference` skills (and lists only the first two)"
                    )));
                }
            },
            _ => {
                return Err(Dropped::No(
                    "its `type` is not text; Kimi Code loads only `prompt`, `inline`, `flow` and `reference` skills".into(),
                ));
            }
        },
    };
    let name = non_empty(get("name"));
    let description = non_empty(get("description"));
    let body = js_trim(&body).to_owned();
    let (name, description) = match (name, description) {
        (Some(n), Some(d)) => (n, d),
        (None, _) if directory => {
            return Err(Dropped::No(
                "it has no `name` that is non-blank text".into(),
            ));
        }
        (_, None) if directory => {
            return Err(Dropped::No(
                "it has no `description` that is non-blank text".into(),
            ));
        }
        (n, d) => (
            n.unwrap_or_else(|| stem.to_owned()),
            d.unwrap_or_else(|| description_from_body(&body)),
        ),
    };
    let when_to_use = match get("whenToUse").map(js) {
        Some(Js::Text(s)) if !s.is_empty() => Some(s.to_owned()),
        _ => None,
    };
    let model_disabled = matches!(get("disableModelInvocation").map(js), Some(Js::Bool(true)));
    let arguments = arguments(get("arguments"));
    Ok(Loaded {
        name,
        description,
        when_to_use,
        body,
        model_disabled,
        kind,
        arguments,
    })
}

/// A loose file's description when it has none: the first non-blank line
/// of the body, trimmed, cut to 239 UTF-16 units and `…` past 240.
fn description_from_body(body: &str) -> String {
    let Some(line) = body
        .split('\n')
        .map(|l| js_trim(l.strip_suffix('\r').unwrap_or(l)))
        .find(|l| !l.is_empty())
    else {
        return NO_DESCRIPTION.to_owned();
    };
    let units: Vec<u16> = line.encode_utf16().collect();
    if units.len() <= 240 {
        return line.to_owned();
    }
    let head = units.get(..239).unwrap_or(&units);
    format!("{}…", String::from_utf16_lossy(head))
}

/// The names `arguments:` gives: a text's words, or a list's text items;
/// blank and all-digit names left out.
fn arguments(node: Option<&Node>) -> Vec<String> {
    let valid = |s: &str| !js_trim(s).is_empty() && !s.bytes().all(|b| b.is_ascii_digit());
    let Some(node) = node else {
        return Vec::new();
    };
    match (&node.value, js(node)) {
        (_, Js::Text(s)) => s
            .split(is_js_whitespace)
            .filter(|w| valid(w))
            .map(str::to_owned)
            .collect(),
        (Value::Seq(items), _) => items
            .iter()
            .filter_map(|i| match js(i) {
                Js::Text(s) if valid(s) => Some(s.to_owned()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Reads the skill folder `dir` as Kimi Code does.
pub fn read(dir: &Path) -> Reading {
    let path = dir.join("SKILL.md");
    match fsread::read_file(&path, READ_LIMIT + 1) {
        Ok(bytes) => read_bytes(dir, &path, &bytes),
        Err(e) if e.is_not_found() => Reading::new(Outcome::NotListed {
            why: "no `SKILL.md` in this folder (Kimi Code reads only `SKILL.md`)".into(),
        }),
        Err(e) => Reading::new(Outcome::Rejected {
            why: format!("`SKILL.md` cannot be read: {}", e.reason),
        }),
    }
}

/// The name a skill file is known by when it has none: its folder's name
/// for a `SKILL.md`, else the file's name without `.md`.
pub fn stem(path: &Path) -> (String, bool) {
    let directory = path.file_name().is_some_and(|n| n == "SKILL.md");
    let of = |p: Option<&Path>| {
        p.and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if directory {
        (of(path.parent()), true)
    } else {
        let name = of(Some(path));
        (name.strip_suffix(".md").unwrap_or(&name).to_owned(), false)
    }
}

/// Reads `bytes`, the skill file at `path` (a `SKILL.md`, or a loose
/// `NAME.md`), as Kimi Code does: [`read_text`] of their text, with
/// Node's replacement of invalid UTF-8.
pub fn read_bytes(dir: &Path, path: &Path, bytes: &[u8]) -> Reading {
    if bytes.len() as u64 > READ_LIMIT {
        return Reading::new(Outcome::Unknown {
            why: format!(
                "`{}` is over {READ_LIMIT} bytes, the most this tool reads; Kimi Code reads it whole",
                path.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
            ),
        });
    }
    read_text(dir, path, &String::from_utf8_lossy(bytes))
}

/// Reads `text`, the skill file at `path` already decoded (the check's
/// text, `validate`'s path), as Kimi Code does.
pub fn read_text(_dir: &Path, path: &Path, text: &str) -> Reading {
    let (stem, directory) = stem(path);
    let loaded = match load(text, &stem, directory) {
        Ok(l) => l,
        Err(Dropped::Unknown(why)) => return Reading::new(Outcome::Unknown { why }),
        Err(Dropped::No(why)) => {
            return Reading::new(Outcome::Rejected {
                why: format!("Kimi Code skips the skill: {why}"),
            });
        }
    };
    let mut reading = Reading::new(Outcome::NotListed { why: String::new() });
    let cut = skills_core::catalog::kimi_code::cut(&loaded.description);
    if cut != loaded.description {
        reading.note(
            Code::ClientDescriptionCut,
            format!(
                "the description is {} UTF-16 units long: Kimi Code lists its first {} and `...`",
                loaded.description.encode_utf16().count(),
                cut.encode_utf16().count() - 3
            ),
        );
    }
    if let Some(why) = loaded.hidden() {
        reading.outcome = Outcome::NotListed { why: why.into() };
        return reading;
    }
    reading.outcome = Outcome::Listed(Listed {
        name: loaded.name,
        alias: None,
        description: loaded.description,
        when_to_use: loaded.when_to_use,
        location: crate::client::absolute::absolute(path),
        client: Client::KimiCode,
    });
    reading
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Loaded {
        match load(text, "dir", true) {
            Ok(l) => l,
            Err(e) => panic!("{text:?}: {e:?}"),
        }
    }

    fn dropped(text: &str) -> bool {
        matches!(load(text, "dir", true), Err(Dropped::No(_)))
    }

    #[test]
    fn the_split() {
        assert_eq!(
            split("\u{feff}---\r\nname: a\r\n---\r\n\r\nBody\r\n").ok(),
            Some((Some("name: a".into()), "\nBody\n".into()))
        );
        assert_eq!(
            split(" --- \n a: b\n ---  \nx").ok(),
            Some((Some("a: b".into()), "x".into()))
        );
        assert_eq!(
            split("\n---\na: b\n---\n").ok(),
            Some((None, "\n---\na: b\n---\n".into()))
        );
        assert!(split("---\na: b\n").is_err());
    }

    #[test]
    fn what_it_drops() {
        for text in [
            "----\nname: a\ndescription: d\n----\n",
            "\n---\nname: a\ndescription: d\n---\n",
            "---\nname: a\ndescription: d\n",
            "---\n---\n",
            "",
            "no frontmatter",
            "---\nname: 12345\ndescription: d\n---\n",
            "---\nname: a\ndescription: [a, b]\n---\n",
            "---\nname: a\ndescription: \"  \"\n---\n",
            "---\nname: a\ndescription: Use when: x\n---\n",
            "---\nname: a\ndescription: [unclosed\n---\n",
            "---\nname: a\n\tdescription: tab\n---\n",
            "---\nname: a\nname: b\ndescription: d\n---\n",
            "---\nname: a\ndescription: d\ntype: technique\n---\n",
            "---\nname: a\ndescription: d\ntype: \"\"\n---\n",
            "---\nname: a\ndescription: d\ntype:\n---\n",
            "---\nname: a\ndescription: d\ntype: skill\n---\n",
            "---\n- a\n---\n",
        ] {
            assert!(dropped(text), "{text:?}");
        }
    }

    #[test]
    fn what_it_keeps() {
        let l = ok(
            "---\nname: \" My Skill \"\ndescription: >\n  Folded\n  line.\nwhen_to_use: W\ntype: prompt\narguments: [x, 1, \"y\"]\n---\n\n  Body.\n\n",
        );
        assert_eq!(l.name, "My Skill");
        assert_eq!(l.description, "Folded line.");
        assert_eq!(l.when_to_use.as_deref(), Some("W"));
        assert_eq!(l.body, "Body.");
        assert_eq!(l.arguments, ["x", "y"]);
        assert_eq!(l.kind, Kind::Inline);
        assert!(l.hidden().is_none());
        let l = ok(
            "---\nname: a\ndescription: |\n  One.\n  Two.\ndisable-model-invocation: true\narguments: a  b 3\n---\n",
        );
        assert_eq!(l.description, "One.\nTwo.");
        assert!(l.model_disabled && l.hidden().is_some());
        assert_eq!(l.arguments, ["a", "b"]);
        assert!(
            !ok("---\nname: a\ndescription: d\ndisable-model-invocation: \"true\"\n---\n")
                .model_disabled
        );
        assert_eq!(
            ok("---\nname: a\ndescription: d\ntype: flow\n---\n").kind,
            Kind::Flow
        );
        assert_eq!(
            ok("---\nname: a\ndescription: d\ntype: reference\n---\n").kind,
            Kind::Reference
        );
        assert_eq!(
            ok("---\nname: a\ndescription: !!str 12\n---\n").description,
            "12"
        );
        assert!(matches!(
            load("---\nname: a\ndescription: !!int 12\n---\n", "a", true),
            Err(Dropped::Unknown(_))
        ));
    }

    #[test]
    fn a_loose_file_needs_no_frontmatter() {
        let l = load("\n\n# Title\nText.\n", "notes", false).ok();
        assert_eq!(
            l.map(|l| (l.name, l.description)),
            Some(("notes".into(), "# Title".into()))
        );
        let l = load("---\n---\n", "empty", false).ok();
        assert_eq!(l.map(|l| l.description), Some(NO_DESCRIPTION.into()));
        let long = format!("---\nname: x\n---\n{}", "a".repeat(241));
        let l = load(&long, "x", false).ok();
        assert_eq!(
            l.map(|l| l.description),
            Some(format!("{}…", "a".repeat(239)))
        );
    }
}

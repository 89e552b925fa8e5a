//! Copilot CLI's reading of one `SKILL.md` ([`load`]), as a [`Reading`]
//! ([`read_bytes`]). The module above lists the recorded rules.

use std::borrow::Cow;
use std::path::Path;

use skills_core::client::Client;
use skills_core::fsread::{self, Reason};

use crate::client::reading::{Listed, Outcome, Reading};
use crate::client::shared_yaml;
use crate::diag::Code;
use crate::yaml::{Node, Value};

/// The largest `SKILL.md` this module reads. Copilot loaded a file over
/// 1 MB; past this size its reading is not known.
pub const READ_LIMIT: u64 = 16 << 20;

/// The longest name Copilot lists, in characters (64 listed, 65 dropped).
pub const MAX_NAME: usize = 64;

/// The longest description Copilot lists, in UTF-16 code units (1,024
/// listed, 1,025 dropped; 1,024 `é` listed; 513 emoji, 1,026 units,
/// dropped: recorded here with Copilot CLI 1.0.102).
pub const MAX_DESCRIPTION: usize = 1_024;

/// A `SKILL.md` as Copilot loads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The name it is listed and activated under.
    pub name: String,
    /// The name as written, when Copilot changed it (spaces to `-`).
    pub written_name: Option<String>,
    /// Whether the name is the folder's (no `name` in the frontmatter).
    pub folder_name: bool,
    /// The description, trimmed.
    pub description: String,
    /// Whether the description is the body's first paragraph (no
    /// `description` in the frontmatter).
    pub description_from_body: bool,
    /// The text after the closing `---` line, untouched ([`body`] gives
    /// what the activation shows).
    pub body: String,
    /// `disable-model-invocation: true`: not listed, not activatable.
    pub model_invocation_disabled: bool,
}

/// What Copilot makes of a `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Load {
    /// Loaded.
    Loaded(Loaded),
    /// Dropped, silently: why, in our words.
    Dropped(String),
    /// Past one of this tool's bounds: not known.
    Unknown(String),
}

/// Loads `text` (a whole `SKILL.md` in the folder named `folder`) as
/// Copilot does.
pub fn load(text: &str, folder: &str) -> Load {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    // Line ends are read as `\n`: a CRLF file's body reaches the model with
    // `\n` line ends (recorded here).
    let text: Cow<'_, str> = if text.contains("\r\n") {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(text)
    };
    let text = &*text;
    let Some((yaml_range, after)) = split(text) else {
        return Load::Dropped(
            "no frontmatter: the file must start with a `---` line and have a closing `---` line"
                .into(),
        );
    };
    let yaml_text = text.get(yaml_range).unwrap_or("");
    let parsed = shared_yaml::parse(yaml_text);
    if let Some(limit) = parsed.limit {
        return Load::Unknown(format!(
            "the YAML {}, the most this tool reads; what Copilot CLI reads past that is not recorded",
            limit.phrase()
        ));
    }
    if let Some(p) = parsed
        .problems
        .iter()
        .find(|p| matches!(p.code, Code::InvalidYaml | Code::YamlDuplicateKey))
    {
        return Load::Dropped(format!("the YAML does not parse ({})", p.message));
    }
    let empty: &[(Node, Node)] = &[];
    let map = match &parsed.root {
        None => empty,
        Some(root) => match root.as_map() {
            Some(map) => map,
            None => {
                return Load::Dropped(format!(
                    "the frontmatter is a {}, not a mapping",
                    root.kind()
                ));
            }
        },
    };
    let get = |key: &str| {
        map.iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    };
    let (written, folder_name) = match get("name").map(text_of) {
        Some(Err(kind)) => return Load::Dropped(format!("`name` is a {kind}, not a string")),
        Some(Ok(name)) => (name, false),
        None => (folder.to_owned(), true),
    };
    let name = match listed_name(&written) {
        Ok(name) => name,
        Err(why) if folder_name => {
            return Load::Dropped(format!(
                "no `name`, and the folder's name `{written}` is no name Copilot CLI takes: {why}"
            ));
        }
        Err(why) => return Load::Dropped(format!("`name` `{written}`: {why}")),
    };
    let (description, description_from_body) = match get("description").map(text_of) {
        Some(Err(kind)) => {
            return Load::Dropped(format!("`description` is a {kind}, not a string"));
        }
        Some(Ok(d)) => (at_the_end(d, get("description"), yaml_text.len()), false),
        None => (body_text(after), true),
    };
    let units = description.encode_utf16().count();
    if units > MAX_DESCRIPTION {
        return Load::Dropped(format!(
            "the description is {units} UTF-16 code units, over the {MAX_DESCRIPTION} Copilot CLI takes"
        ));
    }
    let model_invocation_disabled = get("disable-model-invocation").is_some_and(disables);
    Load::Loaded(Loaded {
        written_name: (written != name).then_some(written),
        name,
        folder_name,
        description,
        description_from_body,
        body: after.to_owned(),
        model_invocation_disabled,
    })
}

/// The YAML's byte range and the text after the closing line, or `None`
/// without a frontmatter. The YAML stops before the line break that ends
/// its last line, so a block scalar that ends it has no final line break
/// (the shared record's `multiline-literal` is listed without one; the
/// same scalar before another key keeps it: recorded here).
fn split(text: &str) -> Option<(std::ops::Range<usize>, &str)> {
    let mut pos = 0;
    let mut opened: Option<usize> = None;
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
        let next = (end + 1).min(text.len());
        let line = text[pos..end].trim_end_matches(['\r', ' ', '\t']);
        match opened {
            None if line == "---" => opened = Some(pos + 3),
            None => return None,
            Some(start) if line == "---" => {
                let end = if pos > start { pos - 1 } else { pos };
                return Some((start..end, &text[next..]));
            }
            Some(_) => {}
        }
        pos = next;
    }
    None
}

/// `value` as Copilot reads it when its node ends the YAML: a block
/// scalar there has no final line break, since the YAML Copilot parses
/// stops before it (this crate's reader, given the same text, keeps one).
fn at_the_end(value: String, node: Option<&Node>, yaml_end: usize) -> String {
    match node {
        Some(n) if n.span.end >= yaml_end && value.ends_with('\n') => {
            value[..value.len() - 1].to_owned()
        }
        _ => value,
    }
}

/// The text of a value, or the kind of a value that is not a string (a
/// plain scalar a YAML 1.2 reader types: a null such as `name:` with
/// nothing after it, a number, a boolean; a list, a mapping). Recorded
/// here: `name:` and `description:` left empty drop the skill.
fn text_of(node: &Node) -> Result<String, &'static str> {
    match &node.value {
        Value::Str(s) if node.plain => match plain_type(s) {
            Some(kind) => Err(kind),
            None => Ok(s.clone()),
        },
        Value::Str(s) => Ok(s.clone()),
        _ => Err(node.kind()),
    }
}

/// What a YAML 1.2 (core schema) reader makes of a plain scalar other
/// than a string: `null`, `boolean` or `number`.
fn plain_type(s: &str) -> Option<&'static str> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Some("null"),
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return Some("boolean"),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => return Some("number"),
        _ => {}
    }
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    let number = if let Some(hex) = s.strip_prefix("0x") {
        !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit())
    } else if let Some(oct) = s.strip_prefix("0o") {
        !oct.is_empty() && oct.chars().all(|c| c.is_digit(8))
    } else {
        is_float(digits)
    };
    number.then_some("number")
}

/// `[0-9]+`, or a decimal with an optional exponent (`1.5`, `.5`, `1e3`).
fn is_float(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let all_digits = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    let mantissa_ok = all_digits(int)
        && frac.is_none_or(all_digits)
        && (!int.is_empty() || frac.is_some_and(|f| !f.is_empty()));
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && all_digits(e)
    });
    mantissa_ok && exponent_ok
}

/// Whether `disable-model-invocation` keeps the skill from the model:
/// any value but the boolean `false` (recorded here: `true`, `True`,
/// `"true"`, `yes`, `no`, `on`, `0`, `1`, `banana`, `"false"` and an empty
/// value do; plain `false` does not).
fn disables(node: &Node) -> bool {
    !(node.plain
        && plain_type(node.as_str().unwrap_or_default()) == Some("boolean")
        && matches!(node.as_str(), Some("false" | "False" | "FALSE")))
}

/// The name Copilot lists for `written` (each run of spaces made one `-`:
/// `x  y` is listed as `x-y`, recorded here), or why it
/// takes none: over [`MAX_NAME`] characters, a character other than ASCII
/// letters, digits, `-`, `_`, `.`, `:`, or a first character that is not
/// a letter or digit (recorded: `trail-`, `9lives`, `ns:thing`,
/// `dot.name`, `under_score` listed; `-leading-hyphen`, `_lead`,
/// `plus+name`, `unicode-名前`, 65 and 80 characters dropped).
pub fn listed_name(written: &str) -> Result<String, String> {
    let name = written
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let chars = name.chars().count();
    if chars == 0 {
        return Err("it is empty".into());
    }
    if chars > MAX_NAME {
        return Err(format!(
            "{chars} characters, over the {MAX_NAME} Copilot CLI takes"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
    {
        return Err(format!(
            "`{}` is not a character Copilot CLI takes in a name (ASCII letters, digits, `-`, `_`, `.`, `:`)",
            c.escape_debug()
        ));
    }
    if name.starts_with(|c: char| !c.is_ascii_alphanumeric()) {
        return Err("a name must start with a letter or digit".into());
    }
    Ok(name)
}

/// How many of the body's lines make the description of a skill without
/// one (recorded here: three lines of 79 characters gave 239 characters).
pub const BODY_LINES: usize = 3;

/// The description Copilot takes from a body without one: the body's
/// first [`BODY_LINES`] lines that are neither blank nor headings (`#`),
/// each trimmed, joined by one space (recorded here: `Line one\nline
/// two\n\nPara two.` gives `Line one line two Para two.`, `# T\nText.`
/// gives `Text.`, a code fence's lines are lines like any other); empty
/// when there are none.
pub fn body_text(body: &str) -> String {
    body.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(BODY_LINES)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The body as Copilot's activation shows it: the text after the closing
/// `---` line without its leading blank lines, its end as written.
pub fn body(after: &str) -> &str {
    let mut rest = after;
    while let Some(i) = rest.find('\n') {
        if !rest[..i].trim().is_empty() {
            break;
        }
        rest = &rest[i + 1..];
    }
    rest
}

/// Reads the skill folder `dir` as Copilot does.
pub fn read(dir: &Path) -> Reading {
    let path = dir.join("SKILL.md");
    match fsread::read_file(&path, READ_LIMIT + 1) {
        Ok(bytes) => read_bytes(dir, &path, &bytes),
        Err(e) if e.is_not_found() => Reading::new(Outcome::NotListed {
            why: "no `SKILL.md` (Copilot CLI reads only files named exactly `SKILL.md`)".into(),
        }),
        Err(e) => Reading::new(match e.reason {
            Reason::TooLarge { .. } => too_large(),
            reason => Outcome::Rejected {
                why: format!("`SKILL.md` cannot be read: {reason}"),
            },
        }),
    }
}

fn too_large() -> Outcome {
    Outcome::Unknown {
        why: format!(
            "`SKILL.md` is over {READ_LIMIT} bytes, the most this tool reads for Copilot CLI"
        ),
    }
}

/// Reads `bytes`, the `SKILL.md` at `path` of the skill folder `dir`, as
/// Copilot does.
pub fn read_bytes(dir: &Path, path: &Path, bytes: &[u8]) -> Reading {
    if bytes.len() as u64 > READ_LIMIT {
        return Reading::new(too_large());
    }
    read_text(dir, path, &String::from_utf8_lossy(bytes))
}

/// Reads `text`, the `SKILL.md` at `path` of the skill folder `dir`
/// decoded as [`read_bytes`] decodes it, as Copilot does. The caller has
/// bounded its size ([`READ_LIMIT`]).
pub fn read_text(dir: &Path, path: &Path, text: &str) -> Reading {
    let folder = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let loaded = match load(text, &folder) {
        Load::Loaded(l) => l,
        Load::Dropped(why) => return Reading::new(Outcome::Rejected { why }),
        Load::Unknown(why) => return Reading::new(Outcome::Unknown { why }),
    };
    let mut reading = Reading::new(Outcome::NotListed { why: String::new() });
    if let Some(written) = &loaded.written_name {
        reading.note(
            Code::ClientNameNotShown,
            format!(
                "Copilot CLI lists and activates `{written}` as `{}` (spaces become `-`)",
                loaded.name
            ),
        );
    }
    if loaded.description_from_body {
        reading.note(
            Code::ClientDescriptionReplaced,
            if loaded.description.is_empty() {
                "no `description`, and no paragraph in the body: Copilot CLI lists the skill with an empty description".to_owned()
            } else {
                "no `description`: Copilot CLI lists the body's first paragraph instead".to_owned()
            },
        );
    }
    reading.outcome = if loaded.model_invocation_disabled {
        Outcome::NotListed {
            why: "`disable-model-invocation: true`: Copilot CLI neither lists it nor lets its `skill` tool load it".into(),
        }
    } else {
        Outcome::Listed(Listed {
            name: loaded.name,
            alias: None,
            description: loaded.description,
            when_to_use: None,
            location: path.to_path_buf(),
            client: Client::Copilot,
        })
    };
    reading
}

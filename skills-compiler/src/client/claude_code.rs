//! How Claude Code 2.1.330 reads a skill folder, as it was observed to when
//! run on test folders (what it loads, and the listing it shows its model):
//! whether it loads the skill, whether it lists it to the model, and the
//! entry it shows.
//!
//! * The folder must hold a file named exactly `SKILL.md` (`skill.md` is
//!   not read; skills nested deeper are not found), of at most
//!   [`MAX_SKILL_MD`] bytes; a folder named [`RESERVED_FOLDER`] is skipped.
//! * A leading byte-order mark is dropped. The frontmatter is what
//!   [`split`] finds: a first line `---` (so `----`, a leading blank line or
//!   no closing `---` leave the whole file as body).
//! * The YAML is read as YAML 1.2 (`007` is the number 7, `yes` a string).
//!   YAML that does not parse is re-read with every problematic `key: value`
//!   line's value quoted ([`quote_problematic_values`]); if that fails too,
//!   the skill loads with no frontmatter at all.
//! * The entry is `- <folder>: <description>`, with the frontmatter name in
//!   parentheses when [`shows_name`] says so and no other listed skill has
//!   it as folder name ([`listing`]).
//! * The description is the YAML `description` when it is a scalar with
//!   text; else the first non-blank body line ([`body_line`]); else `Skill`.
//! * `disable-model-invocation: true` and `paths` keep a loaded skill out
//!   of the listing. `user-invocable: false` and `argument-hint` change
//!   only the user's `/` menu: the skill is listed and activated as any
//!   other (recorded).
//! * The keys in [`NOT_MODELLED`] are read by Claude Code for what happens
//!   once the skill runs (a forked sub-agent, another model, hooks, ...),
//!   which this model does not follow: each one a skill sets is noted
//!   (`SK480`) with what it does.

use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use skills_core::catalog::claude_code as cat;
use skills_core::fsread::{self, Reason};

use super::collate::collate;
use super::reading::{Listed, Outcome, Reading};
use crate::diag::Code;
use crate::discover::FoundSkill;
use crate::render;
use crate::rules;
use crate::yaml::{self, Node, Value};
use skills_core::client::Client;

/// The largest `SKILL.md` Claude Code lists, in bytes. The record brackets
/// the limit: a 900,060-byte file was listed and a 1,010,060-byte one was
/// not; 1,000,000 is the round number between them.
pub const MAX_SKILL_MD: u64 = 1_000_000;

/// A folder Claude Code does not read as a skill, whatever it holds.
pub const RESERVED_FOLDER: &str = "synced";

/// The longest frontmatter name Claude Code shows, in characters.
pub const MAX_SHOWN_NAME: usize = 256;

/// The description of a skill with neither a description nor a body.
pub const DEFAULT_DESCRIPTION: &str = "Skill";

/// The longest first body line used whole as a description, in UTF-16
/// units; a longer one keeps 97 and `...`.
pub const MAX_BODY_LINE: usize = 100;

/// Frontmatter keys Claude Code reads whose effect this model does not
/// follow, each with what it does in Claude Code (from its documentation;
/// none is in the record).
pub const NOT_MODELLED: &[(&str, &str)] = &[
    (
        "context",
        "`context: fork` runs the skill in a forked sub-agent, which gets the activation text as its task instead of the conversation",
    ),
    (
        "agent",
        "the sub-agent type a forked skill (`context: fork`) runs as",
    ),
    ("model", "the model that runs while the skill is active"),
    (
        "effort",
        "the model's effort level while the skill is active",
    ),
    ("shell", "the shell that runs the skill's `!`cmd`` commands"),
    ("hooks", "hooks registered while the skill is active"),
    (
        "disallowed-tools",
        "tools the model may not use while the skill is active",
    ),
    (
        "background",
        "whether a forked skill runs in the background",
    ),
    (
        "fallback",
        "what Claude Code does when the skill cannot run as written (not documented in detail)",
    ),
];

/// The parts of a `SKILL.md`, as Claude Code splits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts<'t> {
    /// The YAML between the delimiters, if there is a frontmatter.
    pub yaml: Option<&'t str>,
    /// Everything after the frontmatter (the whole text when there is none).
    pub body: &'t str,
}

/// Splits `text` (a byte-order mark already dropped) as Claude Code does,
/// which behaves as the pattern `^---\s*\n([\s\S]*?)---\s*\n?` with
/// JavaScript's `\s`: the file opens with `---`, whitespace and a line
/// break; the YAML runs to the next `---`; the body starts after the
/// whitespace that follows it.
///
/// The record shows `----`, a leading blank line and an unclosed
/// frontmatter each leaving the whole file as body. It is silent on a
/// `---` inside a line of the YAML (`description: a---b`): by the pattern,
/// it ends the frontmatter there.
pub fn split(text: &str) -> Parts<'_> {
    let whole = Parts {
        yaml: None,
        body: text,
    };
    let Some(rest) = text.strip_prefix("---") else {
        return whole;
    };
    let run = rest
        .find(|c| !cat::is_js_whitespace(c))
        .unwrap_or(rest.len());
    let Some(newline) = rest[..run].rfind('\n') else {
        return whole;
    };
    let yaml_start = newline + 1;
    let Some(close) = rest[yaml_start..].find("---") else {
        return whole;
    };
    let yaml = &rest[yaml_start..yaml_start + close];
    let after = &rest[yaml_start + close + 3..];
    let body_start = after
        .find(|c| !cat::is_js_whitespace(c))
        .unwrap_or(after.len());
    Parts {
        yaml: Some(yaml),
        body: &after[body_start..],
    }
}

/// Whether a value needs quoting before Claude Code's second reading: it
/// holds one of `{}[]*&#!|>%@` and the backquote, or `: `.
fn problematic(value: &str) -> bool {
    value.contains(": ")
        || value.contains([
            '{', '}', '[', ']', '*', '&', '#', '!', '|', '>', '%', '@', '`',
        ])
}

/// Claude Code's second reading of YAML that did not parse: every line
/// `key: value` (key of ASCII letters, `_` and `-` at the start of the line)
/// whose value is not already quoted and is problematic (see `problematic`) gets the value
/// in double quotes, `\` and `"` escaped. `description: Use when: x` so
/// reads as the string `Use when: x`; a tab-indented key is not such a line,
/// so its YAML still fails (recorded: `bad-yaml-colon`,
/// `bad-yaml-unclosed`, `bad-yaml-tab`).
pub fn quote_problematic_values(yaml: &str) -> String {
    let mut out = String::with_capacity(yaml.len() + 16);
    for (i, line) in yaml.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match quotable(line) {
            Some((key, value)) => {
                out.push_str(key);
                out.push_str(": \"");
                out.push_str(&value.replace('\\', "\\\\").replace('"', "\\\""));
                out.push('"');
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The `(key, value)` of a line [`quote_problematic_values`] rewrites.
fn quotable(line: &str) -> Option<(&str, &str)> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
    {
        return None;
    }
    let after = &line[colon + 1..];
    let value = after.trim_start_matches(cat::is_js_whitespace);
    // `:\s+(.+)$`: at least one whitespace, then a value with no line
    // terminator (JavaScript's `.`).
    if value.len() == after.len()
        || value.is_empty()
        || value.contains(['\r', '\u{2028}', '\u{2029}'])
    {
        return None;
    }
    let quoted = |q: char| value.len() >= 2 && value.starts_with(q) && value.ends_with(q);
    if quoted('"') || quoted('\'') || !problematic(value) {
        return None;
    }
    Some((key, value))
}

/// How the frontmatter's YAML was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlRead {
    /// As written (or there was none).
    AsWritten,
    /// Only after [`quote_problematic_values`].
    Quoted,
    /// Not at all: the skill loads with no frontmatter.
    Unread,
    /// It parsed, but to a list or a scalar: no frontmatter either.
    NotMapping,
    /// Not known: the YAML is past one of the reader's own bounds
    /// ([`yaml::Limit`]), where it stopped reading; Claude Code has other
    /// bounds (not recorded), so what it reads is not modelled.
    Beyond(yaml::Limit),
}

/// The frontmatter mapping Claude Code reads from `yaml`, and how.
pub fn read_yaml(yaml: &str) -> (Option<Node>, YamlRead) {
    let first = yaml::parse(yaml, 0, yaml.len());
    if let Some(limit) = first.limit {
        return (None, YamlRead::Beyond(limit));
    }
    let (parsed, how) = if first.is_fatal() {
        let quoted = quote_problematic_values(yaml);
        let second = yaml::parse(&quoted, 0, quoted.len());
        if let Some(limit) = second.limit {
            return (None, YamlRead::Beyond(limit));
        }
        if second.is_fatal() {
            return (None, YamlRead::Unread);
        }
        (second, YamlRead::Quoted)
    } else {
        (first, YamlRead::AsWritten)
    };
    match parsed.root {
        None => (None, how),
        Some(root) if root.as_map().is_some() => (Some(root), how),
        Some(_) => (None, YamlRead::NotMapping),
    }
}

/// A number as JavaScript's `String(n)` writes it.
fn js_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if (1e-6..1e21).contains(&a) {
        return format!("{x}");
    }
    let s = format!("{x:e}");
    match s.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => s,
    }
}

/// The number a plain YAML 1.2 (core schema) scalar stands for, if any.
fn yaml_number(s: &str) -> Option<f64> {
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    let negative = s.starts_with('-');
    let sign = |x: f64| if negative { -x } else { x };
    let radix = |digits: &str, radix: u32| {
        (!digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))).then(|| {
            digits.chars().fold(0.0, |acc: f64, c| {
                acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))
            })
        })
    };
    if s.len() == unsigned.len() {
        if let Some(octal) = s.strip_prefix("0o") {
            return radix(octal, 8);
        }
        if let Some(hex) = s.strip_prefix("0x") {
            return radix(hex, 16);
        }
    }
    match unsigned {
        ".inf" | ".Inf" | ".INF" => return Some(sign(f64::INFINITY)),
        ".nan" | ".NaN" | ".NAN" if s.len() == unsigned.len() => return Some(f64::NAN),
        _ => {}
    }
    // `[0-9]+`, or `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match frac {
        None => !int.is_empty() && digits(int),
        Some(f) => digits(int) && digits(f) && (!int.is_empty() || !f.is_empty()),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if !(mantissa_ok && exponent_ok) {
        return None;
    }
    unsigned.parse::<f64>().ok().map(sign)
}

/// A scalar node's value as Claude Code turns it into text: YAML 1.2 types
/// for plain scalars (`null`/`~`/empty are no value, `true`/`false` their
/// names, numbers as JavaScript writes them), quoted and block scalars as
/// written. Lists and mappings give `None`.
pub fn scalar_text(node: &Node) -> Option<String> {
    let Value::Str(s) = &node.value else {
        return None;
    };
    if !node.plain {
        return Some(s.clone());
    }
    match s.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => None,
        "true" | "True" | "TRUE" => Some("true".into()),
        "false" | "False" | "FALSE" => Some("false".into()),
        _ => Some(yaml_number(s).map_or_else(|| s.clone(), js_number)),
    }
}

/// Whether Claude Code shows `name` (a frontmatter name) in parentheses
/// after the folder name `dir`: it differs from `dir`, is at most
/// [`MAX_SHOWN_NAME`] characters, and matches `^[\p{L}\p{M}\p{N}_:.-]+$`.
/// (It must also not be another listed skill's folder name: [`listing`].)
pub fn shows_name(name: &str, dir: &str) -> bool {
    name != dir
        && !name.is_empty()
        && name.chars().count() <= MAX_SHOWN_NAME
        && name.chars().all(|c| {
            c.is_alphanumeric()
                || unicode_normalization::char::is_combining_mark(c)
                || matches!(c, '_' | ':' | '.' | '-')
        })
}

/// The description Claude Code derives from a body: its first line that is
/// not blank, trimmed, with leading `#`s (and the space after them)
/// stripped unless nothing would be left (a lone `#` stays `#`), cut to 97
/// UTF-16 units and `...` when longer than [`MAX_BODY_LINE`]; `None` when
/// every line is blank.
pub fn body_line(body: &str) -> Option<String> {
    let line = body
        .split('\n')
        .map(|l| l.trim_matches(cat::is_js_whitespace))
        .find(|l| !l.is_empty())?;
    let stripped = line
        .trim_start_matches('#')
        .trim_start_matches(cat::is_js_whitespace);
    let line = if stripped.is_empty() { line } else { stripped };
    if line.encode_utf16().count() > MAX_BODY_LINE {
        Some(cat::slice_utf16(line, MAX_BODY_LINE - 3) + "...")
    } else {
        Some(line.to_owned())
    }
}

/// The values a YAML 1.1 reader takes for `true` that Claude Code (YAML
/// 1.2, `true` or `"true"` only) does not.
fn looks_true(s: &str) -> bool {
    matches!(
        s,
        "yes" | "Yes" | "YES" | "y" | "Y" | "on" | "On" | "ON" | "1"
    )
}

/// Whether a frontmatter flag is set as Claude Code reads it: the boolean
/// `true` or the string `"true"`.
pub(crate) fn is_true(node: &Node) -> bool {
    node.as_str() == Some("true") || (node.plain && matches!(node.as_str(), Some("True" | "TRUE")))
}

/// Whether `paths` scopes the skill: a scalar with text, or a list with at
/// least one entry. (The record shows a one-pattern list; an empty value
/// or list scoping nothing is our reading.)
pub(crate) fn scopes(node: &Node) -> bool {
    match &node.value {
        Value::Seq(items) => !items.is_empty(),
        Value::Map(_) => true,
        Value::Str(_) => scalar_text(node).is_some_and(|s| !s.trim().is_empty()),
    }
}

/// The folder's name as Claude Code shows it.
fn folder_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.to_string_lossy().into_owned())
}

/// Reads the skill folder `dir` as Claude Code does.
pub fn read(dir: &Path) -> Reading {
    let not_listed = |why: String| Reading::new(Outcome::NotListed { why });
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return not_listed("not a folder: Claude Code reads only folders here".into()),
        Err(e) => return not_listed(format!("cannot be read: {e}")),
    }
    let skill_md = dir.join("SKILL.md");
    // One byte over the limit is enough to know the file is over it.
    match fsread::read_file(&skill_md, MAX_SKILL_MD + 1) {
        Ok(bytes) => read_loaded(dir, &skill_md, &bytes),
        Err(e) if e.is_not_found() => not_listed(no_skill_md(dir)),
        Err(e) => {
            let why = match e.reason {
                Reason::TooLarge { .. } => too_large(),
                reason => format!("`SKILL.md` cannot be read: {reason}"),
            };
            Reading::new(Outcome::Rejected { why })
        }
    }
}

/// Why a folder without `SKILL.md` is not listed.
pub fn no_skill_md(dir: &Path) -> String {
    if dir.join("skill.md").is_file() {
        "no `SKILL.md` (Claude Code does not read `skill.md`)".into()
    } else {
        "no `SKILL.md` in this folder (Claude Code does not look in subfolders)".into()
    }
}

/// Whether `yaml` (a slice of `file`) is the text at `range` of `file` but
/// for the line break that ends the opening line.
pub(super) fn same_yaml(file: &str, yaml: &str, range: &Range<usize>) -> bool {
    // `yaml` is a slice of `file`: its offset is the distance between them.
    let start = (yaml.as_ptr() as usize).wrapping_sub(file.as_ptr() as usize);
    start.checked_add(yaml.len()) == Some(range.end)
        && range.start <= start
        && matches!(file.get(range.start..start), Some("" | "\n" | "\r\n"))
}

fn too_large() -> String {
    format!("`SKILL.md` is over {MAX_SKILL_MD} bytes, and Claude Code does not load it")
}

/// Reads the skill folder `dir` whose `SKILL.md` (at `skill_md`) holds
/// `bytes`, as Claude Code does: the folder name and the size first, then
/// [`read_text`] on the text (invalid UTF-8 replaced, as Node decodes it).
pub fn read_loaded(dir: &Path, skill_md: &Path, bytes: &[u8]) -> Reading {
    read_parsed(dir, skill_md, bytes, std::str::from_utf8(bytes).ok(), None)
}

/// A frontmatter already parsed by the check: the YAML's byte range in the
/// file, and the mapping it holds.
#[derive(Debug, Clone, Copy)]
pub struct Parsed<'a> {
    /// The range the check parsed (from just after the opening `---`).
    pub yaml: &'a Range<usize>,
    /// The mapping.
    pub root: &'a Node,
}

/// [`read_loaded`], given the file's text when it is UTF-8 (checked once,
/// by the check) and the check's parse of its frontmatter: where Claude
/// Code's reading of the YAML covers the same text (the check's range less
/// the line break that ends the opening line), its first parse gives the
/// check's mapping, which is then not parsed again (a parse that yields a
/// mapping is never fatal, so no second, quoted reading follows).
pub fn read_parsed(
    dir: &Path,
    skill_md: &Path,
    bytes: &[u8],
    text: Option<&str>,
    parsed: Option<Parsed<'_>>,
) -> Reading {
    let name = folder_name(dir);
    if name == RESERVED_FOLDER {
        return Reading::new(Outcome::Rejected {
            why: format!("Claude Code does not read a skill folder named `{RESERVED_FOLDER}`"),
        });
    }
    if bytes.len() as u64 > MAX_SKILL_MD {
        return Reading::new(Outcome::Rejected { why: too_large() });
    }
    match text {
        Some(text) => read_from(&name, skill_md, text, parsed),
        // Bad sequences replaced, as Node's decoder does.
        None => read_text(&name, skill_md, &String::from_utf8_lossy(bytes)),
    }
}

/// Reads the text of `skill_md` in the folder named `dir`.
pub fn read_text(dir: &str, skill_md: &Path, text: &str) -> Reading {
    read_from(dir, skill_md, text, None)
}

fn read_from(dir: &str, skill_md: &Path, file: &str, parsed: Option<Parsed<'_>>) -> Reading {
    let text = file.strip_prefix('\u{FEFF}').unwrap_or(file);
    let parts = split(text);
    let mut notes = Reading::new(Outcome::NotListed { why: String::new() });
    let (root, how) = match (parts.yaml, parsed) {
        (Some(yaml), Some(known)) if same_yaml(file, yaml, known.yaml) => {
            (Some(known.root.clone()), YamlRead::AsWritten)
        }
        (yaml, _) => yaml.map_or((None, YamlRead::AsWritten), read_yaml),
    };
    match how {
        YamlRead::AsWritten => {}
        YamlRead::Quoted => notes.note(
            Code::ClientYamlUnread,
            "the YAML does not parse as written; Claude Code reads it again with the values that \
             break it quoted as text",
        ),
        YamlRead::Unread => notes.note(
            Code::ClientYamlUnread,
            "the YAML does not parse, even with its values quoted; Claude Code loads the skill \
             with no frontmatter (no name, no description, no other key)",
        ),
        YamlRead::NotMapping => notes.note(
            Code::ClientYamlUnread,
            "the frontmatter is not a mapping; Claude Code loads the skill with no frontmatter",
        ),
        YamlRead::Beyond(limit) => {
            notes.outcome = Outcome::Unknown {
                why: format!(
                    "the YAML {}, the most this tool reads; what Claude Code reads past that is not recorded",
                    limit.phrase()
                ),
            };
            return notes;
        }
    }
    let get = |key: &str| root.as_ref().and_then(|r| r.get(key));
    for (key, what) in NOT_MODELLED {
        if get(key).is_some() {
            notes.note(
                Code::ClientKeyNotModelled,
                format!("`{key}`: read by Claude Code, not modelled here: {what}"),
            );
        }
    }

    if let Some(flag) = get("disable-model-invocation") {
        if is_true(flag) {
            notes.outcome = Outcome::NotListed {
                why: "`disable-model-invocation: true`: Claude Code loads the skill for the user \
                      but does not list it to the model"
                    .into(),
            };
            return notes;
        }
        if flag.plain && flag.as_str().is_some_and(looks_true) {
            notes.note(
                Code::ClientFlagNotRead,
                format!(
                    "Claude Code reads `disable-model-invocation: {}` as false (only `true` \
                     sets it), so the skill is listed to the model",
                    flag.as_str().unwrap_or_default()
                ),
            );
        }
    }
    if get("paths").is_some_and(scopes) {
        notes.outcome = Outcome::NotListed {
            why: "`paths`: Claude Code lists the skill only once a file matching it is touched"
                .into(),
        };
        return notes;
    }

    let alias = match get("name").and_then(scalar_text) {
        Some(fm) if shows_name(&fm, dir) => Some(fm),
        Some(fm) if fm != dir => {
            let quoted = render::elided(&fm, rules::MAX_NAME_READ);
            notes.note(
                Code::ClientNameNotShown,
                format!(
                    "Claude Code lists this skill as `{dir}`; the name `{quoted}` is not shown (it \
                     shows a name only up to {MAX_SHOWN_NAME} letters, digits, `_`, `:`, `.` \
                     and `-`)"
                ),
            );
            None
        }
        _ => None,
    };

    let written = get("description");
    let from_yaml = written
        .and_then(scalar_text)
        .filter(|d| !d.trim_matches(cat::is_js_whitespace).is_empty());
    let description = match from_yaml {
        Some(d) => d,
        None => {
            let derived = body_line(parts.body);
            let what = match written {
                Some(n) if n.as_map().is_some() || matches!(n.value, Value::Seq(_)) => {
                    format!("`description` is a {}", n.kind())
                }
                Some(_) => "`description` is empty".to_owned(),
                None => "there is no `description`".to_owned(),
            };
            let shown = match &derived {
                Some(line) => format!("the first line of the body, `{line}`"),
                None => format!("`{DEFAULT_DESCRIPTION}`"),
            };
            notes.note(
                Code::ClientDescriptionReplaced,
                format!("{what}; Claude Code shows {shown} instead"),
            );
            derived.unwrap_or_else(|| DEFAULT_DESCRIPTION.to_owned())
        }
    };
    let when_to_use = get("when_to_use").and_then(scalar_text);
    if description.contains(['<', '>']) {
        notes.note(
            Code::ClientDescriptionEscaped,
            "Claude Code shows `<` and `>` in the description as `&lt;` and `&gt;`",
        );
    }
    let shown = cat::description(&description, when_to_use.as_deref());
    if shown.ends_with('…') && !description.ends_with('…') {
        notes.note(
            Code::ClientDescriptionCut,
            format!(
                "Claude Code cuts the description{} to {} UTF-16 units",
                if when_to_use.is_some() {
                    " with `when_to_use`"
                } else {
                    ""
                },
                cat::MAX_DESCRIPTION
            ),
        );
    }
    notes.outcome = Outcome::Listed(Listed {
        name: dir.to_owned(),
        alias,
        description,
        when_to_use,
        location: skill_md.to_path_buf(),
        client: Client::ClaudeCode,
    });
    notes
}

/// One folder of a listing, and how Claude Code reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The folder (or loose file) in a skills folder.
    pub dir: PathBuf,
    /// How Claude Code reads it.
    pub reading: Reading,
}

/// The folders of Claude Code's listing from `folders`, in its order:
/// `folders` in the order given (the user's `~/.claude/skills` first, then
/// the project's, as Claude Code orders them), each folder's entries (loose
/// files included, to say why they are not listed). A folder that itself
/// holds a `SKILL.md` is one skill. See [`listing_of`].
pub fn listing(folders: &[PathBuf]) -> Vec<Found> {
    let groups = folders
        .iter()
        .map(|folder| {
            if folder.join("SKILL.md").is_file() {
                return vec![folder.clone()];
            }
            std::fs::read_dir(folder)
                .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
                .unwrap_or_default()
        })
        .collect();
    listing_of(groups)
}

/// The skills discovery found (`skills_compiler::discover::discover_all`),
/// as Claude Code lists them: grouped by the skills folder each was found
/// in (or the path it was found under), groups in discovery's order (the
/// user's folder first with `--user`, then each project's from the start
/// directory up), Codex's folders left out. See [`listing_of`].
pub fn listing_found(found: &[FoundSkill]) -> Vec<Found> {
    let mut groups: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    for skill in found {
        let key = match &skill.origin {
            Some(origin) if !origin.read_by(Client::ClaudeCode) => continue,
            Some(origin) => &origin.folder,
            None => &skill.root,
        };
        match groups.iter_mut().find(|(k, _)| k == key) {
            Some((_, dirs)) => dirs.push(skill.dir.clone()),
            None => groups.push((key.clone(), vec![skill.dir.clone()])),
        }
    }
    listing_of(groups.into_iter().map(|(_, dirs)| dirs).collect())
}

/// Claude Code's listing of `groups` (the folders of each skills folder, in
/// the skills folders' order): each group by folder name in [`collate`]
/// order; a name already listed from an earlier group is not listed again
/// (the user's copy wins); then [`resolve_names`].
pub fn listing_of(groups: Vec<Vec<PathBuf>>) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    let mut seen: Vec<(String, PathBuf)> = Vec::new();
    for group in groups {
        let mut dirs: Vec<(String, PathBuf)> =
            group.into_iter().map(|d| (folder_name(&d), d)).collect();
        dirs.sort_by(|a, b| collate(&a.0, &b.0));
        for (name, dir) in dirs {
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
                let why = format!(
                    "a skill folder of the same name comes first (`{}`), and Claude Code lists \
                     only that one",
                    first.display()
                );
                found.push(Found {
                    dir,
                    reading: Reading::new(Outcome::NotListed { why }),
                });
                continue;
            }
            let reading = read(&dir);
            seen.push((name, dir.clone()));
            found.push(Found { dir, reading });
        }
    }
    resolve_names(found.iter_mut().map(|f| &mut f.reading));
    found
}

/// Applies the rules of the listing to the readings of one listing, in
/// listing order: a folder name already listed is not listed again (the
/// first, the user's copy, wins; [`listing`] already skips such folders
/// before reading them), and a frontmatter name that is another listed
/// skill's folder name is not shown.
pub fn resolve_names<'r>(readings: impl Iterator<Item = &'r mut Reading>) {
    let mut readings: Vec<&mut Reading> = readings.collect();
    let mut first: HashSet<String> = HashSet::new();
    for reading in &mut readings {
        let Some(l) = reading.outcome.listed() else {
            continue;
        };
        if !first.insert(l.name.clone()) {
            reading.outcome = Outcome::NotListed {
                why: format!(
                    "a skill folder named `{}` comes first, and Claude Code lists only that one",
                    l.name
                ),
            };
        }
    }
    let listed: HashSet<String> = readings
        .iter()
        .filter_map(|r| r.outcome.listed().map(|l| l.name.clone()))
        .collect();
    for reading in &mut readings {
        let Outcome::Listed(l) = &mut reading.outcome else {
            continue;
        };
        if let Some(alias) = l.alias.take_if(|a| listed.contains(a.as_str())) {
            let message = format!(
                "Claude Code lists this skill as `{}`; the name `{alias}` is not shown because \
                 another skill's folder has that name",
                l.name
            );
            reading.note(Code::ClientNameNotShown, message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// No text makes the reader panic, and a listed entry keeps the
        /// cap and starts with the folder name.
        #[test]
        fn any_text_reads(
            text in "\u{FEFF}?(---[ \t]*\r?\n)?([a-z_-]{0,8}:[ \t]?[\\PC\t:#\\[\\]{}'\"|>-]{0,24}\r?\n){0,6}(---\n)?[\\PC\n]{0,60}"
        ) {
            let reading = read_text("d", Path::new("SKILL.md"), &text);
            if let Some(l) = reading.outcome.listed() {
                prop_assert!(l.line().starts_with("- d"));
                let shown = cat::description(&l.description, l.when_to_use.as_deref());
                prop_assert!(shown.encode_utf16().count() <= cat::MAX_DESCRIPTION);
            }
        }
    }

    fn line(dir: &str, text: &str) -> Option<String> {
        read_text(dir, Path::new("SKILL.md"), text)
            .outcome
            .listed()
            .map(Listed::line)
    }

    fn codes(dir: &str, text: &str) -> Vec<Code> {
        read_text(dir, Path::new("SKILL.md"), text)
            .notes
            .iter()
            .map(|n| n.code)
            .collect()
    }

    #[test]
    fn frontmatter_detection() {
        let fm = "---\nname: x\ndescription: D.\n---\nBody.\n";
        assert_eq!(split(fm).yaml, Some("name: x\ndescription: D.\n"));
        assert_eq!(split(fm).body, "Body.\n");
        assert_eq!(
            line("x", &format!("\u{FEFF}{fm}")).as_deref(),
            Some("- x: D.")
        );
        assert_eq!(
            line(
                "crlf",
                "---\r\nname: crlf\r\ndescription: CRLF.\r\n---\r\nBody.\r\n"
            )
            .as_deref(),
            Some("- crlf: CRLF.")
        );
        assert_eq!(
            line("d", "----\nname: d\ndescription: x\n----\nB\n").as_deref(),
            Some("- d: ----")
        );
        assert_eq!(
            line("l", "\n---\ndescription: x\n---\nB\n").as_deref(),
            Some("- l: ---")
        );
        assert_eq!(
            line("u", "---\ndescription: x\n# Body\n").as_deref(),
            Some("- u: ---")
        );
        assert_eq!(line("o", "---\n---\n").as_deref(), Some("- o: Skill"));
        assert_eq!(line("e", "").as_deref(), Some("- e: Skill"));
        // Silent in the record; the pattern ends the YAML at any `---`.
        assert_eq!(split("---\na: b---c\n---\n").yaml, Some("a: b"));
    }

    #[test]
    fn yaml_it_cannot_parse() {
        let colon =
            "---\nname: c\ndescription: Use when: the plain scalar has a colon-space\n---\nBody.\n";
        assert_eq!(
            line("c", colon).as_deref(),
            Some("- c: Use when: the plain scalar has a colon-space")
        );
        assert_eq!(codes("c", colon), [Code::ClientYamlUnread]);
        let unclosed = "---\nname: u\ndescription: [unclosed flow\n---\n# H\nBody.\n";
        assert_eq!(line("u", unclosed).as_deref(), Some("- u: [unclosed flow"));
        let tab = "---\nname: t\n\tdescription: tab indented\n---\nBody.\n";
        assert_eq!(line("t", tab).as_deref(), Some("- t: Body."));
        assert_eq!(
            codes("t", tab),
            [Code::ClientYamlUnread, Code::ClientDescriptionReplaced]
        );
        assert_eq!(
            quote_problematic_values("a: x \"y\" \\ #z\nb: 'q: r'\n\tc: [d\nd:e"),
            "a: \"x \\\"y\\\" \\\\ #z\"\nb: 'q: r'\n\tc: [d\nd:e"
        );
    }

    /// YAML past the reader's own bounds is not a verdict on what Claude
    /// Code reads: before, a frontmatter nested 100 deep read as "does not
    /// parse" (a value with `[` quoted made it parse), and one of 150,000
    /// items as "loads with no frontmatter", both silent differences.
    #[test]
    fn yaml_past_the_readers_bounds_is_not_known() {
        let deep = format!(
            "---\nname: d\ndescription: D.\nx: {}{}\n---\nBody.\n",
            "[".repeat(100),
            "]".repeat(100)
        );
        let wide = format!(
            "---\nname: w\ndescription: D.\nx: [{}]\n---\nBody.\n",
            vec!["a"; 150_000].join(", ")
        );
        let block = format!(
            "---\nname: b\ndescription: D.\nx:\n{}y\n---\nBody.\n",
            "- ".repeat(100)
        );
        for (text, bound) in [
            (&deep, "nests deeper than 64 levels"),
            (&wide, "has more than 100,000 nodes, aliases expanded"),
            (&block, "nests deeper than 64 levels"),
        ] {
            let reading = read_text("d", Path::new("SKILL.md"), text);
            assert_eq!(
                reading.outcome,
                Outcome::Unknown {
                    why: format!(
                        "the YAML {bound}, the most this tool reads; what Claude Code reads past that is not recorded"
                    )
                }
            );
            assert_eq!(reading.notes, []);
        }
    }

    /// The note on a name not shown quoted the whole name: 7.5 MB of it.
    #[test]
    fn a_long_name_not_shown_is_quoted_by_its_ends() {
        let name = format!("{}Z", "N".repeat(5_000));
        let text = format!("---\nname: {name}\ndescription: D.\n---\n");
        let reading = read_text("d", Path::new("SKILL.md"), &text);
        let quoted = format!("{}…{}Z", "N".repeat(960), "N".repeat(63));
        assert_eq!(
            reading.notes,
            [crate::client::Note {
                code: Code::ClientNameNotShown,
                message: format!(
                    "Claude Code lists this skill as `d`; the name `{quoted}` is not shown (it shows a name only up to 256 letters, digits, `_`, `:`, `.` and `-`)"
                ),
            }]
        );
    }

    #[test]
    fn names_as_shown() {
        let skill = |name: &str| format!("---\nname: {name}\ndescription: D.\n---\n");
        assert_eq!(
            line("m", &skill("other-name")).as_deref(),
            Some("- m (other-name): D.")
        );
        assert_eq!(
            line("n", &skill("12345")).as_deref(),
            Some("- n (12345): D.")
        );
        assert_eq!(line("n", &skill("007")).as_deref(), Some("- n (7): D."));
        assert_eq!(line("n", &skill("0x1F")).as_deref(), Some("- n (31): D."));
        assert_eq!(line("n", &skill("1.50")).as_deref(), Some("- n (1.5): D."));
        assert_eq!(
            line("n", &skill("ns:thing")).as_deref(),
            Some("- n (ns:thing): D.")
        );
        assert_eq!(line("n", &skill("名前")).as_deref(), Some("- n (名前): D."));
        assert_eq!(
            line("s", &skill("My Skill Name")).as_deref(),
            Some("- s: D.")
        );
        assert_eq!(
            codes("s", &skill("My Skill Name")),
            [Code::ClientNameNotShown]
        );
        assert_eq!(line("s", &skill("s")).as_deref(), Some("- s: D."));
        assert_eq!(line("s", &skill("~")).as_deref(), Some("- s: D."));
        let long = "a".repeat(MAX_SHOWN_NAME);
        assert_eq!(line("l", &skill(&long)), Some(format!("- l ({long}): D.")));
        assert_eq!(
            line("l", &skill(&format!("{long}a"))).as_deref(),
            Some("- l: D.")
        );
        assert_eq!(
            line("u", &skill("Upper-Name")).as_deref(),
            Some("- u (Upper-Name): D.")
        );
        assert_eq!(js_number(1e21), "1e+21");
        assert_eq!(js_number(1.5e-7), "1.5e-7");
        assert_eq!(js_number(12345678901234567890.0), "12345678901234567000");
    }

    #[test]
    fn descriptions_as_derived() {
        let body = |fm: &str, body: &str| format!("---\nname: d\n{fm}---\n{body}");
        assert_eq!(
            line("d", &body("", "# Heading Of No Desc\n\nFirst.\n")).as_deref(),
            Some("- d: Heading Of No Desc")
        );
        assert_eq!(
            line("d", &body("", "\n  \n  ## Deep\n")).as_deref(),
            Some("- d: Deep")
        );
        assert_eq!(line("d", &body("", "#\nnext\n")).as_deref(), Some("- d: #"));
        let words = "word ".repeat(40);
        assert_eq!(
            line("d", &body("", &format!("{words}\n"))),
            Some(format!("- d: {}...", &words[..97]))
        );
        // Heading marks go before the 100-unit test.
        let hundred = "h".repeat(100);
        assert_eq!(
            line("d", &body("", &format!("### {hundred}\n"))),
            Some(format!("- d: {hundred}"))
        );
        assert_eq!(
            line("d", &body("description: \"\"\n", "First body line.\n")).as_deref(),
            Some("- d: First body line.")
        );
        assert_eq!(
            line("d", &body("description: 12345\n", "B\n")).as_deref(),
            Some("- d: 12345")
        );
        assert_eq!(
            line("d", &body("description: true\n", "B\n")).as_deref(),
            Some("- d: true")
        );
        assert_eq!(
            line("d", &body("description:\n  - a\n", "Body of list.\n")).as_deref(),
            Some("- d: Body of list.")
        );
        assert_eq!(
            line("d", &body("description: >\n  Folded one\n  two.\n", "")).as_deref(),
            Some("- d: Folded one two.")
        );
        assert_eq!(
            line("d", &body("description: |\n  L1.\n  L2.\n\n  P2.\n", "")).as_deref(),
            Some("- d: L1. L2. P2.")
        );
        assert_eq!(
            line(
                "d",
                &body("description: Desc part.\nwhen_to_use: When part.\n", "")
            )
            .as_deref(),
            Some("- d: Desc part. - When part.")
        );
        assert_eq!(
            line(
                "d",
                &body(
                    "description: \"Has <tag> & ampersand > and \\\"quotes\\\".\"\n",
                    ""
                )
            )
            .as_deref(),
            Some("- d: Has &lt;tag&gt; & ampersand &gt; and \"quotes\".")
        );
        assert_eq!(
            codes("d", &body("description: \"<x>\"\n", "")),
            [Code::ClientDescriptionEscaped]
        );
        let long = "L".repeat(2000);
        assert_eq!(
            codes("d", &body(&format!("description: {long}\n"), "")),
            [Code::ClientDescriptionCut]
        );
        assert_eq!(
            codes("d", &body("", "B\n")),
            [Code::ClientDescriptionReplaced]
        );
    }

    #[test]
    fn what_is_not_listed() {
        let skill = |extra: &str| format!("---\nname: s\ndescription: D.\n{extra}---\n");
        let listed = |extra: &str| line("s", &skill(extra)).is_some();
        assert!(!listed("disable-model-invocation: true\n"));
        assert!(!listed("disable-model-invocation: \"true\"\n"));
        assert!(listed("disable-model-invocation: false\n"));
        assert!(listed("disable-model-invocation: yes\n"));
        assert_eq!(
            codes("s", &skill("disable-model-invocation: yes\n")),
            [Code::ClientFlagNotRead]
        );
        assert!(listed("disable-model-invocation: 1\n"));
        assert!(listed("disable-model-invocation: no\n"));
        assert!(codes("s", &skill("disable-model-invocation: no\n")).is_empty());
        assert!(!listed("paths: [\"src/**\"]\n"));
        assert!(!listed("paths: src/**\n"));
        assert!(listed("paths: []\n"));
        assert!(listed("user-invocable: false\n"));
        assert!(listed("arguments: [a, b]\nargument-hint: \"[x]\"\n"));
    }

    #[test]
    fn keys_read_but_not_modelled_are_noted() {
        let skill = |extra: &str| format!("---\nname: s\ndescription: D.\n{extra}---\nBody.\n");
        // Modelled: no note (the menu-only keys change nothing the model sees).
        for modelled in [
            "user-invocable: false\n",
            "argument-hint: \"[x]\"\n",
            "arguments: [a]\n",
            "when_to_use: W.\n",
        ] {
            assert!(codes("s", &skill(modelled)).is_empty(), "{modelled}");
        }
        for (key, _) in NOT_MODELLED {
            let text = skill(&format!("{key}: x\n"));
            assert_eq!(codes("s", &text), [Code::ClientKeyNotModelled], "{key}");
            let reading = read_text("s", Path::new("s/SKILL.md"), &text);
            assert!(
                reading.notes[0].message.starts_with(&format!(
                    "`{key}`: read by Claude Code, not modelled here: "
                )),
                "{:?}",
                reading.notes
            );
            assert!(line("s", &text).is_some(), "{key}: still listed");
        }
        // Every one a skill sets, in the table's order; noted on an unlisted
        // skill too.
        assert_eq!(
            codes("s", &skill("model: m\ncontext: fork\nagent: Explore\n")),
            [Code::ClientKeyNotModelled; 3]
        );
        assert_eq!(
            codes("s", &skill("hooks: {}\ndisable-model-invocation: true\n")),
            [Code::ClientKeyNotModelled]
        );
    }

    #[test]
    fn folders() -> std::io::Result<()> {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        let write = |dir: &str, file: &str, text: &str| -> std::io::Result<()> {
            std::fs::create_dir_all(root.join(dir))?;
            std::fs::write(root.join(dir).join(file), text)
        };
        write("b", "SKILL.md", "---\nname: a\ndescription: B.\n---\n")?;
        write("a", "SKILL.md", "---\nname: zed\ndescription: A.\n---\n")?;
        write(
            "synced",
            "SKILL.md",
            "---\nname: synced\ndescription: S.\n---\n",
        )?;
        write(
            "lower",
            "skill.md",
            "---\nname: lower\ndescription: L.\n---\n",
        )?;
        write(
            "nested/inner",
            "SKILL.md",
            "---\nname: inner\ndescription: I.\n---\n",
        )?;
        write("big", "SKILL.md", &"x".repeat(MAX_SKILL_MD as usize + 1))?;
        write("fits", "SKILL.md", &"x".repeat(MAX_SKILL_MD as usize))?;
        std::fs::write(root.join("loose.md"), "---\nname: loose\n---\n")?;
        let found = listing(&[root.to_path_buf()]);
        let summary: Vec<(String, Option<String>)> = found
            .iter()
            .map(|f| {
                let name = f
                    .dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (name, f.reading.outcome.listed().map(Listed::line))
            })
            .collect();
        let x97 = format!("- fits: {}...", "x".repeat(97));
        assert_eq!(
            summary,
            [
                ("a".to_string(), Some("- a (zed): A.".to_string())),
                ("b".into(), Some("- b: B.".into())),
                ("big".into(), None),
                ("fits".into(), Some(x97)),
                ("loose.md".into(), None),
                ("lower".into(), None),
                ("nested".into(), None),
                ("synced".into(), None),
            ]
        );
        assert!(matches!(found[2].reading.outcome, Outcome::Rejected { .. }));
        assert!(matches!(found[7].reading.outcome, Outcome::Rejected { .. }));
        assert_eq!(
            found[1]
                .reading
                .notes
                .iter()
                .map(|n| n.code)
                .collect::<Vec<_>>(),
            [Code::ClientNameNotShown]
        );
        Ok(())
    }
}

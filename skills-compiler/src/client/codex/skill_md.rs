//! Codex's reading of one `SKILL.md` (steps 1 to 5 of [`super`]) and of a
//! skill folder: the name and description it lists, or the reason it
//! prints when it refuses the skill.
//!
//! The frontmatter is parsed with `yaml_serde` (serde over libyaml, as
//! Codex does), so that a rejection carries libyaml's own text and position;
//! this is why the module is built only with the `codex-yaml` feature (see
//! [`super`]). libyaml is given only YAML within [`crate::libyaml_bound`]'s
//! bounds; past them Codex's reading is [`Unread::Unknown`], naming the
//! bound, never a verdict.

use std::path::Path;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use skills_core::catalog::codex::MAX_DESCRIPTION_CHARS;
use skills_core::fsread;

use super::openai_yaml::{self, MAX_OPENAI_YAML, OPENAI_YAML};
use super::scan::{MAX_NAME_CHARS, MISSING_FRONTMATTER, NOT_UTF8, SKILL_MD};
use crate::checked::CheckedSkill;
use crate::client::reading::{Listed, Note, Outcome, Reading};
use crate::diag::Code;
use crate::libyaml_bound::{self, Beyond};
use skills_core::catalog::codex::collapse_whitespace;
use skills_core::client::Client;

/// A skill as Codex loads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexSkill {
    /// The name Codex lists and `$name` mentions.
    pub name: String,
    /// The description, whitespace collapsed (not yet cut for listing).
    pub description: String,
    /// `metadata.short-description`, whitespace collapsed, when not blank.
    pub short_description: Option<String>,
    /// Whether the name is the folder's (the frontmatter has none).
    pub name_from_dir: bool,
    /// Whether the YAML only parsed once its values were quoted (step 3).
    pub requoted: bool,
    /// The first error of the YAML as written, when `requoted`.
    pub yaml_error: Option<Rejection>,
    /// Keys present that Codex does not read although Claude Code acts on
    /// them: `when_to_use`, `disable-model-invocation` (when true), `paths`.
    pub ignored_keys: Vec<&'static str>,
}

/// Why Codex does not load a skill: its message, and where in `SKILL.md`
/// (1-based line, column in characters) when the message says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// Codex's message, as it prints it after `failed to load skill <path>: `.
    pub reason: String,
    /// The position libyaml names, as a line and column of the file.
    pub at: Option<(usize, usize)>,
}

impl Rejection {
    fn new(reason: impl Into<String>) -> Rejection {
        Rejection {
            reason: reason.into(),
            at: None,
        }
    }
}

/// Why Codex's reading of a `SKILL.md` gives no skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// Codex does not load it, for its reason.
    Rejected(Rejection),
    /// What Codex does with it is not known: its frontmatter is past one of
    /// this tool's bounds, so libyaml was not given it. The span is in the
    /// frontmatter as [`extract_frontmatter`] returns it.
    Unknown(Beyond),
}

impl From<Rejection> for Unread {
    fn from(r: Rejection) -> Self {
        Unread::Rejected(r)
    }
}

impl From<Beyond> for Unread {
    fn from(b: Beyond) -> Self {
        Unread::Unknown(b)
    }
}

/// The frontmatter fields Codex reads. The type's name appears in libyaml's
/// messages for a frontmatter that is not a mapping, as in Codex's.
#[derive(Debug, Deserialize)]
struct SkillFrontmatter {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    metadata: SkillFrontmatterMetadata,
}

#[derive(Debug, Default, Deserialize)]
struct SkillFrontmatterMetadata {
    #[serde(default, rename = "short-description")]
    short_description: Option<String>,
}

/// Reads `SKILL.md` (its bytes) of the folder named `dir_name` as Codex
/// does: the skill it lists, or the reason it prints when it rejects it
/// (or why that is not known).
pub fn read_skill_md(dir_name: &str, bytes: &[u8]) -> Result<CodexSkill, Unread> {
    read_skill_text(dir_name, std::str::from_utf8(bytes).ok())
}

/// [`read_skill_md`] of a file whose text is `text`, `None` when it is not
/// UTF-8.
fn read_skill_text(dir_name: &str, text: Option<&str>) -> Result<CodexSkill, Unread> {
    let text = text.ok_or_else(|| Rejection::new(NOT_UTF8))?;
    let frontmatter =
        extract_frontmatter(text).ok_or_else(|| Rejection::new(MISSING_FRONTMATTER))?;
    let (parsed, requoted, yaml_error, yaml) = match parse(&frontmatter)? {
        Ok(parsed) => (parsed, false, None, frontmatter),
        Err(first) => match requote(&frontmatter).map(|fixed| (parse(&fixed), fixed)) {
            Some((Ok(Ok(parsed)), fixed)) => (parsed, true, Some(first), fixed),
            // The quoted text's positions are not the file's.
            Some((Err(beyond), _)) => {
                return Err(Unread::Unknown(Beyond {
                    span: None,
                    ..beyond
                }));
            }
            _ => {
                return Err(Unread::Rejected(Rejection {
                    reason: format!("invalid YAML: {}", first.reason),
                    at: first.at,
                }));
            }
        },
    };
    let from_frontmatter = parsed
        .name
        .as_deref()
        .map(collapse_whitespace)
        .filter(|n| !n.is_empty());
    let name_from_dir = from_frontmatter.is_none();
    let name = from_frontmatter.unwrap_or_else(|| {
        Some(collapse_whitespace(dir_name))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "skill".to_string())
    });
    let description = parsed
        .description
        .as_deref()
        .map(collapse_whitespace)
        .unwrap_or_default();
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(Rejection::new(format!(
            "invalid name: exceeds maximum length of {MAX_NAME_CHARS} characters"
        ))
        .into());
    }
    if description.is_empty() {
        return Err(Rejection::new("missing field `description`").into());
    }
    Ok(CodexSkill {
        name,
        description,
        short_description: parsed
            .metadata
            .short_description
            .as_deref()
            .map(collapse_whitespace)
            .filter(|s| !s.is_empty()),
        name_from_dir,
        requoted,
        yaml_error,
        ignored_keys: ignored_keys(&yaml),
    })
}

/// The keys Codex ignores that [`CodexSkill::ignored_keys`] may name.
const IGNORED_KEYS: [&str; 3] = ["when_to_use", "disable-model-invocation", "paths"];

/// The keys of [`CodexSkill::ignored_keys`] present in `yaml` (which
/// parsed, so libyaml may be given it again).
fn ignored_keys(yaml: &str) -> Vec<&'static str> {
    // A key is in the text as written unless an escape spells it: without
    // both, none is present, and libyaml need not read the text again.
    if !yaml.contains('\\') && !IGNORED_KEYS.iter().any(|k| yaml.contains(k)) {
        return Vec::new();
    }
    let Ok(Ok(Probed(found))) = libyaml_bound::from_str::<Probed>(yaml, None) else {
        return Vec::new();
    };
    IGNORED_KEYS
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| found[i])
        .map(|(_, k)| k)
        .collect()
}

/// Which of [`IGNORED_KEYS`] the frontmatter mapping sets: present and not
/// null, `disable-model-invocation` only when `true` (or `"true"`). Values
/// are looked at, never copied: unlike a `yaml_serde::Value`, which copies
/// what every alias stands for, this reads what an alias stands for once
/// per key that reads it, and skips everything else.
struct Probed([bool; 3]);

impl<'de> Deserialize<'de> for Probed {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Probed;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Probed, A::Error> {
                let mut found = [false; 3];
                while let Some(key) = map.next_key::<Scalar>()? {
                    let index = key
                        .0
                        .as_deref()
                        .and_then(|k| IGNORED_KEYS.iter().position(|i| *i == k));
                    let Some(index) = index else {
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    };
                    let value = map.next_value::<Seen>()?;
                    found[index] = match IGNORED_KEYS[index] {
                        "disable-model-invocation" => value == Seen::True,
                        _ => value != Seen::Null,
                    };
                }
                Ok(Probed(found))
            }
        }
        d.deserialize_map(Entries)
    }
}

/// What a probed value is, as far as [`Probed`] needs to know.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Null,
    True,
    Other,
}

impl<'de> Deserialize<'de> for Seen {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Kind;
        impl<'de> Visitor<'de> for Kind {
            type Value = Seen;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_unit<E>(self) -> Result<Seen, E> {
                Ok(Seen::Null)
            }
            fn visit_none<E>(self) -> Result<Seen, E> {
                Ok(Seen::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Seen, E> {
                Ok(if v { Seen::True } else { Seen::Other })
            }
            fn visit_i64<E>(self, _: i64) -> Result<Seen, E> {
                Ok(Seen::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Seen, E> {
                Ok(Seen::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Seen, E> {
                Ok(Seen::Other)
            }
            fn visit_str<E>(self, v: &str) -> Result<Seen, E> {
                Ok(if v == "true" { Seen::True } else { Seen::Other })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Seen, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Seen::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Seen, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Seen::Other)
            }
            fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Seen, A::Error> {
                // A tagged value (`!x v`): present, and not `true`.
                let (IgnoredAny, variant) = data.variant::<IgnoredAny>()?;
                de::VariantAccess::newtype_variant::<IgnoredAny>(variant)?;
                Ok(Seen::Other)
            }
        }
        d.deserialize_any(Kind)
    }
}

/// A mapping key: its text when it is a scalar, else `None` (skipped).
struct Scalar(Option<String>);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text;
        impl<'de> Visitor<'de> for Text {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar(Some(v.to_string())))
            }
            fn visit_unit<E>(self) -> Result<Scalar, E> {
                Ok(Scalar(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Scalar, E> {
                Ok(Scalar(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Scalar, E> {
                Ok(Scalar(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Scalar, E> {
                Ok(Scalar(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Scalar, E> {
                Ok(Scalar(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar(None))
            }
            fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Scalar, A::Error> {
                let (IgnoredAny, variant) = data.variant::<IgnoredAny>()?;
                de::VariantAccess::newtype_variant::<IgnoredAny>(variant)?;
                Ok(Scalar(None))
            }
        }
        d.deserialize_any(Text)
    }
}

/// The largest `SKILL.md` read (Codex showed no limit; a 1 MB file loaded).
pub const READ_LIMIT: u64 = 16 << 20;

/// Reads the skill folder `dir` as Codex does: listed (under the name and
/// description it reads), not listed (no `SKILL.md`; or
/// `policy.allow_implicit_invocation: false` in `agents/openai.yaml`, which
/// keeps it out of the model's list while `$name` still invokes it), or
/// rejected with Codex's reason.
pub fn read(dir: &Path) -> Reading {
    let skill_md = dir.join(SKILL_MD);
    match fsread::read_file(&skill_md, READ_LIMIT) {
        Ok(bytes) => read_loaded(dir, &skill_md, &bytes),
        Err(e) if e.is_not_found() => Reading::new(Outcome::NotListed {
            why: "no `SKILL.md` in this folder".into(),
        }),
        Err(e) => Reading::new(Outcome::Rejected { why: e.to_string() }),
    }
}

/// [`read`] for the folder `dir` whose `SKILL.md` (at `skill_md`) holds
/// `bytes`; only `agents/openai.yaml` is read from the folder.
pub fn read_loaded(dir: &Path, skill_md: &Path, bytes: &[u8]) -> Reading {
    let metadata = fsread::read_file(&dir.join(OPENAI_YAML), MAX_OPENAI_YAML)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .map(|t| openai_yaml::read_openai_yaml(&t));
    let implicit = metadata
        .as_ref()
        .and_then(|m| m.read.as_ref())
        .and_then(|m| m.allow_implicit_invocation);
    let mut reading = reading_from(dir, skill_md, std::str::from_utf8(bytes).ok(), implicit);
    if let Some(undecided) = metadata.and_then(|m| m.undecided) {
        reading.notes.push(Note {
            code: Code::Io,
            message: format!(
                "`{OPENAI_YAML}` cannot be read as Codex reads it, so whether Codex lists the skill is not known: {}",
                undecided.message
            ),
        });
    }
    reading
}

/// [`read`] for a checked skill, from what the check read (`SKILL.md` and
/// `agents/openai.yaml`): nothing is read again.
pub fn read_checked(skill: &CheckedSkill) -> Reading {
    let (Some(path), Some(source)) = (&skill.skill_md, &skill.source) else {
        return Reading::new(Outcome::Rejected {
            why: "`SKILL.md` could not be read (see the errors)".into(),
        });
    };
    let implicit = skill
        .openai_yaml
        .as_ref()
        .and_then(|m| m.allow_implicit_invocation);
    reading_from(&skill.dir, path, source.text(), implicit)
}

/// The reading of a `SKILL.md` holding `bytes`, whose `agents/openai.yaml`
/// says `implicit` for `policy.allow_implicit_invocation`.
fn reading_from(
    dir: &Path,
    skill_md: &Path,
    text: Option<&str>,
    implicit: Option<bool>,
) -> Reading {
    let dir_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let skill = match read_skill_text(&dir_name, text) {
        Ok(skill) => skill,
        Err(Unread::Rejected(r)) => return Reading::new(Outcome::Rejected { why: r.reason }),
        Err(Unread::Unknown(b)) => {
            return Reading::new(Outcome::Unknown {
                why: format!(
                    "{}; libyaml, which Codex reads it with, has no such bound",
                    b.message
                ),
            });
        }
    };
    let mut reading = Reading::new(if implicit == Some(false) {
        Outcome::NotListed {
            why: format!(
                "`{OPENAI_YAML}` sets `policy.allow_implicit_invocation: false`, so Codex leaves it out of the model's list (`${}` still invokes it)",
                skill.name
            ),
        }
    } else {
        Outcome::Listed(Listed {
            name: skill.name.clone(),
            alias: None,
            description: skill.description.clone(),
            when_to_use: None,
            location: skill_md.to_path_buf(),
            client: Client::Codex,
        })
    });
    reading.notes = notes(&skill);
    reading
}

/// Where Codex lists `skill` otherwise than the author wrote it.
pub fn notes(skill: &CodexSkill) -> Vec<Note> {
    let mut notes = Vec::new();
    if let Some(first) = &skill.yaml_error {
        notes.push(Note {
            code: Code::ClientYamlUnread,
            message: format!(
                "the YAML is invalid ({}); Codex reads it only by quoting each top-level value as written",
                first.reason
            ),
        });
    }
    let chars = skill.description.chars().count();
    if chars > MAX_DESCRIPTION_CHARS {
        notes.push(Note {
            code: Code::ClientDescriptionCut,
            message: format!(
                "`description` has {chars} characters; Codex lists its first 1,021 and `...`"
            ),
        });
    }
    for key in &skill.ignored_keys {
        notes.push(Note {
            code: Code::ClientKeyIgnored,
            message: ignored_key_message(key).to_string(),
        });
    }
    notes
}

/// What Codex does instead of what an ignored key asks.
pub fn ignored_key_message(key: &str) -> &'static str {
    match key {
        "when_to_use" => "Codex does not read `when_to_use`: its listing shows `description` alone",
        "disable-model-invocation" => {
            "Codex does not read `disable-model-invocation`: it lists this skill to the model"
        }
        _ => {
            "Codex does not read `paths`: it lists this skill in every session, not only once a matching file is touched"
        }
    }
}

/// Parses the frontmatter, when it is within the bounds libyaml is given
/// text within; an error's position is moved from the frontmatter's lines
/// to the file's (the frontmatter starts on line 2).
fn parse(frontmatter: &str) -> Result<Result<SkillFrontmatter, Rejection>, Beyond> {
    Ok(
        libyaml_bound::from_str(frontmatter, None)?.map_err(|e: yaml_serde::Error| Rejection {
            reason: e.to_string(),
            at: e.location().map(|l| (l.line() + 1, l.column())),
        }),
    )
}

/// The lines between the opening and closing `---` lines, joined with `\n`;
/// `None` when Codex finds no frontmatter (no opening line, no closing
/// line, or nothing between them).
pub fn extract_frontmatter(text: &str) -> Option<String> {
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some("---") {
        return None;
    }
    let mut inner: Vec<&str> = Vec::new();
    for line in lines {
        if line.trim() == "---" {
            return (!inner.is_empty()).then(|| inner.join("\n"));
        }
        inner.push(line);
    }
    None
}

/// The frontmatter with every top-level `key: value` whose value is written
/// plain quoted as it stands; `None` when no line changes.
fn requote(frontmatter: &str) -> Option<String> {
    let mut changed = false;
    let lines: Vec<String> = frontmatter
        .split('\n')
        .map(|line| match quoted_line(line) {
            Some(q) => {
                changed = true;
                q
            }
            None => line.to_string(),
        })
        .collect();
    changed.then(|| lines.join("\n"))
}

fn quoted_line(line: &str) -> Option<String> {
    if line.starts_with(|c: char| c.is_whitespace() || matches!(c, '#' | '-')) {
        return None;
    }
    let (key, value) = line.split_once(": ")?;
    let value = value.trim();
    if key.is_empty() || value.is_empty() || value.starts_with(['"', '\'', '|', '>']) {
        return None;
    }
    let mut out = String::with_capacity(line.len() + 4);
    out.push_str(key);
    out.push_str(": \"");
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            _ => out.push(c),
        }
    }
    out.push('"');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<CodexSkill, String> {
        read_skill_md("the-dir", text.as_bytes()).map_err(|u| match u {
            Unread::Rejected(r) => r.reason,
            Unread::Unknown(b) => format!("unknown: {}", b.message),
        })
    }

    fn listed(text: &str) -> (String, String) {
        match read(text) {
            Ok(s) => (s.name, s.description),
            Err(e) => panic!("rejected: {e}"),
        }
    }

    #[test]
    fn frontmatter_must_open_on_the_first_line_and_close() {
        for text in [
            "",
            "# Title\n",
            "\u{feff}---\nname: a\ndescription: b\n---\n",
            "\n---\nname: a\ndescription: b\n---\n",
            "----\nname: a\ndescription: b\n----\n",
            "---\nname: a\ndescription: b\n",
            "---\n---\n",
        ] {
            assert_eq!(read(text), Err(MISSING_FRONTMATTER.into()), "{text:?}");
        }
        assert_eq!(
            listed("  ---  \r\nname: a\r\ndescription: b\r\n --- \r\n").0,
            "a"
        );
        assert_eq!(
            read_skill_md("d", b"---\xff\n"),
            Err(Unread::Rejected(Rejection::new(NOT_UTF8)))
        );
    }

    #[test]
    fn yaml_errors_are_libyamls() {
        assert_eq!(
            read("---\nname: bad-yaml-tab\n\tdescription: tab indented\n---\n"),
            Err("invalid YAML: found a tab character that violates indentation at line 2 column 1, while scanning a plain scalar at line 1 column 7".into())
        );
        assert_eq!(
            read("---\nname: desc-list\ndescription:\n  - item one\n  - item two\n---\n"),
            Err("invalid YAML: description: invalid type: sequence, expected a string at line 3 column 3".into())
        );
        assert_eq!(
            read("---\njust a string\n---\n"),
            Err("invalid YAML: invalid type: string \"just a string\", expected struct SkillFrontmatter".into())
        );
    }

    #[test]
    fn values_wanting_quotes_are_read_as_written() {
        let colon = read(
            "---\nname: bad-yaml-colon\ndescription: Use when: the plain scalar has a colon-space\n---\n",
        );
        let colon = colon.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            colon.description,
            "Use when: the plain scalar has a colon-space"
        );
        assert!(colon.requoted);
        let first = colon.yaml_error.unwrap_or_else(|| panic!("no first error"));
        assert_eq!(
            first.reason,
            "mapping values are not allowed in this context at line 2 column 22"
        );
        // Line 2 of the frontmatter is line 3 of the file.
        assert_eq!(first.at, Some((3, 22)));
        assert_eq!(
            listed("---\nname: u\ndescription: [unclosed flow\n---\n").1,
            "[unclosed flow"
        );
        assert_eq!(
            listed("---\nname: q\ndescription: a \"b\": c\\d\n---\n").1,
            "a \"b\": c\\d"
        );
        assert!(!listed_skill("---\nname: ok\ndescription: fine\n---\n").requoted);
    }

    fn listed_skill(text: &str) -> CodexSkill {
        read(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn rejections_name_the_files_position() {
        let r = read_skill_md("d", b"---\nname: x\n\tdescription: y\n---\n");
        let Err(Unread::Rejected(r)) = r else {
            panic!("{r:?}");
        };
        assert_eq!(r.at, Some((3, 1)));
    }

    #[test]
    fn names_are_taken_as_written() {
        assert_eq!(listed("---\nname: 12345\ndescription: d\n---\n").0, "12345");
        assert_eq!(listed("---\nname: 007\ndescription: d\n---\n").0, "007");
        assert_eq!(
            listed("---\nname: My  Skill\ndescription: d\n---\n").0,
            "My Skill"
        );
        assert_eq!(
            listed("---\nname: ns:thing\ndescription: d\n---\n").0,
            "ns:thing"
        );
        let no_name = listed_skill("---\ndescription: d\n---\n");
        assert_eq!(
            (no_name.name.as_str(), no_name.name_from_dir),
            ("the-dir", true)
        );
        assert_eq!(listed("---\nname: ~\ndescription: d\n---\n").0, "the-dir");
        assert_eq!(
            listed("---\nname: \"  \"\ndescription: d\n---\n").0,
            "the-dir"
        );
        assert_eq!(
            read_skill_md(" ", b"---\ndescription: d\n---\n").map(|s| s.name),
            Ok("skill".into())
        );
        let long = format!("---\nname: {}\ndescription: d\n---\n", "a".repeat(65));
        assert_eq!(
            read(&long),
            Err("invalid name: exceeds maximum length of 64 characters".into())
        );
        let at_limit = format!("---\nname: {}\ndescription: d\n---\n", "é".repeat(64));
        assert!(read(&at_limit).is_ok());
    }

    /// Before, libyaml was given any frontmatter: 100 KB of `[[[…]]]` took
    /// 17 s (its flow-level stack is scanned for every token), and an alias
    /// of a long list repeated from another list was copied into a
    /// `yaml_serde::Value` whole each time (28 KB of YAML took 1.6 GB).
    /// Now the bound is named and libyaml is not run.
    #[test]
    fn frontmatter_past_the_bounds_is_not_given_to_libyaml() {
        let deep = format!(
            "---\nname: d\ndescription: D.\nx: {}{}\n---\n",
            "[".repeat(50_000),
            "]".repeat(50_000)
        );
        let list = vec!["x"; 4_000].join(", ");
        let aliases = vec!["*a"; 4_000].join(", ");
        let bomb = format!(
            "---\nname: b\ndescription: D.\nwhen_to_use: w\na: &a [{list}]\nb: [{aliases}]\n---\n"
        );
        for (text, bound) in [
            (deep, "nests deeper than 64 levels"),
            (bomb, "has more than 100,000 nodes, aliases expanded"),
        ] {
            assert_eq!(
                read(&text),
                Err(format!(
                    "unknown: the YAML {bound}, the most this tool reads"
                ))
            );
        }
        // Within the bounds, the keys Codex ignores are still found, through
        // aliases too.
        let aliased = format!(
            "---\nname: b\ndescription: D.\nt: &t true\ndisable-model-invocation: *t\npaths: &p [{list}]\nq: [{}]\n---\n",
            vec!["*p"; 20].join(", ")
        );
        assert_eq!(
            listed_skill(&aliased).ignored_keys,
            ["disable-model-invocation", "paths"]
        );
    }

    #[test]
    fn ignored_keys_are_probed_as_before() {
        for (yaml, keys) in [
            ("when_to_use: x\npaths: ~\n", &["when_to_use"][..]),
            (
                "disable-model-invocation: \"true\"\n",
                &["disable-model-invocation"],
            ),
            (
                "disable-model-invocation: True\n",
                &["disable-model-invocation"],
            ),
            ("disable-model-invocation: yes\n", &[]),
            ("disable-model-invocation: [true]\n", &[]),
            ("paths: {a: b}\n1: x\n", &["paths"]),
            ("paths: !x y\n", &["paths"]),
            ("\"when\\u005fto_use\": x\n", &["when_to_use"]),
            ("other: when_to_use\n", &[]),
        ] {
            let text = format!("---\nname: a\ndescription: D.\n{yaml}---\n");
            assert_eq!(listed_skill(&text).ignored_keys, keys, "{yaml:?}");
        }
    }

    #[test]
    fn descriptions_collapse_whitespace_and_must_be_there() {
        assert_eq!(
            listed("---\nname: a\ndescription: |\n  Line one.\n  Line two.\n\n  Para two.\n---\n")
                .1,
            "Line one. Line two. Para two."
        );
        assert_eq!(
            listed("---\nname: a\ndescription: \"x\\u00a0\\u3000y\"\n---\n").1,
            "x y"
        );
        assert_eq!(listed("---\nname: a\ndescription: 12345\n---\n").1, "12345");
        for text in [
            "---\nname: a\n---\nBody.\n",
            "---\nname: a\ndescription: \"\"\n---\n",
            "---\nname: a\ndescription: ~\n---\n",
            "---\nname: a\ndescription: \"  \"\nwhen_to_use: x\n---\n",
        ] {
            assert_eq!(
                read(text),
                Err("missing field `description`".into()),
                "{text:?}"
            );
        }
    }
}

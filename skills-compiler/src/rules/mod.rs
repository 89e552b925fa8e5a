//! The frontmatter rules, in the reference validator's order.
//!
//! [`check`] runs every rule of `skills-ref validate` 0.1.1 with its exact
//! meaning (allowed keys; `name`: NFKC after Python's `strip()`, 64 code
//! points, lowercase by Python's `str.lower()`, hyphen rules, Python's
//! `str.isalnum()`, directory match; `description`: 1,024 code points counted
//! before stripping; `compatibility`: 500), then the checks the reference does
//! not make (value shapes, `allowed-tools` form, YAML 1.1 readings). It never
//! returns early: every problem is reported, and each diagnostic that the
//! reference also reports carries the reference's exact message.

pub(crate) mod any_program;
pub mod duplicates;
pub(crate) mod lints;
pub mod profile;
pub mod properties;
pub(crate) mod pyunicode;

use std::ops::Range;
use std::path::Path;

use crate::diag::{Code, Diagnostic, Severity};
use crate::profile::{Profile, SPEC_FIELDS, Shape};
use crate::render::{self, thousands};
use crate::source::Source;
use crate::yaml::{Node, Value};
use crate::yaml11;

const MAX_NAME: usize = 64;
/// The longest `name`, after NFKC, read as a name: quoted whole in
/// messages and kept as the skill's name. A longer one is checked as NFKC
/// streams (never built: 2.5 million U+FDFA would be 45 million
/// characters), quoted by its two ends around `…` ([`render::Ends`]), and
/// the skill has no name.
pub(crate) const MAX_NAME_READ: usize = 1_024;
const MAX_DESCRIPTION: usize = 1024;
const MAX_COMPATIBILITY: usize = 500;

/// Collects diagnostics for one file under one profile.
pub(crate) struct Ctx<'a> {
    pub(crate) profile: Profile,
    pub(crate) source: &'a Source,
    pub(crate) diags: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    /// Reports `code` at `span` with the profile's severity.
    pub(crate) fn report(
        &mut self,
        code: Code,
        span: Option<Range<usize>>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let severity: Severity = self.profile.severity(code);
        let mut d = Diagnostic::new(code, severity, self.source.path(), message);
        if let Some(span) = span {
            d = d.at(self.source, span);
        }
        self.diags.push(d);
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }
}

/// The fields the rules read, as the reference reads them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Fields {
    /// `name` after `strip()` and NFKC, when it is a non-empty string.
    pub name: Option<String>,
    /// `description` after `strip()`, when it is a non-empty string.
    pub description: Option<String>,
}

/// Runs every frontmatter rule on `root` (already known to be a mapping).
/// `dir_name` is the skill directory's name as the user's path spells it.
pub(crate) fn check(ctx: &mut Ctx<'_>, root: &Node, dir_name: &str) -> Fields {
    let entries = root.as_map().unwrap_or_default();
    unexpected_fields(ctx, entries);
    let mut fields = Fields::default();
    match root.get("name") {
        None => {
            ctx.report(Code::MissingName, Some(root_span(root)), "missing required key `name`")
                .set_help("add `name: <skill-name>` (lowercase letters, digits and hyphens, matching the directory)")
                .reference = Some("Missing required field in frontmatter: name".into());
        }
        Some(node) => fields.name = name(ctx, node, dir_name),
    }
    match root.get("description") {
        None => {
            ctx.report(
                Code::MissingDescription,
                Some(root_span(root)),
                "missing required key `description`",
            )
            .set_help("add `description:` saying what the skill does and when to use it")
            .reference = Some("Missing required field in frontmatter: description".into());
        }
        Some(node) => fields.description = description(ctx, node),
    }
    if let Some(node) = root.get("compatibility") {
        compatibility(ctx, node);
    }
    shapes(ctx, root);
    fields
}

fn root_span(root: &Node) -> Range<usize> {
    root.span.start..root.span.start
}

fn unexpected_fields(ctx: &mut Ctx<'_>, entries: &[(Node, Node)]) {
    // The reference reports the keys outside the specification in one
    // message; a profile may still accept some of them.
    let mut extra: Vec<&str> = entries
        .iter()
        .filter_map(|(k, _)| k.as_str())
        .filter(|k| !SPEC_FIELDS.contains(k))
        .collect();
    extra.sort_unstable();
    extra.dedup();
    let reference = format!(
        "Unexpected fields in frontmatter: {}. Only {} are allowed.",
        extra.join(", "),
        python_list(&SPEC_FIELDS)
    );
    let mut first = true;
    for (key, _) in entries {
        let Some(k) = key.as_str() else { continue };
        if ctx.profile.allows_key(k) {
            continue;
        }
        let help = match SPEC_FIELDS.iter().find(|f| f.eq_ignore_ascii_case(k) || f.replace('-', "_") == k) {
            Some(f) => format!("did you mean `{f}`?"),
            None if ctx.profile == Profile::Spec => "the specification allows `allowed-tools`, `compatibility`, `description`, `license`, `metadata` and `name`; move other data under `metadata`, or use `--profile claude-code`".into(),
            None => "Claude Code ignores unknown keys; move the data under `metadata`".into(),
        };
        let d = ctx
            .report(
                Code::UnexpectedField,
                Some(key.span.clone()),
                format!("unexpected key `{k}`"),
            )
            .set_help(help);
        if first {
            d.reference = Some(reference.clone());
            first = false;
        }
    }
}

/// Python's `repr()` of a list of plain ASCII strings.
fn python_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    format!("[{}]", quoted.join(", "))
}

fn name(ctx: &mut Ctx<'_>, node: &Node, dir_name: &str) -> Option<String> {
    let span = Some(node.span.clone());
    let raw = match node.as_str() {
        Some(s) if !pyunicode::strip(s).is_empty() => s,
        _ => {
            let message = match node.as_str() {
                Some(_) => "`name` is empty".to_string(),
                None => format!("`name` must be a string, not a {}", node.kind()),
            };
            ctx.report(Code::NameNotString, span, message)
                .set_help("write the skill's name, for example `name: pdf-tools`")
                .reference = Some("Field 'name' must be a non-empty string".into());
            return None;
        }
    };
    let facts = NameFacts::of(pyunicode::strip(raw), dir_name);
    let (len, name) = (facts.ends.len(), facts.ends.quoted());
    if len > MAX_NAME {
        ctx.report(
            Code::NameTooLong,
            span.clone(),
            format!("`name` is {len} characters; the limit is {MAX_NAME}"),
        )
        .set_help("shorten it: a name is an identifier; say the rest in `description`")
        .reference = Some(format!(
            "Skill name '{name}' exceeds {MAX_NAME} character limit ({len} chars)"
        ));
    }
    if facts.uppercase {
        ctx.report(
            Code::NameNotLowercase,
            span.clone(),
            format!("`name` must be lowercase: `{name}`"),
        )
        .set_help(format!("use `{}`", name.to_lowercase()))
        .reference = Some(format!("Skill name '{name}' must be lowercase"));
    }
    if facts.hyphen_edge {
        ctx.report(
            Code::NameHyphenEdge,
            span.clone(),
            "`name` cannot start or end with a hyphen",
        )
        .set_help(format!("use `{}`", name.trim_matches('-')))
        .reference = Some("Skill name cannot start or end with a hyphen".into());
    }
    if facts.double_hyphen {
        ctx.report(
            Code::NameConsecutiveHyphens,
            span.clone(),
            "`name` cannot contain consecutive hyphens",
        )
        .set_help("separate words with single hyphens")
        .reference = Some("Skill name cannot contain consecutive hyphens".into());
    }
    if !facts.bad.is_empty() {
        let more = match facts.more_bad {
            0 => String::new(),
            n => format!(" and {} more", thousands(n as u64)),
        };
        ctx.report(
            Code::NameInvalidChars,
            span.clone(),
            format!(
                "`name` may hold only letters, digits and hyphens; found {}{more}",
                facts.bad.join(", ")
            ),
        )
        .set_help("replace spaces, underscores and dots with hyphens")
        .reference = Some(format!(
            "Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."
        ));
    }
    if !facts.matches_dir {
        ctx.report(
            Code::NameDirMismatch,
            span,
            format!("`name` is `{name}` but the directory is `{dir_name}`"),
        )
        .set_help("rename the directory or the skill so that they match")
        .reference = Some(format!(
            "Directory name '{dir_name}' must match skill name '{name}'"
        ));
    }
    facts.ends.whole().map(String::from)
}

/// What the name rules need to know of a `name` after NFKC, learnt in one
/// pass of the normalisation as it streams: the normalised name is never
/// built beyond [`MAX_NAME_READ`] characters, so its length is what the
/// input's is (NFKC makes one character up to 18: 2.5 million U+FDFA are
/// 45 million characters, which were built, copied and listed, 0.9 GB).
struct NameFacts {
    /// The name's length, and what messages quote of it.
    ends: render::Ends,
    /// Python's `name != name.lower()`.
    uppercase: bool,
    /// It starts or ends with `-`.
    hyphen_edge: bool,
    /// It holds `--`.
    double_hyphen: bool,
    /// The characters that are neither alphanumeric (Python's) nor `-`,
    /// each run of one character once, at most [`NameFacts::SHOWN`].
    bad: Vec<String>,
    /// The runs of such characters past those.
    more_bad: usize,
    /// It equals the directory's name after NFKC.
    matches_dir: bool,
}

impl NameFacts {
    const SHOWN: usize = 16;

    fn of(stripped: &str, dir_name: &str) -> NameFacts {
        let mut facts = NameFacts {
            ends: render::Ends::new(MAX_NAME_READ),
            uppercase: false,
            hyphen_edge: false,
            double_hyphen: false,
            bad: Vec::new(),
            more_bad: 0,
            matches_dir: true,
        };
        let mut dir = pyunicode::nfkc_chars(dir_name);
        let (mut previous, mut last_bad) = (None, None);
        for c in pyunicode::nfkc_chars(stripped) {
            if previous.is_none() && c == '-' {
                facts.hyphen_edge = true;
            }
            facts.uppercase |= pyunicode::changes_when_lowered(c);
            facts.double_hyphen |= c == '-' && previous == Some('-');
            if !(pyunicode::is_alnum(c) || c == '-') && last_bad != Some(c) {
                last_bad = Some(c);
                if facts.bad.len() < Self::SHOWN {
                    facts.bad.push(format!("{c:?}"));
                } else {
                    facts.more_bad += 1;
                }
            }
            facts.matches_dir &= dir.next() == Some(c);
            facts.ends.push(c);
            previous = Some(c);
        }
        facts.hyphen_edge |= previous == Some('-');
        facts.matches_dir &= dir.next().is_none();
        facts
    }
}

/// Whether `name`, written as it is, is a name the specification accepts
/// for a skill in a folder of that name: the rules the check applies to `name`,
/// none of which would report a problem.
pub fn is_spec_name(name: &str) -> bool {
    if name.is_empty() || pyunicode::strip(name) != name {
        return false;
    }
    let facts = NameFacts::of(name, name);
    facts.ends.len() <= MAX_NAME
        && !facts.uppercase
        && !facts.hyphen_edge
        && !facts.double_hyphen
        && facts.bad.is_empty()
        && facts.matches_dir
}

fn description(ctx: &mut Ctx<'_>, node: &Node) -> Option<String> {
    let span = Some(node.span.clone());
    let Some(text) = node.as_str().filter(|s| !pyunicode::strip(s).is_empty()) else {
        let message = match node.as_str() {
            Some(_) => "`description` is empty".to_string(),
            None => format!("`description` must be a string, not a {}", node.kind()),
        };
        ctx.report(Code::DescriptionNotString, span, message)
            .set_help("say what the skill does and when to use it")
            .reference = Some("Field 'description' must be a non-empty string".into());
        return None;
    };
    let len = pyunicode::len(text);
    if len > MAX_DESCRIPTION {
        ctx.report(
            Code::DescriptionTooLong,
            span,
            format!(
                "`description` is {} characters; the limit is {}",
                thousands(len as u64),
                thousands(MAX_DESCRIPTION as u64)
            ),
        )
        .set_help("keep the description to what the skill does and when to use it; move details into the body")
        .reference = Some(format!(
            "Description exceeds {MAX_DESCRIPTION} character limit ({len} chars)"
        ));
    }
    Some(pyunicode::strip(text).to_string())
}

fn compatibility(ctx: &mut Ctx<'_>, node: &Node) {
    let span = Some(node.span.clone());
    let Some(text) = node.as_str() else {
        ctx.report(
            Code::CompatibilityNotString,
            span,
            format!("`compatibility` must be a string, not a {}", node.kind()),
        )
        .set_help("describe the requirements in one line, for example `compatibility: Requires Python 3.11+`")
        .reference = Some("Field 'compatibility' must be a string".into());
        return;
    };
    let len = pyunicode::len(text);
    if len > MAX_COMPATIBILITY {
        ctx.report(
            Code::CompatibilityTooLong,
            span,
            format!("`compatibility` is {len} characters; the limit is {MAX_COMPATIBILITY}"),
        )
        .reference = Some(format!(
            "Compatibility exceeds {MAX_COMPATIBILITY} character limit ({len} chars)"
        ));
    }
}

/// Checks the reference does not make: value shapes and YAML 1.1 readings.
fn shapes(ctx: &mut Ctx<'_>, root: &Node) {
    for (key, value) in root.as_map().unwrap_or_default() {
        let Some(k) = key.as_str() else { continue };
        match k {
            "name" | "description" | "compatibility" => yaml11_warning(ctx, k, value),
            "license" => {
                expect_shape(ctx, k, value, Shape::Str);
                yaml11_warning(ctx, k, value);
            }
            "metadata" => metadata(ctx, value),
            "allowed-tools" => allowed_tools(ctx, value),
            _ => {
                if let Some(shape) = ctx.profile.extension_shape(k) {
                    expect_shape(ctx, k, value, shape);
                    if shape == Shape::Str {
                        yaml11_warning(ctx, k, value);
                    }
                }
            }
        }
    }
}

fn expect_shape(ctx: &mut Ctx<'_>, key: &str, value: &Node, shape: Shape) {
    let ok = match (shape, &value.value) {
        (Shape::Any, _) => true,
        (Shape::Str, Value::Str(_)) => true,
        (Shape::Bool, Value::Str(s)) => yaml11::is_bool(s),
        (Shape::StrOrList, Value::Str(_)) => true,
        (Shape::StrOrList, Value::Seq(items)) => items.iter().all(|i| i.as_str().is_some()),
        (Shape::Map, Value::Map(_)) => true,
        _ => false,
    };
    if !ok {
        let want = match shape {
            Shape::Str => "a string",
            Shape::Bool => "`true` or `false`",
            Shape::StrOrList => "a string or a list of strings",
            Shape::Map => "a mapping",
            Shape::Any => "any value",
        };
        let got = match &value.value {
            Value::Str(s) => format!("`{s}`"),
            _ => format!("a {}", value.kind()),
        };
        ctx.report(
            Code::FieldType,
            Some(value.span.clone()),
            format!("`{key}` should be {want}, not {got}"),
        );
    }
}

fn metadata(ctx: &mut Ctx<'_>, value: &Node) {
    let Some(entries) = value.as_map() else {
        ctx.report(
            Code::FieldType,
            Some(value.span.clone()),
            format!(
                "`metadata` should be a mapping of strings to strings, not a {}",
                value.kind()
            ),
        );
        return;
    };
    for (k, v) in entries {
        let key = k.as_str().unwrap_or("?");
        if v.as_str().is_none() {
            ctx.report(
                Code::FieldType,
                Some(v.span.clone()),
                format!("`metadata.{key}` should be a string, not a {}", v.kind()),
            )
            .set_help("clients read metadata values as strings; the reference turns this one into Python's text of it");
        } else {
            yaml11_warning(ctx, &format!("metadata.{key}"), v);
        }
    }
}

fn allowed_tools(ctx: &mut Ctx<'_>, value: &Node) {
    match &value.value {
        Value::Str(s) => {
            if s.contains(',') && !inside_parens_only(s, ',') {
                let d = ctx.report(
                    Code::AllowedToolsForm,
                    Some(value.span.clone()),
                    "`allowed-tools` is comma-separated; the specification separates tools with spaces",
                );
                d.help = Some(format!(
                    "write `allowed-tools: {}`",
                    s.split(',').map(str::trim).collect::<Vec<_>>().join(" ")
                ));
                if ctx.profile == Profile::ClaudeCode {
                    ctx.diags.pop();
                }
            }
        }
        Value::Seq(items) => {
            if items.iter().any(|i| i.as_str().is_none()) {
                ctx.report(
                    Code::FieldType,
                    Some(value.span.clone()),
                    "`allowed-tools` entries should be strings",
                );
            } else if ctx.profile == Profile::Spec {
                let joined: Vec<&str> = items.iter().filter_map(Node::as_str).collect();
                ctx.report(
                    Code::AllowedToolsForm,
                    Some(value.span.clone()),
                    "`allowed-tools` is a list; the specification wants a space-separated string",
                )
                .set_help(format!("write `allowed-tools: {}`", joined.join(" ")));
            }
        }
        Value::Map(_) => {
            ctx.report(
                Code::FieldType,
                Some(value.span.clone()),
                "`allowed-tools` should be a space-separated string, not a mapping",
            );
        }
    }
}

/// Whether every `sep` in `s` sits inside parentheses (`Agent(a, b)`).
fn inside_parens_only(s: &str, sep: char) -> bool {
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth <= 0 => return false,
            _ => {}
        }
    }
    true
}

fn yaml11_warning(ctx: &mut Ctx<'_>, key: &str, value: &Node) {
    let Value::Str(s) = &value.value else { return };
    if !value.plain {
        return;
    }
    if let Some(kind) = yaml11::implicit_type(s) {
        ctx.report(
            Code::Yaml11Type,
            Some(value.span.clone()),
            format!("`{key}: {s}` is read as {kind} by YAML 1.1 tools such as PyYAML"),
        )
        .set_help(format!("quote it: `{key}: \"{s}\"`"));
    }
}

/// The skill directory's name as the reference sees it: the last component of
/// the path as given, or of its canonical form when the path ends in `.` or `..`.
pub(crate) fn dir_name(dir: &Path) -> String {
    match dir.file_name() {
        Some(n) => n.to_string_lossy().into_owned(),
        None => dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests;

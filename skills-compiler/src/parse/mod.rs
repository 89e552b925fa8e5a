//! The parse stage of a skill's check: the bytes of `SKILL.md` become a
//! [`Parsed`] (the file's [`Source`], its split into frontmatter and body,
//! the frontmatter's YAML tree, the fields the rules read) with the
//! diagnostics of the split, the YAML and the frontmatter rules. It touches
//! no file system, so a pack's `SKILL.md` is checked by it too
//! ([`CheckedSkill::from_skill_md`](crate::CheckedSkill::from_skill_md)).

pub mod frontmatter;
pub mod libyaml_bound;
pub mod yaml;
pub(crate) mod yaml11;
pub mod yaml_json;

use std::ops::Range;
use std::path::Path;

use crate::diag::{Code, Diagnostic};
use crate::frontmatter::{Split, SplitError};
use crate::profile::Profile;
use crate::rules::{self, Ctx, Fields};
use crate::source::Source;
use crate::yaml::Node;

/// `SKILL.md`, parsed: what the later stages read.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The file's bytes and line table.
    pub(crate) source: Source,
    /// Frontmatter and body ranges, when the file split.
    pub(crate) split: Option<Split>,
    /// The frontmatter, when it parsed as a mapping.
    pub(crate) frontmatter: Option<Node>,
    /// `name` and `description` as the rules read them.
    pub(crate) fields: Fields,
    /// The problems found, in the order found.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// Splits and parses `bytes`, the `SKILL.md` at `path` of the skill in
/// `dir`, and runs the frontmatter rules. The split is `None` when the file
/// does not split; the frontmatter `None` when it is not a mapping.
pub(crate) fn parse(dir: &Path, path: &Path, bytes: Vec<u8>, profile: Profile) -> Parsed {
    let source = Source::new(path, bytes);
    let mut diagnostics = Vec::new();
    let mut ctx = Ctx {
        profile,
        source: &source,
        diags: &mut diagnostics,
    };
    let split = match source.text().map_or_else(
        || frontmatter::split(source.bytes()),
        frontmatter::split_text,
    ) {
        Ok(split) => split,
        Err(e) => {
            split_error(&mut ctx, e);
            return Parsed {
                source,
                split: None,
                frontmatter: None,
                fields: Fields::default(),
                diagnostics,
            };
        }
    };
    // `split` succeeded, so the whole file is UTF-8.
    let text = source.text().unwrap_or_default();
    let parsed = yaml::parse(text, split.yaml.start, split.yaml.end);
    for p in &parsed.problems {
        let d = ctx.report(p.code, Some(p.span.clone()), p.message.clone());
        d.reference = Some(format!("Invalid YAML in frontmatter: {}", p.reference));
        d.help = yaml_help(p.code).map(String::from);
    }
    let root = match parsed.root {
        Some(root) if root.as_map().is_some() => Some(root),
        _ if parsed.is_fatal() => None,
        other => {
            let what = other.as_ref().map_or("empty", |n| match n.kind() {
                "list" => "a list",
                _ => "a plain string",
            });
            // Point at the list or scalar (its first line), or at the
            // opening line of an empty frontmatter.
            let span = match &other {
                Some(node) => {
                    let line = source.line_col(node.span.start).line;
                    let end = source.line_range(line).map_or(node.span.end, |r| r.end);
                    node.span.start..end.max(node.span.start)
                }
                None => split.open.clone(),
            };
            ctx.report(
                Code::FrontmatterNotMapping,
                Some(span),
                format!("the frontmatter is {what}, not a mapping of keys to values"),
            )
            .set_help(
                "write `key: value` lines, for example `name: my-skill` and `description: ...`",
            )
            .reference = Some("SKILL.md frontmatter must be a YAML mapping".into());
            None
        }
    };
    let fields = match &root {
        Some(root) => rules::check(&mut ctx, root, &rules::dir_name(dir)),
        None => Fields::default(),
    };
    Parsed {
        source,
        split: Some(split),
        frontmatter: root,
        fields,
        diagnostics,
    }
}

/// What to do about a YAML problem.
fn yaml_help(code: Code) -> Option<&'static str> {
    Some(match code {
        Code::YamlFlowStyle => {
            "write a list as `- item` lines (for `allowed-tools`, a space-separated string), a mapping as indented `key: value` lines, or quote the value"
        }
        Code::YamlAnchor => "write the value out again instead of `&anchor` / `*alias`",
        Code::YamlTag => "remove the tag: every value is read as a string",
        Code::YamlDuplicateKey => "remove one of the two keys",
        _ => return None,
    })
}

fn split_error(ctx: &mut Ctx<'_>, e: SplitError) {
    const MUST_START: &str = "SKILL.md must start with YAML frontmatter (---)";
    let (code, span, message, help, reference): (Code, Range<usize>, String, &str, Option<&str>) =
        match e {
            SplitError::Empty => (
                Code::EmptyFile,
                0..0,
                "`SKILL.md` is empty".into(),
                "start it with `---`, `name:` and `description:` lines and a closing `---`",
                Some(MUST_START),
            ),
            SplitError::NotUtf8(at) => (
                Code::NotUtf8,
                at..at + 1,
                format!(
                    "`SKILL.md` is not valid UTF-8: byte 0x{:02X} at offset {at}",
                    ctx.source.bytes().get(at).copied().unwrap_or(0)
                ),
                "save the file as UTF-8",
                None,
            ),
            SplitError::Bom => (
                Code::Bom,
                0..3,
                "`SKILL.md` starts with a byte-order mark".into(),
                "save the file as UTF-8 without a BOM: the frontmatter must start at the first byte",
                Some(MUST_START),
            ),
            SplitError::MissingOpen(line) => (
                Code::MissingFrontmatter,
                line,
                "`SKILL.md` must start with a `---` line opening the YAML frontmatter".into(),
                "put `---` on the first line, then `name:` and `description:`, then a closing `---`",
                Some(MUST_START),
            ),
            SplitError::Unclosed(line) => (
                Code::UnclosedFrontmatter,
                line,
                "no `---` line closes the frontmatter".into(),
                "add a line holding only `---` after the last YAML key",
                Some("SKILL.md frontmatter not properly closed with ---"),
            ),
        };
    let d = ctx.report(code, Some(span), message).set_help(help);
    d.reference = reference.map(String::from);
}

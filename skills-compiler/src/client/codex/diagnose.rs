//! The `codex` profile's findings for one checked skill: an error where
//! Codex would not load it (`SK401`, quoting Codex's reason), and warnings
//! where it would list it otherwise than the author wrote (`SK405`, `SK407`,
//! `SK451`). What it ignores in `agents/openai.yaml` (`SK452`) is
//! [`super::openai_yaml::check`]'s.
//!
//! Codex's reading replaces ours for what decides loading: the diagnostics
//! of our own reading of the file and its YAML that Codex re-judges (not
//! UTF-8, byte-order mark, empty, no or unclosed frontmatter, invalid YAML,
//! not a mapping) are dropped, and Codex's verdict stands in their place.

use std::ops::Range;

use super::skill_md::{Rejection, Unread, extract_frontmatter, read_skill_md};
use crate::checked::CheckedSkill;
use crate::diag::Code;
use crate::rules;
use crate::source::Source;

/// Codex's reading of the skill's `SKILL.md`, as read for the check; `None`
/// when there is no `SKILL.md` Codex would look at (none, unreadable, or
/// named `skill.md`).
pub fn reading(skill: &CheckedSkill) -> Option<Result<super::skill_md::CodexSkill, Unread>> {
    let path = skill.skill_md.as_ref()?;
    if path.file_name().is_none_or(|n| n != super::scan::SKILL_MD) {
        return None;
    }
    let source = skill.source.as_ref()?;
    Some(read_skill_md(&rules::dir_name(&skill.dir), source.bytes()))
}

/// Points the `codex` profile's findings about `SKILL.md` (made from
/// Codex's [`super::read_loaded`] by [`crate::client::diagnostics`]) at
/// where they are in the file, with what to do about each: the position
/// libyaml names, the `name` or `description` value, the ignored key.
pub(crate) fn locate(skill: &mut CheckedSkill) {
    let Some(read) = reading(skill) else {
        return;
    };
    let Some(source) = skill.source.as_ref() else {
        return;
    };
    let node_span = |key: &str| {
        skill
            .frontmatter
            .as_ref()
            .and_then(|f| f.get(key))
            .map(|n| n.span.clone())
    };
    let key_span = |key: &str| {
        skill
            .frontmatter
            .as_ref()
            .and_then(|f| f.as_map())
            .and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some(key)))
            .map(|(k, _)| k.span.clone())
    };
    let mut ignored = read
        .as_ref()
        .map(|r| r.ignored_keys.as_slice())
        .unwrap_or_default()
        .iter();
    let mut placed = Vec::new();
    for (i, d) in skill.diagnostics.iter().enumerate() {
        if d.label.is_some() {
            continue;
        }
        let (span, help): (Option<Range<usize>>, &str) = match (d.code, &read) {
            (Code::Io, Err(Unread::Unknown(b))) => (
                b.span
                    .as_ref()
                    .and_then(|span| in_frontmatter(source, span)),
                "keep the YAML within this tool's bounds (64 levels of nesting, 100,000 nodes, 1 MiB repeated by aliases): past them it cannot tell what Codex reads",
            ),
            (Code::ClientRejected, Err(Unread::Rejected(r))) => match r.reason.as_str() {
                super::scan::MISSING_FRONTMATTER => (
                    source.line_range(1),
                    "start the file with a `---` line (no byte-order mark or blank line before it), then `name:` and `description:` lines, then a closing `---` line",
                ),
                super::scan::NOT_UTF8 => (None, "save the file as UTF-8"),
                "missing field `description`" => (
                    node_span("description")
                        .or_else(|| skill.split.as_ref().map(|s| s.open.clone())),
                    "add a `description:` saying what the skill does and when to use it: Codex does not fall back to the body",
                ),
                reason if reason.starts_with("invalid name") => {
                    (node_span("name"), "shorten `name` to at most 64 characters")
                }
                _ => (
                    position(source, r),
                    "fix the YAML: no tabs in indentation, a string where Codex expects `name` and `description`, quotes around a value with `: ` in it",
                ),
            },
            (Code::ClientYamlUnread, Ok(r)) => (
                r.yaml_error.as_ref().and_then(|e| position(source, e)),
                "quote the value (`description: \"Use when: ...\"`) or write it as a block scalar (`description: >`)",
            ),
            (Code::ClientDescriptionCut, Ok(_)) => (
                node_span("description"),
                "keep `description` to 1,024 characters",
            ),
            (Code::ClientKeyIgnored, Ok(_)) => {
                // Ignored-key notes come in the order of `ignored_keys`.
                let key = ignored.next().copied().unwrap_or_default();
                (key_span(key), ignored_key_help(key))
            }
            _ => continue,
        };
        placed.push((i, span, help));
    }
    for (i, span, help) in placed {
        let Some(d) = skill.diagnostics.get_mut(i) else {
            continue;
        };
        if let Some(span) = span {
            let located = d.clone().at(source, span);
            *d = located;
        }
        d.set_help(help);
    }
}

/// What to do about a key Codex ignores.
fn ignored_key_help(key: &str) -> &'static str {
    match key {
        "when_to_use" => "say when to use the skill in `description`",
        "disable-model-invocation" => {
            "to keep it out of Codex's list too, set `policy.allow_implicit_invocation: false` in `agents/openai.yaml`"
        }
        _ => "say in `description` which files the skill is for",
    }
}

/// The file's byte range of `span`, a range of the frontmatter as
/// [`extract_frontmatter`] joins its lines (each line keeps its bytes, and
/// the frontmatter starts on the file's line 2), cut at the line's end.
fn in_frontmatter(source: &Source, span: &Range<usize>) -> Option<Range<usize>> {
    let frontmatter = extract_frontmatter(source.text()?)?;
    let before = frontmatter.get(..span.start)?;
    let line = before.matches('\n').count() + 2;
    let column = span.start - before.rfind('\n').map_or(0, |i| i + 1);
    let range = source.line_range(line)?;
    // Codex's lines and ours may break differently (a lone `\r`), so the
    // offsets are kept on the line and on character boundaries.
    let text = std::str::from_utf8(source.bytes().get(range.clone())?).ok()?;
    let on_char = |mut at: usize, forward: bool| {
        while !text.is_char_boundary(at) {
            if forward { at += 1 } else { at -= 1 }
        }
        at
    };
    let start = on_char(column.min(text.len()), false);
    let end = on_char((column + span.len()).min(text.len()), true).max(start);
    Some(range.start + start..range.start + end)
}

/// The byte range libyaml's line and column point at, to the end of that line.
fn position(source: &Source, r: &Rejection) -> Option<Range<usize>> {
    let (line, column) = r.at?;
    let range = source.line_range(line)?;
    let text = std::str::from_utf8(source.bytes().get(range.clone())?).ok()?;
    let offset = text
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(text.len(), |(i, _)| i);
    Some(range.start + offset..range.end.max(range.start + offset))
}

#[cfg(test)]
mod tests;

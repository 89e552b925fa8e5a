//! The `codex` profile's findings for one checked skill: an error where
//! Codex would not load it (`SK501`, quoting Codex's reason), and warnings
//! where it would list it otherwise than the author wrote (`SK502`-`SK504`)
//! or ignore part of `agents/openai.yaml` (`SK505`).
//!
//! Codex's reading replaces ours for what decides loading: the diagnostics
//! of our own reading of the file and its YAML that Codex re-judges (not
//! UTF-8, byte-order mark, empty, no or unclosed frontmatter, invalid YAML,
//! not a mapping) are dropped, and Codex's verdict stands in their place.

use std::ops::Range;

use super::{Rejection, read_openai_yaml, read_skill_md};
use crate::diag::{Code, Diagnostic};
use crate::profile::Profile;
use crate::rules;
use crate::skill::CheckedSkill;
use crate::source::Source;
use skills_core::fsread::Dir;

/// Where Codex reads a skill's metadata, relative to the skill folder.
pub const OPENAI_YAML: &str = "agents/openai.yaml";
/// The largest `agents/openai.yaml` read, in bytes.
const MAX_OPENAI_YAML: u64 = 1024 * 1024;

/// Our reading's diagnostics that Codex's reading replaces.
const REREAD: [Code; 7] = [
    Code::NotUtf8,
    Code::Bom,
    Code::EmptyFile,
    Code::MissingFrontmatter,
    Code::UnclosedFrontmatter,
    Code::InvalidYaml,
    Code::FrontmatterNotMapping,
];

/// Codex's reading of the skill's `SKILL.md`, as read for the check; `None`
/// when there is no `SKILL.md` Codex would look at (none, unreadable, or
/// named `skill.md`).
pub fn reading(skill: &CheckedSkill) -> Option<Result<super::CodexSkill, Rejection>> {
    let path = skill.skill_md.as_ref()?;
    if path.file_name().is_none_or(|n| n != super::SKILL_MD) {
        return None;
    }
    let source = skill.source.as_ref()?;
    Some(read_skill_md(&rules::dir_name(&skill.dir), source.bytes()))
}

/// Adds the `codex` profile's findings about `SKILL.md` to `skill`.
pub(crate) fn skill_md(skill: &mut CheckedSkill) {
    let Some(read) = reading(skill) else {
        return;
    };
    skill.diagnostics.retain(|d| !REREAD.contains(&d.code));
    let Some(source) = skill.source.as_ref() else {
        return;
    };
    let profile = Profile::Codex;
    let at = |d: Diagnostic, span: Option<Range<usize>>| match span {
        Some(span) => d.at(source, span),
        None => d,
    };
    let node_span = |key: &str| {
        skill
            .frontmatter
            .as_ref()
            .and_then(|f| f.get(key))
            .map(|n| n.span.clone())
    };
    let mut found = Vec::new();
    match read {
        Err(r) => {
            let (span, help) = match r.reason.as_str() {
                super::MISSING_FRONTMATTER => (
                    source.line_range(1),
                    "start the file with a `---` line (no byte-order mark or blank line before it), then `name:` and `description:` lines, then a closing `---` line",
                ),
                super::NOT_UTF8 => (None, "save the file as UTF-8"),
                "missing field `description`" => (
                    node_span("description")
                        .or_else(|| skill.split.as_ref().map(|s| s.open.clone())),
                    "add a `description:` saying what the skill does and when to use it: Codex does not fall back to the body",
                ),
                reason if reason.starts_with("invalid name") => {
                    (node_span("name"), "shorten `name` to at most 64 characters")
                }
                _ => (
                    position(source, &r),
                    "fix the YAML: no tabs in indentation, a string where Codex expects `name` and `description`, quotes around a value with `: ` in it",
                ),
            };
            let d = Diagnostic::new(
                Code::CodexRejects,
                profile.severity(Code::CodexRejects),
                source.path(),
                format!("Codex does not load this skill: {}", r.reason),
            )
            .help(help);
            found.push(at(d, span));
        }
        Ok(read) => {
            if let Some(first) = &read.yaml_error {
                let d = Diagnostic::new(
                    Code::CodexYamlRequoted,
                    profile.severity(Code::CodexYamlRequoted),
                    source.path(),
                    format!(
                        "the YAML is invalid ({}); Codex reads it only by quoting each top-level value as written",
                        first.reason
                    ),
                )
                .help("quote the value (`description: \"Use when: ...\"`) or write it as a block scalar (`description: >`)");
                found.push(at(d, position(source, first)));
            }
            let chars = read.description.chars().count();
            if chars > skills_core::catalog::codex::MAX_DESCRIPTION_CHARS {
                let d = Diagnostic::new(
                    Code::CodexDescriptionCut,
                    profile.severity(Code::CodexDescriptionCut),
                    source.path(),
                    format!(
                        "`description` has {chars} characters; Codex lists its first 1,021 and `...`"
                    ),
                )
                .help("keep `description` to 1,024 characters");
                found.push(at(d, node_span("description")));
            }
            for (key, d) in ignored_keys(skill) {
                let span = skill
                    .frontmatter
                    .as_ref()
                    .and_then(|f| f.as_map())
                    .and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some(key)))
                    .map(|(k, _)| k.span.clone());
                found.push(at(d, span));
            }
        }
    }
    skill.diagnostics.extend(found);
}

/// The keys Codex does not read whose presence changes what Claude Code
/// lists, with the warning for each.
fn ignored_keys(skill: &CheckedSkill) -> Vec<(&'static str, Diagnostic)> {
    let (Some(root), Some(path)) = (skill.frontmatter.as_ref(), skill.skill_md.as_ref()) else {
        return Vec::new();
    };
    let warn = |message: &str, help: &str| {
        Diagnostic::new(
            Code::CodexIgnoresKey,
            Profile::Codex.severity(Code::CodexIgnoresKey),
            path,
            message,
        )
        .help(help)
    };
    let mut out = Vec::new();
    if root.get("when_to_use").is_some() {
        out.push((
            "when_to_use",
            warn(
                "Codex does not read `when_to_use`: its listing shows `description` alone",
                "say when to use the skill in `description`",
            ),
        ));
    }
    let hidden = root
        .get("disable-model-invocation")
        .and_then(|n| n.as_str())
        .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "yes" | "on" | "1"));
    if hidden {
        out.push(("disable-model-invocation", warn(
            "Codex does not read `disable-model-invocation`: it lists this skill to the model",
            "to keep it out of Codex's list too, set `policy.allow_implicit_invocation: false` in `agents/openai.yaml`",
        )));
    }
    if root.get("paths").is_some() {
        out.push(("paths", warn(
            "Codex does not read `paths`: it lists this skill in every session, not only once a matching file is touched",
            "say in `description` which files the skill is for",
        )));
    }
    out
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

/// Reads the skill's `agents/openai.yaml`, when it has one, from the open
/// skill folder: what Codex takes from it, and (under `codex`) a warning for
/// each thing Codex ignores.
pub(crate) fn openai_yaml(skill: &mut CheckedSkill, dir: &Dir, profile: Profile) {
    let Some(file) = skill.files.iter().find(|f| f.rel == OPENAI_YAML) else {
        return;
    };
    let (path, physical) = (file.path.clone(), file.physical.clone());
    let bytes = match dir.read(&physical, MAX_OPENAI_YAML) {
        Ok(b) => b,
        Err(e) => {
            if profile == Profile::Codex {
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
    let Ok(text) = std::str::from_utf8(source.bytes()) else {
        if profile == Profile::Codex {
            skill.diagnostics.push(Diagnostic::new(
                Code::CodexOpenAiYaml,
                profile.severity(Code::CodexOpenAiYaml),
                &path,
                format!("Codex ignores `{OPENAI_YAML}`: it is not UTF-8"),
            ));
        }
        return;
    };
    let (read, problems) = read_openai_yaml(text);
    skill.openai_yaml = read.map(Box::new);
    if profile != Profile::Codex {
        return;
    }
    for p in problems {
        let mut d = Diagnostic::new(
            Code::CodexOpenAiYaml,
            profile.severity(Code::CodexOpenAiYaml),
            &path,
            p.message,
        );
        if let Some(span) = p.span {
            let end = span.end.min(source.bytes().len());
            d = d.at(&source, span.start.min(end)..end);
        }
        skill.diagnostics.push(d);
    }
}

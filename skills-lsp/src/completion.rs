//! Completion in a `SKILL.md`'s frontmatter: the keys (the specification's
//! and the extension keys the client profiles read, from the profiles'
//! own tables), known values (a boolean key's `true`/`false`, the folder's
//! name for `name`), and the shapes of an `allowed-tools` rule as
//! `skills_core::tools` splits them.

use std::path::Path;

use lsp_types::{CompletionItem, CompletionItemKind, Documentation};
use skills_compiler::is_spec_name;
use skills_compiler::profile::{EXTENSION_FIELDS, SPEC_FIELDS, Shape};

use crate::frontmatter::Frontmatter;

/// The shapes of an `allowed-tools` rule, each with what it allows: a tool
/// alone, a tool with an argument pattern between parentheses, an MCP
/// tool's name, and every tool.
const RULE_SHAPES: &[(&str, &str)] = &[
    ("Read", "a tool by name: every call of it"),
    ("Bash(git status)", "a command exactly as written"),
    ("Bash(git diff *)", "a command and any arguments after it"),
    (
        "Bash(${CLAUDE_SKILL_DIR}/scripts/run.sh *)",
        "one of the skill's own scripts, with any arguments (the narrowest rule for a script)",
    ),
    (
        "mcp__server__tool",
        "one tool of an MCP server, named as the client names it",
    ),
    ("*", "every tool"),
];

/// What to offer at byte `offset` of `text`, the `SKILL.md` of `dir`.
pub fn complete(dir: &Path, path: &Path, text: &str, offset: usize) -> Vec<CompletionItem> {
    let offset = floor_boundary(text, offset);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    let fm = Frontmatter::parse(dir, path, text);
    if !in_frontmatter(text, &fm, line_start) {
        return Vec::new();
    }
    if !before.contains(':') && !before.starts_with([' ', '\t', '-']) {
        return keys(&present_keys(text, &fm));
    }
    if let Some((key, _)) = before.split_once(':')
        && !key.starts_with([' ', '\t'])
    {
        return values(dir, key.trim());
    }
    // An item of a block list under `allowed-tools:`.
    if before.trim_start().starts_with('-') && under_key(text, line_start) == Some("allowed-tools")
    {
        return rules();
    }
    Vec::new()
}

/// Whether the line starting at `line_start` is in the frontmatter: inside
/// the YAML of a text that splits, or after an opening `---` not closed yet.
fn in_frontmatter(text: &str, fm: &Frontmatter, line_start: usize) -> bool {
    if fm.yaml.is_some() {
        return fm.contains(line_start);
    }
    let mut lines = text[..line_start].lines();
    lines.next().is_some_and(|first| first.trim_end() == "---")
        && lines.all(|l| l.trim_end() != "---")
}

/// The top-level keys the frontmatter has: parsed, or, while it does not
/// parse (a key being typed), read line by line.
fn present_keys<'t>(text: &'t str, fm: &'t Frontmatter) -> Vec<&'t str> {
    if !fm.entries.is_empty() {
        return fm.entries.iter().map(|e| e.key.as_str()).collect();
    }
    text.lines()
        .skip(1)
        .take_while(|l| l.trim_end() != "---")
        .filter(|l| !l.starts_with([' ', '\t', '-', '#']))
        .filter_map(|l| l.split_once(':').map(|(k, _)| k.trim()))
        .collect()
}

/// The top-level key above the line starting at `line_start`.
fn under_key(text: &str, line_start: usize) -> Option<&str> {
    text[..line_start]
        .lines()
        .rev()
        .find(|l| !l.starts_with([' ', '\t', '-']))
        .and_then(|l| l.split_once(':'))
        .map(|(k, _)| k.trim())
}

fn keys(present: &[&str]) -> Vec<CompletionItem> {
    let spec = SPEC_FIELDS.iter().map(|k| (*k, true));
    let extension = EXTENSION_FIELDS.iter().map(|(k, _)| (*k, false));
    spec.chain(extension)
        .filter(|(k, _)| !present.contains(k))
        .map(|(key, in_spec)| CompletionItem {
            label: key.to_string(),
            kind: Some(CompletionItemKind::PROPERTY),
            detail: Some(if in_spec {
                "Agent Skills specification".into()
            } else {
                "read by clients; not in the specification (SK201 under --profile spec)".into()
            }),
            insert_text: Some(format!("{key}: ")),
            ..CompletionItem::default()
        })
        .collect()
}

fn values(dir: &Path, key: &str) -> Vec<CompletionItem> {
    let value = |label: String, detail: &str| CompletionItem {
        label,
        kind: Some(CompletionItemKind::VALUE),
        detail: Some(detail.into()),
        ..CompletionItem::default()
    };
    if key == "name" {
        let folder = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        return if is_spec_name(folder) {
            vec![value(
                folder.into(),
                "the folder's name, which `name` must match",
            )]
        } else {
            Vec::new()
        };
    }
    if key == "allowed-tools" {
        return rules();
    }
    match EXTENSION_FIELDS.iter().find(|(k, _)| *k == key) {
        Some((_, Shape::Bool)) => vec![
            value("true".into(), "boolean"),
            value("false".into(), "boolean"),
        ],
        _ => Vec::new(),
    }
}

fn rules() -> Vec<CompletionItem> {
    RULE_SHAPES
        .iter()
        .map(|(rule, what)| CompletionItem {
            label: (*rule).into(),
            kind: Some(CompletionItemKind::SNIPPET),
            detail: Some("allowed-tools rule".into()),
            documentation: Some(Documentation::String((*what).into())),
            insert_text: Some((*rule).into()),
            ..CompletionItem::default()
        })
        .collect()
}

fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str, at: &str) -> Vec<String> {
        let offset = text.find(at).map_or(text.len(), |i| i + at.len());
        complete(
            Path::new("/s/pdf-tools"),
            Path::new("/s/pdf-tools/SKILL.md"),
            text,
            offset,
        )
        .into_iter()
        .map(|c| c.label)
        .collect()
    }

    #[test]
    fn keys_values_and_rules() {
        let text = "---\nname: \ndescription: x\nlic\n---\nbody\n";
        let keys = labels(text, "\nlic");
        assert!(
            keys.contains(&"license".to_string()) && !keys.contains(&"description".to_string()),
            "{keys:?}"
        );
        assert_eq!(labels(text, "name: "), ["pdf-tools"]);
        assert!(labels(text, "bo").is_empty());
        let text = "---\ndisable-model-invocation: \nallowed-tools: \n";
        assert_eq!(labels(text, "invocation: "), ["true", "false"]);
        assert!(labels(text, "tools: ").contains(&"Bash(git diff *)".to_string()));
        let text = "---\nallowed-tools:\n  - \n";
        assert!(labels(text, "  - ").contains(&"Read".to_string()));
    }
}

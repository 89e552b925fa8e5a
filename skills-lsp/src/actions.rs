//! Code actions: every rewrite `skb fix` would make to the skill
//! ([`skills_compiler::fix::plan_given`], from the editor's text), and the
//! quick-fixes the diagnostics name in their help (`use \`pdf-tools\``,
//! `quote it: \`key: "value"\``, and the folder's name for a name that
//! differs from it), each a minimal edit of the text.

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, CreateFile, DocumentChangeOperation, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, ResourceOp, TextDocumentEdit, TextEdit, WorkspaceEdit,
};
use skills_compiler::fix;
use skills_compiler::{Code, Diagnostic, is_spec_name};

use crate::analysis::{self, check_text};
use crate::document::Document;
use crate::position::Lines;
use crate::settings::Settings;

/// The actions for the bytes `range` of `doc` (a `SKILL.md`).
pub fn actions(
    doc: &Document,
    range: std::ops::Range<usize>,
    settings: &Settings,
    lines: &Lines,
) -> Vec<CodeAction> {
    let skill = check_text(&doc.dir, &doc.path, &doc.text, settings.profile);
    let mut out = Vec::new();
    for d in analysis::validate(&skill, settings.profile) {
        let Some(label) = d.label.as_ref().filter(|_| d.path == doc.path) else {
            continue;
        };
        if label.bytes.end < range.start || label.bytes.start > range.end {
            continue;
        }
        let Some((title, replacement)) = quick_fix(&d, &doc.dir) else {
            continue;
        };
        let mut text = doc.text.clone();
        if text.get(label.bytes.clone()).is_none() {
            continue;
        }
        text.replace_range(label.bytes.clone(), &replacement);
        out.push(CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![analysis::from_compiler(doc, lines, &d)]),
            edit: Some(edit_of(doc, lines, &text)),
            is_preferred: Some(true),
            ..CodeAction::default()
        });
    }
    let plan = fix::plan_given(&skill, Some(doc.text.as_bytes()));
    for e in &plan.edits {
        let title = format!("skb fix: {}", e.what.join("; "));
        let edit = if e.rel == "SKILL.md" {
            edit_of(doc, lines, &e.new)
        } else {
            match other_file(&e.path, e.old.as_deref(), &e.new) {
                Some(edit) => edit,
                None => continue,
            }
        };
        out.push(CodeAction {
            title,
            kind: Some(CodeActionKind::new("source.fixAll.skb")),
            edit: Some(edit),
            ..CodeAction::default()
        });
    }
    out
}

/// The fix a diagnostic's help names, as a title and the text that
/// replaces the diagnostic's span.
pub fn quick_fix(d: &Diagnostic, dir: &Path) -> Option<(String, String)> {
    if d.code == Code::NameDirMismatch {
        let folder = dir.file_name()?.to_str()?;
        return is_spec_name(folder).then(|| {
            (
                format!("Use the folder's name `{folder}`"),
                folder.to_string(),
            )
        });
    }
    let help = d.help.as_deref()?;
    if let Some(name) = help.strip_prefix("use `").and_then(|h| h.strip_suffix('`')) {
        return Some((format!("Use `{name}`"), name.to_string()));
    }
    if let Some(quoted) = help
        .strip_prefix("quote it: `")
        .and_then(|h| h.strip_suffix('`'))
    {
        let (_, value) = quoted.split_once(": ")?;
        return Some((format!("Quote it: {value}"), value.to_string()));
    }
    None
}

/// The smallest edit that turns `doc`'s text into `new`: one replacement
/// of what lies between their common start and common end.
pub fn edit_of(doc: &Document, lines: &Lines, new: &str) -> WorkspaceEdit {
    let old = doc.text.as_str();
    let mut start = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = old[start..]
        .bytes()
        .rev()
        .zip(new[start..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - end) || !new.is_char_boundary(new.len() - end) {
        end -= 1;
    }
    let edit = TextEdit::new(
        lines.range(old, start..old.len() - end),
        new[start..new.len() - end].to_string(),
    );
    // The protocol's own map: a `Uri` hashes its text, which never changes.
    #[allow(clippy::mutable_key_type)]
    let mut changes = HashMap::new();
    if let Some(uri) = crate::uri::from_path(&doc.path) {
        changes.insert(uri, vec![edit]);
    }
    WorkspaceEdit::new(changes)
}

/// The edit that writes `new` to the file at `path` (holding `old`, or
/// missing): created first when it is missing.
fn other_file(path: &Path, old: Option<&[u8]>, new: &str) -> Option<WorkspaceEdit> {
    let uri = crate::uri::from_path(path)?;
    let mut operations = Vec::new();
    let range = match old {
        None => {
            operations.push(DocumentChangeOperation::Op(ResourceOp::Create(
                CreateFile {
                    uri: uri.clone(),
                    options: None,
                    annotation_id: None,
                },
            )));
            lsp_types::Range::default()
        }
        Some(old) => {
            let old = std::str::from_utf8(old).ok()?;
            Lines::new(old, crate::position::Encoding::Utf16).range(old, 0..old.len())
        }
    };
    operations.push(DocumentChangeOperation::Edit(TextDocumentEdit {
        text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
        edits: vec![OneOf::Left(TextEdit::new(range, new.to_string()))],
    }));
    Some(WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(operations)),
        ..WorkspaceEdit::default()
    })
}

//! What is wrong with a document: the same check as `skb validate` (its
//! codes, messages, severities under the profile, and the clients'
//! differences `SK491`-`SK493`), and the scanner's findings as `skb scan`
//! reports them, turned into the protocol's diagnostics at the same spans.
//!
//! A `SKILL.md` is checked from the editor's text, the rest of its folder
//! from the disk ([`skills_compiler::check_dir_given`],
//! [`skills_scan::scan_dir_given_cached`], which analyzes again only the
//! files whose text changed since the document's last check). Both bound
//! their work by the text's
//! size: a document larger than [`MAX_SKILL_MD`] gets the validator's own
//! error for such a file, and the scanner reads only its start.

use std::path::Path;

use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range,
};
use skills_compiler::client::{self, differences};
use skills_compiler::{self as compiler, CheckedSkill, Given, MAX_SKILL_MD, Options, Profile};

use crate::document::{Document, Kind};
use crate::position::{Encoding, Lines};
use crate::settings::Settings;

/// The `source` of the validator's diagnostics.
pub const VALIDATE: &str = "skb validate";
/// The `source` of the scanner's.
pub const SCAN: &str = "skb scan";

/// The compiler's options for one skill under `profile`, as `skb validate`
/// sets them by default, on one thread.
pub fn options(profile: Profile) -> Options {
    Options {
        profile,
        threads: 1,
        ..Options::default()
    }
}

/// The skill `doc` is the `SKILL.md` of, checked from its text.
pub fn check_text(dir: &Path, doc_path: &Path, text: &str, profile: Profile) -> CheckedSkill {
    let name = doc_path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("SKILL.md");
    compiler::check_dir_given(
        dir,
        &options(profile),
        Some(Given {
            name,
            bytes: text.as_bytes(),
        }),
    )
}

/// The compiler's diagnostics of `skill` as `skb validate` reports them:
/// the check's, then where the clients differ.
pub fn validate(skill: &CheckedSkill, profile: Profile) -> Vec<compiler::Diagnostic> {
    let mut found = skill.diagnostics.clone();
    let readings = client::all_readings(std::slice::from_ref(skill), 1);
    if let Some(readings) = readings.first() {
        let path = skill.skill_md.clone().unwrap_or_else(|| skill.dir.clone());
        let differences = differences::differences(skill, readings);
        found.extend(
            differences
                .differences
                .iter()
                .map(|d| d.diagnostic(&path, profile)),
        );
    }
    found
}

/// Every diagnostic of `doc`; `cache` keeps what the scan of its folder
/// found for the next check of the same document, which then analyzes
/// again only the files whose text changed ([`skills_scan::Cache`]).
pub fn diagnostics(
    doc: &Document,
    settings: &Settings,
    encoding: Encoding,
    cache: &mut skills_scan::Cache,
) -> Vec<Diagnostic> {
    let lines = Lines::new(&doc.text, encoding);
    let found = match doc.kind {
        Kind::SkillMd => {
            let skill = check_text(&doc.dir, &doc.path, &doc.text, settings.profile);
            validate(&skill, settings.profile)
        }
        Kind::OpenAiYaml => {
            let skill = compiler::check_dir(&doc.dir, &options(settings.profile));
            validate(&skill, settings.profile)
                .into_iter()
                .filter(|d| d.path == doc.path)
                .collect()
        }
        Kind::PluginManifest => {
            let checked =
                compiler::check(std::slice::from_ref(&doc.dir), &options(settings.profile));
            checked
                .diagnostics()
                .filter(|d| d.path == doc.path)
                .cloned()
                .collect()
        }
    };
    let mut out: Vec<Diagnostic> = found
        .iter()
        .map(|d| from_compiler(doc, &lines, d))
        .collect();
    if settings.scan && doc.kind == Kind::SkillMd {
        out.extend(scan(doc, &lines, cache));
    }
    out
}

/// A diagnostic of the compiler as the protocol's: at its label when it is
/// in this document, else at the document's start naming the file.
pub fn from_compiler(doc: &Document, lines: &Lines, d: &compiler::Diagnostic) -> Diagnostic {
    let here = d.path == doc.path;
    let (range, message) = match &d.label {
        Some(label) if here => (
            lines.range(&doc.text, label.bytes.clone()),
            d.message.clone(),
        ),
        _ if here || d.path == doc.dir => (Range::default(), d.message.clone()),
        _ => (
            Range::default(),
            format!("{}: {}", d.path.display(), d.message),
        ),
    };
    let message = match &d.help {
        Some(help) => format!("{message}\nhelp: {help}"),
        None => message,
    };
    let related = (!here)
        .then(|| crate::uri::from_path(&d.path))
        .flatten()
        .map(|uri| {
            let start = d
                .label
                .as_ref()
                .map(|l| {
                    Position::new(
                        u32::try_from(l.start.line.saturating_sub(1)).unwrap_or(u32::MAX),
                        u32::try_from(l.start.column.saturating_sub(1)).unwrap_or(u32::MAX),
                    )
                })
                .unwrap_or_default();
            vec![DiagnosticRelatedInformation {
                location: Location::new(uri, Range::new(start, start)),
                message: d.message.clone(),
            }]
        });
    Diagnostic {
        range,
        severity: Some(match d.severity {
            compiler::Severity::Error => DiagnosticSeverity::ERROR,
            compiler::Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.as_str().into())),
        source: Some(VALIDATE.into()),
        message,
        related_information: related,
        data: Some(serde_json::json!({"slug": d.code.slug()})),
        ..Diagnostic::default()
    }
}

/// The scanner's findings in `doc`'s `SKILL.md`, the folder's other files
/// read from the disk.
fn scan(doc: &Document, lines: &Lines, cache: &mut skills_scan::Cache) -> Vec<Diagnostic> {
    let Some(name) = doc.path.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let given = [skills_scan::SkillFile {
        path: name,
        bytes: doc.text.as_bytes(),
    }];
    let options = skills_scan::Options {
        max_file_bytes: MAX_SKILL_MD,
        ..skills_scan::Options::default()
    };
    let report = match skills_scan::scan_dir_given_cached(&doc.dir, &given, &options, cache) {
        Ok(r) => r,
        Err(e) => {
            return vec![Diagnostic {
                severity: Some(DiagnosticSeverity::WARNING),
                source: Some(SCAN.into()),
                message: e.to_string(),
                ..Diagnostic::default()
            }];
        }
    };
    report
        .findings
        .iter()
        .filter(|f| f.path == name)
        .map(|f| {
            let start = lines.char_position(&doc.text, f.line, f.column);
            let line_end = doc.text[start..]
                .find(['\n', '\r'])
                .map_or(doc.text.len(), |i| start + i);
            Diagnostic {
                range: lines.range(&doc.text, start..line_end),
                severity: Some(match f.severity {
                    skills_scan::Severity::Critical | skills_scan::Severity::High => {
                        DiagnosticSeverity::ERROR
                    }
                    skills_scan::Severity::Medium => DiagnosticSeverity::WARNING,
                    skills_scan::Severity::Low => DiagnosticSeverity::INFORMATION,
                    _ => DiagnosticSeverity::HINT,
                }),
                code: Some(NumberOrString::String(f.rule.code.into())),
                source: Some(SCAN.into()),
                message: format!("{} ({}: {})", f.message, f.severity, f.rule.name),
                ..Diagnostic::default()
            }
        })
        .collect()
}

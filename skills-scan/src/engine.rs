//! One scan: each file classified by how it is used, split into units (the
//! frontmatter, prose, code blocks by language, whole scripts), each unit
//! handed to the analyzers that read that kind of text, and payloads found
//! encoded anywhere decoded and handed to them again.
//!
//! Analyzers report through [`Ctx::report`] with a range in their unit; the
//! context turns it into a file position (a decoded payload is reported where
//! its encoded form starts, with the decoded text as evidence).

use std::ops::Range;

use crate::finding::{Finding, Report, evidence};
use crate::markdown::{self, Block};
use crate::rule::{Rule, Severity, id};
use crate::text::Lines;
use crate::{Options, SkillFile, suppress, unicode};

/// How a file is used, from its name (and first line for scripts without
/// an extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `SKILL.md`: frontmatter and instructions.
    SkillMd,
    /// Other Markdown and plain text: instructions the skill points at.
    Markdown,
    /// A shell script.
    Shell,
    /// A Python script.
    Python,
    /// JavaScript or TypeScript.
    Js,
    /// JSON, YAML, TOML, INI and `.env` files.
    Config,
    /// Anything else that is text.
    Text,
}

impl Kind {
    pub(crate) fn of(path: &str, text: &str) -> Kind {
        let name = path.rsplit('/').next().unwrap_or(path);
        let lower = name.to_ascii_lowercase();
        if path.eq_ignore_ascii_case("skill.md") {
            return Kind::SkillMd;
        }
        let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "md" | "markdown" | "mdx" | "txt" | "rst" | "adoc" => Kind::Markdown,
            "sh" | "bash" | "zsh" | "ksh" | "fish" | "command" | "ps1" | "bat" | "cmd" => {
                Kind::Shell
            }
            "py" | "pyw" | "ipynb" => Kind::Python,
            "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx" => Kind::Js,
            "json" | "jsonc" | "yaml" | "yml" | "toml" | "ini" | "cfg" | "conf" | "plist" => {
                Kind::Config
            }
            _ if lower.starts_with(".env") || lower == "dockerfile" || lower == "makefile" => {
                Kind::Config
            }
            _ => {
                let first = text.lines().next().unwrap_or("");
                if !first.starts_with("#!") {
                    Kind::Text
                } else if first.contains("python") {
                    Kind::Python
                } else if first.contains("node") || first.contains("deno") || first.contains("bun")
                {
                    Kind::Js
                } else {
                    Kind::Shell
                }
            }
        }
    }
}

/// A piece of text an analyzer reads.
#[derive(Debug)]
pub(crate) struct Unit<'a> {
    /// The text.
    pub(crate) text: &'a str,
    /// Where `text` starts in the file, when it is the file's own text.
    base: usize,
    /// Where it came from when it was decoded.
    hidden: Option<Hidden>,
}

#[derive(Debug, Clone)]
struct Hidden {
    /// The encoded form's range in the file.
    at: Range<usize>,
    /// The encodings, outermost first.
    chain: Vec<&'static str>,
}

impl<'a> Unit<'a> {
    /// A slice of the file's text.
    pub(crate) fn slice(&self, range: Range<usize>) -> Unit<'a> {
        Unit {
            text: &self.text[range.clone()],
            base: self.base + range.start,
            hidden: self.hidden.clone(),
        }
    }

    /// Whether this text was decoded from something else.
    pub(crate) fn is_decoded(&self) -> bool {
        self.hidden.is_some()
    }
}

/// The whole skill, for rules that look across files.
#[derive(Debug)]
pub(crate) struct Skill<'a> {
    /// Every file's path.
    pub(crate) paths: Vec<&'a str>,
}

impl Skill<'_> {
    /// Whether the skill ships a file whose path ends with `name`.
    pub(crate) fn ships(&self, name: &str) -> bool {
        let name = name.trim_start_matches("./");
        self.paths
            .iter()
            .any(|p| *p == name || p.ends_with(&format!("/{name}")))
    }
}

/// The analyzers' view of the file being scanned.
#[derive(Debug)]
pub(crate) struct Ctx<'a> {
    path: &'a str,
    text: &'a str,
    lines: Lines,
    pub(crate) skill: &'a Skill<'a>,
    options: &'a Options,
    findings: Vec<Finding>,
    decoded_bytes: usize,
    depth: u8,
}

impl<'a> Ctx<'a> {
    fn new(path: &'a str, text: &'a str, skill: &'a Skill<'a>, options: &'a Options) -> Ctx<'a> {
        Ctx {
            path,
            text,
            lines: Lines::new(text),
            skill,
            options,
            findings: Vec::new(),
            decoded_bytes: 0,
            depth: 0,
        }
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &str {
        self.path
    }

    /// The line (from 1) of `at` in `unit`.
    pub(crate) fn line_of(&self, unit: &Unit<'_>, at: usize) -> u32 {
        self.position(unit, at).0
    }

    fn position(&self, unit: &Unit<'_>, at: usize) -> (u32, u32) {
        let offset = match &unit.hidden {
            Some(h) => h.at.start,
            None => unit.base + at.min(unit.text.len()),
        };
        self.lines.position(self.text, offset)
    }

    /// Reports what `rule` found at `range` of `unit`.
    pub(crate) fn report(
        &mut self,
        unit: &Unit<'_>,
        rule: &'static Rule,
        severity: Severity,
        range: Range<usize>,
        message: String,
    ) {
        let (line, column) = self.position(unit, range.start);
        let end = range.end.min(unit.text.len());
        let start = range.start.min(end);
        let shown = unit.text.get(start..end).unwrap_or("");
        self.findings.push(Finding {
            rule,
            severity,
            path: self.path.to_string(),
            line,
            column,
            message,
            evidence: evidence(shown),
            decoded: unit
                .hidden
                .as_ref()
                .map(|h| h.chain.clone())
                .unwrap_or_default(),
        });
    }

    /// Scans `decoded`, found encoded as `encoding` at `range` of `unit`,
    /// again; what it reports is reported as an encoded payload, one
    /// severity up. Bounded by the options' depth and decoded-size budget.
    pub(crate) fn payload(
        &mut self,
        unit: &Unit<'_>,
        range: Range<usize>,
        encoding: &'static str,
        decoded: &str,
    ) {
        if self.depth >= self.options.max_decode_depth
            || self.decoded_bytes + decoded.len() > self.options.max_decoded_bytes
        {
            return;
        }
        self.decoded_bytes += decoded.len();
        let (at, mut chain) = match &unit.hidden {
            Some(h) => (h.at.clone(), h.chain.clone()),
            None => (unit.base + range.start..unit.base + range.end, Vec::new()),
        };
        chain.push(encoding);
        let inner = Unit {
            text: decoded,
            base: 0,
            hidden: Some(Hidden {
                at,
                chain: chain.clone(),
            }),
        };
        let mark = self.findings.len();
        self.depth += 1;
        analyze_payload(self, &inner);
        self.depth -= 1;
        let found: Vec<Finding> = self.findings.drain(mark..).collect();
        let how = chain.join(" → ");
        for mut f in found {
            if f.severity < Severity::Medium {
                continue;
            }
            if f.rule != id::EncodedPayload && f.rule != id::HiddenText {
                f.message = format!(
                    "{how} payload: {} ({} {})",
                    f.message, f.rule.code, f.rule.name
                );
                f.rule = id::EncodedPayload;
                f.severity = f.severity.raised().max(Severity::High);
            }
            self.findings.push(f);
        }
    }
}

/// Scans the files of one skill.
pub(crate) fn scan(files: &[SkillFile<'_>], options: &Options) -> Report {
    let skill = Skill {
        paths: files.iter().map(|f| f.path).collect(),
    };
    let mut report = Report::default();
    for file in files {
        if file.bytes.len() as u64 > options.max_file_bytes {
            report.skipped.push((
                file.path.to_string(),
                format!("larger than {} bytes", options.max_file_bytes),
            ));
            continue;
        }
        let Ok(text) = std::str::from_utf8(file.bytes) else {
            continue;
        };
        let mut ctx = Ctx::new(file.path, text, &skill, options);
        analyze_file(&mut ctx, Kind::of(file.path, text));
        let mut findings = dedupe(ctx.findings);
        let markers = suppress::markers(text);
        let (kept, suppressed) = suppress::apply(&markers, text, &mut findings);
        report.findings.extend(kept);
        report.suppressed.extend(suppressed);
        for m in markers.iter().filter(|m| m.reason.is_none()) {
            let (line, column) = ctx.lines.position(text, m.at);
            report.findings.push(Finding {
                rule: id::SuppressionWithoutReason,
                severity: Severity::Low,
                path: file.path.to_string(),
                line,
                column,
                message: "this marker has no reason after `--`, so it suppresses nothing".into(),
                evidence: evidence(&text[ctx.lines.line_range(text, line as usize)]),
                decoded: Vec::new(),
            });
        }
    }
    report.findings.sort_by(|a, b| {
        (&a.path, a.line, a.column, a.rule.code).cmp(&(&b.path, b.line, b.column, b.rule.code))
    });
    report
}

/// One finding per rule and line: the most severe.
fn dedupe(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.sort_by(|a, b| {
        (a.line, a.rule.code, std::cmp::Reverse(a.severity), a.column).cmp(&(
            b.line,
            b.rule.code,
            std::cmp::Reverse(b.severity),
            b.column,
        ))
    });
    findings.dedup_by(|b, a| a.line == b.line && a.rule == b.rule);
    findings
}

fn analyze_file(ctx: &mut Ctx<'_>, kind: Kind) {
    let text = ctx.text;
    let whole = Unit {
        text,
        base: 0,
        hidden: None,
    };
    let code = matches!(kind, Kind::Shell | Kind::Python | Kind::Js);
    unicode::scan(ctx, &whole, code);
    match kind {
        Kind::SkillMd | Kind::Markdown => {
            for block in markdown::blocks(text, kind == Kind::SkillMd) {
                match block {
                    Block::Frontmatter(r) => {
                        let _ = whole.slice(r);
                    }
                    Block::Prose(r) => {
                        let _ = whole.slice(r);
                    }
                    Block::Code { body, .. } => {
                        let _ = whole.slice(body);
                    }
                }
            }
        }
        Kind::Shell | Kind::Python | Kind::Js | Kind::Config | Kind::Text => {}
    }
}

/// Decoded text: read as instructions and as code of every language.
fn analyze_payload(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    unicode::scan(ctx, unit, false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_name_and_shebang() {
        assert_eq!(Kind::of("SKILL.md", ""), Kind::SkillMd);
        assert_eq!(Kind::of("references/a.md", ""), Kind::Markdown);
        assert_eq!(
            Kind::of("scripts/run", "#!/usr/bin/env python3\n"),
            Kind::Python
        );
        assert_eq!(Kind::of("scripts/run", "#!/bin/sh\n"), Kind::Shell);
        assert_eq!(Kind::of("assets/.env", ""), Kind::Config);
        assert_eq!(Kind::of("assets/deploy_key", "-----BEGIN"), Kind::Text);
    }
}

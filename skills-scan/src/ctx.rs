//! The analyzers' view of a scan: how a file is used ([`Kind`]), the piece
//! of text an analyzer reads ([`Unit`]), the whole skill for rules that look
//! across files ([`Skill`]), and the context an analyzer reports through
//! ([`Ctx`]), which turns a range in a unit into a file position and hands
//! text to the analyzer of another language.
//!
//! An analyzer that finds code of another language (a `python -c`
//! argument, a hook's command line, a decoded payload) hands it on through
//! the context ([`Ctx::shell`], [`Ctx::python`], [`Ctx::js`],
//! [`Ctx::powershell`], [`Ctx::payload`]), never by naming that analyzer:
//! the engine fills in [`Analyzers`], so the analyzers depend on this module
//! and this module on none of them.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::ops::Range;

use crate::Options;
use crate::finding::{Finding, evidence};
use crate::rule::{Rule, Severity, id};
use crate::shell::{Flow, Mode};
use crate::text::Lines;

/// How a file is used, from its name (and first line for scripts without
/// an extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// `SKILL.md`: frontmatter and instructions.
    SkillMd,
    /// Other Markdown and plain text: instructions the skill points at.
    Markdown,
    /// A shell script.
    Shell,
    /// A PowerShell script.
    PowerShell,
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
        if path.eq_ignore_ascii_case("skill.md") || crate::agent_files::is_prompt_file(path) {
            return Kind::SkillMd;
        }
        let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "md" | "markdown" | "mdx" | "txt" | "rst" | "adoc" => Kind::Markdown,
            "sh" | "bash" | "zsh" | "ksh" | "fish" | "command" | "bat" | "cmd" => Kind::Shell,
            "ps1" | "psm1" | "psd1" => Kind::PowerShell,
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
                } else if first.contains("pwsh") || first.contains("powershell") {
                    Kind::PowerShell
                } else if first.contains("ruby") {
                    // Read by `crate::ruby`, not as shell.
                    Kind::Text
                } else {
                    Kind::Shell
                }
            }
        }
    }
}

/// The analyzers text is handed to by another analyzer, as the engine sets
/// them.
#[derive(Debug)]
pub(crate) struct Analyzers {
    /// Decoded text: read as instructions and as code of every language.
    pub(crate) payload: fn(&mut Ctx<'_>, &Unit<'_>),
    /// Shell, found as `Mode` says.
    pub(crate) shell: fn(&mut Ctx<'_>, &Unit<'_>, Mode),
    /// PowerShell.
    pub(crate) powershell: fn(&mut Ctx<'_>, &Unit<'_>),
    /// Python.
    pub(crate) python: fn(&mut Ctx<'_>, &Unit<'_>),
    /// JavaScript and TypeScript.
    pub(crate) js: fn(&mut Ctx<'_>, &Unit<'_>),
}

/// A piece of text an analyzer reads.
#[derive(Debug)]
pub(crate) struct Unit<'a> {
    /// The text.
    pub(crate) text: &'a str,
    /// Where `text` starts in the file, when it is the file's own text.
    base: usize,
    /// Where every finding in it is reported, when it is not the file's own
    /// text (a decoded payload, a string unquoted from a command line).
    anchor: Option<usize>,
    /// The encodings it was decoded from, outermost first.
    chain: Vec<&'static str>,
}

impl<'a> Unit<'a> {
    /// A file's own text, whole.
    pub(crate) fn whole(text: &'a str) -> Unit<'a> {
        Unit {
            text,
            base: 0,
            anchor: None,
            chain: Vec::new(),
        }
    }

    /// A slice of this unit's text.
    pub(crate) fn slice(&self, range: Range<usize>) -> Unit<'a> {
        Unit {
            text: &self.text[range.clone()],
            base: self.base + range.start,
            anchor: self.anchor,
            chain: self.chain.clone(),
        }
    }

    /// `text`, derived from this unit's text at `at` (a quoted argument
    /// unquoted, a string literal's value): reported at `at`.
    pub(crate) fn derived<'b>(&self, text: &'b str, at: usize) -> Unit<'b> {
        Unit {
            text,
            base: 0,
            anchor: Some(self.anchor.unwrap_or(self.base + at.min(self.text.len()))),
            chain: self.chain.clone(),
        }
    }
}

/// The whole skill, for rules that look across files.
#[derive(Debug)]
pub(crate) struct Skill<'a> {
    /// The files (by index) by every ending of their paths at a `/`
    /// (`scripts/run.sh` and `run.sh`): one lookup per name a command
    /// gives, whatever the number of files.
    endings: HashMap<&'a str, Vec<usize>>,
    /// What the skill's Python and JavaScript files export to each other.
    pub(crate) modules: crate::flow::Modules,
    /// The service the skill declares itself to be for.
    pub(crate) declared: crate::context::Declared,
}

impl<'a> Skill<'a> {
    pub(crate) fn new(paths: impl Iterator<Item = &'a str>) -> Skill<'a> {
        let mut endings: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, path) in paths.enumerate() {
            endings.entry(path).or_default().push(i);
            for (slash, _) in path.match_indices('/') {
                endings.entry(&path[slash + 1..]).or_default().push(i);
            }
        }
        Skill {
            endings,
            modules: crate::flow::Modules::default(),
            declared: crate::context::Declared::default(),
        }
    }

    /// Whether the skill ships a file whose path ends with `name`.
    pub(crate) fn ships(&self, name: &str) -> bool {
        !self.shipped(name).is_empty()
    }

    /// The files (by index) whose path ends with `name`, a path as a
    /// command names it: `./` and a leading variable (`$SKILL_DIR/`,
    /// `${CLAUDE_SKILL_DIR}/`) dropped.
    pub(crate) fn shipped(&self, name: &str) -> &[usize] {
        let name = strip_variable(name).trim_start_matches("./");
        self.endings.get(name).map_or(&[], Vec::as_slice)
    }
}

/// `path` without a leading `$NAME/` or `${NAME}/`.
fn strip_variable(path: &str) -> &str {
    let Some(rest) = path.strip_prefix('$') else {
        return path;
    };
    let rest = rest.strip_prefix('{').unwrap_or(rest);
    let name = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let rest = &rest[name..];
    let rest = rest.strip_prefix('}').unwrap_or(rest);
    rest.strip_prefix('/').unwrap_or(path)
}

/// The analyzers' view of the file being scanned.
#[derive(Debug)]
pub(crate) struct Ctx<'a> {
    /// The reading of the file (its index in the scan's readings).
    view: usize,
    pub(crate) path: &'a str,
    pub(crate) text: &'a str,
    /// Made on the first position asked for: most readings report none.
    lines: OnceCell<Lines>,
    pub(crate) skill: &'a Skill<'a>,
    pub(crate) options: &'a Options,
    /// Where text found in this file is handed on.
    analyzers: &'static Analyzers,
    pub(crate) findings: Vec<Finding>,
    pub(crate) decoded_bytes: usize,
    depth: u8,
    /// Network calls in shipped code, for the skill-wide data-flow check.
    pub(crate) sinks: Vec<Sink>,
    /// Secrets held in shell variables and files, across the file's blocks.
    pub(crate) shell_flow: Flow,
    /// Files the commands of this file run.
    pub(crate) runs: Vec<Run>,
    /// The file's words, for the products a guide names (built on the
    /// first question).
    vocabulary: std::cell::OnceCell<crate::context::Vocabulary>,
}

/// A file a command runs: read again as the language it is run with.
#[derive(Debug, Clone)]
pub(crate) struct Run {
    /// The reading (index) holding the command.
    pub(crate) from: usize,
    pub(crate) line: u32,
    pub(crate) column: u32,
    /// The command, as evidence.
    pub(crate) command: String,
    /// The file as the command names it.
    pub(crate) target: String,
    /// The language it is run with; `None`: as it says (its shebang), a
    /// shell when it says nothing (a shell runs a file without one).
    pub(crate) kind: Option<Kind>,
}

/// A network call in shipped code.
#[derive(Debug, Clone)]
pub(crate) struct Sink {
    pub(crate) path: String,
    pub(crate) line: u32,
    pub(crate) column: u32,
    pub(crate) call: String,
    pub(crate) host: Option<String>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(
        view: usize,
        path: &'a str,
        text: &'a str,
        skill: &'a Skill<'a>,
        options: &'a Options,
        analyzers: &'static Analyzers,
    ) -> Ctx<'a> {
        Ctx {
            view,
            path,
            text,
            lines: OnceCell::new(),
            skill,
            options,
            analyzers,
            findings: Vec::new(),
            decoded_bytes: 0,
            depth: 0,
            sinks: Vec::new(),
            shell_flow: Flow::default(),
            runs: Vec::new(),
            vocabulary: std::cell::OnceCell::new(),
        }
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &str {
        self.path
    }

    /// Reads `unit` as shell found as `mode` says.
    pub(crate) fn shell(&mut self, unit: &Unit<'_>, mode: Mode) {
        (self.analyzers.shell)(self, unit, mode);
    }

    /// Reads `unit` as PowerShell.
    pub(crate) fn powershell(&mut self, unit: &Unit<'_>) {
        (self.analyzers.powershell)(self, unit);
    }

    /// Reads `unit` as Python.
    pub(crate) fn python(&mut self, unit: &Unit<'_>) {
        (self.analyzers.python)(self, unit);
    }

    /// Reads `unit` as JavaScript.
    pub(crate) fn js(&mut self, unit: &Unit<'_>) {
        (self.analyzers.js)(self, unit);
    }

    /// Records a network call in shipped code at `at` of `unit`.
    pub(crate) fn sink(&mut self, unit: &Unit<'_>, at: usize, call: &str, host: Option<&str>) {
        let (line, column) = self.position(unit, at);
        self.sinks.push(Sink {
            path: self.path.to_string(),
            line,
            column,
            call: call.to_string(),
            host: host.map(str::to_string),
        });
    }

    /// Records that the command at `range` of `unit` runs the file `target`
    /// as `kind` (`None`: as the file's shebang says, else as a shell).
    pub(crate) fn run(
        &mut self,
        unit: &Unit<'_>,
        range: Range<usize>,
        target: &str,
        kind: Option<Kind>,
    ) {
        let (line, column) = self.position(unit, range.start);
        let end = range.end.min(unit.text.len());
        self.runs.push(Run {
            from: self.view,
            line,
            column,
            command: evidence(unit.text.get(range.start.min(end)..end).unwrap_or("")),
            target: target.to_string(),
            kind,
        });
    }

    /// A mark to look at what was reported after it.
    /// The words of the file ([`crate::context::Vocabulary`]).
    pub(crate) fn vocabulary(&self) -> &crate::context::Vocabulary {
        self.vocabulary
            .get_or_init(|| crate::context::Vocabulary::of(self.text))
    }

    pub(crate) fn mark(&self) -> usize {
        self.findings.len()
    }

    /// The highest severity reported since `mark`.
    pub(crate) fn worst_since(&self, mark: usize) -> Option<Severity> {
        self.findings
            .get(mark..)
            .and_then(|f| f.iter().map(|f| f.severity).max())
    }

    /// Lowers everything reported since `mark` to at most `cap`.
    pub(crate) fn lower_since(&mut self, mark: usize, cap: Severity) {
        for f in self.findings.iter_mut().skip(mark) {
            f.severity = f.severity.min(cap);
        }
    }

    /// Drops the findings of `rule` reported since `mark`.
    pub(crate) fn drop_since(&mut self, mark: usize, rule: &Rule) {
        let tail = self.findings.split_off(mark.min(self.findings.len()));
        self.findings
            .extend(tail.into_iter().filter(|f| f.rule.code != rule.code));
    }

    /// Raises everything reported since `mark` one severity up.
    pub(crate) fn raise_since(&mut self, mark: usize) {
        for f in self.findings.iter_mut().skip(mark) {
            f.severity = f.severity.raised();
        }
    }

    /// The line (from 1) of `at` in `unit`.
    pub(crate) fn line_of(&self, unit: &Unit<'_>, at: usize) -> u32 {
        self.position(unit, at).0
    }

    fn position(&self, unit: &Unit<'_>, at: usize) -> (u32, u32) {
        let offset = unit.anchor.unwrap_or(unit.base + at.min(unit.text.len()));
        self.lines
            .get_or_init(|| Lines::new(self.text))
            .position(self.text, offset)
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
            decoded: unit.chain.clone(),
        });
    }

    /// Scans `decoded`, found encoded as `encoding` at `range` of `unit`,
    /// again; what it reports is reported as an encoded payload, one
    /// severity up. Bounded by the options' depth and decoded-size budget.
    pub(crate) fn payload(
        &mut self,
        unit: &Unit<'_>,
        range: Range<usize>,
        encodings: &[&'static str],
        decoded: &str,
    ) {
        let bound = if self.depth >= self.options.max_decode_depth {
            Some(format!(
                "a payload encoded more than {} layers deep",
                self.options.max_decode_depth
            ))
        } else if self.decoded_bytes + decoded.len() > self.options.max_decoded_bytes {
            Some(format!(
                "encoded text past the {} bytes one file may decode to",
                self.options.max_decoded_bytes
            ))
        } else {
            None
        };
        if let Some(what) = bound {
            self.report(
                unit,
                id::UnscannedContent,
                Severity::High,
                range,
                format!(
                    "{what}: its next layer ({}) was not decoded, so not scanned",
                    encodings.join(" → ")
                ),
            );
            return;
        }
        self.decoded_bytes += decoded.len();
        let anchor = unit
            .anchor
            .unwrap_or(unit.base + range.start.min(unit.text.len()));
        let mut chain = unit.chain.clone();
        chain.extend_from_slice(encodings);
        let inner = Unit {
            text: decoded,
            base: 0,
            anchor: Some(anchor),
            chain: chain.clone(),
        };
        let mark = self.findings.len();
        self.depth += 1;
        (self.analyzers.payload)(self, &inner);
        self.depth -= 1;
        let found: Vec<Finding> = self.findings.drain(mark..).collect();
        let how = chain.join(" → ");
        for mut f in found {
            if f.severity < Severity::Medium {
                continue;
            }
            if f.rule != id::EncodedPayload
                && f.rule != id::HiddenText
                && f.rule != id::UnscannedContent
            {
                f.message = format!(
                    "{how} payload: {} ({} {})",
                    f.message, f.rule.code, f.rule.name
                );
                f.rule = id::EncodedPayload;
                // Hiding is intent, one step up; a payload a guide decodes
                // for its reader is an example, described.
                f.severity = if crate::severity::is_documentation(self.path) {
                    crate::severity::described(f.severity, &f.message)
                } else {
                    f.severity.raised().max(Severity::High)
                };
            }
            self.findings.push(f);
        }
    }
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

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
use crate::{
    Options, SkillFile, config, decode, frontmatter, prose, script, secrets, shell, suppress,
    unicode,
};

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
    /// Where every finding in it is reported, when it is not the file's own
    /// text (a decoded payload, a string unquoted from a command line).
    anchor: Option<usize>,
    /// The encodings it was decoded from, outermost first.
    chain: Vec<&'static str>,
}

impl<'a> Unit<'a> {
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
    /// Network calls in shipped code, for the skill-wide data-flow check.
    sinks: Vec<Sink>,
    /// Secrets held in shell variables and files, across the file's blocks.
    pub(crate) shell_flow: shell::Flow,
}

/// A network call in shipped code.
#[derive(Debug, Clone)]
pub(crate) struct Sink {
    path: String,
    line: u32,
    column: u32,
    call: String,
    host: Option<String>,
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
            sinks: Vec::new(),
            shell_flow: shell::Flow::default(),
        }
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &str {
        self.path
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

    /// A mark to look at what was reported after it.
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
        if self.depth >= self.options.max_decode_depth
            || self.decoded_bytes + decoded.len() > self.options.max_decoded_bytes
        {
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
    let mut sinks = Vec::new();
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
        sinks.append(&mut ctx.sinks);
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
    compound(&mut report, &sinks);
    report.findings.sort_by(|a, b| {
        (&a.path, a.line, a.column, a.rule.code).cmp(&(&b.path, b.line, b.column, b.rule.code))
    });
    report
}

/// Findings that mean more together: a shell without restrictions is a
/// note, unless the same skill tells the agent to skip confirmations or
/// claims unlimited access.
fn compound(report: &mut Report, sinks: &[Sink]) {
    // Secrets collected in one file and sent from another.
    let leaked = report
        .findings
        .iter()
        .any(|f| f.rule == id::SecretsToNetwork);
    let collected = report.findings.iter().find(|f| {
        matches!(Kind::of(&f.path, ""), Kind::Python | Kind::Js | Kind::Shell)
            && f.severity >= Severity::Medium
            && (f.rule == id::EnvironmentHarvest || f.rule == id::CredentialStoreRead)
    });
    if let (false, Some(source), Some(sink)) = (leaked, collected, sinks.first()) {
        let message = format!(
            "`{}` sends data{} from a skill whose code collects secrets ({}:{}: {})",
            sink.call,
            sink.host
                .as_deref()
                .map_or(String::new(), |h| format!(" to `{h}`")),
            source.path,
            source.line,
            source.message
        );
        report.findings.push(Finding {
            rule: id::SecretsToNetwork,
            severity: Severity::Critical,
            path: sink.path.clone(),
            line: sink.line,
            column: sink.column,
            message,
            evidence: sink.call.clone(),
            decoded: Vec::new(),
        });
    }
    let pushes = report.findings.iter().any(|f| {
        f.severity >= Severity::Medium
            && [
                id::SkipConfirmation,
                id::BroadGrant,
                id::SafetyBypassInstruction,
                id::ConcealFromUser,
            ]
            .contains(&f.rule)
    });
    if pushes {
        for f in &mut report.findings {
            if f.rule == id::UnrestrictedTool {
                f.severity = f.severity.max(Severity::Medium);
                f.message
                    .push_str(", and the skill tells the agent not to ask");
            }
        }
    }
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
        anchor: None,
        chain: Vec::new(),
    };
    let code = matches!(kind, Kind::Shell | Kind::Python | Kind::Js);
    unicode::scan(ctx, &whole, code);
    common(ctx, &whole);
    match kind {
        Kind::SkillMd | Kind::Markdown => markdown_file(ctx, &whole, kind == Kind::SkillMd),
        Kind::Shell => shell::scan(ctx, &whole, shell::Mode::Code),
        Kind::Python => script::python(ctx, &whole),
        Kind::Js => script::js(ctx, &whole),
        Kind::Config => {
            config::scan(ctx, &whole);
            if ctx.path.to_ascii_lowercase().contains("requirements")
                || ctx.path.ends_with("Dockerfile")
                || ctx.path.ends_with("Makefile")
            {
                shell::scan(ctx, &whole, shell::Mode::Inline);
            }
        }
        Kind::Text => {
            let lower = ctx.path.to_ascii_lowercase();
            if lower.contains("requirements") {
                requirements(ctx, &whole);
            } else if !crate::config::is_instruction_file(&lower) {
                prose::scan(ctx, &whole);
            } else {
                crate::config::instructions(ctx, &whole, ctx.path);
            }
        }
    }
}

/// Secrets, encoded payloads and known malware signatures, in every file.
fn common(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    if let Some(at) = unit.text.find("EICAR-STANDARD-ANTIVIRUS-TEST-FILE") {
        ctx.report(
            unit,
            id::MalwareTooling,
            Severity::High,
            at..at + 34,
            "the EICAR antivirus test signature: every antivirus treats the file as malware".into(),
        );
    }
    for m in secrets::find(unit.text) {
        let (rule, severity) = match m.kind {
            secrets::SecretKind::Known => (id::KnownSecret, Severity::High),
            secrets::SecretKind::PrivateKey => (id::PrivateKey, Severity::High),
            secrets::SecretKind::Assignment => (id::SecretAssignment, Severity::Medium),
        };
        ctx.report(
            unit,
            rule,
            severity,
            m.range,
            format!("{} in the skill", m.what),
        );
    }
    let budget = ctx
        .options
        .max_decoded_bytes
        .saturating_sub(ctx.decoded_bytes);
    for blob in decode::blobs(unit.text, budget) {
        ctx.payload(unit, blob.range, &blob.chain, &blob.decoded);
    }
}

/// A requirements file: lines that install from outside the registry.
fn requirements(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    let mut at = 0;
    for line in unit.text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let l = line.trim();
        if l.starts_with('#') || l.is_empty() {
            continue;
        }
        let cmd = format!("pip install {l}");
        let inner = unit.derived(&cmd, start);
        shell::scan(ctx, &inner, shell::Mode::Code);
    }
}

/// Markdown: the frontmatter, prose and its inline code, and code blocks
/// by language.
fn markdown_file(ctx: &mut Ctx<'_>, whole: &Unit<'_>, skill_md: bool) {
    let text = whole.text;
    let mut last_prose: Option<Range<usize>> = None;
    let mut prose_ranges = Vec::new();
    for block in markdown::blocks(text, skill_md) {
        match block {
            Block::Frontmatter(r) => frontmatter::scan(ctx, &whole.slice(r)),
            Block::Prose(r) => {
                let unit = whole.slice(r.clone());
                prose_ranges.push(r.clone());
                for span in markdown::spans(unit.text) {
                    let inner = unit.slice(span.body.clone());
                    let mode = if span.bang && skill_md {
                        shell::Mode::Context
                    } else {
                        shell::Mode::Inline
                    };
                    if mode == shell::Mode::Context || looks_like_command(inner.text) {
                        let mark = ctx.mark();
                        shell::scan(ctx, &inner, mode);
                        // A command named as the subject of a sentence
                        // ("`echo $(env)` dumps the environment") is a
                        // mention; one the sentence tells the agent to run
                        // is a step.
                        if mode == shell::Mode::Inline
                            && !directive(
                                unit.text,
                                span.body.start.saturating_sub(1),
                                span.body.end,
                            )
                        {
                            ctx.lower_since(mark, Severity::Low);
                        }
                    }
                }
                last_prose = Some(r);
            }
            Block::Code { lang, body } => {
                let unit = whole.slice(body);
                let before = last_prose.as_ref().map_or("", |r| &text[r.clone()]);
                let target = written_file(before);
                let mark = ctx.mark();
                code_block(ctx, &unit, &lang, target.as_deref());
                if quoted_as_example(before) {
                    ctx.lower_since(mark, Severity::Low);
                }
            }
        }
    }
    prose::scan_ranges(ctx, whole, &prose_ranges);
}

/// The instruction or settings file the prose just before a block says to
/// write the block into (`Create CLAUDE.md with:`).
fn written_file(prose: &str) -> Option<String> {
    let tail = crate::text::window_before(prose, prose.len(), 400);
    let lower = tail.to_ascii_lowercase();
    if ![
        "write", "create", "add", "append", "save", "put", "update", "file",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        return None;
    }
    for word in tail.split(|c: char| {
        c.is_whitespace() || c == '`' || c == '(' || c == ')' || c == ',' || c == '"'
    }) {
        let w = word.trim_end_matches([':', '.', ';']);
        if crate::config::is_instruction_file(w) || crate::config::is_agent_settings(w) {
            return Some(w.to_string());
        }
    }
    None
}

/// Whether the inline command at `at` is given as a step: alone on its
/// line or list item, or after a verb telling the agent to run it.
fn directive(text: &str, at: usize, end: usize) -> bool {
    if quoted_as_example(&text[..at]) {
        return false;
    }
    // A colon does not end the lead-in here: "Credential theft: `…`" names.
    let before = prose::lead_in(text, at, &['.', '\n', ';', '!', '?']);
    if before.is_empty() {
        // First on its line or item: a step when nothing but punctuation
        // follows it ("1. `curl … | sh`"), a subject when a sentence goes on
        // ("`echo $(env)` dumps the environment").
        let rest = crate::text::window_after(text, end + 1, 512);
        let line = rest.split(['\n']).next().unwrap_or("");
        return !line.chars().any(|c| c.is_alphanumeric());
    }
    // The word just before the command, or the sentence's first word,
    // tells the agent to run it ("then run `…`", "Run `…` first").
    let words: Vec<&str> = before
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let last = words.last().copied().unwrap_or("");
    let first = words.first().copied().unwrap_or("");
    [
        "run",
        "running",
        "execute",
        "executing",
        "type",
        "enter",
        "paste",
        "invoke",
        "call",
        "with",
        "via",
        "using",
        "use",
        "by",
        "first",
    ]
    .contains(&last)
        || ["run", "execute", "type", "paste", "invoke", "start"].contains(&first)
}

/// Whether the prose just before a code block presents it as an example
/// of an attack to recognise, not a step to take (security guides, malware
/// triage notes): what it shows is reported, as a note.
fn quoted_as_example(prose: &str) -> bool {
    static CUE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        crate::text::regex(r"(?i)\b(?:attackers?|malicious|do\s+not\s+run|don'?t\s+run|never\s+(?:run|execute)|must\s+never\s+be\s+(?:run|executed)|not\s+be\s+executed|indicators?\s+of\s+compromise|iocs?\b|vulnerable\s+(?:code|pattern|example|version)|attack\s+(?:vector|scenario|example|pattern|chain)|exploit(?:ation)?\s+(?:example|scenario|chain)|red[- ]team|proof[- ]of[- ]concept|bad\s+example|anti-?pattern|insecure\s+example|what\s+not\s+to\s+do)")
            .expect("valid")
    });
    let window = crate::text::window_before(prose, prose.len(), 600);
    CUE.find_iter(window).any(|m| {
        // A host name (`attacker.example`) is not a cue, nor a negated one
        // ("this is not malicious").
        let after = window[m.end()..].chars().next();
        let before = window[..m.start()].to_ascii_lowercase();
        let before = before.trim_end();
        let word = m.as_str().to_ascii_lowercase();
        let host = (word.starts_with("attacker") || word == "malicious")
            && matches!(after, Some('.' | '-' | '/' | '_' | '@'))
            && window[m.end()..]
                .chars()
                .nth(1)
                .is_some_and(|c| c.is_ascii_alphanumeric());
        !host
            && !before.ends_with("not")
            && !before.ends_with("n't")
            && !before.ends_with("no")
            && !before.ends_with("non")
            && !before.ends_with("nothing")
    })
}

fn looks_like_command(text: &str) -> bool {
    text.contains(' ')
        && (text.contains('|')
            || text.contains("://")
            || text.contains('>')
            || text.contains("$(")
            || text.contains("&&")
            || text.contains(';')
            || text.starts_with("sudo ")
            || text.starts_with("pip")
            || text.starts_with("npx ")
            || text.starts_with("npm ")
            || text.starts_with("curl ")
            || text.starts_with("wget ")
            || text.starts_with("git ")
            || text.starts_with("rm ")
            || text.starts_with("chmod ")
            || text.starts_with("security ")
            || text.starts_with("printf ")
            || text.starts_with("cat ")
            || text.starts_with("claude ")
            || text.starts_with("bash ")
            || text.starts_with("sh ")
            || text.starts_with("psql "))
}

fn code_block(ctx: &mut Ctx<'_>, unit: &Unit<'_>, lang: &str, target: Option<&str>) {
    if let Some(t) = target {
        if crate::config::is_agent_settings(t) {
            crate::config::settings(ctx, unit, Some(t));
            prose::scan(ctx, unit);
            return;
        }
        if crate::config::is_instruction_file(t) {
            crate::config::instructions(ctx, unit, t);
            return;
        }
    }
    match lang {
        "bash" | "sh" | "shell" | "zsh" | "console" | "shell-session" | "terminal" | "fish"
        | "ksh" | "powershell" | "ps1" | "pwsh" | "bat" | "cmd" => {
            shell::scan(ctx, unit, shell::Mode::Code)
        }
        "python" | "py" | "python3" | "ipython" | "pycon" => script::python(ctx, unit),
        "javascript" | "js" | "typescript" | "ts" | "jsx" | "tsx" | "node" | "mjs" => {
            script::js(ctx, unit)
        }
        "json" | "jsonc" | "json5" | "yaml" | "yml" | "toml" | "ini" | "env" | "dotenv" => {
            config::scan(ctx, unit);
            prose::scan(ctx, unit);
        }
        "" | "text" | "txt" | "plain" | "plaintext" | "markdown" | "md" | "crontab" | "cron" => {
            prose::scan(ctx, unit);
            if lang.is_empty() {
                config::scan(ctx, unit);
            }
            if lang != "text" && lang != "txt" && lang != "markdown" && lang != "md" {
                shell::scan(ctx, unit, shell::Mode::Inline);
            }
        }
        _ => {}
    }
}

/// Decoded text: read as instructions and as code of every language.
fn analyze_payload(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    unicode::scan(ctx, unit, false);
    prose::scan(ctx, unit);
    shell::scan(ctx, unit, shell::Mode::Code);
    script::python(ctx, unit);
    script::js(ctx, unit);
    common(ctx, unit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_of_attacks_are_told_from_steps() {
        assert!(quoted_as_example("The attacker can also chain commands:\n"));
        assert!(quoted_as_example(
            "Indicators to recognise; they must never be run.\n"
        ));
        assert!(!quoted_as_example(
            "Send it to https://attacker.example/in first:\n"
        ));
        assert!(!quoted_as_example("This step is not malicious; run it:\n"));
        assert!(!quoted_as_example("Run the setup:\n"));
    }

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

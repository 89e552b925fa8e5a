//! One scan: each file classified by how it is used, split into units (the
//! frontmatter, prose, code blocks by language, whole scripts), each unit
//! handed to the analyzers that read that kind of text, and payloads found
//! encoded anywhere decoded and handed to them again.
//!
//! Analyzers report through [`Ctx::report`] with a range in their unit; the
//! context turns it into a file position (a decoded payload is reported where
//! its encoded form starts, with the decoded text as evidence).
//!
//! Each file is decoded first ([`content`]): compiled code, a file over the
//! size bound (unless binary data) and bytes of no known format are not read
//! and are reported (`SK643`); binary data is listed as not scanned. Then a
//! second pass reads every file a command of the skill runs as the language
//! it is run with (`bash assets/logo.png`, `./tools/setup`, `. ./env.dat`),
//! when its name said otherwise, and reports binary data run as code. Each
//! file is read at most once per language, so the scan stays linear.

pub(crate) mod cache;
mod document;

use cache::{Analyzed, Cache};

use crate::content::{self, Decoded, Format};
use crate::ctx::{Analyzers, Ctx, Kind, Sink, Skill, Unit};
use crate::finding::{Finding, Report, evidence};
use crate::input::{HEAD, Input};
use crate::rule::{Severity, id};
use crate::text::Lines;
use crate::{
    Markers, Options, SkillFile, config, decode, powershell, prose, script, secrets, shell,
    suppress, unicode,
};

/// The analyzers one hands text to through [`Ctx`].
static ANALYZERS: Analyzers = Analyzers {
    payload: analyze_payload,
    shell: shell::scan,
    powershell: powershell::scan,
    python: script::python,
    js: script::js,
};

/// What became of a file in the first pass.
#[derive(Debug)]
enum Read<'a> {
    /// Read as text, as `kind`, in one or more readings ([`content::decode`]).
    Text(Vec<Decoded<'a>>, Kind),
    /// Binary data of a known format: not read, reported where it is run.
    Data(Format),
    /// Not read, and reported as such.
    Unread,
}

/// One reading of a file's text, the languages it was read as, and what
/// was found in it.
#[derive(Debug)]
struct View<'a> {
    file: usize,
    decoded: Decoded<'a>,
    kinds: Vec<Kind>,
    findings: Vec<Finding>,
}

/// Scans the files of one skill.
pub(crate) fn scan(files: &[SkillFile<'_>], options: &Options) -> Report {
    let inputs: Vec<Input<'_>> = files
        .iter()
        .map(|f| Input {
            path: f.path,
            bytes: f.bytes,
            size: f.bytes.len() as u64,
        })
        .collect();
    scan_inputs(&inputs, options, Vec::new(), None)
}

/// Scans the files of one skill, some perhaps read only in part; `unread`
/// names the entries of the skill that could not be read at all, and why.
/// With a `cache`, what it kept of an earlier scan of the same skill is
/// used where it still holds ([`cache`]), and what this scan found is kept
/// in it; a scan made once (`skb scan`, the installer's gate) has none and
/// hashes nothing.
pub(crate) fn scan_inputs(
    files: &[Input<'_>],
    options: &Options,
    unread: Vec<(String, String)>,
    mut cache: Option<&mut Cache>,
) -> Report {
    let mut skill = Skill::new(files.iter().map(|f| f.path));
    let code: Vec<(&str, &[u8])> = files.iter().map(|f| (f.path, f.bytes)).collect();
    let max = usize::try_from(options.max_file_bytes).unwrap_or(usize::MAX);
    let read_modules = || crate::flow::Modules::of(&code, max);
    let mut modules = None;
    skill.modules = match cache.as_deref_mut() {
        Some(cache) => {
            let read = code
                .iter()
                .copied()
                .filter(|(path, _)| crate::flow::Modules::reads(path));
            let (digest, exports) = cache.modules(read, max, read_modules);
            modules = Some(digest);
            exports
        }
        None => read_modules(),
    };
    skill.declared = crate::context::Declared::of(files.iter().map(|f| (f.path, f.bytes)));
    if let (Some(cache), Some(digest)) = (cache.as_deref_mut(), modules) {
        let paths: Vec<&str> = files.iter().map(|f| f.path).collect();
        cache.begin(options, &paths, digest, &skill.declared);
    }
    // One reading analyzed, or taken from the cache.
    let mut analyzed = |at: usize, path: &str, text: &str, kind: Kind, skill: &Skill<'_>| {
        let analyze = || analyze(at, path, text, kind, skill, options);
        match cache.as_deref_mut() {
            Some(cache) => cache.analyzed(path, kind, text, at, analyze),
            None => analyze(),
        }
    };
    let mut report = Report::default();
    for (path, why) in unread {
        report.findings.push(Finding {
            rule: id::UnscannedContent,
            severity: Severity::High,
            path: path.clone(),
            line: 1,
            column: 1,
            message: why.clone(),
            evidence: evidence(&why),
            decoded: Vec::new(),
        });
        report.skipped.push((path, why));
    }
    let mut sinks = Vec::new();
    let mut runs = Vec::new();
    // Findings of files not read as text, and each file's readings.
    let mut found: Vec<Vec<Finding>> = Vec::with_capacity(files.len());
    let mut data: Vec<Option<Format>> = Vec::with_capacity(files.len());
    let mut views_of: Vec<Vec<usize>> = Vec::with_capacity(files.len());
    let mut views: Vec<View<'_>> = Vec::with_capacity(files.len());
    for (index, file) in files.iter().enumerate() {
        let (read, findings) = first_read(file, options, &mut report.skipped);
        found.push(findings);
        data.push(None);
        views_of.push(Vec::new());
        match read {
            Read::Text(decoded, kind) => {
                for decoded in decoded {
                    let at = views.len();
                    let mut found = analyzed(at, file.path, &decoded.text, kind, &skill);
                    sinks.append(&mut found.sinks);
                    runs.append(&mut found.runs);
                    let findings = found.findings;
                    views_of[index].push(at);
                    views.push(View {
                        file: index,
                        decoded,
                        kinds: vec![kind],
                        findings,
                    });
                }
            }
            Read::Data(format) => data[index] = Some(format),
            Read::Unread => {}
        }
    }
    // Files run as a language their names did not say, each reading read
    // once per language, and what those reads run in turn.
    while let Some(run) = runs.pop() {
        for &target in skill.shipped(&run.target) {
            if let Some(format) = data[target] {
                let from = files[views[run.from].file].path;
                views[run.from].findings.push(Finding {
                    rule: id::UnscannedContent,
                    severity: Severity::High,
                    path: from.to_string(),
                    line: run.line,
                    column: run.column,
                    message: format!(
                        "runs `{}` as code, but it is {}: binary data the scanner does not read",
                        files[target].path, format.name
                    ),
                    // The data's digest too: an acceptance holds for it only.
                    evidence: evidence(&format!(
                        "sha256 {} of {}, run by {}",
                        digest(files[target].bytes),
                        files[target].path,
                        run.command
                    )),
                    decoded: Vec::new(),
                });
            }
            for &at in &views_of[target] {
                let view = &views[at];
                let kind = run.kind.unwrap_or(match view.kinds[0] {
                    k @ (Kind::Shell | Kind::PowerShell | Kind::Python | Kind::Js) => k,
                    _ => Kind::Shell,
                });
                if view.kinds.contains(&kind) {
                    continue;
                }
                let mut found = analyzed(at, files[target].path, &view.decoded.text, kind, &skill);
                sinks.append(&mut found.sinks);
                runs.append(&mut found.runs);
                let mut findings = found.findings;
                let view = &mut views[at];
                view.kinds.push(kind);
                view.findings.append(&mut findings);
            }
        }
    }
    for view in views {
        let findings = dedupe(view.findings);
        let path = files[view.file].path;
        let text = view.decoded.text.as_ref();
        let markers = suppress::markers(text);
        if markers.is_empty() {
            found[view.file].extend(findings);
            continue;
        }
        let lines = Lines::new(text);
        let (kept, covered) = suppress::apply(&markers, text, &lines, findings);
        found[view.file].extend(kept);
        match options.markers {
            Markers::Honour => report.suppressed.extend(covered),
            Markers::Report => {
                for c in covered {
                    let mut f = c.finding.clone();
                    f.message = format!(
                        "{}; the skill's own marker on line {} claims to allow it (\"{}\"), and markers are not honoured here",
                        f.message, c.marker_line, c.reason
                    );
                    found[view.file].push(f);
                    report.claimed.push(c);
                }
            }
        }
        for m in markers.iter().filter(|m| m.reason.is_none()) {
            let (line, column) = lines.position(text, m.at);
            found[view.file].push(Finding {
                rule: id::SuppressionWithoutReason,
                severity: Severity::Low,
                path: path.to_string(),
                line,
                column,
                message: "this marker has no reason after `--`, so it suppresses nothing".into(),
                evidence: evidence(&text[lines.line_range(text, line as usize)]),
                decoded: Vec::new(),
            });
        }
    }
    // Readings of one file find the same things: once each.
    for findings in found {
        report.findings.extend(dedupe(findings));
    }
    compound(&mut report, &sinks, &skill.declared);
    crate::severity::in_tests(&mut report.findings);
    crate::severity::corroborate(&mut report.findings, &skill.declared);
    crate::severity::settle(&mut report.findings);
    if let (Some(cache), Some(digest)) = (cache, modules) {
        cache.keep_modules(digest, std::mem::take(&mut skill.modules));
        cache.end();
    }
    report.findings.sort_by(|a, b| {
        (&a.path, a.line, a.column, a.rule.code).cmp(&(&b.path, b.line, b.column, b.rule.code))
    });
    report
}

/// Analyzes the reading `view` of the file `path`, its text `text`, as
/// `kind`.
fn analyze(
    view: usize,
    path: &str,
    text: &str,
    kind: Kind,
    skill: &Skill<'_>,
    options: &Options,
) -> Analyzed {
    let mut ctx = Ctx::new(view, path, text, skill, options, &ANALYZERS);
    analyze_file(&mut ctx, kind);
    Analyzed {
        findings: ctx.findings,
        sinks: ctx.sinks,
        runs: ctx.runs,
    }
}

/// Decodes `file` and decides whether it is read as text (see
/// [`content`]); what is not read is listed in `skipped` and, unless it is
/// binary data, reported.
fn first_read<'a>(
    file: &Input<'a>,
    options: &Options,
    skipped: &mut Vec<(String, String)>,
) -> (Read<'a>, Vec<Finding>) {
    let whole = file.size <= options.max_file_bytes && file.bytes.len() as u64 == file.size;
    let head = &file.bytes[..file.bytes.len().min(HEAD)];
    let mut skip = |why: String| skipped.push((file.path.to_string(), why));
    if let Some(format) = content::format(head).filter(|f| f.code) {
        skip(format!("{}, compiled code", format.name));
        let finding = unread(
            file,
            format!(
                "{}: compiled code, which neither a reviewer nor the scanner can read",
                format.name
            ),
        );
        return (Read::Unread, vec![finding]);
    }
    let views = content::decode(if whole { file.bytes } else { head });
    let first = &views[0];
    let kind = Kind::of(file.path, &first.text);
    let binary = kind == Kind::Text && content::looks_binary(first);
    let data = content::format(head).filter(|f| binary && !f.code);
    if let Some(format) = data {
        skip(format!("{}, binary data", format.name));
        return (Read::Data(format), Vec::new());
    }
    if !whole {
        skip(format!("larger than {} bytes", options.max_file_bytes));
        let finding = unread(
            file,
            format!(
                "larger than {} bytes, the scanner's bound: not read",
                options.max_file_bytes
            ),
        );
        return (Read::Unread, vec![finding]);
    }
    if binary {
        skip("binary of no known format".into());
        let finding = unread(
            file,
            "not text, nor binary data of a format the scanner knows: not read, and what reads it cannot be told".into(),
        );
        return (Read::Unread, vec![finding]);
    }
    let mut findings = Vec::new();
    let count = |n: usize, one: &str, many: &str| match n {
        0 => None,
        1 => Some(format!("1 {one}")),
        n => Some(format!("{n} {many}")),
    };
    let dropped: Vec<String> = [
        count(
            first.invalid,
            "undecodable byte read as U+FFFD",
            "undecodable bytes read as U+FFFD",
        ),
        count(
            first.nuls,
            "NUL byte dropped (as a shell drops it)",
            "NUL bytes dropped (as a shell drops them)",
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !dropped.is_empty() {
        let mut f = unread(
            file,
            format!("{}; the rest was scanned", dropped.join(" and ")),
        );
        f.severity = Severity::Info;
        findings.push(f);
    }
    (Read::Text(views, kind), findings)
}

/// An `SK643` finding on the whole of `file`, whose evidence is its size
/// and the digest of what was read of it, so that an acceptance holds for
/// these bytes only.
fn unread(file: &Input<'_>, message: String) -> Finding {
    let read = if file.bytes.len() as u64 == file.size {
        String::new()
    } else {
        format!(" of the first {}", file.bytes.len())
    };
    let (severity, message) = if content::is_checked_bytecode(file.path, file.bytes) {
        (
            Severity::Low,
            "Python bytecode cached beside its source, which Python checks it against before running it".to_string(),
        )
    } else {
        (Severity::High, message)
    };
    Finding {
        rule: id::UnscannedContent,
        severity,
        path: file.path.to_string(),
        line: 1,
        column: 1,
        message,
        evidence: format!("{} bytes, sha256{read}: {}", file.size, digest(file.bytes)),
        decoded: Vec::new(),
    }
}

/// The first 16 bytes of the SHA-256 of `bytes`, in hex: enough to bind an
/// acceptance to them.
fn digest(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Findings that mean more together: a shell without restrictions is a
/// note, unless the same skill tells the agent to skip confirmations or
/// claims unlimited access.
fn compound(report: &mut Report, sinks: &[Sink], declared: &crate::context::Declared) {
    // Secrets collected in one file and sent from another.
    let leaked = report
        .findings
        .iter()
        .any(|f| f.rule == id::SecretsToNetwork);
    let collected = report.findings.iter().find(|f| {
        matches!(
            Kind::of(&f.path, ""),
            Kind::Python | Kind::Js | Kind::Shell | Kind::PowerShell
        ) && !crate::severity::is_test(&f.path)
            && (f.rule == id::EnvironmentHarvest && f.severity >= crate::environ::COLLECTED
                || f.rule == id::CredentialStoreRead && f.severity >= Severity::Medium)
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
            severity: crate::severity::secrets_sent_elsewhere(
                declared,
                &sink.path,
                sink.host.as_deref(),
            ),
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
    let whole = Unit::whole(text);
    let code = matches!(
        kind,
        Kind::Shell | Kind::PowerShell | Kind::Python | Kind::Js
    );
    unicode::scan(ctx, &whole, code);
    common(ctx, &whole);
    crate::mcp::scan(ctx, &whole, kind);
    if kind != Kind::SkillMd
        && (crate::toolfiles::scan(ctx, &whole) || crate::buildfiles::scan(ctx, &whole))
    {
        return;
    }
    match kind {
        Kind::SkillMd | Kind::Markdown => {
            document::markdown_file(ctx, &whole, kind == Kind::SkillMd)
        }
        Kind::Shell => shell::scan(ctx, &whole, shell::Mode::Code),
        Kind::PowerShell => {
            powershell::scan(ctx, &whole);
            // PowerShell runs native programs with a shell's words and
            // pipes (`curl … | sh` under pwsh on Linux and macOS): those
            // lines are read as the shell reads them too. What the shell's
            // parser cannot read of PowerShell's syntax (its blocks nest
            // deeper than a shell's) the PowerShell reader has read.
            let mark = ctx.mark();
            shell::scan(ctx, &whole, shell::Mode::Code);
            ctx.drop_since(mark, id::UnscannedContent);
        }
        Kind::Python => {
            if let Some(name) = content::python_foreign_encoding(text) {
                ctx.report(
                    &whole,
                    id::UnscannedContent,
                    Severity::High,
                    name.clone(),
                    format!(
                        "declares the source encoding `{}`, which Python decodes and the scanner does not: the code Python runs was not read",
                        &text[name]
                    ),
                );
            }
            match ctx
                .path
                .to_ascii_lowercase()
                .ends_with(".ipynb")
                .then(|| crate::notebook::code(text))
                .flatten()
            {
                Some(code) => {
                    script::python(ctx, &whole.derived(&code.python, 0));
                    shell::scan(ctx, &whole.derived(&code.shell, 0), shell::Mode::Code);
                }
                None => script::python(ctx, &whole),
            }
        }
        Kind::Js => script::js(ctx, &whole),
        Kind::Config => {
            config::scan(ctx, &whole);
            // A runner or launcher given as `["sh", "-c", "…"]`
            // (`.cargo/config.toml`'s `runner`).
            if crate::shellstrings::reads(&ctx.path.to_ascii_lowercase()) {
                crate::shellstrings::scan(ctx, &whole);
            }
            if ctx.path.to_ascii_lowercase().contains("requirements")
                || ctx.path.ends_with("Dockerfile")
                || ctx.path.ends_with("Makefile")
            {
                shell::scan(ctx, &whole, shell::Mode::Inline);
            }
        }
        Kind::Text => {
            let lower = ctx.path.to_ascii_lowercase();
            if crate::shellstrings::reads(&lower) {
                crate::shellstrings::scan(ctx, &whole);
            }
            if lower.contains("requirements") {
                requirements(ctx, &whole);
            } else if crate::ruby::is_ruby(&lower, text) {
                crate::ruby::scan(ctx, &whole);
            } else if crate::langs::is_other_language(&lower) {
                // Its calls, and its comments and strings as prose, as
                // before it had a reader.
                crate::langs::scan(ctx, &whole);
                prose::scan(ctx, &whole);
            } else if !crate::agent_files::is_instruction_file(&lower) {
                prose::scan(ctx, &whole);
            } else {
                crate::config::instructions(ctx, &whole, ctx.path);
            }
        }
    }
}

/// Secrets, encoded payloads and known malware signatures, in every file.
fn common(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    crate::grants::scan(ctx, unit);
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
            secrets::SecretKind::Assignment => (
                id::SecretAssignment,
                crate::severity::secret_assignment(ctx.path),
            ),
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
    let found = decode::blobs(unit.text, budget);
    for blob in found.blobs {
        ctx.payload(unit, blob.range, &blob.chain, &blob.decoded);
    }
    for (range, name) in found.compiled {
        ctx.report(
            unit,
            id::UnscannedContent,
            Severity::High,
            range,
            format!(
                "encodes {name}: compiled code, which neither a reviewer nor the scanner can read"
            ),
        );
    }
    if let Some(cut) = found.cut {
        ctx.report(
            unit,
            id::UnscannedContent,
            Severity::High,
            cut,
            format!(
                "encoded text past the {} bytes one file may decode to: not decoded, so not scanned",
                ctx.options.max_decoded_bytes
            ),
        );
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

/// Decoded text: read as instructions and as code of every language.
fn analyze_payload(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    unicode::scan(ctx, unit, false);
    prose::scan(ctx, unit);
    shell::scan(ctx, unit, shell::Mode::Code);
    script::python(ctx, unit);
    script::js(ctx, unit);
    powershell::scan(ctx, unit);
    common(ctx, unit);
}

//! Checking one skill directory: read `SKILL.md`, split, parse, run the rules
//! and lints, and list the skill's files.
//!
//! The order of the steps, and which failure stops which later step, follow
//! the reference validator, so that `--format skills-ref` can print exactly
//! what it prints: a missing file, a bad frontmatter or unreadable YAML stops
//! the rules; everything else is collected.
//!
//! `SKILL.md` is read once, through [`skills_core::fsread`]: below the skill's open
//! directory, a fifo or device refused for what it is (`SK004`), at most
//! [`MAX_SKILL_MD`] bytes. A `SKILL.md` that is a symbolic link is read
//! where it leads only when that is inside the skill; a link out of it is
//! error `SK008` (elsewhere in a skill, an escaping link is a warning and
//! the file is left out; here the skill has nothing else to read), and not
//! a byte of the target is read, so none can reach a diagnostic.

use std::io::ErrorKind;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::any_program;
pub use crate::checked::CheckedSkill;
use crate::client::codex;
use crate::diag::{Code, Diagnostic, Severity};
use crate::discover::{Target, follow_link};
use crate::files;
use crate::frontmatter::{self, SplitError};
use crate::lints;
use crate::options::Options;
use crate::profile::Profile;
use crate::rules::{self, Ctx};
use crate::source::Source;
use crate::yaml;
use skills_core::fsread::{Dir, FileError, Reason};

/// The largest `SKILL.md` read, in bytes.
pub const MAX_SKILL_MD: u64 = 8 * 1024 * 1024;

/// Checks the skill in `dir`.
pub fn check_skill(dir: &Path, plugin: Option<String>, options: &Options) -> CheckedSkill {
    let mut skill = CheckedSkill::new(dir, plugin);
    let profile = options.profile;
    let diags = &mut skill.diagnostics;
    let report = |diags: &mut Vec<Diagnostic>, code, path: &Path, msg: String| {
        diags.push(Diagnostic::new(code, profile.severity(code), path, msg));
        diags.len() - 1
    };
    let skill_dir = match Dir::open(dir) {
        Ok(d) => d,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let i = report(
                diags,
                Code::PathNotFound,
                dir,
                format!("`{}` does not exist", dir.display()),
            );
            diags[i].reference = Some(format!("Path does not exist: {}", dir.display()));
            return skill;
        }
        Err(e) if e.kind() == ErrorKind::NotADirectory => {
            let i = report(
                diags,
                Code::NotADirectory,
                dir,
                format!("`{}` is not a directory", dir.display()),
            );
            diags[i].reference = Some(format!("Not a directory: {}", dir.display()));
            return skill;
        }
        Err(e) => {
            report(
                diags,
                Code::Io,
                dir,
                format!("cannot read `{}`: {e}", dir.display()),
            );
            return skill;
        }
    };
    skill.dir_id = Some(skill_dir.id());
    let Some((path, read)) = read_skill_md(&skill_dir, diags) else {
        let i = report(
            diags,
            Code::MissingSkillMd,
            dir,
            format!("no `SKILL.md` in `{}`", dir.display()),
        );
        diags[i].help = Some("create `SKILL.md` starting with `---`, `name:` and `description:` lines and a closing `---`, or remove the directory".into());
        diags[i].reference = Some("Missing required file: SKILL.md".into());
        return skill;
    };
    skill.skill_md = Some(path.clone());
    if path.file_name().is_some_and(|n| n == "skill.md") {
        let i = report(
            diags,
            Code::LowercaseSkillMd,
            &path,
            "the file is named `skill.md`".into(),
        );
        diags[i].help =
            Some("rename it to `SKILL.md`: some clients only look for that name".into());
    }
    let bytes = match read {
        Ok(b) => b,
        Err(d) => {
            diags.push(d);
            return skill;
        }
    };
    parse_skill_md(&mut skill, &path, bytes, profile);
    let CheckedSkill {
        source: Some(source),
        split: Some(split),
        frontmatter,
        files,
        diagnostics,
        ..
    } = &mut skill
    else {
        // The file did not split: nothing more is checked.
        return skill;
    };
    let mut ctx = Ctx {
        profile,
        source,
        diags: diagnostics,
    };
    let before = ctx.diags.len();
    *files = files::skill_files_in(dir, Some(&skill_dir), &options.files, ctx.diags);
    if !options.lints {
        // Files that packaging drops are reported by the walk; the report is a lint.
        let mut i = before;
        while i < ctx.diags.len() {
            if ctx.diags[i].code == Code::PackagingDrops {
                ctx.diags.remove(i);
            } else {
                i += 1;
            }
        }
    }
    if options.lints {
        let description = frontmatter
            .as_ref()
            .and_then(|r| r.get("description"))
            .and_then(|n| n.as_str().map(|s| (s, n.span.clone())));
        // A listing that stopped at a limit (an error) cannot tell which
        // files the body names are missing.
        let complete = !ctx.diags[before..]
            .iter()
            .any(|d| d.code == Code::DiscoveryLimit);
        lints::check(&mut ctx, split, description, files, complete, &skill_dir);
        if let Some(rules) = frontmatter.as_ref().and_then(|r| r.get("allowed-tools")) {
            any_program::check(&mut ctx, rules);
        }
    }
    skill.openai_yaml =
        codex::openai_yaml::check(&skill.files, &skill_dir, profile, &mut skill.diagnostics);
    skill
}

impl CheckedSkill {
    /// Checks `bytes` as the skill `dir`'s `SKILL.md` at `path` would be
    /// checked, without touching the file system: split, frontmatter and
    /// rules; no files are listed and no lints run. This is how a pack's
    /// manifest is checked against the `SKILL.md` it holds.
    pub fn from_skill_md(
        dir: &Path,
        plugin: Option<String>,
        path: &Path,
        bytes: Vec<u8>,
        profile: Profile,
    ) -> CheckedSkill {
        let mut skill = CheckedSkill::new(dir, plugin);
        skill.skill_md = Some(path.to_path_buf());
        parse_skill_md(&mut skill, path, bytes, profile);
        skill
    }
}

/// Splits and parses `bytes`, the `SKILL.md` of `skill` at `path`, and runs
/// the frontmatter rules: sets the skill's source, split, frontmatter and
/// fields, and adds the diagnostics. The split stays `None` when the file
/// does not split.
fn parse_skill_md(skill: &mut CheckedSkill, path: &Path, bytes: Vec<u8>, profile: Profile) {
    let source = Source::new(path, bytes);
    let mut ctx = Ctx {
        profile,
        source: &source,
        diags: &mut skill.diagnostics,
    };
    let split = match frontmatter::split(source.bytes()) {
        Ok(split) => split,
        Err(e) => {
            split_error(&mut ctx, e);
            skill.source = Some(source);
            return;
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
    if let Some(root) = &root {
        skill.fields = rules::check(&mut ctx, root, &rules::dir_name(&skill.dir));
    }
    skill.frontmatter = root;
    skill.split = Some(split);
    skill.source = Some(source);
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

/// Reads `SKILL.md`, else `skill.md` (the reference prefers them in that
/// order), from the open skill directory, never following a link out of it:
/// a `SKILL.md` that is a symbolic link is read where it leads only when
/// that is inside the skill (else error `SK008`, and nothing of the target
/// is read). Returns the path shown and the bytes, or the diagnostic that
/// stops the check; `None` when there is no such file (a dangling link
/// counts as none, with its warning).
fn read_skill_md(
    dir: &Dir,
    diags: &mut Vec<Diagnostic>,
) -> Option<(PathBuf, Result<Vec<u8>, Diagnostic>)> {
    let mut boundary = None;
    for name in ["SKILL.md", "skill.md"] {
        let path = dir.path().join(name);
        let error = match dir.read(Path::new(name), MAX_SKILL_MD) {
            Ok(bytes) => return Some((path, Ok(bytes))),
            Err(e) if e.is_not_found() => continue,
            Err(e) => e,
        };
        if !matches!(error.reason, Reason::Link) {
            return Some((path, Err(read_error(&error))));
        }
        let boundary = match boundary.get_or_insert_with(|| std::fs::canonicalize(dir.path())) {
            Ok(b) => b.clone(),
            Err(e) => {
                let message = format!("cannot resolve `{}`: {e}", dir.path().display());
                return Some((path.clone(), Err(error_at(Code::Io, &path, message))));
            }
        };
        let mut found = Vec::new();
        let target = follow_link(&path, &boundary, dir.path(), false, &mut found);
        if let Some(i) = found.iter().position(|d| d.code == Code::SymlinkEscape) {
            // The skill has no `SKILL.md` of its own: an error, not the
            // warning an escaping link elsewhere gets.
            let mut escape = found.remove(i);
            escape.severity = Severity::Error;
            diags.append(&mut found);
            return Some((path, Err(escape)));
        }
        diags.append(&mut found);
        let Some(Target::Dir(canon) | Target::File(canon, _) | Target::Other(canon)) = target
        else {
            continue;
        };
        let Ok(inside) = canon.strip_prefix(&boundary) else {
            continue;
        };
        let read = dir.read(inside, MAX_SKILL_MD).map_err(|e| {
            let mut d = read_error(&e);
            d.path = path.clone();
            d
        });
        return Some((path, read));
    }
    None
}

/// The diagnostic for a `SKILL.md` that could not be read: `SK004` for
/// something that is not a file (saying what it is), else `SK005`.
fn read_error(e: &FileError) -> Diagnostic {
    let code = match e.reason {
        Reason::NotFile(_) => Code::SkillMdNotFile,
        _ => Code::Io,
    };
    error_at(code, &e.path, e.to_string())
}

fn error_at(code: Code, path: &Path, message: String) -> Diagnostic {
    Diagnostic::new(code, Severity::Error, path, message)
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

#[cfg(all(test, unix))]
mod tests;

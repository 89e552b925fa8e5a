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

use super::client::codex::{self, OpenAiYaml};
use super::diag::{Code, Diagnostic, Severity};
use super::discover::{Origin, Target, follow_link};
use super::files::{self, SkillFile};
use super::frontmatter::{self, Split, SplitError};
use super::rules::{self, Ctx, Fields};
use super::source::Source;
use super::yaml::{self, Node};
use super::{Options, Profile};
use super::{any_program, lints};
use skills_core::fsread::{Dir, FileError, FileId, Reason};

/// The largest `SKILL.md` read, in bytes.
pub const MAX_SKILL_MD: u64 = 8 * 1024 * 1024;

/// One skill directory after checking: what was read, and what is wrong.
#[derive(Debug, Clone)]
pub struct CheckedSkill {
    /// The skill directory, as reached from the user's path.
    pub dir: PathBuf,
    /// The plugin the skill belongs to, for plugin layouts.
    pub plugin: Option<String>,
    /// The identity of the directory that was read, when it could be
    /// opened: what packing reads from must still be the same directory.
    pub dir_id: Option<FileId>,
    /// `SKILL.md` (or `skill.md`), when there is one.
    pub skill_md: Option<PathBuf>,
    /// The file's bytes and line table, when it was read.
    pub source: Option<Source>,
    /// Frontmatter and body ranges, when the file split.
    pub split: Option<Split>,
    /// The parsed frontmatter, when it parsed.
    pub frontmatter: Option<Node>,
    /// `name` and `description` as the rules read them.
    pub fields: Fields,
    /// Every file of the skill, sorted, `SKILL.md` included.
    pub files: Vec<SkillFile>,
    /// Every problem, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The skill found first under the same name, when this one is ignored.
    pub duplicate_of: Option<PathBuf>,
    /// What Codex takes from `agents/openai.yaml`, when the skill has one
    /// Codex can read (under every profile): `policy.allow_implicit_invocation`
    /// says whether Codex lists the skill to its model.
    pub openai_yaml: Option<Box<OpenAiYaml>>,
    /// The client's skills folder discovery found it in, if any.
    pub origin: Option<Origin>,
}

impl CheckedSkill {
    /// The skill's name (normalised as the rules read it).
    pub fn name(&self) -> Option<&str> {
        self.fields.name.as_deref()
    }

    /// `plugin:name` inside a plugin, else the name.
    pub fn qualified_name(&self) -> Option<String> {
        let name = self.name()?;
        Some(match &self.plugin {
            Some(p) => format!("{p}:{name}"),
            None => name.to_string(),
        })
    }

    /// Whether no diagnostic is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The messages `skills-ref validate` prints for this skill, in its order.
    ///
    /// A problem met while reading `SKILL.md` or its YAML stops the reference,
    /// so only the first such message is given; otherwise every message the
    /// reference has for an error here. Where the reference would crash (a
    /// file that is not UTF-8, or is a directory) our own message stands in.
    pub fn reference_messages(&self) -> Vec<String> {
        let mut errors = self.diagnostics.iter().filter(|d| d.is_error());
        if let Some(first) = errors.clone().find(|d| d.code.stops_reading()) {
            return vec![
                first
                    .reference
                    .clone()
                    .unwrap_or_else(|| first.message.clone()),
            ];
        }
        errors
            .by_ref()
            .filter_map(|d| d.reference.clone())
            .collect()
    }

    /// The Markdown body after the frontmatter.
    pub fn body(&self) -> &str {
        match (&self.source, &self.split) {
            (Some(src), Some(split)) => src
                .text()
                .and_then(|s| s.get(split.body.clone()))
                .unwrap_or(""),
            _ => "",
        }
    }
}

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
    codex::openai_yaml::check(&mut skill, &skill_dir, profile);
    skill
}

impl CheckedSkill {
    /// A skill in `dir` with nothing read yet.
    fn new(dir: &Path, plugin: Option<String>) -> CheckedSkill {
        CheckedSkill {
            dir: dir.to_path_buf(),
            plugin,
            dir_id: None,
            skill_md: None,
            source: None,
            split: None,
            frontmatter: None,
            fields: Fields::default(),
            files: Vec::new(),
            diagnostics: Vec::new(),
            duplicate_of: None,
            openai_yaml: None,
            origin: None,
        }
    }

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
mod tests {
    use std::fs;
    use std::os::unix::fs::symlink;

    use super::*;
    use crate::FileLimits;

    type Result = std::result::Result<(), Box<dyn std::error::Error>>;

    const VALID: &str = "---\nname: s\ndescription: d\n---\nbody\n";

    fn check(dir: &Path) -> CheckedSkill {
        check_skill(dir, None, &Options::default())
    }

    fn codes(skill: &CheckedSkill) -> Vec<(Code, Severity)> {
        skill
            .diagnostics
            .iter()
            .map(|d| (d.code, d.severity))
            .collect()
    }

    #[test]
    fn a_fifo_skill_md_is_refused_without_blocking() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir(&dir)?;
        let fifo = dir.join("SKILL.md");
        if !std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            return Ok(());
        }
        let skill = check(&dir);
        assert_eq!(codes(&skill), [(Code::SkillMdNotFile, Severity::Error)]);
        assert_eq!(
            skill.diagnostics[0].message,
            format!(
                "cannot read `{}`: it is a fifo, not a regular file",
                fifo.display()
            )
        );
        assert!(skill.source.is_none());
        Ok(())
    }

    /// `/dev/zero` itself, made with `mknod` (where allowed, as root), and
    /// a link to a fifo inside the skill: each named for what it is.
    #[test]
    fn a_device_or_a_link_to_a_fifo_is_named_for_what_it_is() -> Result {
        let tmp = tempfile::tempdir()?;
        let made = |args: &[&str]| {
            std::process::Command::new(args[0])
                .args(&args[1..])
                .status()
                .is_ok_and(|s| s.success())
        };
        let dev = tmp.path().join("dev");
        fs::create_dir(&dev)?;
        let zero = dev.join("SKILL.md");
        if made(&["mknod", &zero.to_string_lossy(), "c", "1", "5"]) {
            let skill = check(&dev);
            assert_eq!(codes(&skill), [(Code::SkillMdNotFile, Severity::Error)]);
            assert_eq!(
                skill.diagnostics[0].message,
                format!(
                    "cannot read `{}`: it is a character device, not a regular file",
                    zero.display()
                )
            );
        }
        let dir = tmp.path().join("s");
        fs::create_dir(&dir)?;
        if made(&["mkfifo", &dir.join("pipe").to_string_lossy()]) {
            symlink("pipe", dir.join("SKILL.md"))?;
            let skill = check(&dir);
            assert_eq!(codes(&skill), [(Code::SkillMdNotFile, Severity::Error)]);
            assert_eq!(skill.diagnostics[0].path, dir.join("SKILL.md"));
            assert_eq!(
                skill.diagnostics[0].message,
                format!(
                    "cannot read `{}`: it is a fifo, not a regular file",
                    dir.join("pipe").display()
                )
            );
        }
        Ok(())
    }

    #[test]
    fn a_skill_md_linking_out_is_an_error_and_is_not_read() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir(&dir)?;
        fs::write(tmp.path().join("outside.md"), VALID)?;
        symlink(tmp.path().join("outside.md"), dir.join("SKILL.md"))?;
        let skill = check(&dir);
        assert_eq!(codes(&skill), [(Code::SymlinkEscape, Severity::Error)]);
        assert!(skill.source.is_none() && skill.name().is_none());
        assert_eq!(skill.skill_md, Some(dir.join("SKILL.md")));
        Ok(())
    }

    #[test]
    fn a_skill_md_linking_inside_is_read_where_it_leads() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir_all(dir.join("docs"))?;
        fs::write(dir.join("docs/real.md"), VALID)?;
        symlink("docs/real.md", dir.join("SKILL.md"))?;
        let skill = check(&dir);
        assert!(skill.is_valid(), "{:?}", skill.diagnostics);
        assert_eq!(
            skill.source.as_ref().map(Source::bytes),
            Some(VALID.as_bytes())
        );
        Ok(())
    }

    #[test]
    fn a_dangling_skill_md_link_counts_as_none() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir(&dir)?;
        symlink("gone.md", dir.join("SKILL.md"))?;
        let skill = check(&dir);
        assert_eq!(
            codes(&skill),
            [
                (Code::Io, Severity::Warning),
                (Code::MissingSkillMd, Severity::Error)
            ]
        );
        Ok(())
    }

    /// A skill over a limit on its files is invalid under every profile,
    /// and the files its body names are not reported missing: the listing
    /// stopped, it is not known which are.
    #[test]
    fn a_skill_over_its_file_limits_is_invalid() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir_all(dir.join("scripts"))?;
        let md = "---\nname: s\ndescription: d. Use when testing.\n---\nRun `scripts/run.sh`.\n";
        fs::write(dir.join("SKILL.md"), md)?;
        fs::write(dir.join("a.txt"), "a")?;
        fs::write(dir.join("scripts/run.sh"), "#!/bin/sh\n")?;
        for profile in Profile::ALL {
            let options = Options {
                profile,
                files: FileLimits {
                    max_files: 2,
                    ..FileLimits::default()
                },
                ..Options::default()
            };
            let skill = check_skill(&dir, None, &options);
            let limit = (Code::DiscoveryLimit, Severity::Error);
            assert!(
                codes(&skill).contains(&limit),
                "{profile:?}: {:?}",
                skill.diagnostics
            );
            assert!(!skill.is_valid());
            assert!(
                !codes(&skill)
                    .iter()
                    .any(|(c, _)| *c == Code::MissingReferencedFile),
                "{profile:?}: {:?}",
                skill.diagnostics
            );
        }
        Ok(())
    }
}

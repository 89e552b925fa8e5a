//! Checking one skill directory, as stages that each take the previous
//! one's result and return their own: `read` (open the directory, read
//! `SKILL.md`) → `parse` (split, YAML, the frontmatter rules and the fields
//! they read) → `contents` (the skill's files and the lints over them) →
//! `agents/openai.yaml` (what Codex takes from it); [`check_skill`]
//! assembles the [`CheckedSkill`]. A client's reading of the whole listing comes after,
//! in [`crate::check`].
//!
//! The order of the stages, and which failure stops which later stage,
//! follow the reference validator, so that `--format skills-ref` can print
//! exactly what it prints: a missing file, a bad frontmatter or unreadable
//! YAML stops the rules; everything else is collected.

use std::path::Path;

use skills_core::fsread::Dir;

use crate::any_program;
pub use crate::checked::CheckedSkill;
use crate::client::codex;
use crate::diag::{Code, Diagnostic};
use crate::files::{self, SkillFile};
use crate::frontmatter::Split;
use crate::lints;
use crate::options::Options;
use crate::parse::{self, Parsed};
use crate::profile::Profile;
pub use crate::read::MAX_SKILL_MD;
use crate::read::{self, Given, Read};
use crate::rules::Ctx;
use crate::source::Source;
use crate::yaml::Node;

/// Checks the skill in `dir`.
pub fn check_skill(dir: &Path, plugin: Option<String>, options: &Options) -> CheckedSkill {
    check_skill_given(dir, plugin, options, None)
}

/// Checks the skill in `dir`, its `SKILL.md` `given` rather than read when
/// it is (the rest of the folder is read from the disk).
pub(crate) fn check_skill_given(
    dir: &Path,
    plugin: Option<String>,
    options: &Options,
    given: Option<Given<'_>>,
) -> CheckedSkill {
    let profile = options.profile;
    let mut skill = CheckedSkill::new(dir, plugin);
    let Read {
        dir: skill_dir,
        skill_md,
        bytes,
        diagnostics,
    } = read::read(dir, profile, given);
    skill.dir_id = skill_dir.as_ref().map(Dir::id);
    skill.skill_md = skill_md;
    skill.diagnostics = diagnostics;
    let (Some(skill_dir), Some(path), Some(bytes)) = (skill_dir, &skill.skill_md, bytes) else {
        return skill;
    };
    let parsed = parse::parse(dir, path, bytes, profile);
    skill.take_parsed(parsed);
    let (Some(source), Some(split)) = (&skill.source, &skill.split) else {
        // The file did not split: nothing more is checked.
        return skill;
    };
    let Contents { files, diagnostics } = contents(
        dir,
        &skill_dir,
        source,
        split,
        skill.frontmatter.as_ref(),
        options,
    );
    skill.files = files;
    skill.diagnostics.extend(diagnostics);
    skill.openai_yaml =
        codex::openai_yaml::check(&skill.files, &skill_dir, profile, &mut skill.diagnostics);
    skill
}

/// What the contents stage found: the skill's files and the problems of
/// the walk over them and of the lints.
#[derive(Debug)]
struct Contents {
    /// Every file of the skill, sorted, `SKILL.md` included.
    files: Vec<SkillFile>,
    /// The problems found, in the order found.
    diagnostics: Vec<Diagnostic>,
}

/// Lists the files of the skill in `dir` (open as `skill_dir`), whose
/// `SKILL.md` is `source` split as `split` with the frontmatter
/// `frontmatter`, and runs the lints over them (`SK3xx`, unless
/// [`Options::lints`] is off).
fn contents(
    dir: &Path,
    skill_dir: &Dir,
    source: &Source,
    split: &Split,
    frontmatter: Option<&Node>,
    options: &Options,
) -> Contents {
    let mut diagnostics = Vec::new();
    let mut ctx = Ctx {
        profile: options.profile,
        source,
        diags: &mut diagnostics,
    };
    let files = files::skill_files_in(dir, Some(skill_dir), &options.files, ctx.diags);
    if !options.lints {
        // Files that packaging drops are reported by the walk; the report is a lint.
        ctx.diags.retain(|d| d.code != Code::PackagingDrops);
    }
    if options.lints {
        let description = frontmatter
            .and_then(|r| r.get("description"))
            .and_then(|n| n.as_str().map(|s| (s, n.span.clone())));
        // A listing that stopped at a limit (an error) cannot tell which
        // files the body names are missing.
        let complete = !ctx.diags.iter().any(|d| d.code == Code::DiscoveryLimit);
        lints::check(&mut ctx, split, description, &files, complete, skill_dir);
        if let Some(rules) = frontmatter.and_then(|r| r.get("allowed-tools")) {
            any_program::check(&mut ctx, rules);
        }
    }
    Contents { files, diagnostics }
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
        skill.take_parsed(parse::parse(dir, path, bytes, profile));
        skill
    }

    /// Takes the parse stage's result: its source, split, frontmatter and
    /// fields, and its diagnostics after those already found.
    fn take_parsed(&mut self, parsed: Parsed) {
        let Parsed {
            source,
            split,
            frontmatter,
            fields,
            diagnostics,
        } = parsed;
        self.source = Some(source);
        self.split = split;
        self.frontmatter = frontmatter;
        self.fields = fields;
        self.diagnostics.extend(diagnostics);
    }
}

#[cfg(all(test, unix))]
mod tests;

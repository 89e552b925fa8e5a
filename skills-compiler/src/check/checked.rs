//! [`CheckedSkill`]: one skill directory after its check, the record the
//! CLI, the macro and packing read: what was read (the `SKILL.md`, its
//! split, frontmatter and fields, the skill's files, `agents/openai.yaml`)
//! and every diagnostic.

use std::path::{Path, PathBuf};

use skills_core::fsread::FileId;

use crate::client::codex::OpenAiYaml;
use crate::diag::Diagnostic;
use crate::discover::Origin;
use crate::files::SkillFile;
use crate::frontmatter::Split;
use crate::rules::Fields;
use crate::source::Source;
use crate::yaml::Node;

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
    /// A skill in `dir` with nothing read yet.
    pub(crate) fn new(dir: &Path, plugin: Option<String>) -> CheckedSkill {
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

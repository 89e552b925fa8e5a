//! One skill of a bundle: its metadata (level 1), activation (level 2) and
//! files (level 3).

use std::fmt;

use crate::activation::claude_code::{self, Vars};
use crate::activation::{self, ActivationError, CommandError, Options, Rule, commands};
use crate::file::{Corrupt, File};
use skills_core::path;
use skills_core::tools::ToolRule;

pub use skills_core::catalog::BASE_SCHEME;

mod error;
mod handle;

pub use error::ReadError;
pub use handle::Skill;

/// A skill's instructions, prepared for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activation<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// The base directory the instructions' relative paths resolve against.
    pub base_dir: String,
    /// Claude Code's text: `Base directory for this skill: <dir>`, a blank
    /// line, then the body with its placeholders filled and each
    /// `` !`cmd` `` replaced ([`activation::claude_code`]).
    pub content: String,
    /// The rules of `allowed-tools`, with the same variables filled
    /// (`${CLAUDE_SKILL_DIR}` and the others): what to grant.
    pub allowed_tools: Vec<Rule>,
}

impl<'a> Skill<'a> {
    /// The name (`plugin:skill` inside a plugin).
    pub fn name(&self) -> &'a str {
        &self.data.meta.name
    }

    /// The description.
    pub fn description(&self) -> &'a str {
        &self.data.meta.description
    }

    /// `license`, if given.
    pub fn license(&self) -> Option<&'a str> {
        self.data.meta.license.as_deref()
    }

    /// `compatibility`, if given.
    pub fn compatibility(&self) -> Option<&'a str> {
        self.data.meta.compatibility.as_deref()
    }

    /// `metadata` pairs, in the order written.
    pub fn metadata(&self) -> impl ExactSizeIterator<Item = (&'a str, &'a str)> + use<'a> {
        self.data.meta.metadata.iter().map(|(k, v)| (&**k, &**v))
    }

    /// One `metadata` value.
    pub fn metadata_value(&self, key: &str) -> Option<&'a str> {
        self.metadata().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// `allowed-tools`, split into rules at build time.
    pub fn allowed_tools(&self) -> impl ExactSizeIterator<Item = ToolRule<'a>> + use<'a> {
        self.data
            .meta
            .allowed_tools
            .iter()
            .map(|(tool, pattern)| ToolRule {
                tool,
                pattern: pattern.as_deref(),
            })
    }

    /// Frontmatter keys outside the specification (profile `claude-code`),
    /// each value as JSON text.
    pub fn extensions(&self) -> impl ExactSizeIterator<Item = (&'a str, &'a str)> + use<'a> {
        self.data.meta.extensions.iter().map(|(k, v)| (&**k, &**v))
    }

    /// The whole frontmatter mapping as written, compact JSON text: keys in
    /// the author's order, values typed by YAML 1.2's core schema
    /// (`version: 2` the number, `"2"` the string, a list a list), what
    /// SEP-2640 serves verbatim. `None` when the skill has no frontmatter
    /// mapping, or comes from a pack written before the manifest carried
    /// it.
    pub fn frontmatter(&self) -> Option<&'a str> {
        Some(&*self.data.meta.frontmatter).filter(|text| !text.is_empty())
    }

    /// The skill's directory: in the source tree relative to the crate for
    /// a compiled bundle, inside the pack for a loaded one.
    pub fn source_dir(&self) -> &'a str {
        &self.data.source_dir
    }

    /// The virtual base directory, `skill://<name>`.
    pub fn base_dir(&self) -> String {
        format!("{BASE_SCHEME}{}", self.data.meta.name)
    }

    /// Every file, sorted by path, `SKILL.md` included.
    pub fn files(&self) -> impl ExactSizeIterator<Item = File<'a>> + use<'a> {
        let bundle = self.bundle;
        self.data.files.iter().map(move |data| File {
            data,
            slot: bundle.cache.get(data.slot as usize),
        })
    }

    /// The file at `path` (a normal relative path), without reading it.
    pub fn file(&self, path: &str) -> Result<File<'a>, ReadError> {
        // A normal path is looked up as given, without allocating.
        if path::is_normal(path)
            && let Some(data) = self
                .find(path)
                .and_then(|i| self.data.files.get(i as usize))
        {
            return Ok(File {
                data,
                slot: self.bundle.cache.get(data.slot as usize),
            });
        }
        let normal = path::normalize(path).map_err(|reason| ReadError::BadPath {
            path: path.to_string(),
            reason,
        })?;
        let Some(i) = self.find(&normal) else {
            return Err(ReadError::NotFound {
                path: normal,
                available: self
                    .data
                    .files
                    .iter()
                    .map(|f| f.meta.path.to_string())
                    .collect(),
            });
        };
        let data = self
            .data
            .files
            .get(i as usize)
            .ok_or_else(|| ReadError::NotFound {
                path: normal.clone(),
                available: Vec::new(),
            })?;
        Ok(File {
            data,
            slot: self.bundle.cache.get(data.slot as usize),
        })
    }

    fn find(&self, path: &str) -> Option<u32> {
        self.data
            .paths
            .find(&self.data.files, path, |f| &f.meta.path)
    }

    /// Reads a file (level 3): decompressed on first read, then cached.
    pub fn read(&self, path: &str) -> Result<&'a [u8], ReadError> {
        let file = self.file(path)?;
        file.bytes().map_err(|reason| ReadError::Corrupt {
            path: file.path().to_string(),
            reason,
        })
    }

    /// Reads a UTF-8 file as text.
    pub fn read_to_str(&self, path: &str) -> Result<&'a str, ReadError> {
        let bytes = self.read(path)?;
        std::str::from_utf8(bytes).map_err(|_| ReadError::Corrupt {
            path: path.to_string(),
            reason: Corrupt::Inflate,
        })
    }

    /// The Markdown body of `SKILL.md`, without the frontmatter.
    pub fn body(&self) -> Result<&'a str, ReadError> {
        let md = self
            .data
            .files
            .get(self.data.skill_md as usize)
            .map_or("SKILL.md", |f| &f.meta.path);
        let text = self.read_to_str(md)?;
        let (start, end) = (
            self.data.meta.body.0 as usize,
            self.data.meta.body.1 as usize,
        );
        Ok(text.get(start..end).unwrap_or(""))
    }

    /// Activates the skill (level 2) with the virtual base directory:
    /// [`Skill::activate_with`] with these arguments and nothing else.
    pub fn activate(&self, arguments: &str) -> Result<Activation<'a>, ReadError> {
        self.activate_in(&self.base_dir(), arguments)
    }

    /// Activates the skill with `base_dir` as its base directory (for
    /// example, where its files were materialised); `` !`cmd` `` is not run.
    pub fn activate_in(
        &self,
        base_dir: &str,
        arguments: &str,
    ) -> Result<Activation<'a>, ReadError> {
        let options = Options {
            arguments,
            base_dir: Some(base_dir),
            ..Options::default()
        };
        self.activation(&options, |command| Ok(marker(command)))
    }

    /// Activates the skill as Claude Code does ([`activation`]): the
    /// options' arguments, directory, session and project fill the
    /// placeholders of the body and of the `allowed-tools` rules, and each
    /// `` !`cmd` `` is run by [`Options::commands`] (its failure fails the
    /// activation) or, without one, replaced by a marker saying it was not.
    pub fn activate_with(&self, options: &Options<'_>) -> Result<Activation<'a>, ActivationError> {
        self.activation(options, |command| match (options.commands, command) {
            (Some(runner), Ok(command)) => {
                runner.run(self, &command).map_err(ActivationError::Command)
            }
            (Some(_), Err(e)) => Err(ActivationError::Command(e)),
            (None, command) => Ok(marker(command)),
        })
    }

    fn activation<E: From<ReadError>>(
        &self,
        options: &Options<'_>,
        run: impl FnMut(Result<String, CommandError>) -> Result<String, E>,
    ) -> Result<Activation<'a>, E> {
        let base_dir = options
            .base_dir
            .map_or_else(|| self.base_dir(), str::to_string);
        let vars = Vars {
            skill_dir: &base_dir,
            session_id: options.session_id,
            project_dir: options.project_dir,
        };
        let names: Vec<&str> = self.data.meta.arguments.iter().map(|a| &**a).collect();
        // Claude Code reads the frontmatter's closing line with the blanks
        // (JavaScript's `\s`) after it; the end of the body stays as written.
        let body = self
            .body()?
            .trim_start_matches(skills_core::catalog::claude_code::is_js_whitespace);
        let content = claude_code::render(body, options.arguments, &names, &vars, run)?;
        Ok(Activation {
            name: &self.data.meta.name,
            allowed_tools: self
                .allowed_tools()
                .map(|rule| Rule::expanded(rule, &vars))
                .collect(),
            base_dir,
            content,
        })
    }

    /// Codex's activation ([`activation::codex`]): the raw `SKILL.md` in a
    /// `<skill>` element naming the skill and `<dir>/SKILL.md`.
    pub fn activate_codex(&self, dir: &str) -> Result<String, ReadError> {
        let md = &*self.data.meta.skill_md;
        let md = if md.is_empty() { "SKILL.md" } else { md };
        let raw = self.read_to_str(md)?;
        let path = format!("{}/{md}", dir.trim_end_matches('/'));
        Ok(activation::codex::render(self.name(), &path, raw))
    }
}

impl fmt::Debug for Skill<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Skill")
            .field("name", &self.data.meta.name)
            .field("files", &self.data.files.len())
            .finish()
    }
}

/// The marker for a command that is not run: the command as it would have
/// run, or as the author wrote it when it could not be built.
fn marker(command: Result<String, CommandError>) -> String {
    commands::marker(command.as_deref().unwrap_or_else(CommandError::command))
}

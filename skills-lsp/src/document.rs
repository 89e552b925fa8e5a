//! The documents the server knows: which file of a skill each is
//! ([`Kind`], from its path), and the open ones' text and version as the
//! client last sent them ([`Documents`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::Uri;

/// Which file of a skill a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `SKILL.md` (or `skill.md`): checked from the editor's text.
    SkillMd,
    /// `agents/openai.yaml` (Codex's), checked as the compiler reads it
    /// from the disk (refreshed when it is saved).
    OpenAiYaml,
    /// `.claude-plugin/plugin.json` or `marketplace.json`, checked as
    /// discovery reads it from the disk.
    PluginManifest,
}

impl Kind {
    /// The kind of the file at `path` and the folder it belongs to (the
    /// skill's, or the plugin's), or `None` for another file.
    pub fn of(path: &Path) -> Option<(Kind, PathBuf)> {
        let name = path.file_name()?.to_str()?;
        let parent = path.parent()?;
        let parent_name = parent.file_name().and_then(|n| n.to_str());
        let kind = match (parent_name, name) {
            (_, "SKILL.md" | "skill.md") => return Some((Kind::SkillMd, parent.to_path_buf())),
            (Some("agents"), "openai.yaml") => Kind::OpenAiYaml,
            (Some(".claude-plugin"), "plugin.json" | "marketplace.json") => Kind::PluginManifest,
            _ => return None,
        };
        Some((kind, parent.parent()?.to_path_buf()))
    }
}

/// One open document.
#[derive(Debug, Clone)]
pub struct Document {
    /// Its local path.
    pub path: PathBuf,
    /// What it is, and its folder.
    pub kind: Kind,
    /// The skill's (or plugin's) folder.
    pub dir: PathBuf,
    /// The text as the client last sent it.
    pub text: String,
    /// The client's version of that text.
    pub version: i32,
}

/// The open documents, by URI.
#[derive(Debug, Default)]
pub struct Documents {
    open: HashMap<Uri, Document>,
}

impl Documents {
    /// Records a document opened or changed; `None` when it is not a file
    /// of a skill (it is not tracked).
    pub fn set(&mut self, uri: &Uri, text: String, version: i32) -> Option<&Document> {
        let path = crate::uri::to_path(uri)?;
        let (kind, dir) = Kind::of(&path)?;
        let doc = Document {
            path,
            kind,
            dir,
            text,
            version,
        };
        self.open.insert(uri.clone(), doc);
        self.open.get(uri)
    }

    /// The open document at `uri`.
    pub fn get(&self, uri: &Uri) -> Option<&Document> {
        self.open.get(uri)
    }

    /// Forgets a closed document.
    pub fn close(&mut self, uri: &Uri) {
        self.open.remove(uri);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_path() {
        let of = |p: &str| Kind::of(Path::new(p));
        assert_eq!(
            of("/s/pdf/SKILL.md"),
            Some((Kind::SkillMd, "/s/pdf".into()))
        );
        assert_eq!(
            of("/s/pdf/agents/openai.yaml"),
            Some((Kind::OpenAiYaml, "/s/pdf".into()))
        );
        assert_eq!(
            of("/p/.claude-plugin/plugin.json"),
            Some((Kind::PluginManifest, "/p".into()))
        );
        assert_eq!(of("/s/pdf/README.md"), None);
        assert_eq!(of("/s/pdf/openai.yaml"), None);
    }
}

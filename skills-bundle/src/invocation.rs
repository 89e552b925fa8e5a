//! Who may invoke a skill, and when the model is offered it.
//!
//! Three frontmatter keys (profile `claude-code`, recorded as extensions
//! with their YAML types) say it, read the way Claude Code reads them:
//!
//! - `disable-model-invocation: true`: the skill is the user's alone. It is
//!   left out of everything that lists skills to a model (the catalog, the
//!   activation tool's `enum`), and a model's attempt to activate it is
//!   refused; the user can still invoke it (an MCP prompt, `skb show`,
//!   [`Session::activate`](crate::session::Session::activate) called by
//!   the host).
//! - `user-invocable: false`: the skill is the model's alone: no MCP
//!   prompt (no slash command).
//! - `paths` (a glob, a comma-separated list of globs, or a YAML list):
//!   the skill concerns only matching files, and enters the model's
//!   catalog once the session is told of a matching path
//!   ([`Session::touch`](crate::session::Session::touch)).
//!
//! And Codex's `agents/openai.yaml` with `policy.allow_implicit_invocation:
//! false` keeps the skill from the model as `disable-model-invocation`
//! does (the compiler records it with the skill's metadata).
//!
//! A boolean is the YAML boolean or the same word as a string (`"true"`),
//! and anything else (`yes`, `1`) leaves the default (invocable). Everything is read
//! from the skill's recorded metadata, which the bundle digest covers.

use crate::Skill;
use skills_core::glob;
use skills_core::json::{self, Value};

/// The keys read.
pub const DISABLE_MODEL_INVOCATION: &str = "disable-model-invocation";
/// See [`DISABLE_MODEL_INVOCATION`].
pub const USER_INVOCABLE: &str = "user-invocable";
/// See [`DISABLE_MODEL_INVOCATION`].
pub const PATHS: &str = "paths";

/// Who may invoke a skill; see the module documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The model may activate it (no `disable-model-invocation: true`, no
    /// Codex `allow_implicit_invocation: false`).
    pub model: bool,
    /// The user may invoke it (no `user-invocable: false`).
    pub user: bool,
    /// Globs over project paths (`/`-separated, relative to the project
    /// root); empty when the skill concerns every file.
    pub paths: Vec<String>,
}

impl Invocation {
    /// Whether `path` (relative to the project root, `/`-separated; a
    /// leading `./` is ignored) matches one of the skill's `paths`.
    pub fn concerns(&self, path: &str) -> bool {
        let path = path.trim_start_matches("./");
        self.paths.iter().any(|p| glob::matches(p, path))
    }
}

impl Skill<'_> {
    /// Who may invoke the skill, and which paths bring it into the
    /// model's catalog.
    pub fn invocation(&self) -> Invocation {
        let mut invocation = Invocation {
            model: self.data.meta.allow_implicit_invocation != Some(false),
            user: true,
            paths: Vec::new(),
        };
        for (key, text) in self.extensions() {
            let Ok(node) = json::parse(text, 4) else {
                continue;
            };
            match key {
                DISABLE_MODEL_INVOCATION => {
                    invocation.model &= flag(&node.value) != Some(true);
                }
                USER_INVOCABLE => invocation.user = flag(&node.value) != Some(false),
                PATHS => invocation.paths = globs(&node.value),
                _ => {}
            }
        }
        invocation
    }

    /// Whether the frontmatter sets `disable-model-invocation` (as
    /// Claude Code reads it: `true`, not `yes` or `1`), whatever Codex's
    /// `agents/openai.yaml` says: Claude Code's own view of the skill.
    pub fn disables_model_invocation(&self) -> bool {
        self.extensions()
            .filter(|(key, _)| *key == DISABLE_MODEL_INVOCATION)
            .filter_map(|(_, text)| json::parse(text, 4).ok())
            .any(|node| flag(&node.value) == Some(true))
    }
}

/// A boolean written as one (YAML's `true`, `True`, `TRUE`), or the
/// string `"true"` / `"false"` exactly, as Claude Code reads these keys; a
/// YAML 1.1 `yes`, a `1` or any other value says nothing.
fn flag(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "true" => Some(true),
        Value::String(s) if s == "false" => Some(false),
        _ => None,
    }
}

/// `paths` as globs: a list of strings, or one string of comma-separated
/// globs; blanks dropped.
fn globs(value: &Value) -> Vec<String> {
    let items: Vec<&str> = match value {
        Value::String(s) => s.split(',').collect(),
        Value::Array(items) => items.iter().filter_map(json::Node::as_str).collect(),
        _ => Vec::new(),
    };
    items
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| p.trim_start_matches("./").to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Value {
        json::parse(text, 4).map(|n| n.value).unwrap_or(Value::Null)
    }

    #[test]
    fn flags_and_globs() {
        assert_eq!(flag(&read("true")), Some(true));
        assert_eq!(flag(&read("\"true\"")), Some(true));
        assert_eq!(flag(&read("\"True\"")), None);
        assert_eq!(flag(&read("false")), Some(false));
        assert_eq!(flag(&read("\"no\"")), None);
        assert_eq!(flag(&read("1")), None);
        assert_eq!(
            globs(&read(r#"["src/**", " ", "./docs/*.md"]"#)),
            ["src/**", "docs/*.md"]
        );
        assert_eq!(globs(&read(r#""src/**, *.rs""#)), ["src/**", "*.rs"]);
        assert!(globs(&read("3")).is_empty());
        let scoped = Invocation {
            model: true,
            user: true,
            paths: globs(&read(r#""src/**, *.rs""#)),
        };
        assert!(scoped.concerns("src/a/b.txt"));
        assert!(scoped.concerns("./main.rs"));
        assert!(!scoped.concerns("docs/a.md"));
    }
}

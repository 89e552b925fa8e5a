//! Plugin and marketplace manifests: `.claude-plugin/plugin.json` and
//! `.claude-plugin/marketplace.json`, read for [`discover`](super), with
//! every malformed field reported (`SK010`) and the defaults applied.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::links::canonical_below;
use super::listing::{
    DEFAULT_SKILLS_DIR, MANIFEST_DIR, MARKETPLACE_JSON, MAX_JSON_DEPTH, MAX_MANIFEST_BYTES,
    PLUGIN_JSON, has_skill_md, is_skill_md_name, is_skipped, list_dir,
};
use super::walk::{Walk, dir_name};
use crate::diag::{Code, Diagnostic, Label, Severity};
use crate::source::Source;
use skills_core::fsread::{Dir, FileError, Reason};
use skills_core::json;

/// A path listed in a manifest, with where it was written.
#[derive(Debug, Clone)]
pub(super) struct Listed {
    text: String,
    manifest: PathBuf,
    label: Label,
}

/// What a marketplace entry adds to a plugin.
#[derive(Debug, Default)]
pub(super) struct PluginSpec {
    name: Option<String>,
    skills: Option<Vec<Listed>>,
    /// Scan only `skills`, not the default `skills/` directory.
    replace_default: bool,
    /// Ignore `plugin.json`'s `skills` (`"strict": false`).
    ignore_manifest_skills: bool,
}

/// A manifest file, read.
pub(super) enum Manifest {
    Absent,
    /// There, but unreadable or too large (reported).
    Unusable,
    Read(Source),
}

impl Walk<'_> {
    /// Reads the root's marketplace, if it has one (rule 1): its plugins
    /// are read first, with their names.
    pub(super) fn root_marketplace(&mut self, root: &Path, canon: &Path) {
        if let Manifest::Read(src) = self.read_manifest(root, canon, MARKETPLACE_JSON) {
            self.marketplace(&src);
        }
    }

    /// Reads a plugin directory (rule 2) found by the walk, with the
    /// defaults a marketplace entry would override.
    pub(super) fn listed_plugin(&mut self, dir: &Path, canon: &Path) {
        self.plugin(dir, canon, PluginSpec::default());
    }

    /// Reads `dir/.claude-plugin/<file>`, `canon` being `dir`'s canonical path.
    fn read_manifest(&mut self, dir: &Path, canon: &Path, file: &str) -> Manifest {
        let path = dir.join(MANIFEST_DIR).join(file);
        let path = path.as_path();
        let canon = match canonical_below(dir, canon, &[MANIFEST_DIR, file]) {
            Ok(canon) => canon,
            // Nothing there (not even a dangling link, which is reported).
            Err(_) if fs::symlink_metadata(path).is_err() => return Manifest::Absent,
            Err(e) => {
                self.diags.push(Diagnostic::new(
                    Code::Io,
                    Severity::Warning,
                    path,
                    format!("cannot read `{}`: {e}; it was ignored", path.display()),
                ));
                return Manifest::Unusable;
            }
        };
        if !canon.starts_with(&self.boundary) {
            self.diags.push(
                Diagnostic::new(
                    Code::SymlinkEscape,
                    Severity::Warning,
                    path,
                    format!(
                        "`{}` leads to `{}`, outside `{}`; it was ignored",
                        path.display(),
                        canon.display(),
                        self.root.display()
                    ),
                )
                .help("keep the manifest inside the directory it describes"),
            );
            return Manifest::Unusable;
        }
        // Read where it leads, below the root, without following links: a
        // link swapped in since `canonicalize` is refused.
        let inside = canon.strip_prefix(&self.boundary).unwrap_or(&canon);
        let read = Dir::open(&self.boundary)
            .map_err(|e| FileError::new(path.to_path_buf(), Reason::Io(e)))
            .and_then(|root| root.read(inside, MAX_MANIFEST_BYTES));
        match read {
            Ok(bytes) => Manifest::Read(Source::new(path, bytes)),
            Err(mut e) => {
                e.path = path.to_path_buf();
                self.diags.push(
                    Diagnostic::new(
                        Code::BadManifest,
                        Severity::Warning,
                        path,
                        format!("{e}; it was ignored"),
                    )
                    .help("make it a JSON file of at most 1 MiB"),
                );
                Manifest::Unusable
            }
        }
    }

    /// Parses a manifest's JSON, reporting what is wrong.
    fn parse(&mut self, src: &Source) -> Option<json::Node> {
        let text = match std::str::from_utf8(src.bytes()) {
            Ok(text) => text,
            Err(e) => {
                let at = e.valid_up_to();
                self.diags.push(
                    Diagnostic::new(
                        Code::BadManifest,
                        Severity::Warning,
                        src.path(),
                        format!(
                            "`{}` is not valid UTF-8; it was ignored",
                            src.path().display()
                        ),
                    )
                    .at(src, at..at + 1)
                    .help("save the file as UTF-8"),
                );
                return None;
            }
        };
        match json::parse(text, MAX_JSON_DEPTH) {
            Ok(node) => Some(node),
            Err(e) => {
                let len = text
                    .get(e.at..)
                    .and_then(|rest| rest.chars().next())
                    .map_or(0, char::len_utf8);
                self.diags.push(
                    Diagnostic::new(
                        Code::BadManifest,
                        Severity::Warning,
                        src.path(),
                        format!(
                            "`{}` is not valid JSON: {}; it was ignored",
                            src.path().display(),
                            e.message
                        ),
                    )
                    .at(src, e.at..e.at + len)
                    .help("fix the JSON syntax (`claude plugin validate` checks manifests)"),
                );
                None
            }
        }
    }

    fn bad_shape(&mut self, src: &Source, node: &json::Node, message: String) {
        self.diags.push(
            Diagnostic::new(Code::BadManifest, Severity::Warning, src.path(), message)
                .at(src, node.span.clone()),
        );
    }

    fn bad_listed(&mut self, listed: &Listed, code: Code, message: String, help: &str) {
        let mut d = Diagnostic::new(code, Severity::Warning, &listed.manifest, message).help(help);
        d.label = Some(listed.label.clone());
        self.diags.push(d);
    }

    /// Reads a marketplace. `false` when it is unusable as a whole.
    fn marketplace(&mut self, src: &Source) -> bool {
        let Some(doc) = self.parse(src) else {
            return false;
        };
        if !matches!(doc.value, json::Value::Object(_)) {
            let message = format!(
                "`{}` must hold a JSON object, not {}; it was ignored",
                src.path().display(),
                doc.kind()
            );
            self.bad_shape(src, &doc, message);
            return false;
        }
        let Some(plugins) = doc.get("plugins") else {
            self.diags.push(
                Diagnostic::new(
                    Code::BadManifest,
                    Severity::Warning,
                    src.path(),
                    format!(
                        "`{}` has no `plugins` array; it was ignored",
                        src.path().display()
                    ),
                )
                .at(src, 0..1)
                .help("list the plugins in `\"plugins\": [...]`"),
            );
            return false;
        };
        let json::Value::Array(items) = &plugins.value else {
            let message = format!(
                "`plugins` must be an array of plugin entries, not {}; `{}` was ignored",
                plugins.kind(),
                src.path().display()
            );
            self.bad_shape(src, plugins, message);
            return false;
        };
        let plugin_root = self.plugin_root(src, &doc);
        for item in items {
            self.marketplace_entry(src, item, plugin_root.as_deref());
        }
        true
    }

    /// `metadata.pluginRoot`, as path components.
    fn plugin_root(&mut self, src: &Source, doc: &json::Node) -> Option<Vec<String>> {
        let node = doc.get("metadata")?.get("pluginRoot")?;
        let Some(text) = node.as_str() else {
            let message = format!(
                "`metadata.pluginRoot` must be a path string, not {}",
                node.kind()
            );
            self.bad_shape(src, node, message);
            return None;
        };
        match rel_components(text) {
            Ok(parts) => Some(parts),
            Err(why) => {
                let message = format!("`metadata.pluginRoot` `{text}` {why}; it was ignored");
                self.bad_shape(src, node, message);
                None
            }
        }
    }

    fn marketplace_entry(
        &mut self,
        src: &Source,
        item: &json::Node,
        plugin_root: Option<&[String]>,
    ) {
        if !matches!(item.value, json::Value::Object(_)) {
            let message = format!("a plugin entry must be an object, not {}", item.kind());
            self.bad_shape(src, item, message);
            return;
        }
        let name = match item.get("name") {
            Some(node) => match node.as_str() {
                Some(s) if !s.trim().is_empty() => Some(s.to_owned()),
                _ => {
                    let message = format!(
                        "a plugin's `name` must be a non-empty string, not {}",
                        node.kind()
                    );
                    self.bad_shape(src, node, message);
                    None
                }
            },
            None => {
                self.bad_shape(src, item, "a plugin entry has no `name`".to_owned());
                None
            }
        };
        let shown = name.as_deref().unwrap_or("?");
        let Some(source) = item.get("source") else {
            let message = format!("plugin `{shown}` has no `source`; it was skipped");
            self.bad_shape(src, item, message);
            return;
        };
        let text = match &source.value {
            json::Value::String(s) => s.as_str(),
            // A remote plugin (github, url, git-subdir, npm, ...): nothing to walk.
            json::Value::Object(_) => return,
            _ => {
                let message = format!(
                    "plugin `{shown}`'s `source` must be a path string or a source object, not {}",
                    source.kind()
                );
                self.bad_shape(src, source, message);
                return;
            }
        };
        let mut parts = match rel_components(text) {
            Ok(parts) => parts,
            Err(why) => {
                let message = format!("plugin `{shown}`'s `source` `{text}` {why}; it was skipped");
                self.bad_shape(src, source, message);
                return;
            }
        };
        if let Some(base) = plugin_root
            && !(text == "." || text.starts_with("./"))
        {
            let mut joined = base.to_vec();
            joined.append(&mut parts);
            parts = joined;
        }
        let listed = Listed {
            text: text.to_owned(),
            manifest: src.path().to_path_buf(),
            label: Label::new(src, source.span.clone()),
        };
        let root = self.root.to_path_buf();
        let boundary = self.boundary.clone();
        let Some((dir, canon)) = self.resolve(
            (&root, &boundary),
            &parts,
            &listed,
            &format!("plugin `{shown}`'s source"),
        ) else {
            return;
        };
        let strict = item.get("strict").and_then(json::Node::as_bool) != Some(false);
        let skills = match item.get("skills") {
            Some(node) => self.skill_list(src, node),
            None => None,
        };
        let spec = PluginSpec {
            name: Some(name.unwrap_or_else(|| dir_name(&dir, &canon))),
            replace_default: canon == self.boundary && skills.is_some(),
            skills,
            ignore_manifest_skills: !strict,
        };
        self.plugin(&dir, &canon, spec);
    }

    /// A `skills` field: a string or an array of strings.
    fn skill_list(&mut self, src: &Source, node: &json::Node) -> Option<Vec<Listed>> {
        let listed = |text: &str, node: &json::Node| Listed {
            text: text.to_owned(),
            manifest: src.path().to_path_buf(),
            label: Label::new(src, node.span.clone()),
        };
        match &node.value {
            json::Value::String(s) => Some(vec![listed(s, node)]),
            json::Value::Array(items) => {
                let mut out = Vec::new();
                for item in items {
                    match item.as_str() {
                        Some(s) => out.push(listed(s, item)),
                        None => {
                            let message = format!(
                                "each entry of `skills` must be a path string, not {}",
                                item.kind()
                            );
                            self.bad_shape(src, item, message);
                        }
                    }
                }
                Some(out)
            }
            _ => {
                let message = format!(
                    "`skills` must be a path string or an array of path strings, not {}; it was ignored",
                    node.kind()
                );
                self.bad_shape(src, node, message);
                None
            }
        }
    }

    /// Reads a plugin directory (rule 2).
    fn plugin(&mut self, dir: &Path, canon: &Path, spec: PluginSpec) {
        let mut own_name = None;
        let mut own_skills = None;
        if let Manifest::Read(src) = self.read_manifest(dir, canon, PLUGIN_JSON)
            && let Some(doc) = self.parse(&src)
        {
            if matches!(doc.value, json::Value::Object(_)) {
                if let Some(node) = doc.get("name") {
                    match node.as_str() {
                        Some(s) if !s.trim().is_empty() => own_name = Some(s.to_owned()),
                        _ => {
                            let message = format!(
                                "the plugin's `name` must be a non-empty string, not {}; the directory's name is used",
                                node.kind()
                            );
                            self.bad_shape(&src, node, message);
                        }
                    }
                }
                if !spec.ignore_manifest_skills
                    && let Some(node) = doc.get("skills")
                {
                    own_skills = self.skill_list(&src, node);
                }
            } else {
                let message = format!(
                    "`{}` must hold a JSON object, not {}; defaults are used",
                    src.path().display(),
                    doc.kind()
                );
                self.bad_shape(&src, &doc, message);
            }
        }
        let name = spec
            .name
            .or(own_name)
            .unwrap_or_else(|| dir_name(dir, canon));
        let declared = spec.skills.is_some() || own_skills.is_some();
        let mut any = false;
        if !spec.replace_default {
            let entries = list_dir(dir, self.diags);
            if let Some(entry) = entries.iter().find(|e| e.name == DEFAULT_SKILLS_DIR)
                && let Some(child) = self.child_dir(canon, entry)
            {
                any |= self.skills_path(&entry.path, &child, &name, false);
            }
        }
        let listed = spec
            .skills
            .into_iter()
            .flatten()
            .chain(own_skills.into_iter().flatten());
        for item in listed {
            let parts = match rel_components(&item.text) {
                Ok(parts) => parts,
                Err(why) => {
                    let message = format!("skills path `{}` {why}; it was skipped", item.text);
                    self.bad_listed(
                        &item,
                        Code::BadManifest,
                        message,
                        "write a path relative to the plugin, such as `./skills/foo`",
                    );
                    continue;
                }
            };
            let what = format!("plugin `{name}`'s skills path");
            if let Some((path, path_canon)) = self.resolve((dir, canon), &parts, &item, &what) {
                let is_root = path_canon == canon;
                any |= self.skills_path(&path, &path_canon, &name, is_root);
            }
        }
        if !any && !declared {
            let entries = list_dir(dir, self.diags);
            if has_skill_md(&entries) {
                self.add_skill(dir, canon, Some(&name));
            }
        }
    }

    /// One scanned skills path: a skill itself, or a directory of skills.
    /// Returns whether it held any skill.
    fn skills_path(&mut self, dir: &Path, canon: &Path, plugin: &str, plugin_root: bool) -> bool {
        let entries = list_dir(dir, self.diags);
        if has_skill_md(&entries) {
            self.add_skill(dir, canon, Some(plugin));
            return true;
        }
        let mut any = false;
        for entry in &entries {
            if is_skipped(&entry.name) {
                continue;
            }
            let Some(child) = self.child_dir(canon, entry) else {
                continue;
            };
            if plugin_root {
                let holds = ["SKILL.md", "skill.md"]
                    .iter()
                    .any(|n| fs::symlink_metadata(entry.path.join(n)).is_ok());
                if !holds {
                    continue;
                }
            }
            self.add_skill(&entry.path, &child, Some(plugin));
            any = true;
        }
        any
    }

    /// Joins manifest path components onto `base` and checks that the result
    /// exists, is a directory (or a `SKILL.md`, meaning its directory) and
    /// stays inside the root. Returns the shown and the canonical path.
    fn resolve(
        &mut self,
        (base, base_canon): (&Path, &Path),
        parts: &[String],
        listed: &Listed,
        what: &str,
    ) -> Option<(PathBuf, PathBuf)> {
        let mut path = base.to_path_buf();
        path.extend(parts);
        let canon = match canonical_below(base, base_canon, parts) {
            Ok(canon) => canon,
            Err(e) => {
                let message = if e.kind() == io::ErrorKind::NotFound {
                    format!(
                        "{what} `{}` does not exist (looked for `{}`)",
                        listed.text,
                        path.display()
                    )
                } else {
                    format!("{what} `{}` cannot be read: {e}", listed.text)
                };
                self.bad_listed(
                    listed,
                    Code::BadManifest,
                    message,
                    "fix the path, or remove the entry",
                );
                return None;
            }
        };
        if !canon.starts_with(&self.boundary) {
            let message = format!(
                "{what} `{}` leads to `{}`, outside `{}`; it was not followed",
                listed.text,
                canon.display(),
                self.root.display()
            );
            self.bad_listed(
                listed,
                Code::SymlinkEscape,
                message,
                "copy the target inside instead of linking to it",
            );
            return None;
        }
        if canon.is_dir() {
            return Some((path, canon));
        }
        if canon.is_file()
            && is_skill_md_name(&path)
            && let (Some(p), Some(c)) = (path.parent(), canon.parent())
        {
            return Some((p.to_path_buf(), c.to_path_buf()));
        }
        let message = format!("{what} `{}` is not a directory", listed.text);
        self.bad_listed(
            listed,
            Code::BadManifest,
            message,
            "point it at a directory",
        );
        None
    }
}

/// Splits a manifest path into components: relative, `/`-separated, no `..`.
/// `.` and empty components are dropped.
fn rel_components(text: &str) -> Result<Vec<String>, &'static str> {
    let bytes = text.as_bytes();
    if text.starts_with('/')
        || (bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
    {
        return Err("is absolute; manifest paths must be relative, such as `./skills`");
    }
    if text.contains('\\') {
        return Err("contains `\\`; manifest paths use `/` separators");
    }
    let mut parts = Vec::new();
    for part in text.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                return Err(
                    "contains `..`; manifest paths must stay inside the marketplace or plugin",
                );
            }
            _ => parts.push(part.to_owned()),
        }
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_components_rules() {
        assert_eq!(
            rel_components("./a//b/./c/"),
            Ok(vec!["a".into(), "b".into(), "c".into()])
        );
        assert_eq!(rel_components("."), Ok(vec![]));
        assert!(rel_components("a/../b").is_err());
        assert!(rel_components("/a").is_err());
        assert!(rel_components("C:/a").is_err());
        assert!(rel_components("a\\b").is_err());
    }
}

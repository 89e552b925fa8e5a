//! The one record of a skill's metadata, and of a file's identity.
//!
//! [`SkillMeta`] holds every field of a skill that the runtime obeys: what
//! the compiler derives from `SKILL.md`, what a pack's manifest carries,
//! what `skills_bundle!` writes into the binary, and what the bundle digest
//! covers. [`FileMeta`] is a file's path, size, mode and hash, the same
//! four places over. Each is defined once, here, and carried whole by the
//! compiler's plan, the manifest and the runtime tables.
//!
//! Strings and lists are [`Str`] and [`List`]: borrowed from the binary
//! (`skills_bundle!` builds its tables as statics, every string a literal,
//! every list a static slice) or owned (the compiler, and a pack loaded at
//! run time), so one set of types, and one implementation of every
//! accessor, serves both.

use std::borrow::Cow;

use crate::json;

/// A string: borrowed from a literal, or owned.
pub type Str = Cow<'static, str>;

/// A list: a static slice, or owned.
#[derive(Debug)]
pub enum List<T: 'static> {
    /// Built by `skills_bundle!`.
    Static(&'static [T]),
    /// Built at run time.
    Owned(Vec<T>),
}

impl<T> std::ops::Deref for List<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            List::Static(items) => items,
            List::Owned(items) => items,
        }
    }
}

impl<T: Clone> List<T> {
    /// The items, owned (a static list is copied first), to edit.
    pub fn to_mut(&mut self) -> &mut Vec<T> {
        if let List::Static(items) = *self {
            *self = List::Owned(items.to_vec());
        }
        match self {
            List::Owned(items) => items,
            List::Static(_) => unreachable!("made owned above"),
        }
    }
}

impl<T> From<Vec<T>> for List<T> {
    fn from(items: Vec<T>) -> Self {
        List::Owned(items)
    }
}

impl<T> FromIterator<T> for List<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        List::Owned(items.into_iter().collect())
    }
}

impl<T> Default for List<T> {
    fn default() -> Self {
        List::Static(&[])
    }
}

impl<T: Clone> Clone for List<T> {
    fn clone(&self) -> Self {
        match self {
            List::Static(items) => List::Static(items),
            List::Owned(items) => List::Owned(items.clone()),
        }
    }
}

impl<T: PartialEq> PartialEq for List<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for List<T> {}

/// A skill's metadata: every field the runtime reads, nothing about where
/// the skill came from or how its files are stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillMeta {
    /// Qualified name (`plugin:skill` inside a plugin).
    pub name: Str,
    /// Description, stripped.
    pub description: Str,
    /// `license`, when a string.
    pub license: Option<Str>,
    /// `compatibility`, when a string.
    pub compatibility: Option<Str>,
    /// `metadata` pairs in the order written, values as the reference's `str()`.
    pub metadata: List<(Str, Str)>,
    /// `allowed-tools`, split into rules: (tool, pattern).
    pub allowed_tools: List<(Str, Option<Str>)>,
    /// Keys outside the specification, in the order written, values as JSON text.
    pub extensions: List<(Str, Str)>,
    /// The path of `SKILL.md` among the skill's files (`SKILL.md` or `skill.md`).
    pub skill_md: Str,
    /// The body's byte range inside `SKILL.md`.
    pub body: (u32, u32),
    /// Codex's `policy.allow_implicit_invocation` in `agents/openai.yaml`,
    /// when the file sets it: `Some(false)` keeps the skill out of what the
    /// model is offered (the user can still invoke it).
    pub allow_implicit_invocation: Option<bool>,
    /// The whole frontmatter mapping as the author wrote it, as compact JSON
    /// text: keys in the order written, values typed by the YAML 1.2 core
    /// schema (`version: 2` the number, `"2"` the string, a list a list),
    /// what SEP-2640 serves as a skill's `frontmatter`. Empty when the
    /// skill has no frontmatter mapping, and in a pack written before this
    /// field.
    pub frontmatter: Str,
    /// The names the `arguments` extension gives Claude Code's `$name`
    /// placeholders ([`argument_names`]), read once when the record is made
    /// ([`SkillMeta::derive_from_extensions`]) so that activating a skill
    /// parses nothing. Not a field of the manifest: derived from `extensions`.
    pub arguments: List<Str>,
    /// The `when_to_use` extension when it is a JSON string ([`when_to_use`]),
    /// what Claude Code appends to a catalog entry; derived likewise.
    pub when_to_use: Option<Str>,
}

impl SkillMeta {
    /// Sets the fields derived from `extensions` (`arguments`,
    /// `when_to_use`): called wherever a record is made, from a `SKILL.md`
    /// or a pack's manifest, so that run time reads them as they are.
    pub fn derive_from_extensions(&mut self) {
        let extension = |key: &str| {
            self.extensions
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| &**v)
        };
        self.arguments = extension("arguments")
            .map(argument_names)
            .unwrap_or_default()
            .into_iter()
            .map(Str::from)
            .collect();
        self.when_to_use = extension("when_to_use")
            .and_then(when_to_use)
            .map(Str::from);
    }

    /// Every field, in one fixed order, each with its value as JSON text:
    /// what a pack's manifest writes, and what `skb diff` and `skills
    /// verify` compare and name. `allow_implicit_invocation` and then
    /// `frontmatter` come last, each left out when not set or empty (so
    /// every manifest without them reads as before).
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let opt = |v: &Option<Str>| v.as_deref().map_or_else(|| "null".into(), json::quote);
        let pairs = |items: &[(Str, Str)]| {
            let items: Vec<String> = items
                .iter()
                .map(|(k, v)| format!("[{}, {}]", json::quote(k), json::quote(v)))
                .collect();
            format!("[{}]", items.join(", "))
        };
        let tools: Vec<String> = self
            .allowed_tools
            .iter()
            .map(|(t, p)| format!("[{}, {}]", json::quote(t), opt(p)))
            .collect();
        let mut fields = vec![
            ("name", json::quote(&self.name)),
            ("description", json::quote(&self.description)),
            ("license", opt(&self.license)),
            ("compatibility", opt(&self.compatibility)),
            ("metadata", pairs(&self.metadata)),
            ("allowed_tools", format!("[{}]", tools.join(", "))),
            ("extensions", pairs(&self.extensions)),
            ("skill_md", json::quote(&self.skill_md)),
            ("body", format!("[{}, {}]", self.body.0, self.body.1)),
        ];
        if let Some(allow) = self.allow_implicit_invocation {
            fields.push(("allow_implicit_invocation", allow.to_string()));
        }
        if !self.frontmatter.is_empty() {
            fields.push(("frontmatter", json::quote(&self.frontmatter)));
        }
        fields
    }
}

/// Two skills' [`SkillMeta::fields`] (or a manifest's, with `dir`) side by
/// side, by key: `a`'s fields in order, then those only `b` has. A field
/// written only when set (`allow_implicit_invocation`, `frontmatter`) may be
/// on one side alone, and reads as `null` on the other. What `skb diff`
/// and the manifest's re-derivation compare.
pub fn side_by_side<'f>(
    a: &'f [(&'static str, String)],
    b: &'f [(&'static str, String)],
) -> Vec<(&'static str, &'f str, &'f str)> {
    let value = |fields: &'f [(&'static str, String)], key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map_or("null", |(_, v)| v.as_str())
    };
    a.iter()
        .map(|(k, _)| *k)
        .chain(
            b.iter()
                .map(|(k, _)| *k)
                .filter(|k| !a.iter().any(|(l, _)| l == k)),
        )
        .map(|key| (key, value(a, key), value(b, key)))
        .collect()
}

/// A file's identity: where it is in its skill, how big, what mode, and
/// the hash of its bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileMeta {
    /// Path relative to the skill directory, `/`-separated.
    pub path: Str,
    /// Uncompressed size.
    pub size: u64,
    /// SHA-256 of the uncompressed bytes.
    pub sha256: [u8; 32],
    /// Whether the file is executable (mode 0755, else 0644).
    pub executable: bool,
}

/// The names of the frontmatter's `arguments` (as JSON text: a list, or a
/// string of blank-separated names); an item that is not a string keeps its
/// place with no name.
pub fn argument_names(json_text: &str) -> Vec<String> {
    use json::Value;
    match json::parse(json_text, 4).map(|n| n.value) {
        Ok(Value::Array(items)) => items
            .into_iter()
            .map(|n| match n.value {
                Value::String(s) => s,
                _ => String::new(),
            })
            .collect(),
        Ok(Value::String(s)) => s.split_whitespace().map(str::to_string).collect(),
        _ => Vec::new(),
    }
}

/// `when_to_use` (as JSON text) when it is a string.
pub fn when_to_use(json_text: &str) -> Option<String> {
    json::parse(json_text, 1)
        .ok()
        .and_then(|n| n.as_str().map(String::from))
}

/// Owned pairs, from what the compiler collects.
pub fn pairs(items: Vec<(String, String)>) -> List<(Str, Str)> {
    items
        .into_iter()
        .map(|(k, v)| (k.into(), v.into()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_json_in_one_order() {
        let meta = SkillMeta {
            name: "calc".into(),
            description: "Adds \"numbers\".".into(),
            metadata: pairs(vec![("k".into(), "v".into())]),
            allowed_tools: vec![
                ("Bash".into(), Some("python3:*".into())),
                ("Read".into(), None),
            ]
            .into(),
            skill_md: "SKILL.md".into(),
            body: (10, 20),
            ..SkillMeta::default()
        };
        let fields = meta.fields();
        let names: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            names,
            [
                "name",
                "description",
                "license",
                "compatibility",
                "metadata",
                "allowed_tools",
                "extensions",
                "skill_md",
                "body"
            ]
        );
        assert_eq!(fields[1].1, r#""Adds \"numbers\".""#);
        assert_eq!(fields[2].1, "null");
        assert_eq!(fields[4].1, r#"[["k", "v"]]"#);
        assert_eq!(fields[5].1, r#"[["Bash", "python3:*"], ["Read", null]]"#);
        assert_eq!(fields[8].1, "[10, 20]");
        let codex = SkillMeta {
            allow_implicit_invocation: Some(false),
            ..meta
        };
        assert_eq!(
            codex.fields().last(),
            Some(&("allow_implicit_invocation", "false".to_string()))
        );
        let typed = SkillMeta {
            frontmatter: r#"{"name":"calc","version":2}"#.into(),
            ..codex
        };
        let fields = typed.fields();
        assert_eq!(
            fields[fields.len() - 2..],
            [
                ("allow_implicit_invocation", "false".to_string()),
                (
                    "frontmatter",
                    r#""{\"name\":\"calc\",\"version\":2}""#.to_string()
                )
            ]
        );
    }

    #[test]
    fn arguments_and_when_to_use_are_derived_from_the_extensions() {
        assert_eq!(argument_names(r#"["target", "mode"]"#), ["target", "mode"]);
        assert_eq!(argument_names(r#"["a", 1, "b"]"#), ["a", "", "b"]);
        assert_eq!(argument_names(r#""target  mode""#), ["target", "mode"]);
        assert!(argument_names("true").is_empty());
        assert!(argument_names("[[[[[[[[").is_empty());
        assert_eq!(
            when_to_use(r#""when asked""#).as_deref(),
            Some("when asked")
        );
        assert_eq!(when_to_use("[]"), None);
        let mut meta = SkillMeta {
            extensions: pairs(vec![
                ("arguments".into(), r#"["file"]"#.into()),
                ("when_to_use".into(), r#""on Fridays""#.into()),
            ]),
            ..SkillMeta::default()
        };
        meta.derive_from_extensions();
        assert_eq!(meta.arguments.to_vec(), [Str::from("file")]);
        assert_eq!(meta.when_to_use.as_deref(), Some("on Fridays"));
        // Derived: not written to the manifest, not compared.
        assert!(meta.fields().iter().all(|(k, _)| *k != "arguments"));
        meta.extensions = List::default();
        meta.derive_from_extensions();
        assert_eq!(meta, SkillMeta::default());
    }

    #[test]
    fn fields_side_by_side_match_by_key() {
        let set = |v: &str| v.to_string();
        let a = [
            ("name", set("\"a\"")),
            ("allow_implicit_invocation", set("false")),
        ];
        let b = [("name", set("\"a\"")), ("frontmatter", set("\"{}\""))];
        assert_eq!(
            side_by_side(&a, &b),
            [
                ("name", "\"a\"", "\"a\""),
                ("allow_implicit_invocation", "false", "null"),
                ("frontmatter", "null", "\"{}\""),
            ]
        );
    }

    #[test]
    fn static_and_owned_lists_compare_by_content() {
        static ITEMS: [u8; 2] = [1, 2];
        assert_eq!(List::Static(&ITEMS), List::from(vec![1u8, 2]));
        assert_ne!(List::Static(&ITEMS), List::<u8>::default());
    }
}

//! The pack manifest, `skillpack.json`: what a pack holds, written first.
//!
//! One file says everything a reader needs before touching content: the
//! format version, the tool that wrote it, the codec, every skill's metadata
//! (what the runtime would otherwise parse out of `SKILL.md`, which it
//! cannot: agent binaries link no YAML parser), and every file's path, size,
//! mode and SHA-256, plus the pack digest (`crate::digest`) over all of it,
//! metadata included, which is recomputed on load and must match: a field
//! edited after packing is refused.
//!
//! The JSON is written by [`Manifest::to_json`] in one fixed layout (keys in
//! a fixed order, two-space indentation, one file per line, strings escaped
//! only where JSON requires), so equal content gives equal bytes. The reader
//! ([`Manifest::parse`]) is strict: unknown keys, missing keys, wrong types,
//! unsorted or repeated names and paths are all errors, so two different
//! byte sequences never mean the same pack.

use std::fmt::Write as _;

use crate::digest;
use crate::json::{self, Node, Value};
use crate::meta::{FileMeta, SkillMeta, Str};
use crate::path;

/// The manifest's entry name: the first entry of every pack.
pub const MANIFEST_NAME: &str = "skillpack.json";

/// The `format` value.
pub const FORMAT: &str = "skillpack";

/// The format version this crate reads and writes. Version 2 digests every
/// field of the listing (`crate::digest`, `skills-digest-v2`); version 1
/// digested the files only, so its metadata could be edited unnoticed, and
/// it is refused.
pub const VERSION: u64 = 2;

/// How file contents are stored: each zip entry is raw deflate (method 8)
/// or stored (method 0), whichever is smaller.
pub const CODEC: &str = "deflate";

/// The names a skill's `SKILL.md` may have at the top of its directory, as
/// discovery finds it (`compiler::skill`); `skill_md` names one of them.
pub const SKILL_MD_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// Deepest JSON nesting a manifest needs (object → skills → skill → files →
/// file), with room to spare.
const MAX_DEPTH: usize = 8;

/// Deepest nesting of a skill's `frontmatter` JSON: serde_json's own
/// recursion limit, so whatever is read here a host's JSON reader reads too
/// (the compiler's YAML reader stops at 64 levels).
const FRONTMATTER_DEPTH: usize = 128;

/// A parsed manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The tool that wrote the pack, `skills <version>`.
    pub tool: String,
    /// The pack digest (hex), as `crate::digest::bundle_digest` computes it.
    pub digest: String,
    /// Skills, sorted by name.
    pub skills: Vec<ManifestSkill>,
}

/// One skill of a manifest: its metadata, where it sits in the pack, and
/// its files.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ManifestSkill {
    /// Every field the runtime obeys.
    pub meta: SkillMeta,
    /// The skill's directory inside the pack ([`skill_dir`]).
    pub dir: String,
    /// Files, sorted by path.
    pub files: Vec<FileMeta>,
}

impl ManifestSkill {
    /// The zip entry name of `file`: `<dir>/<path>`.
    pub fn entry_name(&self, file: &FileMeta) -> String {
        format!("{}/{}", self.dir, file.path)
    }

    /// Every field but `files`, in the manifest's order, each with its value
    /// as the manifest's JSON writes it: what is written, and what `skills
    /// diff` and `skb verify` compare and name.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let mut fields = self.meta.fields();
        fields.insert(1, ("dir", json::quote(&self.dir)));
        fields
    }
}

/// The directory a skill called `name` gets inside a pack: its name, or
/// `<plugin>/skills/<skill>` for a plugin's `plugin:skill`, the layout of a
/// Claude Code plugin (so an unpacked pack, given the plugin's
/// `.claude-plugin/plugin.json`, is discovered under the same names).
pub fn skill_dir(name: &str) -> String {
    match name.rsplit_once(':') {
        Some((plugin, skill)) => format!("{plugin}/skills/{skill}"),
        None => name.to_string(),
    }
}

/// The plugin of a skill called `plugin:skill`; also the plugin's directory
/// in the pack.
pub fn plugin_of(name: &str) -> Option<&str> {
    name.rsplit_once(':').map(|(plugin, _)| plugin)
}

impl Manifest {
    /// Builds a manifest for `skills` (sorted here), computing the digest.
    pub fn new(tool: String, mut skills: Vec<ManifestSkill>) -> Manifest {
        skills.sort_by(|a, b| a.meta.name.cmp(&b.meta.name));
        for s in &mut skills {
            s.files.sort_by(|a, b| a.path.cmp(&b.path));
        }
        let digest = listing_digest(&skills);
        Manifest {
            tool,
            digest,
            skills,
        }
    }

    /// The manifest as JSON, in the one layout this format allows.
    pub fn to_json(&self) -> String {
        let mut o = String::new();
        o.push_str("{\n");
        let _ = writeln!(o, "  \"format\": {},", json::quote(FORMAT));
        let _ = writeln!(o, "  \"version\": {VERSION},");
        let _ = writeln!(o, "  \"tool\": {},", json::quote(&self.tool));
        let _ = writeln!(o, "  \"codec\": {},", json::quote(CODEC));
        let _ = writeln!(o, "  \"digest\": {},", json::quote(&self.digest));
        o.push_str("  \"skills\": [");
        for (i, s) in self.skills.iter().enumerate() {
            o.push_str(if i == 0 { "\n" } else { ",\n" });
            o.push_str("    {\n");
            for (key, value) in s.fields() {
                let _ = writeln!(o, "      \"{key}\": {value},");
            }
            o.push_str("      \"files\": [");
            for (j, f) in s.files.iter().enumerate() {
                o.push_str(if j == 0 { "\n" } else { ",\n" });
                let _ = write!(
                    o,
                    "        {{\"path\": {}, \"size\": {}, \"mode\": \"{}\", \"sha256\": \"{}\"}}",
                    json::quote(&f.path),
                    f.size,
                    if f.executable { "0755" } else { "0644" },
                    digest::hex(&f.sha256)
                );
            }
            o.push_str(if s.files.is_empty() {
                "]\n"
            } else {
                "\n      ]\n"
            });
            o.push_str("    }");
        }
        o.push_str(if self.skills.is_empty() {
            "]\n"
        } else {
            "\n  ]\n"
        });
        o.push_str("}\n");
        o
    }

    /// Parses and checks a manifest: shape, types, order, uniqueness (of
    /// skills, of paths, and of entry names across skills), paths, and the
    /// digest against the content.
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let doc = json::parse(text, MAX_DEPTH)
            .map_err(|e| format!("not valid JSON at byte {}: {}", e.at, e.message))?;
        let top = Fields::new(&doc, text, "the manifest")?;
        let format = top.str("format")?;
        if format != FORMAT {
            return Err(format!("`format` is `{format}`, expected `{FORMAT}`"));
        }
        let version = top.u64("version")?;
        if version != VERSION {
            return Err(format!(
                "format version {version} is not supported (this build reads version {VERSION})"
            ));
        }
        let codec = top.str("codec")?;
        if codec != CODEC {
            return Err(format!("codec `{codec}` is not supported"));
        }
        let tool = top.str("tool")?.to_string();
        let digest = top.str("digest")?.to_string();
        let mut skills = Vec::new();
        for node in top.array("skills")? {
            skills.push(parse_skill(node, text)?);
        }
        top.done(&["format", "version", "tool", "codec", "digest", "skills"])?;
        for pair in skills.windows(2) {
            if pair[0].meta.name >= pair[1].meta.name {
                return Err(format!(
                    "skills are not sorted by name, or repeated: `{}` then `{}`",
                    pair[0].meta.name, pair[1].meta.name
                ));
            }
        }
        let computed = listing_digest(&skills);
        let manifest = Manifest {
            tool,
            digest,
            skills,
        };
        // One entry per listed file: two skills listing one name would let
        // an unlisted entry make up the count.
        let entries = manifest.entries();
        if let Some(pair) = entries.windows(2).find(|pair| pair[0].0 == pair[1].0) {
            return Err(format!(
                "entry `{}` is listed by skill `{}` and by skill `{}`",
                pair[0].0, pair[0].1.meta.name, pair[1].1.meta.name
            ));
        }
        if computed != manifest.digest {
            return Err(format!(
                "the digest {} does not match the manifest's content, whose digest is {computed}",
                manifest.digest
            ));
        }
        Ok(manifest)
    }

    /// Every file with its zip entry name, in entry-name order.
    pub fn entries(&self) -> Vec<(String, &ManifestSkill, &FileMeta)> {
        let mut all: Vec<(String, &ManifestSkill, &FileMeta)> = self
            .skills
            .iter()
            .flat_map(|s| s.files.iter().map(move |f| (s.entry_name(f), s, f)))
            .collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }
}

fn listing_digest(skills: &[ManifestSkill]) -> String {
    digest::bundle_digest(skills.iter().map(|s| (&s.meta, s.files.iter().collect())))
}

fn parse_skill(node: &Node, text: &str) -> Result<ManifestSkill, String> {
    let f = Fields::new(node, text, "a skill")?;
    let name = f.str("name")?.to_string();
    let ctx = |e: String| format!("skill `{name}`: {e}");
    let dir = f.str("dir").map_err(ctx)?.to_string();
    if dir != skill_dir(&name) || !path::is_normal(&dir) {
        return Err(ctx(format!(
            "`dir` is `{dir}`, expected `{}`",
            skill_dir(&name)
        )));
    }
    let mut files = Vec::new();
    for node in f.array("files").map_err(ctx)? {
        files.push(parse_file(node, text).map_err(ctx)?);
    }
    for pair in files.windows(2) {
        if pair[0].path >= pair[1].path {
            return Err(ctx(format!(
                "files are not sorted by path, or repeated: `{}` then `{}`",
                pair[0].path, pair[1].path
            )));
        }
    }
    let skill_md = f.str("skill_md").map_err(ctx)?.to_string();
    if !SKILL_MD_NAMES.contains(&skill_md.as_str()) {
        return Err(ctx(format!(
            "`skill_md` is `{skill_md}`, expected `SKILL.md` or `skill.md`"
        )));
    }
    let Some(md) = files.iter().find(|file| file.path == skill_md.as_str()) else {
        return Err(ctx(format!(
            "`skill_md` names `{skill_md}`, which is not among the files"
        )));
    };
    let body = match &f.get("body").map_err(ctx)?.value {
        Value::Array(items) if items.len() == 2 => (
            u32_of(&items[0], text).map_err(ctx)?,
            u32_of(&items[1], text).map_err(ctx)?,
        ),
        _ => return Err(ctx("`body` must be [start, end]".into())),
    };
    if body.0 > body.1 || u64::from(body.1) > md.size {
        return Err(ctx(format!(
            "`body` [{}, {}] is not a range inside `{skill_md}` ({} bytes)",
            body.0, body.1, md.size
        )));
    }
    let allowed_tools = f
        .array("allowed_tools")
        .map_err(ctx)?
        .iter()
        .map(|n| match &n.value {
            Value::Array(items) if items.len() == 2 => {
                let tool = items[0].as_str().ok_or("a tool name must be a string")?;
                let pattern = match &items[1].value {
                    Value::Null => None,
                    Value::String(s) => Some(s.clone()),
                    _ => return Err("a tool pattern must be a string or null".to_string()),
                };
                Ok((Str::from(tool.to_string()), pattern.map(Str::from)))
            }
            _ => Err("`allowed_tools` items must be [tool, pattern]".to_string()),
        })
        .collect::<Result<Vec<_>, String>>()
        .map_err(ctx)?;
    let mut meta = SkillMeta {
        name: Str::default(),
        description: f.str("description").map_err(ctx)?.to_string().into(),
        license: f.opt_str("license").map_err(ctx)?.map(Str::from),
        compatibility: f.opt_str("compatibility").map_err(ctx)?.map(Str::from),
        metadata: crate::meta::pairs(f.pairs("metadata").map_err(ctx)?),
        allowed_tools: allowed_tools.into(),
        extensions: crate::meta::pairs(f.pairs("extensions").map_err(ctx)?),
        skill_md: skill_md.into(),
        body,
        allow_implicit_invocation: f.opt_bool("allow_implicit_invocation").map_err(ctx)?,
        frontmatter: f.frontmatter().map_err(ctx)?.into(),
        ..SkillMeta::default()
    };
    meta.derive_from_extensions();
    f.done(&[
        "name",
        "dir",
        "description",
        "license",
        "compatibility",
        "metadata",
        "allowed_tools",
        "extensions",
        "skill_md",
        "body",
        "allow_implicit_invocation",
        "frontmatter",
        "files",
    ])
    .map_err(ctx)?;
    Ok(ManifestSkill {
        meta: SkillMeta {
            name: name.into(),
            ..meta
        },
        dir,
        files,
    })
}

fn parse_file(node: &Node, text: &str) -> Result<FileMeta, String> {
    let f = Fields::new(node, text, "a file")?;
    let path = f.str("path")?.to_string();
    if !path::is_normal(&path) {
        return Err(format!("file path `{path}` is not a normal relative path"));
    }
    let executable = match f.str("mode")? {
        "0644" => false,
        "0755" => true,
        other => return Err(format!("file `{path}`: mode `{other}` is not 0644 or 0755")),
    };
    let hex = f.str("sha256")?;
    let sha256 =
        parse_hex(hex).ok_or_else(|| format!("file `{path}`: `{hex}` is not a SHA-256"))?;
    let size = f.u64("size")?;
    f.done(&["path", "size", "mode", "sha256"])?;
    Ok(FileMeta {
        path: path.into(),
        size,
        executable,
        sha256,
    })
}

/// The members of one JSON object, looked up strictly.
struct Fields<'a> {
    members: &'a [(String, Node)],
    what: &'static str,
    /// The document, where numbers are read from.
    text: &'a str,
}

impl<'a> Fields<'a> {
    fn new(node: &'a Node, text: &'a str, what: &'static str) -> Result<Fields<'a>, String> {
        match &node.value {
            Value::Object(members) => Ok(Fields {
                members,
                what,
                text,
            }),
            _ => Err(format!("{what} must be an object, not {}", node.kind())),
        }
    }

    fn get(&self, key: &str) -> Result<&'a Node, String> {
        let mut found = self.members.iter().filter(|(k, _)| k == key);
        match (found.next(), found.next()) {
            (Some((_, node)), None) => Ok(node),
            (Some(_), Some(_)) => Err(format!("`{key}` is repeated in {}", self.what)),
            (None, _) => Err(format!("`{key}` is missing from {}", self.what)),
        }
    }

    fn str(&self, key: &str) -> Result<&'a str, String> {
        let node = self.get(key)?;
        node.as_str()
            .ok_or_else(|| format!("`{key}` must be a string, not {}", node.kind()))
    }

    fn opt_str(&self, key: &str) -> Result<Option<String>, String> {
        match &self.get(key)?.value {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            _ => Err(format!("`{key}` must be a string or null")),
        }
    }

    /// A boolean that may be absent (read as `None`, like `null`).
    fn opt_bool(&self, key: &str) -> Result<Option<bool>, String> {
        if !self.members.iter().any(|(k, _)| k == key) {
            return Ok(None);
        }
        match &self.get(key)?.value {
            Value::Null => Ok(None),
            Value::Bool(b) => Ok(Some(*b)),
            _ => Err(format!("`{key}` must be a boolean or null")),
        }
    }

    /// `frontmatter`: JSON text of an object, held in a string; absent (read
    /// as empty) in a pack written before the field, never written empty.
    fn frontmatter(&self) -> Result<String, String> {
        if !self.members.iter().any(|(k, _)| k == "frontmatter") {
            return Ok(String::new());
        }
        let text = self.str("frontmatter")?;
        match json::parse(text, FRONTMATTER_DEPTH) {
            Ok(Node {
                value: Value::Object(_),
                ..
            }) => Ok(text.to_string()),
            Ok(other) => Err(format!(
                "`frontmatter` must hold a JSON object, not {}",
                other.kind()
            )),
            Err(e) => Err(format!(
                "`frontmatter` is not valid JSON at byte {}: {}",
                e.at, e.message
            )),
        }
    }

    fn u64(&self, key: &str) -> Result<u64, String> {
        number(self.get(key)?, self.text)
            .ok_or_else(|| format!("`{key}` must be a non-negative integer"))
    }

    fn array(&self, key: &str) -> Result<&'a [Node], String> {
        match &self.get(key)?.value {
            Value::Array(items) => Ok(items),
            _ => Err(format!("`{key}` must be an array")),
        }
    }

    fn pairs(&self, key: &str) -> Result<Vec<(String, String)>, String> {
        self.array(key)?
            .iter()
            .map(|n| match &n.value {
                Value::Array(items) if items.len() == 2 => {
                    match (items[0].as_str(), items[1].as_str()) {
                        (Some(k), Some(v)) => Ok((k.to_string(), v.to_string())),
                        _ => Err(format!("`{key}` items must be two strings")),
                    }
                }
                _ => Err(format!("`{key}` items must be [key, value]")),
            })
            .collect()
    }

    /// Fails on a key outside `known`.
    fn done(&self, known: &[&str]) -> Result<(), String> {
        match self
            .members
            .iter()
            .find(|(k, _)| !known.contains(&k.as_str()))
        {
            Some((k, _)) => Err(format!("unknown key `{k}` in {}", self.what)),
            None => Ok(()),
        }
    }
}

/// A JSON number that is a plain non-negative integer (no sign, fraction or
/// exponent), as the writer writes it.
fn number(node: &Node, text: &str) -> Option<u64> {
    match &node.value {
        Value::Number => {
            let digits = text.get(node.span.clone())?;
            if digits.bytes().all(|b| b.is_ascii_digit()) {
                digits.parse().ok()
            } else {
                None
            }
        }
        _ => None,
    }
}

fn u32_of(node: &Node, text: &str) -> Result<u32, String> {
    number(node, text)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| "`body` bounds must be integers below 2^32".to_string())
}

fn parse_hex(s: &str) -> Option<[u8; 32]> {
    let b = s.as_bytes();
    if b.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in b.chunks_exact(2).enumerate() {
        let digit = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Manifest {
        let file = |path: &'static str, size, executable| FileMeta {
            path: path.into(),
            size,
            executable,
            sha256: [7; 32],
        };
        Manifest::new(
            "skills 0.0.0".into(),
            vec![
                ManifestSkill {
                    meta: SkillMeta {
                        name: "b".into(),
                        description: "Tab\there, quote \" and \u{1} and é".into(),
                        license: Some("MIT".into()),
                        metadata: crate::meta::pairs(vec![("k".into(), "v".into())]),
                        allowed_tools: vec![
                            ("Bash".into(), Some("git:*".into())),
                            ("Read".into(), None),
                        ]
                        .into(),
                        extensions: crate::meta::pairs(vec![("model".into(), "\"x\"".into())]),
                        skill_md: "SKILL.md".into(),
                        body: (3, 10),
                        frontmatter: r#"{"name":"b","metadata":{"v":2}}"#.into(),
                        ..SkillMeta::default()
                    },
                    dir: "b".into(),
                    files: vec![file("scripts/x.sh", 5, true), file("SKILL.md", 10, false)],
                },
                ManifestSkill {
                    meta: SkillMeta {
                        name: "a:c".into(),
                        skill_md: "SKILL.md".into(),
                        allow_implicit_invocation: Some(false),
                        ..SkillMeta::default()
                    },
                    dir: "a/skills/c".into(),
                    files: vec![file("SKILL.md", 0, false)],
                },
            ],
        )
    }

    #[test]
    fn json_round_trips_and_is_canonical() {
        let m = sample();
        let text = m.to_json();
        let back = Manifest::parse(&text).expect("parses");
        assert_eq!(back, m);
        assert_eq!(back.to_json(), text);
        assert_eq!(m.skills[0].meta.name, "a:c", "sorted by name");
        assert_eq!(m.skills[1].files[0].path, "SKILL.md", "sorted by path");
        assert!(text.contains("\\u0001"), "{text}");
        // Written only when set.
        assert_eq!(
            text.matches("\"allow_implicit_invocation\": false").count(),
            1
        );
        assert!(!text.contains("\"allow_implicit_invocation\": null"));
        assert_eq!(text.matches(FRONTMATTER).count(), 1);
        assert_eq!(text.matches("\"frontmatter\"").count(), 1);
    }

    /// How `sample`'s skill `b` writes its frontmatter.
    const FRONTMATTER: &str = r#""frontmatter": "{\"name\":\"b\",\"metadata\":{\"v\":2}}""#;

    #[test]
    fn every_departure_from_the_format_is_refused() {
        let text = sample().to_json();
        let digest = sample().digest;
        let cases: Vec<(String, &str)> = vec![
            (
                text.replace("\"version\": 2", "\"version\": 1"),
                "format version 1 is not supported (this build reads version 2)",
            ),
            (
                text.replace("\"format\": \"skillpack\"", "\"format\": \"zip\""),
                "`format`",
            ),
            (
                text.replace("\"codec\": \"deflate\"", "\"codec\": \"zstd\""),
                "codec",
            ),
            (text.replace(&digest, &"0".repeat(64)), "does not match"),
            (text.replace("\"size\": 5", "\"size\": 6"), "does not match"),
            (
                text.replace("\"mode\": \"0755\"", "\"mode\": \"0777\""),
                "mode",
            ),
            (
                text.replace("\"mode\": \"0755\"", "\"mode\": \"0644\""),
                "does not match",
            ),
            (text.replace("\"size\": 5", "\"size\": 5.0"), "integer"),
            (text.replace("\"size\": 5", "\"size\": -5"), "integer"),
            (
                text.replace("\"dir\": \"a/skills/c\"", "\"dir\": \"a/c\""),
                "`dir`",
            ),
            (text.replace("\"scripts/x.sh\"", "\"../x.sh\""), "normal"),
            (
                text.replace("\"body\": [3, 10]", "\"body\": [3, 11]"),
                "`body`",
            ),
            (
                text.replace("\"body\": [3, 10]", "\"body\": [9, 3]"),
                "`body`",
            ),
            (
                text.replacen("\"tool\"", "\"extra\": 1, \"tool\"", 1),
                "unknown key",
            ),
            (
                text.replacen("\"tool\"", "\"tool\": \"x\", \"tool\"", 1),
                "repeated",
            ),
            (
                text.replace(
                    "\"skill_md\": \"SKILL.md\",\n      \"body\": [3",
                    "\"skill_md\": \"scripts/x.sh\",\n      \"body\": [3",
                ),
                "`skill_md` is `scripts/x.sh`, expected `SKILL.md` or `skill.md`",
            ),
            (
                text.replace(
                    "\"skill_md\": \"SKILL.md\",\n      \"body\": [3",
                    "\"skill_md\": \"skill.md\",\n      \"body\": [3",
                ),
                "`skill_md` names `skill.md`, which is not among the files",
            ),
            (
                text.replace(FRONTMATTER, r#""frontmatter": "{\"name\":""#),
                "`frontmatter` is not valid JSON at byte",
            ),
            (
                text.replace(FRONTMATTER, r#""frontmatter": "[2]""#),
                "`frontmatter` must hold a JSON object, not an array",
            ),
            (
                text.replace(FRONTMATTER, r#""frontmatter": """#),
                "`frontmatter` is not valid JSON",
            ),
            (
                text.replace(FRONTMATTER, r#""frontmatter": {}"#),
                "`frontmatter` must be a string",
            ),
            ("[]".to_string(), "object"),
            ("{".to_string(), "JSON"),
        ];
        for (bad, expected) in cases {
            assert_ne!(bad, text, "the case for `{expected}` changed nothing");
            let e = Manifest::parse(&bad).expect_err(expected);
            assert!(e.contains(expected), "expected `{expected}` in: {e}");
        }
    }

    /// Each field the runtime reads, edited in the JSON with the digest
    /// kept: the digest no longer matches.
    #[test]
    fn an_edited_field_fails_the_digest() {
        let text = sample().to_json();
        let edits = [
            (
                "description",
                "\"description\": \"Tab",
                "\"description\": \"Tab!",
            ),
            ("license", "\"license\": \"MIT\"", "\"license\": \"GPL\""),
            (
                "compatibility",
                "\"compatibility\": null",
                "\"compatibility\": \"x\"",
            ),
            ("metadata", "[\"k\", \"v\"]", "[\"k\", \"w\"]"),
            ("allowed_tools", "[\"Bash\", \"git:*\"]", "[\"Bash\", null]"),
            (
                "extensions",
                "[\"model\", \"\\\"x\\\"\"]",
                "[\"model\", \"\\\"y\\\"\"]",
            ),
            ("body", "\"body\": [3, 10]", "\"body\": [0, 10]"),
            ("frontmatter", r#"{\"v\":2}"#, r#"{\"v\":\"2\"}"#),
        ];
        for (field, from, to) in edits {
            let bad = text.replacen(from, to, 1);
            assert_ne!(bad, text, "the edit of `{field}` changed nothing");
            let expected = "does not match the manifest's content";
            let e = Manifest::parse(&bad).expect_err(expected);
            assert!(e.contains(expected), "expected `{expected}` in: {e}");
        }
    }

    /// `a`'s `skills/c/SKILL.md` and `a:c`'s `SKILL.md` are one entry.
    #[test]
    fn an_entry_listed_by_two_skills_is_refused() {
        let mut skills = sample().skills;
        let mut a = skills[1].clone();
        a.meta.name = "a".into();
        a.dir = "a".into();
        a.files.push(FileMeta {
            path: "skills/c/SKILL.md".into(),
            ..a.files[0].clone()
        });
        skills.push(a);
        let text = Manifest::new("skills 0.0.0".into(), skills).to_json();
        assert_eq!(
            Manifest::parse(&text),
            Err("entry `a/skills/c/SKILL.md` is listed by skill `a` and by skill `a:c`".into())
        );
    }

    #[test]
    fn entries_are_sorted_by_entry_name() {
        let m = sample();
        let names: Vec<String> = m.entries().into_iter().map(|(n, _, _)| n).collect();
        assert_eq!(
            names,
            ["a/skills/c/SKILL.md", "b/SKILL.md", "b/scripts/x.sh"]
        );
    }
}

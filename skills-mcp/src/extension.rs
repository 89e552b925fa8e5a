//! The skills extension (SEP-2640, `io.modelcontextprotocol/skills`):
//! `skills/list` and `skills/get`.
//!
//! Each skill is described by the URI of its `SKILL.md` (see
//! [`resources`] for the URI rules), its frontmatter, and
//! a manifest of every file with its `sha256:` digest and size. Both come
//! from the bundle's own records ([`File::sha256_hex`](skills_bundle::File::sha256_hex),
//! [`File::size`](skills_bundle::File::size)): nothing is inflated or hashed again,
//! and a host that checks the bytes it reads against the manifest checks
//! them against what the compiler (or the pack's manifest) recorded.
//!
//! The frontmatter is the skill's whole frontmatter mapping, verbatim, as
//! the bundle recorded it ([`Skill::frontmatter`]): every key in the
//! author's order, each value with the type YAML gives it (`user-invocable:
//! false` the boolean, `version: 2` the number, `"2"` the string, a list a
//! list, a map a map), `metadata` and `allowed-tools` as written. Two
//! fields are SEP-2640's own: `name` is the skill's own name (a plugin
//! skill's without the `plugin:` prefix, as SEP-2640 matches it against
//! the URI), and `description` is the one written, or the skill's when
//! the frontmatter has none as a string (a lenient profile); rmcp writes
//! both first. A pack written before its manifest carried the frontmatter
//! gives the fields the runtime reads instead: `license`, `compatibility`,
//! `metadata` (strings), `allowed-tools` (the rules joined by spaces) and
//! the keys outside the specification. Each entry passes rmcp's
//! [`Skill::validate`](rmcp::model::Skill::validate).

use rmcp::ErrorData;
use rmcp::model::{GetSkillResult, JsonObject, SkillFrontmatter, SkillResource, SkillResources};
use serde_json::Value;

use crate::resources::{self, SCHEME};
use skills_bundle::{Bundle, Skill};

/// Every skill's SEP-2640 entry, in bundle order. A skill whose
/// instructions are in a lowercase `skill.md` (accepted with a warning by
/// the compiler) is left out: SEP-2640 names the entry point `SKILL.md`.
pub fn list(bundle: &Bundle) -> Vec<rmcp::model::Skill> {
    bundle
        .skills()
        .filter(has_skill_md)
        .map(|s| entry(&s))
        .collect()
}

fn has_skill_md(skill: &Skill<'_>) -> bool {
    skill.file("SKILL.md").is_ok()
}

/// The entry for one skill.
pub fn entry(skill: &Skill<'_>) -> rmcp::model::Skill {
    let name = skill.name();
    let own_name = name.rsplit(':').next().unwrap_or(name);
    let frontmatter = match written(skill) {
        Some(mut extra) => {
            // `shift_remove`: the other keys keep the author's order.
            let description = match extra.shift_remove("description") {
                Some(Value::String(text)) => text,
                _ => skill.description().to_string(),
            };
            extra.shift_remove("name");
            let mut frontmatter = SkillFrontmatter::new(own_name, description);
            frontmatter.extra = extra;
            frontmatter
        }
        None => recorded(skill, own_name),
    };
    let files = skill
        .files()
        .map(|f| {
            SkillResource::new(
                resources::file_uri(name, f.path()),
                format!("sha256:{}", f.sha256_hex()),
                f.size(),
            )
        })
        .collect();
    rmcp::model::Skill::new(
        resources::file_uri(name, "SKILL.md"),
        frontmatter,
        SkillResources::Files(files),
    )
}

/// The frontmatter mapping the bundle recorded, parsed; `None` when it
/// recorded none. (A pack's manifest reader refuses any text that is not a
/// JSON object, and the compiler writes only objects.)
fn written(skill: &Skill<'_>) -> Option<JsonObject> {
    serde_json::from_str(skill.frontmatter()?).ok()
}

/// The frontmatter of a skill from a pack written before the manifest
/// carried it: the fields the runtime reads.
fn recorded(skill: &Skill<'_>, own_name: &str) -> SkillFrontmatter {
    let mut frontmatter = SkillFrontmatter::new(own_name, skill.description());
    let extra: &mut JsonObject = &mut frontmatter.extra;
    if let Some(license) = skill.license() {
        extra.insert("license".into(), license.into());
    }
    if let Some(compatibility) = skill.compatibility() {
        extra.insert("compatibility".into(), compatibility.into());
    }
    if skill.metadata().len() > 0 {
        let metadata: JsonObject = skill
            .metadata()
            .map(|(k, v)| (k.to_string(), Value::from(v)))
            .collect();
        extra.insert("metadata".into(), Value::Object(metadata));
    }
    if skill.allowed_tools().len() > 0 {
        let rules: Vec<String> = skill.allowed_tools().map(|r| r.to_string()).collect();
        extra.insert("allowed-tools".into(), rules.join(" ").into());
    }
    for (key, json) in skill.extensions() {
        let value = serde_json::from_str(json).unwrap_or_else(|_| Value::from(json));
        extra.entry(key.to_string()).or_insert(value);
    }
    frontmatter
}

/// `skills/get`: by the URI `skills/list` gives (or the `plugin:skill`
/// spelling); `-32602` for anything else, as SEP-2640 says.
pub fn get(bundle: &Bundle, uri: &str) -> Result<GetSkillResult, ErrorData> {
    let unknown = || ErrorData::invalid_params(format!("no skill at `{uri}`"), None);
    if !uri.starts_with(SCHEME) {
        return Err(unknown());
    }
    match resources::resolve(bundle, uri) {
        Some((skill, path)) if path == "SKILL.md" && has_skill_md(&skill) => {
            Ok(GetSkillResult::new(entry(&skill)))
        }
        _ => Err(unknown()),
    }
}

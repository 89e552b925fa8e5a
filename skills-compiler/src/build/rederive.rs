//! A pack's manifest against the `SKILL.md` files it holds.
//!
//! A runtime obeys the manifest's metadata (`allowed-tools` rules, body
//! range, extensions, ...) and cannot parse `SKILL.md` itself: agent
//! binaries link no YAML parser. The pack digest binds that metadata, so an
//! edit is caught on load; but in an unsigned pack whoever edits the
//! manifest can recompute the digest too. Where the compiler is at hand
//! (`skb verify`, the CLI loading a pack, `skills_bundle!(pack = ...)`),
//! [`disagreements`] derives each skill's metadata again from its hashed
//! `SKILL.md`, exactly as `skb pack` derived it (`embed::describe`), and
//! names every field where the two differ.

use std::fmt;
use std::path::Path;

use super::embed::describe;
use super::pack::manifest_skill;
use crate::client::codex::read_openai_yaml;
use crate::{CheckedSkill, Profile};
use skills_core::meta::side_by_side;
use skills_core::pack::{ManifestSkill, plugin_of};
use skills_core::zip::printable;

/// A field of a skill whose manifest value is not what its `SKILL.md` gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// The skill, as the manifest names it.
    pub skill: String,
    /// The manifest's key (`allowed_tools`, `body`, ...).
    pub field: &'static str,
    /// The manifest's value, as its JSON writes it.
    pub manifest: String,
    /// The value `SKILL.md` gives, written the same way.
    pub skill_md: String,
}

impl fmt::Display for Disagreement {
    /// Values come from the pack: shown through [`printable`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!(
            "skill `{}`: `{}` is {} in the manifest but {} in `SKILL.md`",
            self.skill, self.field, self.manifest, self.skill_md
        );
        f.write_str(&printable(&text))
    }
}

/// Every field of `skill` (a manifest's) that its `SKILL.md`, whose bytes
/// are `skill_md` (already checked against the manifest's SHA-256), and its
/// `agents/openai.yaml`, when the pack holds one (`openai_yaml`, checked
/// likewise), do not give, in the manifest's order. Empty when they agree.
pub fn disagreements(
    skill: &ManifestSkill,
    skill_md: &[u8],
    openai_yaml: Option<&[u8]>,
) -> Vec<Disagreement> {
    let dir = Path::new(&skill.dir);
    // The profile decides which problems are errors, never what a field
    // reads as: any profile derives the same values.
    let mut checked = CheckedSkill::from_skill_md(
        dir,
        plugin_of(&skill.meta.name).map(String::from),
        &dir.join(&*skill.meta.skill_md),
        skill_md.to_vec(),
        Profile::default(),
    );
    checked.openai_yaml = openai_yaml
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .and_then(|text| read_openai_yaml(text).read)
        .map(Box::new);
    // Read from the file the manifest names (one of `SKILL_MD_NAMES`,
    // checked on parse), so `skill_md` is derived as that name.
    let derived = manifest_skill(&describe(&checked, &skill.dir)).fields();
    let listed = skill.fields();
    // A manifest written before it carried `frontmatter` agrees without
    // it: its runtime serves the fields checked here instead.
    let old = skill.meta.frontmatter.is_empty();
    side_by_side(&listed, &derived)
        .into_iter()
        .filter(|&(field, manifest, skill_md)| {
            manifest != skill_md && !(old && field == "frontmatter")
        })
        .map(|(field, manifest, skill_md)| Disagreement {
            skill: skill.meta.name.to_string(),
            field,
            manifest: manifest.to_string(),
            skill_md: skill_md.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_core::meta::{SkillMeta, pairs};

    const MD: &str = "---\nname: calc\ndescription: Adds numbers. Use when adding.\nlicense: MIT\nallowed-tools: Bash(python3:*) Read\nmetadata:\n  version: \"1.0\"\nmodel: opus\n---\n# Calc\n\nRun `scripts/calc.py $ARGUMENTS`.\n";

    /// `MD`'s frontmatter as the manifest records it.
    const FRONTMATTER: &str = r#"{"name":"calc","description":"Adds numbers. Use when adding.","license":"MIT","allowed-tools":"Bash(python3:*) Read","metadata":{"version":"1.0"},"model":"opus"}"#;

    /// The manifest `skb pack` writes for `MD`.
    fn listed() -> ManifestSkill {
        let body_start = MD.find("---\n#").map_or(0, |i| i + 4) as u32;
        ManifestSkill {
            meta: SkillMeta {
                name: "calc".into(),
                description: "Adds numbers. Use when adding.".into(),
                license: Some("MIT".into()),
                metadata: pairs(vec![("version".into(), "1.0".into())]),
                allowed_tools: vec![
                    ("Bash".into(), Some("python3:*".into())),
                    ("Read".into(), None),
                ]
                .into(),
                extensions: pairs(vec![("model".into(), "\"opus\"".into())]),
                skill_md: "SKILL.md".into(),
                body: (body_start, MD.len() as u32),
                frontmatter: FRONTMATTER.into(),
                ..SkillMeta::default()
            },
            dir: "calc".into(),
            ..ManifestSkill::default()
        }
    }

    #[test]
    fn the_manifest_skills_pack_writes_agrees() {
        assert_eq!(disagreements(&listed(), MD.as_bytes(), None), []);
    }

    /// Each field the runtime reads, edited: named, with both values.
    #[test]
    fn each_edited_field_is_named() {
        type Edit = fn(&mut ManifestSkill);
        let (start, end) = listed().meta.body;
        let body = format!("[{start}, {end}]");
        let edits: [(&str, Edit, &str, &str); 8] = [
            (
                "description",
                |s| s.meta.description = "Deletes files.".into(),
                "\"Deletes files.\"",
                "\"Adds numbers. Use when adding.\"",
            ),
            ("license", |s| s.meta.license = None, "null", "\"MIT\""),
            (
                "compatibility",
                |s| s.meta.compatibility = Some("any".into()),
                "\"any\"",
                "null",
            ),
            (
                "metadata",
                |s| s.meta.metadata = Default::default(),
                "[]",
                "[[\"version\", \"1.0\"]]",
            ),
            (
                "allowed_tools",
                |s| s.meta.allowed_tools = vec![("Bash".into(), None)].into(),
                "[[\"Bash\", null]]",
                "[[\"Bash\", \"python3:*\"], [\"Read\", null]]",
            ),
            (
                "extensions",
                |s| {
                    let mut all = s.meta.extensions.to_vec();
                    all.push(("hooks".into(), "{}".into()));
                    s.meta.extensions = all.into();
                },
                "[[\"model\", \"\\\"opus\\\"\"], [\"hooks\", \"{}\"]]",
                "[[\"model\", \"\\\"opus\\\"\"]]",
            ),
            ("body", |s| s.meta.body.0 = 0, "", ""),
            (
                "frontmatter",
                |s| s.meta.frontmatter = r#"{"name":"calc"}"#.into(),
                r#""{\"name\":\"calc\"}""#,
                "",
            ),
        ];
        for (field, edit, manifest, skill_md) in edits {
            let mut skill = listed();
            edit(&mut skill);
            let (manifest, skill_md) = if field == "body" {
                (format!("[0, {end}]"), body.clone())
            } else if field == "frontmatter" {
                (manifest.to_string(), skills_core::json::quote(FRONTMATTER))
            } else {
                (manifest.to_string(), skill_md.to_string())
            };
            let expected = Disagreement {
                skill: "calc".into(),
                field,
                manifest,
                skill_md,
            };
            assert_eq!(
                disagreements(&skill, MD.as_bytes(), None),
                [expected],
                "{field}"
            );
        }
    }

    /// The plugin of `plugin:skill` comes from the plugin's manifest, not
    /// from `SKILL.md`: only the skill's own name is checked.
    #[test]
    fn a_plugin_prefix_is_taken_from_the_manifest() {
        let mut skill = listed();
        skill.meta.name = "plug:calc".into();
        skill.dir = "plug/skills/calc".into();
        assert_eq!(disagreements(&skill, MD.as_bytes(), None), []);
    }

    /// Codex's `allow_implicit_invocation` is derived from the pack's
    /// `agents/openai.yaml`: a manifest that sets it without the file, or
    /// drops it while the file says it, disagrees.
    #[test]
    fn allow_implicit_invocation_comes_from_agents_openai_yaml() {
        let quiet = b"policy:\n  allow_implicit_invocation: false\n".as_slice();
        let mut skill = listed();
        assert_eq!(
            disagreements(&skill, MD.as_bytes(), Some(b"interface: {}\n")),
            []
        );
        let dropped = disagreements(&skill, MD.as_bytes(), Some(quiet));
        assert_eq!(
            dropped,
            [Disagreement {
                skill: "calc".into(),
                field: "allow_implicit_invocation",
                manifest: "null".into(),
                skill_md: "false".into(),
            }]
        );
        skill.meta.allow_implicit_invocation = Some(false);
        assert_eq!(disagreements(&skill, MD.as_bytes(), Some(quiet)), []);
        let forged = disagreements(&skill, MD.as_bytes(), None);
        assert_eq!(forged.len(), 1);
        assert_eq!(
            forged[0].to_string(),
            "skill `calc`: `allow_implicit_invocation` is false in the manifest but null in `SKILL.md`"
        );
    }

    /// A manifest written before it carried `frontmatter` agrees without
    /// it (its runtime serves the fields checked besides); one that carries
    /// it must carry `SKILL.md`'s.
    #[test]
    fn a_manifest_without_frontmatter_agrees() {
        let mut skill = listed();
        skill.meta.frontmatter = "".into();
        assert_eq!(disagreements(&skill, MD.as_bytes(), None), []);
        // Same length, same string to the rules: typed only here.
        let typed = MD.replace("version: \"1.0\"", "version:  1.0 ");
        let found = disagreements(&listed(), typed.as_bytes(), None);
        let fields: Vec<&str> = found.iter().map(|d| d.field).collect();
        assert_eq!(fields, ["frontmatter"], "{found:?}");
        assert!(
            found[0].skill_md.contains(r#"{\"version\":1.0}"#),
            "{found:?}"
        );
    }

    #[test]
    fn a_renamed_skill_is_named() {
        let mut skill = listed();
        skill.meta.name = "other".into();
        skill.dir = "other".into();
        let found = disagreements(&skill, MD.as_bytes(), None);
        let fields: Vec<&str> = found.iter().map(|d| d.field).collect();
        assert_eq!(fields, ["name", "dir"]);
        assert_eq!(
            found[0].to_string(),
            "skill `other`: `name` is \"other\" in the manifest but \"calc\" in `SKILL.md`"
        );
    }

    #[test]
    fn a_skill_md_that_does_not_parse_disagrees_on_every_field_it_would_give() {
        let found = disagreements(&listed(), b"no frontmatter\n", None);
        let fields: Vec<&str> = found.iter().map(|d| d.field).collect();
        assert_eq!(
            fields,
            [
                "name",
                "dir",
                "description",
                "license",
                "metadata",
                "allowed_tools",
                "extensions",
                "body",
                "frontmatter"
            ]
        );
    }

    #[test]
    fn values_are_printed_without_control_characters() {
        let mut skill = listed();
        skill.meta.description = "\u{1b}[2J\u{9b}".into();
        let shown = disagreements(&skill, MD.as_bytes(), None)[0].to_string();
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
    }
}

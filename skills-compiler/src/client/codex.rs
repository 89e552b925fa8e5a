//! How Codex CLI 0.169.0 reads a skill folder, as recorded
//! (`../shared/clients/BEHAVIOUR.md`): a first version from the summary
//! there. The file must open with a `---` line (no byte-order mark) and
//! close it; the YAML must parse; `name` defaults to the folder name and
//! may not exceed 64 characters; `description` is required text. Rejections
//! carry Codex's own reason.

use std::path::Path;

use skills_core::fsread;

use super::{Client, Listed, Outcome, Reading};
use crate::frontmatter::{self, SplitError};
use crate::yaml::{self, Value};

/// The longest name Codex loads, in characters.
pub const MAX_NAME: usize = 64;

/// The largest `SKILL.md` read here (Codex showed no limit; 1 MB loaded).
const READ_LIMIT: u64 = 16 << 20;

/// Reads the skill folder `dir` as Codex does.
pub fn read(dir: &Path) -> Reading {
    let skill_md = dir.join("SKILL.md");
    let bytes = match fsread::read_file(&skill_md, READ_LIMIT) {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => {
            return Reading::new(Outcome::NotListed {
                why: "no `SKILL.md` in this folder".into(),
            });
        }
        Err(e) => {
            return Reading::new(Outcome::Rejected { why: e.to_string() });
        }
    };
    read_loaded(dir, &skill_md, &bytes)
}

/// Reads the skill folder `dir` whose `SKILL.md` (at `skill_md`) holds
/// `bytes`, as Codex does.
pub fn read_loaded(dir: &Path, skill_md: &Path, bytes: &[u8]) -> Reading {
    let rejected = |why: String| Reading::new(Outcome::Rejected { why });
    let missing = || rejected("missing YAML frontmatter delimited by ---".into());
    let split = match frontmatter::split(bytes) {
        Ok(split) => split,
        Err(SplitError::NotUtf8(at)) => {
            return rejected(format!("invalid UTF-8 at byte {at}"));
        }
        Err(_) => return missing(),
    };
    let text = String::from_utf8_lossy(bytes);
    let parsed = yaml::parse(&text, split.yaml.start, split.yaml.end);
    if let Some(p) = parsed
        .problems
        .iter()
        .find(|p| p.code == crate::Code::InvalidYaml)
    {
        return rejected(format!("invalid YAML: {}", p.message));
    }
    let root = parsed.root;
    let get = |key: &str| root.as_ref().and_then(|r| r.get(key));
    let name = match get("name").map(|n| &n.value) {
        Some(Value::Str(s)) if !s.is_empty() => s.clone(),
        _ => dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    if name.chars().count() > MAX_NAME {
        return rejected(format!(
            "invalid name: exceeds maximum length of {MAX_NAME} characters"
        ));
    }
    let description = match get("description").map(|n| &n.value) {
        Some(Value::Str(s)) if !s.trim().is_empty() => s.clone(),
        Some(Value::Seq(_)) => {
            return rejected(
                "invalid YAML: description: invalid type: sequence, expected a string".into(),
            );
        }
        Some(Value::Map(_)) => {
            return rejected(
                "invalid YAML: description: invalid type: map, expected a string".into(),
            );
        }
        _ => return rejected("missing field `description`".into()),
    };
    Reading::new(Outcome::Listed(Listed {
        name,
        alias: None,
        description,
        when_to_use: None,
        location: skill_md.to_path_buf(),
        client: Client::Codex,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_the_record() -> std::io::Result<()> {
        let tmp = tempfile::tempdir()?;
        let case = |dir: &str, text: &str| -> std::io::Result<Outcome> {
            let d = tmp.path().join(dir);
            std::fs::create_dir_all(&d)?;
            std::fs::write(d.join("SKILL.md"), text)?;
            Ok(read(&d).outcome)
        };
        let listed = case(
            "mismatch-dir",
            "---\nname: other-name\ndescription: D.\n---\n",
        )?;
        assert_eq!(listed.listed().map(|l| l.name.as_str()), Some("other-name"));
        let no_name = case("no-name", "---\ndescription: D.\n---\n")?;
        assert_eq!(no_name.listed().map(|l| l.name.as_str()), Some("no-name"));
        for (dir, text, why) in [
            (
                "bom",
                "\u{FEFF}---\nname: bom\ndescription: D.\n---\n",
                "missing YAML frontmatter delimited by ---",
            ),
            (
                "no-desc",
                "---\nname: no-desc\n---\n# H\n",
                "missing field `description`",
            ),
            (
                "long",
                &format!("---\nname: {}\ndescription: D.\n---\n", "a".repeat(80)),
                "invalid name: exceeds maximum length of 64 characters",
            ),
        ] {
            assert_eq!(
                case(dir, text)?,
                Outcome::Rejected { why: why.into() },
                "{dir}"
            );
        }
        Ok(())
    }
}

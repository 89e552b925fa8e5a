//! Tests of `rules`.

use std::path::Path;

use crate::diag::Code;
use crate::profile::Profile;
use crate::skill::CheckedSkill;

/// `(code, message, reference)` of each name diagnostic of a `SKILL.md`
/// whose name is `name`, in the directory `dir`, and the name read.
fn name_rules(name: &str, dir: &str) -> (Vec<(Code, String, String)>, Option<String>) {
    let text = format!("---\nname: {name}\ndescription: D.\n---\n");
    let dir = Path::new("/skills").join(dir);
    let skill = CheckedSkill::from_skill_md(
        &dir,
        None,
        &dir.join("SKILL.md"),
        text.into_bytes(),
        Profile::Spec,
    );
    let found = skill
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str().starts_with("SK20"))
        .map(|d| {
            (
                d.code,
                d.message.clone(),
                d.reference.clone().unwrap_or_default(),
            )
        })
        .collect();
    (found, skill.fields.name)
}

/// 2.5 million U+FDFA (7.5 MB) are 45 million characters after NFKC,
/// which the rules built, copied and listed (`validate` used 0.9 GB,
/// `pack` 1.3 GB). The length is now counted as NFKC streams, the
/// messages quote the name's two ends, and the skill has no name.
#[test]
fn a_name_nfkc_expands_18_times_is_counted_not_built() {
    // A tenth of it: the rules are the same, and a debug build's NFKC
    // is slow.
    let name = "\u{fdfa}".repeat(250_000);
    let (found, read) = name_rules(&name, "s");
    let expanded = "صلى الله عليه وسلم".repeat(250_000);
    let head: String = expanded.chars().take(960).collect();
    let tail: String = expanded.chars().skip(4_500_000 - 64).collect();
    let quoted = format!("{head}…{tail}");
    assert_eq!(quoted.chars().count(), 1_025);
    assert_eq!(
        found,
        [
            (
                Code::NameTooLong,
                "`name` is 4500000 characters; the limit is 64".to_string(),
                format!("Skill name '{quoted}' exceeds 64 character limit (4500000 chars)"),
            ),
            (
                Code::NameInvalidChars,
                "`name` may hold only letters, digits and hyphens; found ' '".to_string(),
                format!(
                    "Skill name '{quoted}' contains invalid characters. Only letters, digits, and hyphens are allowed."
                ),
            ),
            (
                Code::NameDirMismatch,
                format!("`name` is `{quoted}` but the directory is `s`"),
                format!("Directory name 's' must match skill name '{quoted}'"),
            ),
        ]
    );
    assert_eq!(read, None);
}

/// Up to the bound, names are read and quoted whole, as the reference
/// quotes them; the other rules see every character either way.
#[test]
fn names_up_to_the_bound_are_read_whole() {
    let long = "a".repeat(super::MAX_NAME_READ);
    let (found, read) = name_rules(&long, &long);
    assert_eq!(
        found,
        [(
            Code::NameTooLong,
            "`name` is 1024 characters; the limit is 64".to_string(),
            format!("Skill name '{long}' exceeds 64 character limit (1024 chars)"),
        )]
    );
    assert_eq!(read.as_deref(), Some(long.as_str()));
    let over = format!("-{}B--x y_z", "a".repeat(super::MAX_NAME_READ));
    let (found, read) = name_rules(&over, "d");
    let codes: Vec<Code> = found.iter().map(|f| f.0).collect();
    assert_eq!(
        codes,
        [
            Code::NameTooLong,
            Code::NameNotLowercase,
            Code::NameHyphenEdge,
            Code::NameConsecutiveHyphens,
            Code::NameInvalidChars,
            Code::NameDirMismatch,
        ]
    );
    assert_eq!(read, None);
    assert_eq!(
        found[4].1,
        "`name` may hold only letters, digits and hyphens; found ' ', '_'"
    );
    let quoted = format!("-{}…{}B--x y_z", "a".repeat(959), "a".repeat(56));
    assert_eq!(found[1].1, format!("`name` must be lowercase: `{quoted}`"));
    // NFKC before the directory comparison, as before: fullwidth folds.
    assert_eq!(
        name_rules("ｍｙ-skill", "my-skill"),
        (vec![], Some("my-skill".into()))
    );
}

/// Runs of many different characters are listed up to a point.
#[test]
fn invalid_characters_are_listed_sixteen_at_most() {
    let name: String = "!#$%&()*+,./:;<=>?@"
        .chars()
        .flat_map(|c| ['a', c])
        .collect();
    let (found, _) = name_rules(&format!("'{name}'"), "d");
    let invalid = found
        .iter()
        .find(|f| f.0 == Code::NameInvalidChars)
        .map(|f| f.1.as_str());
    assert_eq!(
        invalid,
        Some(
            "`name` may hold only letters, digits and hyphens; found '!', '#', '$', '%', '&', '(', ')', '*', '+', ',', '.', '/', ':', ';', '<', '=' and 3 more"
        )
    );
}

//! Tests of `diagnose`.

use crate::diag::Code;
use crate::profile::Profile;
use crate::{Options, check_dir};

/// `(code, error?, line, column, has help)` of one `SK4xx` finding.
type Finding = (Code, bool, usize, usize, bool);

/// Found by the `skill_md` fuzz target: frontmatter past the nesting
/// bound whose lines break at a lone `\r` (ours do, Codex's do not) and
/// hold a two-byte character where the bound's position lands. The
/// label split that character.
#[test]
fn a_bound_past_a_lone_carriage_return_is_placed_on_characters() -> std::io::Result<()> {
    let bytes = include_bytes!("../testdata/lone-cr-deep-nesting.md");
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    std::fs::create_dir(&dir)?;
    std::fs::write(dir.join("SKILL.md"), bytes)?;
    let text = std::str::from_utf8(bytes).map_err(std::io::Error::other)?;
    let options = Options {
        profile: Profile::Codex,
        ..Options::default()
    };
    let checked = check_dir(&dir, &options);
    assert!(checked.diagnostics.iter().any(|d| d.code == Code::Io));
    for d in &checked.diagnostics {
        if let Some(label) = &d.label {
            assert!(
                text.is_char_boundary(label.bytes.start) && text.is_char_boundary(label.bytes.end),
                "{d}: {:?}",
                label.bytes
            );
        }
    }
    Ok(())
}

fn findings(text: &str) -> std::io::Result<Vec<Finding>> {
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    std::fs::create_dir(&dir)?;
    std::fs::write(dir.join("SKILL.md"), text)?;
    let options = Options {
        profile: Profile::Codex,
        lints: false,
        ..Options::default()
    };
    Ok(check_dir(&dir, &options)
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str().starts_with("SK4"))
        .map(|d| {
            let at = d
                .label
                .as_ref()
                .map_or((0, 0), |l| (l.start.line, l.start.column));
            (d.code, d.is_error(), at.0, at.1, d.help.is_some())
        })
        .collect())
}

#[test]
fn findings_point_where_codex_looked() -> std::io::Result<()> {
    use Code::*;
    assert_eq!(findings("---\nname: s\ndescription: D.\n---\n")?, []);
    assert_eq!(
        findings("---\nname: s\n\tdescription: x\n---\n")?,
        [(ClientRejected, true, 3, 1, true)]
    );
    let long = format!("---\nname: {}\ndescription: D.\n---\n", "n".repeat(65));
    assert_eq!(findings(&long)?, [(ClientRejected, true, 2, 7, true)]);
    assert_eq!(
        findings("---\nname: s\n---\nBody.\n")?,
        [(ClientRejected, true, 1, 1, true)]
    );
    assert_eq!(
        findings("\u{feff}---\nname: s\ndescription: D.\n---\n")?,
        [(ClientRejected, true, 1, 1, true)]
    );
    assert_eq!(
        findings("---\nname: s\ndescription: Use when: x\nwhen_to_use: y\n---\n")?,
        [
            (ClientYamlUnread, false, 3, 22, true),
            (ClientKeyIgnored, false, 0, 0, true)
        ]
    );
    let cut = format!(
        "---\nname: s\ndescription: {}\npaths: [\"a/**\"]\n---\n",
        "d".repeat(1100)
    );
    assert_eq!(
        findings(&cut)?,
        [
            (ClientDescriptionCut, false, 3, 14, true),
            (ClientKeyIgnored, false, 4, 1, true)
        ]
    );
    Ok(())
}

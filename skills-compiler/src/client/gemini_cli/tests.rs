use std::path::{Path, PathBuf};

use super::*;
use crate::client::reading::Outcome;
use crate::diag::Code;
use crate::discover::{FoundSkill, Origin, Place};
use proptest::prelude::*;
use skills_core::client::Client;
use skills_core::client::UserBase;

fn listed(text: &str) -> Option<(String, String)> {
    read_text(Path::new("/p/s/SKILL.md"), text)
        .outcome
        .listed()
        .map(|l| (l.name.clone(), l.description.clone()))
}

fn codes(text: &str) -> Vec<Code> {
    read_text(Path::new("/p/s/SKILL.md"), text)
        .notes
        .iter()
        .map(|n| n.code)
        .collect()
}

proptest! {
    /// No text makes the reader panic; a listed name holds none of the
    /// sanitised characters.
    #[test]
    fn any_text_reads(
        text in "\u{FEFF}?(---\r?\n)?([a-z_-]{0,8}:[ \t]?[\\PC\t:#\\[\\]{}'\"|>-]{0,24}\r?\n){0,6}(---\n)?[\\PC\n]{0,60}"
    ) {
        let reading = read_text(Path::new("/p/SKILL.md"), &text);
        if let Some(l) = reading.outcome.listed() {
            prop_assert!(!l.name.contains(SANITIZED));
        }
    }
}

#[test]
fn the_recorded_cases() {
    let ok = |n: &str, d: &str| Some((n.to_owned(), d.to_owned()));
    assert_eq!(
        listed("---\nname: ns:thing\ndescription: Name has a colon.\n---\nBody.\n"),
        ok("ns-thing", "Name has a colon.")
    );
    assert_eq!(
        codes("---\nname: ns:thing\ndescription: Name has a colon.\n---\nBody.\n"),
        [Code::ClientNameNotShown]
    );
    assert_eq!(
        listed("---\nname: bad-yaml-unclosed\ndescription: [unclosed flow\n---\nBody.\n"),
        ok("bad-yaml-unclosed", "[unclosed flow")
    );
    assert_eq!(
        codes("---\nname: d\ndescription: 12345\n---\nBody.\n"),
        [Code::ClientYamlUnread]
    );
    assert_eq!(
        listed("---\r\nname: crlf\r\ndescription: CRLF line endings.\r\n---\r\nBody of crlf.\r\n"),
        ok("crlf", "CRLF line endings.")
    );
    assert_eq!(
        listed("---\nname: e\ndescription: \"\"\n---\n"),
        ok("e", "")
    );
    for skipped in [
        "---\nname: no-desc\n---\n# Heading\n",
        "---\ndescription: Has description but no name key.\n---\nBody.\n",
        "# Title Without Frontmatter\n",
        "\u{FEFF}---\nname: bom\ndescription: BOM.\n---\nBody.\n",
        "---\nname: u\ndescription: Never closed.\n# Body\n",
        "\n---\nname: l\ndescription: Blank line.\n---\nBody.\n",
    ] {
        let reading = read_text(Path::new("/p/SKILL.md"), skipped);
        match reading.outcome {
            Outcome::NotListed { why } => assert!(why.contains("Gemini CLI skips"), "{why}"),
            other => panic!("{skipped:?}: {other:?}"),
        }
    }
}

#[test]
fn the_location_is_absolute_and_resolved() {
    let reading = read_text(
        Path::new("/p/./a/../s/SKILL.md"),
        "---\nname: a\ndescription: b\n---\n",
    );
    assert_eq!(
        reading.outcome.listed().map(|l| l.location.clone()),
        Some(PathBuf::from("/p/s/SKILL.md"))
    );
}

fn write(dir: &Path, name: &str, description: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n"),
    )
    .unwrap();
}

#[test]
fn the_list_orders_and_replaces_as_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let proj = tmp.path().join("proj");
    let origin = |folder: PathBuf, rel: &'static str, user: bool| Origin {
        client: Client::GeminiCli,
        folder,
        rel,
        place: if user {
            Place::User(UserBase::Home)
        } else {
            Place::Project {
                level: 0,
                outside_repository: false,
                top: true,
            }
        },
        depth: 1,
        hidden: false,
    };
    let mut found = Vec::new();
    // Discovery's order does not matter: the list is Gemini CLI's.
    for (base, rel, user, skills) in [
        (
            &proj,
            ".agents/skills",
            false,
            &["dup", "only-proj-agents"][..],
        ),
        (&proj, ".gemini/skills", false, &["dup", "b", "a"][..]),
        (
            &home,
            ".gemini/skills",
            true,
            &["skill-creator", "dup", "only-user"][..],
        ),
    ] {
        let folder = base.join(rel);
        for s in skills {
            write(&folder.join(s), s, &format!("{s} from {rel}"));
            found.push(FoundSkill {
                dir: folder.join(s),
                plugin: None,
                root: folder.clone(),
                origin: Some(origin(folder.clone(), rel, user)),
            });
        }
    }
    let list = listing(&found);
    let names: Vec<&str> = list.listed.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "skill-creator",
            "only-user",
            "dup",
            "b",
            "a",
            "only-proj-agents"
        ]
    );
    let dup = list.listed.iter().find(|l| l.name == "dup").unwrap();
    assert_eq!(dup.description, "dup from .agents/skills");
    let lines: Vec<String> = list.overrides.iter().map(Override::line).collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].ends_with("is overriding the built-in skill."),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("Skill conflict detected: \"dup\" from \""),
        "{lines:?}"
    );
    let skipped = list
        .found
        .iter()
        .filter(|f| f.reading.outcome.listed().is_none())
        .count();
    assert_eq!(skipped, 2);
}

use std::cmp::Ordering;
use std::path::Path;

use super::*;
use crate::client::collate::collate;
use crate::client::reading::{Outcome, Reading};
use crate::diag::Code;
use crate::discover::FoundSkill;
use proptest::prelude::*;

proptest! {
    /// No text makes the reader panic.
    #[test]
    fn any_text_loads_or_not(
        text in "\u{FEFF}?(---[a-z \t]*\r?\n)?([a-z_-]{0,8}:[ \t]?[\\PC\t:#\\[\\]{}'\"|>-]{0,24}\r?\n){0,6}(---\n)?[\\PC\n]{0,60}"
    ) {
        let _ = load(&text);
    }
}

fn loaded(text: &str) -> Option<(String, Option<String>)> {
    match load(text) {
        Load::Loaded(l) => Some((l.name, l.description)),
        _ => None,
    }
}

fn listed(name: &str, description: &str) -> Option<(String, Option<String>)> {
    Some((name.to_owned(), Some(description.to_owned())))
}

#[test]
fn the_recorded_frontmatters() {
    let fm = |body: &str| format!("---\n{body}---\nBody.\n");
    assert_eq!(loaded(&fm("name: a\ndescription: D.\n")), listed("a", "D."));
    assert_eq!(
        loaded("---\r\nname: crlf\r\ndescription: CRLF line endings.\r\n---\r\nBody of crlf.\r\n"),
        listed("crlf", "CRLF line endings.")
    );
    assert_eq!(
        loaded("\u{FEFF}---\nname: bom\ndescription: B.\n---\nBody.\n"),
        listed("bom", "B.")
    );
    assert_eq!(
        loaded("---\nname: u\ndescription: Never closed.\n# Body\n"),
        listed("u", "Never closed.")
    );
    assert_eq!(
        loaded(&fm(
            "name: c\ndescription: Use when: the plain scalar has a colon-space\n"
        )),
        listed("c", "Use when: the plain scalar has a colon-space")
    );
    assert_eq!(
        loaded(&fm("name: t\n\tdescription: tab indented\n")),
        listed("t", "tab indented")
    );
    assert_eq!(loaded(&fm("name: e\ndescription: \"\"\n")), listed("e", ""));
    assert_eq!(
        loaded(&fm(
            "name: m\ndescription: |\n  Line one.\n  Line two.\n\n  Para two.\n"
        )),
        listed("m", "Line one.\nLine two.\n\nPara two.\n")
    );
    assert_eq!(
        loaded(&fm(
            "name: f\ndescription: >\n  Folded line one\n  folded line two.\n"
        )),
        listed("f", "Folded line one folded line two.\n")
    );
    assert_eq!(
        loaded(&fm("name: no-desc\n")),
        Some(("no-desc".into(), None))
    );
    for dropped in [
        fm("name: u\ndescription: [unclosed flow\n"),
        fm("name: 12345\ndescription: D.\n"),
        fm("name: d\ndescription: 12345\n"),
        fm("name: d\ndescription:\n  - item one\n  - item two\n"),
        fm("description: D.\n"),
        "# Title\n\nJust markdown.\n".into(),
        "\n---\nname: l\ndescription: D.\n---\nBody.\n".into(),
    ] {
        assert!(
            matches!(load(&dropped), Load::Dropped(_)),
            "{dropped:?}: {:?}",
            load(&dropped)
        );
    }
}

/// The rules behind the record, past its cases.
#[test]
fn js_yaml_rules() {
    let fm = |body: &str| format!("---\n{body}---\nBody.\n");
    // Types of js-yaml 3's safe schema.
    for not_a_string in [
        "true",
        "~",
        "",
        "0x1F",
        "1_000",
        "017",
        "1:30",
        "1.5",
        ".inf",
        "1e5",
        "2024-01-02",
        "2024-1-2 10:20:30 +01:00",
        "!!int 3",
    ] {
        assert!(
            matches!(
                load(&fm(&format!("name: {not_a_string}\ndescription: D.\n"))),
                Load::Dropped(_)
            ),
            "{not_a_string}"
        );
    }
    for string in [
        "yes",
        "on",
        "1.2.3",
        "0o17",
        "1:60",
        "_1",
        "1_",
        "\"12\"",
        "!!str 12",
        "a: b",
        "2024-01-02x",
        "ns:thing",
        "My Skill Name",
    ] {
        let written = if string == "a: b" { "'a: b'" } else { string };
        assert!(
            matches!(
                load(&fm(&format!("name: {written}\ndescription: D.\n"))),
                Load::Loaded(_)
            ),
            "{string}: {:?}",
            load(&fm(&format!("name: {written}\ndescription: D.\n")))
        );
    }
    // A duplicate key or an unknown tag is an error, which no rewrite mends.
    assert!(matches!(
        load(&fm("name: a\nname: b\ndescription: D.\n")),
        Load::Dropped(_)
    ));
    assert!(matches!(
        load(&fm("name: !foo a\ndescription: D.\n")),
        Load::Dropped(_)
    ));
    // `null` is not a missing description.
    assert!(matches!(
        load(&fm("name: a\ndescription:\n")),
        Load::Dropped(_)
    ));
    // The rewrite needs `---` and a line break exactly at the start.
    assert!(matches!(
        load("\u{FEFF}---\nname: c\ndescription: a: b\n---\n"),
        Load::Dropped(_)
    ));
    // A language other than YAML after the opening `---`.
    assert!(matches!(
        load("---toml\nname = \"a\"\n---\n"),
        Load::Dropped(_)
    ));
    assert!(matches!(
        load("---json\n{\"name\": \"a\"}\n---\n"),
        Load::Unknown(_)
    ));
    assert_eq!(
        loaded("---YML\nname: a\ndescription: D.\n---\n"),
        listed("a", "D.")
    );
    assert_eq!(
        loaded("---yaml\nname: a\ndescription: D.\n---\n"),
        listed("a", "D.")
    );
    // `----` opens no frontmatter.
    assert!(matches!(
        load("----\nname: a\ndescription: D.\n----\n"),
        Load::Dropped(_)
    ));
}

#[test]
fn split_and_body() {
    let p = split("---\nname: a\n---\n\nBody\n").map(|p| (p.yaml, p.body));
    assert_eq!(p, Some(("\nname: a", "\nBody\n")));
    let p = split("---\r\nname: a\r\n---\r\nBody\r\n").map(|p| (p.yaml, p.body));
    assert_eq!(p, Some(("\r\nname: a\r", "Body\r\n")));
    assert_eq!(split("---\nname: a\n").map(|p| p.body), Some(""));
    assert_eq!(split("--- \nname: a\n---").map(|p| p.body), Some(""));
    let Load::Loaded(l) = load("---\nname: a\n---\n# H\n\nText.\n") else {
        unreachable!("loads")
    };
    assert_eq!(l.body, "# H\n\nText.\n");
}

#[test]
fn the_rewrite() {
    assert_eq!(
        sanitize("---\nname: a\ndescription: Use when: x \nother-key: a: b\n  x: y\nq: 'a: b'\n---\nB: c\n")
            .as_deref(),
        Some("---\nname: a\ndescription: |-\n  Use when: x\nother-key: a: b\n  x: y\nq: 'a: b'\n---\nB: c\n")
    );
    assert_eq!(
        sanitize("---\r\nk : a:b\r\n---\r\n").as_deref(),
        Some("---\r\nk: |-\n  a:b\r\n---\r\n")
    );
    assert_eq!(sanitize("---\nk: a:b\n"), None);
    // `\s*` skips a line terminator before the value; `.` stops at one.
    assert_eq!(
        sanitize("---\nk:\u{2028} a:b\nj: a:b\u{2028}c\n---\n").as_deref(),
        Some("---\nk: |-\n  a:b\nj: a:b\u{2028}c\n---\n")
    );
}

#[test]
fn catalog_order_is_locale_order_and_names_are_code_unit_order() {
    let recorded = [
        "-leading-hyphen",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "args-demo",
        "bad-yaml-colon",
        "bad-yaml-tab",
        "bom",
        "crlf",
        "customize-opencode",
        "desc-angle",
        "desc-empty",
        "double--hyphen",
        "flow-mapping",
        "flow-requires",
        "inner",
        "inner3",
        "long-desc-1100",
        "long-desc-2000",
        "multiline-folded",
        "multiline-literal",
        "My Skill Name",
        "ns:thing",
        "ok-basic",
        "other-name",
        "root-level",
        "spec-keys",
        "unclosed-frontmatter",
        "under_score",
        "unicode-名前",
        "unknown-keys",
        "Upper-Dir",
        "Upper-Name",
    ];
    let mut names = recorded;
    names.reverse();
    names.sort_by(|a, b| collate(a, b));
    assert_eq!(names, recorded);
    names.sort_by(|a, b| utf16_order(a, b));
    assert_eq!(
        &names[..5],
        [
            "-leading-hyphen",
            "My Skill Name",
            "Upper-Dir",
            "Upper-Name",
            &"a".repeat(80)
        ]
    );
    // UTF-16, not code points: U+1F600 (a surrogate pair, 0xD83D...)
    // before U+FF5E.
    assert_eq!(utf16_order("\u{FF5E}", "\u{1F600}"), Ordering::Greater);
    assert_eq!("\u{FF5E}".cmp("\u{1F600}"), Ordering::Less);
}

#[test]
fn the_listing() -> std::io::Result<()> {
    let tmp = tempfile::tempdir()?;
    let skill = |dir: &str, text: &str| -> std::io::Result<FoundSkill> {
        let dir = tmp.path().join(dir);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("SKILL.md"), text)?;
        Ok(FoundSkill {
            dir,
            plugin: None,
            root: tmp.path().to_path_buf(),
            origin: None,
        })
    };
    let found = [
        skill("a", "---\nname: x\ndescription: First x.\n---\n")?,
        skill("b", "---\nname: B\ndescription: Upper.\n---\n")?,
        skill("c", "---\nname: x\ndescription: Second x.\n---\n")?,
        skill("d", "---\nname: quiet\n---\nBody.\n")?,
        skill("e", "---\nname: 1\ndescription: D.\n---\n")?,
        skill("f", "---\nname: a-b\ndescription: Hyphen.\n---\n")?,
    ];
    let listing = listing(&found);
    let listed: Vec<(&str, &str)> = listing
        .listed()
        .iter()
        .map(|l| (l.name.as_str(), l.description.as_str()))
        .collect();
    assert_eq!(
        listed,
        [("a-b", "Hyphen."), ("B", "Upper."), ("x", "First x.")]
    );
    assert_eq!(listing.names(), ["B", "a-b", "quiet", "x"]);
    assert_eq!(
        listing.duplicates,
        [Duplicate {
            name: "x".into(),
            kept: found[0].dir.join("SKILL.md"),
            left_out: found[2].dir.join("SKILL.md"),
        }]
    );
    assert_eq!(listing.get("x").map(|f| &f.dir), Some(&found[0].dir));
    assert_eq!(listing.get("quiet").map(|f| &f.dir), Some(&found[3].dir));
    assert!(listing.get("1").is_none() && listing.get("X").is_none());
    // The profile's rule is the same: the first copy of a name is kept.
    let mut readings: Vec<Reading> = found.iter().map(|f| read(&f.dir)).collect();
    resolve_names(readings.iter_mut());
    assert!(readings[0].outcome.listed().is_some());
    assert!(matches!(readings[2].outcome, Outcome::NotListed { .. }));
    Ok(())
}

#[test]
fn readings() {
    let path = Path::new("/p/s/SKILL.md");
    let r = read_bytes(Path::new("/p/s"), path, b"---\nname: n\n---\n");
    assert!(matches!(r.outcome, Outcome::NotListed { .. }));
    let r = read_bytes(
        Path::new("/p/s"),
        path,
        b"---\nname: n\ndescription: a: b\n---\n",
    );
    assert_eq!(r.notes.len(), 1);
    assert_eq!(r.notes[0].code, Code::ClientYamlUnread);
    assert_eq!(
        r.outcome.listed().map(|l| (
            l.name.as_str(),
            l.description.as_str(),
            l.location.as_path()
        )),
        Some(("n", "a: b", path))
    );
    let r = read_bytes(
        Path::new("/p/s"),
        path,
        b"---\nname: 1\ndescription: D\n---\n",
    );
    assert!(matches!(r.outcome, Outcome::Rejected { .. }));
}

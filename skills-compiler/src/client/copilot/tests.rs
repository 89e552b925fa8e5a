use super::*;
use proptest::prelude::*;

proptest! {
    /// No text makes the reader panic.
    #[test]
    fn any_text_loads_or_not(
        text in "\u{FEFF}?(---[a-z \t]*\r?\n)?([a-z_-]{0,8}:[ \t]?[\\PC\t:#\\[\\]{}'\"|>-]{0,24}\r?\n){0,6}(---\n)?[\\PC\n]{0,60}"
    ) {
        let _ = load(&text, "dir");
    }
}

fn loaded(text: &str) -> Option<(String, String)> {
    match load(text, "the-dir") {
        Load::Loaded(l) => Some((l.name, l.description)),
        _ => None,
    }
}

fn some(name: &str, description: &str) -> Option<(String, String)> {
    Some((name.to_owned(), description.to_owned()))
}

#[test]
fn the_recorded_frontmatters() {
    let fm = |yaml: &str| format!("---\n{yaml}---\nBody.\n");
    assert_eq!(loaded(&fm("name: a\ndescription: D.\n")), some("a", "D."));
    assert_eq!(
        loaded("\u{FEFF}---\r\nname: crlf\r\ndescription: CRLF.\r\n---\r\nBody.\r\n"),
        some("crlf", "CRLF.")
    );
    // Spaces become hyphens; no name is the folder's.
    assert_eq!(
        loaded(&fm("name: My Skill Name\ndescription: S.\n")),
        some("My-Skill-Name", "S.")
    );
    assert_eq!(loaded(&fm("description: D.\n")), some("the-dir", "D."));
    // No description: the first paragraph, headings skipped; empty stays empty.
    assert_eq!(
        loaded("---\nname: no-desc\n---\n\n# Heading Of No Desc\n\nFirst paragraph of body.\n"),
        some("no-desc", "First paragraph of body.")
    );
    assert_eq!(loaded(&fm("name: e\ndescription: \"\"\n")), some("e", ""));
    assert_eq!(loaded("---\n---\n"), some("the-dir", ""));
    // Block scalars keep their line breaks, trimmed.
    assert_eq!(
        loaded(&fm(
            "name: m\ndescription: |\n  Line one.\n  Line two.\n\n  Para two.\n"
        )),
        some("m", "Line one.\nLine two.\n\nPara two.")
    );
    // `when_to_use` is not read.
    assert_eq!(
        loaded(&fm(
            "name: w\ndescription: Desc part.\nwhen_to_use: When part.\n"
        )),
        some("w", "Desc part.")
    );
}

/// Recorded with Copilot CLI 1.0.102 for this module (`own/` cases of
/// `/work/eval/clients-copilot`).
#[test]
fn the_rules_recorded_here() {
    let fm = |yaml: &str, body: &str| format!("---\n{yaml}---\n{body}");
    // Three text lines of the body, headings skipped, joined by spaces.
    for (body, want) in [
        (
            "Line one\nline two\n\nPara two.\n",
            "Line one line two Para two.",
        ),
        (
            "# T\nText right after heading.\n",
            "Text right after heading.",
        ),
        ("```sh\necho hi\n```\nAfter code.\n", "```sh echo hi ```"),
        ("\n   Indented para.\n", "Indented para."),
        ("a    b\tc\n", "a    b\tc"),
        ("# Only heading\n", ""),
    ] {
        assert_eq!(loaded(&fm("name: p\n", body)), some("p", want), "{body:?}");
    }
    assert_eq!(
        loaded(&fm(
            "name: p\n",
            &format!("{}\n", vec!["word ".repeat(16); 30].join("\n"))
        ))
        .map(|(_, d)| d.len()),
        Some(239)
    );
    // A block scalar ends with a line break only before another key.
    assert_eq!(
        loaded(&fm(
            "name: b\ndescription: |\n  One.\nmetadata:\n  v: \"1\"\n",
            ""
        )),
        some("b", "One.\n")
    );
    // Runs of spaces are one hyphen; a description keeps its spaces.
    assert_eq!(
        loaded(&fm("name: x  y\ndescription: D.\n", "")),
        some("x-y", "D.")
    );
    assert_eq!(
        loaded(&fm("name: n\ndescription: \"  padded  \"\n", "")),
        some("n", "  padded  ")
    );
    // Empty values, a key given twice: dropped.
    for yaml in [
        "name:\ndescription: D.\n",
        "name: ~\ndescription: D.\n",
        "name: n\ndescription:\n",
        "name: n\ndescription: First.\ndescription: Second.\n",
    ] {
        assert!(
            matches!(load(&fm(yaml, ""), "d"), Load::Dropped(_)),
            "{yaml}"
        );
    }
    // UTF-16 units: 1,024 `é` listed, 513 emoji (1,026 units) dropped.
    assert!(
        loaded(&fm(
            &format!("name: u\ndescription: {}\n", "é".repeat(1_024)),
            ""
        ))
        .is_some()
    );
    assert!(
        loaded(&fm(
            &format!("name: u\ndescription: {}\n", "😀".repeat(513)),
            ""
        ))
        .is_none()
    );
    // `disable-model-invocation`: anything but the boolean `false`.
    for (value, disabled) in [
        ("true", true),
        ("\"true\"", true),
        ("yes", true),
        ("no", true),
        ("0", true),
        ("\"false\"", true),
        ("", true),
        ("false", false),
    ] {
        let Load::Loaded(l) = load(
            &fm(
                &format!("name: d\ndescription: D.\ndisable-model-invocation: {value}\n"),
                "",
            ),
            "d",
        ) else {
            panic!("{value}")
        };
        assert_eq!(l.model_invocation_disabled, disabled, "{value}");
    }
    // CRLF is read as LF, the body too.
    let Load::Loaded(l) = load(
        "---\r\nname: c\r\ndescription: C.\r\n---\r\n\r\n# T\r\nBody.\r\n",
        "c",
    ) else {
        panic!("crlf")
    };
    assert_eq!(body(&l.body), "# T\nBody.\n");
}

#[test]
fn what_copilot_drops() {
    let fm = |yaml: &str| format!("---\n{yaml}---\nBody.\n");
    for text in [
        fm("name: c\ndescription: Use when: the plain scalar has a colon-space\n"),
        fm("name: u\ndescription: [unclosed flow\n"),
        fm("name: t\n\tdescription: tab indented\n"),
        fm("name: n\ndescription: 12345\n"),
        fm("name: l\ndescription:\n  - item one\n  - item two\n"),
        fm("name: 12345\ndescription: D.\n"),
        fm(&format!("name: {}\ndescription: D.\n", "n".repeat(65))),
        fm("name: -lead\ndescription: D.\n"),
        fm("name: _lead\ndescription: D.\n"),
        fm("name: plus+name\ndescription: D.\n"),
        fm("name: unicode-名前\ndescription: D.\n"),
        fm(&format!("name: d\ndescription: {}\n", "d".repeat(1_025))),
        "name: x\ndescription: no frontmatter\n".into(),
        "\n---\nname: x\ndescription: D.\n---\n".into(),
        "---\nname: x\ndescription: unclosed\n".into(),
        "----\nname: x\ndescription: D.\n----\n".into(),
        String::new(),
    ] {
        assert!(matches!(load(&text, "dir"), Load::Dropped(_)), "{text:?}");
    }
    for name in [
        "trail-",
        "9lives",
        "ALLCAPS",
        "dot.name",
        "ns:thing",
        "under_score",
        "double--hyphen",
    ] {
        assert_eq!(listed_name(name).as_deref(), Ok(name));
    }
    assert_eq!(
        loaded(&format!(
            "---\nname: {}\ndescription: {}\n---\n",
            "n".repeat(64),
            "d".repeat(1_024)
        ))
        .map(|(n, d)| (n.len(), d.len())),
        Some((64, 1_024))
    );
}

#[test]
fn model_invocation_and_the_body() {
    let Load::Loaded(l) = load(
        "---\nname: dmi\ndescription: D.\ndisable-model-invocation: true\n---\n\n\n# Title\n\nText.\n\n\n",
        "dmi",
    ) else {
        panic!("loaded")
    };
    assert!(l.model_invocation_disabled);
    assert_eq!(body(&l.body), "# Title\n\nText.\n\n\n");
    assert_eq!(body("  \n\tx\n"), "\tx\n");
}

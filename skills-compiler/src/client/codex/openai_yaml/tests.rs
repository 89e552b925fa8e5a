//! Tests of `openai_yaml`.

use super::*;

#[test]
fn a_full_file_is_read() {
    let text = "interface:\n  display_name: \"UI  Skill\"\n  short_description: short\n  icon_small: ./assets/s.png\n  brand_color: \"#3B82F6\"\n  default_prompt: Use $x.\ndependencies:\n  tools:\n    - type: mcp\n      value: github\n      url: https://example.com/mcp\npolicy:\n  allow_implicit_invocation: false\n  products: [codex]\n";
    let (read, problems) = read_openai_yaml(text);
    assert_eq!(problems, []);
    let read = read.unwrap_or_default();
    assert_eq!(read.display_name.as_deref(), Some("UI Skill"));
    assert_eq!(read.icon_small, Some(PathBuf::from("assets/s.png")));
    assert_eq!(read.brand_color.as_deref(), Some("#3B82F6"));
    assert_eq!(read.tools, [("mcp".to_string(), "github".to_string())]);
    assert_eq!(read.allow_implicit_invocation, Some(false));
    assert_eq!(read.products, ["codex"]);
}

fn read_openai_yaml(text: &str) -> (Option<OpenAiYaml>, Vec<OpenAiYamlProblem>) {
    let reading = super::read_openai_yaml(text);
    assert_eq!(reading.undecided, None, "{text:?}");
    (reading.read, reading.problems)
}

#[test]
fn a_type_error_ignores_the_whole_file_with_a_position() {
    let text = "policy:\n  allow_implicit_invocation: maybe\n";
    let (read, problems) = read_openai_yaml(text);
    assert_eq!(read, None);
    assert_eq!(problems.len(), 1);
    // libyaml's message where it is built (as Codex logs it), else ours.
    let message = if cfg!(feature = "codex-yaml") {
        "Codex ignores the whole file: invalid YAML: policy.allow_implicit_invocation: invalid type: string \"maybe\", expected a boolean"
    } else {
        "Codex ignores the whole file: `policy.allow_implicit_invocation` is `maybe`, not `true` or `false`"
    };
    assert!(problems[0].message.starts_with(message), "{problems:?}");
    assert_eq!(problems[0].span.as_ref().map(|s| s.start), Some(37));
    let (read, problems) = read_openai_yaml("interface: [\n");
    assert_eq!((read, problems.len()), (None, 1));
}

/// The pieces the property test below writes files from.
const PIECES: &[&str] = &[
    "policy",
    "allow_implicit_invocation",
    "products",
    "interface",
    "display_name",
    "icon_small",
    "dependencies",
    "tools",
    "type",
    "value",
    "x",
    ": ",
    ":",
    "\n",
    "  ",
    "- ",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ", ",
    "~",
    "true",
    "FALSE",
    "'",
    "\"",
    "&a ",
    "*a",
    "!x ",
    "!!null ",
    "|",
    ">-",
    "\t",
    "# c",
    "\u{85}",
    "\u{feff}",
    "...",
    "---",
    "\\",
];

proptest::proptest! {
    /// Any file gives a reading, never a panic: kept, ignored whole or
    /// undecided, one of the three, with our spans inside the file.
    #[test]
    fn any_file_reads(pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..40)) {
        let text = pieces.concat();
        let reading = super::read_openai_yaml(&text);
        proptest::prop_assert!(reading.read.is_none() || reading.undecided.is_none());
        if let Some(span) = reading.undecided.and_then(|u| u.span) {
            proptest::prop_assert!(span.start <= span.end && span.end <= text.len());
        }
    }
}

#[test]
fn a_tag_is_undecided_and_an_error_under_every_profile() -> std::io::Result<()> {
    for text in [
        "policy:\n  allow_implicit_invocation: !!str false\n",
        "policy:\n  allow_implicit_invocation: &a !!null\n",
        "interface: !x\n  display_name: a\n",
    ] {
        let reading = super::read_openai_yaml(text);
        assert_eq!(reading.read, None, "{text:?}");
        let undecided = reading.undecided.unwrap_or_else(|| panic!("{text:?}"));
        assert!(
            undecided.message.contains("tags a value (`!"),
            "{undecided:?}"
        );
    }
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    std::fs::create_dir_all(dir.join("agents"))?;
    std::fs::write(dir.join("SKILL.md"), "---\nname: s\ndescription: D.\n---\n")?;
    std::fs::write(
        dir.join(OPENAI_YAML),
        "policy:\n  allow_implicit_invocation: !!str false\n",
    )?;
    for profile in Profile::ALL {
        let options = crate::Options {
            profile,
            lints: false,
            ..crate::Options::default()
        };
        let skill = crate::check_dir(&dir, &options);
        let io: Vec<_> = skill
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::Io)
            // Without `codex-yaml`, the `codex` profile also reports that
            // Codex's reading of `SKILL.md` is not known (see
            // `crate::client::tests`).
            .filter(|d| !d.message.contains("`codex-yaml` feature"))
            .map(|d| (d.is_error(), d.label.as_ref().map(|l| l.start.line)))
            .collect();
        assert_eq!(io, [(true, Some(2))], "{profile}");
        assert_eq!(skill.openai_yaml, None);
    }
    Ok(())
}

/// A tab after a line's indentation where a value starts: libyaml stops
/// ("found character that cannot start any token"), this reading reads on;
/// undecided, never guessed. Tab-led blank and comment lines and a tab
/// inside a line are read alike, so they are read.
#[test]
fn a_tab_after_the_indentation_is_undecided() {
    let text = "policy:\n  products:\n    - #c\n     \t false\n";
    let reading = super::read_openai_yaml(text);
    assert_eq!(reading.read, None);
    let undecided = reading.undecided.unwrap_or_else(|| panic!("{text:?}"));
    assert!(
        undecided.message.contains("tab after a line's indentation"),
        "{undecided:?}"
    );
    for text in [
        "policy:\n  allow_implicit_invocation: false\n  \t\n",
        "policy:\n \t# a comment\n  allow_implicit_invocation: false\n",
        "interface:\n  display_name: a\tb\n",
    ] {
        assert!(
            super::read_openai_yaml(text).undecided.is_none(),
            "{text:?}"
        );
    }
}

/// Before, libyaml read every file after ours: 200 KB of nested flow
/// collections took 15 s, and one nested past the reader's scanner
/// limit (255 flow levels) read as a syntax error, "Codex ignores the
/// whole file", where Codex reads it. Now both builds decide, without
/// libyaml, that the file is past a bound: undecided, naming it.
#[test]
fn a_file_past_the_bounds_is_undecided_in_every_build() {
    let deep = format!("x: {}{}\n", "[".repeat(1_000), "]".repeat(1_000));
    let nested = format!("x: {}b{}\n", "{a: ".repeat(100), "}".repeat(100));
    let unreadable = format!("{}policy: a: b\n", "k: [x]\n".repeat(65));
    for (text, why) in [
        (
            &deep,
            "the YAML nests deeper than 64 levels, the most this tool reads",
        ),
        (
            &nested,
            "the YAML nests deeper than 64 levels, the most this tool reads",
        ),
        (
            &unreadable,
            "this tool's reader stops at a syntax error (a `: ` inside an unquoted value starts a mapping here; quote the value) and the YAML has 65 `[` and `{`, so how deep libyaml would nest it, how many nodes it would read, or how much its aliases would repeat, is not bounded before libyaml runs (this tool reads at most 64 levels, 100,000 nodes and 1,048,576 bytes repeated by aliases)",
        ),
    ] {
        let reading = super::read_openai_yaml(text);
        assert_eq!(reading.read, None);
        assert_eq!(reading.problems, []);
        assert_eq!(reading.undecided.map(|u| u.message).as_deref(), Some(why));
    }
    // 64 `[` cannot nest deeper than 64: libyaml decides, as before.
    let (read, problems) = read_openai_yaml(&format!("{}policy: a: b\n", "k: [x]\n".repeat(64)));
    assert_eq!(read, None);
    assert_eq!(problems.len(), 1, "{problems:?}");
}

#[test]
fn ignored_fields_are_reported_where_they_are() {
    let text = "interface:\n  display_name: \"\"\n  icon_large: ../logo.png\n  icon_small: /abs/a.png\n  brand_color: blue\n  colour: x\npolicy:\n  allow_implicit_invocations: false\ndependencies:\n  tools:\n    - value: v\n    - type: mcp\n      value: ok\n      extra: 1\n";
    let (read, problems) = read_openai_yaml(text);
    let read = read.unwrap_or_default();
    assert_eq!(read.allow_implicit_invocation, None);
    assert_eq!(read.icon_large, None);
    assert_eq!(read.tools, [("mcp".to_string(), "ok".to_string())]);
    let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    for expected in [
        "Codex does not read `interface.colour`",
        "Codex does not read `policy.allow_implicit_invocations`",
        "Codex does not read `dependencies.tools[1].extra`",
        "`interface.display_name` is empty; Codex ignores it",
        "`interface.icon_large` contains `..`; Codex ignores it (an icon is a relative path under the skill's `assets/`)",
        "`interface.icon_small` is absolute; Codex ignores it (an icon is a relative path under the skill's `assets/`)",
        "`interface.brand_color` is `blue`, not `#RRGGBB`; Codex ignores it",
        "`dependencies.tools[0].type` is missing; Codex ignores this tool",
    ] {
        assert!(messages.contains(&expected), "{expected}\n{messages:#?}");
    }
    assert!(problems.iter().all(|p| p.span.is_some()), "{problems:?}");
    let colour = problems.iter().find(|p| p.message.contains("colour"));
    assert_eq!(
        colour
            .and_then(|p| p.span.clone())
            .and_then(|s| text.get(s)),
        Some("colour")
    );
    let long = format!("interface:\n  display_name: {}\n", "n".repeat(65));
    let (read, problems) = read_openai_yaml(&long);
    assert_eq!(read.and_then(|r| r.display_name), None);
    assert!(problems[0].message.contains("exceeds maximum length of 64"));
}

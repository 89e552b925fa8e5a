//! Codex's own reading of `agents/openai.yaml`, serde over libyaml
//! (`yaml_serde`), built with the `codex-yaml` feature only.
//!
//! It decides nothing a bundle carries ([`super::shape`] does, in every
//! build). It gives the message Codex logs when it ignores the whole file
//! (libyaml's text and position), and it names any file whose reading here
//! differs from [`super::shape`]'s, so that a disagreement is reported, not
//! silent. Its tests read many generated and real files both ways and
//! require the same result wherever [`super::shape`] decides.

use super::shape::{NotRead, OpenAiYamlProblem, SkillMetadataFile};
use crate::libyaml_bound;
use crate::yaml::Parsed;

/// Codex's reading of the file.
#[cfg(test)]
fn read(text: &str) -> Result<SkillMetadataFile, yaml_serde::Error> {
    yaml_serde::from_str(text)
}

/// What to report about the whole file from Codex's reading, given ours
/// (`parsed`, and `typed` from it): Codex's message when it ignores the
/// file, a disagreement when the two readings part, else nothing. A file
/// past [`libyaml_bound`]'s bounds is not given to libyaml (ours is then
/// undecided, an error of its own).
pub(super) fn verdict(
    text: &str,
    parsed: &Parsed,
    typed: &Result<SkillMetadataFile, NotRead>,
) -> Option<OpenAiYamlProblem> {
    let codex = libyaml_bound::from_str::<SkillMetadataFile>(text, Some(parsed)).ok()?;
    match (codex, typed) {
        (Err(e), _) => {
            let at = e.location().map(|l| l.index());
            let parted = if typed.is_ok() {
                "; this differs from the reading a bundle's metadata is taken from, which keeps it (please report it)"
            } else {
                ""
            };
            Some(OpenAiYamlProblem {
                message: format!("Codex ignores the whole file: invalid YAML: {e}{parted}"),
                span: at.map(|i| i..i + 1),
            })
        }
        (Ok(_), Err(NotRead::Undecided(_))) => None,
        (Ok(codex), Ok(ours)) if codex == *ours => None,
        (Ok(_), ours) => {
            let (why, span) = match ours {
                Err(NotRead::Ignored(f)) => {
                    (format!("ignores it whole ({})", f.message), f.span.clone())
                }
                _ => ("reads other values from it".to_string(), None),
            };
            Some(OpenAiYamlProblem {
                message: format!(
                    "Codex reads this file, but the reading a bundle's metadata is taken from {why} (please report it)"
                ),
                span,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::codex::openai_yaml::shape::typed;
    use crate::yaml;

    /// How the two readings compare on one document: `None` when they agree
    /// (or ours is undecided), else both verdicts.
    fn compare(text: &str) -> Option<String> {
        let ours = typed(text, &yaml::parse(text, 0, text.len()));
        let codex = read(text);
        match (&ours, &codex) {
            (Err(NotRead::Undecided(_)), _) => None,
            (Ok(a), Ok(b)) if a == b => None,
            (Err(NotRead::Ignored(_)), Err(_)) => None,
            _ => Some(format!("{text:?}\n  ours:  {ours:?}\n  codex: {codex:?}")),
        }
    }

    fn undecided(text: &str) -> bool {
        matches!(
            typed(text, &yaml::parse(text, 0, text.len())),
            Err(NotRead::Undecided(_))
        )
    }

    /// Values written every way the two readings could part on.
    const VALUES: &[&str] = &[
        "",
        " ~",
        " null",
        " Null",
        " NULL",
        " nULL",
        " true",
        " True",
        " TRUE",
        " tRUE",
        " false",
        " False",
        " FALSE",
        " yes",
        " no",
        " on",
        " off",
        " y",
        " 0",
        " 1",
        " 1.5",
        " 0x1F",
        " .inf",
        " -.5e3",
        " 2024-01-01",
        " \"false\"",
        " 'true'",
        " \"\"",
        " ''",
        " \"~\"",
        " text",
        " two words",
        " #notacomment",
        " a # comment",
        " \"x\\u00a0y\"",
        " 'it''s'",
        " |\n    block\n    text",
        " >-\n    folded\n    text",
        " |",
        " [a, b]",
        " []",
        " [~, '', 1, true]",
        " [[a]]",
        " [{a: b}]",
        " {a: b}",
        " {}",
        "\n    - a\n    - ~\n    -\n    - b",
        "\n    - - a",
        "\n    - k: v",
        "\n    a: b",
        "\n    a:\n      - b",
        " &v false",
        " [a,",
        " {a",
        " \"unclosed",
        " a: b",
        " - a",
        " @at",
        " `tick",
        " %pct",
        " a\tb",
        " \t false",
        " false\t",
        " false # c",
        " false\n  # c",
        " ? a",
        " \"\\x01\"",
        " 'a\n    b'",
        " a\n    b",
        " \u{85}",
        " \u{feff}x",
        " \u{1}",
    ];

    /// Field paths, as the lines that lead to a value (two-space indents).
    const PLACES: &[&str] = &[
        "policy:\n  allow_implicit_invocation:",
        "policy:\n  products:",
        "policy:\n  products:\n    -",
        "policy:",
        "interface:",
        "interface:\n  display_name:",
        "interface:\n  icon_small:",
        "interface:\n  brand_color:",
        "dependencies:",
        "dependencies:\n  tools:",
        "dependencies:\n  tools:\n    - type:",
        "dependencies:\n  tools:\n    - type: mcp\n      value:",
        "unknown:",
        "policy:\n  unknown:",
        "",
    ];

    /// The values above the two YAML readers read apart (see
    /// [`shape`](crate::client::codex::openai_yaml::shape)): undecided, never guessed. An unclosed
    /// quote followed by a line less indented is one too: saphyr stops at
    /// the indentation before it finds the quote unclosed.
    const APART: &[&str] = &[
        " \u{85}",
        " \u{feff}x",
        " \t false",
        " 'a\n    b'",
        " \"unclosed",
    ];

    #[test]
    fn every_value_in_every_place_reads_as_codex_reads_it() {
        let mut parted = Vec::new();
        let (mut decided, mut apart) = (0, Vec::new());
        for place in PLACES {
            for value in VALUES {
                // As the only key, and between others (so that a later key
                // or an indentation error shows).
                for text in [
                    format!("{place}{value}\n"),
                    format!(
                        "interface:\n  display_name: X\n{place}{value}\npolicy:\n  allow_implicit_invocation: false\n"
                    ),
                    format!("# c\n{place}{value}"),
                ] {
                    parted.extend(compare(&text));
                    if undecided(&text) {
                        apart.push((*value, text));
                    } else {
                        decided += 1;
                    }
                }
            }
        }
        assert!(parted.is_empty(), "{}", parted.join("\n"));
        let unexpected: Vec<_> = apart.iter().filter(|(v, _)| !APART.contains(v)).collect();
        assert!(unexpected.is_empty(), "{unexpected:#?}");
        assert!(decided > 3 * PLACES.len() * (VALUES.len() - APART.len()) * 9 / 10);
    }

    #[test]
    fn whole_documents_read_as_codex_reads_them() {
        let mut parted = Vec::new();
        for text in [
            "",
            "# only a comment\n",
            "---\n",
            "---\n...\n",
            "...\n",
            "~\n",
            "null\n",
            "x\n",
            "[]\n",
            "{}\n",
            "- a\n",
            "\u{feff}policy: {allow_implicit_invocation: false}\n",
            "policy: {allow_implicit_invocation: false}\n...\n",
            "---\npolicy: {allow_implicit_invocation: false}\n---\nx: 1\n",
            "policy: {allow_implicit_invocation: false}\n---\n",
            "%YAML 1.1\n---\npolicy: {allow_implicit_invocation: false}\n",
            "%YAML 1.2\n---\npolicy: {allow_implicit_invocation: false}\n",
            "policy:\n  allow_implicit_invocation: false\n  allow_implicit_invocation: true\n",
            "policy:\n  allow_implicit_invocation: false\npolicy:\n  products: []\n",
            "policy: {products: [a], products: [b]}\n",
            "interface: {display_name: a, display_name: a}\n",
            "dependencies: {tools: [], tools: []}\n",
            "dependencies:\n  tools:\n    - type: x\n      type: y\n",
            "x: 1\nx: 2\npolicy: {allow_implicit_invocation: false}\n",
            "'policy': {\"allow_implicit_invocation\": false}\n",
            "policy:\n  ? allow_implicit_invocation\n  : false\n",
            "? [a]\n: b\n",
            "? {a: b}\n: c\n",
            "policy:\n  [a]: b\n",
            "1: x\nnull: y\n~: z\ntrue: w\npolicy: {allow_implicit_invocation: false}\n",
            "a: &x {allow_implicit_invocation: false}\npolicy: *x\n",
            "policy: &p\n  allow_implicit_invocation: false\nother: *p\n",
            "interface:\n  display_name: &n x\n  short_description: *n\n",
            "policy: *nothing\n",
            "policy:\n  <<: {allow_implicit_invocation: false}\n",
            "<<: {policy: {allow_implicit_invocation: false}}\n",
            "policy:\n\tallow_implicit_invocation: false\n",
            "policy:\n  allow_implicit_invocation: false\n   products: []\n",
            "policy:\n    allow_implicit_invocation: false\n  products: []\n",
            "policy:\n  allow_implicit_invocation: false\n  x: [\n",
            "interface:\n  display_name: a\n b\n",
            "interface:\n  display_name: -\n",
            "policy: {allow_implicit_invocation: false}\u{1}\n",
            "policy: {allow_implicit_invocation: false}\u{7f}\n",
            "policy: {allow_implicit_invocation: false}\u{85}\n",
            "policy: {allow_implicit_invocation: false}\u{fffe}\n",
            "policy: {allow_implicit_invocation: false}\u{e000}\n",
            "policy: {allow_implicit_invocation: false}\r\n",
            "policy:\r\n  allow_implicit_invocation: false\r\n",
            "policy:\r  allow_implicit_invocation: false\r",
            "policy: {allow_implicit_invocation: false,}\n",
            "policy: {allow_implicit_invocation: false, products: [a,]}\n",
            "policy: [allow_implicit_invocation, false]\n",
            "policy: {? allow_implicit_invocation : false}\n",
            "policy: {allow_implicit_invocation}\n",
            "{policy: {allow_implicit_invocation: false}}\n",
            "policy:\n  allow_implicit_invocation: false\n  products:\n  - codex\n",
            "dependencies:\n  tools:\n  - type: mcp\n    value: v\n",
            "dependencies:\n  tools:\n    - {}\n    -\n",
            "\"policy\":\n  \"allow_implicit_invocation\": false\n",
            "policy: \n  allow_implicit_invocation: false\n",
            "policy:   # c\n  allow_implicit_invocation: false  # c\n",
            "policy:\n  allow_implicit_invocation: false\n# end",
        ] {
            parted.extend(compare(text));
        }
        assert!(parted.is_empty(), "{}", parted.join("\n"));
    }

    #[test]
    fn a_disagreement_is_reported() {
        // Ours says "ignored", Codex reads it: named as a disagreement.
        let ours = Err(NotRead::Ignored(
            crate::client::codex::openai_yaml::shape::Failure {
                message: "m".into(),
                span: None,
            },
        ));
        let parsed = |text: &str| yaml::parse(text, 0, text.len());
        let reported = verdict("policy: {}\n", &parsed("policy: {}\n"), &ours);
        assert!(
            reported.is_some_and(|p| p.message.contains("please report it")),
            "no disagreement"
        );
        // Codex ignores what ours keeps.
        let reported = verdict(
            "policy: x\n",
            &parsed("policy: x\n"),
            &Ok(SkillMetadataFile::default()),
        );
        assert!(reported.is_some_and(|p| p.message.contains("please report it")));
        let text = "policy: {}\n";
        assert_eq!(
            verdict(text, &parsed(text), &typed(text, &parsed(text))),
            None
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]
        /// Documents made of lines of the generated kind, in any order and
        /// indentation.
        #[test]
        fn generated_documents_read_as_codex_reads_them(
            lines in proptest::collection::vec(
                (0usize..3, 0..PLACES.len(), 0..VALUES.len()), 1..5)
        ) {
            let mut text = String::new();
            for (indent, place, value) in lines {
                for line in format!("{}{}", PLACES[place], VALUES[value]).lines() {
                    text.push_str(&"  ".repeat(indent));
                    text.push_str(line);
                    text.push('\n');
                }
            }
            let parted = compare(&text);
            proptest::prop_assert!(parted.is_none(), "{}", parted.unwrap_or_default());
        }
    }
}

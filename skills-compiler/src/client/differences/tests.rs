//! Tests of `differences`, on constructed readings of skills checked from
//! a temporary folder.

use std::path::Path;

use super::*;
use crate::client::Listed;
use crate::{Options, check_skill};

const CC: Client = Client::ClaudeCode;
const CODEX: Client = Client::Codex;
const GEMINI: Client = Client::GeminiCli;
const OPENCODE: Client = Client::OpenCode;

/// A skill checked from a folder named `dir` holding `files`.
fn skill(dir: &str, files: &[(&str, &str)]) -> CheckedSkill {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().join(dir);
    for (rel, text) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
    }
    check_skill(&root, None, &Options::default())
}

fn listed(client: Client, name: &str, alias: Option<&str>) -> Reading {
    Reading::new(Outcome::Listed(Listed {
        name: name.into(),
        alias: alias.map(Into::into),
        description: "Use when testing.".into(),
        when_to_use: None,
        location: Path::new("x/SKILL.md").into(),
        client,
    }))
}

fn not_listed(why: &str) -> Reading {
    Reading::new(Outcome::NotListed { why: why.into() })
}

fn rejected(why: &str) -> Reading {
    Reading::new(Outcome::Rejected { why: why.into() })
}

fn unknown() -> Reading {
    Reading::new(Outcome::Unknown {
        why: "not modelled yet".into(),
    })
}

const DMI: &str =
    "---\nname: x\ndescription: Use when testing.\ndisable-model-invocation: true\n---\nBody.\n";
const PLAIN: &str = "---\nname: x\ndescription: Use when testing.\n---\nBody.\n";
const POLICY: &str = "policy:\n  allow_implicit_invocation: false\n";

#[test]
fn a_control_claude_code_obeys_and_codex_ignores() {
    let s = skill("x", &[("SKILL.md", DMI)]);
    let d = differences(
        &s,
        &[
            (CC, not_listed("`disable-model-invocation: true`")),
            (CODEX, listed(CODEX, "x", None)),
            (GEMINI, unknown()),
            (OPENCODE, unknown()),
        ],
    );
    assert_eq!(d.unknown, [GEMINI, OPENCODE]);
    assert!(d.unseen.is_empty());
    let [diff] = d.differences.as_slice() else {
        panic!("{d:?}");
    };
    assert_eq!(
        diff,
        &Difference::Control {
            obeyed: vec![(CC, Control::DisableModelInvocation)],
            ignored_by: vec![CODEX],
        }
    );
    assert_eq!(diff.code(), Code::ClientIgnoresControl);
    assert_eq!(
        diff.message(),
        "Claude Code keeps this skill out of its model's list (`disable-model-invocation: true`); Codex lists it: it does not read `disable-model-invocation`"
    );
    assert_eq!(diff.fixes(), [(CODEX, Control::AllowImplicitInvocation)]);
    assert_eq!(
        diff.help().as_deref(),
        Some(
            "`skb fix` writes `policy.allow_implicit_invocation: false` in `agents/openai.yaml`, which Codex obeys"
        )
    );
    let warning = diff.diagnostic(Path::new("x/SKILL.md"), Profile::Spec);
    assert_eq!(warning.severity, crate::Severity::Warning);
}

#[test]
fn both_controls_obeyed_and_the_others_ignore_them() {
    let s = skill("x", &[("SKILL.md", DMI), ("agents/openai.yaml", POLICY)]);
    let d = differences(
        &s,
        &[
            (CC, not_listed("dmi")),
            (CODEX, not_listed("policy")),
            (GEMINI, listed(GEMINI, "x", None)),
            (OPENCODE, listed(OPENCODE, "x", None)),
        ],
    );
    let [diff] = d.differences.as_slice() else {
        panic!("{d:?}");
    };
    assert_eq!(
        diff.message(),
        "Claude Code (`disable-model-invocation: true`) and Codex (`policy.allow_implicit_invocation: false` in `agents/openai.yaml`) keep this skill out of their models' lists; Gemini CLI and OpenCode list it: they do not read `disable-model-invocation` or `policy.allow_implicit_invocation`"
    );
    // No file makes Gemini CLI or OpenCode obey either.
    assert!(diff.fixes().is_empty());
    assert_eq!(diff.help(), None);
}

#[test]
fn agreeing_clients_have_no_difference() {
    let s = skill("x", &[("SKILL.md", DMI), ("agents/openai.yaml", POLICY)]);
    let d = differences(
        &s,
        &[(CC, not_listed("dmi")), (CODEX, not_listed("policy"))],
    );
    assert_eq!(d, Differences::default());
    let s = skill("x", &[("SKILL.md", PLAIN)]);
    let d = differences(
        &s,
        &[
            (CC, listed(CC, "x", None)),
            (CODEX, listed(CODEX, "x", None)),
        ],
    );
    assert_eq!(d, Differences::default());
}

#[test]
fn codex_alone_obeys_its_policy() {
    let s = skill("x", &[("SKILL.md", PLAIN), ("agents/openai.yaml", POLICY)]);
    let d = differences(
        &s,
        &[(CC, listed(CC, "x", None)), (CODEX, not_listed("policy"))],
    );
    let [diff] = d.differences.as_slice() else {
        panic!("{d:?}");
    };
    assert_eq!(
        diff,
        &Difference::Control {
            obeyed: vec![(CODEX, Control::AllowImplicitInvocation)],
            ignored_by: vec![CC],
        }
    );
    assert!(diff.fixes().is_empty());
    assert_eq!(
        diff.help().as_deref(),
        Some("for Claude Code to do the same, set `disable-model-invocation: true`")
    );
}

#[test]
fn paths_has_no_equivalent() {
    let s = skill(
        "x",
        &[(
            "SKILL.md",
            "---\nname: x\ndescription: Use when testing.\npaths: src/**\n---\n",
        )],
    );
    let d = differences(
        &s,
        &[(CC, not_listed("paths")), (CODEX, listed(CODEX, "x", None))],
    );
    let [diff] = d.differences.as_slice() else {
        panic!("{d:?}");
    };
    assert_eq!(
        diff,
        &Difference::Control {
            obeyed: vec![(CC, Control::Paths)],
            ignored_by: vec![CODEX],
        }
    );
    assert_eq!(diff.help(), None);
}

/// A client whose reading is not known is never a difference: not when
/// the others list the skill, not when they do not.
#[test]
fn unknown_is_never_a_difference() {
    let s = skill("x", &[("SKILL.md", PLAIN)]);
    for other in [listed(CC, "x", None), not_listed("no"), rejected("no")] {
        let d = differences(&s, &[(CC, other), (CODEX, unknown()), (GEMINI, unknown())]);
        assert!(d.differences.is_empty(), "{d:?}");
        assert_eq!(d.unknown, [CODEX, GEMINI]);
    }
}

#[test]
fn listed_by_one_and_not_loaded_by_another() {
    let s = skill("x", &[("SKILL.md", PLAIN)]);
    let d = differences(
        &s,
        &[
            (CC, listed(CC, "x", None)),
            (CODEX, rejected("missing YAML frontmatter delimited by ---")),
            (GEMINI, not_listed("no name")),
            (OPENCODE, listed(OPENCODE, "x", None)),
        ],
    );
    let [diff] = d.differences.as_slice() else {
        panic!("{d:?}");
    };
    assert_eq!(diff.code(), Code::ClientsDifferListing);
    assert_eq!(
        diff.message(),
        "Claude Code and OpenCode list this skill to the model; Codex does not load it (missing YAML frontmatter delimited by ---); Gemini CLI does not list it (no name)"
    );
    assert_eq!(diff.help(), None);
}

/// A control's client that refuses the skill outright does not obey the
/// control: that is a listing difference.
#[test]
fn a_rejection_is_not_obedience() {
    let s = skill("x", &[("SKILL.md", DMI)]);
    let d = differences(
        &s,
        &[
            (CC, rejected("too large")),
            (CODEX, listed(CODEX, "x", None)),
        ],
    );
    assert_eq!(
        d.differences
            .iter()
            .map(Difference::kind)
            .collect::<Vec<_>>(),
        ["listing"]
    );
}

#[test]
fn listed_under_different_names() {
    let s = skill("mismatch-dir", &[("SKILL.md", PLAIN)]);
    let d = differences(
        &s,
        &[
            (CC, listed(CC, "mismatch-dir", Some("other-name"))),
            (CODEX, listed(CODEX, "other-name", None)),
            (GEMINI, listed(GEMINI, "other-name", None)),
        ],
    );
    let [diff] = d.differences.as_slice() else {
        panic!("{d:?}");
    };
    assert_eq!(diff.code(), Code::ClientsDifferName);
    assert_eq!(
        diff.message(),
        "the clients list this skill under different names: Claude Code as `mismatch-dir (other-name)`, Codex as `other-name`, Gemini CLI as `other-name`"
    );
    // The same names: no difference.
    let d = differences(
        &s,
        &[
            (CODEX, listed(CODEX, "a", None)),
            (GEMINI, listed(GEMINI, "a", None)),
        ],
    );
    assert!(d.differences.is_empty());
}

#[test]
fn every_kind_at_once_in_a_fixed_order() {
    let s = skill("x", &[("SKILL.md", DMI)]);
    let d = differences(
        &s,
        &[
            (CC, not_listed("dmi")),
            (CODEX, listed(CODEX, "x", None)),
            (GEMINI, rejected("no")),
            (OPENCODE, listed(OPENCODE, "y", None)),
        ],
    );
    assert_eq!(
        d.differences
            .iter()
            .map(Difference::kind)
            .collect::<Vec<_>>(),
        ["listing", "control", "name"]
    );
}

#[test]
fn controls_are_read_as_their_clients_read_them() {
    let with = |fm: &str| {
        skill(
            "x",
            &[(
                "SKILL.md",
                &format!("---\nname: x\ndescription: d\n{fm}---\n"),
            )],
        )
    };
    let dmi = Control::DisableModelInvocation;
    assert!(dmi.is_set(&with("disable-model-invocation: true\n")));
    assert!(dmi.is_set(&with("disable-model-invocation: \"true\"\n")));
    // Claude Code reads only `true` as true.
    assert!(!dmi.is_set(&with("disable-model-invocation: yes\n")));
    assert!(!dmi.is_set(&with("disable-model-invocation: false\n")));
    assert!(!Control::Paths.is_set(&with("paths: []\n")));
    assert!(Control::Paths.is_set(&with("paths: [\"*.rs\"]\n")));
    let policy = |yaml: &str| {
        Control::AllowImplicitInvocation.is_set(&skill(
            "x",
            &[("SKILL.md", PLAIN), ("agents/openai.yaml", yaml)],
        ))
    };
    assert!(policy(POLICY));
    assert!(!policy("policy:\n  allow_implicit_invocation: true\n"));
    assert!(!policy("interface:\n  display_name: X\n"));
}

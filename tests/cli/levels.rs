//! `skb catalog`, `show` and `read`: what an agent built from the same
//! skills sees, from a directory or from a pack, and their errors.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use crate::skills;
use skills_tests::{tempdir, workspace};

fn run(args: &[&str]) -> (String, String, i32) {
    let out = skills()
        .current_dir(workspace())
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn the_three_levels_from_a_directory_and_from_its_pack_agree() {
    let tmp = tempdir();
    let pack = tmp.path().join("s.skillpack");
    let pack = pack.to_str().unwrap();
    assert_eq!(run(&["pack", "skills", "-o", pack]).2, 0);
    for from in ["skills", pack] {
        let (catalog, _, rc) = run(&["catalog", from]);
        assert_eq!(rc, 0);
        assert!(catalog.starts_with("<available_skills>\n<skill>\n<name>\ncalculator\n</name>"));
        assert!(
            catalog.contains("<location>\nskill://review-plugin:code-review/SKILL.md\n</location>")
        );
        assert!(catalog.ends_with("</available_skills>\n"));

        let (shown, _, rc) = run(&[
            "show",
            "calculator",
            "--from",
            from,
            "--arguments",
            "15 * 23",
        ]);
        assert_eq!(rc, 0);
        assert!(
            shown.starts_with("Base directory for this skill: skill://calculator\n\n# Calculator")
        );
        assert!(
            !shown.contains("name: calculator"),
            "the frontmatter is not part of level 2"
        );

        let (script, _, rc) = run(&["read", "calculator", "scripts/calc.py", "--from", from]);
        assert_eq!(rc, 0);
        let on_disk =
            std::fs::read_to_string(workspace().join("skills/calculator/scripts/calc.py")).unwrap();
        assert_eq!(script, on_disk);
    }
    assert_eq!(run(&["catalog", "skills"]).0, run(&["catalog", pack]).0);
}

#[test]
fn a_budget_keeps_the_catalog_short_and_names_first() {
    let (full, _, _) = run(&["catalog", "skills"]);
    let (short, _, rc) = run(&["catalog", "skills", "--budget", "700"]);
    assert_eq!(rc, 0);
    assert!(short.trim_end().chars().count() <= 700, "{short}");
    assert!(short.len() < full.len());
    for name in ["calculator", "csv-insights", "git-workflow"] {
        assert!(
            short.contains(&format!("<name>\n{name}\n</name>")),
            "{short}"
        );
    }
}

#[test]
fn unknown_skills_and_bad_paths_are_errors_that_list_what_exists() {
    let (_, err, rc) = run(&["show", "nope", "--from", "skills"]);
    assert_eq!(rc, 1);
    assert!(
        err.contains("no skill `nope`; available: calculator, csv-insights"),
        "{err}"
    );
    let (out, err, rc) = run(&[
        "read",
        "calculator",
        "../git-workflow/SKILL.md",
        "--from",
        "skills",
    ]);
    assert_eq!((out.as_str(), rc), ("", 1));
    assert!(err.contains("may not leave the skill directory"), "{err}");
    let (_, err, rc) = run(&["read", "calculator", "scripts/nope.py", "--from", "skills"]);
    assert_eq!(rc, 1);
    assert!(
        err.contains("available: SKILL.md, scripts/calc.py"),
        "{err}"
    );
}

/// `skb run` executes under the skill's `allowed-tools`, passing the
/// command's output and exit status through; a refusal is 126.
#[test]
fn run_executes_under_the_policy() {
    // The calculator's script runs with python3: without it, say so.
    skills_tests::tool("python3", "python3");
    let cache = tempdir();
    let run = |args: &[&str]| {
        let out = skills()
            .current_dir(workspace())
            .env("XDG_CACHE_HOME", cache.path())
            .args(args)
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code().unwrap_or(-1),
        )
    };
    let calc = [
        "run",
        "calculator",
        "--from",
        "skills",
        "--",
        "python3",
        "scripts/calc.py",
    ];
    let (out, _, rc) = run(&[&calc[..], &["15 * 23"]].concat());
    assert_eq!((out.as_str(), rc), ("345\n", 0));
    let (_, err, rc) = run(&[&calc[..], &["1/0"]].concat());
    assert_eq!(rc, 1);
    assert!(err.contains("division by zero"), "{err}");
    let (out, err, rc) = run(&["run", "calculator", "--from", "skills", "--", "ls", "-la"]);
    assert_eq!((out.as_str(), rc), ("", 126));
    assert!(
        err.contains("Tool 'Bash' not allowed for skill 'calculator'. Allowed tools: ['Bash(python3 scripts/calc.py:*)', 'Read']"),
        "{err}"
    );
    // An argument holding shell syntax is one quoted word: data, which the
    // rule allows and the script receives as it is (there is no shell).
    let (out, err, rc) = run(&[&calc[..], &["1; rm -rf /"]].concat());
    assert_eq!(
        (out.as_str(), err.as_str(), rc),
        (
            "",
            "calc.py: error: invalid expression: invalid syntax\n",
            2
        )
    );
}

//! `skb init`: a new skill every profile accepts without a word, and
//! nothing ever overwritten.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::Output;

use crate::skills;
use skills_tests::tempdir;

fn run(dir: &Path, args: &[&str]) -> Output {
    skills().current_dir(dir).args(args).output().unwrap()
}

fn said(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Every profile `skb validate --help` offers.
fn profiles(dir: &Path) -> Vec<String> {
    let help = said(&run(dir, &["validate", "--help"]));
    let start = help.find("--profile").unwrap();
    help[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().starts_with("--") && !l.trim().starts_with("[default"))
        .filter_map(|l| l.trim().strip_prefix("- "))
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn a_new_skill_validates_under_every_profile_without_a_warning() {
    let tmp = tempdir();
    let out = run(tmp.path(), &["init", "demo"]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("skb validate demo"), "{}", said(&out));
    let profiles = profiles(tmp.path());
    assert!(
        profiles.iter().any(|p| p == "spec") && profiles.iter().any(|p| p == "codex"),
        "{profiles:?}"
    );
    for profile in &profiles {
        let out = run(
            tmp.path(),
            &["validate", "demo", "--profile", profile, "--deny-warnings"],
        );
        assert!(out.status.success(), "{profile}: {}", said(&out));
        assert!(
            said(&out).contains("all valid"),
            "{profile}: {}",
            said(&out)
        );
    }
    // The example the rule allows runs.
    let ran = std::process::Command::new("python3")
        .arg("demo/scripts/example.py")
        .args(["--name", "tests"])
        .current_dir(tmp.path())
        .output();
    if let Ok(ran) = ran {
        assert_eq!(String::from_utf8_lossy(&ran.stdout), "Hello, tests!\n");
    }
}

#[test]
fn nothing_is_overwritten_and_a_bad_name_is_refused() {
    let tmp = tempdir();
    std::fs::create_dir(tmp.path().join("demo")).unwrap();
    std::fs::write(tmp.path().join("demo/SKILL.md"), "mine").unwrap();
    let out = run(tmp.path(), &["init", "demo"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("already exists"), "{}", said(&out));
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("demo/SKILL.md")).unwrap(),
        "mine"
    );
    // In place: the folder already has a SKILL.md.
    let out = run(&tmp.path().join("demo"), &["init"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(!tmp.path().join("demo/scripts").exists());
    let out = run(tmp.path(), &["init", "My_Skill"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("not a skill name"), "{}", said(&out));
    assert!(!tmp.path().join("My_Skill").exists());
    // --dir: made there; in place: the folder's name.
    std::fs::create_dir(tmp.path().join("skills")).unwrap();
    let out = run(tmp.path(), &["init", "notes", "--dir", "skills"]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(tmp.path().join("skills/notes/SKILL.md").is_file());
    std::fs::create_dir(tmp.path().join("weekly")).unwrap();
    let out = run(&tmp.path().join("weekly"), &["init"]);
    assert!(out.status.success(), "{}", said(&out));
    let text = std::fs::read_to_string(tmp.path().join("weekly/SKILL.md")).unwrap();
    assert!(text.starts_with("---\nname: weekly\n"), "{text}");
}

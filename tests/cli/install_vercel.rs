//! `skb import` and `skb verify --installed` beside Vercel's `npx skills`,
//! run for real (Node 22 and the npm package `skills`, installed by
//! `.ci/run`): what its CLI installed is checked against its
//! `computedHash`, taken over by `skb.lock`, and its CLI still works on the
//! project afterwards.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::skills;
use skills_tests::{tempdir, write_tree};

fn npx_skills(project: &Path, home: &Path, args: &[&str]) -> Output {
    let (node, cli) = skills_tests::tier::vercel_cli();
    let out = Command::new(node)
        .arg(cli)
        .args(args)
        .current_dir(project)
        .env("HOME", home)
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("DISABLE_TELEMETRY", "1")
        .env("DO_NOT_TRACK", "1")
        .env("NO_COLOR", "1")
        .env("CI", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "npx skills {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn skb(project: &Path, home: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(project)
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

#[skills_tests::acceptance(
    "needs Node 22 and Vercel's CLI (SKILLS_VERCEL_CLI_PREFIX or target/vercel-cli)"
)]
#[test]
fn vercel_installs_are_verified_imported_and_its_cli_still_works() {
    let tmp = tempdir();
    let root = tmp.path();
    let home = root.join("home");
    let src = root.join("src");
    for name in ["alpha", "beta"] {
        write_tree(
            &src.join(name),
            &[(
                "SKILL.md",
                format!("---\nname: {name}\ndescription: {name} does things. Use it for things.\n---\nBody of {name}.\n").as_bytes(),
            )],
        );
    }
    let p = root.join("p");
    std::fs::create_dir_all(&p).unwrap();
    npx_skills(
        &p,
        &home,
        &["add", src.to_str().unwrap(), "-y", "-a", "claude-code"],
    );
    let vercel_lock = std::fs::read(p.join("skills-lock.json")).unwrap();

    // Their folders, against their computedHash.
    let out = skb(&p, &home, &["verify", "--installed"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("2 folders as skills-lock.json says"),
        "{}",
        text(&out)
    );

    // Taken over: locked where they are, nothing rewritten.
    let out = skb(&p, &home, &["import"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("adopted alpha -> .claude/skills/alpha"),
        "{}",
        text(&out)
    );
    assert_eq!(
        std::fs::read(p.join("skills-lock.json")).unwrap(),
        vercel_lock
    );
    let lock = std::fs::read_to_string(p.join("skb.lock")).unwrap();
    assert!(
        lock.contains("\"installed\": [\".claude/skills/beta\"]"),
        "{lock}"
    );

    // An edit is named by both checks.
    std::fs::write(p.join(".claude/skills/alpha/SKILL.md"), "edited").unwrap();
    let out = skb(&p, &home, &["verify", "--installed"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(".claude/skills/alpha: edited: SKILL.md"),
        "{}",
        text(&out)
    );
    assert!(
        text(&out).contains("differs from skills-lock.json's computedHash"),
        "{}",
        text(&out)
    );
    let out = skb(&p, &home, &["install", "--force"]);
    assert!(out.status.success(), "{}", text(&out));

    // Vercel's CLI still works on the project: it lists, and adds another
    // skill, with skb.lock beside its lock.
    std::fs::create_dir_all(src.join("gamma")).unwrap();
    std::fs::write(
        src.join("gamma/SKILL.md"),
        "---\nname: gamma\ndescription: gamma does things. Use it for things.\n---\nGamma.\n",
    )
    .unwrap();
    let listed = npx_skills(&p, &home, &["list"]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("alpha"));
    npx_skills(
        &p,
        &home,
        &[
            "add",
            src.join("gamma").to_str().unwrap(),
            "-y",
            "-a",
            "claude-code",
        ],
    );
    assert!(p.join(".claude/skills/gamma/SKILL.md").is_file());
    let out = skb(&p, &home, &["verify", "--installed"]);
    assert!(out.status.success(), "{}", text(&out));
}

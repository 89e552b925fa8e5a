//! A valid skill, embedded and used at all three levels: metadata, activation
//! and files. `#![deny(warnings)]` makes any warning from the macro fail.

#![deny(warnings)]

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid");

fn main() {
    assert_eq!(SKILLS.len(), 1);
    let greeter = SKILLS.get("greeter").expect("embedded");
    assert_eq!(
        greeter.description(),
        "Greets people by name. Use when the user says hello."
    );
    assert_eq!(greeter.license(), Some("MIT"));
    assert!(SKILLS.get("nobody").is_none());

    let paths: Vec<&str> = greeter.files().map(|f| f.path()).collect();
    assert_eq!(
        paths,
        ["SKILL.md", "assets/logo.txt", "references/phrases.md"]
    );
    assert_eq!(
        greeter.read("references/phrases.md").expect("read"),
        b"Hello, friend!\n"
    );
    assert_eq!(greeter.read("./assets/logo.txt").expect("read"), b"(o_o)\n");
    assert!(greeter.read("../valid/greeter/SKILL.md").is_err());

    let activation = greeter.activate("Ada").expect("activate");
    assert_eq!(activation.name, "greeter");
    assert_eq!(
        activation.content,
        "Base directory for this skill: skill://greeter\n\n\
         # Greeter\n\nGreet Ada warmly, using `references/phrases.md`.\n"
    );
    let tools: Vec<String> = activation
        .allowed_tools
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(tools, ["Read", "Bash(git log:*)"]);
    assert!(
        SKILLS.catalog().contains("<name>\ngreeter\n</name>"),
        "{}",
        SKILLS.catalog()
    );
}

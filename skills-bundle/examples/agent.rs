//! Walks the three levels of progressive disclosure over the example skills
//! compiled into this binary, offline: `cargo run -p skills-bundle --example agent`.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("../skills");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{} skills, digest {}\n", SKILLS.len(), SKILLS.digest());

    // Level 1: names and descriptions, and the prompt block built at compile time.
    for skill in SKILLS.skills() {
        println!("- {} ({} files)", skill.name(), skill.files().len());
    }
    println!("\n{}\n", SKILLS.catalog());

    // Level 2: activation, with `$ARGUMENTS` substituted.
    let calc = SKILLS.get("calculator").ok_or("no calculator skill")?;
    let activation = calc.activate("15 * 23")?;
    let tools: Vec<String> = activation
        .allowed_tools
        .iter()
        .map(ToString::to_string)
        .collect();
    println!("allowed tools: {}", tools.join(" "));
    println!(
        "{}\n",
        activation
            .content
            .lines()
            .take(3)
            .collect::<Vec<_>>()
            .join("\n")
    );

    // Level 3: a resource, decompressed on first read and cached.
    let script = calc.read("scripts/calc.py")?;
    println!(
        "scripts/calc.py: {} bytes, starts with {:?}",
        script.len(),
        std::str::from_utf8(&script[..21])?
    );

    // A path outside the skill is refused by construction.
    if let Err(e) = calc.read("../git-workflow/SKILL.md") {
        println!("refused: {e}");
    }
    Ok(())
}

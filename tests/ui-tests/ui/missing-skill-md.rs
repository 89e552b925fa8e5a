//! A skill directory without `SKILL.md`.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/missing-skill-md");

fn main() {
    // A failed expansion is still a `Bundle`: no second error here.
    let _ = SKILLS.get("notes");
}

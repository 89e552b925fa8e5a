//! A lint (`SK307`: the description never says when to use the skill) is a
//! warning, and an error with `warnings = "deny"`.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/description-no-trigger", warnings = "deny");

fn main() {
    let _ = SKILLS.get("notes");
}

//! `lints` takes a boolean, not a number.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid", lints = 1);

fn main() {
    let _ = SKILLS.get("greeter");
}

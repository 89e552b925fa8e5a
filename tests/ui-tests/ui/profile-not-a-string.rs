//! `profile` given as an identifier instead of a string.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid", profile = spec);

fn main() {
    let _ = SKILLS.get("greeter");
}

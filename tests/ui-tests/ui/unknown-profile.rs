//! `profile` names a profile that does not exist.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid", profile = "claude");

fn main() {
    let _ = SKILLS.get("greeter");
}

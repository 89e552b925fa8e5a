//! `warnings` takes "warn", "deny" or "allow".

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid", warnings = "error");

fn main() {
    let _ = SKILLS.get("greeter");
}

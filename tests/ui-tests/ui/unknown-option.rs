//! An option the macro does not know.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid", strict = true);

fn main() {
    let _ = SKILLS.get("greeter");
}

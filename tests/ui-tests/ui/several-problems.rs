//! No `name`, an overlong `description` and an unexpected key: all three are reported.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/several-problems");

fn main() {
    // A failed expansion is still a `Bundle`: no second error here.
    let _ = SKILLS.get("notes");
}

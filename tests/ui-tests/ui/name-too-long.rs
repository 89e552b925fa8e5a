//! `name` has 65 characters; the limit is 64.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/name-too-long");

fn main() {
    // A failed expansion is still a `Bundle`: no second error here.
    let _ = SKILLS.get("notes");
}

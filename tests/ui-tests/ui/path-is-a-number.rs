//! A literal that is not a string where a path belongs.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!(42);

fn main() {
    let _ = SKILLS.get("greeter");
}

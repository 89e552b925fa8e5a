//! An empty string where a path belongs.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("");

fn main() {
    let _ = SKILLS.get("greeter");
}

//! The path must be a string literal: a constant is not expanded by then.

use skills_bundle::{Bundle, skills_bundle};

const SKILLS_DIR: &str = "ui/skills/valid";

static SKILLS: Bundle = skills_bundle!(SKILLS_DIR);

fn main() {
    let _ = SKILLS.get("greeter");
}

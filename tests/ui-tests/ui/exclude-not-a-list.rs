//! `exclude` takes a list of globs, not one string.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid", exclude = "**/evals/**");

fn main() {
    let _ = SKILLS.get("greeter");
}

//! `SKILL.md` does not open with a `---` line.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/missing-frontmatter");

fn main() {
    // A failed expansion is still a `Bundle`: no second error here.
    let _ = SKILLS.get("notes");
}

//! No `---` line closes the frontmatter.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/unclosed-frontmatter");

fn main() {
    // A failed expansion is still a `Bundle`: no second error here.
    let _ = SKILLS.get("notes");
}

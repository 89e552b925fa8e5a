//! Two roots each hold a skill called `notes`: the first is kept, the second
//! is warning `SK006`, an error here because of `warnings = "deny"`.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!(
    "ui/skills/duplicate-skill-name/team",
    "ui/skills/duplicate-skill-name/personal",
    warnings = "deny",
);

fn main() {
    let _ = SKILLS.get("notes");
}

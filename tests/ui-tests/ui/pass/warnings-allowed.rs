//! A skill with warnings (no "when to use" hint, a missing referenced file)
//! compiles silently with `warnings = "allow"`: `#![deny(warnings)]` would
//! fail the build if one leaked through.

#![deny(warnings)]

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/warnings-allowed", warnings = "allow");

fn main() {
    let notes = SKILLS
        .get("notes")
        .expect("a skill with warnings is still embedded");
    assert_eq!(notes.description(), "Formats things.");
}

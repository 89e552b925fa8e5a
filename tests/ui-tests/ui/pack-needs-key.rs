//! Embedding a pack without saying how to trust it is refused.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!(pack = "ui/packs/greeter.skillpack");

fn main() {
    let _ = SKILLS.len();
}

//! Options but no skills directory.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!(profile = "spec");

fn main() {
    let _ = SKILLS.get("greeter");
}

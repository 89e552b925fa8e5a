//! A pack that is not there.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!(pack = "ui/packs/nowhere.skillpack", unsigned = true);

fn main() {
    let _ = SKILLS.len();
}

//! A pack is embedded as it is: directories cannot be added to it.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid", pack = "ui/packs/greeter.skillpack", unsigned = true);

fn main() {
    let _ = SKILLS.len();
}

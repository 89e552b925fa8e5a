//! Without a signature the macro still checks every file's SHA-256.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!(pack = "ui/packs/tampered.skillpack", unsigned = true);

fn main() {
    let _ = SKILLS.len();
}

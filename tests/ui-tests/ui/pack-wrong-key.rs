//! A pack signed by another key than the one named is refused at compile time.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!(
    pack = "ui/packs/greeter.skillpack",
    pubkey = "ui/packs/other.pub",
);

fn main() {
    let _ = SKILLS.len();
}
